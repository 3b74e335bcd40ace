/**
 * Stale state: informer caches and kube-apiserver watch caches (on when `informers.watchLag` > 0).
 *
 * In Kubernetes no controller reads etcd: each reads a local cache (client-go's shared informer
 * store) filled by a LIST and then a WATCH, and writes go through the kube-apiserver, guarded by
 * the object's resourceVersion (compare-and-swap), its uid precondition or name uniqueness. So a
 * controller can act on a view older than the API: most controller bugs Sieve and Acto found are
 * of this kind.
 *
 * What is modelled:
 * - Every client that decides from a cache has one (`ClusterState.informers[client]`): the
 *   kube-controller-manager leader (its ReplicaSet, StatefulSet and DaemonSet controllers), the
 *   kube-scheduler leader, and extensions that ask for one. A cache is a past view of the pods
 *   and Node objects, each its own watch stream (client-go runs one informer per resource type,
 *   and they lag independently). A stream delivers its events in order, so each half of a cache
 *   is a prefix of that resource's history; the model delivers what a stream missed all at once,
 *   at any instant (`watch-catch-up`, a non-urgent step) and at the latest `informers.watchLag`
 *   after it first fell behind (`watch-catch-up-due`, urgent then).
 *   Since a cache may catch up at any instant and fall behind again at the next change, it can
 *   stop at the end of any instant of the history; what it cannot show is a state inside one
 *   instant (between two steps of one controller chain). A client cut off from every
 *   kube-apiserver receives nothing.
 * - A cache is listed afresh when its client starts leading (the kube-controller-manager starts
 *   its informers in OnStartedLeading; the kube-scheduler's are listed afresh too, which
 *   abstracts the lag a standby's cache may already have) and dropped when it stops.
 * - With two or more kube-apiservers, each has a watch cache that lags etcd by up to the same
 *   bound (modelled where a client can restart: an extension with `faults.extensionRestart`;
 *   the built-in components relist from the API as it is). A client that restarts lists with resourceVersion="0", which any kube-apiserver serves
 *   from its watch cache: an older state than the client saw before ("time travel",
 *   kubernetes#59848). With one kube-apiserver the client was fed through that same watch cache,
 *   so a relist cannot go back; the model serves it the API as it is.
 * - Writes use the API as it is: a create of an existing name fails with AlreadyExists, a
 *   delete with a uid precondition fails when the name now belongs to another object, a binding
 *   is the compare-and-swap of `scheduler.ts`. A refused write requeues the work until a watch
 *   event about it (`Informer.waiting`), so the controller does not spin on its stale view.
 *
 * What is abstracted: the node lifecycle,
 * taint eviction and pod GC controllers read the API as it is (their decisions are timed by the
 * grace period and tolerations, much longer than a watch lag); the kubelet's own pod source is
 * up to date while it reaches the API (its staleness after an etcd restore is in `etcdRestore`).
 */
import type { StepDescription } from '../checker/model.js';
import { clusterAction, type ClusterAction, type Ctx } from './context.js';
import { apiReachable, KCM, quorum, SCHED, writtenMetadata, type ClusterState, type Expectation, type Informer, type NodeObject, type PodObject, type Tolerations } from './state.js';

/** Informer caches are modelled. */
export const informersOn = (ctx: Ctx): boolean => ctx.config.informers.watchLag > 0;

const EMPTY: readonly string[] = Object.freeze([]);
const NO_EXPECTATIONS: readonly Expectation[] = Object.freeze([]);

/** A fresh cache: a LIST of the API as it is (or of a kube-apiserver's watch cache). */
export function listed(source: { readonly pods: readonly PodObject[]; readonly nodes: readonly (NodeObject | null)[] }): Informer {
  return { pods: source.pods, nodes: source.nodes, podsBehind: -1, nodesBehind: -1, waiting: EMPTY, expectations: NO_EXPECTATIONS };
}

const kcmClient = (c: number): string => `kube-controller-manager-${c + 1}`;
const schedulerClient = (c: number): string => `kube-scheduler-${c + 1}`;
export const apiserverCacheName = (i: number): string => `kube-apiserver-${i + 1}`;
const isApiserverCache = (client: string): boolean => client.startsWith('kube-apiserver-');

