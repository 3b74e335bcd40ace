/**
 * Graceful node shutdown (pkg/kubelet/nodeshutdown, KubeletConfiguration shutdownGracePeriod and
 * shutdownGracePeriodCriticalPods): on a shutdown the kubelet posts Ready=False, stops every pod
 * with its grace period capped at shutdownGracePeriod − shutdownGracePeriodCriticalPods, reports
 * them Failed (so their controllers replace them at once, long before any eviction), and the node
 * powers off when it is done or the delay ends. With shutdownGracePeriod 0 a shutdown is a crash.
 * Small timers where the logic does not depend on the defaults.
 */
import { describe, expect, it } from 'vitest';
import { always, alwaysStep, sometimes } from '../../checker/index.js';
import { resolveConfig, type ClusterState } from '../../model/index.js';
import { defaultProperties, kubernetesModel } from '../../properties/index.js';
import { measureTiming } from '../../properties/timing.js';
import { checkWith, run, SMALL_TIMERS } from './helpers.js';

const SHUTDOWN = 6;
const CRITICAL = 2;
const CAP = SHUTDOWN - CRITICAL; // the grace period left to ordinary pods
const SET = {
  ...SMALL_TIMERS,
  'cluster.nodes': '2',
  'cluster.replicaSetReplicas': '1',
  'cluster.statefulSetReplicas': '1',
  // Longer than the cap: the shutdown cuts it short.
  'cluster.terminationGracePeriodSeconds': '10',
  'faults.nodeCrash': '0',
  'faults.nodeShutdown': '1',
  'kubelet.shutdownGracePeriod': `${SHUTDOWN}s`,
  'kubelet.shutdownGracePeriodCriticalPods': `${CRITICAL}s`,
};

const elapsed = (n: { shutdownIn?: number }): number => SHUTDOWN - (n.shutdownIn ?? SHUTDOWN);
const shuttingDown = (s: ClusterState): number => s.nodes.findIndex((n) => n.shutdownIn !== undefined);

