/**
 * The cluster state as a vector: one fixed position per field of a `ClusterState` of one
 * configuration, and the encoding and decoding between the two forms (the first stage of
 * "Design: the cluster as a state vector" in `model/NOTES.md`).
 *
 * A vector is a `Float64Array` whose slots hold the object model's numbers as they are (seconds
 * with their fractions, booleans as 0 and 1, enumerations as codes, references to nodes,
 * candidates and pods as indices), {@link ABSENT} where a field is absent or null and
 * {@link FOREVER} for a toleration without tolerationSeconds. Everything attached to a node sits
 * in one block of slots per node, a pod object and every reference to a pod name (its container
 * on each node, each controller manager's eviction of it) at one position per name of the
 * configuration's pod names, so a step writes a few slots and node symmetry is a permutation of
 * blocks.
 *
 * What the layout covers: the stock cluster without users' controllers or operators, without
 * informer caches (`informers.watchLag` 0) and without a scale written (`api.scale`).
 * `clusterVectorLayout` says why a configuration is not covered; `encodeCluster` refuses a state
 * it cannot hold (a ReplicaSet pod beyond the layout's slots, say) with a {@link VectorRangeError},
 * so a caller can fall back to the object model.
 *
 * Exactness: `decodeCluster(L, encodeCluster(L, s))` has the key (`stateKey`) of `s`, held on
 * reachable states of every covered stock scenario (`test/model/clusterVector.test.ts`); the
 * decoded objects are built by the same field-by-field helpers the components use.
 */
import { daemonPodName } from '../config.js';
import { NO_SCHEDULE } from '../tolerations.js';
import type { Ctx } from '../context.js';
import type { Candidate, ClusterState, ControllerManagerLocal, Deletion, LeaseRecord, NodeHealth, NodeObject, NodeReal, PodObject, Ready, Taint, Terminating, ZoneState } from '../state.js';

/** Written where a field is absent or null. */
export const ABSENT = -Infinity;
/** A toleration without tolerationSeconds (tolerated forever; `null` in the object model). */
export const FOREVER = Infinity;

/** A container on a node: not running there. Otherwise the slot is {@link RUNNING} or the SIGKILL countdown (>= 0) of a terminating one. */
export const NOT_RUNNING = ABSENT;
/** A container on a node: running and not terminating. */
export const RUNNING = -1;

/** Thrown by `encodeCluster` for a state the layout cannot hold. */
export class VectorRangeError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'VectorRangeError';
  }
}

/** Offsets (within a node's block) of a node's fields. */
export const NODE = {
  /** The Node object's Ready condition (`READY_CODES`), ABSENT once deleted. */
  ready: 0,
  unschedulable: 1,
  /** The Node object's taints as bits (`TAINT_BITS`). */
  taints: 2,
  /** up 1, kubeletUp 2, partitioned 4, runtimeUp 8, statusStuck 16, podWatchStuck 32, runtimeErrors 64, booting 128. */
  flags: 3,
  shutdownIn: 4,
  heartbeatIn: 5,
  sinceHeartbeat: 6,
  sinceNoExecute: 7,
  liveFor: 8,
  runtimeDownFor: 9,
} as const;
const NODE_FIELDS = Object.keys(NODE).length;

export const NODE_FLAG = { up: 1, kubeletUp: 2, partitioned: 4, runtimeUp: 8, statusStuck: 16, podWatchStuck: 32, runtimeErrors: 64, booting: 128 } as const;

/** Offsets of a pod name's object fields. */
export const POD = {
  /** `spec.nodeName` (-1 Pending); ABSENT: no object of this name. */
  nodeName: 0,
  uid: 1,
  /** `DELETION_CODES`; 0: not Terminating. */
  deletion: 2,
  tolerationUnreachable: 3,
  tolerationNotReady: 4,
  replacement: 5,
  tolerationOutOfService: 6,
  /** The NoSchedule taints tolerated, as `TAINT_BITS`. */
  tolerationNoSchedule: 7,
  /** The Ready condition in the API: 1 Ready. */
  ready: 8,
} as const;
const POD_FIELDS = Object.keys(POD).length;

/** Offsets of a node's health in a controller manager's memory. */
export const HEALTH = {
  sinceProbe: 0,
  /** unseen 1, buffered 2. */
  flags: 1,
  observed: 2,
} as const;
const HEALTH_FIELDS = Object.keys(HEALTH).length;