/** The pods and Node objects `client` decides from: its cache, or the API when it has none. */
export function viewOf(s: ClusterState, client: string): ClusterState {
  const inf = s.informers?.[client];
  if (inf === undefined || (inf.pods === s.api.pods && inf.nodes === s.api.nodes)) return s;
  // One view object per state and client, so the per-state caches of the components (the
  // scheduler's next pending pod) hit when several guards of one state ask.
  let byClient = views.get(s);
  if (byClient === undefined) views.set(s, (byClient = new Map()));
  let view = byClient.get(client);
  if (view === undefined) byClient.set(client, (view = { ...s, api: { ...s.api, pods: inf.pods, nodes: inf.nodes } }));
  return view;
}

const views = new WeakMap<ClusterState, Map<string, ClusterState>>();

/** The kube-controller-manager candidate's view (its informer cache when modelled). */
export const kcmView = (s: ClusterState, c: number): ClusterState => viewOf(s, kcmClient(c));
/** The kube-scheduler candidate's view. */
export const schedulerView = (s: ClusterState, c: number): ClusterState => viewOf(s, schedulerClient(c));

/** Whether `client` waits for a watch event about `item` (a workload or pod name) before acting on it again. */
export function waitingOn(s: ClusterState, client: string, item: string): boolean {
  return s.informers?.[client]?.waiting.includes(item) ?? false;
}

export const kcmWaiting = (s: ClusterState, c: number, item: string): boolean => waitingOn(s, kcmClient(c), item);
export const schedulerWaiting = (s: ClusterState, c: number, item: string): boolean => waitingOn(s, schedulerClient(c), item);

/** `client` waits for a watch event about `item` (no change when it has no cache). */
export function awaitEvent(s: ClusterState, client: string, item: string): ClusterState {
  const inf = s.informers?.[client];
  if (inf === undefined || inf.waiting.includes(item)) return s;
  return { ...s, informers: { ...s.informers, [client]: { ...inf, waiting: [...inf.waiting, item].sort() } } };
}

export const kcmAwait = (s: ClusterState, c: number, item: string): ClusterState => awaitEvent(s, kcmClient(c), item);
export const schedulerAwait = (s: ClusterState, c: number, item: string): ClusterState => awaitEvent(s, schedulerClient(c), item);

/** The ReplicaSet expectations of kube-controller-manager candidate c for `workload`, if any. */
function expectationOf(s: ClusterState, c: number, workload: string): Expectation | undefined {
  return s.informers?.[kcmClient(c)]?.expectations.find((x) => x.workload === workload);
}

/**
 * `SatisfiedExpectations`: no expectations, all seen (`Fulfilled`), or set more than
 * ExpectationsTimeout ago (`isExpired`, then the controller syncs anyway).
 */
export function expectationsSatisfied(ctx: Ctx, s: ClusterState, c: number, workload: string): boolean {
  const x = expectationOf(s, c, workload);
  return x === undefined || (x.add <= 0 && x.del <= 0) || x.age > ctx.config.kubeControllerManager.expectationsTimeout;
}

/** `ExpectCreations` / `ExpectDeletions` after a sync's writes (they overwrite, with a new timestamp). */
export function expect(s: ClusterState, c: number, workload: string, add: number, del: number): ClusterState {
  const client = kcmClient(c);
  const inf = s.informers?.[client];
  if (inf === undefined) return s;
  const rest = inf.expectations.filter((x) => x.workload !== workload);
  const expectations = add + del === 0 ? rest : [...rest, { workload, add, del, age: 0 }].sort((a, b) => (a.workload < b.workload ? -1 : 1));
  return { ...s, informers: { ...s.informers, [client]: { ...inf, expectations } } };
}

