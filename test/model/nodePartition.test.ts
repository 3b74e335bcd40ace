/**
 * Acceptance 2: `node-partition`. A partitioned node keeps running its pods while the control
 * plane evicts them; a ReplicaSet may then run an extra copy, a StatefulSet must not, unless an
 * operator removes the old pod object without the kubelet's confirmation.
 */
import { describe, expect, it } from 'vitest';
import { run as runScenario, steps } from './helpers.js';

/**
 * These checks are about partitions, deletions and taints, not how long containers take to stop:
 * a 1 s termination grace period keeps the spaces of the variants with a heal as small as they
 * were (termination itself is tested in termination.test.ts).
 */
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

  it('should violate statefulset-at-most-one with one force delete, in 6 steps (pick a node, then bind)', () => {
    const r = run('node-partition', { 'operator.forceDeletePod': '1' }, ['statefulset-at-most-one']);
    expect(r.status['statefulset-at-most-one']).toBe('violated');
    const trace = steps(r, 'statefulset-at-most-one');
    // Shortest: the node must be cut off first (a connected kubelet stops db-0 within the
    // instant, before any controller reacts), then the force delete, then the StatefulSet
    // controller recreates db-0, the scheduler binds it elsewhere and that kubelet starts it:
    // six steps (the scheduler picks a node, then binds), none of which can be left out, and no tick is needed.
    expect(trace.map((s) => s.name)).toEqual(['node-partition', 'force-delete-pod', 'statefulset-sync', 'schedule', 'bind', 'kubelet-sync']);
    expect(trace[5].summary).toMatch(/^starts db-0 on node-[12]$/);
  });

  it('should violate statefulset-at-most-one when the out-of-service taint is put on the partitioned node that still runs', () => {
    const r = run('node-partition', { 'operator.outOfServiceTaint': '1' }, ['statefulset-at-most-one']);
    expect(r.status['statefulset-at-most-one']).toBe('violated');
    const trace = steps(r, 'statefulset-at-most-one');
    // Shortest: pod GC force-deletes the Terminating db-0 only once its node is NotReady, i.e.
    // from the first monitor pass 50 s or more after the last renewal the controller saw, and
    // only on a 20 s GC pass; BFS finds the fewest steps (ticks and periodic passes included)
    // that line the partition up with those passes: 88. The last steps are the chain
    // force-delete → recreate → bind elsewhere → start.
    expect(trace).toHaveLength(89);
    expect(trace.slice(-5).map((s) => s.name)).toEqual(['pod-gc', 'statefulset-sync', 'schedule', 'bind', 'kubelet-sync']);
    expect(trace[trace.length - 5].summary).toBe('force-deletes db-0');
    expect(trace.some((s) => s.name === 'out-of-service-taint')).toBe(true);
  });

  it('should hold statefulset-at-most-one when the out-of-service taint is put on a crashed node', () => {
    const r = run(
      'node-partition',
      { 'faults.nodePartition': '0', 'faults.nodePartitionHeal': '0', 'faults.nodeCrash': '1', 'operator.outOfServiceTaint': '1' },
      ['statefulset-at-most-one', 'statefulset-recreated'],
    );
    expect(r.result.verdict).toBe('ok');
    expect(r.status).toEqual({ 'statefulset-at-most-one': 'holds', 'statefulset-recreated': 'witnessed' });
  });

  it('should violate statefulset-at-most-one when the Node object of the partitioned node is deleted', () => {
    const r = run('node-partition', { 'operator.deleteNode': '1' }, ['statefulset-at-most-one']);
    expect(r.status['statefulset-at-most-one']).toBe('violated');
    const trace = steps(r, 'statefulset-at-most-one');
    // Pod GC force-deletes pods of a missing Node object only after its 40 s quarantine, on a
    // 20 s pass; BFS lines the partition and the deletion up with those passes (86 steps).
    expect(trace.slice(-5).map((s) => s.name)).toEqual(['pod-gc', 'statefulset-sync', 'schedule', 'bind', 'kubelet-sync']);
    expect(trace.map((s) => s.name)).toEqual(expect.arrayContaining(['node-partition', 'delete-node']));
  });

  it('should recreate the StatefulSet pod safely when the Node object of a crashed node is deleted', () => {
    const r = run(
      'node-partition',
      { 'cluster.replicaSetReplicas': '0', 'faults.nodePartition': '0', 'faults.nodePartitionHeal': '0', 'faults.nodeCrash': '1', 'operator.deleteNode': '1' },
      ['statefulset-at-most-one', 'statefulset-recreated'],
    );
    expect(r.result.verdict).toBe('ok');
    expect(r.status).toEqual({ 'statefulset-at-most-one': 'holds', 'statefulset-recreated': 'witnessed' });
  });
});
