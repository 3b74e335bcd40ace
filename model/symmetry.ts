/**
 * Symmetry reduction: nodes of one zone (all nodes have the same spec), the pods of one
 * ReplicaSet (within their workload only), and candidates of one election are interchangeable;
 * a DaemonSet's pods are tied to their node (`<name>-node-<n>` is renamed with node n). `canonicalize` maps a state to a
 * representative of its orbit by sorting each class by a full signature of everything attached
 * to an item (its object, its reality, the controllers' memory of it, the pods bound to and
 * running on it), then renaming references. It is used only for fingerprints; traces stay real.
 *
 * Exactness: nodes with equal signatures carry equal multisets of pods, so any order of them
 * yields the same state once ReplicaSet pods are renamed by (attributes, node). With three or more
 * candidates per election, other candidates are told apart only as "other", which is sound but
 * may keep two representatives of one orbit. The tests compare orbit counts on small models.
 *
 * Cost: the checker computes a canonical key for every state it generates, so the plan, the
 * signatures' offsets and the sort orders live in module-level scratch arrays and the orders are
 * module-level functions over them: a key allocates nothing but what the state's own strings
 * need. None of it is re-entrant (one key at a time; each worker thread has its own module), and
 * a result lives until the next call.
 */
import { daemonPodName } from './config.js';
import type { Ctx } from './context.js';
import { KeyBuffer } from '../checker/keyBuffer.js';
import { ABSENT, IDENTITY_PLAN, readyCode, stateKey, writeCandidate, writeNodeSignatureHead, writePodAttributes, writeStateKey, type KeyPlan } from './key.js';
import type { Candidate, ClusterState, ControllerManagerLocal, NodeReal } from './state.js';

/**
 * How a state maps onto its orbit's representative: nodes (`perm[new] = old`, `inv` its inverse;
 * entries below the node count) and ReplicaSet pods (`renameFrom[i]` is called `renameTo[i]`,
 * i < `renames`; pods that keep their name are not listed). `orbitPlan` refills the one plan.
 */
interface OrbitPlan {
  readonly perm: number[];
  readonly inv: number[];
  readonly renameFrom: string[];
  readonly renameTo: string[];
  /** Renamed ReplicaSet pods (entries of renameFrom/renameTo). */
  renames: number;
  nodesMoved: boolean;
}

const plan: OrbitPlan = { perm: [], inv: [], renameFrom: [], renameTo: [], renames: 0, nodesMoved: false };

/** The buffer signatures and the canonical key are written to (one state's at a time). */
const keyBuffer = new KeyBuffer();

// Scratch of `orbitPlan` and `candidateOrder`. Signatures are runs of the key buffer: pod i's is
// [podAt[i], podAt[i + 1]), node n's [nodeAt[n], nodeAt[n + 1]), and so on.
const podAt: number[] = [];
const nodeAt: number[] = [];
const nameAt: number[] = [];
const candidateAt: number[] = [];
/** Whether pod i's container runs on the node being signed (for the pods bound there). */
const runsHere: number[] = [];
/** Indices being sorted: the pods bound to a node, the nodes of a group, a ReplicaSet's names, candidates. */
const order: number[] = [];
/** A ReplicaSet's pod names: its objects', then containers running without one. */
const names: string[] = [];
/** (label, number) pairs of `writePairs`. */
const pairLabel: string[] = [];
const pairNum: number[] = [];
/** Per election: the candidate order (`order[new] = old`) and its inverse, as `candidateOrder` leaves them. */
const candidateOrders: number[][] = [];
const candidateInvs: number[][] = [];
/** Whether the first candidate of the election being ordered stays first (see `candidateOrder`). */
let fixedFirst = false;

const labelCaches = new WeakMap<Ctx, (name: string) => string>();

/**
 * A pod's label in signatures, per config: a ReplicaSet pod's slot and a DaemonSet pod's node are
 * no identity (`*<workload>`); a StatefulSet pod's name is. Pod names come from a small set, so
 * the labels are kept for the run.
 */
