/**
 * The canonical form of a cluster vector under the model's symmetry (nodes of one zone, the pods
 * of one ReplicaSet, the candidates of one election; a DaemonSet's pods move with their node):
 * the orbit plan of `model/symmetry.ts` over a vector's slots. Each node's signature is its block,
 * the signatures of the pods bound to it, the containers running and terminating on it and the
 * controllers' memory of it, written as runs of one buffer and sorted in place; ReplicaSet pods
 * are renamed by (attributes, canonical node, canonical nodes running them); candidates are
 * ordered by the Lease holder and their blocks. The representative is itself a vector of the
 * layout (it decodes to a state of the orbit), written to a reused vector.
 *
 * Exactness: the partition of states it gives is held equal to `canonicalKeyBytes`' on reachable
 * states of every covered stock scenario (`test/model/clusterVector.test.ts`), and the
 * representative decodes to a state of the same orbit. Not re-entrant (module scratch, as in
 * `model/symmetry.ts`); the result is valid until the next call.
 */
import type { Ctx } from '../context.js';
import { sortShort } from '../symmetry.js';
import { ABSENT, CANDIDATE, HEALTH, HEALTH_WIDTH, LEASE_SLOTS, NOT_RUNNING, POD, POD_WIDTH, RUNNING, podNameIndex, type ClusterLayout } from './layout.js';

/** What the canonical form needs to know of a layout and its configuration, computed once. */
interface SymmetryTables {
  /** Per pod name: its label in signatures (a StatefulSet pod's name is its identity; others only their workload's). */
  readonly label: Float64Array;
  /** Per pod name: its workload's index. */
  readonly workload: Float64Array;
  /** Per pod name: whether its label is its identity (StatefulSet). */
  readonly named: Uint8Array;
  /** The pod names of each ReplicaSet, in layout order, and the slot names `<name>-j` in j order. */
  readonly replicaSets: readonly { readonly names: Int32Array; readonly slots: Int32Array }[];
  /** Per DaemonSet: the pod name index of its pod on node n. */
  readonly daemonSets: readonly Int32Array[];
  readonly groups: readonly (readonly number[])[];
  readonly electionSymmetric: readonly [boolean, boolean];
  /** How many pod names the layout has. */
  readonly P: number;
}

const tablesCache = new WeakMap<ClusterLayout, SymmetryTables>();

function tablesOf(ctx: Ctx, L: ClusterLayout): SymmetryTables {
  let t = tablesCache.get(L);
  if (t !== undefined) return t;
  const P = L.podNames.length;
  const label = new Float64Array(P);
  const workload = new Float64Array(P);
  const named = new Uint8Array(P);
  const workloadIndex = new Map(ctx.workloads.map((w, i) => [w.name, i]));
  for (let p = 0; p < P; p++) {
    const w = ctx.workloads[workloadIndex.get(L.podWorkload[p]) ?? -1];
    workload[p] = workloadIndex.get(L.podWorkload[p]) ?? -1;
    named[p] = w === undefined || w.kind === 'StatefulSet' ? 1 : 0;
    // Labels: a StatefulSet pod's own index, others their workload's (past every pod index).
    label[p] = named[p] === 1 ? p : P + workload[p];
  }
  const replicaSets = ctx.workloads
    .filter((w) => w.kind === 'ReplicaSet')
    .map((w) => {
      const names = L.podNames.flatMap((n, p) => (L.podWorkload[p] === w.name ? [p] : []));
      return { names: Int32Array.from(names), slots: Int32Array.from(names.map((_, j) => podNameIndex(L, `${w.name}-${j}`))) };
    });
  const daemonSets = ctx.workloads
    .filter((w) => w.kind === 'DaemonSet')
    .map((w) => Int32Array.from({ length: L.nodeCount }, (_, n) => podNameIndex(L, `${w.name}-node-${n + 1}`)));
  t = { label, workload, named, replicaSets, daemonSets, groups: ctx.symmetricNodeGroups, electionSymmetric: ctx.electionSymmetric, P };
  tablesCache.set(L, t);
  return t;
}

