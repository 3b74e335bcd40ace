/**
 * Exact encodings of a cluster state. `stateKey`: a compact string, the model's readable `view`
 * (no symmetry, replay, diffs; the checker hashes a string directly). `writeStateKey`: the same
 * key as numbers in a `KeyBuffer`, under an orbit's plan, which is what the checker fingerprints
 * under symmetry (`canonicalKeyBytes`). Every field of the state appears in both; separators and
 * lengths keep them injective.
 */
import { opaqueView } from './operator/api.js';
import { encode } from '../checker/fingerprint.js';
import type { KeyBuffer } from '../checker/keyBuffer.js';
import { informersKey } from './informers.js';
import { writtenMetadata, type Candidate, type ClaimObject, type ClusterState, type ControllerManagerLocal, type NodeObject, type NodeReal, type PodObject, type Taint } from './state.js';

const TAINT_BIT: Record<Taint, number> = {
  'not-ready:NoExecute': 1,
  'not-ready:NoSchedule': 2,
  'out-of-service:NoExecute': 4,
  'unreachable:NoExecute': 8,
  'unreachable:NoSchedule': 16,
  'unschedulable:NoSchedule': 32,
};

/** A pod's tolerated NoSchedule taints as one number. */
function noScheduleBits(taints: readonly Taint[]): number {
  let bits = 0;
  for (let i = 0; i < taints.length; i++) bits |= TAINT_BIT[taints[i]];
  return bits;
}

// Node and pod objects are shared by the many states a tick or another component's step leads
// to: their keys are memoised by identity.
const nodeObjectKeys = new WeakMap<NodeObject, string>();
const podAttrKeys = new WeakMap<PodObject, string>();

export function nodeObjectKey(o: NodeObject | null): string {
  if (o === null) return 'x';
  let key = nodeObjectKeys.get(o);
  if (key === undefined) {
    let bits = 0;
    for (let i = 0; i < o.taints.length; i++) bits |= TAINT_BIT[o.taints[i]];
    key = `${o.ready[0]}${o.unschedulable ? 1 : 0}${bits.toString(36)}${metaKey(o)}`;
    nodeObjectKeys.set(o, key);
  }
  return key;
}

/**
 * Labels and annotations an operator wrote on a Pod or Node (kept with keys sorted, so their JSON
 * is canonical and self-delimiting); "" when none, so the stock model's keys are unchanged.
 */
function metaKey(o: { readonly labels?: Readonly<Record<string, string>>; readonly annotations?: Readonly<Record<string, string>> }): string {
  return `${o.labels === undefined ? '' : `L${JSON.stringify(o.labels)}`}${o.annotations === undefined ? '' : `A${JSON.stringify(o.annotations)}`}`;
}

/** The same as numbers: a flag each (bits 1 and 2 of the number given), then their JSON. */
function writeMeta(w: KeyBuffer, o: { readonly labels?: Readonly<Record<string, string>>; readonly annotations?: Readonly<Record<string, string>> }): void {
  if (o.labels !== undefined) w.text(JSON.stringify(o.labels));
  if (o.annotations !== undefined) w.text(JSON.stringify(o.annotations));
}
const metaBits = (o: { readonly labels?: unknown; readonly annotations?: unknown }): number => (o.labels === undefined ? 0 : 1) | (o.annotations === undefined ? 0 : 2);

/** The node's own fields, running containers excluded. */
function nodeRealKey(n: NodeReal): string {
  return `${n.up ? 1 : 0}${n.kubeletUp ? 1 : 0}${n.partitioned ? 1 : 0}${n.runtimeUp ? 1 : 0}${n.statusStuck ? 1 : 0}${n.podWatchStuck === true ? 'w' : ''}${n.runtimeErrors === true ? 'e' : ''}${n.booting === true ? 'b' : ''}${n.shutdownIn === undefined ? '' : `s${n.shutdownIn}`},${n.heartbeatIn},${n.sinceHeartbeat},${n.sinceNoExecute},${n.liveFor},${n.runtimeDownFor}${terminatingKey(n, asIs)}`;
}

const asIs = (pod: string): string => pod;

/** The node's terminating containers (`!pod:killIn` each, pods named by `label`); "" when none. */
function terminatingKey(n: NodeReal, label: (pod: string) => string): string {
  if (n.terminating === undefined || n.terminating.length === 0) return '';
  let out = '';
  for (let i = 0; i < n.terminating.length; i++) out += `!${label(n.terminating[i].pod)}:${n.terminating[i].killIn}`;
  return out;
}

