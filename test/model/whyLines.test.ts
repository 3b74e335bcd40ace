/**
 * The why-line of real counterexamples: each search below finds a violation in the model (the
 * stock cluster, or one with a misbehaving controller added as an extension), and the line the
 * reports open the counterexample with is the one the trace's own last state (or last step) calls
 * for. Expectations are read off the trace, never copied from output.
 */
import { describe, expect, it } from 'vitest';
import { action, check, type Model, type PropertyOutcome, type Trace } from '../../checker/index.js';
import { acting, candidateName, ELECTION_NAMES, leaseRenewInterval, nodeName, resolveConfig, type ClusterExtension, type ClusterState } from '../../model/index.js';
import { kubernetesModel, runningReplicas } from '../../properties/index.js';
import { replacementWithin } from '../../properties/observers.js';
import { violationWhy } from '../../reports/outcome.js';
import { run, SMALL_TIMERS } from './helpers.js';

/** The outcome of `id` in a search, its trace, its last state and its last step. */
function violation(model: Model<ClusterState>, outcome: PropertyOutcome<ClusterState> | undefined) {
  expect(outcome?.status).toBe('violated');
  const trace = outcome!.trace as Trace<ClusterState>;
  const n = trace.states.length;
  return { why: violationWhy(model, outcome!), last: trace.states[n - 1], before: trace.states[n - 2], action: trace.actions[n - 2] };
}

/** A stock-scenario violation of `id`. */
function stock(scenario: string, set: Record<string, string>, id: string) {
  const r = run(scenario, set, [id]);
  return violation(kubernetesModel(r.config), r.result.properties.find((p) => p.id === id));
}

/** A violation of `id` with `extension` added to `scenario`. */
function extended(scenario: string, set: Record<string, string>, extension: ClusterExtension, id: string) {
  const config = resolveConfig(scenario, { set, allowUnsafe: true });
  const model = kubernetesModel(config, { extensions: [extension] });
  return { config, ...violation(model, check(model, { properties: [id] }).properties[0]) };
}

/** Indices of the nodes that are up and run `pod`. */
const running = (s: ClusterState, pod: string): number[] => s.nodes.flatMap((n, i) => (n.up && n.running.includes(pod) ? [i] : []));

describe('why-lines of real counterexamples', () => {
  it('statefulset-at-most-one names both nodes that really run db-0 (a force delete of a pod on a live node)', () => {
    const v = stock('node-partition', { 'operator.forceDeletePod': '1', 'cluster.terminationGracePeriodSeconds': '1' }, 'statefulset-at-most-one');
    const nodes = running(v.last, 'db-0');
    expect(nodes).toHaveLength(2);
    expect(v.why).toBe(`db-0 runs on ${nodeName(nodes[0])} and on ${nodeName(nodes[1])}`);
  });

  it('single-leader names the two leaders and the holder the Lease names (a pause longer than leaseDuration)', () => {
    const v = stock('leader-failover', { 'faults.componentCrash': '0', 'faults.controlPlanePartition': '0', 'faults.controlPlanePartitionHeal': '0', 'faults.processPause': '1', 'faults.processPauseDuration': '20s' }, 'single-leader');
    const e = v.last.candidates.findIndex((list) => list.filter(acting).length > 1);
    const leaders = v.last.candidates[e].flatMap((k, c) => (acting(k) ? [candidateName(e, c)] : []));
    expect(leaders).toHaveLength(2);
    expect(v.why).toBe(`${leaders[0]} and ${leaders[1]} both act as ${ELECTION_NAMES[e]} leader (the Lease names ${candidateName(e, v.last.api.leases[e].holder)})`);
  });

  it('healthy-node-not-unknown names the healthy nodes marked Unknown, their last heartbeat and the timers (a 4 s grace period)', () => {
    const v = stock('node-failure', { 'kubeControllerManager.nodeMonitorGracePeriod': '4s', 'faults.nodeCrash': '0' }, 'healthy-node-not-unknown');
    const marked = v.last.api.nodes.flatMap((n, i) => (n?.ready === 'Unknown' && v.before.api.nodes[i]?.ready !== 'Unknown' ? [i] : []));
    const since = [...new Set(marked.map((i) => v.before.nodes[i].sinceHeartbeat))];
    expect(since).toHaveLength(1); // no node is special: every one of them misses the grace period alike
    const config = resolveConfig('node-failure');
    const renew = leaseRenewInterval(config);
    const names = marked.map(nodeName);
    const who = names.length === 1
      ? `${names[0]} is marked Ready=Unknown ${since[0]}s after its last heartbeat though it is up, its kubelet runs and nothing cuts it off`
      : `${names.slice(0, -1).join(', ')} and ${names.at(-1)} are marked Ready=Unknown ${since[0]}s after their last heartbeat though they are up, their kubelets run and nothing cuts them off`;
    expect(v.why).toBe(`${who} (the renew interval is ${renew}s, the grace period 4s)`);
  });

  it('replacement-within gives the replicas serving, the time since the failed node\'s last heartbeat and the bound (a bound tighter than the model\'s)', () => {
    const set = { ...SMALL_TIMERS, 'faults.nodeCrash': '1' };
    const config = resolveConfig('node-failure', { set });
    const tight = { ...replacementWithin(config, { unreachable: 4 }), id: 'within-4' };
    const base = kubernetesModel(config);
    const model = { ...base, properties: [...base.properties, tight] };
    const v = violation(model, check(model, { properties: ['within-4'] }).properties[0]);
    const failed = v.last.nodes.findIndex((n) => !n.up);
    expect(v.why).toBe(`web has ${runningReplicas(v.last, 'web')} of 2 replicas serving ${v.last.nodes[failed].sinceHeartbeat}s after ${nodeName(failed)}'s last heartbeat, past the 4s bound`);
    expect(v.last.nodes[failed].sinceHeartbeat).toBe(5);
  });

  it('no-pod-evicted names the evicted pod and its node (the node-failure scenario evicts one)', () => {
    const v = stock('node-failure', SMALL_TIMERS, 'no-pod-evicted');
    const evicted = v.last.api.pods.filter((p) => p.deletion === 'taint-eviction');
    expect(evicted).toHaveLength(1);
    expect(v.why).toBe(`${evicted[0].name} on ${nodeName(evicted[0].nodeName)} is evicted by the taint eviction controller (Terminating)`);
  });
});

