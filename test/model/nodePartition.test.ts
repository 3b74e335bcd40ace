/**
 * Acceptance 2: `node-partition`. A partitioned node keeps running its pods while the control
 * plane evicts them; a ReplicaSet may then run an extra copy, a StatefulSet must not, unless an
 * operator removes the old pod object without the kubelet's confirmation.
 */
import { describe, expect, it } from 'vitest';
import { always } from '../../checker/index.js';
import type { ClusterState } from '../../model/index.js';
import { noCutOffCopy } from '../fixtures/partitionedCopy.js';
import { checkWith, run as runScenario, SMALL_TIMERS, steps } from './helpers.js';

/**
 * These checks are about partitions, deletions and taints, not how long containers take to stop:
 * a 1 s termination grace period keeps the spaces of the variants with a heal as small as they
 * were (termination itself is tested in termination.test.ts).
 */
/** For the StatefulSet's checks: short timers and no ReplicaSet (its pods' evictions only multiply the space). */
const SS_ONLY = { ...SMALL_TIMERS, 'cluster.replicaSetReplicas': '0' };

const run = (scenario: string, set: Record<string, string> = {}, properties?: readonly string[]) =>
  runScenario(scenario, { 'cluster.terminationGracePeriodSeconds': '1', ...set }, properties);

