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
 */
import { daemonPodName } from './config.js';
import type { Ctx } from './context.js';
import { KeyBuffer } from '../checker/keyBuffer.js';
import { ABSENT, IDENTITY_PLAN, readyCode, stateKey, writeCandidate, writeNodeSignatureHead, writePodAttributes, writeStateKey, type KeyPlan } from './key.js';
import type { Candidate, ClusterState, ControllerManagerLocal, PodObject } from './state.js';


/** How a state maps onto its orbit's representative: nodes (`perm[new] = old`) and ReplicaSet pods. */
interface OrbitPlan {
  readonly perm: readonly number[];
  readonly inv: readonly number[];
  readonly rename: ReadonlyMap<string, string>;
  readonly nodesMoved: boolean;
  readonly renamed: boolean;
}

/** The buffer signatures and the canonical key are written to (one state's at a time). */
const keyBuffer = new KeyBuffer();

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

/** Sorts a short list in place (groups of nodes, candidates, a workload's pods): cheaper than `Array.prototype.sort` at these sizes. */
function sortShort<T>(list: T[], order: (a: T, b: T) => number): T[] {
  for (let i = 1; i < list.length; i++) {
    const x = list[i];
    let j = i - 1;
    while (j >= 0 && order(list[j], x) > 0) {
      list[j + 1] = list[j];
      j--;
    }
    list[j + 1] = x;
  }
  return list;
}

/** A list of (label, number) pairs written sorted: count, then each label and number. */
function writePairs(w: KeyBuffer, pairs: [string, number][]): void {
  if (pairs.length > 1) sortShort(pairs, (a, b) => byString(a[0], b[0]) || a[1] - b[1]);
  w.num(pairs.length);
  for (const [label, x] of pairs) {
    w.text(label);
    w.num(x);
  }
}

/**
 * Steps 1 and 2 of the canonical form: the node permutation within each zone and the renaming of
 * ReplicaSet pods, from signatures of everything attached to a node and to a pod. Signatures are
 * runs of numbers written one after another to the key buffer and sorted in place; their order
 * is any fixed order of their values (no process-local numbering), so every worker picks the
 * same representative.
 */