const DEL: Record<string, string> = { 'taint-eviction': 'e', replicaset: 'r', operator: 'o', statefulset: 's' };

/** A pod's attributes other than its name and node. */
function podAttrKey(p: PodObject): string {
  let key = podAttrKeys.get(p);
  if (key === undefined) {
    const t = p.tolerations;
    key = `${p.workload}=${p.deletion === null ? '-' : DEL[p.deletion]}${t.unreachable ?? 'f'}:${t.notReady ?? 'f'}:${t.outOfService ?? 'f'}:${noScheduleBits(t.noSchedule)}${p.replacement ? 'R' : ''}${p.ready === true ? 'Y' : p.ready === false ? 'N' : ''}${metaKey(p)}`;
    podAttrKeys.set(p, key);
  }
  return key;
}

/** A pod object whole: name, uid (when not 0), node and attributes. */
export function podKey(p: PodObject): string {
  return `${p.name}${p.uid ? `^${p.uid}` : ''}@${p.nodeName}${podAttrKey(p)}`;
}

function ctrlKey(c: ControllerManagerLocal | null): string {
  if (c === null) return '-';
  let out = `${c.monitorIn},${c.gcIn},${c.disruptionMode ? 1 : 0}|`;
  for (let i = 0; i < c.nodes.length; i++) {
    const h = c.nodes[i];
    out += `${h.sinceProbe}${h.unseen ? '*' : ''}${h.buffered === true ? '~' : ''}${h.observed[0]},`;
  }
  out += '|';
  for (let i = 0; i < c.zones.length; i++) out += `${c.zones[i].state[0]}${c.zones[i].qps}/${c.zones[i].tokenIn},`;
  out += '|';
  for (let i = 0; i < c.evictions.length; i++) out += `${c.evictions[i].pod}:${c.evictions[i].in},`;
  out += '|';
  out += c.gcMissing.join(',');
  return out;
}

/** A candidate's fields before `observedHolder` in its key. */
function candidateHead(k: Candidate): string {
  return `${k.up ? 1 : 0}${k.leader ? 1 : 0}${k.partitioned ? 1 : 0}${k.unseen ? 1 : 0}${k.afterPause[0]},${k.paused},${k.rate},${k.retryIn},${k.renewAge},${k.observedAge}`;
}

function candidateKey(k: Candidate): string {
  const assumed = k.assumed === null ? '' : `${k.assumed.pod}>${k.assumed.node}`;
  return `${candidateHead(k)},${k.observedHolder},${k.observedDuration},${assumed},${ctrlKey(k.ctrl)}`;
}

const claimKeys = new WeakMap<readonly ClaimObject[], string>();

/** The claims (name, uid, place, Terminating), memoised by identity. */
function claimsKey(claims: readonly ClaimObject[]): string {
  let out = claimKeys.get(claims);
  if (out === undefined) {
    out = '';
    for (const c of claims) out += `${c.name}^${c.uid ?? 0}@${c.bound}${c.deleting === true ? 'd' : ''};`;
    claimKeys.set(claims, out);
  }
  return out;
}

export function stateKey(s: ClusterState): string {
  let out = '';
  for (let n = 0; n < s.nodes.length; n++) out += `${nodeObjectKey(s.api.nodes[n])}/${nodeRealKey(s.nodes[n])}/${s.nodes[n].running.join(',')};`;
  out += '#';
  for (let i = 0; i < s.api.pods.length; i++) out += `${podKey(s.api.pods[i])};`;
  out += '#';
  for (let e = 0; e < s.api.leases.length; e++) {
    const l = s.api.leases[e];
    out += `${l.holder},${l.durationSeconds},${l.transitioned ? 1 : 0}${l.releasedFor === undefined ? '' : `,${l.releasedFor}`};`;
  }
  out += '#';
  for (let i = 0; i < s.etcd.length; i++) out += s.etcd[i] ? 1 : 0;
  out += '/';
  for (let i = 0; i < s.apiservers.length; i++) out += s.apiservers[i] ? 1 : 0;
  out += '#';
  for (let e = 0; e < s.candidates.length; e++) {
    const list = s.candidates[e];
    for (let c = 0; c < list.length; c++) out += `${candidateKey(list[c])};`;
    out += '/';
  }
  return out + stateKeyTail(s);
}

const budgetKeys = new WeakMap<object, string>();