/** Signatures, written one after another as runs of this buffer (grown as needed). */
let B = new Float64Array(4096);
let bl = 0;
function put(x: number): void {
  if (bl === B.length) {
    const grown = new Float64Array(B.length * 2);
    grown.set(B);
    B = grown;
  }
  B[bl++] = x;
}
/** Slot-by-slot order of the runs [a, aEnd) and [b, bEnd) (shorter first on a common prefix). */
function compareRuns(a: number, aEnd: number, b: number, bEnd: number): number {
  const n = Math.min(aEnd - a, bEnd - b);
  for (let i = 0; i < n; i++) if (B[a + i] !== B[b + i]) return B[a + i] < B[b + i] ? -1 : 1;
  return aEnd - a - (bEnd - b);
}
const podAt: number[] = [];
const nodeAt: number[] = [];
const nameAt: number[] = [];
const candAt: number[] = [];
const runsHere: number[] = [];
const order: number[] = [];
const pairA: number[] = [];
const pairB: number[] = [];
/** perm[new] = old node; inv its inverse; rename[old pod] = new pod; renameInv its inverse. */
const perm: number[] = [];
const inv: number[] = [];
let rename = new Int32Array(0);
let renameInv = new Int32Array(0);
const names: number[] = [];
let out = new Float64Array(0);
let fixedFirst = false;

const runOrder = (at: readonly number[], a: number, b: number): number => compareRuns(at[a], at[a + 1], at[b], at[b + 1]);
const byPod = (a: number, b: number): number => runOrder(podAt, a, b) || runsHere[a] - runsHere[b];
const byNode = (a: number, b: number): number => runOrder(nodeAt, a, b) || a - b;
const byName = (a: number, b: number): number => runOrder(nameAt, a, b) || names[a] - names[b];
const byCandidate = (a: number, b: number): number => (fixedFirst ? Number(a !== 0) - Number(b !== 0) : 0) || runOrder(candAt, a, b) || a - b;

/** Writes the pairs (pairA[i], pairB[i]), i < length, sorted, after their count. */
function writePairs(length: number): void {
  for (let i = 1; i < length; i++) {
    const a = pairA[i];
    const b = pairB[i];
    let j = i - 1;
    while (j >= 0 && (pairA[j] > a || (pairA[j] === a && pairB[j] > b))) {
      pairA[j + 1] = pairA[j];
      pairB[j + 1] = pairB[j];
      j--;
    }
    pairA[j + 1] = a;
    pairB[j + 1] = b;
  }
  put(length);
  for (let i = 0; i < length; i++) {
    put(pairA[i]);
    put(pairB[i]);
  }
}

/** Adds pod name `p` to `names[0, count)` unless listed; the new count (`count` when it was listed). */
function listHeld(p: number, count: number): number {
  for (let j = 0; j < count; j++) if (names[j] === p) return count;
  names[count] = p;
  return count + 1;
}

function copyRun(from: number, to: number): void {
  for (let j = from; j < to; j++) put(B[j]);
}

/**
 * The representative of `v`'s orbit: `v` itself when no node, pod or candidate moves, otherwise a
 * reused vector holding it (valid until the next call).
 */
