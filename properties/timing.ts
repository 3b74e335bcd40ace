/**
 * "How long until my pods come back?": the earliest and latest moment, over every path of the
 * exhaustive search, at which each step of Kubernetes' node failure handling happens, counted in
 * seconds after the failed node's last heartbeat, or for a new node that never posted status
 * after its Node object was made (its `NodeReal.sinceHeartbeat`, a history
 * variable of the state, so a step's time is a function of the step alone and the extremes over
 * all transitions are the extremes over all paths).
 *
 * The steps, in the order the documentation gives them (kubernetes.io/docs/concepts/architecture/nodes,
 * "Node controller"; taint-and-toleration "Taint based Evictions"):
 * the node lifecycle controller marks the node Ready=Unknown, taints it NoSchedule, then NoExecute;
 * the taint eviction controller evicts the pod once its tolerationSeconds have passed; the
 * ReplicaSet (or StatefulSet) controller creates a replacement; a kubelet starts it. One row per
 * step for each ReplicaSet and StatefulSet of `cluster.workloads`, in list order. DaemonSets have
 * no rows: their pods tolerate the taints forever and are never replaced on another node.
 */
import { forEachTransition, type BoundReached, type Model, type TransitionOptions } from '../checker/index.js';
import { makeCtx, nodeLive, type ClusterConfig, type ClusterState, type Taint, type Workload, type WorkloadKind } from '../model/index.js';

/** The steps timed, in the order they happen. */
export const TIMING_EVENTS = [
  { id: 'node-unknown', description: 'node marked Ready=Unknown (or False)' },
  { id: 'node-noschedule', description: 'node tainted NoSchedule' },
  { id: 'node-noexecute', description: 'node tainted NoExecute' },
  { id: 'pod-evicted', description: 'pod evicted' },
  { id: 'replacement-created', description: 'replacement created' },
  { id: 'replacement-running', description: 'replacement running' },
] as const;

export type TimingEventId = (typeof TIMING_EVENTS)[number]['id'];

/** When one step happened for one workload, over every path. */
export interface TimingRow {
  /** The workload's name. */
  readonly workload: Workload;
  readonly kind: WorkloadKind;
  readonly event: TimingEventId;
  readonly description: string;
  /** Seconds after the failed node's last heartbeat; null when it happens on no path. */
  readonly earliest: number | null;
  readonly latest: number | null;
  /**
   * The latest time reached the model's saturation of `sinceHeartbeat` (one past the largest
   * time it is compared with): it is at least `latest`, perhaps later.
   */
  readonly latestAtLeast: boolean;
}

export interface TimingTable {
  readonly rows: readonly TimingRow[];
  /** Whether the search covered the whole space (else the extremes are of the part explored). */
  readonly complete: boolean;
  readonly stoppedBy?: BoundReached;
  readonly distinctStates: number;
  readonly transitions: number;
  readonly seconds: number;
}

const NO_SCHEDULE: readonly Taint[] = ['unreachable:NoSchedule', 'not-ready:NoSchedule'];
const NO_EXECUTE: readonly Taint[] = ['unreachable:NoExecute', 'not-ready:NoExecute'];

/** The node has failed: down, its kubelet down or cut off, its runtime failed, its status stuck, or shutting down. */
function failed(s: ClusterState, n: number): boolean {
  const node = s.nodes[n];
  return !nodeLive(s, n) || node.runtimeUp === false || node.statusStuck === true || node.shutdownIn !== undefined;
}

/** The node whose failure a replacement of `workload` answers: a Terminating pod's node, else the one failed node. */
function failedNodeFor(s: ClusterState, workload: Workload): number {
  for (const p of s.api.pods) if (p.workload === workload && p.deletion !== null && p.nodeName >= 0) return p.nodeName;
  let found = -1;
  for (let n = 0; n < s.nodes.length; n++) {
    if (!failed(s, n)) continue;
    if (found >= 0) return -1;
    found = n;
  }
  return found;
}

/** Records the extremes of each (workload, event). */
class Extremes {
  readonly min = new Map<string, number>();
  readonly max = new Map<string, number>();

