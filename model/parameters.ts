/**
 * Every parameter a user can set (`--set key=value`, or the same dotted path in a config file),
 * declared once: its path, Kubernetes name, owning component, flag and configuration field, kind
 * of value, unit, default (a typed value, as the resolved config holds it) and bounds. Defaults,
 * validation (`validate.ts`), `kubecheck list parameters`, `import` and the config's written form
 * (`configToObject`) all read these declarations; test/model/parameterSchema.test.ts checks at
 * compile time that they and `ClusterConfig` are one schema. The order is the order
 * `kubecheck list` shows.
 */
import type { ClusterConfig, CustomObjectConfig, FaultStep, Outage, TolerationSetting, WorkloadConfig } from './config.js';
import { formatDuration } from './duration.js';
import { writtenToleration } from './tolerations.js';

/** What the resolved config holds for each kind of parameter (its field of `ClusterConfig`). */
export interface ParameterValues {
  /** Seconds; written as a Go duration (`50s`, `1m30s`, `500ms`). */
  readonly duration: number;
  /** Seconds, or null: the value of the parameter it defaults to (written `same`). */
  readonly optionalDuration: number | null;
  /** A whole number (written in decimal). */
  readonly integer: number;
  /** A finite number (written in decimal). */
  readonly number: number;
  readonly boolean: boolean;
  readonly string: string;
  /** The component down from the start, or `none`. */
  readonly outage: Outage;
  /** Whole seconds, `forever`, `none`, or null (not set: written as the declaration's `unset`). */
  readonly toleration: TolerationSetting;
  /** A node's index (`node-2` is 1), or -1 for none (written `none`). */
  readonly node: number;
  /** Steps in order (written `fault:target+delay,...`, or `none`). */
  readonly faultSequence: readonly FaultStep[];
  /** The workloads; a config file writes the list, or `default`. */
  readonly workloads: readonly WorkloadConfig[];
  /** Objects of the user's own kinds (written `none` when there are none). */
  readonly objects: readonly CustomObjectConfig[];
  /** One label map per node, in node order (written `none` when there are none). */
  readonly nodeLabels: readonly Readonly<Record<string, string>>[];
}

/** The kind of a parameter's value: how it is parsed, written, and held in the resolved config. */
export type ParameterType = keyof ParameterValues;

/** A parameter's default as declared: its resolved value, except `cluster.workloads`, whose default (null) is the workloads the scalar keys describe. */
export type ParameterDefault<T extends ParameterType> = T extends 'workloads' ? null : ParameterValues[T];

/**
 * What a number counts or measures: `seconds` (a duration, written with its unit, or whole
 * seconds), `count` (nodes, replicas, a budget...), `per second` (a rate), `fraction` (of a zone's
 * nodes), `ratio` (local seconds per real second).
 */
export type ParameterUnit = 'seconds' | 'count' | 'per second' | 'fraction' | 'ratio';

/** The units each numeric kind may declare; the other kinds have none. */
interface KindUnits {
  readonly duration: 'seconds';
  readonly optionalDuration: 'seconds';
  readonly integer: 'seconds' | 'count';
  readonly number: 'per second' | 'fraction' | 'ratio';
  readonly toleration: 'seconds';
}

/**
 * Whose rule refuses a value out of its declared bounds, which gives the error code: `kubernetes`
 * (Kubernetes' own validation: KC105, waived by allowUnsafe), `shape` (a cluster shape or budget
 * that makes no sense: KC107), `value` (a value the setting never takes: KC104), `model` (what
 * the discrete model cannot run: KC106).
 */
export type BoundRule = 'kubernetes' | 'shape' | 'value' | 'model';

/**
 * The values a numeric parameter accepts, which `validateConfig` enforces on the resolved config
 * (a toleration's only when it is a number of seconds). The refusal reads `key (value) must ...`:
 * "must not be negative" (min 0), "must be at least 1", "must be positive" (above 0), "must be in
 * (0, 1]", "must be between 1 and cluster.nodes (3)", "must not exceed ...", then the source.
 */
export interface Bounds {
  /** The least value accepted. */
  readonly min?: number;
  /** A value the parameter must be greater than (exclusive lower bound). */
  readonly above?: number;
  /** The largest value accepted. */
  readonly max?: number;
  /** The key of another parameter (of the same kind) that this one must not exceed. */
  readonly atMost?: string;
  readonly rule: BoundRule;
  /** Where Kubernetes states the rule, cited after the refusal: `apps/v1 validation`. */
  readonly source?: string;
  /** What the refusal says instead of the bound's own wording, where the rule words it otherwise. */
  readonly says?: string;
}

