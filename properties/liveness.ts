/**
 * Liveness properties of the cluster, checked with `checkLiveness` (checker/liveness.ts) on the
 * whole graph, without symmetry, under weak fairness of the components' own work, the passing of
 * time and Lease takeover (faults and operator actions may happen or not, each within its budget,
 * so every behaviour eventually has no more faults: "once faults stop").
 */
import { alwaysEventually, type LivenessProperty } from '../checker/index.js';
import { replicasOf, type ClusterConfig, type ClusterState } from '../model/index.js';
import { copiesRunning, runningReplicas } from './helpers.js';

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
    (s) => sets.every((w) => runningReplicas(s, w.name) >= replicasOf(s, w)),
  );
}

/** `lease-eventually-held`: once faults stop, each leader-election Lease has an acting holder again and again. */
export const leaseEventuallyHeld: LivenessProperty<ClusterState> = alwaysEventually<ClusterState>(
  'lease-eventually-held',
  'once faults stop, each leader-election Lease is held by a process acting as leader (again and again)',
  (s) => s.candidates.every((list) => list.some((k) => k.up && k.paused === 0 && k.leader)),
);

/**
 * `statefulset-identity-eventually-running`: once faults stop, every StatefulSet identity runs
 * exactly once (counting containers on nodes), again and again. Kubernetes does not promise it
 * when a node is lost for good: the old pod stays Terminating and the identity is not recreated
 * ("statefulset can not recreate the lost replicas in case of node loss", kubernetes#128970, by
 * design), which this finds as a lasso.
 */
export function statefulSetIdentityEventuallyRunning(config: ClusterConfig): LivenessProperty<ClusterState> {
  const sets = config.cluster.workloads.filter((w) => w.kind === 'StatefulSet');
  // The identities of spec.replicas now (a scale-down condemns the ordinals above it).
  const names = (s: ClusterState): string[] => sets.flatMap((w) => Array.from({ length: replicasOf(s, w) }, (_, i) => `${w.name}-${i}`));
  return alwaysEventually<ClusterState>(
    'statefulset-identity-eventually-running',
    'once faults stop, every StatefulSet identity runs exactly once (again and again)',
    (s) => names(s).every((n) => copiesRunning(s, n) === 1),
  );
}

/**
 * The fairness the cluster's liveness properties are checked under, as the model's actions declare
 * it (`fair` in model/clusterModel.ts, model/time.ts, model/leaderElection.ts).
 */
export const livenessFairness =
  "strong fairness of the components' periodic and reactive work, of time passing and of taking an expired Lease; faults and operator actions may never happen";

/** The liveness properties of the cluster for `config`. */
export function kubernetesLiveness(config: ClusterConfig): LivenessProperty<ClusterState>[] {
  return [replicasEventuallyRunning(config), statefulSetIdentityEventuallyRunning(config), leaseEventuallyHeld];
}