/** Offsets of a candidate's fields. */
export const CANDIDATE = {
  /** up 1, leader 2, partitioned 4, unseen 8. */
  flags: 0,
  afterPause: 1,
  paused: 2,
  rate: 3,
  retryIn: 4,
  renewAge: 5,
  observedAge: 6,
  observedHolder: 7,
  observedDuration: 8,
  /** The assumed pod's name index, ABSENT without one. */
  assumedPod: 9,
  assumedNode: 10,
  /** 1 while the candidate runs controllers (kube-controller-manager leaders), 0 otherwise. */
  hasCtrl: 11,
} as const;
const CANDIDATE_FIELDS = Object.keys(CANDIDATE).length;

/** Slots per Lease: holder, durationSeconds, transitioned, releasedFor. */
export const LEASE_SLOTS = 4;

export const CANDIDATE_FLAG = { up: 1, leader: 2, partitioned: 4, unseen: 8 } as const;

export const READY_CODES: readonly Ready[] = ['True', 'False', 'Unknown', 'None'];
export const TAINT_BITS: readonly Taint[] = ['not-ready:NoExecute', 'not-ready:NoSchedule', 'out-of-service:NoExecute', 'unreachable:NoExecute', 'unreachable:NoSchedule', 'unschedulable:NoSchedule'];
/** Index 0 is "not Terminating". */
export const DELETION_CODES: readonly (Deletion | null)[] = [null, 'taint-eviction', 'replicaset', 'operator', 'statefulset'];
export const AFTER_PAUSE_CODES: readonly Candidate['afterPause'][] = ['none', 'race', 'stale'];
export const ZONE_CODES: readonly ZoneState[] = ['Normal', 'PartialDisruption', 'FullDisruption'];

/** The slots of a kube-controller-manager candidate's controllers. */
export interface CtrlSlots {
  readonly monitorIn: number;
  readonly gcIn: number;
  readonly disruptionMode: number;
  /** Node n's health: `health + n * HEALTH_WIDTH`. */
  readonly health: number;
  /** Zone z: state at `zones + 3z`, the limiter's QPS at `zones + 3z + 1`, its token countdown at `zones + 3z + 2`. */
  readonly zones: number;
  /** The eviction countdown of pod name p (ABSENT: none queued): `evictions + p`. */
  readonly evictions: number;
  /** Node n's pod-GC quarantine timer: `gcMissing + n`. */
  readonly gcMissing: number;
}

/** Where everything is, for one configuration. */
export interface ClusterLayout {
  readonly width: number;
  /** A name per slot, for people (`nodes[1].heartbeatIn`). */
  readonly slotNames: readonly string[];
  readonly nodeCount: number;
  readonly zoneCount: number;
  /** Node n's block: `nodeBase + n * nodeWidth` (its fields at `NODE` offsets). */
  readonly nodeBase: number;
  readonly nodeWidth: number;
  /** Every pod name the configuration can give, sorted as `api.pods` is. */
  readonly podNames: readonly string[];
  /** The workload of each pod name. */
  readonly podWorkload: readonly string[];
  /** Pod name p's object: `podBase + p * POD_WIDTH`. */
  readonly podBase: number;
  /** Pod p's container on node n: `containerBase + n * podNames.length + p` (NOT_RUNNING, RUNNING or killIn). */
  readonly containerBase: number;
  /** Lease e: holder, durationSeconds, transitioned, releasedFor (-1: absent) from `leaseBase + LEASE_SLOTS × e`. */
  readonly leaseBase: number;
  readonly etcdBase: number;
  readonly etcdCount: number;
  readonly apiserverBase: number;
  readonly apiserverCount: number;
  /** Candidate c of election e: `candidateBase[e] + c * candidateWidth[e]` (fields at `CANDIDATE` offsets, then its controllers). */
  readonly candidateBase: readonly [number, number];
  readonly candidateCount: readonly [number, number];
  readonly candidateWidth: readonly [number, number];
  /** The controllers' slots of a kube-controller-manager candidate, relative to its block. */
  readonly ctrl: CtrlSlots;
  /** The budgets' names, in the initial state's order, at `budgetBase + i`. */
  readonly budgetNames: readonly string[];
  readonly budgetBase: number;
  readonly kubeletApiOutage: number;
  readonly sequenceDone: number;
  readonly sequenceIn: number;
}

export const POD_WIDTH = POD_FIELDS;
export const HEALTH_WIDTH = HEALTH_FIELDS;

