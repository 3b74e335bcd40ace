/**
 * The one typed configuration of the model: Kubernetes' own parameter names and defaults, the
 * cluster shape, and the fault and operator budgets of a scenario. Durations are seconds here;
 * users write them as strings (`"50s"`). `parameters.ts` declares every field with its kind, unit,
 * default and bounds; test/model/parameterSchema.test.ts fails `tsc --noEmit` where a field of
 * `ClusterConfig` and its declaration disagree (a field undeclared, a key with no field, another
 * value type).
 */
import type { JsonValue } from '../checker/model.js';
import { failingNodes, possibleEvents } from './possible.js';
import { NO_TOLERATION, type Tolerations } from './state.js';
import { admitDefaultTolerations, compileTolerations, conditionTolerations, daemonSetTolerations, type PodToleration } from './tolerations.js';

/** client-go leader election timing (kubernetes/client-go:tools/leaderelection/leaderelection.go). */
export interface LeaderElectionConfig {
  /** `--leader-elect-lease-duration`, default 15 s. */
  readonly leaseDuration: number;
  /** `--leader-elect-renew-deadline`, default 10 s. */
  readonly renewDeadline: number;
  /** `--leader-elect-retry-period`, default 2 s. */
  readonly retryPeriod: number;
}

/**
 * client-go's `leaderelection.JitterFactor`: a follower's next try comes `wait.Jitter(retryPeriod,
 * 1.2)` after its last one ended, in [retryPeriod, 2.2 × retryPeriod).
 */
export const JITTER_FACTOR = 1.2;

/**
 * Leader-election settings of the candidates other than the first, where they differ (a rollout
 * that changes the flags): null keeps the value of `leaderElection`.
 */
export interface ChallengerLeaderElection {
  readonly leaseDuration: number | null;
  readonly renewDeadline: number | null;
  readonly retryPeriod: number | null;
}

/** The leader-election settings candidate `c` (0-based) of a component runs with. */
export function candidateLeaderElection(main: LeaderElectionConfig, challenger: ChallengerLeaderElection, c: number): LeaderElectionConfig {
  if (c === 0) return main;
  return {
    leaseDuration: challenger.leaseDuration ?? main.leaseDuration,
    renewDeadline: challenger.renewDeadline ?? main.renewDeadline,
    retryPeriod: challenger.retryPeriod ?? main.retryPeriod,
  };
}

/** One step of a scenario's fault sequence: a fault or operator action and its target (a node, a process). */
export interface FaultStep {
  readonly fault: string;
  readonly target: string | null;
  /** Exactly this many seconds after the previous step (null: at any instant after it). */
  readonly after: number | null;
}

/** How many nodes can fail on one path: node faults however allowed (`possible.ts`). */
export function failingNodeCount(config: ClusterConfig): number {
  return failingNodes(config, possibleEvents(config));
}

/** What is down from the start in `component-outage`. */
export type Outage = 'none' | 'kube-scheduler' | 'kube-controller-manager' | 'kube-apiserver';

/** An object of `cluster.objects`: what a manifest says of it that the API keeps (an object is known by its kind, namespace and name). */
export interface CustomObjectConfig {
  readonly kind: string;
  readonly metadata: { readonly name: string; readonly namespace?: string; readonly labels?: Readonly<Record<string, string>>; readonly finalizers?: readonly string[] };
  readonly spec?: JsonValue;
  readonly status?: JsonValue;
}