/**
 * A uid for a new incarnation of pod `name` (its `metadata.uid`, which the API serves as
 * `<name>-<n>`): the smallest n that no copy of an incarnation of that name anywhere in the state
 * carries. A copy is held by
 * - the API's pods and every informer cache (the controllers', the scheduler's, the extensions',
 *   the kube-apiservers' watch caches);
 * - the extensions' memories and the operators' store (`state.extensions`, `state.custom`): an
 *   operator's cache of Pods, its reconciles' planned writes (a delete's uid precondition), your
 *   memory, your objects' spec and status and their undelivered watch events, the calls made
 *   outside the cluster. There a uid is any token of a string (or of a key) that reads
 *   `<name>-<n>`, as a Pod object's uid does, or `<name>@<n>`; a bare number is not found, so an
 *   extension that keeps a uid keeps it in one of those forms;
 * - the etcd backup while an `etcd-restore` may still bring its pods back (`backup`: their uid
 *   is 0), once anything holds a copy at all (a cache is modelled or an extension is attached).
 *
 * So a new incarnation never has the uid of one that anything in the run can still compare it
 * with: an operator whose cache, memory or status still holds the old `db-0` sees a new uid on
 * the new one, and a delete with the old uid as precondition gets 409 Conflict. An incarnation
 * nothing holds a copy of any more cannot be compared with, so its number may be drawn again:
 * no step, guard or property can tell that from a number never drawn. That keeps uids small
 * (at most the number of copies held), so a run that deletes and recreates a pod over and over
 * has finitely many states; a counter per name, never reused, would make every round of such a
 * cycle a new state. (An operator's own objects draw `uid-N` from a counter instead, and the
 * fingerprint renames those by rank, `opaqueView`, which merges the same states.)
 *
 * Where nothing can hold a copy (no informer cache, no extension: the stock scenarios but
 * `stale-informers` and `expectations-timeout`), the name's old incarnation is gone from the API
 * when it is created again, so every uid is 0, the field stays absent and the states and their
 * counts are those of a model without uids (`test/operator/podUids.test.ts` checks both).
 */
export function freshUid(s: ClusterState, name: string, backup: readonly PodObject[] = NO_PODS): number {
  const used = new Set<number>();
  const scan = (pods: readonly PodObject[]): void => {
    for (const p of pods) if (p.name === name) used.add(p.uid ?? 0);
  };
  scan(s.api.pods);
  if (s.informers !== undefined) for (const inf of Object.values(s.informers)) scan(inf.pods);
  const memories = s.extensions !== undefined && Object.keys(s.extensions).length > 0;
  // Labels and annotations operators wrote may name a uid too (`evicted=db-0-0`).
  if (memories || s.custom !== undefined) heldIn([s.extensions, s.custom, writtenMetadata(s)], name, used);
  if (memories || s.custom !== undefined || s.informers !== undefined) scan(backup);
  let u = 0;
  while (used.has(u)) u++;
  return u;
}

const NO_PODS: readonly PodObject[] = Object.freeze([]);
const tokens = new Map<string, RegExp>();

/** Adds to `used` the uids of pod `name` that the JSON values hold as `<name>-<n>` or `<name>@<n>` tokens of their strings and keys. */
function heldIn(values: readonly unknown[], name: string, used: Set<number>): void {
  let pattern = tokens.get(name);
  if (pattern === undefined) {
    // A whole token: not preceded or followed by a character of a name (`db-0-1`, not `xdb-0-1` or `db-0-1-2`).
    const escaped = name.replace(/[.*+?^$(){}|[\]\\]/g, '\\$&');
    tokens.set(name, (pattern = new RegExp(`(?<![-a-z0-9.])${escaped}[-@](\\d+)(?![-a-z0-9.@])`, 'g')));
  }
  const re = pattern;
  const text = (v: string): void => {
    if (!v.includes(name)) return;
    re.lastIndex = 0;
    for (let m = re.exec(v); m !== null; m = re.exec(v)) used.add(Number(m[1]));
  };
  const walk = (v: unknown): void => {
    if (typeof v === 'string') text(v);
    else if (Array.isArray(v)) for (const x of v) walk(x);
    else if (v !== null && typeof v === 'object')
      for (const [k, x] of Object.entries(v)) {
        text(k);
        walk(x);
      }
  };
  for (const v of values) walk(v);
}

const uidOf = (p: PodObject): number => p.uid ?? 0;

