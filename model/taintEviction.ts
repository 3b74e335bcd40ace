/**
 * Taint eviction controller (kubernetes/kubernetes:pkg/controller/tainteviction/taint_eviction.go),
 * in the kube-controller-manager that believes it leads. For a pod on a node with NoExecute
 * taints (unreachable, not-ready, out-of-service), matched against the pod's tolerations as
 * Kubernetes matches them (`model/tolerations.ts`): a taint the pod does not tolerate (also right
 * after a swap to one it does not) deletes it now; otherwise deletion is scheduled at *its own
 * observation time* + the least tolerationSeconds of the tolerations used (the taint's TimeAdded
 * is not used); tolerations without seconds (an `operator: Exists` one without key, say) never
 * evict, and removing the taints cancels a scheduled deletion; deleting the Node object does
 * not (the deletion fires at its time). Deletion is graceful: the pod becomes Terminating
 * and stays so until its kubelet confirms. A new leader starts with no schedule, so a failover
 * restarts the countdown (issue #108268).
 */
import { API, clusterAction, type ClusterAction, type Ctx } from './context.js';
import { noExecuteToleration } from './tolerations.js';
import { managerIndex, apiWith, candidateWith, ctrlWith, podWith, stateWith, withCandidate, byShape, acting, canWrite, hasTaint, KCM, podIndex, type ClusterState, type ControllerManagerLocal, type NodeObject, type PodObject } from './state.js';

/**
 * What the node's NoExecute taints mean for the pod (`noExecuteToleration`): undefined when it
 * has none, NO_TOLERATION when one is not tolerated, null when all are tolerated forever, else
 * the least tolerationSeconds of the tolerations used.
 */
export function conditionToleration(p: PodObject, node: NodeObject | null): number | null | undefined {
  return node === null ? undefined : noExecuteToleration(p.tolerations, node.taints);
}

interface TecWork {
  readonly schedule: { pod: string; in: number }[];
  readonly cancel: string[];
  readonly evict: string[];
}

/**
 * What the taint eviction controller of candidate c has to do now. It reads only the API and the
 * controller's scheduled deletions; asked by both guards in every state, where mostly there is
 * nothing to do, it makes lists only for work found.
 */
export function taintEvictionWork(s: ClusterState, c: number): TecWork | undefined {
  const k = s.candidates[KCM][c];
  if (!acting(k) || k.ctrl === null) return undefined;
  return computeTaintEvictionWork(s, k.ctrl.evictions);
}

/** The countdown of the deletion scheduled for `pod` (the last entry for it), or undefined. */
function scheduledIn(evictions: ControllerManagerLocal['evictions'], pod: string): number | undefined {
  for (let i = evictions.length - 1; i >= 0; i--) if (evictions[i].pod === pod) return evictions[i].in;
  return undefined;
}

function computeTaintEvictionWork(s: ClusterState, evictions: ControllerManagerLocal['evictions']): TecWork | undefined {
  let schedule: { pod: string; in: number }[] | undefined;
  let cancel: string[] | undefined;
  let evict: string[] | undefined;
  const pods = s.api.pods;
  for (let i = 0; i < pods.length; i++) {
    const p = pods[i];
    const node = p.nodeName >= 0 ? s.api.nodes[p.nodeName] : null;
    const when = scheduledIn(evictions, p.name);
    if (p.deletion !== null) {
      if (when !== undefined) (cancel ??= []).push(p.name);
      continue;
    }
    if (node === null) {
      // A deleted Node: `handleNodeUpdate` only forgets its taints (`taintedNodes`) and cancels
      // nothing, and `handlePodUpdate` then returns for want of taints, so a deletion already
      // scheduled still fires at its time (`deletePodHandler` only reads the pod).
      if (when !== undefined && when <= 0) (evict ??= []).push(p.name);
      continue;
    }
    const tol = conditionToleration(p, node);
    // A NoExecute taint not tolerated (GetMatchingTolerations): processPodOnNode cancels any
    // scheduled deletion and deletes the pod right away (a taint swap included).
    if (tol !== undefined && tol !== null && tol < 0) (evict ??= []).push(p.name);
    else if (tol === undefined || tol === null) {
      // No condition taint, or tolerated forever: "cancelling any scheduled deletion".
      if (when !== undefined) (cancel ??= []).push(p.name);
    } else if (when === undefined) {
      if (tol <= 0) (evict ??= []).push(p.name);
      else (schedule ??= []).push({ pod: p.name, in: tol });
    } else if (when <= 0) (evict ??= []).push(p.name);
    // A scheduled deletion is kept when the toleration changes (processPodOnNode returns when the
    // deadline from the first schedule is earlier; kubernetes#102993).
  }
  // Pods gone from the API (each once, in the order first scheduled).
  for (let i = 0; i < evictions.length; i++) {
    const pod = evictions[i].pod;
    if (podIndex(s, pod) < 0 && !scheduledBefore(evictions, i, pod)) (cancel ??= []).push(pod);
  }
  if (schedule === undefined && cancel === undefined && evict === undefined) return undefined;
  return { schedule: schedule ?? [], cancel: cancel ?? [], evict: evict ?? [] };
}