export interface ClusterConfig {
  readonly scenario: string;
  /** Selects version-dependent defaults (node-monitor-grace-period 40 s ≤ 1.31, 50 s from 1.32). */
  readonly kubernetesVersion: string;
  /** Whether this config was accepted with `allowUnsafe` (Kubernetes would refuse it). */
  readonly allowUnsafe: boolean;
  readonly model: {
    /** The tick quantum in seconds (DESIGN.md §3). Every duration must be a multiple of it. */
    readonly tick: number;
    /**
     * Whether the model applies its exact reductions of history variables (`ModelReductions` in
     * context.ts): true by default; false explores the unreduced space, to see for oneself that
     * verdicts and shortest counterexamples are the same.
     */
    readonly reductions: boolean;
    /**
     * Whether each leader-election follower tries on its own `wait.JitterUntil(retryPeriod,
     * JitterFactor 1.2, sliding)` schedule and acquires only at a try (leaderElection.ts). false
     * (the default): a follower may acquire at any instant once the lease it observed expired, an
     * abstraction that contains every schedule (sound for safety, fewer states) but bounds no handover.
     */
    readonly jitteredFollowerTries: boolean;
    /**
     * The bound of `leader-handover-within` (seconds after a release); null: what client-go
     * guarantees, retryPeriod × (1 + JitterFactor) rounded up to the tick.
     */
    readonly leaderHandoverBound: number | null;
  };
  readonly kubelet: {
    /** `nodeLeaseDurationSeconds` (40); the Lease is renewed every 0.25 × this (10 s). */
    readonly nodeLeaseDurationSeconds: number;
    /** KubeletConfiguration `shutdownGracePeriod` (0: graceful node shutdown off). */
    readonly shutdownGracePeriod: number;
    /** KubeletConfiguration `shutdownGracePeriodCriticalPods` (0). */
    readonly shutdownGracePeriodCriticalPods: number;
  };
  readonly kubeControllerManager: {
    readonly nodeMonitorPeriod: number;
    readonly nodeMonitorGracePeriod: number;
    /** `--node-startup-grace-period` (60 s): the grace period of a Node object without a Ready condition. */
    readonly nodeStartupGracePeriod: number;
    readonly nodeEvictionRate: number;
    readonly secondaryNodeEvictionRate: number;
    readonly largeClusterSizeThreshold: number;
    readonly unhealthyZoneThreshold: number;
    /** Pod GC period: the constant `gcCheckPeriod` (20 s) in pkg/controller/podgc. */
    readonly podGcPeriod: number;
    /** Pod GC orphan quarantine: the constant `quarantineTime` (40 s). */
    readonly podGcQuarantine: number;
    /**
     * How long ReplicaSet expectations hold before the controller acts anyway: the constant
     * `ExpectationsTimeout` (5 min) in pkg/controller/controller_utils.go.
     */
    readonly expectationsTimeout: number;
    readonly leaderElection: LeaderElectionConfig;
    readonly challengerLeaderElection: ChallengerLeaderElection;
  };
  readonly kubeScheduler: {
    readonly leaderElection: LeaderElectionConfig;
    readonly challengerLeaderElection: ChallengerLeaderElection;
  };
  readonly kubeApiserver: {
    /**
     * `--default-not-ready-toleration-seconds` (300): the pods' not-ready:NoExecute
     * tolerationSeconds by default (DefaultTolerationSeconds admission).
     */
    readonly defaultNotReadyTolerationSeconds: number;
    /** `--default-unreachable-toleration-seconds` (300): the pods' tolerationSeconds by default. */
    readonly defaultUnreachableTolerationSeconds: number;
    /**
     * The DefaultTolerationSeconds admission plugin is on (the default; off with
     * `--disable-admission-plugins=DefaultTolerationSeconds`): it gives a pod without its own
     * not-ready (unreachable) NoExecute toleration one with the seconds above.
     */
    readonly defaultTolerationSecondsAdmission: boolean;
  };
  readonly cluster: {
    readonly nodes: number;
    readonly zones: number;
    /** Pods a node accepts (kubelet `maxPods`, default 110): the scheduler's capacity filter. */
    readonly maxPods: number;
    /**
     * The last `newNodes` nodes are new: their Node objects exist without status (a provisioner made
     * them, or their kubelets run with `--register-node=false`) and their kubelets have not started.
     */
    readonly newNodes: number;
    readonly etcdMembers: number;
    /** etcd members already down in the initial state. */
    readonly etcdMembersDownAtStart: number;
    readonly apiservers: number;
    readonly controllerManagerCandidates: number;
    readonly schedulerCandidates: number;
    /** A component whose every instance is down in the initial state. */
    readonly outage: Outage;
    readonly replicaSetReplicas: number;
    /** The ReplicaSet pods' own unreachable and not-ready tolerationSeconds; null = admission default. */
    readonly replicaSetTolerationSeconds: TolerationSetting;
    /** Overrides the unreachable one alone (null: as `replicaSetTolerationSeconds`). */
    readonly replicaSetUnreachableTolerationSeconds: TolerationSetting;
    /** Overrides the not-ready one alone (null: as `replicaSetTolerationSeconds`). */
    readonly replicaSetNotReadyTolerationSeconds: TolerationSetting;
    /** `spec.template.spec.nodeName` of the ReplicaSet (node index, bypassing the scheduler), or -1. */
    readonly replicaSetNodeName: number;
    readonly statefulSetReplicas: number;
    readonly statefulSetTolerationSeconds: TolerationSetting;
    readonly statefulSetUnreachableTolerationSeconds: TolerationSetting;
    readonly statefulSetNotReadyTolerationSeconds: TolerationSetting;
    readonly statefulSetNodeName: number;
    /**
     * The workloads, in the order their controllers sync within an instant. Given as a list in a
     * config file (`cluster: { workloads: [...] }`); otherwise the ReplicaSet `web` and the
     * StatefulSet `db` built from the `replicaSet*` and `statefulSet*` keys above.
     */
    readonly workloads: readonly WorkloadConfig[];
    /**
     * Objects of kinds the model's own components do not read (custom resources, ConfigMaps...) at
     * the start, as the user's manifests give them: an operator (`kubecheck/operator`) takes those
     * of the kinds it declares beside its own `objects`.
     */
    readonly objects: readonly CustomObjectConfig[];
    /**
     * Pods' `spec.terminationGracePeriodSeconds` where a workload gives none (the API's default,
     * 30): after SIGTERM the kubelet waits this long before SIGKILL, also for a force-deleted pod
     * (pod_workers.go `calculateEffectiveGracePeriod` falls back to the spec's value).
     */
    readonly terminationGracePeriodSeconds: number;
    /**
     * The Node objects' `metadata.labels`, one map per node in order (node-1 first; fewer maps
     * than nodes leave the rest to the defaults): what nodeSelector, node affinity and the
     * topology keys of pod affinity and spread constraints read. Every node carries
     * `kubernetes.io/hostname` (default `node-<n>`) and `topology.kubernetes.io/zone` (default
     * `zone-<z>`, z its zone) unless given here.
     */
    readonly nodeLabels: readonly Readonly<Record<string, string>>[];
  };
  /**
   * Stale state: informer caches and kube-apiserver watch caches. Off (0) by default: every
   * component then reads the API as it is, which is exact for the stock scenarios' properties
   * only where no decision depends on a cache lagging.
   */
  readonly informers: {
    /**
     * Bound on how far an informer cache (of the kube-controller-manager's controllers, of the
     * kube-scheduler, of an extension) or a kube-apiserver's watch cache lags the API, in seconds;
     * 0 = no caches are modelled.
     */
    readonly watchLag: number;
  };
  /** Fault budgets: how many of each may happen on one path. */
  readonly faults: {
    readonly nodeCrash: number;
    readonly nodeShutdown: number;
    readonly nodeRestart: number;
    readonly kubeletCrash: number;
    readonly kubeletRestart: number;
    readonly nodePartition: number;
    readonly nodePartitionHeal: number;
    readonly componentCrash: number;
    readonly componentRestart: number;
    readonly controlPlanePartition: number;
    readonly controlPlanePartitionHeal: number;
    readonly etcdMemberLoss: number;
    readonly apiserverLoss: number;
    readonly processPause: number;
    /** How long a paused process stays stopped (stop-the-world GC, VM freeze). */
    readonly processPauseDuration: number;
    readonly clockDrift: number;
    /** The clock rate a drifting process gets (local seconds per real second). */
    readonly clockDriftRate: number;
    /** Restores of a lost etcd member. */
    readonly etcdMemberRestore: number;
    /** Restores of a lost kube-apiserver instance. */
    readonly apiserverRestore: number;
    /** Container runtime failures on a node: its containers run on, the kubelet can start, stop and observe none and posts Ready=False. */
    readonly containerRuntimeFailure: number;
    /** Recoveries of a failed container runtime. */
    readonly containerRuntimeRecovery: number;
    /** Kubelets whose node status updates start failing while their Lease renewals succeed. */
    readonly nodeStatusUpdateFailure: number;
    /**
     * Outages between the kube-apiserver the kubelets reach and etcd (kubernetes#121793): the
     * kubelets' writes fail for `apiserverEtcdOutageDuration`; the control plane's do not.
     */
    readonly apiserverEtcdOutage: number;
    readonly apiserverEtcdOutageDuration: number;
    /** Restarts of a user's controller that has an informer (`ClusterExtension.informer`): it relists. */
    readonly extensionRestart: number;
    /** Stop-the-world pauses of an operator's replica (`operator({ replicas })`), each `processPauseDuration` long. */
    readonly operatorPause: number;
    /** Partitions of an operator's replica from the kube-apiserver, and heals of them. */
    readonly operatorPartition: number;
    readonly operatorPartitionHeal: number;
    /** Writes of an operator that reach the kube-apiserver while their answer is lost (a timeout). */
    readonly operatorLostAnswer: number;
    /**
     * Faults that happen in this order, each at any instant after the previous one, besides the
     * budgets: "3 of 4 nodes become NotReady one after another".
     */
    readonly sequence: readonly FaultStep[];
  };
  /** Operator action budgets. */
  readonly operator: {
    readonly forceDeletePod: number;
    readonly deleteNode: number;
    readonly outOfServiceTaint: number;
    readonly cordon: number;
    /**
     * Clean shutdowns of a control-plane component (SIGTERM, as in a rolling upgrade): a leading
     * kube-scheduler releases its Lease on the way out (client-go's ReleaseOnCancel, which
     * kube-scheduler sets and kube-controller-manager does not), so a standby takes over within
     * one retry instead of after the lease duration.
     */
    readonly componentStop: number;
    /** Restores of etcd from the backup taken at the start (the control plane restarted, kubelets not). */
    readonly etcdRestore: number;
  };
}

