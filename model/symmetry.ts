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
import { candidateKey, nodeObjectKey, nodeRealKey, podAttrKey } from './key.js';
import type { Candidate, ClusterState, ControllerManagerLocal, PodObject } from './state.js';

const cmp = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);
export function canonicalize(ctx: Ctx, s: ClusterState): ClusterState {
  // Names that are no identity: a ReplicaSet pod's slot, a DaemonSet pod's node (told by its node).
  const anonymous = (name: string): string | undefined => {
    const w = ctx.workloadOfPod(name);
    return w === undefined || w.kind === 'StatefulSet' ? undefined : `*${w.name}`;
  };
  const label = (name: string): string => anonymous(name) ?? name;
  const N = s.nodes.length;
  const pods = s.api.pods;
  const podByName = new Map<string, PodObject>();
  for (const p of pods) podByName.set(p.name, p);
  const kcm = s.candidates[0];
  const evictionOf = (pod: string): string => {
    let out = '';
    for (const k of kcm) {
      if (k.ctrl === null) continue;
      const x = k.ctrl.evictions.find((e) => e.pod === pod);
      out += x === undefined ? '.' : x.in;
    }
    return out;
  };
  const podAttrs = (p: PodObject): string => `${podAttrKey(p)}${anonymous(p.name) === undefined ? p.name : ''}~${evictionOf(p.name)}`;

  // 1. Nodes, within each zone.
  const sigs: string[] = new Array<string>(N);
  for (let n = 0; n < N; n++) {
    const real = s.nodes[n];
    const bound: string[] = [];
    for (const p of pods) if (p.nodeName === n) bound.push(podAttrs(p) + (real.running.includes(p.name) ? '+' : '-'));
    bound.sort();
    const run = real.running
      .map((name) => {
        const p = podByName.get(name);
        return `${label(name)}${p === undefined ? 'g' : p.nodeName === n ? 'h' : 'e'}`;
      })
      .sort();
    let mem = '';
    for (const k of kcm) if (k.ctrl !== null) mem += `${k.ctrl.nodes[n].sinceProbe}${k.ctrl.nodes[n].unseen ? '*' : ''}${k.ctrl.nodes[n].observed[0]}${k.ctrl.gcMissing[n]},`;
    for (const k of s.candidates[1]) if (k.assumed !== null && k.assumed.node === n) mem += `a${label(k.assumed.pod)}`;
    const ending = real.terminating === undefined ? '' : real.terminating.map((t) => `${label(t.pod)}:${t.killIn}`).sort().join(';');
    sigs[n] = `${nodeObjectKey(s.api.nodes[n])}/${nodeRealKey(real.terminating === undefined ? real : { ...real, terminating: undefined })}/${bound.join(';')}/${run.join(';')}/${mem}/${ending}`;
  }
  const perm = new Array<number>(N); // perm[new] = old
  let nodesMoved = false;
  for (const group of ctx.symmetricNodeGroups) {
    const sorted = [...group].sort((a, b) => cmp(sigs[a], sigs[b]) || a - b);
    group.forEach((slot, i) => {
      perm[slot] = sorted[i];
      if (sorted[i] !== slot) nodesMoved = true;
    });
  }
  const inv = new Array<number>(N);
  perm.forEach((old, nu) => (inv[old] = nu));
  const mapNode = (n: number): number => (n < 0 ? n : inv[n]);

  // 2. ReplicaSet pods, per workload: rename by (attributes, canonical node, canonical nodes running it).
  const rename = new Map<string, string>();
  let renamed = false;
  for (const w of ctx.workloads) {
    if (w.kind !== 'ReplicaSet') continue;
    const names: string[] = [];
    for (const p of pods) if (p.workload === w.name) names.push(p.name);
    for (const n of s.nodes) for (const r of n.running) if (ctx.workloadOfPod(r) === w && !names.includes(r)) names.push(r);
    const sigOf = (name: string): string => {
      const p = podByName.get(name);
      const on: string[] = [];
      s.nodes.forEach((n, i) => {
        if (!n.running.includes(name)) return;
        const t = n.terminating?.find((x) => x.pod === name);
        on.push(t === undefined ? String(inv[i]) : `${inv[i]}!${t.killIn}`);
      });
      on.sort();
      return p === undefined ? `~/${on.join(',')}` : `${podAttrs(p)}@${mapNode(p.nodeName)}/${on.join(',')}`;
    };
    const order = names.map((name) => ({ name, sig: sigOf(name) })).sort((a, b) => cmp(a.sig, b.sig) || cmp(a.name, b.name));
    order.forEach((x, i) => {
      const nu = `${w.name}-${i}`;
      rename.set(x.name, nu);
      if (nu !== x.name) renamed = true;
    });
  }

  const state = nodesMoved || renamed ? permuteNodesAndPods(s, perm, rename, nodesMoved ? daemonSetNames(ctx) : []) : s;

  // 3. Candidates of each election.
  let candidatesMoved = false;
  const leases = [...state.api.leases] as [ClusterState['api']['leases'][0], ClusterState['api']['leases'][1]];
  const candidates = state.candidates.map((list, e) => {
    if (list.length < 2) return list;
    // Candidates with other leader-election settings than the first are not interchangeable with it.
    const fixedFirst = !ctx.electionSymmetric[e];
    const holder = state.api.leases[e].holder;
    const ref = (h: number, self: number): string => (h < 0 ? String(h) : h === self ? 's' : 'o');
    const sig = list.map((k, i) => `${ref(holder, i)}${ref(k.observedHolder, i)}${candidateKey({ ...k, observedHolder: 0 })}`);
    const order = list.map((_, i) => i).sort((a, b) => (fixedFirst ? Number(a !== 0) - Number(b !== 0) : 0) || cmp(sig[a], sig[b]) || a - b);
    if (order.every((old, nu) => old === nu)) return list;
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