  add(workload: Workload, event: TimingEventId, seconds: number): void {
    const k = `${workload} ${event}`;
    const lo = this.min.get(k);
    if (lo === undefined || seconds < lo) this.min.set(k, seconds);
    const hi = this.max.get(k);
    if (hi === undefined || seconds > hi) this.max.set(k, seconds);
  }
}

/** The times of the steps one transition makes, added to `into`. */
function timeStep(before: ClusterState, after: ClusterState, into: Extremes, workloads: readonly Workload[]): void {
  if (before.api !== after.api) {
    const nodes = after.api.nodes;
    for (let n = 0; n < nodes.length; n++) {
      const a = nodes[n];
      const b = before.api.nodes[n];
      if (a === b || a === null || b === null || !failed(before, n)) continue;
      const t = before.nodes[n].sinceHeartbeat;
      const events: TimingEventId[] = [];
      // From Ready=True, or from no Ready condition at all: a node whose kubelet never posted
      // status is marked Unknown --node-startup-grace-period after its Node object was made
      // (NodeStatusNeverUpdated), its time counted from then.
      if ((b.ready === 'True' || b.ready === 'None') && (a.ready === 'Unknown' || a.ready === 'False')) events.push('node-unknown');
      if (NO_SCHEDULE.some((x) => a.taints.includes(x)) && !NO_SCHEDULE.some((x) => b.taints.includes(x))) events.push('node-noschedule');
      if (NO_EXECUTE.some((x) => a.taints.includes(x)) && !NO_EXECUTE.some((x) => b.taints.includes(x))) events.push('node-noexecute');
      if (events.length === 0) continue;
      for (const w of workloads) {
        if (!before.api.pods.some((p) => p.workload === w && p.nodeName === n)) continue;
        for (const e of events) into.add(w, e, t);
      }
    }
    if (before.api.pods !== after.api.pods) {
      for (const q of after.api.pods) {
        const p = before.api.pods.find((x) => x.name === q.name);
        if (q.deletion === 'taint-eviction' && p !== undefined && p.deletion !== 'taint-eviction' && q.nodeName >= 0) {
          into.add(q.workload, 'pod-evicted', before.nodes[q.nodeName].sinceHeartbeat);
        }
        if (p === undefined || (p.deletion !== null && q.deletion === null)) {
          const n = failedNodeFor(before, q.workload);
          if (n >= 0) into.add(q.workload, 'replacement-created', before.nodes[n].sinceHeartbeat);
        }
      }
    }
  }
  if (before.nodes !== after.nodes) {
    for (let m = 0; m < after.nodes.length; m++) {
      const runs = after.nodes[m].running;
      if (runs === before.nodes[m].running) continue;
      for (const name of runs) {
        if (before.nodes[m].running.includes(name)) continue;
        const pod = after.api.pods.find((p) => p.name === name);
        if (pod === undefined || !pod.replacement) continue;
        const n = failedNodeFor(before, pod.workload);
        if (n >= 0 && n !== m) into.add(pod.workload, 'replacement-running', before.nodes[n].sinceHeartbeat);
      }
    }
  }
}

/**
 * The timing table of a cluster model: every transition of the exhaustive search, each step of
 * node failure handling timed from the failed node's last heartbeat.
 */
export function measureTiming(model: Model<ClusterState>, config: ClusterConfig, options: TransitionOptions = {}): TimingTable {
  const into = new Extremes();
  const timed = config.cluster.workloads.filter((w) => w.kind !== 'DaemonSet');
  const names = timed.map((w) => w.name);
  const stats = forEachTransition(model, (before, _a, after) => timeStep(before, after, into, names), options);
  const cap = makeCtx(config).heartbeatCap;
  const rows: TimingRow[] = [];
  for (const w of timed) {
    for (const e of TIMING_EVENTS) {
      const k = `${w.name} ${e.id}`;
      const latest = into.max.get(k) ?? null;
      rows.push({ workload: w.name, kind: w.kind, event: e.id, description: e.description, earliest: into.min.get(k) ?? null, latest, latestAtLeast: latest !== null && latest >= cap });
    }
  }
  return {
    rows,
    complete: stats.complete,
    ...(stats.stoppedBy ? { stoppedBy: stats.stoppedBy } : {}),
    distinctStates: stats.distinctStates,
    transitions: stats.transitions,
    seconds: stats.seconds,
  };
}