describe('why-lines of what a misbehaving controller breaks', () => {
  /** A controller that moves a bound pod to the next node by writing spec.nodeName. */
  const rebinder: ClusterExtension = {
    name: 'rebinder',
    initial: () => null,
    symmetric: true,
    actions: [
      action<ClusterState, string>({
        name: 'rebind',
        params: (s) => s.api.pods.filter((p) => p.nodeName >= 0).map((p) => p.name),
        apply: (s, pod) => ({ ...s, api: { ...s.api, pods: s.api.pods.map((p) => (p.name === pod ? { ...p, nodeName: (p.nodeName + 1) % s.nodes.length } : p)) } }),
      }),
    ],
  };

  it('no-double-binding names the pod and both of its nodes', () => {
    const v = extended('node-failure', { 'faults.nodeCrash': '0' }, rebinder, 'no-double-binding');
    const moved = v.last.api.pods.find((p) => v.before.api.pods.find((q) => q.name === p.name)!.nodeName !== p.nodeName)!;
    const was = v.before.api.pods.find((q) => q.name === moved.name)!.nodeName;
    expect(v.action.name).toBe('rebind');
    expect(v.why).toBe(`${moved.name}, bound to ${nodeName(was)}, is bound again, to ${nodeName(moved.nodeName)}`);
  });

  /** A controller that kills a container on a healthy node, behind its kubelet's back. */
  const killer: ClusterExtension = {
    name: 'killer',
    initial: () => null,
    symmetric: true,
    actions: [
      action<ClusterState, string>({
        name: 'chaos-kill',
        params: (s) => s.nodes.flatMap((n) => n.running),
        apply: (s, pod) => ({ ...s, nodes: s.nodes.map((n) => (n.running.includes(pod) ? { ...n, running: n.running.filter((x) => x !== pod) } : n)) }),
      }),
    ],
  };

  it('running-pods-keep-running names the container, its node and the step that stopped it', () => {
    const v = extended('node-failure', { 'faults.nodeCrash': '0' }, killer, 'running-pods-keep-running');
    const node = v.before.nodes.findIndex((n, i) => n.running.length > v.last.nodes[i].running.length);
    const pod = v.before.nodes[node].running.find((x) => !v.last.nodes[node].running.includes(x))!;
    expect(v.why).toBe(`${pod} stops running on ${nodeName(node)} (chaos-kill), though ${nodeName(node)} did not crash and its kubelet sent no SIGTERM`);
  });

  /** A controller that marks a node Unknown as soon as it is down, without waiting for the grace period. */
  const impatient: ClusterExtension = {
    name: 'impatient',
    initial: () => null,
    symmetric: true,
    actions: [
      action<ClusterState, number>({
        name: 'mark-unknown',
        params: (s) => s.nodes.flatMap((n, i) => (!n.up && s.api.nodes[i]?.ready === 'True' ? [i] : [])),
        apply: (s, n) => ({ ...s, api: { ...s.api, nodes: s.api.nodes.map((o, i) => (i === n && o !== null ? { ...o, ready: 'Unknown' as const } : o)) } }),
      }),
    ],
  };

  it('unknown-after-grace gives the time since the last heartbeat against the grace period, from the step that broke it', () => {
    const v = extended('node-failure', SMALL_TIMERS, impatient, 'unknown-after-grace');
    const n = v.last.api.nodes.findIndex((o, i) => o?.ready === 'Unknown' && v.before.api.nodes[i]?.ready !== 'Unknown');
    expect(v.action.name).toBe('mark-unknown');
    expect(v.why).toBe(`${nodeName(n)} is marked Ready=Unknown ${v.before.nodes[n].sinceHeartbeat}s after its last heartbeat, before the 2s grace period`);
  });
});