describe('graceful node shutdown', () => {
  it('should post Ready=False, stop the pods within the capped grace period and replace them before the node is even Unknown', () => {
    const r = checkWith('node-failure', SET, [
      'statefulset-at-most-one',
      'replicaset-at-most-replicas',
      'running-pods-keep-running',
      'replacement-within',
      sometimes<ClusterState>('not-ready-while-up', 'a node shutting down is Ready=False while still up', (s) => {
        const n = shuttingDown(s);
        return n >= 0 && s.nodes[n].up && s.api.nodes[n]?.ready === 'False';
      }),
      // Replaced at once: a replacement of each workload (web-0 on node-1, db-0 on node-2) runs while no node is Unknown yet.
      ...['web', 'db'].map((w) =>
        sometimes<ClusterState>(`${w}-replaced-before-unknown`, `${w} runs a replacement before any node is Unknown`, (s) =>
          s.api.nodes.every((o) => o?.ready !== 'Unknown') && s.api.pods.some((p) => p.workload === w && p.replacement && s.nodes[p.nodeName]?.running.includes(p.name)))),
      // The two ends of the kill: SIGKILL exactly at the cap, never before it.
      alwaysStep<ClusterState>('killed-at-cap', 'no SIGKILL exactly at the capped grace period (violated = reached)', (b, a) => !(a.name === 'kubelet-kill' && shuttingDown(b) >= 0 && elapsed(b.nodes[shuttingDown(b)]) === CAP)),
      alwaysStep<ClusterState>('not-killed-early', 'no SIGKILL before the capped grace period', (b, a) => !(a.name === 'kubelet-kill' && shuttingDown(b) >= 0 && elapsed(b.nodes[shuttingDown(b)]) < CAP)),
      always<ClusterState>('capped', 'no container of a node shutting down has more than the cap left', (s) => s.nodes.every((n) => n.shutdownIn === undefined || (n.terminating ?? []).every((t) => t.killIn <= CAP))),
    ]);
    expect(r.status).toEqual({
      'statefulset-at-most-one': 'holds',
      'replicaset-at-most-replicas': 'holds',
      'running-pods-keep-running': 'holds',
      'replacement-within': 'holds',
      'not-ready-while-up': 'witnessed',
      'web-replaced-before-unknown': 'witnessed',
      'db-replaced-before-unknown': 'witnessed',
      'killed-at-cap': 'violated',
      'not-killed-early': 'holds',
      capped: 'holds',
    });
  });

  it('should report nothing from a node cut off while it shuts down: its pods wait for the eviction', () => {
    // Three nodes: with two, the shutdown and the partition can take both and nothing is replaced.
    const r = checkWith('node-failure', { ...SET, 'cluster.nodes': '3', 'faults.nodePartition': '1', 'cluster.statefulSetReplicas': '0' }, [
      'replicaset-at-most-replicas',
      'replacement-within',
      sometimes<ClusterState>('evicted-after-shutdown', 'a pod of a node that shut down cut off is evicted by the taint eviction controller', (s) => s.api.pods.some((p) => p.deletion === 'taint-eviction')),
    ]);
    expect(r.status).toEqual({ 'replicaset-at-most-replicas': 'holds', 'replacement-within': 'holds', 'evicted-after-shutdown': 'witnessed' });
  });

  it('should cap a grace period already running when the shutdown begins, and power off a node whose kubelet dies in it', () => {
    const r = checkWith('node-failure', { ...SET, 'operator.forceDeletePod': '1', 'faults.kubeletCrash': '1' }, [
      'statefulset-at-most-one',
      always<ClusterState>('capped', 'no container of a node shutting down has more than the cap left', (s) => s.nodes.every((n) => n.shutdownIn === undefined || (n.terminating ?? []).every((t) => t.killIn <= CAP))),
      always<ClusterState>('no-kubelet-less-shutdown', 'no node is shutting down without its kubelet', (s) => s.nodes.every((n) => n.shutdownIn === undefined || n.kubeletUp)),
    ]);
    expect(r.status).toEqual({ 'statefulset-at-most-one': 'violated', capped: 'holds', 'no-kubelet-less-shutdown': 'holds' });
  });

  it('should let time pass and power off a node whose status updates fail while it shuts down, with a DaemonSet pod on it', () => {
    // No Ready=False reaches the API, so no not-ready:NoSchedule taint keeps the DaemonSet
    // controller from recreating its pod there: the recreated pod is left bound, never started.
    const { 'cluster.replicaSetReplicas': _rs, 'cluster.statefulSetReplicas': _ss, ...rest } = SET;
    const r = checkWith('node-failure', {
      ...rest,
      'cluster.workloads': JSON.stringify([{ kind: 'ReplicaSet', name: 'web', replicas: 1 }, { kind: 'DaemonSet', name: 'agent' }]),
      'faults.nodeStatusUpdateFailure': '1',
    }, [sometimes<ClusterState>('powered-off-unreported', 'a node whose status updates fail powers off after its shutdown', (s) => s.nodes.some((n) => !n.up && n.statusStuck))]);
    expect(r.status).toEqual({ 'powered-off-unreported': 'witnessed' });
  });

  it('should time a graceful shutdown from the node\'s last heartbeat: Ready=False at once, replacements before any eviction', () => {
    const config = resolveConfig('node-failure', { set: { ...SET, 'cluster.statefulSetReplicas': '0' }, allowUnsafe: true });
    const table = measureTiming(kubernetesModel(config), config);
    const row = (event: string) => table.rows.find((r) => r.workload === 'web' && r.event === event)!;
    expect(table.complete).toBe(true);
    // The kubelet posts Ready=False at once: here it renews every second, so in the instant of its last renewal.
    expect([row('node-unknown').earliest, row('node-unknown').latest]).toEqual([0, 0]);
    expect(row('pod-evicted').earliest).toBeNull();
    expect(row('replacement-created').latest).toBeLessThanOrEqual(CAP + 1);
  });

  it('should take a shutdown for a crash when shutdownGracePeriod is 0', () => {
    const crash = run('node-failure', { ...SMALL_TIMERS, 'faults.nodeCrash': '1' });
    const shutdown = run('node-failure', { ...SMALL_TIMERS, 'faults.nodeCrash': '0', 'faults.nodeShutdown': '1' });
    expect(shutdown.result.stats.distinctStates).toBe(crash.result.stats.distinctStates);
    expect(shutdown.status).toEqual(crash.status);
  });

  it('should refuse a critical-pods share above the whole, and leave replacement-after-toleration out only when shutdowns are graceful', () => {
    expect(() => resolveConfig('node-failure', { set: { 'kubelet.shutdownGracePeriod': '10s', 'kubelet.shutdownGracePeriodCriticalPods': '20s' } })).toThrow(/kubelet.shutdownGracePeriodCriticalPods \(20s\) must not exceed kubelet.shutdownGracePeriod \(10s\)/);
    const graceful = defaultProperties('node-failure', resolveConfig('node-failure', { set: { 'faults.nodeShutdown': '1', 'kubelet.shutdownGracePeriod': '30s' } }));
    expect(graceful.ids).not.toContain('replacement-after-toleration');
    expect(graceful.ids).toContain('replacement-within');
    expect(defaultProperties('node-failure', resolveConfig('node-failure', { set: { 'faults.nodeShutdown': '1' } })).ids).toContain('replacement-after-toleration');
  });
});

