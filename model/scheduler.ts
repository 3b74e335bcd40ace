/**
 * kube-scheduler (leader-elected): binds the first Pending pod to a feasible node, the choice
 * among feasible nodes being nondeterministic. Filters: the Node object exists, capacity
 * (`maxPods`, counting every pod bound there, Terminating ones included), and every NoSchedule
 * or NoExecute taint is tolerated by the pod's tolerations as Kubernetes matches them
 * (TaintToleration; NodeUnschedulable is the unschedulable taint's toleration), and the pod's
 * workload's scheduling constraints (`placement.ts`: NodeAffinity, InterPodAffinity and
 * PodTopologySpread, the default profile's other filters that read what the model holds). A pod
 * that passes on no node stays Pending (the unschedulable queue) until a change lets it. The bind is `pods/binding`, a compare-and-swap on an empty nodeName and
 * no deletionTimestamp (pkg/registry/core/pod/storage/storage.go), so a pod is bound at most once.
 *
 * Two steps, as in the source: the scheduling cycle picks a node and assumes the pod there in
 * the scheduler's cache (`AssumePod`), the binding cycle then calls `pods/binding`. Every
 * kube-scheduler that believes it leads schedules (a stale leader resumed from a pause, or two
 * leaders under clock skew): each may assume the same Pending pod; the first binding wins, the
 * other gets 409 Conflict and forgets the pod (`ForgetPod`).
 *
 * With `informers.watchLag` > 0 each leader decides from its informer cache (`informers.ts`):
 * it may pick a pod already bound or deleted, or a node tainted since; the binding's
 * compare-and-swap refuses the first two. A pod it has bound stays assumed in its cache, and one
 * refused goes back to the queue, until a watch event about it arrives.
 */
import { API, clusterAction, type ClusterAction, type Ctx } from './context.js';
import { schedulerAwait, schedulerView, schedulerWaiting } from './informers.js';
import { trailingNumber, apiWith, candidateWith, podWith, stateWith, withCandidate, byShape, acting, candidateName, canWrite, nodeIndex, nodeName, SCHED, type ClusterState, type NodeObject, type PodObject } from './state.js';
import { podConstraintsAllow } from './placement.js';
import { bindClaims, claimsAllow } from './claims.js';
import { untoleratedTaint } from './tolerations.js';

/** Whether pod p may be placed on node n (the scheduler's filters). */
export function feasible(ctx: Ctx, s: ClusterState, p: PodObject, n: number): boolean {
  const node: NodeObject | null = s.api.nodes[n];
  if (node === null) return false;
  if (untoleratedTaint(p.tolerations, node.taints)) return false;
  const placement = ctx.workloadOfPod(p.name)?.placement;
  if (placement !== undefined && !placement.nodeOk[n]) return false;
  let count = 0;
  for (let i = 0; i < s.api.pods.length; i++) if (s.api.pods[i].nodeName === n) count++;
  if (count >= ctx.config.cluster.maxPods) return false;
  const w = ctx.workloadOfPod(p.name);
  if (w !== undefined && w.claimTemplates.length > 0 && !claimsAllow(ctx, s, w, p.name, n)) return false;
  return placement === undefined || podConstraintsAllow(placement, s.api.pods, s.api.nodes, p.name, n);
}

/** The kube-scheduler candidates that act as leader and can write, in candidate order. */
export function actingSchedulers(s: ClusterState): number[] {
  const out: number[] = [];
  const cs = s.candidates[SCHED];
  for (let c = 0; c < cs.length; c++) if (acting(cs[c]) && canWrite(s, cs[c].partitioned)) out.push(c);
  return out;
}

/** The scheduler that acts first now (the first acting candidate that can write), or -1. */
export function actingScheduler(s: ClusterState): number {
  return actingSchedulers(s)[0] ?? -1;
}

/** The last state asked about, per model (its Ctx), and its next Pending pod (one entry, updated in place). */
const pendingCache = new WeakMap<Ctx, { state: ClusterState; pod: PodObject | undefined }>();

/** The pod the scheduler takes next: the first Pending pod that fits somewhere (computed once per state). */
export function nextPending(ctx: Ctx, s: ClusterState): PodObject | undefined {
  const hit = pendingCache.get(ctx);
  if (hit !== undefined && hit.state === s) return hit.pod;
  const pod = firstPending(ctx, s);
  if (hit === undefined) pendingCache.set(ctx, { state: s, pod });
  else {
    hit.state = s;
    hit.pod = pod;
  }
  return pod;
}

function firstPending(ctx: Ctx, s: ClusterState): PodObject | undefined {
  for (let i = 0; i < s.api.pods.length; i++) {
    const p = s.api.pods[i];
    if (p.nodeName >= 0 || p.deletion !== null) continue;
    for (let n = 0; n < s.api.nodes.length; n++) if (feasible(ctx, s, p, n)) return p;
  }
  return undefined;
}