export function canonicalVector(ctx: Ctx, L: ClusterLayout, v: Float64Array): Float64Array {
  const T = tablesOf(ctx, L);
  const N = L.nodeCount;
  const P = T.P;
  const kcmBase = L.candidateBase[0];
  const kcmWidth = L.candidateWidth[0];
  const kcmCount = L.candidateCount[0];
  bl = 0;
  // Pods: attributes, label, and the eviction each controller manager has queued.
  for (let p = 0; p < P; p++) {
    podAt[p] = bl;
    const at = L.podBase + p * POD_WIDTH;
    if (v[at + POD.nodeName] === ABSENT) continue;
    put(T.workload[p]);
    put(v[at + POD.deletion]);
    put(v[at + POD.tolerationUnreachable]);
    put(v[at + POD.tolerationNotReady]);
    put(v[at + POD.replacement]);
    put(v[at + POD.ready]);
    put(T.named[p] === 1 ? p : ABSENT);
    for (let c = 0; c < kcmCount; c++) {
      const k = kcmBase + c * kcmWidth;
      if (v[k + CANDIDATE.hasCtrl] === 1) put(v[k + L.ctrl.evictions + p]);
    }
  }
  podAt[P] = bl;

  // 1. Nodes, within each group.
  const schedBase = L.candidateBase[1];
  const schedWidth = L.candidateWidth[1];
  for (let n = 0; n < N; n++) {
    nodeAt[n] = bl;
    const at = L.nodeBase + n * L.nodeWidth;
    for (let f = 0; f < L.nodeWidth; f++) put(v[at + f]);
    const row = L.containerBase + n * P;
    let bound = 0;
    for (let p = 0; p < P; p++) {
      if (v[L.podBase + p * POD_WIDTH + POD.nodeName] !== n) continue;
      order[bound++] = p;
      runsHere[p] = v[row + p] !== NOT_RUNNING ? 1 : 0;
    }
    sortShort(order, bound, byPod);
    put(bound);
    for (let b = 0; b < bound; b++) {
      const p = order[b];
      copyRun(podAt[p], podAt[p + 1]);
      put(runsHere[p]);
    }
    // Containers running here: of a pod bound here, bound elsewhere, or gone from the API.
    let running = 0;
    for (let p = 0; p < P; p++) {
      if (v[row + p] === NOT_RUNNING) continue;
      const node = v[L.podBase + p * POD_WIDTH + POD.nodeName];
      pairA[running] = T.label[p];
      pairB[running++] = node === ABSENT ? 0 : node === n ? 1 : 2;
    }
    writePairs(running);
    for (let c = 0; c < kcmCount; c++) {
      const k = kcmBase + c * kcmWidth;
      if (v[k + CANDIDATE.hasCtrl] !== 1) continue;
      const h = k + L.ctrl.health + n * HEALTH_WIDTH;
      put(v[h + HEALTH.sinceProbe]);
      put(v[h + HEALTH.flags]);
      put(v[h + HEALTH.observed]);
      put(v[k + L.ctrl.gcMissing + n]);
    }
    let assumed = 0;
    for (let c = 0; c < L.candidateCount[1]; c++) if (v[schedBase + c * schedWidth + CANDIDATE.assumedPod] !== ABSENT && v[schedBase + c * schedWidth + CANDIDATE.assumedNode] === n) assumed++;
    put(assumed);
    if (assumed > 0) {
      for (let c = 0; c < L.candidateCount[1]; c++) {
        const k = schedBase + c * schedWidth;
        if (v[k + CANDIDATE.assumedPod] !== ABSENT && v[k + CANDIDATE.assumedNode] === n) put(T.label[v[k + CANDIDATE.assumedPod]]);
      }
    }
    let terminating = 0;
    for (let p = 0; p < P; p++) {
      const x = v[row + p];
      if (x === NOT_RUNNING || x === RUNNING) continue;
      pairA[terminating] = T.label[p];
      pairB[terminating++] = x;
    }
    writePairs(terminating);
  }
  nodeAt[N] = bl;
  let nodesMoved = false;
  for (let n = 0; n < N; n++) perm[n] = n;
  for (let g = 0; g < T.groups.length; g++) {
    const group = T.groups[g];
    if (group.length < 2) continue;
    for (let i = 0; i < group.length; i++) order[i] = group[i];
    sortShort(order, group.length, byNode);
    for (let i = 0; i < group.length; i++) {
      perm[group[i]] = order[i];
      if (order[i] !== group[i]) nodesMoved = true;
    }
  }
  for (let n = 0; n < N; n++) inv[perm[n]] = n;

  // 2. ReplicaSet pods: renamed by (attributes, canonical node, canonical nodes running them).
  if (rename.length !== P) {
    rename = new Int32Array(P);
    renameInv = new Int32Array(P);
  }
  for (let p = 0; p < P; p++) rename[p] = p;
  let renamed = false;
  for (let r = 0; r < T.replicaSets.length; r++) {
    const rs = T.replicaSets[r];
    let count = 0;
    for (let i = 0; i < rs.names.length; i++) {
      const p = rs.names[i];
      if (v[L.podBase + p * POD_WIDTH + POD.nodeName] !== ABSENT) names[count++] = p;
    }
    for (let n = 0; n < N; n++) {
      const row = L.containerBase + n * P;
      for (let i = 0; i < rs.names.length; i++) {
        const p = rs.names[i];
        if (v[row + p] !== NOT_RUNNING && v[L.podBase + p * POD_WIDTH + POD.nodeName] === ABSENT) count = listHeld(p, count);
      }
    }
    // Names only a controller's memory still holds (see model/symmetry.ts).
    const listedNames = count;
    for (let c = 0; c < kcmCount; c++) {
      const k = kcmBase + c * kcmWidth;
      if (v[k + CANDIDATE.hasCtrl] !== 1) continue;
      for (let i = 0; i < rs.names.length; i++) if (v[k + L.ctrl.evictions + rs.names[i]] !== ABSENT) count = listHeld(rs.names[i], count);
    }
    for (let c = 0; c < L.candidateCount[1]; c++) {
      const a = v[schedBase + c * schedWidth + CANDIDATE.assumedPod];
      if (a !== ABSENT && rs.names.includes(a)) count = listHeld(a, count);
    }
    if (count === 0) continue;
    for (let j = 0; j < count; j++) {
      const p = names[j];
      nameAt[j] = bl;
      const node = v[L.podBase + p * POD_WIDTH + POD.nodeName];
      if (node === ABSENT) put(ABSENT);
      else {
        copyRun(podAt[p], podAt[p + 1]);
        put(node < 0 ? node : inv[node]);
      }
      let on = 0;
      for (let n = 0; n < N; n++) if (v[L.containerBase + n * P + p] !== NOT_RUNNING) on++;
      put(on);
      if (j >= listedNames) {
        for (let c = 0; c < kcmCount; c++) {
          const k = kcmBase + c * kcmWidth;
          if (v[k + CANDIDATE.hasCtrl] === 1) put(v[k + L.ctrl.evictions + p]);
        }
        for (let c = 0; c < L.candidateCount[1]; c++) {
          const k = schedBase + c * schedWidth;
          const node = v[k + CANDIDATE.assumedNode];
          put(v[k + CANDIDATE.assumedPod] !== p ? ABSENT : node < 0 ? node : inv[node]);
        }
      }
      for (let nu = 0; nu < N; nu++) {
        const x = v[L.containerBase + perm[nu] * P + p];
        if (x === NOT_RUNNING) continue;
        put(nu);
        put(x === RUNNING ? ABSENT : x);
      }
    }
    nameAt[count] = bl;
    for (let j = 0; j < count; j++) order[j] = j;
    sortShort(order, count, byName);
    // The names in use take the first slot names in order; the unused ones (no object, container
    // or reference: their slots are empty, so where they go changes nothing) the slots left.
    for (let j = 0; j < count; j++) {
      rename[names[order[j]]] = rs.slots[j];
      if (names[order[j]] !== rs.slots[j]) renamed = true;
    }
    let next = count;
    for (let i = 0; i < rs.names.length; i++) if (listHeld(rs.names[i], count) > count) rename[rs.names[i]] = rs.slots[next++];
  }
  // DaemonSet pods move with their node.
  if (nodesMoved) for (let d = 0; d < T.daemonSets.length; d++) for (let n = 0; n < N; n++) rename[T.daemonSets[d][n]] = T.daemonSets[d][inv[n]];
  if (nodesMoved || renamed) for (let p = 0; p < P; p++) renameInv[rename[p]] = p;

  // 3. The representative under the nodes and names, then the candidates' order.
  let u = v;
  if (nodesMoved || renamed) {
    u = scratch(L.width);
    u.set(v);
    permuteNodesAndPods(L, v, u);
  }
  for (let e = 0; e < 2; e++) {
    const moved = candidateOrder(T, L, u, e);
    if (moved === undefined) continue;
    if (u === v) {
      u = scratch(L.width);
      u.set(v);
    }
    permuteCandidates(L, u, e, moved);
  }
  return u;
}