function podLabels(ctx: Ctx): (name: string) => string {
  let labelOf = labelCaches.get(ctx);
  if (labelOf === undefined) {
    const label = new Map<string, string>();
    labelOf = (name: string): string => {
      let l = label.get(name);
      if (l === undefined) {
        const w = ctx.workloadOfPod(name);
        l = w === undefined || w.kind === 'StatefulSet' ? name : `*${w.name}`;
        if (label.size < 100_000) label.set(name, l);
      }
      return l;
    };
    labelCaches.set(ctx, labelOf);
  }
  return labelOf;
}

const byString = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);

/** Sorts `list[0, length)` in place (groups of nodes, candidates, a workload's pods): cheaper than `Array.prototype.sort` at these sizes, and stable. */
export function sortShort<T>(list: T[], length: number, by: (a: T, b: T) => number): void {
  for (let i = 1; i < length; i++) {
    const x = list[i];
    let j = i - 1;
    while (j >= 0 && by(list[j], x) > 0) {
      list[j + 1] = list[j];
      j--;
    }
    list[j + 1] = x;
  }
}

// The orders of the sorts, over the signatures written so far.
const runOrder = (at: readonly number[], a: number, b: number): number => keyBuffer.compareRuns(at[a], at[a + 1], at[b], at[b + 1]);
const byPodSignature = (a: number, b: number): number => runOrder(podAt, a, b) || runsHere[a] - runsHere[b];
const byNodeSignature = (a: number, b: number): number => runOrder(nodeAt, a, b) || a - b;
const byNameSignature = (a: number, b: number): number => runOrder(nameAt, a, b) || byString(names[a], names[b]);
const byCandidateSignature = (a: number, b: number): number => (fixedFirst ? Number(a !== 0) - Number(b !== 0) : 0) || runOrder(candidateAt, a, b) || a - b;

/** The pairs `pairLabel[i], pairNum[i]` (i < length) written sorted: count, then each label and number. */
function writePairs(w: KeyBuffer, length: number): void {
  for (let i = 1; i < length; i++) {
    const label = pairLabel[i];
    const x = pairNum[i];
    let j = i - 1;
    while (j >= 0 && (byString(pairLabel[j], label) || pairNum[j] - x) > 0) {
      pairLabel[j + 1] = pairLabel[j];
      pairNum[j + 1] = pairNum[j];
      j--;
    }
    pairLabel[j + 1] = label;
    pairNum[j + 1] = x;
  }
  w.num(length);
  for (let i = 0; i < length; i++) {
    w.text(pairLabel[i]);
    w.num(pairNum[i]);
  }
}

/** Writes again the slots [from, to) written before. */
function copyRun(w: KeyBuffer, from: number, to: number): void {
  for (let j = from; j < to; j++) w.num(w.slot(j));
}

/** The index of the pod object named `name` (pods are few), or -1. */
function podIndexOf(pods: ClusterState['api']['pods'], name: string): number {
  for (let i = pods.length - 1; i >= 0; i--) if (pods[i].name === name) return i;
  return -1;
}

/** The countdown of the eviction a controller manager has queued for `pod`, or ABSENT. */
function evictionIn(ctrl: ControllerManagerLocal, pod: string): number {
  const list = ctrl.evictions;
  for (let i = 0; i < list.length; i++) if (list[i].pod === pod) return list[i].in;
  return ABSENT;
}

/** The grace period left of `pod`'s terminating containers on the node, or ABSENT. */
function killIn(node: NodeReal, pod: string): number {
  const list = node.terminating;
  if (list !== undefined) for (let i = 0; i < list.length; i++) if (list[i].pod === pod) return list[i].killIn;
  return ABSENT;
}

const NONE: readonly never[] = [];

const slotNameCache = new Map<string, string[]>();

/** `<workload>-<j>` for j < count: the names a ReplicaSet's pods get in a representative. */
function slotNames(workload: string, count: number): readonly string[] {
  let list = slotNameCache.get(workload);
  if (list === undefined) slotNameCache.set(workload, (list = []));
  while (list.length < count) list.push(`${workload}-${list.length}`);
  return list;
}

function includes(list: readonly string[], length: number, name: string): boolean {
  for (let i = 0; i < length; i++) if (list[i] === name) return true;
  return false;
}