/** The workload kinds the model has a controller for (a Deployment is modelled as its ReplicaSet). */
export type WorkloadKind = 'ReplicaSet' | 'StatefulSet' | 'DaemonSet';

export const WORKLOAD_KINDS: readonly WorkloadKind[] = ['ReplicaSet', 'StatefulSet', 'DaemonSet'];

/** One workload of `cluster.workloads`. */
export interface WorkloadConfig {
  readonly kind: WorkloadKind;
  /**
   * Its name; its pods are `<name>-<k>` (ReplicaSet: k is a slot, standing for Kubernetes'
   * `<name>-<template hash>-<random>`), `<name>-<ordinal>` (StatefulSet) or `<name>-<node>`
   * (DaemonSet: one per node, standing for `<name>-<random>`).
   */
  readonly name: string;
  /** `spec.replicas`; 0 for a DaemonSet (one pod per eligible node). */
  readonly replicas: number;
  /**
   * The pod template's NoExecute tolerationSeconds for the unreachable and not-ready taints
   * (null: admission's default). A DaemonSet's are always `forever`: its controller adds them.
   */
  readonly tolerations: { readonly unreachable: TolerationSetting; readonly notReady: TolerationSetting };
  /**
   * The pod template's tolerations as Kubernetes writes them (`spec.template.spec.tolerations`,
   * a list in a config file's `tolerations`), in place of the shorthand above (then both null):
   * matched as Kubernetes matches them against every taint of the model, after the DaemonSet
   * controller's and admission's own (`model/tolerations.ts`).
   */
  readonly templateTolerations?: readonly PodToleration[];
  /** `spec.template.spec.nodeName` as a node index (pods created bound there), or -1. */
  readonly nodeName: number;
  /**
   * The pod template's `terminationGracePeriodSeconds`: how long the kubelet lets the containers
   * of a deleted pod run after SIGTERM before SIGKILL. Absent: `cluster.terminationGracePeriodSeconds`.
   */
  readonly terminationGracePeriodSeconds?: number;
  /**
   * A StatefulSet's `spec.podManagementPolicy`: `OrderedReady` (the default: ordinal i is created
   * only once 0 … i-1 are Running and Ready) or `Parallel` (every missing ordinal at once).
   */
  readonly podManagementPolicy?: PodManagementPolicy;
  /** `metadata.namespace` (absent: `default`): the namespace pod affinity terms and spread constraints count pods in. */
  readonly namespace?: string;
  /** The pod template's `metadata.labels`: what label selectors of pod (anti-)affinity and spread constraints match. */
  readonly labels?: Readonly<Record<string, string>>;
  /** `spec.template.spec.nodeSelector`: node labels a node must carry (NodeAffinity filter). */
  readonly nodeSelector?: Readonly<Record<string, string>>;
  /** `spec.template.spec.affinity`, its required (filtering) terms only: the preferred ones are scores. */
  readonly affinity?: WorkloadAffinity;
  /** `spec.template.spec.topologySpreadConstraints` with `whenUnsatisfiable: DoNotSchedule` (ScheduleAnyway is a score only). */
  readonly topologySpreadConstraints?: readonly TopologySpreadConstraint[];
  /**
   * The pods' `spec.priority` as the Priority admission plugin resolves it from the template's
   * `priorityClassName` (system-cluster-critical 2000000000, system-node-critical 2000001000, or
   * a PriorityClass's `value`) or its `priority`. Absent: 0. From SystemCriticalPriority
   * (2000000000) on, the pod is critical: a graceful node shutdown stops it last. Preemption is not modelled.
   */
  readonly priority?: number;
  /**
   * A StatefulSet's `spec.volumeClaimTemplates`: per ordinal, one PersistentVolumeClaim per
   * template, `<template>-<set>-<ordinal>`, created by the StatefulSet controller with the pod and
   * kept when the pod goes (see `ClaimObject`). Where each claim's volume lives is its storage
   * class's topology (`VolumeTopology`).
   */
  readonly volumeClaimTemplates?: readonly VolumeClaimTemplate[];
  /**
   * A StatefulSet's `spec.persistentVolumeClaimRetentionPolicy` (both Retain by default):
   * `whenScaled: Delete` deletes the claims of the ordinals a scale-down removes once their pods
   * are gone. `whenDeleted` is kept for the record: the model never deletes a StatefulSet.
   */
  readonly persistentVolumeClaimRetentionPolicy?: { readonly whenDeleted: ClaimRetention; readonly whenScaled: ClaimRetention };
}

