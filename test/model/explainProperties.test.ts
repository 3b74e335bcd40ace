/**
 * Each Kubernetes safety and timing property's `explain` on hand-built states: the one line a
 * counterexample opens with names the nodes, pods and processes of the state, and agrees with the
 * property (it speaks only where the property fails).
 */
import { describe, expect, it } from 'vitest';
import { explainViolation, type ActionLabel, type History, type Property } from '../../checker/index.js';
import { clusterModel, makeCtx, resolveConfig, type ClusterConfig, type ClusterState, type NodeReal, type PodObject } from '../../model/index.js';
import { kubernetesProperties, replacementBound } from '../../properties/index.js';
import { earliestReplacement } from '../../properties/helpers.js';
import { replacementWithin } from '../../properties/observers.js';

const config = resolveConfig('node-failure');
// node-1 runs web-0, node-2 web-1, node-3 db-0; kube-controller-manager-1 and kube-scheduler-1 lead.
const initial = clusterModel(config).initialStates()[0];

const property = (id: string, c: ClusterConfig = config): Property<ClusterState> => kubernetesProperties(c).find((p) => p.id === id)!;
const tick: ActionLabel = { name: 'tick' };

/** `s` with node `i`'s real state patched. */
const node = (s: ClusterState, i: number, patch: Partial<NodeReal>): ClusterState => ({ ...s, nodes: s.nodes.map((n, k) => (k === i ? { ...n, ...patch } : n)) });
/** `s` with pod `name`'s object patched (or removed with `null`). */
const pod = (s: ClusterState, name: string, patch: Partial<PodObject> | null): ClusterState => ({
  ...s,
  api: { ...s.api, pods: s.api.pods.flatMap((p) => (p.name !== name ? [p] : patch === null ? [] : [{ ...p, ...patch }])) },
});
/** `s` with a pod object added (sorted by name, as the model keeps them). */
const addPod = (s: ClusterState, p: PodObject): ClusterState => ({ ...s, api: { ...s.api, pods: [...s.api.pods, p].sort((a, b) => a.name.localeCompare(b.name)) } });
const apiNode = (s: ClusterState, i: number, patch: Partial<NonNullable<ClusterState['api']['nodes'][number]>>): ClusterState => ({
  ...s,
  api: { ...s.api, nodes: s.api.nodes.map((n, k) => (k === i && n !== null ? { ...n, ...patch } : n)) },
});
const web = (name: string, nodeName: number, extra: Partial<PodObject> = {}): PodObject => ({ ...initial.api.pods.find((p) => p.name === 'web-0')!, name, nodeName, ...extra });

/** What the property says of a history, after checking that it really fails there. */
function why(p: Property<ClusterState>, history: History<ClusterState>): string | undefined {
  const { states, actions } = history;
  const last = states[states.length - 1];
  if (p.kind === 'invariant') expect(p.holds(last)).toBe(false);
  if (p.kind === 'action') expect(p.holds(states[states.length - 2], actions[actions.length - 1], last)).toBe(false);
  if (p.kind === 'observer') {
    let o = p.initial(states[0]);
    for (let i = 0; i < actions.length; i++) o = p.step(o, states[i], actions[i], states[i + 1]);
    expect(p.holds(o, last)).toBe(false);
  }
  return explainViolation(p, history);
}
const state = (s: ClusterState): History<ClusterState> => ({ states: [s], actions: [] });
const step = (before: ClusterState, after: ClusterState, action: ActionLabel = tick): History<ClusterState> => ({ states: [before, after], actions: [action] });

