/** Small predicates over cluster states shared by the properties, and the phrases their explanations share. */
import { ELECTION_NAMES, failingNodeCount, leaseRenewInterval, MAX_WAIT_FOR_CONTAINER_RUNTIME, nodeName, podOfWorkload, tolerationOf, type ClusterConfig, type ClusterState, type WorkloadConfig } from '../model/index.js';

/** `a`, `a and b`, `a, b and c`. */
export function listOf(items: readonly string[]): string {
  return items.length <= 1 ? (items[0] ?? '') : `${items.slice(0, -1).join(', ')} and ${items[items.length - 1]}`;
}

/** The explanations of several findings as one line (`; ` between them), or undefined for none. */
export function oneLine(parts: readonly string[]): string | undefined {
  return parts.length === 0 ? undefined : parts.join('; ');
}

/** Where a pod object is bound, as people read it: `node-2`, or `Pending` while unbound. */
export const boundTo = (nodeIndex: number): string => (nodeIndex >= 0 ? nodeName(nodeIndex) : 'Pending');

/**
 * The API objects a step writes, by kind and name as people read them (`pod db-0`, `Node node-1`,
 * `the kube-scheduler Lease`), in state order.
 */
export function apiWrites(before: ClusterState, after: ClusterState): string[] {
  if (before.api === after.api) return [];
  const out: string[] = [];
  if (before.api.nodes !== after.api.nodes) {
    after.api.nodes.forEach((n, i) => {
      if (n !== before.api.nodes[i]) out.push(`Node ${nodeName(i)}`);
    });
  }
  if (before.api.pods !== after.api.pods) {
    const names = new Set([...before.api.pods, ...after.api.pods].map((p) => p.name));
    for (const name of [...names].sort()) {
      const b = before.api.pods.find((p) => p.name === name);
      const a = after.api.pods.find((p) => p.name === name);
      if (a !== b && JSON.stringify(a) !== JSON.stringify(b)) out.push(`pod ${name}`);
    }
  }
  if (before.api.leases !== after.api.leases) {
    after.api.leases.forEach((l, e) => {
      if (l !== before.api.leases[e] && JSON.stringify(l) !== JSON.stringify(before.api.leases[e])) out.push(`the ${ELECTION_NAMES[e]} Lease`);
    });
  }
  return out;
}

/** The ReplicaSets of the config, in list order. */
export function replicaSets(config: ClusterConfig): readonly WorkloadConfig[] {
  return config.cluster.workloads.filter((w) => w.kind === 'ReplicaSet');
}

/** The workloads of one kind, in list order. */
export function workloadsOfKind(config: ClusterConfig, kind: WorkloadConfig['kind']): readonly WorkloadConfig[] {
  return config.cluster.workloads.filter((w) => w.kind === kind);
}

/** Replicas of a ReplicaSet (by name) really serving: active pod objects whose container runs on their (up) node. */
export function runningReplicas(s: ClusterState, workload: string): number {
  let count = 0;
  for (const p of s.api.pods) {
    if (p.workload !== workload || p.deletion !== null || p.nodeName < 0) continue;
    const node = s.nodes[p.nodeName];
    if (node.up && node.running.includes(p.name)) count++;
  }
  return count;
}

/** Containers of a workload's pods really running anywhere (old Terminating copies included). */
export function containersOf(s: ClusterState, w: Pick<WorkloadConfig, 'kind' | 'name'>): number {
  let count = 0;
  for (const n of s.nodes) if (n.up) for (const r of n.running) if (podOfWorkload(r, w)) count++;
  return count;
}

/**
 * The nodes (-1: unbound) of the pods of ReplicaSet `workload` that stop being active on the step from `before`
 * to `after`: they get a deletionTimestamp, or their object goes while active (`IsPodActive`
 * excludes both, so the ReplicaSet replaces them). A replacement stands in for such a pod; by the
 * time the ReplicaSet acts the pod's kubelet may have removed it, so timing properties take its
 * node here.
 */
export function podsLeaving(before: ClusterState, after: ClusterState, workload: string): number[] {
  return podsLeavingNamed(before, after, workload).map((p) => p.node);
}

