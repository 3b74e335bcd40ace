/**
 * Scenarios as data: named starting points, each a set of parameter overrides on the defaults
 * (cluster shape, workloads, fault and operator budgets). `node-failure` is the default.
 */
export interface ScenarioInfo {
  readonly name: string;
  readonly description: string;
}

interface ScenarioDef extends ScenarioInfo {
  /** Overrides of `parameters()` defaults, as the user would write them with `--set`. */
  readonly overrides: Readonly<Record<string, string>>;
}

const DEFS: readonly ScenarioDef[] = [
  {
    name: 'node-failure',
    description: 'one of 3 nodes crashes: it is marked Unknown, tainted, its pods evicted after 300 s and the ReplicaSet pod replaced',
    overrides: { 'faults.nodeCrash': '1' },
  },
  {
    name: 'node-partition',
    description: 'a node is cut off from the control plane but keeps running its pods; operator actions can be allowed',
    overrides: { 'faults.nodePartition': '1', 'faults.nodePartitionHeal': '1' },
  },
  {
    name: 'leader-failover',
    description: 'the kube-controller-manager and kube-scheduler leaders crash or are cut off; another candidate takes over',
    overrides: {
      'cluster.nodes': '1',
      'cluster.replicaSetReplicas': '0',
      'cluster.statefulSetReplicas': '0',
      'faults.componentCrash': '1',
      'faults.controlPlanePartition': '1',
    },
  },
  {
    // One of 3 members is down from the start; cluster.etcdMembersDownAtStart=2 loses quorum,
    // faults.etcdMemberLoss loses members on the way.
    name: 'etcd-quorum',
    description: 'etcd members are lost while a node crashes: with quorum writes proceed, without it nothing is written',
    overrides: { 'cluster.etcdMembersDownAtStart': '1', 'faults.nodeCrash': '1' },
  },
  {
    name: 'zone-disruption',
    description: '3 of 4 nodes of one zone crash one after another, 20 s apart: the zone enters PartialDisruption, its eviction rate drops to 0 and the remaining pods are not evicted',
    overrides: {
      'cluster.nodes': '4',
      'cluster.replicaSetReplicas': '3',
      'cluster.statefulSetReplicas': '0',
      'faults.sequence': 'node-crash:node-1,node-crash:node-2+20s,node-crash:node-3+20s',
    },
  },
  {
    name: 'stale-informers',
    description: 'a node crashes while the controllers and the kube-scheduler act on informer caches up to 5 s behind: expectations keep the ReplicaSet at its replicas, the replacement comes up to 10 s later',
    overrides: { 'faults.nodeCrash': '1', 'informers.watchLag': '5s' },
  },
  {
    // ExpectationsTimeout is 5 min; scaled down with the lag (only lag > timeout matters) to keep the space small.
    name: 'expectations-timeout',
    description: 'a watch lags longer than the ReplicaSet controller\'s ExpectationsTimeout (scaled down to 10 s, the lag to 15 s, the kubelets\' maxPods to 3): it syncs anyway from its stale cache and creates an extra pod, then scales down once its cache catches up',
    overrides: {
      'cluster.nodes': '2',
      'cluster.replicaSetReplicas': '1',
      'cluster.statefulSetReplicas': '0',
      'cluster.replicaSetTolerationSeconds': '0',
      'faults.nodeCrash': '1',
      'informers.watchLag': '15s',
      'kubeControllerManager.expectationsTimeout': '10s',
      // Each pod the ReplicaSet creates meanwhile may be bound to the crashed node through the
      // scheduler's stale Node cache and evicted at once (toleration 0), stuck Terminating there:
      // the churn is Kubernetes' own, bounded only by the node's maxPods. At 110 the same story is
      // explored 110 times over and the check does not finish; at 3 it completes with the same
      // shortest traces (model/NOTES.md, "Where the large configurations' states come from").
      'cluster.maxPods': '3',
    },
  },
  {
    name: 'etcd-restore',
    description: 'etcd is restored from the backup taken at the start, after a crashed node\'s pod was replaced: the kubelets keep running containers whose pod objects are gone (phantom pods, kubernetes#131115) until they restart',
    overrides: { 'faults.nodeCrash': '1', 'operator.etcdRestore': '1' },
  },
  {
    name: 'component-outage',
    description: 'a control-plane component is down from the start (kube-scheduler by default) while a node crashes',
    overrides: { 'cluster.outage': 'kube-scheduler', 'faults.nodeCrash': '1' },
  },
];

/** The stock scenarios; the first is the default. */
export const scenarios: readonly ScenarioInfo[] = DEFS.map(({ name, description }) => ({ name, description }));

/** The overrides of a scenario, or undefined if there is no such scenario. */
export function scenarioOverrides(name: string): Readonly<Record<string, string>> | undefined {
  return DEFS.find((d) => d.name === name)?.overrides;
}
