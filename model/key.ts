/**
 * A compact, exact string encoding of a cluster state, used as the checker's `view`: the
 * checker hashes a string directly, which is several times cheaper than its generic encoder on
 * the fresh objects symmetry produces. Every field of the state appears; separators keep the
 * encoding injective.
 */
import { opaqueView } from './operator/api.js';
import { encode } from '../checker/fingerprint.js';
import { informersKey } from './informers.js';
import type { Candidate, ClusterState, ControllerManagerLocal, NodeObject, NodeReal, PodObject, Taint } from './state.js';

const TAINT_BIT: Record<Taint, number> = {
  'not-ready:NoExecute': 1,
  'not-ready:NoSchedule': 2,
  'out-of-service:NoExecute': 4,
  'unreachable:NoExecute': 8,
  'unreachable:NoSchedule': 16,
  'unschedulable:NoSchedule': 32,
};

// Node and pod objects are shared by the many states a tick or another component's step leads
// to: their keys are memoised by identity.
const nodeObjectKeys = new WeakMap<NodeObject, string>();
const podAttrKeys = new WeakMap<PodObject, string>();

export function nodeObjectKey(o: NodeObject | null): string {
  if (o === null) return 'x';
  let key = nodeObjectKeys.get(o);
  if (key === undefined) {
    let bits = 0;
    for (const t of o.taints) bits |= TAINT_BIT[t];
    key = `${o.ready[0]}${o.unschedulable ? 1 : 0}${bits.toString(36)}`;
    nodeObjectKeys.set(o, key);
  }
  return key;
}

/** The node's own fields, running containers excluded. */
export function nodeRealKey(n: NodeReal): string {
  return `${n.up ? 1 : 0}${n.kubeletUp ? 1 : 0}${n.partitioned ? 1 : 0}${n.runtimeUp ? 1 : 0}${n.statusStuck ? 1 : 0}${n.podWatchStuck === true ? 'w' : ''}${n.runtimeErrors === true ? 'e' : ''}${n.booting === true ? 'b' : ''}${n.shutdownIn === undefined ? '' : `s${n.shutdownIn}`},${n.heartbeatIn},${n.sinceHeartbeat},${n.sinceNoExecute},${n.liveFor},${n.runtimeDownFor}${terminatingKey(n, (pod) => pod)}`;
}

/** The node's terminating containers (`!pod:killIn` each, pods named by `label`); "" when none. */
export function terminatingKey(n: NodeReal, label: (pod: string) => string): string {
  if (n.terminating === undefined || n.terminating.length === 0) return '';
  let out = '';
  for (const t of n.terminating) out += `!${label(t.pod)}:${t.killIn}`;
  return out;
}

const DEL: Record<string, string> = { 'taint-eviction': 'e', replicaset: 'r', operator: 'o' };

/** A pod's attributes other than its name and node. */
export function podAttrKey(p: PodObject): string {
  let key = podAttrKeys.get(p);
  if (key === undefined) {
    const t = p.tolerations;
    key = `${p.workload}=${p.deletion === null ? '-' : DEL[p.deletion]}${t.unreachable ?? 'f'}:${t.notReady ?? 'f'}${p.replacement ? 'R' : ''}`;
    podAttrKeys.set(p, key);
  }
  return key;
}

/** A pod object whole: name, uid (when not 0), node and attributes. */
export function podKey(p: PodObject): string {
  return `${p.name}${p.uid ? `^${p.uid}` : ''}@${p.nodeName}${podAttrKey(p)}`;
}

export function ctrlKey(c: ControllerManagerLocal | null): string {
  if (c === null) return '-';
  let out = `${c.monitorIn},${c.gcIn},${c.disruptionMode ? 1 : 0}|`;
  for (const h of c.nodes) out += `${h.sinceProbe}${h.unseen ? '*' : ''}${h.buffered === true ? '~' : ''}${h.observed[0]},`;
  out += '|';
  for (const z of c.zones) out += `${z.state[0]}${z.tokenIn},`;
  out += '|';
  for (const x of c.evictions) out += `${x.pod}:${x.in},`;
  out += '|';
  out += c.gcMissing.join(',');
  return out;
}

