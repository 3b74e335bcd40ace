/**
 * The cluster state: what the API says (objects in etcd) apart from what is real (nodes,
 * containers, processes and what each process believes). All fields are immutable values; time
 * lives only in relative, saturating timers (DESIGN.md §3).
 */
import type { CustomStore } from './operator/api.js';
import type { JsonValue } from '../checker/model.js';
import type { ClusterConfig, VolumeTopology } from './config.js';

/**
 * A node's Ready condition as stored in the API. `None`: the Node object has no Ready condition
 * yet (made without status, and its kubelet has not posted any: `cluster.newNodes`).
 */
export type Ready = 'True' | 'False' | 'Unknown' | 'None';

/** The taints the model knows, `node.kubernetes.io/<key>:<Effect>` written `<key>:<Effect>`. */
export type Taint =
  | 'not-ready:NoExecute'
  | 'not-ready:NoSchedule'
  | 'out-of-service:NoExecute'
  | 'unreachable:NoExecute'
  | 'unreachable:NoSchedule'
  | 'unschedulable:NoSchedule';

/** A Node object. */
export interface NodeObject {
  readonly ready: Ready;
  /** `spec.unschedulable` (cordon). */
  readonly unschedulable: boolean;
  /** Sorted. */
  readonly taints: readonly Taint[];
  /**
   * Labels written by an operator beside the ones the model serves (`kubernetes.io/hostname`,
   * `topology.kubernetes.io/zone`, `cluster.nodeLabels`), keys sorted; absent when none.
   */
  readonly labels?: Readonly<Record<string, string>>;
  /** Annotations written by an operator, keys sorted; absent when none. */
  readonly annotations?: Readonly<Record<string, string>>;
}

/** `{ ...o, ready, taints }` for the fields the control plane changes, keeping what operators wrote (labels, annotations). */
export function nodeObjectWith(o: NodeObject, patch: Partial<Pick<NodeObject, 'ready' | 'unschedulable' | 'taints'>>): NodeObject {
  const out: { -readonly [K in keyof NodeObject]: NodeObject[K] } = { ready: patch.ready ?? o.ready, unschedulable: patch.unschedulable ?? o.unschedulable, taints: patch.taints ?? o.taints };
  if (o.labels !== undefined) out.labels = o.labels;
  if (o.annotations !== undefined) out.annotations = o.annotations;
  return out;
}

/**
 * The labels and annotations operators wrote on the API's Pods and Nodes and on the built-in
 * components' cached copies, by where they sit; undefined when there are none. Their strings may
 * hold tokens the state's other parts are compared by (a pod's `<name>-<n>` uid, an operator
 * object's `uid-N`), so the fingerprint ranks them with the rest (`opaqueView`) and `freshUid`
 * counts a uid they name as held.
 */
export function writtenMetadata(s: ClusterState): JsonValue | undefined {
  let out: Record<string, JsonValue> | undefined;
  const add = (where: string, o: { readonly labels?: Readonly<Record<string, string>>; readonly annotations?: Readonly<Record<string, string>> } | null): void => {
    if (o === null || (o.labels === undefined && o.annotations === undefined)) return;
    (out ??= {})[where] = { l: o.labels ?? null, a: o.annotations ?? null };
  };
  for (const p of s.api.pods) add(`pod ${p.name}`, p);
  s.api.nodes.forEach((n, i) => add(`node ${i}`, n));
  if (s.informers !== undefined)
    for (const [who, inf] of Object.entries(s.informers)) {
      for (const p of inf.pods) add(`${who} pod ${p.name}`, p);
      inf.nodes.forEach((n, i) => add(`${who} node ${i}`, n));
    }
  return out;
}

/** Why a pod object carries a deletionTimestamp. */
export type Deletion = 'taint-eviction' | 'replicaset' | 'operator' | 'statefulset';

/**
 * A workload's name (`cluster.workloads`; by default the ReplicaSet `web` and the StatefulSet
 * `db`). Its kind: `workloadOfPod` / `Ctx.workloads`.
 */
export type Workload = string;