/** How many names a ReplicaSet's pods may take in a layout (`<name>-0` …), unless told. */
export function defaultReplicaSetSlots(replicas: number, nodes: number): number {
  return 2 * replicas + nodes;
}

/**
 * The layout of `ctx`'s configuration, with `initial` (one of its initial states) giving the
 * budgets' names; or why the configuration is not covered.
 */
export function clusterVectorLayout(ctx: Ctx, initial: ClusterState, options: { readonly replicaSetSlots?: (replicas: number, nodes: number) => number } = {}): ClusterLayout | { readonly unsupported: string } {
  const config = ctx.config;
  if (config.informers.watchLag > 0) return { unsupported: 'informer caches (informers.watchLag > 0)' };
  if (initial.extensions !== undefined || initial.custom !== undefined) return { unsupported: "users' controllers or operators" };
  if (initial.informers !== undefined) return { unsupported: 'informer caches' };
  const N = initial.nodes.length;
  const Z = ctx.nodesOfZone.length;
  const slotsOf = options.replicaSetSlots ?? defaultReplicaSetSlots;
  const names: { name: string; workload: string }[] = [];
  for (const w of ctx.workloads) {
    const count = w.kind === 'ReplicaSet' ? slotsOf(w.replicas, N) : w.kind === 'StatefulSet' ? w.replicas : N;
    for (let k = 0; k < count; k++) names.push({ name: w.kind === 'DaemonSet' ? daemonPodName(w.name, k) : `${w.name}-${k}`, workload: w.name });
  }
  names.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  for (let i = 1; i < names.length; i++) if (names[i].name === names[i - 1].name) return { unsupported: `two workloads give the pod name ${names[i].name}` };
  const P = names.length;
  const slotNames: string[] = [];
  const take = (name: string): number => slotNames.push(name) - 1;
  const nodeBase = slotNames.length;
  for (let n = 0; n < N; n++) for (const f of Object.keys(NODE)) take(`nodes[${n}].${f}`);
  const podBase = slotNames.length;
  for (const { name } of names) for (const f of Object.keys(POD)) take(`pods[${name}].${f}`);
  const containerBase = slotNames.length;
  for (let n = 0; n < N; n++) for (const { name } of names) take(`nodes[${n}].containers[${name}]`);
  const leaseBase = slotNames.length;
  for (let e = 0; e < 2; e++) for (const f of ['holder', 'durationSeconds', 'transitioned', 'releasedFor']) take(`leases[${e}].${f}`);
  const etcdBase = slotNames.length;
  initial.etcd.forEach((_, i) => take(`etcd[${i}]`));
  const apiserverBase = slotNames.length;
  initial.apiservers.forEach((_, i) => take(`apiservers[${i}]`));
  const ctrlFields = ['monitorIn', 'gcIn', 'disruptionMode'];
  const ctrlWidth = ctrlFields.length + N * HEALTH_FIELDS + 3 * Z + P + N;
  const ctrl: CtrlSlots = {
    monitorIn: CANDIDATE_FIELDS,
    gcIn: CANDIDATE_FIELDS + 1,
    disruptionMode: CANDIDATE_FIELDS + 2,
    health: CANDIDATE_FIELDS + 3,
    zones: CANDIDATE_FIELDS + 3 + N * HEALTH_FIELDS,
    evictions: CANDIDATE_FIELDS + 3 + N * HEALTH_FIELDS + 3 * Z,
    gcMissing: CANDIDATE_FIELDS + 3 + N * HEALTH_FIELDS + 3 * Z + P,
  };
  const candidateBase: number[] = [];
  const candidateWidth: number[] = [];
  for (let e = 0; e < 2; e++) {
    candidateBase.push(slotNames.length);
    candidateWidth.push(CANDIDATE_FIELDS + (e === 0 ? ctrlWidth : 0));
    initial.candidates[e].forEach((_, c) => {
      const at = `candidates[${e}][${c}]`;
      for (const f of Object.keys(CANDIDATE)) take(`${at}.${f}`);
      if (e !== 0) return;
      for (const f of ctrlFields) take(`${at}.ctrl.${f}`);
      for (let n = 0; n < N; n++) for (const f of Object.keys(HEALTH)) take(`${at}.ctrl.nodes[${n}].${f}`);
      for (let z = 0; z < Z; z++) for (const f of ['state', 'qps', 'tokenIn']) take(`${at}.ctrl.zones[${z}].${f}`);
      for (const { name } of names) take(`${at}.ctrl.evictions[${name}]`);
      for (let n = 0; n < N; n++) take(`${at}.ctrl.gcMissing[${n}]`);
    });
  }
  const budgetNames = Object.keys(initial.budget);
  const budgetBase = slotNames.length;
  for (const b of budgetNames) take(`budget.${b}`);
  const kubeletApiOutage = take('kubeletApiOutage');
  const sequenceDone = take('sequenceDone');
  const sequenceIn = take('sequenceIn');
  return {
    width: slotNames.length,
    slotNames,
    nodeCount: N,
    zoneCount: Z,
    nodeBase,
    nodeWidth: NODE_FIELDS,
    podNames: names.map((x) => x.name),
    podWorkload: names.map((x) => x.workload),
    podBase,
    containerBase,
    leaseBase,
    etcdBase,
    etcdCount: initial.etcd.length,
    apiserverBase,
    apiserverCount: initial.apiservers.length,
    candidateBase: [candidateBase[0], candidateBase[1]],
    candidateCount: [initial.candidates[0].length, initial.candidates[1].length],
    candidateWidth: [candidateWidth[0], candidateWidth[1]],
    ctrl,
    budgetNames,
    budgetBase,
    kubeletApiOutage,
    sequenceDone,
    sequenceIn,
  };
}