/**
 * Steps 1 and 2 of the canonical form: the node permutation within each zone and the renaming of
 * ReplicaSet pods, from signatures of everything attached to a node and to a pod. Signatures are
 * runs of numbers written one after another to the key buffer and sorted in place; their order
 * is any fixed order of their values (no process-local numbering), so every worker picks the
 * same representative. Fills and returns the module's one plan.
 */
function orbitPlan(ctx: Ctx, s: ClusterState): OrbitPlan {
  const N = s.nodes.length;
  const pods = s.api.pods;
  const kcm = s.candidates[0];
  const labelOf = podLabels(ctx);
  const w = keyBuffer.reset();
  // A pod's attributes: its object but name and node (a StatefulSet pod's name is its identity),
  // and its eviction timer in each leading controller manager's memory.
  for (let i = 0; i < pods.length; i++) {
    const p = pods[i];
    podAt[i] = w.size;
    writePodAttributes(w, p);
    if (labelOf(p.name) === p.name) w.text(p.name);
    else w.num(ABSENT);
    for (let c = 0; c < kcm.length; c++) {
      const ctrl = kcm[c].ctrl;
      if (ctrl !== null) w.num(evictionIn(ctrl, p.name));
    }
  }
  podAt[pods.length] = w.size;

  // 1. Nodes, within each zone.
  for (let n = 0; n < N; n++) {
    const real = s.nodes[n];
    nodeAt[n] = w.size;
    writeNodeSignatureHead(w, s.api.nodes[n], real);
    let bound = 0;
    for (let i = 0; i < pods.length; i++) {
      if (pods[i].nodeName !== n) continue;
      order[bound++] = i;
      runsHere[i] = real.running.includes(pods[i].name) ? 1 : 0;
    }
    sortShort(order, bound, byPodSignature);
    w.num(bound);
    for (let b = 0; b < bound; b++) {
      const i = order[b];
      copyRun(w, podAt[i], podAt[i + 1]);
      w.num(runsHere[i]);
    }
    // Containers running here: of a pod bound here, bound elsewhere, or gone from the API.
    const running = real.running;
    for (let r = 0; r < running.length; r++) {
      const i = podIndexOf(pods, running[r]);
      pairLabel[r] = labelOf(running[r]);
      pairNum[r] = i < 0 ? 0 : pods[i].nodeName === n ? 1 : 2;
    }
    writePairs(w, running.length);
    for (let c = 0; c < kcm.length; c++) {
      const ctrl = kcm[c].ctrl;
      if (ctrl === null) continue;
      const h = ctrl.nodes[n];
      w.num(h.sinceProbe);
      w.num((h.unseen ? 1 : 0) | (h.buffered === true ? 2 : 0));
      w.num(readyCode(h.observed));
      w.num(ctrl.gcMissing[n]);
    }
    // Pods a scheduler has assumed onto it, in the schedulers' order.
    const schedulers = s.candidates[1];
    let assumed = 0;
    for (let c = 0; c < schedulers.length; c++) if (schedulers[c].assumed?.node === n) assumed++;
    w.num(assumed);
    if (assumed > 0) {
      for (let c = 0; c < schedulers.length; c++) {
        const a = schedulers[c].assumed;
        if (a !== null && a.node === n) w.text(labelOf(a.pod));
      }
    }
    const terminating = real.terminating ?? NONE;
    for (let t = 0; t < terminating.length; t++) {
      pairLabel[t] = labelOf(terminating[t].pod);
      pairNum[t] = terminating[t].killIn;
    }
    writePairs(w, terminating.length);
  }
  nodeAt[N] = w.size;
  const { perm, inv } = plan;
  for (let n = 0; n < N; n++) perm[n] = n;
  plan.nodesMoved = false;
  const groups = ctx.symmetricNodeGroups;
  for (let g = 0; g < groups.length; g++) {
    const group = groups[g];
    if (group.length < 2) continue;
    for (let i = 0; i < group.length; i++) order[i] = group[i];
    sortShort(order, group.length, byNodeSignature);
    for (let i = 0; i < group.length; i++) {
      perm[group[i]] = order[i];
      if (order[i] !== group[i]) plan.nodesMoved = true;
    }
  }
  for (let n = 0; n < N; n++) inv[perm[n]] = n;

  // 2. ReplicaSet pods, per workload: rename by (attributes, canonical node, canonical nodes running it).
  plan.renames = 0;
  const workloads = ctx.workloads;
  const held = holdsNames(s);
  for (let k = 0; k < workloads.length; k++) {
    const wl = workloads[k];
    if (wl.kind !== 'ReplicaSet') continue;
    let count = 0;
    for (let i = 0; i < pods.length; i++) if (pods[i].workload === wl.name) names[count++] = pods[i].name;
    for (let n = 0; n < N; n++) {
      const running = s.nodes[n].running;
      for (let r = 0; r < running.length; r++) count = listName(ctx, wl, running[r], count);
    }
    // Names only a controller's memory still holds (an eviction a paused manager queued, a pod a
    // scheduler assumed), once the object and its containers are gone: renamed with the others,
    // so that the renaming stays one-to-one.
    const listed = count;
    if (held) count = listHeldNames(ctx, s, wl, count);
    if (count === 0) continue;
    for (let j = 0; j < count; j++) {
      const name = names[j];
      nameAt[j] = w.size;
      const i = podIndexOf(pods, name);
      if (i < 0) w.num(ABSENT);
      else {
        copyRun(w, podAt[i], podAt[i + 1]);
        w.num(pods[i].nodeName < 0 ? pods[i].nodeName : inv[pods[i].nodeName]);
      }
      // The canonical nodes running it, ascending, with its grace period left there.
      let on = 0;
      for (let n = 0; n < N; n++) if (s.nodes[n].running.includes(name)) on++;
      w.num(on);
      if (j >= listed) writeHeldReferences(w, s, name, inv);
      for (let nu = 0; nu < N; nu++) {
        const node = s.nodes[perm[nu]];
        if (!node.running.includes(name)) continue;
        w.num(nu);
        w.num(killIn(node, name));
      }
    }
    nameAt[count] = w.size;
    for (let j = 0; j < count; j++) order[j] = j;
    sortShort(order, count, byNameSignature);
    const slots = slotNames(wl.name, count);
    for (let j = 0; j < count; j++) {
      const nu = slots[j];
      if (nu === names[order[j]]) continue;
      plan.renameFrom[plan.renames] = names[order[j]];
      plan.renameTo[plan.renames] = nu;
      plan.renames++;
    }
  }
  return plan;
}