/** A Pod object. */
export interface PodObject {
  /**
   * `<workload>-<k>` (ReplicaSet; k is a slot, not Kubernetes' `<hash>-<random>` suffix),
   * `<workload>-<ordinal>` (StatefulSet) or `<workload>-node-<n>` (DaemonSet, on node-n).
   */
  readonly name: string;
  /** The name of the workload whose controller created it. */
  readonly workload: Workload;
  /** `spec.nodeName` as a node index; -1 while Pending. */
  readonly nodeName: number;
  /** Set when the pod is Terminating (graceful deletion asked, kubelet confirmation pending). */
  readonly deletion: Deletion | null;
  /** What its tolerations, fixed at admission, mean for each taint of the model. */
  readonly tolerations: Tolerations;
  /** Created by a controller after the start (a replacement). */
  readonly replacement: boolean;
  /**
   * `metadata.uid` (served as `<name>-<uid>`), told apart wherever two incarnations of one name
   * can be compared: the smallest number no copy of an incarnation of that name in the state
   * carries when it is created (absent: 0), see `freshUid`. It stays 0 unless something holds
   * copies: informer caches (`informers.watchLag`) or an extension (an operator's Pod cache, its
   * memory, its objects' status).
   */
  readonly uid?: number;
  /**
   * The pod's Ready condition as the API holds it (`podutil.IsPodReady`): what its kubelet last
   * posted (its container running and not being stopped), set to false by the node lifecycle
   * controller's `MarkPodsNotReady` when it marks the node Ready=Unknown (or the kubelet posts
   * NotReady), and kept as it was while the kubelet cannot post (node down, kubelet down or cut
   * off, runtime down, status updates failing, no API): a crashed node's pod stays Ready until its
   * node is marked Unknown. Absent: not Ready. Kept by `syncPodReadiness` after every step.
   *
   * `false`, kept only where an operator watches the cluster's Pods (`CustomStore.podPhases`): not
   * Ready, but its kubelet has posted its status since it started (phase Running, which a pod
   * keeps once it ran: the model's containers restart under restartPolicy Always, and a pod
   * reported Failed is dropped as it is reported). Absent there: never posted (phase Pending).
   * Elsewhere nothing reads the phase, so the stock model does not keep that bit.
   */
  readonly ready?: boolean;
  /**
   * Labels written by an operator beside its template's (`app` and the workload's `labels`, which
   * `podObjectOf` serves), keys sorted; absent when none. A new incarnation starts without them.
   */
  readonly labels?: Readonly<Record<string, string>>;
  /** Annotations written by an operator, keys sorted; absent when none. */
  readonly annotations?: Readonly<Record<string, string>>;
}

/**
 * What a pod's tolerations (fixed at admission) mean for each taint of the model
 * (`model/tolerations.ts` compiles them from the Kubernetes list). For the three NoExecute taints
 * its tolerationSeconds: seconds; null tolerated forever (no tolerationSeconds, as DaemonSet pods
 * have for unreachable and not-ready); {@link NO_TOLERATION} (negative) no toleration at all, so
 * the taint is not tolerated and the pod is deleted at once (DefaultTolerationSeconds disabled,
 * `tolerations: none`, or a toleration list without one for that taint).
 */
export interface Tolerations {
  /** `node.kubernetes.io/unreachable:NoExecute`. */
  readonly unreachable: number | null;
  /** `node.kubernetes.io/not-ready:NoExecute`. */
  readonly notReady: number | null;
  /** `node.kubernetes.io/out-of-service=nodeshutdown:NoExecute`. */
  readonly outOfService: number | null;
  /** The NoSchedule taints of the model it tolerates (in `TAINT_OBJECTS` order). */
  readonly noSchedule: readonly Taint[];
}

/** The `Tolerations` value of a taint the pod has no toleration for. */
export const NO_TOLERATION = -1;

/** A leader-election record (coordination.k8s.io Lease `kube-system/<component>`). */
export interface LeaseRecord {
  /** Candidate index of `holderIdentity`; -1 when empty (released or never held). */
  readonly holder: number;
  /** `leaseDurationSeconds` written by the holder (1 after a release). */
  readonly durationSeconds: number;
  /** Whether `leaseTransitions` > 0 (saturated: the leader has changed at least once). */
  readonly transitioned: boolean;
  /**
   * Not the API's: a history variable for `leader-handover-within`, kept only with
   * `model.jitteredFollowerTries`. Seconds since the holder released this Lease (ReleaseOnCancel)
   * while nobody holds it, counted from the release or from the last moment no standby could take
   * it (none running unpaused and able to write); saturates at `ctx.releasedCap`. Absent otherwise.
   */
  readonly releasedFor?: number;
}

export interface ApiState {
  /** Node objects by node index; null once deleted. */
  readonly nodes: readonly (NodeObject | null)[];
  /** Pod objects sorted by name. */
  readonly pods: readonly PodObject[];
  /** Leader-election records: [kube-controller-manager, kube-scheduler]. */
  readonly leases: readonly [LeaseRecord, LeaseRecord];
  /**
   * `spec.replicas` of the workloads whose scale was written since the start (an operator's
   * `kubectl scale`), by workload name; absent while every workload has its configured replicas.
   */
  readonly scale?: Readonly<Record<Workload, WorkloadScale>>;
  /**
   * PersistentVolumeClaims of the StatefulSets' `volumeClaimTemplates`, sorted by name; absent
   * when no workload has templates.
   */
  readonly claims?: readonly ClaimObject[];
}

/**
 * A PersistentVolumeClaim a StatefulSet's controller made for an ordinal
 * (`<template>-<set>-<ordinal>`, stateful_pod_control.go `getPersistentVolumeClaimName`), bound
 * to its volume when its first pod is scheduled (WaitForFirstConsumer) and kept when the pod goes
 * (Retain), so every later pod of that ordinal mounts the same volume and may only run where it
 * lives. A delete while a scheduled pod uses it leaves it Terminating (the `kubernetes.io/pvc-protection`
 * finalizer) until no scheduled pod does; meanwhile the controller creates no pod of that ordinal
 * ("pvc … is being deleted") and the scheduler places none on it.
 */