function sameTolerations(a: Tolerations, b: Tolerations): boolean {
  return a === b || (a.unreachable === b.unreachable && a.notReady === b.notReady && a.outOfService === b.outOfService && a.noSchedule.join() === b.noSchedule.join());
}

function samePod(a: PodObject, b: PodObject): boolean {
  if (a === b) return true;
  return (
    a.name === b.name && uidOf(a) === uidOf(b) && a.nodeName === b.nodeName && a.deletion === b.deletion && a.workload === b.workload &&
    a.replacement === b.replacement && sameTolerations(a.tolerations, b.tolerations)
  );
}

function sameNode(a: NodeObject | null, b: NodeObject | null): boolean {
  if (a === b) return true;
  if (a === null || b === null) return false;
  return a.ready === b.ready && a.unschedulable === b.unschedulable && a.taints.length === b.taints.length && a.taints.every((t, i) => t === b.taints[i]);
}

function samePods(a: readonly PodObject[], b: readonly PodObject[]): boolean {
  return a === b || (a.length === b.length && a.every((p, i) => samePod(p, b[i])));
}

function sameNodes(a: readonly (NodeObject | null)[], b: readonly (NodeObject | null)[]): boolean {
  return a === b || (a.length === b.length && a.every((n, i) => sameNode(n, b[i])));
}

/** An object of the API a cache may be told about: `pod/<name>` or `node/<index>`. */
type ObjectRef = string;

/** The objects in which `inf` differs from the API, in order (pods by name, then nodes), of one stream or both. */
function differing(s: ClusterState, inf: Informer, stream?: Stream): ObjectRef[] {
  const src = s.api;
  const out: ObjectRef[] = [];
  if (inf.pods !== src.pods && stream !== 'nodes') {
    const names = new Set<string>();
    for (const p of src.pods) names.add(p.name);
    for (const p of inf.pods) names.add(p.name);
    for (const name of [...names].sort()) {
      const a = src.pods.find((p) => p.name === name);
      const b = inf.pods.find((p) => p.name === name);
      if (a === undefined || b === undefined || !samePod(a, b)) out.push(`pod/${name}`);
    }
  }
  if (inf.nodes !== src.nodes && stream !== 'pods') for (let n = 0; n < src.nodes.length; n++) if (!sameNode(src.nodes[n], inf.nodes[n])) out.push(`node/${n}`);
  return out;
}

/** The cache after the watch event about `ref`, with what the event means to expectations and waiting work. */
function deliver(ctx: Ctx, s: ClusterState, inf: Informer, refs: readonly ObjectRef[]): Informer {
  const src = s.api;
  let pods = inf.pods.slice();
  let nodes = inf.nodes;
  let expectations = inf.expectations;
  let waiting = inf.waiting;
  for (const ref of refs) {
    if (ref.startsWith('node/')) {
      const n = Number(ref.slice(5));
      const next = nodes.slice();
      next[n] = src.nodes[n];
      nodes = next;
      continue;
    }
    const name = ref.slice(4);
    const now = src.pods.find((p) => p.name === name);
    const before = pods.find((p) => p.name === name);
    pods = pods.filter((p) => p.name !== name);
    if (now !== undefined) pods.push(now);
    const w = ctx.workloadOfPod(name);
    if (w !== undefined) {
      // The informer's handlers: an add of a new object is a creation observed; an update that
      // sets deletionTimestamp, or a delete, is a deletion observed (replica_set.go addPod/updatePod/deletePod).
      const created = now !== undefined && (before === undefined || uidOf(before) !== uidOf(now));
      const deleted = before !== undefined && before.deletion === null && (now === undefined || uidOf(now) !== uidOf(before) || now.deletion !== null);
      if ((created || deleted) && expectations.some((x) => x.workload === w.name)) {
        expectations = expectations.map((x) => (x.workload !== w.name ? x : { ...x, add: created ? Math.max(0, x.add - 1) : x.add, del: deleted ? Math.max(0, x.del - 1) : x.del }));
        // Fulfilled: answered for as none is (an exact reduction, ModelReductions.expectations).
        if (ctx.reductions.expectations) expectations = expectations.filter((x) => x.workload !== w.name || x.add > 0 || x.del > 0);
      }
      if (waiting.includes(w.name)) waiting = waiting.filter((x) => x !== w.name);
    }
    if (waiting.includes(name)) waiting = waiting.filter((x) => x !== name);
  }
  pods.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  return { ...inf, pods, nodes, expectations, waiting };
}

