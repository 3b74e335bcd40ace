/**
 * Writes of the cluster's own workloads from a reconcile: an operator scales a StatefulSet or a
 * Deployment (its ReplicaSet) by patching or updating spec.replicas, reads the workload objects
 * with their status, and the workload controllers follow: a ReplicaSet creates or deletes pods, a
 * StatefulSet creates ordinals from the lowest and deletes condemned ones from the highest
 * (OrderedReady: one at a time, each once the one above is gone; Parallel: without waiting).
 */
import { describe, expect, it } from 'vitest';
import { alwaysStep, check, sometimes, type Property } from '../../checker/index.js';
import { stateKey } from '../../model/key.js';
import { kubernetesScenario } from '../../api/testing.js';
import { objectOf, operator, type ApiObject, type Write } from '../../model/operator/index.js';
import type { ClusterExtension } from '../../model/clusterModel.js';
import type { ClusterState } from '../../model/state.js';
import { timelineSteps } from '../../reports/timeline.js';
import { checkWith, statusOf } from './helpers.js';

/** A `Scaler` custom resource names a workload and the replicas it should have; the operator writes them. */
function scaler(options: { readonly target: string; readonly from: number; readonly to: number; readonly how?: 'patch' | 'update' }): ClusterExtension {
  return operator({
    name: 'scaler',
    for: 'Scaler',
    watches: [{ kind: options.target.split('/')[0], map: () => ['s'] }],
    objects: [{ kind: 'Scaler', metadata: { name: 's' }, spec: { replicas: options.from } }],
    clients: [{ name: 'resize', writes: () => [{ op: 'patch', kind: 'Scaler', name: 's', patch: { spec: { replicas: options.to } } }], description: `kubectl patch scaler s: replicas ${options.to}` }],
    reconcile(request, view) {
      const want = (view.get('Scaler', request)?.spec as { replicas: number } | undefined)?.replicas;
      const [kind, name] = options.target.split('/');
      const target = view.get(kind, name);
      if (want === undefined || target === undefined || (target.spec as { replicas: number }).replicas === want) return {};
      const write: Write = options.how === 'update' ? { op: 'update', object: { ...target, spec: { ...(target.spec as object), replicas: want } } } : { op: 'patch', kind, name, patch: { spec: { replicas: want } } };
      return { writes: [write] };
    },
  });
}

const scenario = (extension: ClusterExtension, set: Record<string, string> = {}, file?: unknown) =>
  kubernetesScenario('node-failure', { set: { 'faults.nodeCrash': '0', ...set }, extensions: [extension], ...(file === undefined ? {} : { file }) });

const podsOf = (s: ClusterState, w: string): string[] => s.api.pods.filter((p) => p.workload === w).map((p) => `${p.name}${p.deletion === null ? '' : ' (Terminating)'}`);
const running = (s: ClusterState, w: string): string[] => s.nodes.flatMap((n) => n.running.filter((r) => r.startsWith(`${w}-`))).sort();
const dbFile = (policy: 'OrderedReady' | 'Parallel', replicas: number) => ({ cluster: { workloads: [{ kind: 'StatefulSet', name: 'db', replicas, podManagementPolicy: policy }] } });


/** Reachable: the state where the workload's pods and running containers are exactly `pods`. */
const settled = (w: string, pods: readonly string[]): Property<ClusterState> =>
  sometimes<ClusterState>(`settled-${w}`, `${w} runs exactly ${pods.join(', ')}`, (s) => JSON.stringify(podsOf(s, w)) === JSON.stringify(pods) && JSON.stringify(running(s, w)) === JSON.stringify(pods));