// ---- encoding ---------------------------------------------------------------------------------

const podIndexCache = new WeakMap<ClusterLayout, Map<string, number>>();

/** The index of pod name `name` in the layout; throws when it has none. */
export function podNameIndex(L: ClusterLayout, name: string): number {
  let index = podIndexCache.get(L);
  if (index === undefined) {
    index = new Map(L.podNames.map((n, i) => [n, i]));
    podIndexCache.set(L, index);
  }
  const p = index.get(name);
  if (p === undefined) throw new VectorRangeError(`pod name ${name} has no slot in the layout`);
  return p;
}

const READY_INDEX = new Map(READY_CODES.map((r, i) => [r, i]));
const TAINT_INDEX = new Map(TAINT_BITS.map((t, i) => [t, 1 << i]));
const DELETION_INDEX = new Map(DELETION_CODES.map((d, i) => [d, i]));
const AFTER_PAUSE_INDEX = new Map(AFTER_PAUSE_CODES.map((a, i) => [a, i]));
const ZONE_INDEX = new Map(ZONE_CODES.map((z, i) => [z, i]));

function code<T>(index: ReadonlyMap<T, number>, value: T, what: string): number {
  const c = index.get(value);
  if (c === undefined) throw new VectorRangeError(`${what} ${String(value)} has no code`);
  return c;
}

const tolerationSlot = (t: number | null): number => (t === null ? FOREVER : t);