/** Whether some controller's memory holds pod names: a queued eviction, a pod a scheduler assumed. */
function holdsNames(s: ClusterState): boolean {
  const kcm = s.candidates[0];
  for (let c = 0; c < kcm.length; c++) {
    const ctrl = kcm[c].ctrl;
    if (ctrl !== null && ctrl.evictions.length > 0) return true;
  }
  const schedulers = s.candidates[1];
  for (let c = 0; c < schedulers.length; c++) if (schedulers[c].assumed !== null) return true;
  return false;
}

/** Adds to `names[0, count)` the pods of ReplicaSet `wl` that controllers' memory holds and that are not listed yet; the new count. */
function listHeldNames(ctx: Ctx, s: ClusterState, wl: Ctx['workloads'][number], count: number): number {
  const kcm = s.candidates[0];
  for (let c = 0; c < kcm.length; c++) {
    const ctrl = kcm[c].ctrl;
    if (ctrl !== null) for (let x = 0; x < ctrl.evictions.length; x++) count = listName(ctx, wl, ctrl.evictions[x].pod, count);
  }
  const schedulers = s.candidates[1];
  for (let c = 0; c < schedulers.length; c++) {
    const a = schedulers[c].assumed;
    if (a !== null) count = listName(ctx, wl, a.pod, count);
  }
  return count;
}

/** Adds `name` to `names[0, count)` when it is a pod of `wl` not listed yet; the new count. */
function listName(ctx: Ctx, wl: Ctx['workloads'][number], name: string, count: number): number {
  if (ctx.workloadOfPod(name) !== wl || includes(names, count, name)) return count;
  names[count] = name;
  return count + 1;
}