function orbitPlan(ctx: Ctx, s: ClusterState): OrbitPlan {
  const N = s.nodes.length;
  const pods = s.api.pods;
  const kcm = s.candidates[0];
  const labelOf = podLabels(ctx);
  const w = keyBuffer.reset();
  const podIndex = new Map<string, number>();
  // A pod's attributes: its object but name and node (a StatefulSet pod's name is its identity),
  // and its eviction timer in each leading controller manager's memory. Run i: [podAt[i], podAt[i + 1]).
  const podAt = new Array<number>(pods.length + 1);
  for (let i = 0; i < pods.length; i++) {
    const p = pods[i];
    podIndex.set(p.name, i);
    podAt[i] = w.size;
    writePodAttributes(w, p);
    if (labelOf(p.name) === p.name) w.text(p.name);
    else w.num(ABSENT);
    for (const k of kcm) {
      if (k.ctrl === null) continue;
      const x = k.ctrl.evictions.find((e) => e.pod === p.name);
      w.num(x === undefined ? ABSENT : x.in);
    }
  }
  podAt[pods.length] = w.size;
  const podOrder = (a: number, b: number): number => w.compareRuns(podAt[a], podAt[a + 1], podAt[b], podAt[b + 1]);
  const copyPod = (i: number): void => {
    for (let j = podAt[i]; j < podAt[i + 1]; j++) w.num(w.slot(j));
  };

  // 1. Nodes, within each zone. Signature n: [nodeAt[n], nodeAt[n + 1]).
  const nodeAt = new Array<number>(N + 1);
  for (let n = 0; n < N; n++) {
    const real = s.nodes[n];
    nodeAt[n] = w.size;
    writeNodeSignatureHead(w, s.api.nodes[n], real);
    const bound: number[] = [];
    for (let i = 0; i < pods.length; i++) if (pods[i].nodeName === n) bound.push(i);
    const runsHere = (i: number): number => (real.running.includes(pods[i].name) ? 1 : 0);
    if (bound.length > 1) sortShort(bound, (a, b) => podOrder(a, b) || runsHere(a) - runsHere(b));
    w.num(bound.length);
    for (const i of bound) {
      copyPod(i);
      w.num(runsHere(i));
    }
    // Containers running here: of a pod bound here, bound elsewhere, or gone from the API.
    writePairs(w, real.running.map((name): [string, number] => {
      const i = podIndex.get(name);
      return [labelOf(name), i === undefined ? 0 : pods[i].nodeName === n ? 1 : 2];
    }));
    for (const k of kcm) {
      if (k.ctrl === null) continue;
      const h = k.ctrl.nodes[n];
      w.num(h.sinceProbe);
      w.num((h.unseen ? 1 : 0) | (h.buffered === true ? 2 : 0));
      w.num(readyCode(h.observed));
      w.num(k.ctrl.gcMissing[n]);
    }
    // Pods a scheduler has assumed onto it, in the schedulers' order.
    let assumed = 0;
    for (const k of s.candidates[1]) if (k.assumed !== null && k.assumed.node === n) assumed++;
    w.num(assumed);
    if (assumed > 0) for (const k of s.candidates[1]) if (k.assumed !== null && k.assumed.node === n) w.text(labelOf(k.assumed.pod));
    writePairs(w, real.terminating === undefined ? [] : real.terminating.map((t): [string, number] => [labelOf(t.pod), t.killIn]));
  }
  nodeAt[N] = w.size;
  const perm = new Array<number>(N); // perm[new] = old
  for (let n = 0; n < N; n++) perm[n] = n;
  let nodesMoved = false;
  for (const group of ctx.symmetricNodeGroups) {
    if (group.length < 2) continue;
    const sorted = sortShort([...group], (a, b) => w.compareRuns(nodeAt[a], nodeAt[a + 1], nodeAt[b], nodeAt[b + 1]) || a - b);
    for (let i = 0; i < group.length; i++) {
      perm[group[i]] = sorted[i];
      if (sorted[i] !== group[i]) nodesMoved = true;
    }
  }
  const inv = new Array<number>(N);
  for (let n = 0; n < N; n++) inv[perm[n]] = n;

  // 2. ReplicaSet pods, per workload: rename by (attributes, canonical node, canonical nodes running it).
  const rename = new Map<string, string>();
  let renamed = false;
  for (const wl of ctx.workloads) {
    if (wl.kind !== 'ReplicaSet') continue;
    const names: string[] = [];
    for (const p of pods) if (p.workload === wl.name) names.push(p.name);
    for (const n of s.nodes) for (const r of n.running) if (ctx.workloadOfPod(r) === wl && !names.includes(r)) names.push(r);
    if (names.length === 0) continue;
    // Signature of names[j]: [at[j], at[j + 1]).
    const at = new Array<number>(names.length + 1);
    for (let j = 0; j < names.length; j++) {
      const name = names[j];
      at[j] = w.size;
      const i = podIndex.get(name);
      if (i === undefined) w.num(ABSENT);
      else {
        copyPod(i);
        w.num(pods[i].nodeName < 0 ? pods[i].nodeName : inv[pods[i].nodeName]);
      }
      const on: [number, number][] = [];
      for (let n = 0; n < N; n++) {
        const node = s.nodes[n];
        if (!node.running.includes(name)) continue;
        const t = node.terminating?.find((x) => x.pod === name);
        on.push([inv[n], t === undefined ? ABSENT : t.killIn]);
      }
      if (on.length > 1) sortShort(on, (a, b) => a[0] - b[0] || a[1] - b[1]);
      w.num(on.length);
      for (const [n, killIn] of on) {
        w.num(n);
        w.num(killIn);
      }
    }
    at[names.length] = w.size;
    const order = sortShort(names.map((_, j) => j), (a, b) => w.compareRuns(at[a], at[a + 1], at[b], at[b + 1]) || byString(names[a], names[b]));
    for (let k = 0; k < order.length; k++) {
      const nu = `${wl.name}-${k}`;
      rename.set(names[order[k]], nu);
      if (nu !== names[order[k]]) renamed = true;
    }
  }
  return { perm, inv, rename, nodesMoved, renamed };
}