/** Whether `pod` has an entry before the i-th of the scheduled deletions. */
function scheduledBefore(evictions: ControllerManagerLocal['evictions'], i: number, pod: string): boolean {
  for (let j = 0; j < i; j++) if (evictions[j].pod === pod) return true;
  return false;
}

const refs = byShape((s: ClusterState): string[] => s.candidates[KCM].map((_, c) => `kube-controller-manager-${c + 1}`));
const idx = managerIndex;

export function taintEvictionActions(_ctx: Ctx): ClusterAction[] {
  return [
    clusterAction<string>({
      name: 'taint-eviction-observe',
      urgent: true,
      params: refs,
      enabled: (s, p) => {
        const w = taintEvictionWork(s, idx(p));
        return w !== undefined && w.schedule.length + w.cancel.length > 0;
      },
      apply: (s, p) => {
        const c = idx(p);
        const w = taintEvictionWork(s, c)!;
        const k = s.candidates[KCM][c];
        const kept = k.ctrl!.evictions.filter((x) => !w.cancel.includes(x.pod));
        const evictions = [...kept, ...w.schedule].sort((a, b) => (a.pod < b.pod ? -1 : 1));
        return withCandidate(s, KCM, c, candidateWith(k, { ctrl: ctrlWith(k.ctrl!, { evictions }) }));
      },
      describe: (b, p) => {
        const w = taintEvictionWork(b, idx(p))!;
        const parts = w.schedule.map((x) => `schedules deletion of ${x.pod} in ${x.in}s`);
        if (w.cancel.length) parts.push(`cancels deletion of ${w.cancel.join(', ')}`);
        return { actor: 'kube-controller-manager/taint-eviction', summary: parts.join('; '), to: [] };
      },
    }),
    clusterAction<string>({
      name: 'taint-eviction-delete',
      urgent: true,
      params: refs,
      enabled: (s, p) => {
        const c = idx(p);
        const w = taintEvictionWork(s, c);
        return w !== undefined && w.evict.length > 0 && canWrite(s, s.candidates[KCM][c].partitioned);
      },
      apply: (s, p) => {
        const c = idx(p);
        const w = taintEvictionWork(s, c)!;
        const k = s.candidates[KCM][c];
        const evicted = withCandidate(s, KCM, c, candidateWith(k, { ctrl: ctrlWith(k.ctrl!, { evictions: k.ctrl!.evictions.filter((x) => !w.evict.includes(x.pod)) }) }));
        const pods = s.api.pods.map((q) => (w.evict.includes(q.name) ? podWith(q, { deletion: 'taint-eviction' }) : q));
        return stateWith(evicted, { api: apiWith(s.api, { pods }) });
      },
      describe: (b, p) => {
        const w = taintEvictionWork(b, idx(p))!;
        return { actor: 'kube-controller-manager/taint-eviction', summary: `evicts ${w.evict.join(', ')} (graceful delete, DisruptionTarget)`, to: [...API] };
      },
    }),
  ];
}