/**
 * Where a claim's volume lives, from its StorageClass (all bind WaitForFirstConsumer: the volume
 * is provisioned where the claim's first pod is scheduled, and every later pod using it must go there):
 * - `node`: a local volume (`kubernetes.io/no-provisioner` local PVs, `rancher.io/local-path` as
 *   k3s and k3d ship it, OpenEBS hostpath, TopoLVM): the PersistentVolume's node affinity names
 *   one node, so the pod can only run there (and nowhere, once that Node object is deleted);
 * - `zone`: a zonal disk (EBS, GCE PD, Azure Disk: the default classes of EKS, GKE and AKS): the
 *   pod can only run in that zone;
 * - `none`: storage reachable from every node (NFS, CephFS, regional disks).
 */
export type VolumeTopology = 'node' | 'zone' | 'none';
export const VOLUME_TOPOLOGIES: readonly VolumeTopology[] = ['node', 'zone', 'none'];

/** One of a StatefulSet's `volumeClaimTemplates`: its name and where its volumes live. */
export interface VolumeClaimTemplate {
  readonly name: string;
  readonly topology: VolumeTopology;
}

/** What a StatefulSet's `persistentVolumeClaimRetentionPolicy` does with a claim: keep it, or delete it. */
export type ClaimRetention = 'Retain' | 'Delete';