export interface ClaimObject {
  readonly name: string;
  /** The StatefulSet whose template made it. */
  readonly workload: Workload;
  /** The pod of its ordinal, `<set>-<ordinal>`. */
  readonly pod: string;
  /** Its template's index in the workload's `volumeClaimTemplates`. */
  readonly template: number;
  /** Where its template's volumes live (the template's, kept here for readers without the config). */
  readonly topology: VolumeTopology;
  /**
   * Where its volume is, by the template's topology: the node (`node`), the zone (`zone`), 0
   * (`none`); -1 while unbound (no pod of it scheduled yet).
   */
  readonly bound: number;
  /** `metadata.uid` as for pods (`<name>-<uid>`, the smallest number nothing in the state holds; absent: 0). */
  readonly uid?: number;
  /** Deleted while in use: Terminating until no scheduled pod uses it. */
  readonly deleting?: true;
}

/** A workload's `spec.replicas` as written, and what the at-most-replicas promise allows meanwhile. */
export interface WorkloadScale {
  readonly replicas: number;
  /**
   * Set by a scale-down below the active pods: how many were active then. Until the ReplicaSet
   * controller syncs the set (`status.observedGeneration` catching up), those pods are not an
   * excess the controller made; absent otherwise.
   */
  readonly ceiling?: number;
}

/**
 * A pod is Running and Ready as far as the model can tell (see workloads.ts): bound,
 * not Terminating, on a Node object with Ready=True, its container running there.
 */
export function podRunningAndReady(s: ClusterState, p: PodObject): boolean {
  return p.nodeName >= 0 && p.deletion === null && p.ready === true;
}

/**
 * The initial state's Ready conditions: the cluster was steady before the check starts, so every
 * bound pod whose container runs on a node whose Node object is Ready=True was posted Ready (even
 * where etcd is without quorum at the start, when no kubelet could post it now).
 */
export function readyAtStart(s: ClusterState): ClusterState {
  const pods = s.api.pods.map((p) => {
    const ready = p.nodeName >= 0 && p.deletion === null && s.api.nodes[p.nodeName]?.ready === 'True' && s.nodes[p.nodeName].running.includes(p.name);
    return ready && p.ready !== true ? { ...p, ready: true as const } : p;
  });
  return pods.every((p, i) => p === s.api.pods[i]) ? s : stateWith(s, { api: { ...s.api, pods } });
}

/**
 * Whether two API states differ at most in pods' Ready conditions: what the kubelets post after a
 * step (`syncPodReadiness`, once they can), a write of its own with its own quorum.
 */
export function onlyReadinessDiffers(before: ClusterState['api'], after: ClusterState['api']): boolean {
  if (before === after) return true;
  for (const k of Object.keys(after) as (keyof ClusterState['api'])[]) if (k !== 'pods' && before[k] !== after[k]) return false;
  if (before.pods.length !== after.pods.length) return false;
  return after.pods.every((q, i) => {
    const p = before.pods[i];
    return p === q || (p.name === q.name && p.workload === q.workload && p.nodeName === q.nodeName && p.deletion === q.deletion && p.tolerations === q.tolerations && p.replacement === q.replacement && p.uid === q.uid);
  });
}

/** Whether node n's kubelet can post pod status: running, in touch, its runtime answering, its status writes going through. */
export function kubeletPostsStatus(s: ClusterState, n: number): boolean {
  const node = s.nodes[n];
  return nodeLive(s, n) && node.runtimeUp && !node.statusStuck && canWrite(s, false);
}

/**
 * The pods' Ready conditions in the API after a step (see {@link PodObject.ready}): a bound pod
 * whose Node object is not Ready=True is not Ready (`MarkPodsNotReady`; the kubelet posting
 * NotReady); one whose kubelet can post status is Ready exactly when its container runs and is
 * not being stopped (a container of that name that got SIGTERM belongs to an earlier incarnation,
 * or to this pod going); any other keeps what was last posted. Returns `s` itself when nothing changes.
 */
export function syncPodReadiness(s: ClusterState): ClusterState {
  let pods: PodObject[] | undefined;
  // Whether a pod that was posted once keeps that it ran (phase Running): where an operator reads Pods.
  const phases = s.custom?.podPhases === true;
  for (let i = 0; i < s.api.pods.length; i++) {
    const p = s.api.pods[i];
    let ready = p.ready === true;
    if (p.nodeName < 0) ready = false;
    else {
      const obj = s.api.nodes[p.nodeName];
      if (obj === null || obj.ready !== 'True') ready = false;
      else if (kubeletPostsStatus(s, p.nodeName)) {
        const real = s.nodes[p.nodeName];
        ready = real.running.includes(p.name) && !isTerminating(real, p.name);
      }
    }
    const now = ready ? true : phases && p.ready !== undefined ? false : undefined;
    if (now === p.ready) continue;
    pods ??= [...s.api.pods];
    const { ready: _was, ...rest } = p;
    pods[i] = now === undefined ? rest : { ...rest, ready: now };
  }
  return pods === undefined ? s : stateWith(s, { api: { ...s.api, pods } });
}

/** A workload's `spec.replicas` now: as written (`api.scale`) or as configured. */
export function replicasOf(s: ClusterState, w: { readonly name: string; readonly replicas: number }): number {
  return s.api.scale?.[w.name]?.replicas ?? w.replicas;
}

