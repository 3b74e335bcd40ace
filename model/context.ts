/**
 * Constants derived once from the configuration and shared by every component: periods in
 * seconds, saturation caps, the zone of each node. Also the shape of one model action.
 */
import type { JsonValue, StepDescription } from '../checker/model.js';
import { compilePlacements, topologyKeys, type Placement } from './placement.js';
import { candidateLeaderElection, HOSTNAME_LABEL, JITTER_FACTOR, nodeLabelsOf, leaseRenewInterval, MAX_WAIT_FOR_CONTAINER_RUNTIME, podOfWorkload, tolerationOf, type ClusterConfig, type LeaderElectionConfig, type VolumeClaimTemplate, type WorkloadKind } from './config.js';
import { failingNodes, leaderElectionInert, podGcInert, possibleEvents, quorumLossPossible, type ExtensionCauses, type PossibleEvents } from './possible.js';
import type { ClusterState, Tolerations } from './state.js';

/**
 * The exact reductions the model applies (`clusterModel`'s `reductions` option turns them off).
 * Each merges states that differ only in a value nothing can read any more.
 */
export interface ModelReductions {
  /**
   * A live node's `liveFor` (read only by `healthy-node-not-unknown`, on the step that marks the
   * node Unknown) is set to its cap when no controller manager can mark the node before it would
   * reach the cap anyway (see `liveForUnreadable` in time.ts). Off when an extension is attached:
   * its steps and properties may read or write what this reasons about.
   */
  readonly liveFor: boolean;
  /**
   * A ReplicaSet expectation that is fulfilled (every creation and deletion seen) or expired is
   * dropped: `expectationsSatisfied`, its only reader, answers for it as for none, no watch event
   * can revive it, and the next sync's `expect` overwrites it.
   */
  readonly expectations: boolean;
  /** The process-pause, etcd-restore, node-shutdown and runtime-failure faults are all impossible (see `liveForUnreadable`). */
  readonly readyLeavesUnknownOnlyByRenewal: boolean;
  /** The fastest a kube-controller-manager's clock can run (1, or `faults.clockDriftRate` when a drift is possible and faster). */
  readonly fastestClock: number;
}

/** One workload of `cluster.workloads` as the controllers use it. */
export interface WorkloadCtx {
  readonly kind: WorkloadKind;
  readonly name: string;
  readonly replicas: number;
  /** The NoExecute tolerations its pods carry after admission (null: forever). */
  readonly toleration: Tolerations;
  /** Its pods are created bound to this node (`spec.nodeName`), or -1. */
  readonly pinnedNode: number;
  /** Its scheduling constraints compiled against the nodes and workloads (`placement.ts`). */
  readonly placement: Placement;
  /** A StatefulSet's `volumeClaimTemplates` (none for other kinds). */
  readonly claimTemplates: readonly VolumeClaimTemplate[];
  /** `persistentVolumeClaimRetentionPolicy.whenScaled` is Delete. */
  readonly deleteClaimsWhenScaled: boolean;
}

