/**
 * Liveness properties of the cluster, checked with `checkLiveness` (checker/liveness.ts) on the
 * whole graph, without symmetry, under weak fairness of the components' own work, the passing of
 * time and Lease takeover (faults and operator actions may happen or not, each within its budget,
 * so every behaviour eventually has no more faults: "once faults stop").
 */
import { alwaysEventually, type LivenessProperty } from '../checker/index.js';
import type { ClusterConfig, ClusterState } from '../model/index.js';
import { runningReplicas } from './helpers.js';

/**
 * `replicas-eventually-running`: once faults stop, every ReplicaSet has its replicas running again
 * and again (it is never stuck short of them). A gray failure breaks it: a node whose status
 * updates fail keeps renewing its Lease, stays Ready and never has its dead pods replaced.
 */
export function replicasEventuallyRunning(config: ClusterConfig): LivenessProperty<ClusterState> {
  const sets = config.cluster.workloads.filter((w) => w.kind === 'ReplicaSet');
  return alwaysEventually<ClusterState>(
    'replicas-eventually-running',
    'once faults stop, every ReplicaSet has its replicas running (again and again)',
    (s) => sets.every((w) => runningReplicas(s, w.name) >= w.replicas),
  );
}

/** `lease-eventually-held`: once faults stop, each leader-election Lease has an acting holder again and again. */
export const leaseEventuallyHeld: LivenessProperty<ClusterState> = alwaysEventually<ClusterState>(
  'lease-eventually-held',
  'once faults stop, each leader-election Lease is held by a process acting as leader (again and again)',
  (s) => s.candidates.every((list) => list.some((k) => k.up && k.paused === 0 && k.leader)),
);

/** The liveness properties of the cluster for `config`. */
export function kubernetesLiveness(config: ClusterConfig): LivenessProperty<ClusterState>[] {
  return [replicasEventuallyRunning(config), leaseEventuallyHeld];
}