/** The fault budgets' part of the key, memoised by identity (budgets change only on faults). */
function budgetKey(budget: ClusterState['budget']): string {
  // Most states share their parent's budgets object: one remembered entry spares the WeakMap.
  if (budget === lastBudget) return lastBudgetKey;
  let out = budgetKeys.get(budget);
  if (out === undefined) {
    out = '';
    for (const k of Object.keys(budget).sort()) out += `${budget[k]},`;
    budgetKeys.set(budget, out);
  }
  lastBudget = budget;
  lastBudgetKey = out;
  return out;
}
let lastBudget: ClusterState['budget'] | undefined;
let lastBudgetKey = '';

/** What follows the candidates in the key: budgets, outage and sequence timers, extensions, caches. */
function stateKeyTail(s: ClusterState): string {
  let out = `#${budgetKey(s.budget)}#${s.kubeletApiOutage},${s.sequenceDone},${s.sequenceIn}`;
  if (s.api.scale !== undefined) out += `#S${encode(s.api.scale)}`;
  if (s.api.claims !== undefined) out += `#C${claimsKey(s.api.claims)}`;
  if (s.custom !== undefined) out += `#${encode(opaqueView(s.custom, s.extensions, writtenMetadata(s)))}`;
  else if (s.extensions !== undefined) out += `#${encode(s.extensions)}`;
  if (s.informers !== undefined) out += informersKey(s, podKey, nodeObjectKey);
  return out;
}

// ---- the same key as numbers, for fingerprints ------------------------------------------------

const READY_CODE: Record<NodeObject['ready'], number> = { True: 0, False: 1, Unknown: 2, None: 3 };
const DELETION_CODE: Record<string, number> = { 'taint-eviction': 1, replicaset: 2, operator: 3, statefulset: 4 };
const AFTER_PAUSE_CODE: Record<Candidate['afterPause'], number> = { none: 0, race: 1, stale: 2 };
const ZONE_CODE: Record<string, number> = { Normal: 0, PartialDisruption: 1, FullDisruption: 2 };
/** Written where a field may be absent or null (no number a field holds). */
export const ABSENT = -Infinity;

export const readyCode = (r: NodeObject['ready']): number => READY_CODE[r];

/**
 * How the numeric key sees the state: the orbit's node permutation (`perm[new] = old`, `inv` its
 * inverse), the pods' names in the orbit's representative, and each election's candidate order
 * (`order[new] = old`, `cinv` its inverse; undefined: unmoved). Only the entries below the node
 * and candidate counts are read (the arrays may be longer scratch).
 */
export interface KeyPlan {
  readonly perm: readonly number[] | undefined;
  readonly inv: readonly number[] | undefined;
  readonly rn: ((pod: string) => string) | undefined;
  readonly orders: readonly (readonly number[] | undefined)[];
  readonly cinvs: readonly (readonly number[] | undefined)[];
}

export const IDENTITY_PLAN: KeyPlan = { perm: undefined, inv: undefined, rn: undefined, orders: [], cinvs: [] };

function writeNodeObject(w: KeyBuffer, o: NodeObject | null): void {
  if (o === null) return w.num(ABSENT);
  let bits = 0;
  for (let i = 0; i < o.taints.length; i++) bits |= TAINT_BIT[o.taints[i]];
  // Labels and annotations written by an operator: flags above the rest (0 for the stock model's nodes), then their JSON.
  w.num(metaBits(o) * 1024 + READY_CODE[o.ready] * 128 + (o.unschedulable ? 64 : 0) + bits);
  writeMeta(w, o);
}

// Scratch of the writers that rename pods (one key is written at a time, and each writer is done
// with it before the next starts): renamed lists are sorted here in place, as the representative
// keeps them sorted by name, instead of in sorted copies.
const sortNames: string[] = [];
const sortNums: number[] = [];

/** Sorts `sortNames[0, length)` (and `sortNums` with them) by name, stable as `Array.prototype.sort`. */
function sortByName(length: number): void {
  for (let i = 1; i < length; i++) {
    const name = sortNames[i];
    const x = sortNums[i];
    let j = i - 1;
    while (j >= 0 && sortNames[j] > name) {
      sortNames[j + 1] = sortNames[j];
      sortNums[j + 1] = sortNums[j];
      j--;
    }
    sortNames[j + 1] = name;
    sortNums[j + 1] = x;
  }
}

/** Writes `sortNames[0, length)` sorted, each name with its number in `sortNums` when `withNums`. */
function writeSortedByName(w: KeyBuffer, length: number, withNums: boolean): void {
  sortByName(length);
  for (let i = 0; i < length; i++) {
    w.text(sortNames[i]);
    if (withNums) w.num(sortNums[i]);
  }
}