export interface Ctx {
  readonly config: ClusterConfig;
  /** What can happen in this configuration (budgets, sequence, extensions): what every shortcut reads. */
  readonly possible: PossibleEvents;
  readonly tick: number;
  readonly renewInterval: number;
  readonly grace: number;
  /** `--node-startup-grace-period`: the grace of a Node object without a Ready condition. */
  readonly startupGrace: number;
  /** Where the node lifecycle controller's time since a probe saturates: one quantum past the longest grace it compares. */
  readonly probeCap: number;
  readonly monitorPeriod: number;
  /** Leader-election settings per election and candidate (the first candidate's, then the challengers'). */
  readonly candidateElection: readonly [readonly LeaderElectionConfig[], readonly LeaderElectionConfig[]];
  /** The first candidate's settings per election (what `leaderElection` in the config says). */
  readonly leaderElection: readonly [LeaderElectionConfig, LeaderElectionConfig];
  /** The workloads, in list order (the order their controllers sync within an instant). */
  readonly workloads: readonly WorkloadCtx[];
  /** The workload a pod (object or container) belongs to by its name, or undefined (memoised). */
  readonly workloadOfPod: (pod: string) => WorkloadCtx | undefined;
  /**
   * `sinceHeartbeat` saturates here: one past the largest time a property or guard reads it at
   * (grace, two monitor periods, the largest finite toleration and the zone queue's wait).
   */
  readonly heartbeatCap: number;
  /** `sinceNoExecute` saturates here: one past the largest finite tolerationSeconds. */
  readonly noExecuteCap: number;
  /** `NodeReal.liveFor` saturates here: one quantum past the Lease renew interval. */
  readonly liveCap: number;
  /** `NodeReal.runtimeDownFor` saturates here (past the not-ready recovery bound). */
  readonly runtimeDownCap: number;
  readonly zoneOfNode: readonly number[];
  readonly nodesOfZone: readonly (readonly number[])[];
  /**
   * Groups of interchangeable nodes for symmetry: the nodes of a zone, except a node a workload's
   * `spec.nodeName` names, which is a group of its own.
   */
  readonly symmetricNodeGroups: readonly (readonly number[])[];
  /** Per election: every candidate runs the same leader-election settings (they are interchangeable). */
  readonly electionSymmetric: readonly [boolean, boolean];
  /**
   * Exact reductions of history variables, each keeping every property's verdict and every
   * shortest counterexample (`ModelReductions`; test/model/reductions.test.ts compares them with
   * the unreduced model). Off: the model as written, for comparison.
   */
  readonly reductions: ModelReductions;
  /**
   * No fault or outage can ever make a Lease renewal fail or restart a leader, whatever way it is
   * allowed (`possible.ts`). The leaders then renew forever and no follower ever acquires, so
   * leader election only adds stuttering steps: its actions and timers are left out. Exact for
   * every property, which all ignore those timers.
   */
  readonly leaderElectionInert: boolean;
  /** `model.jitteredFollowerTries`: followers try on their own jittered schedule (leaderElection.ts). */
  readonly jitteredTries: boolean;
  /**
   * Per election and candidate, with jittered tries: how long past retryPeriod a follower's next
   * try may come, `Jitter(retryPeriod, 1.2)` rounded up to the tick, less retryPeriod.
   */
  readonly tryWindow: readonly [readonly number[], readonly number[]];
  /** The bound of `leader-handover-within` (seconds after a release). */
  readonly handoverBound: number;
  /** `LeaseRecord.releasedFor` saturates here: one quantum past the bound and the longest try gap. */
  readonly releasedCap: number;
  /**
   * No Node object can be deleted and no out-of-service taint put, whatever way it is allowed
   * (`possible.ts`): pod GC never has work, so its passes (which change only their own timer) are
   * left out. Exact.
   */
  readonly podGcInert: boolean;
}