function scratch(width: number): Float64Array {
  if (out.length !== width) out = new Float64Array(width);
  return out;
}

/** Writes into `u` (a copy of `v`) the nodes moved by `perm` and the pods by `rename`. */
function permuteNodesAndPods(L: ClusterLayout, v: Float64Array, u: Float64Array): void {
  const N = L.nodeCount;
  const P = L.podNames.length;
  const mapNode = (n: number): number => (n < 0 || n === ABSENT ? n : inv[n]);
  for (let nu = 0; nu < N; nu++) {
    const old = perm[nu];
    u.set(v.subarray(L.nodeBase + old * L.nodeWidth, L.nodeBase + (old + 1) * L.nodeWidth), L.nodeBase + nu * L.nodeWidth);
    for (let q = 0; q < P; q++) u[L.containerBase + nu * P + q] = v[L.containerBase + old * P + renameInv[q]];
  }
  for (let q = 0; q < P; q++) {
    const old = renameInv[q];
    u.set(v.subarray(L.podBase + old * POD_WIDTH, L.podBase + (old + 1) * POD_WIDTH), L.podBase + q * POD_WIDTH);
    u[L.podBase + q * POD_WIDTH + POD.nodeName] = mapNode(v[L.podBase + old * POD_WIDTH + POD.nodeName]);
  }
  for (let e = 0; e < 2; e++) {
    for (let c = 0; c < L.candidateCount[e]; c++) {
      const k = L.candidateBase[e] + c * L.candidateWidth[e];
      const a = v[k + CANDIDATE.assumedPod];
      if (a !== ABSENT) {
        u[k + CANDIDATE.assumedPod] = rename[a];
        u[k + CANDIDATE.assumedNode] = mapNode(v[k + CANDIDATE.assumedNode]);
      }
      if (e !== 0 || v[k + CANDIDATE.hasCtrl] !== 1) continue;
      const S = L.ctrl;
      for (let nu = 0; nu < N; nu++) {
        const old = perm[nu];
        for (let f = 0; f < HEALTH_WIDTH; f++) u[k + S.health + nu * HEALTH_WIDTH + f] = v[k + S.health + old * HEALTH_WIDTH + f];
        u[k + S.gcMissing + nu] = v[k + S.gcMissing + old];
      }
      for (let q = 0; q < P; q++) u[k + S.evictions + q] = v[k + S.evictions + renameInv[q]];
    }
  }
}