/**
 * The signature of a name only controllers' memory holds: the eviction each controller manager
 * has queued for it and the canonical node each scheduler assumed it onto (or ABSENT).
 */
function writeHeldReferences(w: KeyBuffer, s: ClusterState, name: string, inv: readonly number[]): void {
  const kcm = s.candidates[0];
  for (let c = 0; c < kcm.length; c++) {
    const ctrl = kcm[c].ctrl;
    if (ctrl !== null) w.num(evictionIn(ctrl, name));
  }
  const schedulers = s.candidates[1];
  for (let c = 0; c < schedulers.length; c++) {
    const a = schedulers[c].assumed;
    w.num(a === null || a.pod !== name ? ABSENT : a.node < 0 ? a.node : inv[a.node]);
  }
}

/** A pod's name under the current plan: ReplicaSet pods renamed, DaemonSet pods moved with their node once `addDaemonRenames` ran. */
function renamedPod(name: string): string {
  for (let i = 0; i < plan.renames; i++) if (plan.renameFrom[i] === name) return plan.renameTo[i];
  return name;
}

/** Adds the DaemonSet pods to the plan's renames: each moves with its node. */
function addDaemonRenames(ctx: Ctx, N: number): void {
  const daemonSets = daemonSetNames(ctx);
  for (let d = 0; d < daemonSets.length; d++) {
    const onNode = daemonPodNames(daemonSets[d], N);
    for (let n = 0; n < N; n++) {
      if (plan.inv[n] === n) continue;
      plan.renameFrom[plan.renames] = onNode[n];
      plan.renameTo[plan.renames] = onNode[plan.inv[n]];
      plan.renames++;
    }
  }
}

/** A leader reference as a signature sees it: none (negative, as is), the candidate itself, another. */
const SELF = 1e9;
const OTHER = 1e9 + 1;
const ref = (h: number, self: number): number => (h < 0 ? h : h === self ? SELF : OTHER);

/**
 * Step 3: the order of the candidates of election `e` (`order[new] = old`, entries below the
 * list's length; the election's scratch array, valid until its next call), or undefined when it
 * stays. A candidate's signature is its key under `keyPlan` with the holder and its observed
 * holder told apart only as itself or another.
 */
function candidateOrder(ctx: Ctx, holder: number, list: readonly Candidate[], e: number, keyPlan: KeyPlan): readonly number[] | undefined {
  if (list.length < 2) return undefined;
  // Candidates with other leader-election settings than the first are not interchangeable with it.
  fixedFirst = !ctx.electionSymmetric[e];
  // Two candidates are ordered by their first slots alone when the first is fixed or one holds
  // the Lease (itself before another): their signatures need not be written.
  if (list.length === 2 && (fixedFirst || holder === 0)) return undefined;
  if (list.length === 2 && holder === 1) return SWAPPED;
  const w = keyBuffer.reset();
  for (let i = 0; i < list.length; i++) {
    candidateAt[i] = w.size;
    w.num(ref(holder, i));
    writeCandidate(w, list[i], ref(list[i].observedHolder, i), keyPlan);
  }
  candidateAt[list.length] = w.size;
  const out = (candidateOrders[e] ??= []);
  for (let i = 0; i < list.length; i++) out[i] = i;
  sortShort(out, list.length, byCandidateSignature);
  for (let i = 0; i < list.length; i++) if (out[i] !== i) return out;
  return undefined;
}

const SWAPPED: readonly number[] = Object.freeze([1, 0]);

/** The inverse of `order[0, length)`, written to `into`. */
function inverseOf(order: readonly number[], length: number, into: number[]): number[] {
  for (let nu = 0; nu < length; nu++) into[order[nu]] = nu;
  return into;
}