/**
 * Whether `client`'s watch can deliver now: it reaches a kube-apiserver, and etcd has quorum.
 * Without quorum etcd serves no linearizable read and its watches make no progress, so caches
 * stay where they are (serializable reads: stale, not failed).
 */
function connected(s: ClusterState, client: string): boolean {
  if (!quorum(s)) return false;
  if (isApiserverCache(client)) return s.apiservers[Number(client.slice('kube-apiserver-'.length)) - 1] === true;
  for (const [e, prefix] of [[KCM, 'kube-controller-manager-'], [SCHED, 'kube-scheduler-']] as const) {
    if (client.startsWith(prefix)) {
      const k = s.candidates[e][Number(client.slice(prefix.length)) - 1];
      return k.up && k.paused === 0 && apiReachable(s, k.partitioned);
    }
  }
  return apiReachable(s, false);
}

/**
 * Keeps the caches in step with the rest of the state after any step: a cache for each client
 * that needs one (listed afresh when it appears), none for the others, and a watch cache for
 * each kube-apiserver up when `watchCaches` (some client can relist from one). A stream is
 * behind from when it first differs from the API until it equals it.
 */
export function syncInformers(ctx: Ctx, s: ClusterState, extensionClients: readonly string[], watchCaches: boolean): ClusterState {
  const before = s.informers ?? {};
  const next: Record<string, Informer> = {};
  let changed = false;
  const want = (client: string): void => {
    const inf = before[client] ?? listed(s.api);
    next[client] = inf;
  };
  s.candidates[KCM].forEach((k, c) => {
    if (k.ctrl !== null) want(kcmClient(c));
  });
  s.candidates[SCHED].forEach((k, c) => {
    if (k.up && k.leader) want(schedulerClient(c));
  });
  if (watchCaches && s.apiservers.length >= 2) s.apiservers.forEach((up, i) => up && want(apiserverCacheName(i)));
  for (const e of extensionClients) want(e);
  const src = s.api;
  for (const client of Object.keys(next)) {
    const inf = next[client];
    let updated = inf;
    // Each stream on its own: in sync (sharing the API's value), or behind since it first missed a change.
    if (inf.pods !== src.pods && samePods(inf.pods, src.pods)) updated = { ...updated, pods: src.pods };
    if (inf.nodes !== src.nodes && sameNodes(inf.nodes, src.nodes)) updated = { ...updated, nodes: src.nodes };
    const podsBehind = updated.pods === src.pods ? -1 : Math.max(0, inf.podsBehind);
    const nodesBehind = updated.nodes === src.nodes ? -1 : Math.max(0, inf.nodesBehind);
    if (podsBehind !== inf.podsBehind || nodesBehind !== inf.nodesBehind) updated = { ...updated, podsBehind, nodesBehind };
    if (updated !== inf) next[client] = updated;
    if (updated !== before[client]) changed = true;
  }
  if (!changed && Object.keys(before).length === Object.keys(next).length) return s;
  const sorted: Record<string, Informer> = {};
  for (const k of Object.keys(next).sort()) sorted[k] = next[k];
  return { ...s, informers: sorted };
}