/** `s` as a vector of layout `L`; throws {@link VectorRangeError} for a state the layout cannot hold. */
export function encodeCluster(L: ClusterLayout, s: ClusterState): Float64Array {
  if (s.informers !== undefined || s.extensions !== undefined || s.custom !== undefined) throw new VectorRangeError('informer caches or extensions are not in the layout');
  if (s.api.scale !== undefined) throw new VectorRangeError('a written scale (api.scale) is not in the layout');
  if (s.api.claims !== undefined) throw new VectorRangeError('PersistentVolumeClaims (api.claims) are not in the layout');
  const N = L.nodeCount;
  const P = L.podNames.length;
  if (s.nodes.length !== N || s.api.nodes.length !== N) throw new VectorRangeError(`the state has ${s.nodes.length} nodes, the layout ${N}`);
  const v = new Float64Array(L.width);
  for (let n = 0; n < N; n++) {
    const at = L.nodeBase + n * L.nodeWidth;
    const o = s.api.nodes[n];
    if (o === null) {
      v[at + NODE.ready] = ABSENT;
      v[at + NODE.unschedulable] = 0;
      v[at + NODE.taints] = 0;
    } else {
      if (o.labels !== undefined || o.annotations !== undefined) throw new VectorRangeError(`labels or annotations written on Node node-${n + 1} are not in the layout`);
      v[at + NODE.ready] = code(READY_INDEX, o.ready, 'Ready');
      v[at + NODE.unschedulable] = o.unschedulable ? 1 : 0;
      let bits = 0;
      for (const t of o.taints) bits |= code(TAINT_INDEX, t, 'taint');
      v[at + NODE.taints] = bits;
    }
    const r = s.nodes[n];
    v[at + NODE.flags] =
      (r.up ? NODE_FLAG.up : 0) | (r.kubeletUp ? NODE_FLAG.kubeletUp : 0) | (r.partitioned ? NODE_FLAG.partitioned : 0) | (r.runtimeUp ? NODE_FLAG.runtimeUp : 0) |
      (r.statusStuck ? NODE_FLAG.statusStuck : 0) | (r.podWatchStuck === true ? NODE_FLAG.podWatchStuck : 0) | (r.runtimeErrors === true ? NODE_FLAG.runtimeErrors : 0) | (r.booting === true ? NODE_FLAG.booting : 0);
    v[at + NODE.shutdownIn] = r.shutdownIn ?? ABSENT;
    v[at + NODE.heartbeatIn] = r.heartbeatIn;
    v[at + NODE.sinceHeartbeat] = r.sinceHeartbeat;
    v[at + NODE.sinceNoExecute] = r.sinceNoExecute;
    v[at + NODE.liveFor] = r.liveFor;
    v[at + NODE.runtimeDownFor] = r.runtimeDownFor;
    const c = L.containerBase + n * P;
    for (let p = 0; p < P; p++) v[c + p] = NOT_RUNNING;
    for (const name of r.running) {
      const p = podNameIndex(L, name);
      if (v[c + p] !== NOT_RUNNING) throw new VectorRangeError(`container ${name} listed twice on node ${n}`);
      v[c + p] = RUNNING;
    }
    for (const t of r.terminating ?? []) {
      const p = podNameIndex(L, t.pod);
      if (v[c + p] !== RUNNING) throw new VectorRangeError(`terminating container ${t.pod} does not run on node ${n}`);
      if (!(t.killIn >= 0)) throw new VectorRangeError(`terminating container ${t.pod} has a negative grace period`);
      v[c + p] = t.killIn;
    }
  }
  for (let p = 0; p < P; p++) v[L.podBase + p * POD_WIDTH + POD.nodeName] = ABSENT;
  for (const pod of s.api.pods) {
    const p = podNameIndex(L, pod.name);
    const at = L.podBase + p * POD_WIDTH;
    if (v[at + POD.nodeName] !== ABSENT) throw new VectorRangeError(`two pod objects named ${pod.name}`);
    if (pod.workload !== L.podWorkload[p]) throw new VectorRangeError(`pod ${pod.name} belongs to ${pod.workload}, not to ${L.podWorkload[p]}`);
    if (pod.labels !== undefined || pod.annotations !== undefined) throw new VectorRangeError(`labels or annotations written on pod ${pod.name} are not in the layout`);
    v[at + POD.nodeName] = pod.nodeName;
    v[at + POD.uid] = pod.uid ?? 0;
    v[at + POD.deletion] = code(DELETION_INDEX, pod.deletion, 'deletion');
    v[at + POD.tolerationUnreachable] = tolerationSlot(pod.tolerations.unreachable);
    v[at + POD.tolerationNotReady] = tolerationSlot(pod.tolerations.notReady);
    v[at + POD.replacement] = pod.replacement ? 1 : 0;
    v[at + POD.ready] = pod.ready === true ? 1 : 0;
    v[at + POD.tolerationOutOfService] = tolerationSlot(pod.tolerations.outOfService);
    let noSchedule = 0;
    for (const t of pod.tolerations.noSchedule) noSchedule |= code(TAINT_INDEX, t, 'taint');
    v[at + POD.tolerationNoSchedule] = noSchedule;
  }
  for (let e = 0; e < 2; e++) {
    const l = s.api.leases[e];
    v[L.leaseBase + LEASE_SLOTS * e] = l.holder;
    v[L.leaseBase + LEASE_SLOTS * e + 1] = l.durationSeconds;
    v[L.leaseBase + LEASE_SLOTS * e + 2] = l.transitioned ? 1 : 0;
    v[L.leaseBase + LEASE_SLOTS * e + 3] = l.releasedFor ?? -1;
  }
  if (s.etcd.length !== L.etcdCount || s.apiservers.length !== L.apiserverCount) throw new VectorRangeError('etcd members or kube-apiservers differ from the layout');
  for (let i = 0; i < L.etcdCount; i++) v[L.etcdBase + i] = s.etcd[i] ? 1 : 0;
  for (let i = 0; i < L.apiserverCount; i++) v[L.apiserverBase + i] = s.apiservers[i] ? 1 : 0;
  for (let e = 0; e < 2; e++) {
    const list = s.candidates[e];
    if (list.length !== L.candidateCount[e]) throw new VectorRangeError(`election ${e} has ${list.length} candidates, the layout ${L.candidateCount[e]}`);
    for (let c = 0; c < list.length; c++) encodeCandidate(L, v, L.candidateBase[e] + c * L.candidateWidth[e], list[c], e === 0);
  }
  const budgetKeys = Object.keys(s.budget);
  if (budgetKeys.length !== L.budgetNames.length) throw new VectorRangeError('the budgets differ from the layout');
  L.budgetNames.forEach((b, i) => {
    const x = s.budget[b];
    if (x === undefined) throw new VectorRangeError(`budget ${b} missing`);
    v[L.budgetBase + i] = x;
  });
  v[L.kubeletApiOutage] = s.kubeletApiOutage;
  v[L.sequenceDone] = s.sequenceDone;
  v[L.sequenceIn] = s.sequenceIn;
  // -0 is 0 (one state, as in the key), so that equal states have equal bytes.
  for (let i = 0; i < v.length; i++) if (v[i] === 0) v[i] = 0;
  return v;
}

