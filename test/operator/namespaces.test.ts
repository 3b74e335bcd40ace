/**
 * Namespaces: objects are identified by kind, namespace and name (a key `namespace/name`, as
 * client-go's cache and controller-runtime's requests name them), owners are found in their
 * dependents' namespace, and the user's manifests keep their namespaces.
 */
import { describe, expect, it } from 'vitest';
import { alwaysStep, sometimes } from '../../checker/index.js';
import { kubernetesScenario } from '../../api/testing.js';
import { applyWrite, garbageCollectable, type Write } from '../../model/operator/api.js';
import { callCount, objectOf, operator, type OperatorMemory } from '../../model/operator/index.js';
import { resolveConfig } from '../../model/resolve.js';
import type { ClusterState } from '../../model/state.js';
import { timelineSteps } from '../../reports/timeline.js';
import { checkWith, run } from './helpers.js';

const db = (name: string, namespace?: string): Write => ({ op: 'create', object: { kind: 'Database', metadata: { name, ...(namespace === undefined ? {} : { namespace }) }, spec: { size: 1 } } });

describe('namespaced objects in the API', () => {
  it('keeps one name apart in two namespaces, and refuses a second of one name in one namespace', () => {
    const { store, outcomes } = run([db('orders', 'prod'), db('orders', 'test'), db('orders', 'prod'), db('orders')]);
    expect(outcomes).toEqual(['ok', 'ok', 'AlreadyExists', 'ok']);
    expect(store.objects.Database.map((o) => `${o.metadata.namespace ?? '-'}/${o.metadata.name}`)).toEqual(['-/orders', 'prod/orders', 'test/orders']);
  });

  it('addresses an object by name and namespace or by its key, and a write to one namespace leaves the other', () => {
    const { store } = run([db('orders', 'prod'), db('orders', 'test')]);
    const { store: patched, outcomes } = run(
      [
        { op: 'patch', kind: 'Database', name: 'orders', namespace: 'prod', patch: { spec: { size: 2 } } },
        { op: 'patchStatus', kind: 'Database', name: 'test/orders', status: { ready: true } },
        { op: 'patch', kind: 'Database', name: 'orders', patch: { spec: { size: 3 } } },
        { op: 'delete', kind: 'Database', name: 'orders', namespace: 'dev' },
      ],
      store,
    );
    expect(outcomes).toEqual(['ok', 'ok', 'NotFound', 'NotFound']);
    const get = (ns: string) => patched.objects.Database.find((o) => o.metadata.namespace === ns)!;
    expect(get('prod').spec).toEqual({ size: 2 });
    expect(get('prod').status).toBeUndefined();
    expect(get('test').spec).toEqual({ size: 1 });
    expect(get('test').status).toEqual({ ready: true });
  });

  it('garbage-collects a dependent by its key, in its namespace', () => {
    const owned: Write = { op: 'create', object: { kind: 'Job', metadata: { name: 'backup', namespace: 'prod', ownerReferences: [{ kind: 'Database', name: 'orders', uid: 'uid-1', controller: true }] } } };
    const { store } = run([db('orders', 'prod'), owned, { op: 'delete', kind: 'Database', name: 'prod/orders' }]);
    expect(garbageCollectable(store).map((o) => o.name)).toEqual(['prod/backup']);
    expect(applyWrite(store, { op: 'delete', kind: 'Job', name: 'prod/backup', preconditions: { uid: 'uid-2' } })[1]).toBe('ok');
  });
});