/** Moves the caches' clocks by `seconds`: how long each has been behind, the expectations' age. */
export function tickInformers(ctx: Ctx, s: ClusterState, seconds: number): ClusterState {
  if (s.informers === undefined) return s;
  const lag = ctx.config.informers.watchLag;
  const expiry = ctx.config.kubeControllerManager.expectationsTimeout + ctx.tick;
  let changed = false;
  const next: Record<string, Informer> = {};
  for (const [client, inf] of Object.entries(s.informers)) {
    const podsBehind = inf.podsBehind >= 0 ? Math.min(lag, inf.podsBehind + seconds) : inf.podsBehind;
    const nodesBehind = inf.nodesBehind >= 0 ? Math.min(lag, inf.nodesBehind + seconds) : inf.nodesBehind;
    let expectations = inf.expectations.some((x) => x.age < expiry) ? inf.expectations.map((x) => (x.age < expiry ? { ...x, age: Math.min(expiry, x.age + seconds) } : x)) : inf.expectations;
    // Expired: answered for as none is (an exact reduction, ModelReductions.expectations).
    if (ctx.reductions.expectations && expectations.some((x) => x.age >= expiry)) expectations = expectations.filter((x) => x.age < expiry);
    const same = podsBehind === inf.podsBehind && nodesBehind === inf.nodesBehind && expectations === inf.expectations;
    next[client] = same ? inf : { ...inf, podsBehind, nodesBehind, expectations };
    if (next[client] !== inf) changed = true;
  }
  return changed ? { ...s, informers: next } : s;
}

/** A client's restart with a relist from kube-apiserver `from` (-1: the API as it is): its cache and memory start over. */
export function relist(s: ClusterState, client: string, from: number): ClusterState {
  const cache = from >= 0 ? s.informers?.[apiserverCacheName(from)] : undefined;
  const inf = listed(cache ?? s.api);
  // The settling after the step marks each stream behind where it differs from the API.
  return { ...s, informers: { ...s.informers, [client]: inf } };
}

/** A cache's watch stream: of pods or of Node objects (client-go has one informer per resource type). */
export type Stream = 'pods' | 'nodes';

/** How long a stream of `inf` has been behind (-1: in sync). */
const behindOf = (inf: Informer, stream: Stream): number => (stream === 'pods' ? inf.podsBehind : inf.nodesBehind);

/** The streams behind the API, as `<client>/<stream>`, of clients that can hear from a kube-apiserver. */
function streamsBehind(s: ClusterState): string[] {
  if (s.informers === undefined) return [];
  const out: string[] = [];
  for (const [client, inf] of Object.entries(s.informers)) {
    if (inf.podsBehind < 0 && inf.nodesBehind < 0) continue;
    if (!connected(s, client)) continue;
    if (inf.podsBehind >= 0) out.push(`${client}/pods`);
    if (inf.nodesBehind >= 0) out.push(`${client}/nodes`);
  }
  return out;
}

const parseStream = (p: string): { client: string; stream: Stream } => {
  const i = p.lastIndexOf('/');
  return { client: p.slice(0, i), stream: p.slice(i + 1) as Stream };
};

/** What a watch step tells `client`, for people. */
function describeEvent(client: string, refs: readonly string[], s: ClusterState): StepDescription {
  const what = refs.map((r) => {
    if (r.startsWith('node/')) return `Node node-${Number(r.slice(5)) + 1}`;
    const name = r.slice(4);
    const p = s.api.pods.find((q) => q.name === name);
    return p === undefined ? `${name} deleted` : `${name}${p.deletion !== null ? ' (Terminating)' : p.nodeName >= 0 ? ` on node-${p.nodeName + 1}` : ' (Pending)'}`;
  });
  return { actor: isApiserverCache(client) ? `${client}/watch-cache` : `${client}/informer`, summary: `hears of ${what.join(', ')}`, to: [] };
}

/** The urgent watch step: a cache `informers.watchLag` behind catches up with the API before anything else happens. */
export function informerActions(ctx: Ctx): ClusterAction[] {
  const lag = ctx.config.informers.watchLag;
  return [
    clusterAction<string>({
      name: 'watch-catch-up-due',
      urgent: true,
      params: (s) => streamsBehind(s),
      enabled: (s, p) => {
        const { client, stream } = parseStream(p);
        const inf = s.informers?.[client];
        return inf !== undefined && behindOf(inf, stream) >= lag && connected(s, client);
      },
      apply: (s, p) => catchUp(ctx, s, p),
      describe: (b, p) => {
        const { client, stream } = parseStream(p);
        const d = describeEvent(client, differing(b, b.informers![client], stream), b);
        return { ...d, summary: `${d.summary} (${lag}s behind: the watch delivers)` };
      },
    }),
  ];
}