/**
 * `ctrlKey` of the memory with its nodes permuted (`perm[new] = old`) and its pods renamed by
 * `rn` (evictions sorted by the new names), as symmetry's canonical form has it.
 */
export function ctrlKeyUnder(c: ControllerManagerLocal, perm: readonly number[], rn: (pod: string) => string): string {
  let out = `${c.monitorIn},${c.gcIn},${c.disruptionMode ? 1 : 0}|`;
  for (const old of perm) {
    const h = c.nodes[old];
    out += `${h.sinceProbe}${h.unseen ? '*' : ''}${h.buffered === true ? '~' : ''}${h.observed[0]},`;
  }
  out += '|';
  for (const z of c.zones) out += `${z.state[0]}${z.tokenIn},`;
  out += '|';
  if (c.evictions.length > 0) {
    const evictions = c.evictions.map((x) => ({ pod: rn(x.pod), in: x.in }));
    if (evictions.length > 1) evictions.sort((a, b) => (a.pod < b.pod ? -1 : a.pod > b.pod ? 1 : 0));
    for (const x of evictions) out += `${x.pod}:${x.in},`;
  }
  out += '|';
  for (let i = 0; i < perm.length; i++) out += (i > 0 ? ',' : '') + c.gcMissing[perm[i]];
  return out;
}

/** A candidate's fields before `observedHolder` in its key. */
export function candidateHead(k: Candidate): string {
  return `${k.up ? 1 : 0}${k.leader ? 1 : 0}${k.partitioned ? 1 : 0}${k.unseen ? 1 : 0}${k.afterPause[0]},${k.paused},${k.rate},${k.retryIn},${k.renewAge},${k.observedAge}`;
}

export function candidateKey(k: Candidate): string {
  const assumed = k.assumed === null ? '' : `${k.assumed.pod}>${k.assumed.node}`;
  return `${candidateHead(k)},${k.observedHolder},${k.observedDuration},${assumed},${ctrlKey(k.ctrl)}`;
}

export function stateKey(s: ClusterState): string {
  let out = '';
  for (let n = 0; n < s.nodes.length; n++) out += `${nodeObjectKey(s.api.nodes[n])}/${nodeRealKey(s.nodes[n])}/${s.nodes[n].running.join(',')};`;
  out += '#';
  for (const p of s.api.pods) out += `${podKey(p)};`;
  out += '#';
  for (const l of s.api.leases) out += `${l.holder},${l.durationSeconds},${l.transitioned ? 1 : 0};`;
  out += '#';
  for (const m of s.etcd) out += m ? 1 : 0;
  out += '/';
  for (const a of s.apiservers) out += a ? 1 : 0;
  out += '#';
  for (const list of s.candidates) {
    for (const k of list) out += `${candidateKey(k)};`;
    out += '/';
  }
  return out + stateKeyTail(s);
}

const budgetKeys = new WeakMap<object, string>();

/** The fault budgets' part of the key, memoised by identity (budgets change only on faults). */
function budgetKey(budget: ClusterState['budget']): string {
  let out = budgetKeys.get(budget);
  if (out === undefined) {
    out = '';
    for (const k of Object.keys(budget).sort()) out += `${budget[k]},`;
    budgetKeys.set(budget, out);
  }
  return out;
}

/** What follows the candidates in the key: budgets, outage and sequence timers, extensions, caches. */
export function stateKeyTail(s: ClusterState): string {
  let out = `#${budgetKey(s.budget)}#${s.kubeletApiOutage},${s.sequenceDone},${s.sequenceIn}`;
  if (s.custom !== undefined) out += `#${encode(opaqueView(s.custom, s.extensions))}`;
  else if (s.extensions !== undefined) out += `#${encode(s.extensions)}`;
  if (s.informers !== undefined) out += informersKey(s, podKey, nodeObjectKey);
  return out;
}