/** A node's object and its own fields (running and terminating containers excluded): the head of its symmetry signature. */
export function writeNodeSignatureHead(w: KeyBuffer, o: NodeObject | null, n: NodeReal): void {
  writeNodeObject(w, o);
  writeNodeFields(w, n);
}

function writeNodeFields(w: KeyBuffer, n: NodeReal): void {
  w.num(
    (n.up ? 1 : 0) | (n.kubeletUp ? 2 : 0) | (n.partitioned ? 4 : 0) | (n.runtimeUp ? 8 : 0) | (n.statusStuck ? 16 : 0) |
      (n.podWatchStuck === true ? 32 : 0) | (n.runtimeErrors === true ? 64 : 0) | (n.booting === true ? 128 : 0),
  );
  w.num(n.shutdownIn ?? ABSENT);
  w.num(n.heartbeatIn);
  w.num(n.sinceHeartbeat);
  w.num(n.sinceNoExecute);
  w.num(n.liveFor);
  w.num(n.runtimeDownFor);
}

function writeNodeReal(w: KeyBuffer, n: NodeReal, rn: ((pod: string) => string) | undefined): void {
  writeNodeFields(w, n);
  const t = n.terminating;
  if (t === undefined || t.length === 0) w.num(0);
  else {
    w.num(t.length);
    if (rn === undefined) {
      for (let i = 0; i < t.length; i++) {
        w.text(t[i].pod);
        w.num(t[i].killIn);
      }
    } else {
      for (let i = 0; i < t.length; i++) {
        sortNames[i] = rn(t[i].pod);
        sortNums[i] = t[i].killIn;
      }
      writeSortedByName(w, t.length, true);
    }
  }
  const running = n.running;
  w.num(running.length);
  if (rn === undefined) for (let i = 0; i < running.length; i++) w.text(running[i]);
  else {
    for (let i = 0; i < running.length; i++) sortNames[i] = rn(running[i]);
    writeSortedByName(w, running.length, false);
  }
}

function writePod(w: KeyBuffer, name: string, p: PodObject, node: number): void {
  w.text(name);
  w.num(p.uid ?? 0);
  w.num(node);
  writePodAttributes(w, p);
}

/** A pod's attributes other than its name, uid and node (`podAttrKey` as numbers). */
export function writePodAttributes(w: KeyBuffer, p: PodObject): void {
  w.text(p.workload);
  w.num(p.deletion === null ? 0 : DELETION_CODE[p.deletion]);
  w.num(p.tolerations.unreachable ?? ABSENT);
  w.num(p.tolerations.notReady ?? ABSENT);
  w.num(p.tolerations.outOfService ?? ABSENT);
  w.num(noScheduleBits(p.tolerations.noSchedule));
  // The replacement flag, with labels and annotations written by an operator as bits 2 and 4 (absent in the stock model), then their JSON.
  w.num((p.replacement ? 1 : 0) | (metaBits(p) << 1));
  writeMeta(w, p);
}

function writeCtrl(w: KeyBuffer, c: ControllerManagerLocal | null, perm: readonly number[] | undefined, rn: ((pod: string) => string) | undefined): void {
  if (c === null) return w.num(ABSENT);
  w.num(c.monitorIn);
  w.num(c.gcIn);
  w.flag(c.disruptionMode);
  w.num(c.nodes.length);
  for (let i = 0; i < c.nodes.length; i++) {
    const h = c.nodes[perm === undefined ? i : perm[i]];
    w.num(h.sinceProbe);
    w.num((h.unseen ? 1 : 0) | (h.buffered === true ? 2 : 0));
    w.num(READY_CODE[h.observed]);
  }
  w.num(c.zones.length);
  for (let i = 0; i < c.zones.length; i++) {
    w.num(ZONE_CODE[c.zones[i].state]);
    w.num(c.zones[i].qps);
    w.num(c.zones[i].tokenIn);
  }
  const evictions = c.evictions;
  w.num(evictions.length);
  if (rn === undefined) {
    for (let i = 0; i < evictions.length; i++) {
      w.text(evictions[i].pod);
      w.num(evictions[i].in);
    }
  } else {
    for (let i = 0; i < evictions.length; i++) {
      sortNames[i] = rn(evictions[i].pod);
      sortNums[i] = evictions[i].in;
    }
    writeSortedByName(w, evictions.length, true);
  }
  w.num(c.gcMissing.length);
  for (let i = 0; i < c.gcMissing.length; i++) w.num(c.gcMissing[perm === undefined ? i : perm[i]]);
}