/** The non-urgent watch step: any cache behind may catch up at any instant before the bound. */
export function watchEventActions(ctx: Ctx): ClusterAction[] {
  return [
    clusterAction<string>({
      name: 'watch-catch-up',
      urgent: false,
      params: (s) => streamsBehind(s),
      enabled: (s, p) => s.informers?.[parseStream(p).client] !== undefined && connected(s, parseStream(p).client),
      apply: (s, p) => catchUp(ctx, s, p),
      describe: (b, p) => {
        const { client, stream } = parseStream(p);
        return describeEvent(client, differing(b, b.informers![client], stream), b);
      },
    }),
  ];
}

/** The state after stream `<client>/<stream>` delivered every event it had missed. */
function catchUp(ctx: Ctx, s: ClusterState, p: string): ClusterState {
  const { client, stream } = parseStream(p);
  const inf = s.informers![client];
  return { ...s, informers: { ...s.informers, [client]: deliver(ctx, s, inf, differing(s, inf, stream)) } };
}

/** A compact, exact encoding of the caches for the state key. */
export function informersKey(s: ClusterState, podKey: (p: PodObject) => string, nodeKey: (n: NodeObject | null) => string): string {
  if (s.informers === undefined) return '';
  let out = '#I';
  for (const [client, inf] of Object.entries(s.informers)) {
    out += `${client}:${inf.podsBehind}:${inf.nodesBehind}:${inf.waiting.join(',')}:`;
    for (const x of inf.expectations) out += `${x.workload}+${x.add}-${x.del}@${x.age},`;
    out += ':';
    if (inf.pods === s.api.pods) out += '=';
    else for (const p of inf.pods) out += `${podKey(p)};`;
    out += ':';
    if (inf.nodes === s.api.nodes) out += '=';
    else for (const n of inf.nodes) out += `${nodeKey(n)},`;
    out += '|';
  }
  return out;
}



/** What a DELETE of a pod did: deleted (or marked Terminating), not found, or refused by its uid precondition. */
export type DeleteOutcome = 'deleted' | 'not-found' | 'conflict';

/** Options of {@link deletePod}. */
export interface DeleteOptions {
  /**
   * `preconditions.uid`: delete only the object with this uid; another object of the same name
   * gets 409 Conflict ("the UID in the precondition does not match"). Without it, the pod of that
   * name *now* is deleted, whatever the caller saw.
   */
  readonly uid?: number;
  /** `--grace-period=0 --force`: the object goes at once; otherwise it is marked Terminating. */
  readonly force?: boolean;
}

/**
 * A DELETE of pod `name` through the API, as an extension writes it (`state.api`, not its cache):
 * by name, or with a uid precondition. Returns the state after and what happened.
 */
export function deletePod(s: ClusterState, name: string, options: DeleteOptions = {}): { readonly state: ClusterState; readonly outcome: DeleteOutcome } {
  const p = s.api.pods.find((q) => q.name === name);
  if (p === undefined) return { state: s, outcome: 'not-found' };
  if (options.uid !== undefined && uidOf(p) !== options.uid) return { state: s, outcome: 'conflict' };
  const pods = options.force === true || p.nodeName < 0 ? s.api.pods.filter((q) => q !== p) : s.api.pods.map((q) => (q === p ? { ...q, deletion: q.deletion ?? ('operator' as const) } : q));
  return { state: { ...s, api: { ...s.api, pods } }, outcome: 'deleted' };
}

/**
 * Where a restarting client's LIST with resourceVersion="0" may be served from: any kube-apiserver
 * up with a watch cache (a serializable read: served without etcd quorum, possibly stale), or
 * with one kube-apiserver the API as it is (-1), which needs quorum (a linearizable read fails
 * on a minority). Empty: the LIST fails and the client cannot start.
 */
export function relistSources(s: ClusterState): number[] {
  if (s.apiservers.length < 2) return s.apiservers[0] && quorum(s) ? [-1] : [];
  const out: number[] = [];
  s.apiservers.forEach((up, i) => {
    if (up && s.informers?.[apiserverCacheName(i)] !== undefined) out.push(i);
  });
  return out;
}
