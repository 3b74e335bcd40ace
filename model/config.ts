/**
 * The one typed configuration of the model: Kubernetes' own parameter names and defaults, the
 * cluster shape, and the fault and operator budgets of a scenario. Durations are seconds here;
 * users write them as strings (`"50s"`). `parameters.ts` lists every key with its default.
 */

/** client-go leader election timing (kubernetes/client-go:tools/leaderelection/leaderelection.go). */
export interface LeaderElectionConfig {
  /** `--leader-elect-lease-duration`, default 15 s. */
  readonly leaseDuration: number;
  /** `--leader-elect-renew-deadline`, default 10 s. */
  readonly renewDeadline: number;
  /** `--leader-elect-retry-period`, default 2 s. */
  readonly retryPeriod: number;
}

/** What is down from the start in `component-outage`. */
export type Outage = 'none' | 'kube-scheduler' | 'kube-controller-manager' | 'kube-apiserver';

export interface ClusterConfig {
  readonly scenario: string;
  /** Selects version-dependent defaults (node-monitor-grace-period 40 s ≤ 1.31, 50 s from 1.32). */
  readonly kubernetesVersion: string;
  /** Whether this config was accepted with `allowUnsafe` (Kubernetes would refuse it). */
  readonly allowUnsafe: boolean;
  readonly model: {
    /** The tick quantum in seconds (DESIGN.md §3). Every duration must be a multiple of it. */
    readonly tick: number;
  };
  readonly kubelet: {
    /** `nodeLeaseDurationSeconds` (40); the Lease is renewed every 0.25 × this (10 s). */
    readonly nodeLeaseDurationSeconds: number;
  };
  readonly kubeControllerManager: {
    readonly nodeMonitorPeriod: number;
    readonly nodeMonitorGracePeriod: number;
    readonly nodeEvictionRate: number;
    readonly secondaryNodeEvictionRate: number;
    readonly largeClusterSizeThreshold: number;
    readonly unhealthyZoneThreshold: number;
    /** Pod GC period: the constant `gcCheckPeriod` (20 s) in pkg/controller/podgc. */
    readonly podGcPeriod: number;
    /** Pod GC orphan quarantine: the constant `quarantineTime` (40 s). */
    readonly podGcQuarantine: number;
    readonly leaderElection: LeaderElectionConfig;
  };
  readonly kubeScheduler: {
    readonly leaderElection: LeaderElectionConfig;
  };
  readonly kubeApiserver: {
    /**
     * `--default-not-ready-toleration-seconds` (300). Accepted and validated, but it changes
     * nothing here: the kubelets never post Ready=False, so no node gets the not-ready:NoExecute
     * taint, and a pod carries one tolerationSeconds, its unreachable one (`tolerationOf`).
     */
    readonly defaultNotReadyTolerationSeconds: number;
    /** `--default-unreachable-toleration-seconds` (300): the pods' tolerationSeconds by default. */
    readonly defaultUnreachableTolerationSeconds: number;
  };
  readonly cluster: {
    readonly nodes: number;
    readonly zones: number;
    /** Pods a node accepts (kubelet `maxPods`, default 110): the scheduler's capacity filter. */
    readonly maxPods: number;
    readonly etcdMembers: number;
    /** etcd members already down in the initial state. */
    readonly etcdMembersDownAtStart: number;
    readonly apiservers: number;
    readonly controllerManagerCandidates: number;
    readonly schedulerCandidates: number;
    /** A component whose every instance is down in the initial state. */
    readonly outage: Outage;
    readonly replicaSetReplicas: number;
    /** The ReplicaSet pods' own unreachable/not-ready tolerationSeconds; null = admission default. */
    readonly replicaSetTolerationSeconds: number | null;
    readonly statefulSetReplicas: number;
    readonly statefulSetTolerationSeconds: number | null;
  };
  /** Fault budgets: how many of each may happen on one path. */
  readonly faults: {
    readonly nodeCrash: number;
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
  };
  /** Operator action budgets. */
  readonly operator: {
    readonly forceDeletePod: number;
    readonly deleteNode: number;
    readonly outOfServiceTaint: number;
    readonly cordon: number;
  };
}

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
 * Effective unreachable toleration seconds of the ReplicaSet / StatefulSet pods: the only
 * tolerationSeconds a pod carries here (no node is ever tainted not-ready, see
 * `defaultNotReadyTolerationSeconds`).
 */
export function tolerationOf(config: ClusterConfig, workload: 'web' | 'db'): number {
  const own = workload === 'web' ? config.cluster.replicaSetTolerationSeconds : config.cluster.statefulSetTolerationSeconds;
  return own ?? config.kubeApiserver.defaultUnreachableTolerationSeconds;
}