/** A worker node as it really is. */
export interface NodeReal {
  readonly up: boolean;
  readonly kubeletUp: boolean;
  /** Cut off from the control plane (kube-apiserver). */
  readonly partitioned: boolean;
  /** Time until the kubelet's next Lease renewal. */
  readonly heartbeatIn: number;
  /** Pod names whose containers run here, sorted. */
  readonly running: readonly string[];
  /**
   * Containers the kubelet has sent SIGTERM (their pod deleted, Terminating or bound elsewhere)
   * and that still run: each with the seconds left of its grace period before SIGKILL, sorted by
   * pod. Each is also in `running`. Absent or empty: none. Kept only while the kubelet runs (its
   * pod workers hold the timer; a restarted kubelet starts the grace period over).
   */
  readonly terminating?: readonly Terminating[];
  /** History: real time since the last successful Lease renewal (saturating), for properties. */
  readonly sinceHeartbeat: number;
  /** History: real time since the node got an unreachable/not-ready NoExecute taint; -1 without. */
  readonly sinceNoExecute: number;
  /** The container runtime works; while it is down the containers run on (under their shims), the kubelet can start, stop and observe none, and it posts Ready=False. */
  readonly runtimeUp: boolean;
  /** The kubelet's node status updates fail while its Lease renewals still succeed. */
  readonly statusStuck: boolean;
  /**
   * History: real time the node has been continuously live (up, kubelet running, not cut off),
   * saturating one quantum past the Lease renew interval; 0 while it is not.
   */
  readonly liveFor: number;
  /** History: real time since the container runtime failed (saturating); -1 while it works. */
  readonly runtimeDownFor: number;
  /**
   * The kubelet's runtime state reports the runtime down (`runtimeErrors`: its last good runtime
   * check is `maxWaitForContainerRuntime` old), so it posts Ready=False. Absent: false.
   */
  readonly runtimeErrors?: boolean;
  /**
   * The kubelet's pod watch waits for a resourceVersion etcd will not reach again: etcd was
   * restored from an older snapshot while this kubelet ran, so it sees no pod change until it
   * restarts and relists (kubernetes/kubernetes#131115). Absent: false.
   */
  readonly podWatchStuck?: boolean;
  /**
   * A new node (`cluster.newNodes`): up, its kubelet not started yet since its Node object was
   * made without status; `kubelet-start` starts it at any instant, or never. Absent: false.
   */
  readonly booting?: boolean;
  /**
   * A graceful node shutdown is under way (`node-shutdown` with kubelet.shutdownGracePeriod > 0):
   * seconds left of the delay the kubelet's inhibitor lock holds the shutdown for. The kubelet
   * posts Ready=False, admits no pod, stops every pod and reports it Failed; the node powers off
   * when they are done or the delay ends. Absent: no shutdown.
   */
  readonly shutdownIn?: number;
}

/** Every field of `NodeReal`, optional ones included: the compiler asks for a new field here, and a test holds `nodeWithTimers` to this list. */
export const NODE_REAL_FIELDS = {
  up: true, kubeletUp: true, partitioned: true, heartbeatIn: true, running: true, terminating: true, sinceHeartbeat: true, sinceNoExecute: true,
  runtimeUp: true, statusStuck: true, liveFor: true, runtimeDownFor: true, runtimeErrors: true, podWatchStuck: true, booting: true, shutdownIn: true,
} as const satisfies Record<keyof NodeReal, true>;

/** The timers of a node the tick and the history variables move. */
export interface NodeTimers {
  readonly heartbeatIn: number;
  readonly sinceHeartbeat: number;
  readonly sinceNoExecute: number;
  readonly liveFor: number;
  readonly runtimeDownFor: number;
  /** Undefined: the field is left out. */
  readonly terminating: readonly Terminating[] | undefined;
  readonly shutdownIn: number | undefined;
}

/** What `nodeWith` may replace: the required fields of a node (the optional ones are kept). */
export type NodePatch = Partial<Omit<NodeTimers, 'terminating' | 'shutdownIn'> & Pick<NodeReal, 'up' | 'kubeletUp' | 'partitioned' | 'running' | 'runtimeUp' | 'statusStuck'>>;

/**
 * `node` with its timers replaced, written field by field rather than spread: the nodes of a
 * search then share a few object shapes, where a spread over nodes of every origin falls to the
 * engine's slow generic copy (most of the tick's time).
 */
export function nodeWithTimers(node: NodeReal, t: NodeTimers): NodeReal {
  return buildNode(node, t, t.terminating, t.shutdownIn, true);
}

/** `node` with some of its required fields replaced (every other field kept), field by field. */
export function nodeWith(node: NodeReal, patch: NodePatch): NodeReal {
  return buildNode(node, patch, node.terminating, node.shutdownIn, true);
}

/** `node` with the containers running and terminating on it replaced (undefined `terminating`: none), field by field. */
export function nodeWithContainers(node: NodeReal, running: readonly string[], terminating: readonly Terminating[] | undefined): NodeReal {
  return buildNode(node, { running }, terminating, node.shutdownIn, true);
}

/**
 * A node from `node` and `patch`, with `terminating` and `shutdownIn` as given (undefined: left
 * out), and `booting` and `runtimeErrors` kept or left out.
 */