describe('explain of the safety properties', () => {
  it('single-leader: names both acting leaders and the Lease holder', () => {
    const s = { ...initial, candidates: [initial.candidates[0].map((c) => ({ ...c, leader: true })), initial.candidates[1]] as ClusterState['candidates'] };
    expect(why(property('single-leader'), state(s))).toBe(
      `kube-controller-manager-1 and kube-controller-manager-2 both act as kube-controller-manager leader (the Lease names kube-controller-manager-${s.api.leases[0].holder + 1})`,
    );
  });

  it('no-double-binding: names the pod and both nodes', () => {
    expect(why(property('no-double-binding'), step(initial, pod(initial, 'db-0', { nodeName: 0 }), { name: 'bind' }))).toBe('db-0, bound to node-3, is bound again, to node-1');
    expect(why(property('no-double-binding'), step(initial, pod(initial, 'db-0', { nodeName: -1 }), { name: 'bind' }))).toBe('db-0, bound to node-3, has its nodeName cleared');
  });

  it('statefulset-at-most-one: names every node that is up and runs the identity', () => {
    const two = node(initial, 0, { running: ['db-0', 'web-0'] });
    expect(why(property('statefulset-at-most-one'), state(two))).toBe('db-0 runs on node-1 and on node-3');
    const three = node(two, 1, { running: ['db-0', 'web-1'] });
    expect(why(property('statefulset-at-most-one'), state(three))).toBe('db-0 runs on node-1, node-2 and node-3');
    // A node that is down runs nothing: two copies left.
    expect(why(property('statefulset-at-most-one'), state(node(three, 1, { up: false })))).toBe('db-0 runs on node-1 and on node-3');
  });

  it('no-schedule-on-unready: names the pod, the node and its taint', () => {
    const tainted = apiNode(addPod(initial, web('web-2', -1, { replacement: true })), 1, { taints: ['unreachable:NoSchedule'] });
    expect(why(property('no-schedule-on-unready'), step(tainted, pod(tainted, 'web-2', { nodeName: 1 }), { name: 'bind' }))).toBe('web-2 is bound to node-2, tainted unreachable:NoSchedule');
  });

  it('writes-need-quorum: names what is written and the etcd members up', () => {
    const lost = { ...initial, etcd: [true, false, false] };
    expect(why(property('writes-need-quorum'), step(lost, pod(lost, 'web-0', { deletion: 'operator' }), { name: 'my-write' }))).toBe('pod web-0 is written while 1 of 3 etcd members is up (quorum is 2)');
    const nodeToo = apiNode(pod(lost, 'web-0', { deletion: 'operator' }), 0, { unschedulable: true });
    expect(why(property('writes-need-quorum'), step(lost, nodeToo, { name: 'my-write' }))).toBe('Node node-1 and pod web-0 are written while 1 of 3 etcd members is up (quorum is 2)');
  });

  it('running-pods-keep-running: names the container, its node and the step', () => {
    const killed = node(initial, 0, { running: [] });
    expect(why(property('running-pods-keep-running'), step(initial, killed, { name: 'my-kill' }))).toBe(
      'web-0 stops running on node-1 (my-kill), though node-1 did not crash and its kubelet sent no SIGTERM',
    );
    expect(why(property('running-pods-keep-running'), step(initial, killed, { name: 'kubelet-sync' }))).toBe('web-0 stops running on node-1: its kubelet stops it while its pod object is bound there and not deleted');
    expect(why(property('running-pods-keep-running'), step(initial, killed, { name: 'container-exit' }))).toBe('web-0 stops running on node-1 (container-exit) though its kubelet never sent it SIGTERM');
  });

  it('replicaset-at-most-replicas: names the ReplicaSet, its active pods and its replicas', () => {
    const extra = addPod(initial, web('web-2', -1, { replacement: true }));
    expect(why(property('replicaset-at-most-replicas'), state(extra))).toBe('web has 3 active pods (web-0, web-1, web-2), more than its 2 replicas');
  });

  it('no-phantom-pods: names the container, its node and where its object is', () => {
    const gone = node(pod(initial, 'web-0', null), 0, { podWatchStuck: true });
    expect(why(property('no-phantom-pods'), state(gone))).toBe('web-0 runs on node-1, whose kubelet is in touch with the API, but there is no pod object of that name');
    const moved = node(pod(initial, 'web-0', { nodeName: 1 }), 0, { podWatchStuck: true });
    expect(why(property('no-phantom-pods'), state(moved))).toBe('web-0 runs on node-1, whose kubelet is in touch with the API, but its pod object is bound to node-2');
  });

  it('no-node-unknown, no-pod-evicted, no-replacement-created, replacements-stay-pending: name the nodes and pods', () => {
    const unknown = apiNode(apiNode(initial, 0, { ready: 'Unknown' }), 2, { ready: 'Unknown' });
    expect(why(property('no-node-unknown'), state(unknown))).toBe('node-1 and node-3 are marked Ready=Unknown');
    expect(why(property('no-pod-evicted'), state(pod(initial, 'web-0', { deletion: 'taint-eviction' })))).toBe('web-0 on node-1 is evicted by the taint eviction controller (Terminating)');
    const replaced = addPod(initial, web('web-2', -1, { replacement: true }));
    expect(why(property('no-replacement-created'), state(replaced))).toBe('web-2 is created as a replacement for a pod of web (Pending)');
    expect(why(property('replacements-stay-pending'), state(pod(replaced, 'web-2', { nodeName: 1 })))).toBe('replacement web-2 is bound to node-2');
  });
});