/** scheduling.SystemCriticalPriority: from this `spec.priority` on a pod is critical. */
export const SYSTEM_CRITICAL_PRIORITY = 2_000_000_000;

/** The built-in PriorityClasses (pkg/apis/scheduling `SystemPriorityClasses`). */
export const SYSTEM_PRIORITY_CLASSES: Readonly<Record<string, number>> = { 'system-cluster-critical': 2_000_000_000, 'system-node-critical': 2_000_001_000 };

/** Whether a workload's pods are critical for a graceful node shutdown (`spec.priority` ≥ SystemCriticalPriority). */
export function isCriticalWorkload(w: WorkloadConfig): boolean {
  return (w.priority ?? 0) >= SYSTEM_CRITICAL_PRIORITY;
}

/** A label selector's requirement (`matchExpressions` of a LabelSelector). */
export interface LabelSelectorRequirement {
  readonly key: string;
  readonly operator: 'In' | 'NotIn' | 'Exists' | 'DoesNotExist';
  readonly values?: readonly string[];
}

/** A LabelSelector (metav1): every matchLabels pair and every expression must hold; `{}` selects every pod. */
export interface LabelSelector {
  readonly matchLabels?: Readonly<Record<string, string>>;
  readonly matchExpressions?: readonly LabelSelectorRequirement[];
}

/** A NodeSelectorRequirement (matchExpressions of a NodeSelectorTerm) on a node's labels. */
export interface NodeSelectorRequirement {
  readonly key: string;
  readonly operator: 'In' | 'NotIn' | 'Exists' | 'DoesNotExist' | 'Gt' | 'Lt';
  readonly values?: readonly string[];
}