describe('an operator scaling the cluster\'s workloads', () => {
  it('scales a StatefulSet down: the condemned ordinal is deleted gracefully, the lower one stays, and the scale reads back', async () => {
    const { model } = await scenario(scaler({ target: 'StatefulSet/db', from: 2, to: 1 }), { 'cluster.statefulSetReplicas': '2', 'cluster.replicaSetReplicas': '0' });
    const r = checkWith(model, [settled('db', ['db-0'])]);
    expect(r.verdict).toBe('ok');
    const trace = r.properties[0].trace!;
    const steps = timelineSteps(model, trace).map((s) => `${s.actor}: ${s.summary}`);
    expect(steps).toContain('scaler: patch StatefulSet/db: ok');
    expect(steps).toContain('kube-controller-manager/statefulset: deletes db-1 (scale-down to 1)');
    const last = trace.states.at(-1)!;
    expect(last.api.scale).toEqual({ db: { replicas: 1 } });
    // The workload object the operator reads: spec.replicas as written, status from its pods.
    const { stockObjects } = await import('../../model/operator/api.js');
    expect(stockObjects(last, 'StatefulSet')).toEqual([
      { kind: 'StatefulSet', metadata: { name: 'db', uid: 'StatefulSet-db', resourceVersion: '', generation: 1 }, spec: { replicas: 1, podManagementPolicy: 'OrderedReady', persistentVolumeClaimRetentionPolicy: { whenDeleted: 'Retain', whenScaled: 'Retain' } }, status: { replicas: 1, readyReplicas: 1 } },
    ]);
    // db-0 is never deleted on the way: only db-1 is condemned.
    const never = alwaysStep<ClusterState>('db-0-kept', 'db-0 is never deleted', (b, _a, a) => !(podsOf(b, 'db').includes('db-0') && !podsOf(a, 'db').includes('db-0')));
    expect(checkWith(model, [never]).verdict).toBe('ok');
  });

  it('OrderedReady deletes the highest condemned ordinal first and the next only once it is gone; Parallel deletes them together', async () => {
    const deletedBefore = alwaysStep<ClusterState>('db-1-after-db-2', 'db-1 is deleted only once db-2 is gone', (b, _a, a) => {
      const marked = (s: ClusterState) => podsOf(s, 'db').includes('db-1 (Terminating)') || !podsOf(s, 'db').some((p) => p.startsWith('db-1'));
      return !(!marked(b) && marked(a) && podsOf(a, 'db').some((p) => p.startsWith('db-2')));
    });
    const ordered = await scenario(scaler({ target: 'StatefulSet/db', from: 3, to: 1 }), {}, dbFile('OrderedReady', 3));
    const r = checkWith(ordered.model, [deletedBefore, settled('db', ['db-0'])]);
    expect(statusOf(r)).toEqual({ 'db-1-after-db-2': 'holds', 'settled-db': 'witnessed' });
    const parallel = await scenario(scaler({ target: 'StatefulSet/db', from: 3, to: 1 }), {}, dbFile('Parallel', 3));
    expect(statusOf(checkWith(parallel.model, [deletedBefore]))['db-1-after-db-2']).toBe('violated');
  });

  it('scales a StatefulSet up by an update of the object it read: the new ordinal is created once the lower ones run', async () => {
    const { model } = await scenario(scaler({ target: 'StatefulSet/db', from: 1, to: 2, how: 'update' }), { 'cluster.replicaSetReplicas': '0' });
    const r = checkWith(model, [settled('db', ['db-0', 'db-1'])]);
    expect(r.verdict).toBe('ok');
    expect(r.properties[0].trace!.states.at(-1)!.api.scale).toEqual({ db: { replicas: 2 } });
  });

  it('scales a Deployment down without a false excess: replicaset-at-most-replicas holds, and the pods come down to the new count', async () => {
    const { model, properties } = await scenario(scaler({ target: 'Deployment/web', from: 2, to: 1 }), { 'cluster.statefulSetReplicas': '0' });
    expect(properties).toContain('replicaset-at-most-replicas');
    const r = checkWith(model, [settled('web', ['web-0'])], ['replicaset-at-most-replicas']);
    expect(statusOf(r)).toEqual({ 'replicaset-at-most-replicas': 'holds', 'settled-web': 'witnessed' });
    // The scale-down recorded the two pods active then; the controller's sync ends that allowance.
    const trace = r.properties.find((x) => x.id === 'settled-web')!.trace!;
    expect(trace.states.some((x) => x.api.scale?.web?.ceiling === 2)).toBe(true);
    expect(trace.states.at(-1)!.api.scale).toEqual({ web: { replicas: 1 } });
    // A scale back to the configured replicas leaves no trace in the state.
    const { scaleWorkload } = await import('../../model/operator/api.js');
    const start = model.initialStates()[0];
    expect(scaleWorkload(start, 'Deployment', 'web', 2)[0]).toEqual(start);
  });

  it('answers a count that is not a whole number with 422 Invalid, and refuses writes to workloads it does not model', async () => {
    const { scaleWorkload } = await import('../../model/operator/api.js');
    const { model } = await scenario(scaler({ target: 'StatefulSet/db', from: 1, to: 1 }));
    const start = model.initialStates()[0];
    expect(scaleWorkload(start, 'StatefulSet', 'db', -1)[1]).toBe('Invalid');
    expect(scaleWorkload(start, 'StatefulSet', 'db', 1.5)[1]).toBe('Invalid');
    expect(scaleWorkload(start, 'StatefulSet', 'nope', 1)[1]).toBe('NotFound');
    const [scaled, ok] = scaleWorkload(start, 'Deployment', 'web', 3);
    expect(ok).toBe('ok');
    expect(scaled.api.scale).toEqual({ web: { replicas: 3 } });
    const bad = (writes: Write[]) =>
      operator({ name: 'bad', for: 'Thing', objects: [{ kind: 'Thing', metadata: { name: 't' } }], watches: [{ kind: 'StatefulSet', map: () => ['t'] }], reconcile: () => ({ writes }) });
    const labels = await scenario(bad([{ op: 'patch', kind: 'StatefulSet', name: 'db', patch: { labels: { a: 'b' } } }]));
    expect(() => check(labels.model, { maxStates: 200 })).toThrow(/a patch of StatefulSet\/db other than \{spec: \{replicas\}\} is not modelled/);
    const del = await scenario(bad([{ op: 'delete', kind: 'Deployment', name: 'web' }]));
    expect(() => check(del.model, { maxStates: 200 })).toThrow(/a delete of a Deployment is not modelled/);
    const policy: ApiObject = { kind: 'StatefulSet', metadata: { name: 'db', uid: 'StatefulSet-db', resourceVersion: '', generation: 1 }, spec: { replicas: 1, podManagementPolicy: 'Parallel' } };
    const immutable = await scenario(bad([{ op: 'update', object: policy }]));
    expect(() => check(immutable.model, { maxStates: 200 })).toThrow(/podManagementPolicy \(immutable/);
  });

  it('reads workloads without turning symmetry off (they name no node), and the scale is part of the state', async () => {
    const reads = scaler({ target: 'StatefulSet/db', from: 1, to: 2 });
    expect(reads.symmetric).toBe(true);
    const { model } = await scenario(reads, { 'cluster.replicaSetReplicas': '0' });
    const start = model.initialStates()[0];
    const { scaleWorkload } = await import('../../model/operator/api.js');
    const [scaled] = scaleWorkload(start, 'StatefulSet', 'db', 2);
    expect(stateKey(scaled)).not.toBe(stateKey(start));
    expect(objectOf(start, 'Scaler', 's')?.spec).toEqual({ replicas: 1 });
  });
});

describe('a StatefulSet scaled down keeps or deletes its claims by its retention policy', () => {
  const withClaims = (whenScaled: 'Retain' | 'Delete') => ({ cluster: { nodes: 1, workloads: [{ kind: 'StatefulSet', name: 'db', replicas: 2, volumeClaimTemplates: [{ name: 'data', topology: 'node' }], persistentVolumeClaimRetentionPolicy: { whenDeleted: 'Retain', whenScaled } }] } });
  const claims = (s: ClusterState): string[] => (s.api.claims ?? []).map((c) => `${c.name}${c.deleting === true ? ' (Terminating)' : ''}`);
  const outcome = async (whenScaled: 'Retain' | 'Delete') => {
    const { model } = await scenario(scaler({ target: 'StatefulSet/db', from: 2, to: 1 }), { 'cluster.terminationGracePeriodSeconds': '1' }, withClaims(whenScaled));
    // Once db-1 is gone, which claims are left, and whether data-db-1 was ever Terminating while db-1 still ran.
    const left = sometimes<ClusterState>('claims-left', 'db-1 is gone and data-db-1 is gone', (s) => podsOf(s, 'db').join() === 'db-0' && running(s, 'db').join() === 'db-0' && !claims(s).some((c) => c.startsWith('data-db-1')));
    const early = sometimes<ClusterState>('claim-deleted-early', 'data-db-1 is Terminating or gone while db-1 is scheduled', (s) => podsOf(s, 'db').some((p) => p.startsWith('db-1')) && !claims(s).includes('data-db-1'));
    const r = checkWith(model, [left, early]);
    return { status: Object.fromEntries(r.properties.map((p) => [p.id, p.status])), steps: r.properties[0].trace === undefined ? [] : timelineSteps(model, r.properties[0].trace).map((s) => `${s.actor}: ${s.summary}`) };
  };

  it('Retain (the default) keeps data-db-1; Delete removes it once db-1 is gone, never before', async () => {
    expect((await outcome('Retain')).status['claims-left']).toBe('unwitnessed');
    const deleted = await outcome('Delete');
    expect(deleted.status['claims-left']).toBe('witnessed');
    expect(deleted.status['claim-deleted-early']).toBe('unwitnessed');
    expect(deleted.steps).toContain('kube-controller-manager/garbagecollector: deletes data-db-1 (whenScaled: Delete; owned by the scaled-down pod db-1, which is gone)');
    expect(deleted.steps).toContain('kube-controller-manager/pvc-protection: removes the kubernetes.io/pvc-protection finalizer of data-db-1 (no scheduled pod uses it): the claim is gone');
  });
});
