/**
 * kube-scheduler (leader-elected): binds the first Pending pod to a feasible node, the choice
 * among feasible nodes being nondeterministic. Filters: the Node object exists, capacity
 * (`maxPods`, counting every pod bound there, Terminating ones included), and every NoSchedule
 * or NoExecute taint is tolerated (pods tolerate only the unreachable/not-ready NoExecute taints
 * that admission added). The bind is `pods/binding`, a compare-and-swap on an empty nodeName and
 * no deletionTimestamp (pkg/registry/core/pod/storage/storage.go), so a pod is bound at most once.
 */
import { produce } from 'immer';
import { API, clusterAction, type ClusterAction, type Ctx } from './context.js';
import { acting, canWrite, nodeName, SCHED, type ClusterState, type NodeObject, type PodObject, type Taint } from './state.js';

const TOLERATED: readonly Taint[] = ['unreachable:NoExecute', 'not-ready:NoExecute'];

/** Whether pod p may be placed on node n (the scheduler's filters). */
export function feasible(ctx: Ctx, s: ClusterState, _p: PodObject, n: number): boolean {
  const node: NodeObject | null = s.api.nodes[n];
  if (node === null) return false;
  if (node.taints.some((t) => !TOLERATED.includes(t))) return false;
  let count = 0;
  for (const q of s.api.pods) if (q.nodeName === n) count++;
  return count < ctx.config.cluster.maxPods;
}

/** The scheduler that acts now (the first acting candidate that can write), or -1. */
export function actingScheduler(s: ClusterState): number {
  const cs = s.candidates[SCHED];
  for (let c = 0; c < cs.length; c++) if (acting(cs[c]) && canWrite(s, cs[c].partitioned)) return c;
  return -1;
}

/** The pod the scheduler takes next: the first Pending pod that fits somewhere. */
export function nextPending(ctx: Ctx, s: ClusterState): PodObject | undefined {
  for (const p of s.api.pods) {
    if (p.nodeName >= 0 || p.deletion !== null) continue;
    for (let n = 0; n < s.api.nodes.length; n++) if (feasible(ctx, s, p, n)) return p;
  }
  return undefined;
}

export function schedulerActions(ctx: Ctx): ClusterAction[] {
  return [
    clusterAction<string>({
      name: 'schedule',
      urgent: true,
      params: (s) => s.api.nodes.map((_, n) => nodeName(n)),
      enabled: (s, node) => {
        if (actingScheduler(s) < 0) return false;
        const p = nextPending(ctx, s);
        return p !== undefined && feasible(ctx, s, p, Number(node.slice(5)) - 1);
      },
      apply: (s, node) => {
        const p = nextPending(ctx, s)!;
        return produce(s, (d) => {
          const pod = d.api.pods.find((q) => q.name === p.name)!;
          if (pod.nodeName === -1 && pod.deletion === null) pod.nodeName = Number(node.slice(5)) - 1;
        });
      },
      describe: (b, node) => ({ actor: 'kube-scheduler', summary: `binds ${nextPending(ctx, b)?.name ?? '?'} to ${node}`, to: [...API] }),
    }),
  ];
}