function encodeCandidate(L: ClusterLayout, v: Float64Array, at: number, k: Candidate, managers: boolean): void {
  v[at + CANDIDATE.flags] = (k.up ? CANDIDATE_FLAG.up : 0) | (k.leader ? CANDIDATE_FLAG.leader : 0) | (k.partitioned ? CANDIDATE_FLAG.partitioned : 0) | (k.unseen ? CANDIDATE_FLAG.unseen : 0);
  v[at + CANDIDATE.afterPause] = code(AFTER_PAUSE_INDEX, k.afterPause, 'afterPause');
  v[at + CANDIDATE.paused] = k.paused;
  v[at + CANDIDATE.rate] = k.rate;
  v[at + CANDIDATE.retryIn] = k.retryIn;
  v[at + CANDIDATE.renewAge] = k.renewAge;
  v[at + CANDIDATE.observedAge] = k.observedAge;
  v[at + CANDIDATE.observedHolder] = k.observedHolder;
  v[at + CANDIDATE.observedDuration] = k.observedDuration;
  v[at + CANDIDATE.assumedPod] = k.assumed === null ? ABSENT : podNameIndex(L, k.assumed.pod);
  v[at + CANDIDATE.assumedNode] = k.assumed === null ? ABSENT : k.assumed.node;
  v[at + CANDIDATE.hasCtrl] = k.ctrl === null ? 0 : 1;
  if (k.ctrl !== null && !managers) throw new VectorRangeError('a kube-scheduler with controllers');
  if (managers) encodeCtrl(L, v, at, k.ctrl);
}

function encodeCtrl(L: ClusterLayout, v: Float64Array, at: number, c: ControllerManagerLocal | null): void {
  const S = L.ctrl;
  const N = L.nodeCount;
  const P = L.podNames.length;
  if (c === null) {
    // A candidate without controllers: its slots hold ABSENT, one value per state.
    v.fill(ABSENT, at + S.monitorIn, at + S.gcMissing + N);
    return;
  }
  if (c.nodes.length !== N || c.gcMissing.length !== N || c.zones.length !== L.zoneCount) throw new VectorRangeError('controller memory of another cluster shape');
  v[at + S.monitorIn] = c.monitorIn;
  v[at + S.gcIn] = c.gcIn;
  v[at + S.disruptionMode] = c.disruptionMode ? 1 : 0;
  for (let n = 0; n < N; n++) {
    const h = c.nodes[n];
    const hat = at + S.health + n * HEALTH_WIDTH;
    v[hat + HEALTH.sinceProbe] = h.sinceProbe;
    v[hat + HEALTH.flags] = (h.unseen ? 1 : 0) | (h.buffered === true ? 2 : 0);
    v[hat + HEALTH.observed] = code(READY_INDEX, h.observed, 'observed Ready');
    v[at + S.gcMissing + n] = c.gcMissing[n];
  }
  for (let z = 0; z < L.zoneCount; z++) {
    v[at + S.zones + 3 * z] = code(ZONE_INDEX, c.zones[z].state, 'zone state');
    v[at + S.zones + 3 * z + 1] = c.zones[z].qps;
    v[at + S.zones + 3 * z + 2] = c.zones[z].tokenIn;
  }
  for (let p = 0; p < P; p++) v[at + S.evictions + p] = ABSENT;
  for (const x of c.evictions) {
    const p = podNameIndex(L, x.pod);
    if (v[at + S.evictions + p] !== ABSENT) throw new VectorRangeError(`eviction of ${x.pod} queued twice`);
    v[at + S.evictions + p] = x.in;
  }
}