export function canonicalize(ctx: Ctx, s: ClusterState): ClusterState {
  const p = orbitPlan(ctx, s);
  let state = s;
  if (p.nodesMoved || p.renames > 0) {
    const rename = new Map<string, string>();
    for (let i = 0; i < p.renames; i++) rename.set(p.renameFrom[i], p.renameTo[i]);
    state = permuteNodesAndPods(s, p.perm.slice(0, s.nodes.length), rename, p.nodesMoved ? daemonSetNames(ctx) : []);
  }

  // 3. Candidates of each election.
  let candidatesMoved = false;
  const leases = [...state.api.leases] as [ClusterState['api']['leases'][0], ClusterState['api']['leases'][1]];
  const candidates = state.candidates.map((list, e) => {
    const holder = state.api.leases[e].holder;
    const scratch = candidateOrder(ctx, holder, list, e, IDENTITY_PLAN);
    if (scratch === undefined) return list;
    candidatesMoved = true;
    const order = scratch.slice(0, list.length);
    const cinv = inverseOf(order, order.length, []);
    const remap = (h: number): number => (h < 0 ? h : cinv[h]);
    leases[e] = { ...state.api.leases[e], holder: remap(holder) };
    return order.map((old) => ({ ...list[old], observedHolder: remap(list[old].observedHolder) }) as Candidate);
  });
  if (!candidatesMoved) return state;
  return { ...state, api: { ...state.api, leases }, candidates: candidates as unknown as ClusterState['candidates'] };
}

/** The plan `canonicalKeyBytes` writes a key under, refilled per call. */
const keyOrders: (readonly number[] | undefined)[] = [];
const keyCinvs: (readonly number[] | undefined)[] = [];
const keyPlan: { -readonly [K in keyof KeyPlan]: KeyPlan[K] } = { perm: undefined, inv: undefined, rn: undefined, orders: keyOrders, cinvs: keyCinvs };

/**
 * `stateKey(canonicalize(ctx, s))` as numbers, computed without building the canonical state: the
 * checker's fingerprint of a state under symmetry. Two states get equal bytes exactly when their
 * two-step keys are equal; the tests hold the two partitions equal on reachable states of every
 * stock scenario. The bytes are a view of a buffer the next call reuses.
 */
export function canonicalKeyBytes(ctx: Ctx, s: ClusterState): Uint8Array {
  const w = keyBuffer;
  if (s.informers !== undefined) {
    const text = stateKey(canonicalize(ctx, s)); // (canonicalize writes signatures to the buffer)
    w.reset().text(text);
    return w.bytes();
  }
  const p = orbitPlan(ctx, s);
  const moved = p.nodesMoved || p.renames > 0;
  if (p.nodesMoved) addDaemonRenames(ctx, s.nodes.length);
  keyPlan.perm = moved ? p.perm : undefined;
  keyPlan.inv = moved ? p.inv : undefined;
  keyPlan.rn = moved ? renamedPod : undefined;
  // (candidateOrder reads the plan's nodes and names, not its candidate orders.)
  let candidatesMoved = false;
  for (let e = 0; e < s.candidates.length; e++) {
    const list = s.candidates[e];
    const order = candidateOrder(ctx, s.api.leases[e].holder, list, e, keyPlan);
    keyOrders[e] = order;
    keyCinvs[e] = order === undefined ? undefined : inverseOf(order, list.length, (candidateInvs[e] ??= []));
    if (order !== undefined) candidatesMoved = true;
  }
  w.reset();
  writeStateKey(w, s, moved || candidatesMoved ? keyPlan : IDENTITY_PLAN);
  return w.bytes();
}

/**
 * `stateKey(s)` as numbers, under no permutation: the fingerprint of a state where nothing is
 * merged by symmetry (informer caches, or symmetry turned off), written to the reused buffer as
 * `canonicalKeyBytes` writes its key (the bytes are valid until the next call).
 */
export function plainKeyBytes(s: ClusterState): Uint8Array {
  const w = keyBuffer.reset();
  writeStateKey(w, s, IDENTITY_PLAN);
  return w.bytes();
}

const daemonSetNamesCache = new WeakMap<Ctx, readonly string[]>();

/** The names of the DaemonSets of the config. */
function daemonSetNames(ctx: Ctx): readonly string[] {
  let names = daemonSetNamesCache.get(ctx);
  if (names === undefined) {
    names = ctx.workloads.filter((w) => w.kind === 'DaemonSet').map((w) => w.name);
    daemonSetNamesCache.set(ctx, names);
  }
  return names;
}