describe('explain of the timing properties', () => {
  const grace = config.kubeControllerManager.nodeMonitorGracePeriod;

  it('unknown-after-grace: the time since the last heartbeat against the grace period, from the step that set the latch', () => {
    const before = node(initial, 0, { up: false, sinceHeartbeat: grace - 10 });
    const marked = apiNode(before, 0, { ready: 'Unknown' });
    expect(why(property('unknown-after-grace'), { states: [before, marked, marked], actions: [{ name: 'node-monitor' }, tick] })).toBe(
      `node-1 is marked Ready=Unknown ${grace - 10}s after its last heartbeat, before the ${grace}s grace period`,
    );
  });

  it('healthy-node-not-unknown: the node, its last heartbeat, the renew interval and the grace period', () => {
    const before = node(initial, 1, { sinceHeartbeat: 11 });
    const renew = before.nodes[1].liveFor - 1; // liveFor saturates one quantum past the renew interval
    expect(why(property('healthy-node-not-unknown'), step(before, apiNode(before, 1, { ready: 'Unknown' }), { name: 'node-monitor' }))).toBe(
      `node-2 is marked Ready=Unknown 11s after its last heartbeat though it is up, its kubelet runs and nothing cuts it off (the renew interval is ${renew}s, the grace period ${grace}s)`,
    );
    const all = node(node(node(initial, 0, { sinceHeartbeat: 11 }), 1, { sinceHeartbeat: 11 }), 2, { sinceHeartbeat: 12 });
    const marked = [0, 1, 2].reduce((s, i) => apiNode(s, i, { ready: 'Unknown' }), all);
    expect(why(property('healthy-node-not-unknown'), step(all, marked, { name: 'node-monitor' }))).toBe(
      'node-1 and node-2 are marked Ready=Unknown 11s after their last heartbeat though they are up, their kubelets run and nothing cuts them off; ' +
        `node-3 is marked Ready=Unknown 12s after its last heartbeat though it is up, its kubelet runs and nothing cuts it off (the renew interval is ${renew}s, the grace period ${grace}s)`,
    );
  });

  it('no-early-eviction: the time since the NoExecute taint against the pod\'s tolerationSeconds', () => {
    const tainted = node(apiNode(initial, 0, { ready: 'Unknown', taints: ['unreachable:NoExecute', 'unreachable:NoSchedule'] }), 0, { up: false, sinceNoExecute: 100 });
    const evicted = pod(tainted, 'web-0', { deletion: 'taint-eviction' });
    expect(why(property('no-early-eviction'), step(tainted, evicted, { name: 'taint-eviction' }))).toBe(
      `web-0 is evicted from node-1 100s after its unreachable:NoExecute taint, before its ${web('web-0', 0).tolerations.unreachable}s tolerationSeconds`,
    );
    const untainted = pod(initial, 'web-0', { deletion: 'taint-eviction' });
    expect(why(property('no-early-eviction'), step(initial, untainted, { name: 'taint-eviction' }))).toBe('web-0 is evicted from node-1, which has no unreachable or not-ready NoExecute taint');
  });

  it('replacement-after-toleration: the pod that left early, when, and the replacement created after it', () => {
    const failed = node(initial, 0, { up: false, sinceHeartbeat: 61 });
    const deleted = pod(failed, 'web-0', null);
    const replaced = addPod(deleted, web('web-2', -1, { replacement: true }));
    const history = { states: [failed, deleted, replaced], actions: [{ name: 'force-delete-pod' }, { name: 'replicaset-sync' }] };
    expect(why(property('replacement-after-toleration'), history)).toBe(`web-2 is created though web-0 left node-1 only 61s after the node's last heartbeat (bound: ${earliestReplacement(config)}s)`);
  });

  it('replacement-within: replicas serving, the time since the most recent loss and the bound', () => {
    const tight = replacementWithin(config, { unreachable: 100 });
    const lost = node(node(initial, 0, { up: false, running: [], sinceHeartbeat: 101 }), 1, { up: false, running: [], sinceHeartbeat: 150 });
    expect(why(tight, state(lost))).toBe("web has 0 of 2 replicas serving 101s after node-1's last heartbeat, past the 100s bound");
    // The history variable saturates one quantum past the largest time the model compares it with: no more is known.
    const bound = replacementBound(config)!;
    const cap = makeCtx(config).heartbeatCap;
    const saturated = node(initial, 0, { up: false, running: [], sinceHeartbeat: cap });
    expect(why(property('replacement-within'), state(saturated))).toBe(`web has 1 of 2 replicas serving at least ${cap}s after node-1's last heartbeat, past the ${bound}s bound`);
    // A gray failure: web-0's container is gone while node-1 renews; nothing explains it.
    expect(why(property('replacement-within'), state(node(initial, 0, { running: [] })))).toBe('web has 1 of 2 replicas serving, though no node has missed its heartbeats or lost its container runtime');
  });
});

describe('explain agrees with the properties', () => {
  it('should say nothing where a property holds, and every safety and timing property has a hook', () => {
    for (const p of kubernetesProperties(config)) {
      if (p.kind === 'reachable') continue;
      expect(p.explain, p.id).toBeDefined();
      const history = p.kind === 'action' ? step(initial, initial) : p.kind === 'observer' ? step(initial, initial) : state(initial);
      expect(explainViolation(p, history), p.id).toBeUndefined();
    }
  });
});