/**
 * The candidate's fields, `observedHolder` written as `holder` (remapped by the caller), its
 * assumed pod and its controllers' memory under the plan's nodes and names.
 */
export function writeCandidate(w: KeyBuffer, k: Candidate, holder: number, plan: KeyPlan): void {
  w.num((k.up ? 1 : 0) | (k.leader ? 2 : 0) | (k.partitioned ? 4 : 0) | (k.unseen ? 8 : 0));
  w.num(AFTER_PAUSE_CODE[k.afterPause]);
  w.num(k.paused);
  w.num(k.rate);
  w.num(k.retryIn);
  w.num(k.renewAge);
  w.num(k.observedAge);
  w.num(holder);
  w.num(k.observedDuration);
  if (k.assumed === null) w.num(ABSENT);
  else {
    w.text(plan.rn === undefined ? k.assumed.pod : plan.rn(k.assumed.pod));
    w.num(k.assumed.node < 0 || plan.inv === undefined ? k.assumed.node : plan.inv[k.assumed.node]);
  }
  writeCtrl(w, k.ctrl, plan.perm, plan.rn);
}

/** A candidate reference (negative: none) under an election's inverse candidate order. */
const remapHolder = (cinv: readonly number[] | undefined, h: number): number => (h < 0 || cinv === undefined ? h : cinv[h]);

/**
 * `stateKey` of the state the plan maps `s` to, as numbers: two states get equal bytes exactly
 * when their `stateKey`s under their plans are equal (the tests hold the two partitions equal on
 * reachable states of every stock scenario).
 */
export function writeStateKey(w: KeyBuffer, s: ClusterState, plan: KeyPlan): void {
  const { perm, inv, rn } = plan;
  const N = s.nodes.length;
  w.num(N);
  for (let n = 0; n < N; n++) {
    const old = perm === undefined ? n : perm[n];
    writeNodeObject(w, s.api.nodes[old]);
    writeNodeReal(w, s.nodes[old], rn);
  }
  const pods = s.api.pods;
  w.num(pods.length);
  if (rn === undefined && inv === undefined) for (let i = 0; i < pods.length; i++) writePod(w, pods[i].name, pods[i], pods[i].nodeName);
  else {
    // The pods sorted by their names in the representative, each with its index.
    for (let i = 0; i < pods.length; i++) {
      sortNames[i] = rn === undefined ? pods[i].name : rn(pods[i].name);
      sortNums[i] = i;
    }
    sortByName(pods.length);
    for (let i = 0; i < pods.length; i++) {
      const p = pods[sortNums[i]];
      writePod(w, sortNames[i], p, p.nodeName < 0 || inv === undefined ? p.nodeName : inv[p.nodeName]);
    }
  }
  for (let e = 0; e < s.api.leases.length; e++) {
    const l = s.api.leases[e];
    w.num(remapHolder(plan.cinvs[e], l.holder));
    w.num(l.durationSeconds);
    w.flag(l.transitioned);
    w.num(l.releasedFor ?? -1);
  }
  w.num(s.etcd.length);
  for (let i = 0; i < s.etcd.length; i++) w.flag(s.etcd[i]);
  w.num(s.apiservers.length);
  for (let i = 0; i < s.apiservers.length; i++) w.flag(s.apiservers[i]);
  for (let e = 0; e < s.candidates.length; e++) {
    const list = s.candidates[e];
    const order = plan.orders[e];
    const cinv = plan.cinvs[e];
    w.num(list.length);
    for (let nu = 0; nu < list.length; nu++) {
      const k = list[order === undefined ? nu : order[nu]];
      writeCandidate(w, k, remapHolder(cinv, k.observedHolder), plan);
    }
  }
  w.text(budgetKey(s.budget));
  w.num(s.kubeletApiOutage);
  w.num(s.sequenceDone);
  w.num(s.sequenceIn);
  if (s.api.scale === undefined) w.num(0);
  else {
    w.num(1);
    w.text(encode(s.api.scale));
  }
  // Claims bound to nodes come only without node symmetry (context.ts), so `bound` needs no permutation.
  if (s.api.claims === undefined) w.num(0);
  else {
    w.num(1);
    w.text(claimsKey(s.api.claims));
  }
  if (s.custom !== undefined) {
    w.num(1);
    w.text(encode(opaqueView(s.custom, s.extensions, writtenMetadata(s))));
  } else if (s.extensions !== undefined) {
    w.num(2);
    w.text(encode(s.extensions));
  } else w.num(0);
  if (s.informers !== undefined) w.text(informersKey(s, podKey, nodeObjectKey));
  else w.num(ABSENT);
}