const daemonPodNameCache = new Map<string, string[]>();

/** `daemonPodName(workload, n)` for n < count, kept for the run. */
function daemonPodNames(workload: string, count: number): readonly string[] {
  let list = daemonPodNameCache.get(workload);
  if (list === undefined) daemonPodNameCache.set(workload, (list = []));
  while (list.length < count) list.push(daemonPodName(workload, list.length));
  return list;
}

/**
 * Applies a node permutation (`perm[new] = old`) and a renaming of ReplicaSet pods to a state;
 * the pods of the DaemonSets named in `daemonSets` move with their node (`<name>-node-<n>`).
 * Exported for tests, which compare `canonicalize` against brute force over all permutations.
 */
export function permuteNodesAndPods(s: ClusterState, perm: readonly number[], rename: ReadonlyMap<string, string>, daemonSets: readonly string[] = []): ClusterState {
  const inv = new Array<number>(perm.length);
  perm.forEach((old, nu) => (inv[old] = nu));
  const mapNode = (n: number): number => (n < 0 ? n : inv[n]);
  let names = rename;
  if (daemonSets.length > 0) {
    const withDaemons = new Map(rename);
    for (const d of daemonSets) for (let n = 0; n < perm.length; n++) if (inv[n] !== n) withDaemons.set(daemonPodName(d, n), daemonPodName(d, inv[n]));
    names = withDaemons;
  }
  const rn = (name: string): string => names.get(name) ?? name;
  const mapCtrl = (c: ControllerManagerLocal | null): ControllerManagerLocal | null =>
    c === null
      ? null
      : {
          ...c,
          nodes: perm.map((old) => c.nodes[old]),
          gcMissing: perm.map((old) => c.gcMissing[old]),
          evictions: c.evictions.map((x) => ({ pod: rn(x.pod), in: x.in })).sort((a, b) => byString(a.pod, b.pod)),
        };
  return {
    ...s,
    api: {
      nodes: perm.map((old) => s.api.nodes[old]),
      pods: s.api.pods.map((p) => ({ ...p, name: rn(p.name), nodeName: mapNode(p.nodeName) })).sort((a, b) => byString(a.name, b.name)),
      leases: s.api.leases,
      ...(s.api.scale === undefined ? {} : { scale: s.api.scale }),
      // Claims bind to zones here (local volumes turn node symmetry off), which the permutation keeps.
      ...(s.api.claims === undefined ? {} : { claims: s.api.claims }),
    },
    nodes: perm.map((old) => {
      const node = s.nodes[old];
      const running = node.running.map(rn).sort();
      if (node.terminating === undefined) return { ...node, running };
      const terminating = node.terminating.map((t) => ({ pod: rn(t.pod), killIn: t.killIn })).sort((a, b) => byString(a.pod, b.pod));
      return { ...node, running, terminating };
    }),
    candidates: s.candidates.map((list) =>
      list.map((k) => {
        if (k.ctrl === null && k.assumed === null) return k;
        return { ...k, ctrl: mapCtrl(k.ctrl), assumed: k.assumed === null ? null : { pod: rn(k.assumed.pod), node: mapNode(k.assumed.node) } };
      }),
    ) as unknown as ClusterState['candidates'],
  };
}

/** Applies a permutation of the candidates of election `e` (`order[new] = old`). */
export function permuteCandidates(s: ClusterState, e: number, order: readonly number[]): ClusterState {
  const cinv = new Array<number>(order.length);
  order.forEach((old, nu) => (cinv[old] = nu));
  const remap = (h: number): number => (h < 0 ? h : cinv[h]);
  const list = s.candidates[e];
  const leases = [...s.api.leases] as [ClusterState['api']['leases'][0], ClusterState['api']['leases'][1]];
  leases[e] = { ...s.api.leases[e], holder: remap(s.api.leases[e].holder) };
  const candidates = [...s.candidates] as unknown as Candidate[][];
  candidates[e] = order.map((old) => ({ ...list[old], observedHolder: remap(list[old].observedHolder) }));
  return { ...s, api: { ...s.api, leases }, candidates: candidates as unknown as ClusterState['candidates'] };
}