/**
 * A parameter as `kubecheck list parameters` shows it: key, Kubernetes name, owning component,
 * default as written, description.
 */
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
  /** The default as the user writes it (`"50s"`, `"3"`, `"same"`): the declared default, written. */
  readonly defaultValue: string;
  readonly description: string;
}

/** What every declaration says, whatever its kind. */
interface DeclarationBase<T extends ParameterType> extends Omit<ParameterInfo, 'defaultValue'> {
  readonly type: T;
  /** The default, as the resolved config holds it (seconds for a duration). */
  readonly default: ParameterDefault<T>;
}

/**
 * One parameter's declaration, by kind. A numeric kind states its unit and may state its bounds.
 * An integer also states `max`, so that no count can be added without one: the largest value the
 * command line builds a model for (above it the config is refused before the model is built,
 * KC213), or `null` for an integer that counts nothing the model builds (seconds, a threshold, a
 * capacity compared with). A toleration says how its null (not set) is written.
 */
export type ParameterDeclaration<T extends ParameterType = ParameterType> = T extends 'integer'
  ? DeclarationBase<T> & { readonly unit: KindUnits[T]; readonly bounds?: Bounds; readonly max: number | null }
  : T extends 'toleration'
    ? DeclarationBase<T> & { readonly unit: KindUnits[T]; readonly bounds?: Bounds; readonly max?: undefined; readonly unset: 'default' | 'same' }
    : T extends keyof KindUnits
      ? DeclarationBase<T> & { readonly unit: KindUnits[T]; readonly bounds?: Bounds; readonly max?: undefined }
      : DeclarationBase<T> & { readonly unit?: undefined; readonly bounds?: undefined; readonly max?: undefined };

/** A parameter's declaration with its default as written (what `parameterSpecs` gives). */
export type ParameterSpec<T extends ParameterType = ParameterType> = T extends ParameterType ? ParameterDeclaration<T> & { readonly defaultValue: string } : never;

/**
 * The most of anything a count parameter makes the model build (nodes, etcd members, kube-apiserver
 * instances, leader-election candidates, replicas of one workload, workloads) or a fault or
 * operator budget allows. Far beyond what an exhaustive search can explore (5 nodes with a few
 * faults already take minutes), and small enough that building the model is instant.
 */
export const MAX_COUNT = 64;

/** Lower bounds the declarations share. */
const NOT_NEGATIVE = { min: 0, rule: 'value' } as const;
const AT_LEAST_ONE = { min: 1, rule: 'shape' } as const;
const REPLICAS = { min: 0, rule: 'shape', source: 'apps/v1 validation' } as const;
const BUDGET = { min: 0, rule: 'shape', says: 'is a budget and must not be negative' } as const;

const KCM = 'kube-controller-manager';

/**
 * client-go leader election of `prefix`'s component: its flags, and the other candidates'
 * settings. The return type is inferred so that each key stays a literal (the schema test's).
 */
function le<const P extends 'kubeControllerManager' | 'kubeScheduler'>(prefix: P, component: string) {
  return [
    { key: `${prefix}.leaderElection.leaseDuration`, kubernetesName: '--leader-elect-lease-duration', flag: '--leader-elect-lease-duration', component, type: 'duration', unit: 'seconds', default: 15, description: 'how long a non-leader waits after observing a renewal before it may take the lease' },
    { key: `${prefix}.leaderElection.renewDeadline`, kubernetesName: '--leader-elect-renew-deadline', flag: '--leader-elect-renew-deadline', component, type: 'duration', unit: 'seconds', default: 10, description: 'how long the leader retries renewing before it stops leading' },
    { key: `${prefix}.leaderElection.retryPeriod`, kubernetesName: '--leader-elect-retry-period', flag: '--leader-elect-retry-period', component, type: 'duration', unit: 'seconds', default: 2, description: 'interval between acquire/renew attempts' },
    ...(['leaseDuration', 'renewDeadline', 'retryPeriod'] as const).map((k) => ({
      key: `${prefix}.challengerLeaderElection.${k}` as const,
      kubernetesName: `--leader-elect-${k.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)}`,
      component,
      type: 'optionalDuration' as const,
      unit: 'seconds' as const,
      default: null,
      description: `${k} of the candidates other than the first (e.g. during a rollout that changes the flags); "same" = as leaderElection.${k}`,
    })),
  ] as const satisfies readonly ParameterDeclaration[];
}