/** The names a plan gives pods: ReplicaSet pods renamed, DaemonSet pods moved with their node. */
function podNames(ctx: Ctx, plan: OrbitPlan): ReadonlyMap<string, string> {
  if (!plan.nodesMoved) return plan.rename;
  const daemonSets = daemonSetNames(ctx);
  if (daemonSets.length === 0) return plan.rename;
  const names = new Map(plan.rename);
  for (const d of daemonSets) for (let n = 0; n < plan.perm.length; n++) if (plan.inv[n] !== n) names.set(daemonPodName(d, n), daemonPodName(d, plan.inv[n]));
  return names;
}

/** A leader reference as a signature sees it: none (negative, as is), the candidate itself, another. */
const SELF = 1e9;
const OTHER = 1e9 + 1;
const ref = (h: number, self: number): number => (h < 0 ? h : h === self ? SELF : OTHER);

/**
 * Step 3: the order of the candidates of election `e` (`order[new] = old`), or undefined when it
 * stays. A candidate's signature is its key under `plan` with the holder and its observed holder
 * told apart only as itself or another.
 */
function candidateOrder(ctx: Ctx, holder: number, list: readonly Candidate[], e: number, plan: KeyPlan): number[] | undefined {
  if (list.length < 2) return undefined;
  // Candidates with other leader-election settings than the first are not interchangeable with it.
  const fixedFirst = !ctx.electionSymmetric[e];
  const w = keyBuffer.reset();
  // Signature i is slots [at[i], at[i + 1]) of the buffer.
  const at = new Array<number>(list.length + 1);
  for (let i = 0; i < list.length; i++) {
    at[i] = w.size;
    w.num(ref(holder, i));
    writeCandidate(w, list[i], ref(list[i].observedHolder, i), plan);
  }
  at[list.length] = w.size;
  const order = sortShort(list.map((_, i) => i), (a, b) => (fixedFirst ? Number(a !== 0) - Number(b !== 0) : 0) || w.compareRuns(at[a], at[a + 1], at[b], at[b + 1]) || a - b);
  return order.every((old, nu) => old === nu) ? undefined : order;
}

export function canonicalize(ctx: Ctx, s: ClusterState): ClusterState {
  const plan = orbitPlan(ctx, s);
  const state = plan.nodesMoved || plan.renamed ? permuteNodesAndPods(s, plan.perm, plan.rename, plan.nodesMoved ? daemonSetNames(ctx) : []) : s;

  // 3. Candidates of each election.
  let candidatesMoved = false;
  const leases = [...state.api.leases] as [ClusterState['api']['leases'][0], ClusterState['api']['leases'][1]];
  const candidates = state.candidates.map((list, e) => {
    const holder = state.api.leases[e].holder;
    const order = candidateOrder(ctx, holder, list, e, IDENTITY_PLAN);
    if (order === undefined) return list;
    candidatesMoved = true;
    const cinv = new Array<number>(order.length);
    order.forEach((old, nu) => (cinv[old] = nu));
    const remap = (h: number): number => (h < 0 ? h : cinv[h]);
    leases[e] = { ...state.api.leases[e], holder: remap(holder) };
    return order.map((old) => ({ ...list[old], observedHolder: remap(list[old].observedHolder) }) as Candidate);
  });
  if (!candidatesMoved) return state;
  return { ...state, api: { ...state.api, leases }, candidates: candidates as unknown as ClusterState['candidates'] };
}

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
  const plan = orbitPlan(ctx, s);
  const moved = plan.nodesMoved || plan.renamed;
  const names = moved ? podNames(ctx, plan) : plan.rename;
  const rn = moved ? (name: string): string => names.get(name) ?? name : undefined;
  const { perm, inv } = plan;
  const nodesPlan: KeyPlan = moved ? { perm, inv, rn, orders: [], cinvs: [] } : IDENTITY_PLAN;
  const orders = s.candidates.map((list, e) => candidateOrder(ctx, s.api.leases[e].holder, list, e, nodesPlan));
  w.reset();
  if (!moved && orders[0] === undefined && orders[1] === undefined) {
    writeStateKey(w, s, IDENTITY_PLAN);
    return w.bytes();
  }
  const cinvs = orders.map((order) => {
    if (order === undefined) return undefined;
    const cinv = new Array<number>(order.length);
    order.forEach((old, nu) => (cinv[old] = nu));
    return cinv;
  });
  writeStateKey(w, s, moved ? { perm, inv, rn, orders, cinvs } : { perm: undefined, inv: undefined, rn: undefined, orders, cinvs });
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