function buildNode(node: NodeReal, patch: NodePatch, terminating: readonly Terminating[] | undefined, shutdownIn: number | undefined, keepBootAndRuntime: boolean): NodeReal {
  const out: { -readonly [K in keyof NodeReal]: NodeReal[K] } = {
    up: patch.up ?? node.up,
    kubeletUp: patch.kubeletUp ?? node.kubeletUp,
    partitioned: patch.partitioned ?? node.partitioned,
    heartbeatIn: patch.heartbeatIn ?? node.heartbeatIn,
    running: patch.running ?? node.running,
    sinceHeartbeat: patch.sinceHeartbeat ?? node.sinceHeartbeat,
    sinceNoExecute: patch.sinceNoExecute ?? node.sinceNoExecute,
    runtimeUp: patch.runtimeUp ?? node.runtimeUp,
    statusStuck: patch.statusStuck ?? node.statusStuck,
    liveFor: patch.liveFor ?? node.liveFor,
    runtimeDownFor: patch.runtimeDownFor ?? node.runtimeDownFor,
  };
  if (terminating !== undefined) out.terminating = terminating;
  if (node.runtimeErrors !== undefined && keepBootAndRuntime) out.runtimeErrors = node.runtimeErrors;
  if (node.podWatchStuck !== undefined) out.podWatchStuck = node.podWatchStuck;
  if (node.booting !== undefined && keepBootAndRuntime) out.booting = node.booting;
  if (shutdownIn !== undefined) out.shutdownIn = shutdownIn;
  return out;
}

/**
 * A node that goes down (a crash, or the end of a shutdown): its containers and kubelet stop, its
 * pods' grace periods, a shutdown under way and its runtime state go with them, and a dead kubelet
 * keeps no timer (a restart sets it anyway).
 */
export function poweredOff(node: NodeReal): NodeReal {
  return buildNode(node, { up: false, kubeletUp: false, running: NO_RUNNING, heartbeatIn: 0 }, undefined, undefined, false);
}

const NO_RUNNING: readonly string[] = Object.freeze([]);

/** A pod's containers between SIGTERM and their exit (kubelet pod_workers.go `killPod`). */
export interface Terminating {
  readonly pod: string;
  /** Seconds of the grace period left; SIGKILL at 0. */
  readonly killIn: number;
}

/** The pods of node n whose containers are terminating (SIGTERM sent, still running). */
export const terminatingOf = (node: NodeReal): readonly Terminating[] => node.terminating ?? NO_TERMINATING;
const NO_TERMINATING: readonly Terminating[] = Object.freeze([]);

/** Whether pod `name`'s containers on this node are terminating. */
export const isTerminating = (node: NodeReal, name: string): boolean => node.terminating !== undefined && node.terminating.some((t) => t.pod === name);

/** Node-health data the node lifecycle controller keeps in memory, per node. */
export interface NodeHealth {
  /** Local time since `probeTimestamp` (saturating at grace + 1). */
  readonly sinceProbe: number;
  /** The Lease was renewed since the controller last looked ("RenewTime newer than saved"). */
  readonly unseen: boolean;
  /**
   * The Lease was renewed while this process was paused (stopped by the world, its watches
   * frozen): its lease informer delivers the event once the process runs again, so a pass that
   * runs before its informers catch up on resume (`afterPause` 'stale') does not see it yet.
   * Absent: false.
   */
  readonly buffered?: boolean;
  /**
   * The Ready condition this controller observed on its last pass, before that pass's own update
   * (`observedReadyCondition`): a node observed not Ready is in its zone's NoExecute taint queue.
   */
  readonly observed: Ready;
}

/** Every field of `NodeHealth`, optional ones included (see `NODE_REAL_FIELDS`). */
export const NODE_HEALTH_FIELDS = { sinceProbe: true, unseen: true, buffered: true, observed: true } as const satisfies Record<keyof NodeHealth, true>;

/** `{ ...h, ...patch }` field by field (see `nodeWithTimers`); `buffered` stays absent unless set. */
export function healthWith(h: NodeHealth, patch: Partial<NodeHealth>): NodeHealth {
  const buffered = patch.buffered ?? h.buffered;
  const sinceProbe = patch.sinceProbe ?? h.sinceProbe;
  const unseen = patch.unseen ?? h.unseen;
  const observed = patch.observed ?? h.observed;
  return buffered === undefined ? { sinceProbe, unseen, observed } : { sinceProbe, unseen, buffered, observed };
}

export type ZoneState = 'Normal' | 'PartialDisruption' | 'FullDisruption';

/** In-memory state of the controllers of a kube-controller-manager that believes it leads. */
export interface ControllerManagerLocal {
  readonly monitorIn: number;
  readonly gcIn: number;
  readonly nodes: readonly NodeHealth[];
  readonly zones: readonly ZoneLimiter[];
  /** "Entering master disruption mode": every zone is in FullDisruption. */
  readonly disruptionMode: boolean;
  /** Taint eviction controller: scheduled deletions (local time left), sorted by pod. */
  readonly evictions: readonly { readonly pod: string; readonly in: number }[];
  /** Pod GC: local time since a Node object was seen missing, per node; -1 when present. */
  readonly gcMissing: readonly number[];
}

/**
 * A zone's state and its NoExecute taint queue's rate limiter (scheduler/rate_limited_queue.go):
 * a token bucket of burst 1 (`flowcontrol.NewTokenBucketRateLimiter(qps, 1)`, which starts full,
 * so even a rate of 0 admits one node), or after a swap to rate 0 client-go's
 * `NewFakeNeverRateLimiter`, which admits none and whose `QPS()` reads 1.
 */