// ---- decoding ---------------------------------------------------------------------------------

/** The state vector `v` of layout `L` holds. */
export function decodeCluster(L: ClusterLayout, v: ArrayLike<number>): ClusterState {
  const N = L.nodeCount;
  const P = L.podNames.length;
  const apiNodes: (NodeObject | null)[] = [];
  const nodes: NodeReal[] = [];
  for (let n = 0; n < N; n++) {
    const at = L.nodeBase + n * L.nodeWidth;
    if (v[at + NODE.ready] === ABSENT) apiNodes.push(null);
    else {
      const taints: Taint[] = [];
      const bits = v[at + NODE.taints];
      for (let i = 0; i < TAINT_BITS.length; i++) if (bits & (1 << i)) taints.push(TAINT_BITS[i]);
      apiNodes.push({ ready: READY_CODES[v[at + NODE.ready]], unschedulable: v[at + NODE.unschedulable] === 1, taints });
    }
    const flags = v[at + NODE.flags];
    const running: string[] = [];
    const terminating: Terminating[] = [];
    const c = L.containerBase + n * P;
    for (let p = 0; p < P; p++) {
      const x = v[c + p];
      if (x === NOT_RUNNING) continue;
      running.push(L.podNames[p]);
      if (x >= 0) terminating.push({ pod: L.podNames[p], killIn: x });
    }
    const node: { -readonly [K in keyof NodeReal]: NodeReal[K] } = {
      up: (flags & NODE_FLAG.up) !== 0,
      kubeletUp: (flags & NODE_FLAG.kubeletUp) !== 0,
      partitioned: (flags & NODE_FLAG.partitioned) !== 0,
      heartbeatIn: v[at + NODE.heartbeatIn],
      running,
      sinceHeartbeat: v[at + NODE.sinceHeartbeat],
      sinceNoExecute: v[at + NODE.sinceNoExecute],
      runtimeUp: (flags & NODE_FLAG.runtimeUp) !== 0,
      statusStuck: (flags & NODE_FLAG.statusStuck) !== 0,
      liveFor: v[at + NODE.liveFor],
      runtimeDownFor: v[at + NODE.runtimeDownFor],
    };
    if (terminating.length > 0) node.terminating = terminating;
    if (flags & NODE_FLAG.runtimeErrors) node.runtimeErrors = true;
    if (flags & NODE_FLAG.podWatchStuck) node.podWatchStuck = true;
    if (flags & NODE_FLAG.booting) node.booting = true;
    if (v[at + NODE.shutdownIn] !== ABSENT) node.shutdownIn = v[at + NODE.shutdownIn];
    nodes.push(node);
  }
  const pods: PodObject[] = [];
  for (let p = 0; p < P; p++) {
    const at = L.podBase + p * POD_WIDTH;
    if (v[at + POD.nodeName] === ABSENT) continue;
    const tu = v[at + POD.tolerationUnreachable];
    const tn = v[at + POD.tolerationNotReady];
    const to = v[at + POD.tolerationOutOfService];
    const pod: { -readonly [K in keyof PodObject]: PodObject[K] } = {
      name: L.podNames[p],
      workload: L.podWorkload[p],
      nodeName: v[at + POD.nodeName],
      deletion: DELETION_CODES[v[at + POD.deletion]],
      tolerations: {
        unreachable: tu === FOREVER ? null : tu,
        notReady: tn === FOREVER ? null : tn,
        outOfService: to === FOREVER ? null : to,
        noSchedule: NO_SCHEDULE.filter((t) => (v[at + POD.tolerationNoSchedule] & code(TAINT_INDEX, t, 'taint')) !== 0),
      },
      replacement: v[at + POD.replacement] === 1,
    };
    if (v[at + POD.uid] !== 0) pod.uid = v[at + POD.uid];
    if (v[at + POD.ready] === 1) pod.ready = true;
    pods.push(pod);
  }
  const leases = [0, 1].map((e): LeaseRecord => {
    const at = L.leaseBase + LEASE_SLOTS * e;
    const lease = { holder: v[at], durationSeconds: v[at + 1], transitioned: v[at + 2] === 1 };
    return v[at + 3] >= 0 ? { ...lease, releasedFor: v[at + 3] } : lease;
  });
  const etcd: boolean[] = [];
  for (let i = 0; i < L.etcdCount; i++) etcd.push(v[L.etcdBase + i] === 1);
  const apiservers: boolean[] = [];
  for (let i = 0; i < L.apiserverCount; i++) apiservers.push(v[L.apiserverBase + i] === 1);
  const candidates = [0, 1].map((e) => {
    const list: Candidate[] = [];
    for (let c = 0; c < L.candidateCount[e]; c++) list.push(decodeCandidate(L, v, L.candidateBase[e] + c * L.candidateWidth[e]));
    return list;
  });
  const budget: Record<string, number> = {};
  L.budgetNames.forEach((b, i) => {
    budget[b] = v[L.budgetBase + i];
  });
  return {
    api: { nodes: apiNodes, pods, leases: [leases[0], leases[1]] },
    nodes,
    etcd,
    apiservers,
    candidates: [candidates[0], candidates[1]],
    budget,
    kubeletApiOutage: v[L.kubeletApiOutage],
    sequenceDone: v[L.sequenceDone],
    sequenceIn: v[L.sequenceIn],
  };
}