/** The shared constants of `config`; `extensions` are the users' controllers attached (what they say they cause counts). */
export function makeCtx(config: ClusterConfig, extensions: readonly ExtensionCauses[] = [], options: { readonly reductions?: boolean } = {}): Ctx {
  const possible = possibleEvents(config, extensions);
  const placements = compilePlacements(config);
  const workloads: WorkloadCtx[] = config.cluster.workloads.map((w) => ({ kind: w.kind, name: w.name, replicas: w.replicas, toleration: tolerationOf(config, w.name), pinnedNode: w.nodeName, placement: placements.get(w.name)!, claimTemplates: w.volumeClaimTemplates ?? [], deleteClaimsWhenScaled: w.persistentVolumeClaimRetentionPolicy?.whenScaled === 'Delete' }));
  // A claim on a local volume ties a pod to one node, which node symmetry would have to follow: off then.
  const localVolumes = workloads.some((w) => w.claimTemplates.some((t) => t.topology === 'node'));
  const finite = workloads.flatMap((w) => [w.toleration.unreachable, w.toleration.notReady, w.toleration.outOfService]).filter((t): t is number => t !== null);
  const maxTol = Math.max(0, ...finite);
  const kcm = config.kubeControllerManager;
  const grace = kcm.nodeMonitorGracePeriod;
  // New nodes are marked Unknown after the startup grace period; elsewhere it is never compared.
  const longestGrace = config.cluster.newNodes > 0 ? Math.max(grace, kcm.nodeStartupGracePeriod) : grace;
  const zoneOfNode = Array.from({ length: config.cluster.nodes }, (_, n) => n % config.cluster.zones);
  const failing = failingNodes(config, possible);
  // The zone rate limiter's wait for the other failing nodes (the recovery bounds read sinceHeartbeat that far).
  const queueWait = kcm.nodeEvictionRate > 0 ? Math.max(0, failing - 1) / kcm.nodeEvictionRate : 0;
  const renewInterval = leaseRenewInterval(config);
  // Stale caches delay a replacement: the ReplicaSet controller's and the scheduler's (properties/helpers.ts).
  const cacheDelay = 2 * config.informers.watchLag;
  const nodesOfZone = Array.from({ length: config.cluster.zones }, (_, z) => zoneOfNode.flatMap((zz, n) => (zz === z ? [n] : [])));
  // Nodes a workload pins or the fault sequence names are told apart from the others.
  const pinned = [
    ...workloads.map((w) => w.pinnedNode),
    ...config.faults.sequence.flatMap((x) => (x.target !== null && /^node-\d+$/.test(x.target) ? [Number(x.target.slice(5)) - 1] : [])),
  ];
  const perCandidate = (main: LeaderElectionConfig, challenger: ClusterConfig['kubeScheduler']['challengerLeaderElection'], n: number): LeaderElectionConfig[] =>
    Array.from({ length: n }, (_, c) => candidateLeaderElection(main, challenger, c));
  const elections: [LeaderElectionConfig[], LeaderElectionConfig[]] = [
    perCandidate(kcm.leaderElection, kcm.challengerLeaderElection, config.cluster.controllerManagerCandidates),
    perCandidate(config.kubeScheduler.leaderElection, config.kubeScheduler.challengerLeaderElection, config.cluster.schedulerCandidates),
  ];
  const tick = config.model.tick;
  const longestTryGap = (le: LeaderElectionConfig): number => Math.round(Math.ceil((le.retryPeriod * (1 + JITTER_FACTOR)) / tick - 1e-9) * tick * 1e6) / 1e6;
  const tryWindow = elections.map((list) => list.map((le) => Math.round((longestTryGap(le) - le.retryPeriod) * 1e6) / 1e6)) as unknown as Ctx['tryWindow'];
  const longestGap = Math.max(...elections.flat().map(longestTryGap));
  const handoverBound = config.model.leaderHandoverBound ?? longestGap;
  return {
    config,
    possible,
    tick: config.model.tick,
    renewInterval,
    grace,
    startupGrace: kcm.nodeStartupGracePeriod,
    probeCap: longestGrace + config.model.tick,
    monitorPeriod: kcm.nodeMonitorPeriod,
    candidateElection: elections,
    jitteredTries: config.model.jitteredFollowerTries,
    tryWindow,
    handoverBound,
    releasedCap: Math.max(handoverBound, longestGap) + tick,
    leaderElection: [kcm.leaderElection, config.kubeScheduler.leaderElection],
    workloads,
    workloadOfPod: podClassifier(workloads),
    heartbeatCap: longestGrace + maxTol + kcm.nodeMonitorPeriod * 2 + queueWait + cacheDelay + config.model.tick,
    noExecuteCap: maxTol + config.model.tick,
    liveCap: renewInterval + config.model.tick,
    runtimeDownCap: MAX_WAIT_FOR_CONTAINER_RUNTIME + renewInterval + kcm.nodeMonitorPeriod * 2 + maxTol + queueWait + cacheDelay + config.model.tick,
    zoneOfNode,
    leaderElectionInert: leaderElectionInert(config, possible),
    podGcInert: podGcInert(possible),
    nodesOfZone,
    symmetricNodeGroups: localVolumes ? Array.from({ length: config.cluster.nodes }, (_, n) => [n]) : [
      ...nodesOfZone.flatMap((group) => alike(config, workloads, group.filter((n) => !pinned.includes(n)))),
      ...pinned.filter((n, i) => n >= 0 && n < config.cluster.nodes && pinned.indexOf(n) === i).map((n) => [n]),
    ],
    electionSymmetric: [sameSettings(kcm.challengerLeaderElection, kcm.leaderElection), sameSettings(config.kubeScheduler.challengerLeaderElection, config.kubeScheduler.leaderElection)],
    reductions: {
      liveFor: (options.reductions ?? config.model.reductions) && extensions.length === 0,
      expectations: options.reductions ?? config.model.reductions,
      readyLeavesUnknownOnlyByRenewal: (['process-pause', 'etcd-restore', 'node-shutdown', 'container-runtime-failure'] as const).every((k) => possible.count[k] === 0),
      fastestClock: possible.count['clock-drift'] > 0 ? Math.max(1, config.faults.clockDriftRate) : 1,
    },
  };
}