describe('node-partition', () => {
  it('should let a ReplicaSet run an extra copy while statefulset-at-most-one holds without operator action', () => {
    const r = run('node-partition');
    expect(r.result.verdict).toBe('ok');
    expect(r.status['replicaset-extra-copy']).toBe('witnessed');
    expect(r.status['statefulset-at-most-one']).toBe('holds');
    expect(r.status['pod-evicted']).toBe('witnessed');
    expect(Object.values(r.status).every((s) => s === 'holds' || s === 'witnessed')).toBe(true);
  });

  it('should violate statefulset-at-most-one with one force delete of a pod on a live node, in 6 steps', () => {
    const r = run('node-partition', { 'operator.forceDeletePod': '1' }, ['statefulset-at-most-one']);
    expect(r.status['statefulset-at-most-one']).toBe('violated');
    const trace = steps(r, 'statefulset-at-most-one');
    // Shortest: no partition is needed. The force delete removes db-0 from the API at once; its
    // kubelet sends SIGTERM and gives the container its spec grace period (the API's
    // deletionGracePeriodSeconds 0 falls back to it in the kubelet's
    // calculateEffectiveGracePeriod), while the StatefulSet controller recreates db-0, the
    // scheduler picks a node and binds it there and that kubelet starts it: six steps, no tick.
    expect(trace.map((s) => s.name)).toEqual(['force-delete-pod', 'kubelet-sync', 'statefulset-sync', 'schedule', 'bind', 'kubelet-sync']);
    expect(trace[1].summary).toMatch(/^sends SIGTERM to db-0 on node-3/);
    expect(trace[5].summary).toMatch(/^starts db-0 on node-[12]$/);
  });

  it('should run a copy on the cut-off node beside its replacement after one force delete, in 6 steps', () => {
    const r = checkWith('node-partition', { 'cluster.terminationGracePeriodSeconds': '1', 'operator.forceDeletePod': '1' }, [noCutOffCopy]);
    expect(r.status['no-cut-off-copy']).toBe('violated');
    // The node is cut off first (its kubelet never hears of the deletion), then the force delete,
    // the recreation, the scheduler's pick and bind, and the start elsewhere.
    expect(steps(r, 'no-cut-off-copy').map((s) => s.name)).toEqual(['node-partition', 'force-delete-pod', 'statefulset-sync', 'schedule', 'bind', 'kubelet-sync']);
  });

  it('should violate statefulset-at-most-one when the out-of-service taint is put on the partitioned node that still runs', () => {
    const r = run('node-partition', { ...SS_ONLY, 'operator.outOfServiceTaint': '1' }, ['statefulset-at-most-one']);
    expect(r.status['statefulset-at-most-one']).toBe('violated');
    const trace = steps(r, 'statefulset-at-most-one');
    // Pod GC force-deletes the Terminating db-0 only once its node is NotReady and only on a GC
    // pass (20 s): BFS lines the partition and the taint up with those passes. The last steps are
    // the chain force-delete → recreate → bind elsewhere → start. (Short Lease and monitor
    // timers: with the defaults the same trace is 89 steps over 267,055 states.)
    expect(trace.slice(-5).map((s) => s.name)).toEqual(['pod-gc', 'statefulset-sync', 'schedule', 'bind', 'kubelet-sync']);
    expect(trace[trace.length - 5].summary).toBe('force-deletes db-0');
    expect(trace.map((s) => s.name)).toEqual(expect.arrayContaining(['node-partition', 'out-of-service-taint']));
  });

  it('should hold statefulset-at-most-one when the out-of-service taint is put on a crashed node', () => {
    const r = run(
      'node-partition',
      { ...SS_ONLY, 'faults.nodePartition': '0', 'faults.nodePartitionHeal': '0', 'faults.nodeCrash': '1', 'operator.outOfServiceTaint': '1' },
      ['statefulset-at-most-one', 'statefulset-recreated'],
    );
    expect(r.result.verdict).toBe('ok');
    expect(r.status).toEqual({ 'statefulset-at-most-one': 'holds', 'statefulset-recreated': 'witnessed' });
  });

  it('should run a copy on the cut-off node beside its replacement when its Node object is deleted', () => {
    const r = checkWith('node-partition', { ...SS_ONLY, 'cluster.terminationGracePeriodSeconds': '1', 'operator.deleteNode': '1' }, [noCutOffCopy]);
    expect(r.status['no-cut-off-copy']).toBe('violated');
    const trace = steps(r, 'no-cut-off-copy');
    // Pod GC force-deletes pods of a missing Node object only after its 40 s quarantine, on a
    // 20 s pass; BFS lines the partition and the deletion up with those passes.
    expect(trace.slice(-5).map((s) => s.name)).toEqual(['pod-gc', 'statefulset-sync', 'schedule', 'bind', 'kubelet-sync']);
    expect(trace.map((s) => s.name)).toEqual(expect.arrayContaining(['node-partition', 'delete-node']));
  });

  it('should violate statefulset-at-most-one when the Node object of a live node is deleted: pod GC force-deletes, the kubelet still gives the grace period', () => {
    const r = run('node-partition', { ...SS_ONLY, 'operator.deleteNode': '1' }, ['statefulset-at-most-one']);
    expect(r.status['statefulset-at-most-one']).toBe('violated');
    const trace = steps(r, 'statefulset-at-most-one');
    // No partition is needed: the kubelet of a live node still sees the deletion and sends
    // SIGTERM, and the recreated pod starts elsewhere within the grace period.
    expect(trace.some((s) => s.name === 'node-partition')).toBe(false);
    expect(trace.slice(-6).map((s) => s.name)).toEqual(['pod-gc', 'kubelet-sync', 'statefulset-sync', 'schedule', 'bind', 'kubelet-sync']);
    expect(trace[trace.length - 5].summary).toMatch(/^sends SIGTERM to db-0/);
  });

  it('should recreate the StatefulSet pod when the Node object of a crashed node is deleted, two copies running only within a grace period', () => {
    // Two copies can run only while one is in its grace period on a live node whose Node object
    // was deleted (the case above); a crashed node runs nothing, so no copy outside a grace period.
    const outsideGrace = always<ClusterState>('statefulset-at-most-one-outside-grace', 'at most one copy of db-0 runs outside a grace period', (s) =>
      s.nodes.filter((n) => n.running.includes('db-0') && !(n.terminating ?? []).some((t) => t.pod === 'db-0')).length <= 1,
    );
    const r = checkWith(
      'node-partition',
      { ...SS_ONLY, 'cluster.terminationGracePeriodSeconds': '1', 'faults.nodePartition': '0', 'faults.nodePartitionHeal': '0', 'faults.nodeCrash': '1', 'operator.deleteNode': '1' },
      [outsideGrace, 'statefulset-recreated'],
    );
    expect(r.result.verdict).toBe('ok');
    expect(r.status).toEqual({ 'statefulset-at-most-one-outside-grace': 'holds', 'statefulset-recreated': 'witnessed' });
  });
});