describe('critical pods in a graceful node shutdown', () => {
  // Both on node-1 (pinned; StatefulSets, whose pods are not replaced while they exist, where a
  // pinned ReplicaSet's would be replaced without end on a node that is gone): the ordinary web-0
  // and the critical agent-0 (system-node-critical), each with a grace period longer than its
  // group's; the node shuts down.
  const workloads = (agentPriority: Record<string, unknown>): string =>
    JSON.stringify([
      { kind: 'StatefulSet', name: 'web', replicas: 1, nodeName: 'node-1' },
      { kind: 'StatefulSet', name: 'agent', replicas: 1, nodeName: 'node-1', ...agentPriority },
    ]);
  const set = (agentPriority: Record<string, unknown>): Record<string, string> => {
    const { 'cluster.replicaSetReplicas': _r, 'cluster.statefulSetReplicas': _s, ...rest } = SET;
    return { ...rest, 'cluster.workloads': workloads(agentPriority) };
  };
  const node1 = (s: ClusterState) => s.nodes[0];
  /** agent-0's SIGTERM, at the elapsed time of the shutdown, while web-0 still runs or not. */
  const agentStopped = (b: ClusterState, a: ClusterState): boolean =>
    node1(b).shutdownIn !== undefined && node1(b).running.includes('agent-0') && !(node1(b).terminating ?? []).some((t) => t.pod === 'agent-0') && ((node1(a).terminating ?? []).some((t) => t.pod === 'agent-0') || !node1(a).running.includes('agent-0'));
  const props = [
    // The second group starts when the first's period is over (elapsed = CAP) or its pods are gone, never before.
    alwaysStep<ClusterState>('critical-last', 'agent-0 is stopped only once web-0 has stopped or the ordinary pods\' period is over', (b, _x, a) => !agentStopped(b, a) || elapsed(node1(b)) >= CAP || !node1(b).running.includes('web-0')),
    alwaysStep<ClusterState>('critical-at-cap', 'agent-0 is not stopped at the end of the ordinary pods\' period (violated = reached)', (b, _x, a) => !(agentStopped(b, a) && elapsed(node1(b)) === CAP)),
    // The other end: the ordinary group done early (web-0 exits within its grace), the critical group starts at once.
    alwaysStep<ClusterState>('critical-early', 'agent-0 is not stopped before the end of the ordinary pods\' period (violated = reached)', (b, _x, a) => !(agentStopped(b, a) && elapsed(node1(b)) < CAP)),
    always<ClusterState>('critical-capped', 'agent-0 never has more than shutdownGracePeriodCriticalPods left', (s) => (node1(s).shutdownIn === undefined ? true : (node1(s).terminating ?? []).every((t) => t.pod !== 'agent-0' || t.killIn <= CRITICAL))),
  ];

  it('should stop a system-node-critical pod in the last shutdownGracePeriodCriticalPods, after the ordinary pods, capped at that period', () => {
    const r = checkWith('node-failure', set({ priorityClassName: 'system-node-critical' }), props);
    expect(r.status).toEqual({ 'critical-last': 'holds', 'critical-at-cap': 'violated', 'critical-early': 'violated', 'critical-capped': 'holds' });
  });

  it('should stop an ordinary pod (no priority class) with the others, at once', () => {
    const r = checkWith('node-failure', set({}), props);
    expect(r.status['critical-last']).toBe('violated');
    expect(r.status['critical-capped']).toBe('violated');
  });

  it('should read priorityClassName from a manifest and a PriorityClass of the user\'s own', () => {
    const config = resolveConfig('node-failure', { set: set({ priority: 2_000_000_500 }) });
    expect(config.cluster.workloads.find((w) => w.name === 'agent')?.priority).toBe(2_000_000_500);
    expect(() => resolveConfig('node-failure', { set: set({ priorityClassName: 'high' }) })).toThrow(/priorityClassName: expected system-cluster-critical or system-node-critical/);
  });
});