/** Budgets (`faults.*`, `operator.*`): how many of each fault or operator action may happen on one path (keys literal, as in {@link le}). */
function budgets<const S extends 'faults' | 'operator', const K extends string>(section: S, list: readonly (readonly [K, string])[]) {
  return list.map(([k, d]) => ({ key: `${section}.${k}` as const, kubernetesName: '', component: section, type: 'integer' as const, unit: 'count' as const, default: 0, max: MAX_COUNT, bounds: BUDGET, description: `budget: ${d}` }) satisfies ParameterDeclaration);
}

const DECLARATIONS = [
  { key: 'kubernetesVersion', kubernetesName: '', component: 'cluster', type: 'string', default: '1.32', description: 'selects version-dependent defaults (node-monitor-grace-period 40s up to 1.31, 50s from 1.32)' },
  { key: 'model.tick', kubernetesName: '', component: 'model', type: 'duration', unit: 'seconds', default: 1, bounds: { above: 0, rule: 'model' }, description: 'time quantum of the tick action; every duration must be a multiple of it' },
  { key: 'model.reductions', kubernetesName: '', component: 'model', type: 'boolean', default: true, description: "the model's exact reductions of history variables (a node's time alive saturates once nothing can read it, fulfilled or expired ReplicaSet expectations are dropped); false explores the unreduced space, with the same verdicts and shortest counterexamples and more states" },
  { key: 'model.jitteredFollowerTries', kubernetesName: 'JitterFactor', component: 'model', type: 'boolean', default: false, description: "leader-election followers try on their own client-go schedule, wait.JitterUntil(RetryPeriod, JitterFactor 1.2, sliding): the next try Jitter(retryPeriod, 1.2) after the last one ends, in [retryPeriod, 2.2 × retryPeriod] rounded up to the tick, and they acquire only at a try; false = the abstraction: a follower may acquire at any instant once the lease it observed expired (contains every schedule, fewer states, bounds no handover). leader-handover-within needs true" },
  { key: 'model.leaderHandoverBound', kubernetesName: 'RetryPeriod × (1 + JitterFactor)', component: 'model', type: 'optionalDuration', unit: 'seconds', default: null, description: 'bound of the property leader-handover-within: how long after a leader releases its Lease (ReleaseOnCancel) a standby that can reach the API holds it; "same" = what client-go guarantees, retryPeriod × 2.2 rounded up to the tick (5s with the defaults)' },
  { key: 'kubelet.nodeLeaseDurationSeconds', kubernetesName: 'nodeLeaseDurationSeconds', configField: 'nodeLeaseDurationSeconds', component: 'kubelet', type: 'integer', unit: 'seconds', default: 40, max: null, bounds: { above: 0, rule: 'kubernetes', says: 'must be greater than 0', source: 'kubelet config validation' }, description: 'node Lease duration; the kubelet renews every 0.25 × this (10 s)' },
  { key: 'kubelet.shutdownGracePeriod', kubernetesName: 'shutdownGracePeriod', configField: 'shutdownGracePeriod', component: 'kubelet', type: 'duration', unit: 'seconds', default: 0, description: 'graceful node shutdown: how long the kubelet delays a shutdown to stop the pods (0 = off: a shutdown is a crash)' },
  { key: 'kubelet.shutdownGracePeriodCriticalPods', kubernetesName: 'shutdownGracePeriodCriticalPods', configField: 'shutdownGracePeriodCriticalPods', component: 'kubelet', type: 'duration', unit: 'seconds', default: 0, bounds: { atMost: 'kubelet.shutdownGracePeriod', rule: 'shape', source: 'KubeletConfiguration validation' }, description: 'the part of shutdownGracePeriod kept for critical pods (priority class system-cluster-critical or system-node-critical, or priority ≥ 2000000000): stopped last, each with at most this grace; the others are stopped first with at most the rest' },
  { key: 'kubeControllerManager.nodeMonitorPeriod', kubernetesName: '--node-monitor-period', flag: '--node-monitor-period', configField: 'KubeCloudShared.NodeMonitorPeriod', component: KCM, type: 'duration', unit: 'seconds', default: 5, description: 'period of the node lifecycle controller health pass' },
  { key: 'kubeControllerManager.nodeMonitorGracePeriod', kubernetesName: '--node-monitor-grace-period', flag: '--node-monitor-grace-period', configField: 'NodeLifecycleController.NodeMonitorGracePeriod', component: KCM, type: 'duration', unit: 'seconds', default: 50, description: 'time without a heartbeat before a node is marked Ready=Unknown (40s up to 1.31)' },
  { key: 'kubeControllerManager.nodeStartupGracePeriod', kubernetesName: '--node-startup-grace-period', flag: '--node-startup-grace-period', configField: 'NodeLifecycleController.NodeStartupGracePeriod', component: KCM, type: 'duration', unit: 'seconds', default: 60, description: 'time a Node object whose kubelet never posted status (see cluster.newNodes) gets before it is marked Ready=Unknown (NodeStatusNeverUpdated)' },
  { key: 'kubeControllerManager.nodeEvictionRate', kubernetesName: '--node-eviction-rate', flag: '--node-eviction-rate', configField: 'NodeLifecycleController.NodeEvictionRate', component: KCM, type: 'number', unit: 'per second', default: 0.1, bounds: NOT_NEGATIVE, description: 'nodes per second tainted NoExecute per healthy zone (burst 1)' },
  { key: 'kubeControllerManager.secondaryNodeEvictionRate', kubernetesName: '--secondary-node-eviction-rate', flag: '--secondary-node-eviction-rate', configField: 'NodeLifecycleController.SecondaryNodeEvictionRate', component: KCM, type: 'number', unit: 'per second', default: 0.01, bounds: NOT_NEGATIVE, description: 'rate in a PartialDisruption zone larger than the large-cluster threshold' },
  { key: 'kubeControllerManager.largeClusterSizeThreshold', kubernetesName: '--large-cluster-size-threshold', flag: '--large-cluster-size-threshold', configField: 'NodeLifecycleController.LargeClusterSizeThreshold', component: KCM, type: 'integer', unit: 'count', default: 50, max: null, bounds: { min: 0, rule: 'shape' }, description: 'zones with at most this many nodes get eviction rate 0 in PartialDisruption' },
  { key: 'kubeControllerManager.unhealthyZoneThreshold', kubernetesName: '--unhealthy-zone-threshold', flag: '--unhealthy-zone-threshold', configField: 'NodeLifecycleController.UnhealthyZoneThreshold', component: KCM, type: 'number', unit: 'fraction', default: 0.55, bounds: { above: 0, max: 1, rule: 'value' }, description: 'fraction of NotReady nodes (and at least 3) that makes a zone PartialDisruption' },
  { key: 'kubeControllerManager.podGcPeriod', kubernetesName: '', component: KCM, type: 'duration', unit: 'seconds', default: 20, description: 'pod GC period (constant gcCheckPeriod in pkg/controller/podgc)' },
  { key: 'kubeControllerManager.podGcQuarantine', kubernetesName: '', component: KCM, type: 'duration', unit: 'seconds', default: 40, description: 'pod GC wait before deleting pods of a missing Node (constant quarantineTime)' },
  { key: 'kubeControllerManager.expectationsTimeout', kubernetesName: '', component: KCM, type: 'duration', unit: 'seconds', default: 300, description: 'how long ReplicaSet expectations of unseen creations and deletions hold before the controller acts anyway (constant ExpectationsTimeout in pkg/controller/controller_utils.go); matters only with informers.watchLag' },
  ...le('kubeControllerManager', KCM),
  ...le('kubeScheduler', 'kube-scheduler'),
  { key: 'kubeApiserver.defaultNotReadyTolerationSeconds', kubernetesName: '--default-not-ready-toleration-seconds', flag: '--default-not-ready-toleration-seconds', component: 'kube-apiserver', type: 'integer', unit: 'seconds', default: 300, max: null, bounds: NOT_NEGATIVE, description: 'tolerationSeconds the DefaultTolerationSeconds admission adds for not-ready:NoExecute (a node whose kubelet posts Ready=False)' },
  { key: 'kubeApiserver.defaultUnreachableTolerationSeconds', kubernetesName: '--default-unreachable-toleration-seconds', flag: '--default-unreachable-toleration-seconds', component: 'kube-apiserver', type: 'integer', unit: 'seconds', default: 300, max: null, bounds: NOT_NEGATIVE, description: 'tolerationSeconds the DefaultTolerationSeconds admission adds for unreachable:NoExecute' },
  { key: 'kubeApiserver.defaultTolerationSecondsAdmission', kubernetesName: 'DefaultTolerationSeconds', component: 'kube-apiserver', type: 'boolean', default: true, description: 'the DefaultTolerationSeconds admission plugin is on (false: --disable-admission-plugins=DefaultTolerationSeconds): a pod whose tolerations have none with key not-ready (unreachable) or empty and effect NoExecute or empty gets an Exists NoExecute one with the seconds above' },
  { key: 'cluster.nodes', kubernetesName: '', component: 'cluster', type: 'integer', unit: 'count', default: 3, max: MAX_COUNT, bounds: AT_LEAST_ONE, description: 'worker nodes' },
  { key: 'cluster.newNodes', kubernetesName: '', component: 'cluster', type: 'integer', unit: 'count', default: 0, max: MAX_COUNT, bounds: { min: 0, atMost: 'cluster.nodes', rule: 'shape' }, description: 'the last N nodes are new: their Node objects exist without status (made by a provisioner, or for a kubelet run with --register-node=false) and their kubelets start at any instant, or never' },
  { key: 'cluster.zones', kubernetesName: '', component: 'cluster', type: 'integer', unit: 'count', default: 1, max: MAX_COUNT, bounds: { min: 1, atMost: 'cluster.nodes', rule: 'shape' }, description: 'zones (topology.kubernetes.io/zone); node i is in zone i mod zones' },
  { key: 'cluster.maxPods', kubernetesName: 'maxPods', configField: 'maxPods', flag: '--max-pods', component: 'kubelet', type: 'integer', unit: 'count', default: 110, max: null, bounds: AT_LEAST_ONE, description: 'pods per node (scheduler capacity filter)' },
  { key: 'cluster.etcdMembers', kubernetesName: '', component: 'etcd', type: 'integer', unit: 'count', default: 3, max: MAX_COUNT, bounds: AT_LEAST_ONE, description: 'etcd members; quorum is ⌊n/2⌋+1' },
  { key: 'cluster.etcdMembersDownAtStart', kubernetesName: '', component: 'etcd', type: 'integer', unit: 'count', default: 0, max: MAX_COUNT, bounds: { min: 0, atMost: 'cluster.etcdMembers', rule: 'shape' }, description: 'etcd members already down in the initial state' },
  { key: 'cluster.apiservers', kubernetesName: '', component: 'kube-apiserver', type: 'integer', unit: 'count', default: 1, max: MAX_COUNT, bounds: AT_LEAST_ONE, description: 'kube-apiserver instances' },
  { key: 'cluster.controllerManagerCandidates', kubernetesName: '', component: KCM, type: 'integer', unit: 'count', default: 2, max: MAX_COUNT, bounds: AT_LEAST_ONE, description: 'kube-controller-manager processes in its leader election' },
  { key: 'cluster.schedulerCandidates', kubernetesName: '', component: 'kube-scheduler', type: 'integer', unit: 'count', default: 2, max: MAX_COUNT, bounds: AT_LEAST_ONE, description: 'kube-scheduler processes in its leader election' },
  { key: 'cluster.outage', kubernetesName: '', component: 'cluster', type: 'outage', default: 'none', description: 'a component all of whose instances are down from the start: none, kube-scheduler, kube-controller-manager, kube-apiserver' },
  { key: 'cluster.replicaSetReplicas', kubernetesName: 'spec.replicas', component: 'workload', type: 'integer', unit: 'count', default: 2, max: MAX_COUNT, bounds: REPLICAS, description: 'replicas of the ReplicaSet "web"' },
  { key: 'cluster.replicaSetTolerationSeconds', kubernetesName: 'tolerationSeconds', component: 'workload', type: 'toleration', unit: 'seconds', default: null, unset: 'default', bounds: NOT_NEGATIVE, description: 'the web pods\' unreachable and not-ready NoExecute tolerationSeconds: seconds, forever (no tolerationSeconds, as DaemonSets), none (no toleration: evicted at once), or default (set by admission)' },
  { key: 'cluster.replicaSetUnreachableTolerationSeconds', kubernetesName: 'tolerationSeconds', component: 'workload', type: 'toleration', unit: 'seconds', default: null, unset: 'same', bounds: NOT_NEGATIVE, description: 'the web pods\' node.kubernetes.io/unreachable:NoExecute toleration alone; same = as cluster.replicaSetTolerationSeconds' },
  { key: 'cluster.replicaSetNotReadyTolerationSeconds', kubernetesName: 'tolerationSeconds', component: 'workload', type: 'toleration', unit: 'seconds', default: null, unset: 'same', bounds: NOT_NEGATIVE, description: 'the web pods\' node.kubernetes.io/not-ready:NoExecute toleration alone; same = as cluster.replicaSetTolerationSeconds' },
  { key: 'cluster.replicaSetNodeName', kubernetesName: 'spec.nodeName', component: 'workload', type: 'node', default: -1, description: 'the web pod template\'s spec.nodeName (e.g. node-2): pods are created bound there, bypassing the scheduler; none = scheduled' },
  { key: 'cluster.statefulSetReplicas', kubernetesName: 'spec.replicas', component: 'workload', type: 'integer', unit: 'count', default: 1, max: MAX_COUNT, bounds: REPLICAS, description: 'replicas of the StatefulSet "db"' },
  { key: 'cluster.statefulSetTolerationSeconds', kubernetesName: 'tolerationSeconds', component: 'workload', type: 'toleration', unit: 'seconds', default: null, unset: 'default', bounds: NOT_NEGATIVE, description: 'the db pods\' unreachable and not-ready NoExecute tolerationSeconds: seconds, forever (no tolerationSeconds, as DaemonSets), none (no toleration: evicted at once), or default (set by admission)' },
  { key: 'cluster.statefulSetUnreachableTolerationSeconds', kubernetesName: 'tolerationSeconds', component: 'workload', type: 'toleration', unit: 'seconds', default: null, unset: 'same', bounds: NOT_NEGATIVE, description: 'the db pods\' node.kubernetes.io/unreachable:NoExecute toleration alone; same = as cluster.statefulSetTolerationSeconds' },
  { key: 'cluster.statefulSetNotReadyTolerationSeconds', kubernetesName: 'tolerationSeconds', component: 'workload', type: 'toleration', unit: 'seconds', default: null, unset: 'same', bounds: NOT_NEGATIVE, description: 'the db pods\' node.kubernetes.io/not-ready:NoExecute toleration alone; same = as cluster.statefulSetTolerationSeconds' },
  { key: 'cluster.statefulSetNodeName', kubernetesName: 'spec.nodeName', component: 'workload', type: 'node', default: -1, description: 'the db pod template\'s spec.nodeName (e.g. node-2): pods are created bound there, bypassing the scheduler; none = scheduled' },
  { key: 'cluster.objects', kubernetesName: '', component: 'cluster', type: 'objects', default: [], description: 'objects of your own kinds at the start (custom resources, ConfigMaps...), as manifests give them; an operator (kubecheck/operator) takes those of the kinds it declares; import keeps the custom resources of your manifests here' },
  { key: 'cluster.workloads', kubernetesName: '', component: 'workload', type: 'workloads', default: null, description: 'the workloads as a list, in a config file (cluster: { workloads: [{ kind: ReplicaSet, name: web, replicas: 2, tolerations: { unreachable: 300, notReady: forever }, nodeName: node-2 }, ...] }); kind ReplicaSet (a Deployment), StatefulSet or DaemonSet (one pod per node); default = the ReplicaSet web and the StatefulSet db of the keys above. Scheduling constraints of a workload, under their Kubernetes names: namespace (metadata.namespace), labels (spec.template.metadata.labels), nodeSelector (spec.template.spec.nodeSelector), affinity (spec.template.spec.affinity: nodeAffinity, podAffinity and podAntiAffinity, their requiredDuringSchedulingIgnoredDuringExecution terms), topologySpreadConstraints (spec.template.spec.topologySpreadConstraints, whenUnsatisfiable DoNotSchedule); the scheduler filters nodes by them as the default profile\'s NodeAffinity, InterPodAffinity and PodTopologySpread plugins do. A StatefulSet\'s volumeClaimTemplates ([{ name: data, topology: node | zone | none }], zone by default: where its volumes live, a local volume on one node, a zonal disk in one zone) and persistentVolumeClaimRetentionPolicy ({ whenDeleted, whenScaled }: Retain or Delete)' },
  { key: 'cluster.nodeLabels', kubernetesName: 'metadata.labels', component: 'cluster', type: 'nodeLabels', default: [], description: 'the Node objects\' labels, one map per node in order (cluster: { nodeLabels: [{ disktype: ssd }, ...] }); every node also carries kubernetes.io/hostname (node-<n>) and topology.kubernetes.io/zone (zone-<z>) unless given; read by nodeSelector, node affinity and the topology keys of pod affinity and topology spread constraints' },
  { key: 'cluster.terminationGracePeriodSeconds', kubernetesName: 'terminationGracePeriodSeconds', component: 'workload', type: 'integer', unit: 'seconds', default: 30, max: null, bounds: NOT_NEGATIVE, description: 'pods\' spec.terminationGracePeriodSeconds where a workload gives none: after SIGTERM the kubelet lets the containers run this long before SIGKILL, a force-deleted pod\'s too (at least 1 s)' },
  { key: 'informers.watchLag', kubernetesName: '', component: 'informers', type: 'duration', unit: 'seconds', default: 0, description: 'stale state: how far informer caches (kube-controller-manager controllers, kube-scheduler, extensions) and kube-apiserver watch caches may lag the API; watch events arrive one object at a time at any instant within it; 0 = components read the API as it is' },
  ...budgets('faults', [
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
    ['containerRuntimeFailure', 'container runtime failures on a node (containerd dies: its containers run on under their shims, the kubelet can neither start, stop nor observe any and posts Ready=False)'],
    ['containerRuntimeRecovery', 'recoveries of a failed container runtime'],
    ['nodeStatusUpdateFailure', 'kubelets whose node status updates fail while their Lease renewals succeed'],
    ['apiserverEtcdOutage', 'outages between the kube-apiserver the kubelets reach and etcd (kubernetes#121793)'],
    ['extensionRestart', 'restarts of a user\'s controller (an operator, or an extension with an informer): it loses its memory and queue and relists (an extension with an informer with resourceVersion="0", from any kube-apiserver\'s watch cache)'],
    ['operatorPause', 'stop-the-world pauses of a replica of a user\'s operator (kubecheck/operator with replicas), each faults.processPauseDuration long'],
    ['operatorPartition', 'partitions of a replica of a user\'s operator from the kube-apiserver (its watches stall, its writes and Lease renewals fail; calls outside the cluster still go through)'],
    ['operatorPartitionHeal', 'heals of an operator replica\'s partition'],
    ['operatorLostAnswer', 'writes of an operator that the kube-apiserver applies while the answer is lost (the client sees a timeout and retries)'],
  ]),
  { key: 'faults.processPauseDuration', kubernetesName: '', component: 'faults', type: 'duration', unit: 'seconds', default: 20, description: 'length of a process pause' },
  { key: 'faults.sequence', kubernetesName: '', component: 'faults', type: 'faultSequence', default: [], description: 'faults that happen in this order, each at any instant after the previous, besides the budgets: e.g. node-crash:node-1,node-crash:node-2 (fault names as in traces)' },
  { key: 'faults.apiserverEtcdOutageDuration', kubernetesName: '', component: 'faults', type: 'duration', unit: 'seconds', default: 40, description: 'length of a kube-apiserver ⇄ etcd outage (gRPC keepalive reconnects take up to about 40 s, kubernetes#121793)' },
  { key: 'faults.clockDriftRate', kubernetesName: '', component: 'faults', type: 'number', unit: 'ratio', default: 2, bounds: { above: 0, rule: 'value' }, description: 'clock rate of a drifting process (local seconds per real second)' },
  ...budgets('operator', [
    ['forceDeletePod', 'force deletions of a pod (--grace-period=0 --force)'],
    ['deleteNode', 'deletions of a Node object'],
    ['outOfServiceTaint', 'node.kubernetes.io/out-of-service:NoExecute taints put on a node'],
    ['cordon', 'cordons (spec.unschedulable)'],
    ['componentStop', 'clean shutdowns of a control-plane component (SIGTERM, e.g. a rolling upgrade): a leading kube-scheduler releases its Lease (ReleaseOnCancel), a kube-controller-manager does not'],
    ['etcdRestore', 'restores of etcd from the backup taken at the start, the control plane restarted as the documented procedure says, the kubelets left running'],
  ]),
] as const satisfies readonly ParameterDeclaration[];