/** {@link podsLeaving} with each pod's name. */
export function podsLeavingNamed(before: ClusterState, after: ClusterState, workload: string): { readonly pod: string; readonly node: number }[] {
  const out: { pod: string; node: number }[] = [];
  for (const p of before.api.pods) {
    if (p.workload !== workload || p.deletion !== null) continue;
    const q = after.api.pods.find((x) => x.name === p.name);
    if (q === undefined || q.deletion !== null) out.push({ pod: p.name, node: p.nodeName });
  }
  return out;
}

/** Nodes (up) really running a container of `pod`. */
export function copiesRunning(s: ClusterState, pod: string): number {
  let count = 0;
  for (const n of s.nodes) if (n.up && n.running.includes(pod)) count++;
  return count;
}

/** The nodes (indices, up) really running a container of `pod`, in order. */
export function nodesRunning(s: ClusterState, pod: string): number[] {
  const out: number[] = [];
  s.nodes.forEach((n, i) => {
    if (n.up && n.running.includes(pod)) out.push(i);
  });
  return out;
}


/** Seconds the zone's NoExecute rate limiter may hold the last of the failing nodes back (one interval per other failing node). */
function queueWait(config: ClusterConfig): number {
  const rate = config.kubeControllerManager.nodeEvictionRate;
  return rate > 0 ? Math.max(0, failingNodeCount(config) - 1) / rate : 0;
}

/**
 * What stale caches add to a recovery: the ReplicaSet controller's cache hears of the eviction,
 * then the kube-scheduler's of the replacement, each up to `informers.watchLag` late.
 */
const cacheDelay = (config: ClusterConfig): number => 2 * config.informers.watchLag;

/** The ReplicaSet a bound speaks of when none is named: the first of the list (or none). */
const first = (config: ClusterConfig, workload: string | undefined): string | undefined => workload ?? replicaSets(config)[0]?.name;

/**
 * The earliest a replacement of ReplicaSet `workload` (default: the first) can be created after the failed node's last heartbeat
 * (seconds): grace until a pass marks it Unknown, one nodeMonitorPeriod until the next pass
 * queues it for its NoExecute taint, then the unreachable tolerationSeconds until the eviction.
 * Undefined when the pods tolerate unreachable forever.
 */
export function earliestReplacement(config: ClusterConfig, workload?: string): number | undefined {
  const k = config.kubeControllerManager;
  const name = first(config, workload);
  if (name === undefined) return undefined;
  const tol = tolerationOf(config, name).unreachable;
  return tol === null ? undefined : k.nodeMonitorGracePeriod + k.nodeMonitorPeriod + Math.max(0, tol);
}

/**
 * The recovery bound of `replacement-within` for a node that stops renewing (crash, partition,
 * kubelet crash), from its last heartbeat (seconds): up to one nodeMonitorPeriod until a pass
 * sees the last renewal, then {@link earliestReplacement}, then the zone rate limiter's wait for
 * the other failing nodes queued ahead, and twice the informer lag (the ReplicaSet controller's
 * and the scheduler's caches). Undefined when the pods tolerate unreachable forever.
 */
export function replacementBound(config: ClusterConfig, workload?: string): number | undefined {
  const earliest = earliestReplacement(config, workload);
  return earliest === undefined ? undefined : earliest + config.kubeControllerManager.nodeMonitorPeriod + queueWait(config) + cacheDelay(config);
}

/**
 * The recovery bound for a node whose container runtime fails (seconds from the failure): the
 * kubelet posts Ready=False with its next status update (within the renew interval), the next
 * monitor pass queues it (within nodeMonitorPeriod), the rate limiter's wait, then the not-ready
 * tolerationSeconds. Undefined when the pods tolerate not-ready forever.
 */
export function notReadyReplacementBound(config: ClusterConfig, workload?: string): number | undefined {
  const name = first(config, workload);
  if (name === undefined) return undefined;
  const tol = tolerationOf(config, name).notReady;
  // The kubelet knows the runtime is down at most maxWaitForContainerRuntime after the failure,
  // posts Ready=False at its next status update, and a monitor pass queues the taint.
  return tol === null ? undefined : MAX_WAIT_FOR_CONTAINER_RUNTIME + leaseRenewInterval(config) + config.kubeControllerManager.nodeMonitorPeriod + queueWait(config) + Math.max(0, tol) + cacheDelay(config);
}