describe('an operator of namespaced objects', () => {
  /** Takes a backup per Database (a call outside the cluster named by its key), creating a Job it owns in the Database's namespace. */
  const backups = operator({
    name: 'backups',
    for: 'Database',
    owns: ['Job'],
    objects: [
      { kind: 'Database', metadata: { name: 'orders', namespace: 'prod' } },
      { kind: 'Database', metadata: { name: 'orders', namespace: 'test' } },
    ],
    reconcile(request, view) {
      const d = view.get('Database', request);
      if (d === undefined) return {};
      const ns = d.metadata.namespace!;
      if (view.get('Job', 'backup', ns) !== undefined) return {};
      const owner = [{ kind: 'Database', name: d.metadata.name, uid: d.metadata.uid, controller: true }];
      return { writes: [{ op: 'external', call: `backup ${request}` }, { op: 'create', object: { kind: 'Job', metadata: { name: 'backup', namespace: ns, ownerReferences: owner } } }], ignore: ['AlreadyExists'] };
    },
  });
  const scenario = (extra: Record<string, string> = {}) =>
    kubernetesScenario('node-failure', { set: { 'faults.nodeCrash': '0', 'cluster.nodes': '1', 'cluster.replicaSetReplicas': '0', 'cluster.statefulSetReplicas': '0', ...extra }, extensions: [backups] });

  it('reconciles each Database by its namespace/name key, and its Job of the same name in each namespace queues its own owner', async () => {
    const { model } = await scenario();
    const both = sometimes<ClusterState>('both-backed-up', 'a Job in each namespace', (s) => objectOf(s, 'Job', 'backup', 'prod') !== undefined && objectOf(s, 'Job', 'test/backup') !== undefined && callCount(s, 'backup prod/orders') === 1 && callCount(s, 'backup test/orders') === 1);
    const r = checkWith(model, [both]);
    expect(r.properties[0].status).toBe('witnessed');
    const steps = timelineSteps(model, r.properties[0].trace!).map((s) => s.summary);
    expect(steps.some((x) => /^reconciles prod\/orders \(its cache has Database prod\/orders at rv-\d+\): plans call backup prod\/orders; create Job\/prod\/backup$/.test(x))).toBe(true);
    expect(steps.some((x) => /^create Job\/test\/backup: ok$/.test(x))).toBe(true);
    // The Job's event queues its owner by the owner's key in the Job's namespace.
    const owner = alwaysStep<ClusterState>('job-queues-owner', 'no Job event queues a Database', (b, a, x) => {
      const before = (b.extensions!.backups as unknown as OperatorMemory[])[0].queue;
      const after = (x.extensions!.backups as unknown as OperatorMemory[])[0].queue;
      return !(a.name === 'backups-watch' && (a.param as [number, string])[1] === 'Job' && after.some((q) => !before.includes(q)));
    });
    const o = checkWith(model, [owner]);
    expect(o.properties[0].status).toBe('violated');
    expect(timelineSteps(model, o.properties[0].trace!).at(-1)!.summary).toMatch(/^its informer hears ADDED Job\/(prod|test)\/backup \(rv-\d+\), queues (prod|test)\/orders$/);
    const [, ns1, ns2] = /Job\/(\w+)\/backup .*queues (\w+)\/orders$/.exec(timelineSteps(model, o.properties[0].trace!).at(-1)!.summary)!;
    expect(ns1).toBe(ns2);
  });

  it('takes the namespaces of the user\'s manifests (cluster.objects), and refuses one that is not a namespace name', async () => {
    const objects = [
      { kind: 'Database', metadata: { name: 'orders', namespace: 'prod' } },
      { kind: 'Database', metadata: { name: 'orders', namespace: 'staging' } },
    ];
    const { model } = await scenario({ 'cluster.objects': JSON.stringify(objects) });
    const [initial] = model.initialStates();
    expect(initial.custom!.objects.Database.map((o) => `${o.metadata.namespace}/${o.metadata.name}`)).toEqual(['prod/orders', 'staging/orders', 'test/orders']);
    expect(() => resolveConfig('node-failure', { set: { 'cluster.objects': JSON.stringify([{ kind: 'Database', metadata: { name: 'a', namespace: 'Prod_1' } }]) } })).toThrow(/metadata.namespace: expected a namespace name/);
    expect(() => resolveConfig('node-failure', { set: { 'cluster.objects': JSON.stringify([objects[0], objects[0]]) } })).toThrow(/Database\/prod\/orders is given twice/);
  });
});