export interface ZoneLimiter {
  readonly state: ZoneState;
  /** The token bucket's QPS, or {@link NEVER_LIMITER}. */
  readonly qps: number;
  /** Seconds until the bucket has its token (0: it has it), or -1: it will never have one (rate 0 once its token is taken, or the never limiter). */
  readonly tokenIn: number;
}

/** `ZoneLimiter.qps` of client-go's fakeNeverRateLimiter. */
export const NEVER_LIMITER = -1;

/** A leader-election candidate process (kube-controller-manager or kube-scheduler). */
export interface Candidate {
  readonly up: boolean;
  /** Remaining stop-the-world pause, 0 when running. */
  readonly paused: number;
  readonly partitioned: boolean;
  /** Clock rate: local seconds per real second. */
  readonly rate: number;
  /** The process believes it leads (its OnStartedLeading context is live). */
  readonly leader: boolean;
  readonly retryIn: number;
  /** Local time since the last successful renewal (leaders). */
  readonly renewAge: number;
  /** Local time since `observedTime` (saturating at leaseDuration). */
  readonly observedAge: number;
  /** Holder in the observed record: a candidate, -1 empty, -2 nothing observed yet. */
  readonly observedHolder: number;
  readonly observedDuration: number;
  /** The record was written by someone else since this candidate last read it. */
  readonly unseen: boolean;
  /** Controller state while leading (kube-controller-manager only). */
  readonly ctrl: ControllerManagerLocal | null;
  /**
   * A leader that has just resumed from a pause: `race` until it is decided whether its renew
   * loop or its controllers run first; `stale` while its controllers act on the lease it held
   * before the pause (no fencing on API writes) and its renew loop has not run yet.
   */
  readonly afterPause: 'none' | 'race' | 'stale';
  /** kube-scheduler only: the pod its scheduling cycle assumed onto a node, not bound yet. */
  readonly assumed: { readonly pod: string; readonly node: number } | null;
}

/** ReplicaSet controller expectations (pkg/controller/controller_utils.go `ControlleeExpectations`). */
export interface Expectation {
  /** The ReplicaSet's name. */
  readonly workload: string;
  /** Creations made and not yet seen in the cache. */
  readonly add: number;
  /** Deletions made and not yet seen in the cache. */
  readonly del: number;
  /** Seconds since they were set, saturating just past `ExpectationsTimeout`. */
  readonly age: number;
}

/**
 * An informer cache (client-go's shared informer store) of one client, or a kube-apiserver's watch
 * cache: the pods and Node objects as its watch last told it, the API as it was when the cache
 * fell behind; it catches up at any instant (`watch-catch-up`), and at the latest
 * `informers.watchLag` later (`watch-catch-up-due`).
 */
export interface Informer {
  readonly pods: readonly PodObject[];
  readonly nodes: readonly (NodeObject | null)[];
  /** Seconds since the pod stream first missed a change (saturating at the lag bound); -1 in sync. */
  readonly podsBehind: number;
  /** The same for the Node stream. */
  readonly nodesBehind: number;
  /**
   * Workloads and pods the client acts on again only after a watch event about them: a create
   * refused with AlreadyExists is requeued, a scheduler's bound pod stays assumed. Sorted.
   */
  readonly waiting: readonly string[];
  /** The ReplicaSet controller's expectations (kube-controller-manager caches only), sorted by workload. */
  readonly expectations: readonly Expectation[];
}

/** `{ ...c, ...patch }` field by field (see `nodeWithTimers`); every field is required, so the compiler checks the list. */
export function ctrlWith(c: ControllerManagerLocal, patch: Partial<ControllerManagerLocal>): ControllerManagerLocal {
  return {
    monitorIn: patch.monitorIn ?? c.monitorIn,
    gcIn: patch.gcIn ?? c.gcIn,
    nodes: patch.nodes ?? c.nodes,
    zones: patch.zones ?? c.zones,
    disruptionMode: patch.disruptionMode ?? c.disruptionMode,
    evictions: patch.evictions ?? c.evictions,
    gcMissing: patch.gcMissing ?? c.gcMissing,
  };
}

/** `{ ...k, ...patch }` field by field (see `nodeWithTimers`); a field patched with null is set to null. */
export function candidateWith(k: Candidate, patch: Partial<Candidate>): Candidate {
  return {
    up: patch.up ?? k.up,
    paused: patch.paused ?? k.paused,
    partitioned: patch.partitioned ?? k.partitioned,
    rate: patch.rate ?? k.rate,
    leader: patch.leader ?? k.leader,
    retryIn: patch.retryIn ?? k.retryIn,
    renewAge: patch.renewAge ?? k.renewAge,
    observedAge: patch.observedAge ?? k.observedAge,
    observedHolder: patch.observedHolder ?? k.observedHolder,
    observedDuration: patch.observedDuration ?? k.observedDuration,
    unseen: patch.unseen ?? k.unseen,
    ctrl: patch.ctrl !== undefined ? patch.ctrl : k.ctrl,
    afterPause: patch.afterPause ?? k.afterPause,
    assumed: patch.assumed !== undefined ? patch.assumed : k.assumed,
  };
}

/** Every field of `PodObject`, optional ones included (see `NODE_REAL_FIELDS`). */
export const POD_OBJECT_FIELDS = { name: true, workload: true, nodeName: true, deletion: true, tolerations: true, replacement: true, uid: true, ready: true, labels: true, annotations: true } as const satisfies Record<keyof PodObject, true>;

