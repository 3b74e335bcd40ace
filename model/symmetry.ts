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
import { candidateHead, candidateKey, ctrlKey, ctrlKeyUnder, nodeObjectKey, nodeRealKey, podAttrKey, podKey, stateKey, stateKeyTail } from './key.js';
import type { Candidate, ClusterState, ControllerManagerLocal, PodObject } from './state.js';

const cmp = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);

/** How a state maps onto its orbit's representative: nodes (`perm[new] = old`) and ReplicaSet pods. */
interface OrbitPlan {
  readonly perm: readonly number[];
  readonly inv: readonly number[];
  readonly rename: ReadonlyMap<string, string>;
  readonly nodesMoved: boolean;
  readonly renamed: boolean;
  /** Per node (old index): `nodeRealKey` of it without its terminating containers. */
  readonly realKeys: readonly string[];
}

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

/**
 * Steps 1 and 2 of the canonical form: the node permutation within each zone and the renaming of
 * ReplicaSet pods, from signatures of everything attached to a node and to a pod.
 */
function orbitPlan(ctx: Ctx, s: ClusterState): OrbitPlan {
  const N = s.nodes.length;
  const pods = s.api.pods;
  const kcm = s.candidates[0];
  const labelOf = podLabels(ctx);
  const attrs = new Array<string>(pods.length);
  const podIndex = new Map<string, number>();
  for (let i = 0; i < pods.length; i++) {
    const p = pods[i];
    podIndex.set(p.name, i);
    let ev = '';
    for (const k of kcm) {
      if (k.ctrl === null) continue;
      const x = k.ctrl.evictions.find((e) => e.pod === p.name);
      ev += x === undefined ? '.' : x.in;
    }
    attrs[i] = `${podAttrKey(p)}${labelOf(p.name) === p.name ? p.name : ''}~${ev}`;
  }

  // 1. Nodes, within each zone.
  const sigs: string[] = new Array<string>(N);
  const realKeys: string[] = new Array<string>(N);
  for (let n = 0; n < N; n++) {
    const real = s.nodes[n];
    const bound: string[] = [];
    for (let i = 0; i < pods.length; i++) if (pods[i].nodeName === n) bound.push(attrs[i] + (real.running.includes(pods[i].name) ? '+' : '-'));
    bound.sort();
    const run: string[] = [];
    for (const name of real.running) {
      const i = podIndex.get(name);
      run.push(`${labelOf(name)}${i === undefined ? 'g' : pods[i].nodeName === n ? 'h' : 'e'}`);
    }
    run.sort();
    let mem = '';
    for (const k of kcm) if (k.ctrl !== null) mem += `${k.ctrl.nodes[n].sinceProbe}${k.ctrl.nodes[n].unseen ? '*' : ''}${k.ctrl.nodes[n].buffered === true ? '~' : ''}${k.ctrl.nodes[n].observed[0]}${k.ctrl.gcMissing[n]},`;
    for (const k of s.candidates[1]) if (k.assumed !== null && k.assumed.node === n) mem += `a${labelOf(k.assumed.pod)}`;
    const ending = real.terminating === undefined ? '' : real.terminating.map((t) => `${labelOf(t.pod)}:${t.killIn}`).sort().join(';');
    realKeys[n] = nodeRealKey(real.terminating === undefined ? real : { ...real, terminating: undefined });
    sigs[n] = `${nodeObjectKey(s.api.nodes[n])}/${realKeys[n]}/${bound.join(';')}/${run.join(';')}/${mem}/${ending}`;
  }
  const perm = new Array<number>(N); // perm[new] = old
  for (let n = 0; n < N; n++) perm[n] = n;
  let nodesMoved = false;
  for (const group of ctx.symmetricNodeGroups) {
    if (group.length < 2) continue;
    const sorted = [...group].sort((a, b) => cmp(sigs[a], sigs[b]) || a - b);
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
  for (const w of ctx.workloads) {
    if (w.kind !== 'ReplicaSet') continue;
    const names: string[] = [];
    for (const p of pods) if (p.workload === w.name) names.push(p.name);
    for (const n of s.nodes) for (const r of n.running) if (ctx.workloadOfPod(r) === w && !names.includes(r)) names.push(r);
    if (names.length === 0) continue;
    const order = names.map((name) => {
      const on: string[] = [];
      for (let n = 0; n < N; n++) {
        const node = s.nodes[n];
        if (!node.running.includes(name)) continue;
        const t = node.terminating?.find((x) => x.pod === name);
        on.push(t === undefined ? String(inv[n]) : `${inv[n]}!${t.killIn}`);
      }
      on.sort();
      const i = podIndex.get(name);
      const sig = i === undefined ? `~/${on.join(',')}` : `${attrs[i]}@${pods[i].nodeName < 0 ? pods[i].nodeName : inv[pods[i].nodeName]}/${on.join(',')}`;
      return { name, sig };
    });
    order.sort((a, b) => cmp(a.sig, b.sig) || cmp(a.name, b.name));
    for (let i = 0; i < order.length; i++) {
      const nu = `${w.name}-${i}`;
      rename.set(order[i].name, nu);
      if (nu !== order[i].name) renamed = true;
    }
  }
  return { perm, inv, rename, nodesMoved, renamed, realKeys };
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

/** Step 3: the order of the candidates of election `e` (`order[new] = old`), or undefined when it stays. */
function candidateOrder(ctx: Ctx, holder: number, list: readonly Candidate[], e: number, keyOf: (k: Candidate, i: number) => string): number[] | undefined {
  if (list.length < 2) return undefined;
  // Candidates with other leader-election settings than the first are not interchangeable with it.
  const fixedFirst = !ctx.electionSymmetric[e];
  const ref = (h: number, self: number): string => (h < 0 ? String(h) : h === self ? 's' : 'o');
  const sig = list.map((k, i) => `${ref(holder, i)}${ref(k.observedHolder, i)}${keyOf(k, i)}`);
  const order = list.map((_, i) => i).sort((a, b) => (fixedFirst ? Number(a !== 0) - Number(b !== 0) : 0) || cmp(sig[a], sig[b]) || a - b);
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
    const order = candidateOrder(ctx, holder, list, e, (k) => candidateKey({ ...k, observedHolder: 0 }));
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
 * `stateKey(canonicalize(ctx, s))`, computed without building the canonical state: the checker's
 * fingerprint of a state under symmetry. The tests hold it equal to the two-step form on
 * reachable states of every stock scenario.
 */
export function canonicalKey(ctx: Ctx, s: ClusterState): string {
  if (s.informers !== undefined) return stateKey(canonicalize(ctx, s));
  const plan = orbitPlan(ctx, s);
  const moved = plan.nodesMoved || plan.renamed;
  const names = moved ? podNames(ctx, plan) : plan.rename;
  const rn = (name: string): string => names.get(name) ?? name;
  const { perm, inv } = plan;
  const mapNode = (n: number): number => (n < 0 ? n : inv[n]);
  const N = s.nodes.length;

  // Candidates: their key in two halves around observedHolder, under the plan.
  const heads: string[][] = [];
  const tails: string[][] = [];
  for (const list of s.candidates) {
    const h: string[] = [];
    const t: string[] = [];
    for (const k of list) {
      h.push(candidateHead(k));
      let assumed = '';
      if (k.assumed !== null) assumed = moved ? `${rn(k.assumed.pod)}>${mapNode(k.assumed.node)}` : `${k.assumed.pod}>${k.assumed.node}`;
      t.push(`${k.observedDuration},${assumed},${moved && k.ctrl !== null ? ctrlKeyUnder(k.ctrl, perm, rn) : ctrlKey(k.ctrl)}`);
    }
    heads.push(h);
    tails.push(t);
  }
  const orders = s.candidates.map((list, e) => candidateOrder(ctx, s.api.leases[e].holder, list, e, (_, i) => `${heads[e][i]},0,${tails[e][i]}`));
  if (!moved && orders[0] === undefined && orders[1] === undefined) return stateKey(s);

  let out = '';
  for (let n = 0; n < N; n++) {
    const old = perm[n];
    const node = s.nodes[old];
    const running = moved ? node.running.map(rn).sort() : node.running;
    const terminating = node.terminating === undefined || !moved ? node.terminating : node.terminating.map((t) => ({ pod: rn(t.pod), killIn: t.killIn })).sort((a, b) => cmp(a.pod, b.pod));
    const real = terminating === undefined || terminating.length === 0 ? plan.realKeys[old] : nodeRealKey(terminating === node.terminating ? node : { ...node, terminating });
    out += `${nodeObjectKey(s.api.nodes[old])}/${real}/${running.join(',')};`;
  }
  out += '#';
  if (moved) {
    const pods = s.api.pods.map((p) => ({ name: rn(p.name), p }));
    pods.sort((a, b) => cmp(a.name, b.name));
    for (const { name, p } of pods) out += `${name}${p.uid ? `^${p.uid}` : ''}@${mapNode(p.nodeName)}${podAttrKey(p)};`;
  } else for (const p of s.api.pods) out += `${podKey(p)};`;
  out += '#';
  const cinvs = orders.map((order) => {
    if (order === undefined) return undefined;
    const cinv = new Array<number>(order.length);
    order.forEach((old, nu) => (cinv[old] = nu));
    return cinv;
  });
  const remap = (e: number, h: number): number => (h < 0 || cinvs[e] === undefined ? h : cinvs[e]![h]);
  for (let e = 0; e < s.api.leases.length; e++) {
    const l = s.api.leases[e];
    out += `${remap(e, l.holder)},${l.durationSeconds},${l.transitioned ? 1 : 0};`;
  }
  out += '#';
  for (const m of s.etcd) out += m ? 1 : 0;
  out += '/';
  for (const a of s.apiservers) out += a ? 1 : 0;
  out += '#';
  for (let e = 0; e < s.candidates.length; e++) {
    const list = s.candidates[e];
    const order = orders[e];
    for (let nu = 0; nu < list.length; nu++) {
      const old = order === undefined ? nu : order[nu];
      out += `${heads[e][old]},${remap(e, list[old].observedHolder)},${tails[e][old]};`;
    }
    out += '/';
  }
  return out + stateKeyTail(s);
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
          evictions: c.evictions.map((x) => ({ pod: rn(x.pod), in: x.in })).sort((a, b) => cmp(a.pod, b.pod)),
        };
  return {
    ...s,
    api: {
      nodes: perm.map((old) => s.api.nodes[old]),
      pods: s.api.pods.map((p) => ({ ...p, name: rn(p.name), nodeName: mapNode(p.nodeName) })).sort((a, b) => cmp(a.name, b.name)),
      leases: s.api.leases,
    },
    nodes: perm.map((old) => {
      const node = s.nodes[old];
      const running = node.running.map(rn).sort();
      if (node.terminating === undefined) return { ...node, running };
      const terminating = node.terminating.map((t) => ({ pod: rn(t.pod), killIn: t.killIn })).sort((a, b) => cmp(a.pod, b.pod));
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
