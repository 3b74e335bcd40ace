/**
 * Every parameter a user can set (`--set key=value`, or the same dotted path in a config file),
 * with its Kubernetes name, owning component, default as written, and type. The order is the
 * order `kubecheck list` shows.
 */
export type ParameterType = 'duration' | 'integer' | 'number' | 'boolean' | 'string' | 'outage' | 'toleration' | 'node' | 'optionalDuration' | 'faultSequence' | 'workloads' | 'objects';

export interface ParameterInfo {
  /** Dotted path used by `--set` and config files, e.g. `kubeControllerManager.nodeMonitorGracePeriod`. */
  readonly key: string;
  /** Kubernetes' own name (`--node-monitor-grace-period`, `nodeLeaseDurationSeconds`); "" for modelling-only knobs. */
  readonly kubernetesName: string;
  readonly component: string;
  /** The component's command-line flag that sets it (`--node-monitor-grace-period`), if any: `import` reads it from flags. */
  readonly flag?: string;
  /**
   * Where it lives in the component's configuration file, if anywhere: a KubeletConfiguration
   * field (`maxPods`) or a KubeControllerManagerConfiguration `Section.Field`
   * (`NodeLifecycleController.NodeMonitorGracePeriod`): `import` reads it there.
   */
  readonly configField?: string;
  /** The default as the user writes it: `"50s"`, `"3"`, `"true"`. */
  readonly defaultValue: string;
  readonly description: string;
}

/**
 * The most of anything a count parameter makes the model build (nodes, etcd members, kube-apiserver
 * instances, leader-election candidates, replicas of one workload, workloads) or a fault or
 * operator budget allows. Far beyond what an exhaustive search can explore (5 nodes with a few
 * faults already take minutes), and small enough that building the model is instant.
 */
export const MAX_COUNT = 64;

/**
 * A parameter with its value type (internal). An integer says its bound, so that no count can be
 * added without one: `max` is the largest value accepted (above it the command line refuses the
 * config before building the model, KC213), or `null` for an integer that counts nothing the
 * model builds (seconds, a threshold, a capacity compared with).
 */
export type ParameterSpec =
  | (ParameterInfo & { readonly type: Exclude<ParameterType, 'integer'>; readonly max?: undefined })
  | (ParameterInfo & { readonly type: 'integer'; readonly max: number | null });

const KCM = 'kube-controller-manager';
const le = (prefix: string, component: string): ParameterSpec[] => [
  { key: `${prefix}.leaderElection.leaseDuration`, kubernetesName: '--leader-elect-lease-duration', flag: '--leader-elect-lease-duration', component, defaultValue: '15s', type: 'duration', description: 'how long a non-leader waits after observing a renewal before it may take the lease' },
  { key: `${prefix}.leaderElection.renewDeadline`, kubernetesName: '--leader-elect-renew-deadline', flag: '--leader-elect-renew-deadline', component, defaultValue: '10s', type: 'duration', description: 'how long the leader retries renewing before it stops leading' },
  { key: `${prefix}.leaderElection.retryPeriod`, kubernetesName: '--leader-elect-retry-period', flag: '--leader-elect-retry-period', component, defaultValue: '2s', type: 'duration', description: 'interval between acquire/renew attempts' },
  ...(['leaseDuration', 'renewDeadline', 'retryPeriod'] as const).map((k): ParameterSpec => ({
    key: `${prefix}.challengerLeaderElection.${k}`,
    kubernetesName: `--leader-elect-${k.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)}`,
    component,
    defaultValue: 'same',
    type: 'optionalDuration',
    description: `${k} of the candidates other than the first (e.g. during a rollout that changes the flags); "same" = as leaderElection.${k}`,
  })),
];