/** `{ ...p, ...patch }` for a pod's node and deletion, field by field (see `nodeWithTimers`). */
export function podWith(p: PodObject, patch: Partial<Pick<PodObject, 'nodeName' | 'deletion'>>): PodObject {
  const nodeName = patch.nodeName ?? p.nodeName;
  const deletion = patch.deletion !== undefined ? patch.deletion : p.deletion;
  const out: { -readonly [K in keyof PodObject]: PodObject[K] } = { name: p.name, workload: p.workload, nodeName, deletion, tolerations: p.tolerations, replacement: p.replacement };
  if (p.uid !== undefined) out.uid = p.uid;
  if (p.ready !== undefined) out.ready = p.ready;
  if (p.labels !== undefined) out.labels = p.labels;
  if (p.annotations !== undefined) out.annotations = p.annotations;
  return out;
}

/** The candidates of `s` with candidate c of election e replaced (the lists copied). */
export function candidatesWith(s: ClusterState, e: number, c: number, k: Candidate): ClusterState['candidates'] {
  const list = s.candidates[e].slice();
  list[c] = k;
  return (e === 0 ? [list, s.candidates[1]] : [s.candidates[0], list]) as unknown as ClusterState['candidates'];
}

/** `s` with candidate c of election e replaced (field by field for the state). */
export function withCandidate(s: ClusterState, e: number, c: number, k: Candidate): ClusterState {
  return stateWith(s, { candidates: candidatesWith(s, e, c, k) });
}

/** Every field of `ApiState`, optional ones included (see `NODE_REAL_FIELDS`). */
export const API_STATE_FIELDS = { nodes: true, pods: true, leases: true, scale: true, claims: true } as const satisfies Record<keyof ApiState, true>;

/** `{ ...api, ...patch }` field by field for nodes and pods (see `nodeWithTimers`). */
export function apiWith(api: ApiState, patch: Partial<Pick<ApiState, 'nodes' | 'pods'>>): ApiState {
  const nodes = patch.nodes ?? api.nodes;
  const pods = patch.pods ?? api.pods;
  if (api.scale === undefined && api.claims === undefined) return { nodes, pods, leases: api.leases };
  return { nodes, pods, leases: api.leases, ...(api.scale === undefined ? {} : { scale: api.scale }), ...(api.claims === undefined ? {} : { claims: api.claims }) };
}

/** Remaining fault and operator budgets (names as in `ClusterConfig.faults` / `.operator`). */
export type Budgets = Readonly<Record<string, number>>;

export interface ClusterState {
  readonly api: ApiState;
  readonly nodes: readonly NodeReal[];
  readonly etcd: readonly boolean[];
  readonly apiservers: readonly boolean[];
  /** Candidates per election: [kube-controller-manager, kube-scheduler]. */
  readonly candidates: readonly [readonly Candidate[], readonly Candidate[]];
  readonly budget: Budgets;
  /**
   * Seconds left of an outage between the kube-apiserver the kubelets reach and etcd (0: none):
   * the kubelets can neither read nor write through it; the control plane's instance is unaffected.
   */
  readonly kubeletApiOutage: number;
  /** Steps of the scenario's fault sequence already done (`faults.sequence`). */
  readonly sequenceDone: number;
  /** Seconds until the next step of the sequence when it has a fixed delay; -1 otherwise. */
  readonly sequenceIn: number;
  /**
   * The memory of users' own controllers added with `clusterModel(config, { extensions })`, by
   * extension name (absent without extensions). See `ClusterExtension`.
   */
  readonly extensions?: Readonly<Record<string, JsonValue>>;
  /**
   * Informer caches by client (`kube-controller-manager-1`, `kube-scheduler-2`, an extension's
   * name) and kube-apiserver watch caches (`kube-apiserver-2`); absent unless
   * `informers.watchLag` > 0. See `informers.ts`.
   */
  readonly informers?: Readonly<Record<string, Informer>>;
  /**
   * Objects of the kinds users' operators declare (custom resources and the like), the calls
   * made outside the cluster, and the operators' watch streams; absent without operators. See
   * `operator/api.ts`.
   */
  readonly custom?: CustomStore;
}

/** Every field of `ClusterState`, optional ones included (see `NODE_REAL_FIELDS`). */
export const CLUSTER_STATE_FIELDS = {
  api: true, nodes: true, etcd: true, apiservers: true, candidates: true, budget: true, kubeletApiOutage: true, sequenceDone: true, sequenceIn: true,
  extensions: true, informers: true, custom: true,
} as const satisfies Record<keyof ClusterState, true>;

/** The parts of a state the frequent steps replace. */
export type StatePatch = Partial<Pick<ClusterState, 'api' | 'nodes' | 'candidates' | 'budget' | 'kubeletApiOutage' | 'sequenceIn'>>;

