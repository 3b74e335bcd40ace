/**
 * Pod termination takes time (kubelet pod_workers.go `killPod`, `calculateEffectiveGracePeriod`):
 * after SIGTERM the containers run until they exit or the grace period ends (SIGKILL), for a
 * graceful delete and for a force delete alike, so a StatefulSet replacement can run beside the
 * old containers on a healthy, reachable node.
 */
import { describe, expect, it } from 'vitest';
import { always, check, sometimes } from '../../checker/index.js';
import { resolveConfig, type ClusterState } from '../../model/index.js';
import { kubernetesModel } from '../../properties/index.js';
import { isTerminating, terminatingOf } from '../../model/state.js';
import { checkWith, run, SMALL_TIMERS, steps } from './helpers.js';

/** A healthy cluster where the operator may force-delete one pod, and no node fault. */
const FORCE: Readonly<Record<string, string>> = { 'faults.nodeCrash': '0', 'operator.forceDeletePod': '1' };

const dbOn = (s: ClusterState, pod = 'db-0'): number => s.nodes.filter((n) => n.running.includes(pod)).length;

describe('pod termination', () => {
  it('should let a force-deleted StatefulSet pod\'s containers run beside its replacement on a healthy node', () => {
    const r = run('node-failure', FORCE, ['statefulset-at-most-one']);
    expect(r.status['statefulset-at-most-one']).toBe('violated');
    const trace = r.result.properties.find((p) => p.id === 'statefulset-at-most-one')!.trace!;
    const names = trace.actions.map((a) => a.name);
    expect(names[0]).toBe('force-delete-pod');
    expect(names).toContain('kubelet-sync');
    expect(names).not.toContain('tick'); // all in the same instant: the overlap needs no fault at all
    const last = trace.states[trace.states.length - 1];
    expect(dbOn(last)).toBe(2);
    // The old containers got SIGTERM with the default grace period of 30 s.
    expect(last.nodes.some((n) => terminatingOf(n).some((t) => t.pod === 'db-0' && t.killIn === 30))).toBe(true);
    expect(steps(r, 'statefulset-at-most-one').some((x) => x.summary.includes('SIGTERM to db-0'))).toBe(true);
  });

  it('should keep the overlap within the grace period, with both ends of the window reachable', () => {
    const grace = 4;
    const set = { ...FORCE, 'cluster.terminationGracePeriodSeconds': String(grace), 'cluster.replicaSetReplicas': '0' };
    const r = checkWith('node-failure', set, [
      // Never longer than the grace period.
      always<ClusterState>('within-grace', 'terminating containers have at most the grace period left', (s) => s.nodes.every((n) => terminatingOf(n).every((t) => t.killIn >= 0 && t.killIn <= grace))),
      // The late end: the replacement runs while the old containers are at their SIGKILL.
      sometimes<ClusterState>('overlap-to-sigkill', 'the old db-0 is still running when its grace period ends', (s) => dbOn(s) === 2 && s.nodes.some((n) => terminatingOf(n).some((t) => t.pod === 'db-0' && t.killIn === 0))),
      // The early end: the containers exit on SIGTERM at once.
      sometimes<ClusterState>('exit-at-once', 'the old db-0 exits before any time passes', (s) => s.budget.forceDeletePod === 0 && dbOn(s) === 1 && s.nodes.every((n) => terminatingOf(n).length === 0) && s.api.pods.some((p) => p.name === 'db-0' && p.replacement)),
    ]);
    expect(r.status['within-grace']).toBe('holds');
    expect(r.status['overlap-to-sigkill']).toBe('witnessed');
    expect(r.status['exit-at-once']).toBe('witnessed');
    // The SIGKILL end is exactly `grace` seconds of model time after the SIGTERM.
    const witness = r.result.properties.find((p) => p.id === 'overlap-to-sigkill')!.trace!;
    expect(witness.actions.filter((a) => a.name === 'tick').length).toBe(grace);
  });

  it('should hold a gracefully deleted pod\'s object while its containers terminate', () => {
    // A partitioned node's pods are evicted (gracefully); once it heals its kubelet sees the
    // deletions and sends SIGTERM: the objects stay Terminating until the containers are gone.
    const set = { ...SMALL_TIMERS, 'faults.nodePartitionHeal': '1', 'cluster.terminationGracePeriodSeconds': '3' };
    const terminatingObject = (s: ClusterState): boolean =>
      s.nodes.some((n, i) => n.up && n.kubeletUp && !n.partitioned && terminatingOf(n).some((t) => s.api.pods.some((p) => p.name === t.pod && p.nodeName === i && p.deletion !== null)));
    const r = checkWith('node-partition', set, [
      sometimes<ClusterState>('terminating-object', 'a deleted pod\'s object stays while its containers terminate', terminatingObject),
    ]);
    expect(r.status['terminating-object']).toBe('witnessed');
    const witness = r.result.properties.find((p) => p.id === 'terminating-object')!.trace!;
    expect(witness.actions.map((a) => a.name)).toContain('node-partition-heal');
  });

  it('should read terminationGracePeriodSeconds per workload from the list, at least 1 s', () => {
    const file = { cluster: { workloads: [{ kind: 'StatefulSet', name: 'db', replicas: 1, terminationGracePeriodSeconds: 0 }] } };
    const config = resolveConfig('node-failure', { file, set: FORCE });
    expect(config.cluster.workloads[0].terminationGracePeriodSeconds).toBe(0);
    const model = kubernetesModel(config);
    const result = check(model, { properties: ['statefulset-at-most-one'] });
    const trace = result.properties[0].trace!;
    const sigterm = trace.actions.map((a, i) => model.describeStep!(trace.states[i], a, trace.states[i + 1]).summary).find((x) => x.includes('SIGTERM'));
    expect(sigterm).toContain('SIGKILL after 1s');
    expect(() => resolveConfig('node-failure', { file: { cluster: { workloads: [{ kind: 'StatefulSet', name: 'db', terminationGracePeriodSeconds: -1 }] } } })).toThrow(/terminationGracePeriodSeconds/);
  });
});