const SPECS: readonly ParameterSpec[] = [
  { key: 'kubernetesVersion', kubernetesName: '', component: 'cluster', defaultValue: '1.32', type: 'string', description: 'selects version-dependent defaults (node-monitor-grace-period 40s up to 1.31, 50s from 1.32)' },
  { key: 'model.tick', kubernetesName: '', component: 'model', defaultValue: '1s', type: 'duration', description: 'time quantum of the tick action; every duration must be a multiple of it' },
  { key: 'kubelet.nodeLeaseDurationSeconds', kubernetesName: 'nodeLeaseDurationSeconds', configField: 'nodeLeaseDurationSeconds', component: 'kubelet', defaultValue: '40', type: 'integer', max: null, description: 'node Lease duration; the kubelet renews every 0.25 × this (10 s)' },
  { key: 'kubelet.shutdownGracePeriod', kubernetesName: 'shutdownGracePeriod', configField: 'shutdownGracePeriod', component: 'kubelet', defaultValue: '0s', type: 'duration', description: 'graceful node shutdown: how long the kubelet delays a shutdown to stop the pods (0 = off: a shutdown is a crash)' },
  { key: 'kubelet.shutdownGracePeriodCriticalPods', kubernetesName: 'shutdownGracePeriodCriticalPods', configField: 'shutdownGracePeriodCriticalPods', component: 'kubelet', defaultValue: '0s', type: 'duration', description: 'the part of shutdownGracePeriod kept for critical pods; the others get the rest (the model has no critical pods)' },
  { key: 'kubeControllerManager.nodeMonitorPeriod', kubernetesName: '--node-monitor-period', flag: '--node-monitor-period', configField: 'KubeCloudShared.NodeMonitorPeriod', component: KCM, defaultValue: '5s', type: 'duration', description: 'period of the node lifecycle controller health pass' },
  { key: 'kubeControllerManager.nodeMonitorGracePeriod', kubernetesName: '--node-monitor-grace-period', flag: '--node-monitor-grace-period', configField: 'NodeLifecycleController.NodeMonitorGracePeriod', component: KCM, defaultValue: '50s', type: 'duration', description: 'time without a heartbeat before a node is marked Ready=Unknown (40s up to 1.31)' },
  { key: 'kubeControllerManager.nodeStartupGracePeriod', kubernetesName: '--node-startup-grace-period', flag: '--node-startup-grace-period', configField: 'NodeLifecycleController.NodeStartupGracePeriod', component: KCM, defaultValue: '1m', type: 'duration', description: 'time a Node object whose kubelet never posted status (see cluster.newNodes) gets before it is marked Ready=Unknown (NodeStatusNeverUpdated)' },
  { key: 'kubeControllerManager.nodeEvictionRate', kubernetesName: '--node-eviction-rate', flag: '--node-eviction-rate', configField: 'NodeLifecycleController.NodeEvictionRate', component: KCM, defaultValue: '0.1', type: 'number', description: 'nodes per second tainted NoExecute per healthy zone (burst 1)' },
  { key: 'kubeControllerManager.secondaryNodeEvictionRate', kubernetesName: '--secondary-node-eviction-rate', flag: '--secondary-node-eviction-rate', configField: 'NodeLifecycleController.SecondaryNodeEvictionRate', component: KCM, defaultValue: '0.01', type: 'number', description: 'rate in a PartialDisruption zone larger than the large-cluster threshold' },
  { key: 'kubeControllerManager.largeClusterSizeThreshold', kubernetesName: '--large-cluster-size-threshold', flag: '--large-cluster-size-threshold', configField: 'NodeLifecycleController.LargeClusterSizeThreshold', component: KCM, defaultValue: '50', type: 'integer', max: null, description: 'zones with at most this many nodes get eviction rate 0 in PartialDisruption' },
  { key: 'kubeControllerManager.unhealthyZoneThreshold', kubernetesName: '--unhealthy-zone-threshold', flag: '--unhealthy-zone-threshold', configField: 'NodeLifecycleController.UnhealthyZoneThreshold', component: KCM, defaultValue: '0.55', type: 'number', description: 'fraction of NotReady nodes (and at least 3) that makes a zone PartialDisruption' },
  { key: 'kubeControllerManager.podGcPeriod', kubernetesName: '', component: KCM, defaultValue: '20s', type: 'duration', description: 'pod GC period (constant gcCheckPeriod in pkg/controller/podgc)' },
  { key: 'kubeControllerManager.podGcQuarantine', kubernetesName: '', component: KCM, defaultValue: '40s', type: 'duration', description: 'pod GC wait before deleting pods of a missing Node (constant quarantineTime)' },
  { key: 'kubeControllerManager.expectationsTimeout', kubernetesName: '', component: KCM, defaultValue: '5m', type: 'duration', description: 'how long ReplicaSet expectations of unseen creations and deletions hold before the controller acts anyway (constant ExpectationsTimeout in pkg/controller/controller_utils.go); matters only with informers.watchLag' },
  ...le('kubeControllerManager', KCM),
  ...le('kubeScheduler', 'kube-scheduler'),
  { key: 'kubeApiserver.defaultNotReadyTolerationSeconds', kubernetesName: '--default-not-ready-toleration-seconds', flag: '--default-not-ready-toleration-seconds', component: 'kube-apiserver', defaultValue: '300', type: 'integer', max: null, description: 'tolerationSeconds the DefaultTolerationSeconds admission adds for not-ready:NoExecute (a node whose kubelet posts Ready=False)' },
  { key: 'kubeApiserver.defaultUnreachableTolerationSeconds', kubernetesName: '--default-unreachable-toleration-seconds', flag: '--default-unreachable-toleration-seconds', component: 'kube-apiserver', defaultValue: '300', type: 'integer', max: null, description: 'tolerationSeconds the DefaultTolerationSeconds admission adds for unreachable:NoExecute' },
  { key: 'cluster.nodes', kubernetesName: '', component: 'cluster', defaultValue: '3', type: 'integer', max: MAX_COUNT, description: 'worker nodes' },
  { key: 'cluster.newNodes', kubernetesName: '', component: 'cluster', defaultValue: '0', type: 'integer', max: MAX_COUNT, description: 'the last N nodes are new: their Node objects exist without status (made by a provisioner, or for a kubelet run with --register-node=false) and their kubelets start at any instant, or never' },
  { key: 'cluster.zones', kubernetesName: '', component: 'cluster', defaultValue: '1', type: 'integer', max: MAX_COUNT, description: 'zones (topology.kubernetes.io/zone); node i is in zone i mod zones' },
  { key: 'cluster.maxPods', kubernetesName: 'maxPods', configField: 'maxPods', flag: '--max-pods', component: 'kubelet', defaultValue: '110', type: 'integer', max: null, description: 'pods per node (scheduler capacity filter)' },
  { key: 'cluster.etcdMembers', kubernetesName: '', component: 'etcd', defaultValue: '3', type: 'integer', max: MAX_COUNT, description: 'etcd members; quorum is ⌊n/2⌋+1' },
  { key: 'cluster.etcdMembersDownAtStart', kubernetesName: '', component: 'etcd', defaultValue: '0', type: 'integer', max: MAX_COUNT, description: 'etcd members already down in the initial state' },
  { key: 'cluster.apiservers', kubernetesName: '', component: 'kube-apiserver', defaultValue: '1', type: 'integer', max: MAX_COUNT, description: 'kube-apiserver instances' },
  { key: 'cluster.controllerManagerCandidates', kubernetesName: '', component: KCM, defaultValue: '2', type: 'integer', max: MAX_COUNT, description: 'kube-controller-manager processes in its leader election' },
  { key: 'cluster.schedulerCandidates', kubernetesName: '', component: 'kube-scheduler', defaultValue: '2', type: 'integer', max: MAX_COUNT, description: 'kube-scheduler processes in its leader election' },
  { key: 'cluster.outage', kubernetesName: '', component: 'cluster', defaultValue: 'none', type: 'outage', description: 'a component all of whose instances are down from the start: none, kube-scheduler, kube-controller-manager, kube-apiserver' },
  { key: 'cluster.replicaSetReplicas', kubernetesName: 'spec.replicas', component: 'workload', defaultValue: '2', type: 'integer', max: MAX_COUNT, description: 'replicas of the ReplicaSet "web"' },
  { key: 'cluster.replicaSetTolerationSeconds', kubernetesName: 'tolerationSeconds', component: 'workload', defaultValue: 'default', type: 'toleration', description: 'the web pods\' unreachable and not-ready NoExecute tolerationSeconds: seconds, forever (no tolerationSeconds, as DaemonSets), none (no toleration: evicted at once), or default (set by admission)' },
  { key: 'cluster.replicaSetUnreachableTolerationSeconds', kubernetesName: 'tolerationSeconds', component: 'workload', defaultValue: 'same', type: 'toleration', description: 'the web pods\' node.kubernetes.io/unreachable:NoExecute toleration alone; same = as cluster.replicaSetTolerationSeconds' },
  { key: 'cluster.replicaSetNotReadyTolerationSeconds', kubernetesName: 'tolerationSeconds', component: 'workload', defaultValue: 'same', type: 'toleration', description: 'the web pods\' node.kubernetes.io/not-ready:NoExecute toleration alone; same = as cluster.replicaSetTolerationSeconds' },
  { key: 'cluster.replicaSetNodeName', kubernetesName: 'spec.nodeName', component: 'workload', defaultValue: 'none', type: 'node', description: 'the web pod template\'s spec.nodeName (e.g. node-2): pods are created bound there, bypassing the scheduler; none = scheduled' },
  { key: 'cluster.statefulSetReplicas', kubernetesName: 'spec.replicas', component: 'workload', defaultValue: '1', type: 'integer', max: MAX_COUNT, description: 'replicas of the StatefulSet "db"' },
  { key: 'cluster.statefulSetTolerationSeconds', kubernetesName: 'tolerationSeconds', component: 'workload', defaultValue: 'default', type: 'toleration', description: 'the db pods\' unreachable and not-ready NoExecute tolerationSeconds: seconds, forever (no tolerationSeconds, as DaemonSets), none (no toleration: evicted at once), or default (set by admission)' },
  { key: 'cluster.statefulSetUnreachableTolerationSeconds', kubernetesName: 'tolerationSeconds', component: 'workload', defaultValue: 'same', type: 'toleration', description: 'the db pods\' node.kubernetes.io/unreachable:NoExecute toleration alone; same = as cluster.statefulSetTolerationSeconds' },
  { key: 'cluster.statefulSetNotReadyTolerationSeconds', kubernetesName: 'tolerationSeconds', component: 'workload', defaultValue: 'same', type: 'toleration', description: 'the db pods\' node.kubernetes.io/not-ready:NoExecute toleration alone; same = as cluster.statefulSetTolerationSeconds' },
  { key: 'cluster.statefulSetNodeName', kubernetesName: 'spec.nodeName', component: 'workload', defaultValue: 'none', type: 'node', description: 'the db pod template\'s spec.nodeName (e.g. node-2): pods are created bound there, bypassing the scheduler; none = scheduled' },
  { key: 'cluster.objects', kubernetesName: '', component: 'cluster', defaultValue: 'none', type: 'objects', description: 'objects of your own kinds at the start (custom resources, ConfigMaps...), as manifests give them; an operator (kubecheck/operator) takes those of the kinds it declares; import keeps the custom resources of your manifests here' },
  { key: 'cluster.workloads', kubernetesName: '', component: 'workload', defaultValue: 'default', type: 'workloads', description: 'the workloads as a list, in a config file (cluster: { workloads: [{ kind: ReplicaSet, name: web, replicas: 2, tolerations: { unreachable: 300, notReady: forever }, nodeName: node-2 }, ...] }); kind ReplicaSet (a Deployment), StatefulSet or DaemonSet (one pod per node); default = the ReplicaSet web and the StatefulSet db of the keys above' },
  { key: 'cluster.terminationGracePeriodSeconds', kubernetesName: 'terminationGracePeriodSeconds', component: 'workload', defaultValue: '30', type: 'integer', max: null, description: 'pods\' spec.terminationGracePeriodSeconds where a workload gives none: after SIGTERM the kubelet lets the containers run this long before SIGKILL, a force-deleted pod\'s too (at least 1 s)' },
  { key: 'informers.watchLag', kubernetesName: '', component: 'informers', defaultValue: '0s', type: 'duration', description: 'stale state: how far informer caches (kube-controller-manager controllers, kube-scheduler, extensions) and kube-apiserver watch caches may lag the API; watch events arrive one object at a time at any instant within it; 0 = components read the API as it is' },
  ...(
    [
      ['nodeCrash', 'node crashes (containers die, kubelet stops)'],
      ['nodeShutdown', 'node shutdowns: with kubelet.shutdownGracePeriod > 0 the kubelet posts Ready=False, stops the pods (then Failed) and the node powers off; with 0 a shutdown is a crash'],
      ['nodeRestart', 'restarts of a crashed node'],
      ['kubeletCrash', 'kubelet crashes (containers keep running)'],
      ['kubeletRestart', 'restarts of a crashed kubelet'],
      ['nodePartition', 'node↔control-plane partitions (the node keeps running)'],
      ['nodePartitionHeal', 'heals of a node partition'],
      ['componentCrash', 'crashes of a kube-controller-manager or kube-scheduler process'],
      ['componentRestart', 'restarts of a crashed control-plane process'],
      ['controlPlanePartition', 'partitions of a control-plane process from the kube-apiserver'],
      ['controlPlanePartitionHeal', 'heals of a control-plane process partition'],
      ['etcdMemberLoss', 'etcd members lost'],
      ['apiserverLoss', 'kube-apiserver instances lost'],
      ['processPause', 'stop-the-world pauses of a control-plane process'],
      ['clockDrift', 'control-plane processes whose clock rate drifts'],
      ['etcdMemberRestore', 'restores of a lost etcd member'],
      ['apiserverRestore', 'restores of a lost kube-apiserver instance'],
      ['containerRuntimeFailure', 'container runtime failures on a node (its containers stop; the kubelet posts Ready=False)'],
      ['containerRuntimeRecovery', 'recoveries of a failed container runtime'],
      ['nodeStatusUpdateFailure', 'kubelets whose node status updates fail while their Lease renewals succeed'],
      ['apiserverEtcdOutage', 'outages between the kube-apiserver the kubelets reach and etcd (kubernetes#121793)'],
      ['extensionRestart', 'restarts of a user\'s controller (an operator, or an extension with an informer): it loses its memory and queue and relists (an extension with an informer with resourceVersion="0", from any kube-apiserver\'s watch cache)'],
      ['operatorPause', 'stop-the-world pauses of a replica of a user\'s operator (kubecheck/operator with replicas), each faults.processPauseDuration long'],
      ['operatorPartition', 'partitions of a replica of a user\'s operator from the kube-apiserver (its watches stall, its writes and Lease renewals fail; calls outside the cluster still go through)'],
      ['operatorPartitionHeal', 'heals of an operator replica\'s partition'],
      ['operatorLostAnswer', 'writes of an operator that the kube-apiserver applies while the answer is lost (the client sees a timeout and retries)'],
    ] as const
  ).map(([k, d]): ParameterSpec => ({ key: `faults.${k}`, kubernetesName: '', component: 'faults', defaultValue: '0', type: 'integer', max: MAX_COUNT, description: `budget: ${d}` })),
  { key: 'faults.processPauseDuration', kubernetesName: '', component: 'faults', defaultValue: '20s', type: 'duration', description: 'length of a process pause' },
  { key: 'faults.sequence', kubernetesName: '', component: 'faults', defaultValue: 'none', type: 'faultSequence', description: 'faults that happen in this order, each at any instant after the previous, besides the budgets: e.g. node-crash:node-1,node-crash:node-2 (fault names as in traces)' },
  { key: 'faults.apiserverEtcdOutageDuration', kubernetesName: '', component: 'faults', defaultValue: '40s', type: 'duration', description: 'length of a kube-apiserver ⇄ etcd outage (gRPC keepalive reconnects take up to about 40 s, kubernetes#121793)' },
  { key: 'faults.clockDriftRate', kubernetesName: '', component: 'faults', defaultValue: '2', type: 'number', description: 'clock rate of a drifting process (local seconds per real second)' },
  ...(
    [
      ['forceDeletePod', 'force deletions of a pod (--grace-period=0 --force)'],
      ['deleteNode', 'deletions of a Node object'],
      ['outOfServiceTaint', 'node.kubernetes.io/out-of-service:NoExecute taints put on a node'],
      ['cordon', 'cordons (spec.unschedulable)'],
      ['componentStop', 'clean shutdowns of a control-plane component (SIGTERM, e.g. a rolling upgrade): a leading kube-scheduler releases its Lease (ReleaseOnCancel), a kube-controller-manager does not'],
      ['etcdRestore', 'restores of etcd from the backup taken at the start, the control plane restarted as the documented procedure says, the kubelets left running'],
    ] as const
  ).map(([k, d]): ParameterSpec => ({ key: `operator.${k}`, kubernetesName: '', component: 'operator', defaultValue: '0', type: 'integer', max: MAX_COUNT, description: `budget: ${d}` })),
];

/** Every parameter with its type (internal; the public view is {@link parameters}). */
export function parameterSpecs(): readonly ParameterSpec[] {
  return SPECS;
}

/** Every parameter a user can set, with its Kubernetes name and default. */
export function parameters(): readonly ParameterInfo[] {
  return SPECS.map(({ key, kubernetesName, component, defaultValue, description }) => ({ key, kubernetesName, component, defaultValue, description }));
}