/** `{ ...s, ...patch }` written field by field, for the frequent steps (see `nodeWithTimers`). */
export function stateWith(s: ClusterState, patch: StatePatch): ClusterState {
  const out: { -readonly [K in keyof ClusterState]: ClusterState[K] } = {
    api: patch.api ?? s.api,
    nodes: patch.nodes ?? s.nodes,
    etcd: s.etcd,
    apiservers: s.apiservers,
    candidates: patch.candidates ?? s.candidates,
    budget: patch.budget ?? s.budget,
    kubeletApiOutage: patch.kubeletApiOutage ?? s.kubeletApiOutage,
    sequenceDone: s.sequenceDone,
    sequenceIn: patch.sequenceIn ?? s.sequenceIn,
  };
  if (s.extensions !== undefined) out.extensions = s.extensions;
  if (s.informers !== undefined) out.informers = s.informers;
  if (s.custom !== undefined) out.custom = s.custom;
  return out;
}

/** Election indices. */
export const KCM = 0;
export const SCHED = 1;
export const ELECTION_NAMES = ['kube-controller-manager', 'kube-scheduler'] as const;

/**
 * A parameter list that depends only on the shape of the cluster (how many nodes, how many
 * candidates in each election), built once per shape and shared: guards list their candidates on
 * every state, and most lists never change within a run. Callers only read the list.
 */
export function byShape<T>(build: (s: ClusterState) => readonly T[]): (s: ClusterState) => readonly T[] {
  const cache = new Map<number, readonly T[]>();
  return (s) => {
    const shape = (s.nodes.length * 256 + s.candidates[0].length) * 256 + s.candidates[1].length;
    let list = cache.get(shape);
    if (list === undefined) {
      list = Object.freeze(build(s));
      cache.set(shape, list);
    }
    return list;
  };
}

export const nodeName = (n: number): string => `node-${n + 1}`;
export const nodeIndex = (name: string): number => Number(name.slice(5)) - 1;

/**
 * The number written at the end of `name` from `from` on (`node-12` from 5: 12), read without
 * slicing: parameters such as `kube-controller-manager-1` are parsed by guards asked in every
 * state, where a sliced string per call was garbage. NaN when a character there is not a digit.
 */
export function trailingNumber(name: string, from: number): number {
  if (from >= name.length) return NaN;
  let x = 0;
  for (let i = from; i < name.length; i++) {
    const d = name.charCodeAt(i) - 48;
    if (d < 0 || d > 9) return NaN;
    x = x * 10 + d;
  }
  return x;
}

/** The index of the kube-controller-manager named by a parameter (`kube-controller-manager-<c+1>`). */
export const managerIndex = (ref: string): number => trailingNumber(ref, 'kube-controller-manager-'.length) - 1;
export const candidateName = (e: number, c: number): string => `${ELECTION_NAMES[e]}-${c + 1}`;
export const zoneOf = (config: ClusterConfig, n: number): number => n % config.cluster.zones;

/** etcd has quorum: ⌊n/2⌋+1 members up. */
export function quorum(s: ClusterState): boolean {
  let up = 0;
  for (const m of s.etcd) if (m) up++;
  return up >= Math.floor(s.etcd.length / 2) + 1;
}

/** Some kube-apiserver instance is up and reachable from a client that is not partitioned. */
export function apiReachable(s: ClusterState, partitioned: boolean): boolean {
  return !partitioned && s.apiservers.includes(true);
}

/** A client can write: it reaches a kube-apiserver and etcd has quorum. */
export function canWrite(s: ClusterState, partitioned: boolean): boolean {
  return apiReachable(s, partitioned) && quorum(s);
}

/** Node n is live: up, its kubelet running and reaching the control plane. */
export const nodeLive = (s: ClusterState, n: number): boolean => s.nodes[n].up && s.nodes[n].kubeletUp && !s.nodes[n].partitioned;

/** The kubelet of node n reaches the API (not cut off, no outage of its kube-apiserver). */
export function kubeletReachesApi(s: ClusterState, n: number): boolean {
  return s.kubeletApiOutage === 0 && apiReachable(s, s.nodes[n].partitioned);
}

/** The kubelet of node n can write (reaches the API and etcd has quorum). */
export function kubeletCanWrite(s: ClusterState, n: number): boolean {
  return kubeletReachesApi(s, n) && quorum(s);
}

/** The kubelet of node n runs. */
export const kubeletAlive = (s: ClusterState, n: number): boolean => s.nodes[n].up && s.nodes[n].kubeletUp;

/** A candidate process runs and is not paused. */
export const running = (c: Candidate): boolean => c.up && c.paused === 0;

/** A candidate acts as leader: runs, is not paused, believes it leads. */
export const acting = (c: Candidate): boolean => c.up && c.paused === 0 && c.leader;

export function podIndex(s: ClusterState, name: string): number {
  const pods = s.api.pods;
  for (let i = 0; i < pods.length; i++) if (pods[i].name === name) return i;
  return -1;
}

export function hasTaint(node: NodeObject | null, t: Taint): boolean {
  return node !== null && node.taints.includes(t);
}

/** The node carries an unreachable or not-ready NoExecute taint. */
export function conditionNoExecute(node: NodeObject | null): boolean {
  return hasTaint(node, 'unreachable:NoExecute') || hasTaint(node, 'not-ready:NoExecute');
}

/** Sorted insert/remove helpers for readonly string lists used inside immer recipes. */
export function addSorted<T extends string>(list: T[], item: T): void {
  if (list.includes(item)) return;
  list.push(item);
  list.sort();
}

export function removeItem<T>(list: T[], item: T): void {
  const i = list.indexOf(item);
  if (i >= 0) list.splice(i, 1);
}