/** A candidate reference in a signature: none (negative, as is), the candidate itself, another. */
const SELF = 1e9;
const OTHER = 1e9 + 1;
const ref = (h: number, self: number): number => (h < 0 ? h : h === self ? SELF : OTHER);
const SWAPPED: readonly number[] = [1, 0];
const candidateOrderScratch: number[] = [];

/** The order of election e's candidates in the representative (`order[new] = old`), or undefined when it stays. */
function candidateOrder(T: SymmetryTables, L: ClusterLayout, u: Float64Array, e: number): readonly number[] | undefined {
  const count = L.candidateCount[e];
  if (count < 2) return undefined;
  const holder = u[L.leaseBase + LEASE_SLOTS * e];
  fixedFirst = !T.electionSymmetric[e];
  if (count === 2 && (fixedFirst || holder === 0)) return undefined;
  if (count === 2 && holder === 1) return SWAPPED;
  const width = L.candidateWidth[e];
  bl = 0;
  for (let i = 0; i < count; i++) {
    candAt[i] = bl;
    const k = L.candidateBase[e] + i * width;
    put(ref(holder, i));
    for (let f = 0; f < width; f++) put(f === CANDIDATE.observedHolder ? ref(u[k + f], i) : u[k + f]);
  }
  candAt[count] = bl;
  const o = candidateOrderScratch;
  for (let i = 0; i < count; i++) o[i] = i;
  sortShort(o, count, byCandidate);
  for (let i = 0; i < count; i++) if (o[i] !== i) return o.slice(0, count);
  return undefined;
}

/** Applies the order of election e's candidates to `u` in place, with the Lease holder and observed holders remapped. */
function permuteCandidates(L: ClusterLayout, u: Float64Array, e: number, o: readonly number[]): void {
  const count = L.candidateCount[e];
  const width = L.candidateWidth[e];
  const base = L.candidateBase[e];
  const blocks = u.slice(base, base + count * width);
  const cinv: number[] = [];
  for (let nu = 0; nu < count; nu++) cinv[o[nu]] = nu;
  const remap = (h: number): number => (h < 0 ? h : cinv[h]);
  for (let nu = 0; nu < count; nu++) {
    u.set(blocks.subarray(o[nu] * width, (o[nu] + 1) * width), base + nu * width);
    u[base + nu * width + CANDIDATE.observedHolder] = remap(blocks[o[nu] * width + CANDIDATE.observedHolder]);
  }
  u[L.leaseBase + LEASE_SLOTS * e] = remap(u[L.leaseBase + LEASE_SLOTS * e]);
}

/** The bytes of `canonicalVector` (a view of the reused vector or of `v`). */
export function canonicalVectorBytes(ctx: Ctx, L: ClusterLayout, v: Float64Array): Uint8Array {
  const u = canonicalVector(ctx, L, v);
  return new Uint8Array(u.buffer, u.byteOffset, u.byteLength);
}