/**
 * A zone's nodes split into groups that no scheduling constraint tells apart: the same values of
 * every topology key a pod affinity term or spread constraint reads (the hostname aside, which
 * only names each node's own domain) and the same verdict of every workload's node affinity.
 * Without constraints, the zone's nodes in one group.
 */
function alike(config: ClusterConfig, workloads: readonly WorkloadCtx[], nodes: readonly number[]): number[][] {
  const read = [...topologyKeys(config.cluster.workloads)].filter((k) => k !== HOSTNAME_LABEL).sort();
  const groups = new Map<string, number[]>();
  for (const n of nodes) {
    const labels = nodeLabelsOf(config, n);
    const sig = JSON.stringify([read.map((k) => labels[k] ?? null), workloads.map((w) => w.placement.nodeOk[n])]);
    groups.set(sig, [...(groups.get(sig) ?? []), n]);
  }
  return [...groups.values()];
}

function podClassifier(workloads: readonly WorkloadCtx[]): (pod: string) => WorkloadCtx | undefined {
  const memo = new Map<string, WorkloadCtx | null>();
  return (pod) => {
    let w = memo.get(pod);
    if (w === undefined) {
      w = workloads.find((x) => podOfWorkload(pod, x)) ?? null;
      if (memo.size < 100_000) memo.set(pod, w);
    }
    return w ?? undefined;
  };
}

function sameSettings(challenger: ClusterConfig['kubeScheduler']['challengerLeaderElection'], main: LeaderElectionConfig): boolean {
  return (['leaseDuration', 'renewDeadline', 'retryPeriod'] as const).every((k) => challenger[k] === null || challenger[k] === main[k]);
}

/** Whether etcd can be without quorum on some path (from the start or after member losses, budgeted or sequenced). */
export function quorumCanBeLost(c: ClusterConfig): boolean {
  return quorumLossPossible(c, possibleEvents(c));
}

/**
 * One action of the cluster model. Urgent actions are the periodic and reactive work of live
 * components: while any is enabled, time does not pass and no fault happens, and only the first
 * enabled urgent action in model order may fire (see `clusterModel.ts`). Non-urgent actions
 * (tick, faults, operator) run only between instants.
 */
export interface ClusterAction<P extends JsonValue | undefined = JsonValue | undefined> {
  readonly name: string;
  readonly urgent: boolean;
  /**
   * Fairness of a non-urgent action for liveness (urgent ones are always strongly fair). Strong:
   * urgent work disables a non-urgent action now and then, so weak fairness would force nothing.
   */
  readonly fair?: 'strong';
  readonly params?: readonly P[] | ((s: ClusterState) => readonly P[]);
  enabled(s: ClusterState, p: P): boolean;
  apply(s: ClusterState, p: P): ClusterState;
  describe(before: ClusterState, p: P, after: ClusterState): StepDescription;
}

/** Declares one action with its parameter type checked. */
export function clusterAction<P extends JsonValue | undefined = undefined>(def: ClusterAction<P>): ClusterAction {
  return def as unknown as ClusterAction;
}

export const API = ['kube-apiserver', 'etcd'] as const;