/**
 * Every declaration with its literal key and kind: what the compile-time schema test
 * (test/model/parameterSchema.test.ts) holds against `ClusterConfig`.
 */
export type DeclaredParameter = (typeof DECLARATIONS)[number];

/** Every declared key (`cluster.nodes`, `faults.nodeCrash`, ...). */
export type ParameterKey = DeclaredParameter['key'];

/** A value of any kind, as the resolved config holds it. */
export type ParameterValue = ParameterValues[ParameterType];

/** Renders seconds a duration parameter holds as they are written: `50s`, `1m30s`. */
const duration = (seconds: number): string => formatDuration(seconds);

/** A fault sequence as `--set` writes it: `node-crash:node-1,node-crash:node-2+20s`, or `none`. */
function writtenSequence(steps: readonly FaultStep[]): string {
  return steps.length === 0 ? 'none' : steps.map((x) => `${x.fault}${x.target === null ? '' : `:${x.target}`}${x.after === null ? '' : `+${duration(x.after)}`}`).join(',');
}

/** A workload of the list as a config file writes it. */
function writtenWorkload(w: WorkloadConfig): Record<string, unknown> {
  const grace = {
    ...(w.terminationGracePeriodSeconds === undefined ? {} : { terminationGracePeriodSeconds: w.terminationGracePeriodSeconds }),
    ...(w.podManagementPolicy === undefined ? {} : { podManagementPolicy: w.podManagementPolicy }),
  };
  const list = w.templateTolerations === undefined ? {} : { tolerations: w.templateTolerations.map(writtenToleration) };
  const placement = {
    ...(w.namespace === undefined ? {} : { namespace: w.namespace }),
    ...(w.labels === undefined ? {} : { labels: w.labels }),
    ...(w.nodeSelector === undefined ? {} : { nodeSelector: w.nodeSelector }),
    ...(w.affinity === undefined ? {} : { affinity: w.affinity }),
    ...(w.topologySpreadConstraints === undefined ? {} : { topologySpreadConstraints: w.topologySpreadConstraints }),
  };
  if (w.kind === 'DaemonSet') return { kind: w.kind, name: w.name, ...list, ...grace, ...placement };
  const tol = (t: TolerationSetting): unknown => (t === null ? 'default' : t);
  return {
    kind: w.kind,
    name: w.name,
    replicas: w.replicas,
    tolerations: { unreachable: tol(w.tolerations.unreachable), notReady: tol(w.tolerations.notReady) },
    ...list,
    nodeName: w.nodeName < 0 ? 'none' : `node-${w.nodeName + 1}`,
    ...grace,
    ...placement,
  };
}

