/** Small predicates over cluster states shared by the properties. */
import type { ClusterConfig, ClusterState } from '../model/index.js';

/** ReplicaSet replicas really serving: active pod objects whose container runs on their (up) node. */
export function runningReplicas(s: ClusterState): number {
  let count = 0;
  for (const p of s.api.pods) {
    if (p.workload !== 'web' || p.deletion !== null || p.nodeName < 0) continue;
    const node = s.nodes[p.nodeName];
    if (node.up && node.running.includes(p.name)) count++;
  }
  return count;
}

/** Containers of ReplicaSet pods really running anywhere (old Terminating copies included). */
export function webContainers(s: ClusterState): number {
  let count = 0;
  for (const n of s.nodes) if (n.up) for (const r of n.running) if (r.startsWith('web-')) count++;
  return count;
}

/**
 * The nodes (-1: unbound) of the ReplicaSet pods that stop being active on the step from `before`
 * to `after`: they get a deletionTimestamp, or their object goes while active (`IsPodActive`
 * excludes both, so the ReplicaSet replaces them). A replacement stands in for such a pod; by the
 * time the ReplicaSet acts the pod's kubelet may have removed it, so timing properties take its
 * node here.
 */
export function webPodsLeaving(before: ClusterState, after: ClusterState): number[] {
  const out: number[] = [];
  for (const p of before.api.pods) {
    if (p.workload !== 'web' || p.deletion !== null) continue;
    const q = after.api.pods.find((x) => x.name === p.name);
    if (q === undefined || q.deletion !== null) out.push(p.nodeName);
  }
  return out;
}

/** Nodes (up) really running a container of `pod`. */
export function copiesRunning(s: ClusterState, pod: string): number {
  let count = 0;
  for (const n of s.nodes) if (n.up && n.running.includes(pod)) count++;
  return count;
}

/**
 * The earliest a ReplicaSet replacement can be created after the failed node's last heartbeat
 * (seconds): grace until a pass marks it Unknown, one nodeMonitorPeriod until the next pass
 * queues it for its NoExecute taint, then tolerationSeconds until the eviction.
 */
export function earliestReplacement(config: ClusterConfig): number {
  const k = config.kubeControllerManager;
  const tol = config.cluster.replicaSetTolerationSeconds ?? config.kubeApiserver.defaultUnreachableTolerationSeconds;
  return k.nodeMonitorGracePeriod + k.nodeMonitorPeriod + tol;
}

/**
 * The recovery bound of `replacement-within`, derived from the timing config (seconds): up to
 * one nodeMonitorPeriod until a pass sees the last renewal, then {@link earliestReplacement}.
 */
export function replacementBound(config: ClusterConfig): number {
  const k = config.kubeControllerManager;
  const tol = config.cluster.replicaSetTolerationSeconds ?? config.kubeApiserver.defaultUnreachableTolerationSeconds;
  const failing = Math.min(config.cluster.nodes, config.faults.nodeCrash + config.faults.nodePartition + config.faults.kubeletCrash);
  const queue = k.nodeEvictionRate > 0 ? Math.max(0, failing - 1) * (1 / k.nodeEvictionRate) : 0;
  return 2 * k.nodeMonitorPeriod + k.nodeMonitorGracePeriod + tol + queue;
}
