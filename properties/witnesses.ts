/**
 * Reachability goals: each proves a scenario is not vacuous (the behaviour the properties speak
 * about really happens on some path).
 */
import { sometimes, type Property } from '../checker/index.js';
import { replicasOf, type ClusterConfig, type ClusterState } from '../model/index.js';
import { containersOf, workloadsOfKind } from './helpers.js';
import { anyReplicaSetExcess } from './safety.js';

// The goals are asked in every state until reached: they loop over the state without closures.

export const nodeMarkedUnknown: Property<ClusterState> = sometimes<ClusterState>(
  'node-marked-unknown',
  'some node is marked Ready=Unknown',
  (s) => {
    for (let n = 0; n < s.api.nodes.length; n++) if (s.api.nodes[n]?.ready === 'Unknown') return true;
    return false;
  },
  { source: 'https://kubernetes.io/docs/concepts/architecture/nodes/#node-controller' },
);

export const podEvicted: Property<ClusterState> = sometimes<ClusterState>(
  'pod-evicted',
  'some pod is evicted by the taint eviction controller',
  (s) => {
    for (let i = 0; i < s.api.pods.length; i++) if (s.api.pods[i].deletion === 'taint-eviction') return true;
    return false;
  },
  { source: 'https://kubernetes.io/docs/concepts/scheduling-eviction/taint-and-toleration/#taint-based-evictions' },
);

/** The names of the workloads of one kind, as a set. */
const namesOf = (config: ClusterConfig, kind: 'ReplicaSet' | 'StatefulSet'): ReadonlySet<string> => new Set(workloadsOfKind(config, kind).map((w) => w.name));

/** Whether a replacement pod of one of `sets` is bound and its container runs on its node (`onUpNode`: a node that is up). */
function replacementRuns(s: ClusterState, sets: ReadonlySet<string>, onUpNode: boolean): boolean {
  for (let i = 0; i < s.api.pods.length; i++) {
    const p = s.api.pods[i];
    if (!sets.has(p.workload) || !p.replacement || p.nodeName < 0) continue;
    const node = s.nodes[p.nodeName];
    if ((!onUpNode || node.up) && node.running.includes(p.name)) return true;
  }
  return false;
}

export function replacementRunning(config: ClusterConfig): Property<ClusterState> {
  const sets = namesOf(config, 'ReplicaSet');
  return sometimes<ClusterState>(
    'replacement-running',
    'a ReplicaSet replacement pod runs on a node',
    (s) => replacementRuns(s, sets, true),
    { source: 'kubernetes/kubernetes:pkg/controller/replicaset/replica_set.go (IsPodActive excludes Terminating pods)' },
  );
}

export const leaderFailover: Property<ClusterState> = sometimes<ClusterState>(
  'leader-failover',
  'another candidate takes a leader-election Lease over and acts as leader',
  (s) => {
    for (let e = 0; e < s.api.leases.length; e++) {
      const l = s.api.leases[e];
      if (l.transitioned && l.holder >= 0 && s.candidates[e][l.holder].leader && s.candidates[e][l.holder].up) return true;
    }
    return false;
  },
  { source: 'kubernetes/client-go:tools/leaderelection/leaderelection.go (tryAcquireOrRenew)' },
);

export function replicaSetExtraCopy(config: ClusterConfig): Property<ClusterState> {
  const sets = workloadsOfKind(config, 'ReplicaSet');
  return sometimes<ClusterState>(
    'replicaset-extra-copy',
    'more ReplicaSet containers run than its replicas (allowed: ReplicaSets give no at-most-N guarantee)',
    (s) => {
      for (let i = 0; i < sets.length; i++) if (containersOf(s, sets[i]) > replicasOf(s, sets[i])) return true;
      return false;
    },
    { source: 'https://kubernetes.io/docs/concepts/scheduling-eviction/taint-and-toleration/#taint-based-evictions' },
  );
}

export const replacementPending: Property<ClusterState> = sometimes<ClusterState>(
  'replacement-pending',
  'a replacement pod exists and is Pending',
  (s) => {
    for (let i = 0; i < s.api.pods.length; i++) if (s.api.pods[i].replacement && s.api.pods[i].nodeName < 0 && s.api.pods[i].deletion === null) return true;
    return false;
  },
  { source: 'https://kubernetes.io/docs/concepts/architecture/#kube-scheduler ("watches for newly created Pods with no assigned node")' },
);

export function statefulSetRecreated(config: ClusterConfig): Property<ClusterState> {
  const sets = namesOf(config, 'StatefulSet');
  return sometimes<ClusterState>(
    'statefulset-recreated',
    'a StatefulSet pod identity is recreated and runs',
    (s) => replacementRuns(s, sets, false),
    { source: 'kubernetes/kubernetes:pkg/controller/statefulset/stateful_set_control.go (identity recreated once the old object is gone)' },
  );
}

export const zonePartialDisruption: Property<ClusterState> = sometimes<ClusterState>(
  'zone-partial-disruption',
  'a zone enters PartialDisruption (more than 2 and at least --unhealthy-zone-threshold of its nodes NotReady): its eviction rate drops',
  (s) => {
    const managers = s.candidates[0];
    for (let c = 0; c < managers.length; c++) {
      const ctrl = managers[c].ctrl;
      if (ctrl !== null) for (let z = 0; z < ctrl.zones.length; z++) if (ctrl.zones[z].state === 'PartialDisruption') return true;
    }
    return false;
  },
  { source: 'kubernetes/kubernetes:pkg/controller/nodelifecycle/node_lifecycle_controller.go (ComputeZoneState, setLimiterInZone, ReducedQPSFunc)' },
);

/**
 * `replicaset-over-creation`: some ReplicaSet has more active pods than spec.replicas (its
 * controller created pods its stale cache did not show, after its expectations expired, or two
 * controller managers led at once).
 */
export function replicaSetOverCreation(config: ClusterConfig): Property<ClusterState> {
  const sets = workloadsOfKind(config, 'ReplicaSet');
  return sometimes<ClusterState>(
    'replicaset-over-creation',
    'some ReplicaSet has more active pods than spec.replicas',
    (s) => anyReplicaSetExcess(s, sets),
    { source: 'kubernetes/kubernetes:pkg/controller/controller_utils.go (ExpectationsTimeout: "the controller will sync anyway")' },
  );
}