/**
 * `value`, a value of `spec`'s kind (or its declared default), as a config file writes it, which
 * `resolveConfig` reads back to the same value: a duration as `50s`, a null toleration as the
 * declaration's `unset`, a node index as `node-2`, an empty list as `none`, the default workloads
 * (null) as `default`.
 */
export function writtenValue(spec: ParameterDeclaration, value: unknown): unknown {
  switch (spec.type) {
    case 'duration':
      return duration(value as number);
    case 'optionalDuration':
      return value === null ? 'same' : duration(value as number);
    case 'toleration':
      return value === null ? spec.unset : value;
    case 'node':
      return value === -1 ? 'none' : `node-${(value as number) + 1}`;
    case 'faultSequence':
      return writtenSequence(value as readonly FaultStep[]);
    case 'objects':
      return (value as readonly CustomObjectConfig[]).length === 0 ? 'none' : value;
    case 'nodeLabels':
      return (value as readonly unknown[]).length === 0 ? 'none' : value;
    case 'workloads':
      return value === null ? 'default' : (value as readonly WorkloadConfig[]).map(writtenWorkload);
    default:
      return value;
  }
}

/** Every declaration with its default as written. */
const SPECS: readonly ParameterSpec[] = DECLARATIONS.map((d: ParameterDeclaration): ParameterSpec => {
  const written = writtenValue(d, d.default);
  return { ...d, defaultValue: typeof written === 'string' ? written : JSON.stringify(written) };
});

const SPEC_BY_KEY: ReadonlyMap<string, ParameterSpec> = new Map(SPECS.map((s) => [s.key, s]));

/** Every parameter's declaration, with its default as written (internal; the public view is {@link parameters}). */
export function parameterSpecs(): readonly ParameterSpec[] {
  return SPECS;
}

/** The declaration of `key`, or undefined for a key that is not a parameter. */
export function parameterSpec(key: string): ParameterSpec | undefined {
  return SPEC_BY_KEY.get(key);
}

/** The value a config holds at a dotted key (`cluster.nodes`), or undefined where it holds none. */
export function parameterValue(config: ClusterConfig, key: string): unknown {
  let cur: unknown = config;
  for (const part of key.split('.')) cur = cur !== null && typeof cur === 'object' && Object.hasOwn(cur, part) ? (cur as Readonly<Record<string, unknown>>)[part] : undefined;
  return cur;
}

/** Every parameter a user can set, with its Kubernetes name and default. */
export function parameters(): readonly ParameterInfo[] {
  return SPECS.map(({ key, kubernetesName, component, defaultValue, description }) => ({ key, kubernetesName, component, defaultValue, description }));
}