/** Why `pods/binding` refuses pod `name` on node n (409 Conflict), or undefined when it binds. */
export function bindingConflict(s: ClusterState, name: string): string | undefined {
  const pod = s.api.pods.find((q) => q.name === name);
  if (pod === undefined) return `pod ${name} not found`;
  if (pod.deletion !== null) return `pod ${name} is being deleted, cannot be assigned to a host`;
  if (pod.nodeName >= 0) return `pod ${name} is already assigned to node ${nodeName(pod.nodeName)}`;
  return undefined;
}

const schedIdx = (p: string): number => trailingNumber(p, 'kube-scheduler-'.length) - 1;

/**
 * Scheduler c's view and whether it waits for an event about pod `item`: without informer caches
 * the API itself and never (what `schedulerView` and `schedulerWaiting` answer then, without
 * naming the client: the guard asks in every state).
 */
const viewOf = (s: ClusterState, c: number): ClusterState => (s.informers === undefined ? s : schedulerView(s, c));
const waiting = (s: ClusterState, c: number, item: string): boolean => s.informers !== undefined && schedulerWaiting(s, c, item);

export function schedulerActions(ctx: Ctx): ClusterAction[] {
  return [
    clusterAction<{ scheduler: string; node: string }>({
      name: 'schedule',
      urgent: true,
      params: byShape((s) => s.candidates[SCHED].flatMap((_, c) => s.api.nodes.map((__, n) => ({ scheduler: candidateName(SCHED, c), node: nodeName(n) })))),
      enabled: (s, p) => {
        const c = schedIdx(p.scheduler);
        const k = s.candidates[SCHED][c];
        if (k.assumed !== null || !acting(k)) return false;
        const view = viewOf(s, c);
        const pod = nextPending(ctx, view);
        return pod !== undefined && !waiting(s, c, pod.name) && feasible(ctx, view, pod, nodeIndex(p.node)) && canWrite(s, k.partitioned);
      },
      apply: (s, p) => {
        const pod = nextPending(ctx, schedulerView(s, schedIdx(p.scheduler)))!;
        const c = schedIdx(p.scheduler);
        return withCandidate(s, SCHED, c, candidateWith(s.candidates[SCHED][c], { assumed: { pod: pod.name, node: nodeIndex(p.node) } }));
      },
      describe: (b, p) => {
        const alone = actingSchedulers(b).length === 1;
        return { actor: alone ? 'kube-scheduler' : p.scheduler, summary: `picks ${p.node} for ${nextPending(ctx, schedulerView(b, schedIdx(p.scheduler)))?.name ?? '?'} (assumed in its cache)`, to: [], routine: alone, routineKind: 'scheduler picks' };
      },
    }),
    clusterAction<string>({
      name: 'bind',
      urgent: true,
      params: byShape((s) => s.candidates[SCHED].map((_, c) => candidateName(SCHED, c))),
      enabled: (s, p) => s.candidates[SCHED][schedIdx(p)].assumed !== null && acting(s.candidates[SCHED][schedIdx(p)]),
      apply: (s, p) => {
        const c = schedIdx(p);
        const assumed = s.candidates[SCHED][c].assumed!;
        const conflict = canWrite(s, s.candidates[SCHED][c].partitioned) ? bindingConflict(s, assumed.pod) : 'no API';
        const forgot = withCandidate(s, SCHED, c, candidateWith(s.candidates[SCHED][c], { assumed: null }));
        // Refused: ForgetPod, the pod goes back to the queue.
        // Bound: so are its unbound claims, to the volume provisioned where it goes (WaitForFirstConsumer).
        const next = conflict !== undefined ? forgot : bindClaims(ctx, stateWith(forgot, { api: apiWith(s.api, { pods: s.api.pods.map((q) => (q.name === assumed.pod ? podWith(q, { nodeName: assumed.node }) : q)) }) }), ctx.workloadOfPod(assumed.pod), assumed.pod, assumed.node);
        // With a cache: bound, the pod stays assumed; refused, it waits in the backoff queue; both until its watch event.
        return schedulerAwait(next, c, assumed.pod);
      },
      describe: (b, p) => {
        const c = schedIdx(p);
        const assumed = b.candidates[SCHED][c].assumed!;
        const conflict = canWrite(b, b.candidates[SCHED][c].partitioned) ? bindingConflict(b, assumed.pod) : 'cannot reach the API';
        const what = `binds ${assumed.pod} to ${nodeName(assumed.node)}`;
        const alone = b.candidates[SCHED].filter((k) => k.leader && k.up).length === 1;
        return { actor: alone ? 'kube-scheduler' : p, summary: conflict === undefined ? what : `${what}: 409 Conflict (${conflict}); forgets it`, to: [...API] };
      },
    }),
  ];
}
