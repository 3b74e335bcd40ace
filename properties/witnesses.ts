/**
 * Reachability goals: each proves a scenario is not vacuous (the behaviour the properties speak
 * about really happens on some path).
 */
import { sometimes, type Property } from '../checker/index.js';
import { replicasOf, type ClusterConfig, type ClusterState } from '../model/index.js';
import { containersOf, workloadsOfKind } from './helpers.js';
import { replicaSetExcess } from './safety.js';

export const nodeMarkedUnknown: Property<ClusterState> = sometimes<ClusterState>(
  'node-marked-unknown',
  'some node is marked Ready=Unknown',
  (s) => s.api.nodes.some((n) => n !== null && n.ready === 'Unknown'),
  { source: 'https://kubernetes.io/docs/concepts/architecture/nodes/#node-controller' },
);

export const podEvicted: Property<ClusterState> = sometimes<ClusterState>(
  'pod-evicted',
  'some pod is evicted by the taint eviction controller',
  (s) => s.api.pods.some((p) => p.deletion === 'taint-eviction'),
  { source: 'https://kubernetes.io/docs/concepts/scheduling-eviction/taint-and-toleration/#taint-based-evictions' },
);

/** The names of the workloads of one kind, as a set. */
const namesOf = (config: ClusterConfig, kind: 'ReplicaSet' | 'StatefulSet'): ReadonlySet<string> => new Set(workloadsOfKind(config, kind).map((w) => w.name));

export function replacementRunning(config: ClusterConfig): Property<ClusterState> {
  const sets = namesOf(config, 'ReplicaSet');
  return sometimes<ClusterState>(
    'replacement-running',
    'a ReplicaSet replacement pod runs on a node',
    (s) => s.api.pods.some((p) => sets.has(p.workload) && p.replacement && p.nodeName >= 0 && s.nodes[p.nodeName].up && s.nodes[p.nodeName].running.includes(p.name)),
    { source: 'pkg/controller/replicaset (IsPodActive excludes Terminating pods)' },
  );
}

export const leaderFailover: Property<ClusterState> = sometimes<ClusterState>(
  'leader-failover',
  'another candidate takes a leader-election Lease over and acts as leader',
  (s) => s.api.leases.some((l, e) => l.transitioned && l.holder >= 0 && s.candidates[e][l.holder].leader && s.candidates[e][l.holder].up),
  { source: 'kubernetes/client-go:tools/leaderelection/leaderelection.go (tryAcquireOrRenew)' },
);

export function replicaSetExtraCopy(config: ClusterConfig): Property<ClusterState> {
  return sometimes<ClusterState>(
    'replicaset-extra-copy',
    'more ReplicaSet containers run than its replicas (allowed: ReplicaSets give no at-most-N guarantee)',
    (s) => workloadsOfKind(config, 'ReplicaSet').some((w) => containersOf(s, w) > replicasOf(s, w)),
    { source: 'https://kubernetes.io/docs/concepts/scheduling-eviction/taint-and-toleration/#taint-based-evictions' },
  );
}

export const replacementPending: Property<ClusterState> = sometimes<ClusterState>(
  'replacement-pending',
  'a replacement pod exists and is Pending',
  (s) => s.api.pods.some((p) => p.replacement && p.nodeName < 0 && p.deletion === null),
  { source: 'https://kubernetes.io/docs/concepts/architecture/#kube-scheduler ("watches for newly created Pods with no assigned node")' },
);

export function statefulSetRecreated(config: ClusterConfig): Property<ClusterState> {
  const sets = namesOf(config, 'StatefulSet');
  return sometimes<ClusterState>(
    'statefulset-recreated',
    'a StatefulSet pod identity is recreated and runs',
    (s) => s.api.pods.some((p) => sets.has(p.workload) && p.replacement && p.nodeName >= 0 && s.nodes[p.nodeName].running.includes(p.name)),
    { source: 'pkg/controller/statefulset (identity recreated once the old object is gone)' },
  );
}

export const zonePartialDisruption: Property<ClusterState> = sometimes<ClusterState>(
  'zone-partial-disruption',
  'a zone enters PartialDisruption (more than 2 and at least --unhealthy-zone-threshold of its nodes NotReady): its eviction rate drops',
  (s) => s.candidates[0].some((k) => k.ctrl !== null && k.ctrl.zones.some((z) => z.state === 'PartialDisruption')),
  { source: 'kubernetes/kubernetes:pkg/controller/nodelifecycle/node_lifecycle_controller.go (ComputeZoneState, setLimiterInZone, ReducedQPSFunc)' },
);

/**
 * `replicaset-over-creation`: some ReplicaSet has more active pods than spec.replicas (its
 * controller created pods its stale cache did not show, after its expectations expired, or two
 * controller managers led at once).
 */
export function replicaSetOverCreation(config: ClusterConfig): Property<ClusterState> {
  return sometimes<ClusterState>(
    'replicaset-over-creation',
    'some ReplicaSet has more active pods than spec.replicas',
    (s) => replicaSetExcess(config, s).size > 0,
    { source: 'kubernetes/kubernetes:pkg/controller/controller_utils.go (ExpectationsTimeout: "the controller will sync anyway")' },
  );
}