/** A NodeSelectorTerm: every expression must hold (the terms of a NodeSelector are ORed). */
export interface NodeSelectorTerm {
  readonly matchExpressions: readonly NodeSelectorRequirement[];
}

/**
 * A PodAffinityTerm: pods matching `labelSelector` (null selects none) in `namespaces` (absent or
 * empty: the pod's own) on a node of the same `topologyKey` value.
 */
export interface PodAffinityTerm {
  readonly labelSelector: LabelSelector | null;
  readonly topologyKey: string;
  readonly namespaces?: readonly string[];
}

/** The required terms of a pod template's affinity (`requiredDuringSchedulingIgnoredDuringExecution`). */
export interface WorkloadAffinity {
  readonly nodeAffinity?: { readonly requiredDuringSchedulingIgnoredDuringExecution: { readonly nodeSelectorTerms: readonly NodeSelectorTerm[] } };
  readonly podAffinity?: { readonly requiredDuringSchedulingIgnoredDuringExecution: readonly PodAffinityTerm[] };
  readonly podAntiAffinity?: { readonly requiredDuringSchedulingIgnoredDuringExecution: readonly PodAffinityTerm[] };
}

/** A TopologySpreadConstraint with whenUnsatisfiable DoNotSchedule (nodeAffinityPolicy Honor, nodeTaintsPolicy Ignore: the defaults). */
export interface TopologySpreadConstraint {
  readonly maxSkew: number;
  readonly topologyKey: string;
  readonly whenUnsatisfiable: 'DoNotSchedule';
  readonly labelSelector: LabelSelector | null;
  /** `minDomains` (absent: 1). */
  readonly minDomains?: number;
}

/** The well-known node labels every node of the model carries unless `cluster.nodeLabels` gives them. */
export const HOSTNAME_LABEL = 'kubernetes.io/hostname';
export const ZONE_LABEL = 'topology.kubernetes.io/zone';

/**
 * Node n's labels (0-based): `cluster.nodeLabels[n]` over the defaults `kubernetes.io/hostname:
 * node-<n+1>` and `topology.kubernetes.io/zone: zone-<z+1>` (z = n mod zones).
 */
export function nodeLabelsOf(config: ClusterConfig, n: number): Readonly<Record<string, string>> {
  return { [HOSTNAME_LABEL]: `node-${n + 1}`, [ZONE_LABEL]: `zone-${(n % config.cluster.zones) + 1}`, ...(config.cluster.nodeLabels[n] ?? {}) };
}

export type PodManagementPolicy = 'OrderedReady' | 'Parallel';

/** kubelet.go `maxWaitForContainerRuntime` (not a flag): a runtime whose last good check is this old is down. */
export const MAX_WAIT_FOR_CONTAINER_RUNTIME = 30;
/** kubelet.go: `updateRuntimeUp` runs every 5 s (not a flag). */
export const RUNTIME_UP_PERIOD = 5;

/** The termination grace period of a workload's pods (seconds; the kubelet gives at least 1). */
export function terminationGraceOf(config: ClusterConfig, w: WorkloadConfig | undefined): number {
  return Math.max(1, w?.terminationGracePeriodSeconds ?? config.cluster.terminationGracePeriodSeconds);
}

/** The most grace a graceful node shutdown gives an (ordinary, non-critical) pod: shutdownGracePeriod − shutdownGracePeriodCriticalPods. */
export function shutdownGraceCap(config: ClusterConfig): number {
  return Math.max(0, config.kubelet.shutdownGracePeriod - config.kubelet.shutdownGracePeriodCriticalPods);
}

/**
 * The default workloads, from the scalar keys: the ReplicaSet `web` and the StatefulSet `db`
 * (a specific toleration key overrides the workload's `...TolerationSeconds`).
 */
export function defaultWorkloads(c: ClusterConfig['cluster']): WorkloadConfig[] {
  return [
    {
      kind: 'ReplicaSet',
      name: 'web',
      replicas: c.replicaSetReplicas,
      tolerations: { unreachable: c.replicaSetUnreachableTolerationSeconds ?? c.replicaSetTolerationSeconds, notReady: c.replicaSetNotReadyTolerationSeconds ?? c.replicaSetTolerationSeconds },
      nodeName: c.replicaSetNodeName,
    },
    {
      kind: 'StatefulSet',
      name: 'db',
      replicas: c.statefulSetReplicas,
      tolerations: { unreachable: c.statefulSetUnreachableTolerationSeconds ?? c.statefulSetTolerationSeconds, notReady: c.statefulSetNotReadyTolerationSeconds ?? c.statefulSetTolerationSeconds },
      nodeName: c.statefulSetNodeName,
    },
  ];
}