function decodeCandidate(L: ClusterLayout, v: ArrayLike<number>, at: number): Candidate {
  const flags = v[at + CANDIDATE.flags];
  const assumedPod = v[at + CANDIDATE.assumedPod];
  return {
    up: (flags & CANDIDATE_FLAG.up) !== 0,
    paused: v[at + CANDIDATE.paused],
    partitioned: (flags & CANDIDATE_FLAG.partitioned) !== 0,
    rate: v[at + CANDIDATE.rate],
    leader: (flags & CANDIDATE_FLAG.leader) !== 0,
    retryIn: v[at + CANDIDATE.retryIn],
    renewAge: v[at + CANDIDATE.renewAge],
    observedAge: v[at + CANDIDATE.observedAge],
    observedHolder: v[at + CANDIDATE.observedHolder],
    observedDuration: v[at + CANDIDATE.observedDuration],
    unseen: (flags & CANDIDATE_FLAG.unseen) !== 0,
    ctrl: v[at + CANDIDATE.hasCtrl] === 1 ? decodeCtrl(L, v, at) : null,
    afterPause: AFTER_PAUSE_CODES[v[at + CANDIDATE.afterPause]],
    assumed: assumedPod === ABSENT ? null : { pod: L.podNames[assumedPod], node: v[at + CANDIDATE.assumedNode] },
  };
}

function decodeCtrl(L: ClusterLayout, v: ArrayLike<number>, at: number): ControllerManagerLocal {
  const S = L.ctrl;
  const N = L.nodeCount;
  const health: NodeHealth[] = [];
  const gcMissing: number[] = [];
  for (let n = 0; n < N; n++) {
    const hat = at + S.health + n * HEALTH_WIDTH;
    const flags = v[hat + HEALTH.flags];
    const sinceProbe = v[hat + HEALTH.sinceProbe];
    const unseen = (flags & 1) !== 0;
    const observed = READY_CODES[v[hat + HEALTH.observed]];
    health.push((flags & 2) !== 0 ? { sinceProbe, unseen, buffered: true, observed } : { sinceProbe, unseen, observed });
    gcMissing.push(v[at + S.gcMissing + n]);
  }
  const zones: { state: ZoneState; qps: number; tokenIn: number }[] = [];
  for (let z = 0; z < L.zoneCount; z++) zones.push({ state: ZONE_CODES[v[at + S.zones + 3 * z]], qps: v[at + S.zones + 3 * z + 1], tokenIn: v[at + S.zones + 3 * z + 2] });
  const evictions: { pod: string; in: number }[] = [];
  for (let p = 0; p < L.podNames.length; p++) if (v[at + S.evictions + p] !== ABSENT) evictions.push({ pod: L.podNames[p], in: v[at + S.evictions + p] });
  return { monitorIn: v[at + S.monitorIn], gcIn: v[at + S.gcIn], nodes: health, zones, disruptionMode: v[at + S.disruptionMode] === 1, evictions, gcMissing };
}
