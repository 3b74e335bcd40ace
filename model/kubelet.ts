/**
 * kubelet, one per node: renews its node Lease every 0.25 × nodeLeaseDurationSeconds (10 s) and,
 * on the same beat (nodeStatusUpdateFrequency is 10 s too), posts its Ready condition when the
 * API says otherwise: True, or False while its container runtime is down. When its node status
 * updates fail (a fault) its Lease renewals still succeed, so the node lifecycle controller keeps
 * it as it is ("If kubelet never posted the node status, but continues renewing the heartbeat
 * leases, the node controller will assume the node is healthy and take no action"). It starts
 * containers of pods bound to its node (not while its runtime is down);
 * stops containers of pods deleted, terminating or bound elsewhere, then finishes the deletion.
 * Cut off from the API server it keeps running everything it has (it cannot see deletions); so
 * does a kubelet whose pod watch is stuck after an etcd restore, until it restarts.
 *
 * Batched: all kubelets due at one instant act in one step. Their effects touch disjoint parts of
 * the state (their own node, Lease and pods), so the end state of the instant does not depend on
 * their order; the batch keeps node symmetry exact. Not modelled: the 0.04 jitter, the five
 * immediate Lease retries, kubelet admission (maxPods is the scheduler's filter only), pod phases.
 */
import { produce } from 'immer';
import { API, clusterAction, type ClusterAction, type Ctx } from './context.js';
import { kubeletAlive, kubeletCanWrite, kubeletReachesApi, nodeName, removeItem, addSorted, KCM, type ClusterState, type PodObject } from './state.js';

/** Nodes whose kubelet is due to renew its Lease. */
export function heartbeatsDue(s: ClusterState): number[] {
  const out: number[] = [];
  for (let n = 0; n < s.nodes.length; n++) if (kubeletAlive(s, n) && s.nodes[n].heartbeatIn <= 0) out.push(n);
  return out;
}

/** Nodes whose Lease renewal succeeds on the `kubelet-heartbeat` step from `before`. */
export function heartbeatsOf(before: ClusterState, action: { name: string }): number[] {
  if (action.name !== 'kubelet-heartbeat') return [];
  return heartbeatsDue(before).filter((n) => kubeletCanWrite(before, n));
}

/** The Ready condition the kubelet of node n posts with its status, or undefined when its status updates fail. */
export function postedReady(s: ClusterState, n: number): 'True' | 'False' | undefined {
  const node = s.nodes[n];
  if (node.statusStuck) return undefined;
  return node.runtimeUp ? 'True' : 'False';
}

interface SyncWork {
  readonly start: string[];
  readonly stop: string[];
  readonly finish: string[];
}

const bound = (p: PodObject, n: number): boolean => p.nodeName === n;

/** What the kubelet of node n would do now (empty when it cannot see the API). */
export function syncWork(s: ClusterState, n: number): SyncWork | undefined {
  const node = s.nodes[n];
  // A kubelet whose pod watch is stuck (after an etcd restore) sees no change, like one cut off.
  if (!kubeletAlive(s, n) || !kubeletReachesApi(s, n) || node.podWatchStuck === true) return undefined;
  const start: string[] = [];
  const stop: string[] = [];
  const finish: string[] = [];
  for (const p of s.api.pods) {
    if (!bound(p, n)) continue;
    const isRunning = node.running.includes(p.name);
    if (p.deletion === null && !isRunning && node.runtimeUp) start.push(p.name);
    if (p.deletion !== null && !isRunning) finish.push(p.name);
  }
  for (const name of node.running) {
    const p = s.api.pods.find((q) => q.name === name);
    if (p === undefined || p.deletion !== null || p.nodeName !== n) stop.push(name);
  }
  // Finishing a deletion is a write; once the container is stopped the pod object goes.
  const writable = kubeletCanWrite(s, n);
  for (const name of stop) {
    const p = s.api.pods.find((q) => q.name === name);
    if (p !== undefined && p.deletion !== null && p.nodeName === n && writable) finish.push(name);
  }
  if (!writable) finish.length = 0;
  if (start.length + stop.length + finish.length === 0) return undefined;
  return { start, stop, finish };
}

export function kubeletActions(ctx: Ctx): ClusterAction[] {
  return [
    clusterAction({
      name: 'kubelet-heartbeat',
      urgent: true,
      enabled: (s) => heartbeatsDue(s).length > 0,
      apply: (s) =>
        produce(s, (d) => {
          for (const n of heartbeatsDue(s)) {
            d.nodes[n].heartbeatIn = ctx.renewInterval;
            if (!kubeletCanWrite(s, n)) continue;
            d.nodes[n].sinceHeartbeat = 0;
            for (const c of d.candidates[KCM]) if (c.ctrl !== null) c.ctrl.nodes[n].unseen = true;
            const obj = d.api.nodes[n];
            const ready = postedReady(s, n);
            if (obj !== null && ready !== undefined && obj.ready !== ready) obj.ready = ready;
          }
        }),
      describe: (b) => {
        const due = heartbeatsDue(b);
        const ok = due.filter((n) => kubeletCanWrite(b, n));
        const failed = due.filter((n) => !ok.includes(n));
        const parts = [];
        if (ok.length) parts.push(`${ok.map(nodeName).join(', ')} renew${ok.length === 1 ? 's its' : ' their'} Lease`);
        if (failed.length) parts.push(`${failed.map(nodeName).join(', ')} fail${failed.length === 1 ? 's' : ''} to renew (no API)`);
        for (const n of ok) {
          const ready = postedReady(b, n);
          if (ready !== undefined && b.api.nodes[n] !== null && b.api.nodes[n]!.ready !== ready) parts.push(`${nodeName(n)} posts Ready=${ready}`);
        }
        // Renewals of nodes already Ready are routine; a failure or a node coming back is not.
        const routine = failed.length === 0 && ok.every((n) => b.api.nodes[n] === null || postedReady(b, n) === undefined || b.api.nodes[n]!.ready === postedReady(b, n));
        return { actor: `kubelet/${due.map(nodeName).join(',')}`, summary: parts.join('; '), to: ok.length ? [...API] : [], routine };
      },
    }),
    clusterAction({
      name: 'kubelet-sync',
      urgent: true,
      enabled: (s) => s.nodes.some((_, n) => syncWork(s, n) !== undefined),
      apply: (s) =>
        produce(s, (d) => {
          for (let n = 0; n < s.nodes.length; n++) {
            const w = syncWork(s, n);
            if (w === undefined) continue;
            const running = d.nodes[n].running as string[];
            for (const name of w.stop) removeItem(running, name);
            for (const name of w.start) addSorted(running, name);
            if (w.finish.length) d.api.pods = d.api.pods.filter((p) => !w.finish.includes(p.name));
          }
        }),
      describe: (b) => {
        const parts: string[] = [];
        const actors: string[] = [];
        let writes = false;
        for (let n = 0; n < b.nodes.length; n++) {
          const w = syncWork(b, n);
          if (w === undefined) continue;
          actors.push(nodeName(n));
          if (w.start.length) parts.push(`starts ${w.start.join(', ')} on ${nodeName(n)}`);
          if (w.stop.length) parts.push(`stops ${w.stop.join(', ')} on ${nodeName(n)}`);
          if (w.finish.length) {
            parts.push(`finishes deleting ${w.finish.join(', ')}`);
            writes = true;
          }
        }
        return { actor: `kubelet/${actors.join(',')}`, summary: parts.join('; '), to: writes ? [...API] : ['kube-apiserver'] };
      },
    }),
  ];
}