/** The name of a DaemonSet's pod on node n (0-based): `<name>-node-<n+1>`. */
export const daemonPodName = (workload: string, n: number): string => `${workload}-node-${n + 1}`;

/**
 * Whether pod `pod` is one of workload `w`'s by its name: `<name>-<digits>` (ReplicaSet,
 * StatefulSet) or `<name>-node-<digits>` (DaemonSet). `validateConfig` refuses workload names
 * whose pod names could be taken for each other's.
 */
export function podOfWorkload(pod: string, w: Pick<WorkloadConfig, 'kind' | 'name'>): boolean {
  if (pod.length <= w.name.length + 1 || !pod.startsWith(w.name) || pod.charCodeAt(w.name.length) !== 45) return false;
  const rest = pod.slice(w.name.length + 1);
  return w.kind === 'DaemonSet' ? /^node-\d+$/.test(rest) : /^\d+$/.test(rest);
}

/** The workload of `config` a pod (object or container) belongs to by its name, or undefined. */
export function workloadOfPod(config: ClusterConfig, pod: string): WorkloadConfig | undefined {
  return config.cluster.workloads.find((w) => podOfWorkload(pod, w));
}

/**
 * A workload's tolerationSeconds setting: seconds, `forever` (a toleration without
 * tolerationSeconds), `none` (no toleration: possible only without the DefaultTolerationSeconds
 * admission plugin; evicted at once), or null (not set: the next setting, then admission's default).
 */
export type TolerationSetting = number | 'forever' | 'none' | null;

/** Node-monitor-grace-period default for a Kubernetes version: 40 s up to 1.31, 50 s from 1.32 (PR #126287). */
export function defaultGracePeriod(version: string): number {
  const m = /^v?(\d+)\.(\d+)/.exec(version);
  if (m === null) return 50;
  const major = Number(m[1]);
  const minor = Number(m[2]);
  return major > 1 || (major === 1 && minor >= 32) ? 50 : 40;
}

/** The Lease renew interval of the kubelet: 0.25 × nodeLeaseDurationSeconds (pkg/kubelet/kubelet.go). */
export function leaseRenewInterval(config: ClusterConfig): number {
  return config.kubelet.nodeLeaseDurationSeconds * 0.25;
}

/**
 * The unreachable and not-ready NoExecute tolerationSeconds the pods of a workload (by name)
 * carry after admission: the workload's setting, else the kube-apiserver's default
 * (DefaultTolerationSeconds adds a toleration only where the pod has none for that taint).
 * null means tolerated forever (always for a DaemonSet), NO_TOLERATION none at all.
 */
export function tolerationOf(config: ClusterConfig, workload: string): Tolerations {
  const w = config.cluster.workloads.find((x) => x.name === workload);
  if (w === undefined) throw new Error(`tolerationOf: no workload named ${workload}`);
  const api = config.kubeApiserver;
  const admit = (list: readonly PodToleration[]): readonly PodToleration[] =>
    api.defaultTolerationSecondsAdmission ? admitDefaultTolerations(list, api.defaultNotReadyTolerationSeconds, api.defaultUnreachableTolerationSeconds) : list;
  // The DaemonSet controller adds unreachable and not-ready NoExecute tolerations without seconds
  // (pkg/controller/daemon/util: AddOrUpdateDaemonPodTolerations), replacing the template's
  // that match them, before admission sees the pod.
  if (w.kind === 'DaemonSet') return compileTolerations(admit(daemonSetTolerations(w.templateTolerations ?? [])));
  if (w.templateTolerations !== undefined) return compileTolerations(admit(w.templateTolerations));
  const effective = (v: TolerationSetting, fallback: number): number | null => {
    if (v === null) return api.defaultTolerationSecondsAdmission ? fallback : NO_TOLERATION;
    if (v === 'forever') return null;
    if (v === 'none') return NO_TOLERATION;
    return v;
  };
  return conditionTolerations(effective(w.tolerations.unreachable, api.defaultUnreachableTolerationSeconds), effective(w.tolerations.notReady, api.defaultNotReadyTolerationSeconds));
}
