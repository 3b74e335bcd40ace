/**
 * An operator as controller-runtime runs it, inside the cluster model: informers per watched
 * kind feed a workqueue, one worker takes requests in order and calls your `reconcile`, whose
 * writes go to the API one by one.
 *
 * - **Informers.** Each watched kind has its own watch stream: every change of an object of
 *   that kind is an event, delivered to the operator's cache in order, each at any later instant
 *   (so every staleness of the cache is explored: a reconcile may read an object its own last
 *   write already changed). Delivering an event queues the request it maps to (the object's name
 *   for the primary kind `for`; the controller owner's name for kinds in `owns`; your `map` for
 *   other `watches`).
 * - **Workqueue.** A request already queued is not queued twice (events coalesce); one worker
 *   (controller-runtime's default MaxConcurrentReconciles = 1) takes the oldest request; a request
 *   that arrives while it is being reconciled is queued again and runs after.
 * - **Reconcile.** `reconcile(request, view)` reads only `view` (the cache, your memory, and the
 *   API reader controller-runtime gives as `mgr.GetAPIReader()`) and returns the writes it makes,
 *   in order. The first write that fails ends the reconcile with that error: the request is
 *   queued again (the default rate limiter's first retries are 5 ms apart, instant at the model's
 *   one-second grain). `requeue: true` queues it again at once, `requeueAfter: N` after at least N
 *   seconds. Between two writes of one reconcile anything else may happen, a restart included.
 * - **Restart** (`<name>-restart`, budget `faults.extensionRestart`): the process loses its
 *   memory, cache, queue and the rest of its reconcile; it lists every watched kind again and
 *   queues every object of `for`. The API objects and the calls made outside stay.
 *
 * Sources: sigs.k8s.io/controller-runtime pkg/internal/controller/controller.go (one worker,
 * reconcileHandler: error → AddRateLimited, Requeue, RequeueAfter), client-go util/workqueue
 * (dirty set: an item is queued once; re-added after Done if it changed while processed),
 * client-go tools/cache (reflector ListAndWatch, store keyed by namespace/name).
 */
import { action, type AnyActionDef, type JsonValue, type LivenessProperty, type Property, type StepDescription } from '../../checker/index.js';
import { always } from '../../checker/properties.js';
import type { ClusterExtension } from '../clusterModel.js';
import type { ClusterState } from '../state.js';
import { applyWrite, EMPTY_STORE, garbageCollectable, objectName, type ApiObject, type CustomStore, type ObjectInit, type WatchEvent, type Write, type WriteOutcome } from './api.js';

/** What a reconcile reads. */
export interface ReconcileView<M extends JsonValue = JsonValue> {
  /** From the operator's informer cache (possibly stale). */
  get(kind: string, name: string): ApiObject | undefined;
  /** Every cached object of `kind`, sorted by name. */
  list(kind: string): readonly ApiObject[];
  /** A live read from the API, bypassing the cache (controller-runtime's `mgr.GetAPIReader()`). */
  readonly reader: { get(kind: string, name: string): ApiObject | undefined; list(kind: string): readonly ApiObject[] };
  /** The operator's own in-process memory (lost on restart). */
  readonly memory: M;
}

/** What a reconcile returns. */
export interface ReconcileResult<M extends JsonValue = JsonValue> {
  /** Writes to the API and calls outside the cluster, made in order; the first failure stops the rest and requeues. */
  readonly writes?: readonly Write[];
  /** Failures to treat as success (e.g. `['NotFound']` for `client.IgnoreNotFound`). */
  readonly ignore?: readonly WriteOutcome[];
  readonly requeue?: boolean;
  /** Seconds after which the request is queued again. */
  readonly requeueAfter?: number;
  /** The operator's memory after this reconcile. */
  readonly memory?: M;
}

/** A user's action on the cluster (a `kubectl apply`, `edit`, `delete`), up to `times` times. */
export interface ClientAction {
  readonly name: string;
  /** The writes it makes, in the state it is run in; none (or an empty list) when it does not apply. */
  writes(state: ClusterState): readonly Write[] | undefined;
  /** How many times it may happen in a run (default 1). */
  readonly times?: number;
  /** One line for timelines, e.g. `kubectl delete backup b`. */
  readonly description?: string;
}

/** An extra watch: events of `kind` map to the requests `map` names. */
export interface Watch {
  readonly kind: string;
  map(object: ApiObject): readonly string[];
}

/** An operator: its kinds and objects, its watches, its reconcile, and what it promises. */
export interface OperatorDefinition<M extends JsonValue = JsonValue> {
  readonly name: string;
  /** The primary kind: its events queue the object's own name. */
  readonly for: string;
  /** Kinds it creates with itself as controller owner: their events queue the owner's name. */
  readonly owns?: readonly string[];
  readonly watches?: readonly Watch[];
  /** Objects in the API at the start (your custom resources, as manifests give them). */
  readonly objects?: readonly ObjectInit[];
  /** The in-process memory a fresh process starts with (default null). */
  readonly memory?: M;
  reconcile(request: string, view: ReconcileView<M>): ReconcileResult<M>;
  readonly clients?: readonly ClientAction[];
  /**
   * Calls outside the cluster that must not be made twice (a backup, a payment, a DNS record
   * created without an idempotency key): the property `<name>-external-call-once` says none is.
   */
  nonIdempotent?(call: string): boolean;
  readonly properties?: readonly Property<ClusterState>[];
  readonly liveness?: readonly LivenessProperty<ClusterState>[];
}

/** The operator's process state in `state.extensions[name]`. */
export interface OperatorMemory {
  readonly cache: Readonly<Record<string, readonly ApiObject[]>>;
  readonly queue: readonly string[];
  readonly later: readonly { readonly request: string; readonly in: number }[];
  readonly inflight: { readonly request: string; readonly writes: readonly Write[]; readonly next: number; readonly ignore: readonly WriteOutcome[]; readonly requeue: boolean; readonly after: number } | null;
  readonly memory: JsonValue;
}

const byName = (a: ApiObject, b: ApiObject): number => (a.metadata.name < b.metadata.name ? -1 : a.metadata.name > b.metadata.name ? 1 : 0);
const describeWrite = (w: Write): string => {
  switch (w.op) {
    case 'external':
      return `call ${w.call}`;
    case 'create':
      return `create ${objectName(w.object.kind, w.object.metadata.name)}`;
    case 'update':
    case 'updateStatus':
      return `${w.op} ${objectName(w.object.kind, w.object.metadata.name)} (resourceVersion ${w.object.metadata.resourceVersion || 'none'})`;
    case 'patch':
    case 'patchStatus':
      return `${w.op} ${objectName(w.kind, w.name)}${w.resourceVersion === undefined ? '' : ` (resourceVersion ${w.resourceVersion})`}`;
    case 'delete': {
      const pre = w.preconditions === undefined ? '' : ` (preconditions ${Object.entries(w.preconditions).map(([k, v]) => `${k}=${v}`).join(', ')})`;
      return `delete ${objectName(w.kind, w.name)}${pre}`;
    }
  }
};
const OUTCOME: Record<WriteOutcome, string> = { ok: 'ok', AlreadyExists: '409 AlreadyExists', Conflict: '409 Conflict', NotFound: '404 NotFound', Invalid: '422 Invalid' };

/** Applies writes in order with no stop on failure (a user's commands). */
function applyAll(store: CustomStore, writes: readonly Write[]): CustomStore {
  let s = store;
  for (const w of writes) s = applyWrite(s, w)[0];
  return s;
}

/** The garbage collector, shared by every operator (one action, whoever declares it first). */
export const garbageCollector: AnyActionDef<ClusterState> = action<ClusterState, string>({
  name: 'garbage-collector',
  params: (s) => (s.custom === undefined ? [] : garbageCollectable(s.custom).map((o) => `${o.kind}/${o.name}`)),
  apply: (s, key) => {
    if (s.custom === undefined) return undefined;
    const [kind, name] = splitKey(key);
    const o = garbageCollectable(s.custom).find((x) => x.kind === kind && x.name === name);
    if (o === undefined) return undefined;
    return { ...s, custom: applyWrite(s.custom, { op: 'delete', kind, name, preconditions: { uid: o.uid } })[0] };
  },
  fair: 'strong',
});

const splitKey = (key: string): [string, string] => {
  const i = key.indexOf('/');
  return [key.slice(0, i), key.slice(i + 1)];
};

/** `kubectl describe`-style line for a garbage-collector step. */
export function describeGarbageCollection(key: string): StepDescription {
  return { actor: 'kube-controller-manager/garbage-collector', summary: `deletes ${key}: its owner is gone (background propagation)`, to: ['kube-apiserver'] };
}

/**
 * Builds the operator as an extension of the cluster model: `kubecheck check --extension` takes
 * the module that exports it, and its properties are checked by default.
 */
export function operator<M extends JsonValue = JsonValue>(def: OperatorDefinition<M>): ClusterExtension {
  const name = def.name;
  const kinds = [...new Set([def.for, ...(def.owns ?? []), ...(def.watches ?? []).map((w) => w.kind)])];
  const fresh = (def.memory ?? null) as JsonValue;
  const mem = (s: ClusterState): OperatorMemory => s.extensions![name] as unknown as OperatorMemory;
  const store = (s: ClusterState): CustomStore => s.custom ?? EMPTY_STORE;
  const withMem = (s: ClusterState, m: OperatorMemory, custom: CustomStore = store(s)): ClusterState => ({ ...s, custom, extensions: { ...s.extensions, [name]: m as unknown as JsonValue } });

  /** The requests one object's event queues. */
  const requestsOf = (o: ApiObject): readonly string[] => {
    if (o.kind === def.for) return [o.metadata.name];
    const out: string[] = [];
    if (def.owns?.includes(o.kind)) for (const r of o.metadata.ownerReferences ?? []) if (r.controller === true && r.kind === def.for) out.push(r.name);
    for (const w of def.watches ?? []) if (w.kind === o.kind) out.push(...w.map(o));
    return out;
  };
  const enqueue = (queue: readonly string[], requests: readonly string[]): readonly string[] => {
    let q = queue;
    for (const r of requests) if (!q.includes(r)) q = [...q, r];
    return q;
  };
  /** A fresh process: lists every watched kind, queues every object it maps to. */
  const started = (s: ClusterState): OperatorMemory => {
    const cache: Record<string, readonly ApiObject[]> = {};
    let queue: readonly string[] = [];
    for (const k of kinds) {
      cache[k] = store(s).objects[k] ?? [];
      for (const o of cache[k]) queue = enqueue(queue, requestsOf(o));
    }
    return { cache, queue, later: [], inflight: null, memory: fresh };
  };
  const watching = (): Record<string, readonly WatchEvent[]> => Object.fromEntries(kinds.map((k) => [k, []]));

  const view = (s: ClusterState, m: OperatorMemory): ReconcileView<M> => ({
    get: (kind, n) => (m.cache[kind] ?? []).find((o) => o.metadata.name === n),
    list: (kind) => m.cache[kind] ?? [],
    reader: { get: (kind, n) => (store(s).objects[kind] ?? []).find((o) => o.metadata.name === n), list: (kind) => store(s).objects[kind] ?? [] },
    memory: m.memory as M,
  });
  /** The end of a reconcile: requeue as it asked (or after an error). */
  const finish = (m: OperatorMemory, request: string, requeue: boolean, after: number): OperatorMemory => {
    if (requeue) return { ...m, inflight: null, queue: enqueue(m.queue, [request]) };
    if (after > 0 && !m.later.some((l) => l.request === request)) return { ...m, inflight: null, later: [...m.later, { request, in: after }] };
    return { ...m, inflight: null };
  };

  const actions: AnyActionDef<ClusterState>[] = [
    action<ClusterState, string>({
      name: `${name}-watch`,
      params: kinds,
      enabled: (s, kind) => (store(s).watches[name]?.[kind]?.length ?? 0) > 0,
      apply: (s, kind) => {
        const st = store(s);
        const [event, ...rest] = st.watches[name][kind];
        const m = mem(s);
        const others = (m.cache[kind] ?? []).filter((o) => o.metadata.name !== event.object.metadata.name);
        const list = event.type === 'DELETED' ? others : [...others, event.object].sort(byName);
        const next: OperatorMemory = { ...m, cache: { ...m.cache, [kind]: list }, queue: enqueue(m.queue, requestsOf(event.object)) };
        return withMem(s, next, { ...st, watches: { ...st.watches, [name]: { ...st.watches[name], [kind]: rest } } });
      },
      fair: 'strong',
    }),
    action<ClusterState>({
      name: `${name}-reconcile`,
      enabled: (s) => mem(s).inflight === null && mem(s).queue.length > 0,
      apply: (s) => {
        const m = mem(s);
        const [request, ...queue] = m.queue;
        const r = def.reconcile(request, view(s, m));
        const memory = r.memory === undefined ? m.memory : (r.memory as JsonValue);
        const taken: OperatorMemory = { ...m, queue, memory };
        const writes = r.writes ?? [];
        if (writes.length === 0) return withMem(s, finish(taken, request, r.requeue === true, r.requeueAfter ?? 0));
        return withMem(s, { ...taken, inflight: { request, writes, next: 0, ignore: r.ignore ?? [], requeue: r.requeue === true, after: r.requeueAfter ?? 0 } });
      },
      fair: 'strong',
    }),
    action<ClusterState>({
      name: `${name}-write`,
      enabled: (s) => mem(s).inflight !== null,
      apply: (s) => {
        const m = mem(s);
        const f = m.inflight!;
        const [custom, outcome] = applyWrite(store(s), f.writes[f.next]);
        const failed = outcome !== 'ok' && !f.ignore.includes(outcome);
        const done = failed || f.next + 1 === f.writes.length;
        const next = done ? finish(m, f.request, failed || f.requeue, failed ? 0 : f.after) : { ...m, inflight: { ...f, next: f.next + 1 } };
        return withMem(s, next, custom);
      },
      fair: 'strong',
    }),
    action<ClusterState>({
      name: `${name}-requeue`,
      enabled: (s) => mem(s).later.some((l) => l.in === 0),
      apply: (s) => {
        const m = mem(s);
        const due = m.later.find((l) => l.in === 0)!;
        return withMem(s, { ...m, later: m.later.filter((l) => l !== due), queue: enqueue(m.queue, [due.request]) });
      },
      fair: 'strong',
    }),
    action<ClusterState>({
      name: `${name}-restart`,
      enabled: (s) => (s.budget.extensionRestart ?? 0) > 0,
      apply: (s) => {
        const st = store(s);
        const s1: ClusterState = { ...s, budget: { ...s.budget, extensionRestart: s.budget.extensionRestart - 1 }, custom: { ...st, watches: { ...st.watches, [name]: watching() } } };
        return withMem(s1, started(s1), s1.custom);
      },
    }),
  ];
  if ((def.clients ?? []).length > 0) {
    const clients = new Map((def.clients ?? []).map((c) => [c.name, c]));
    actions.push(
      action<ClusterState, string>({
        name: `${name}-client`,
        params: [...clients.keys()],
        enabled: (s, c) => (store(s).clients[`${name}/${c}`] ?? 0) > 0 && (clients.get(c)!.writes(s) ?? []).length > 0,
        apply: (s, c) => {
          const st = store(s);
          const key = `${name}/${c}`;
          const custom = applyAll({ ...st, clients: { ...st.clients, [key]: st.clients[key] - 1 } }, clients.get(c)!.writes(s) ?? []);
          return { ...s, custom };
        },
      }),
    );
  }
  actions.push(garbageCollector);

  const properties: Property<ClusterState>[] = [...(def.properties ?? [])];
  if (def.nonIdempotent !== undefined) {
    const once = def.nonIdempotent;
    properties.unshift(
      always<ClusterState>(
        `${name}-external-call-once`,
        `${name} never makes a call outside the cluster that is not idempotent twice`,
        (s) => Object.entries(store(s).calls).every(([call, n]) => n < 2 || !once(call)),
        {
          source: 'https://kubernetes.io/docs/concepts/architecture/controller/ (controllers act on the current state: a reconcile may run again on a stale read)',
          explain: (s) => {
            const twice = Object.entries(store(s).calls).filter(([call, n]) => n >= 2 && once(call)).map(([call]) => call);
            return twice.length === 0 ? undefined : `${name} called ${twice.join(', ')} twice`;
          },
        },
      ),
    );
  }

  const describeStep = (before: ClusterState, a: { readonly name: string; readonly param?: JsonValue }, after: ClusterState): StepDescription => {
    const m = mem(before);
    if (a.name === `${name}-watch`) {
      const event = store(before).watches[name][a.param as string][0];
      const queued = requestsOf(event.object).filter((r) => !m.queue.includes(r));
      return { actor: name, summary: `its informer hears ${event.type} ${objectName(event.object.kind, event.object.metadata.name)} (${event.object.metadata.resourceVersion})${queued.length > 0 ? `, queues ${queued.join(', ')}` : ''}`, routine: false };
    }
    if (a.name === `${name}-reconcile`) {
      const request = m.queue[0];
      const f = mem(after).inflight;
      const cached = m.cache[def.for]?.find((o) => o.metadata.name === request);
      const read = cached === undefined ? `its cache has no ${def.for} ${request}` : `its cache has ${def.for} ${request} at ${cached.metadata.resourceVersion}${cached.metadata.deletionTimestamp === undefined ? '' : ', being deleted'}`;
      const plan = f === null ? 'nothing to write' : `plans ${f.writes.map(describeWrite).join('; ')}`;
      return { actor: name, summary: `reconciles ${request} (${read}): ${plan}` };
    }
    if (a.name === `${name}-write`) {
      const f = m.inflight!;
      const outcome = applyWrite(store(before), f.writes[f.next])[1];
      const failed = outcome !== 'ok' && !f.ignore.includes(outcome);
      const w = f.writes[f.next];
      return { actor: name, summary: `${describeWrite(w)}: ${OUTCOME[outcome]}${failed ? `, so the reconcile of ${f.request} fails and ${f.request} is queued again` : ''}`, to: [w.op === 'external' ? 'outside the cluster' : 'kube-apiserver'] };
    }
    if (a.name === `${name}-requeue`) return { actor: name, summary: `queues ${m.later.find((l) => l.in === 0)?.request} again (requeueAfter)` };
    if (a.name === `${name}-restart`) return { actor: 'fault', summary: `${name} restarts: its memory, cache and queue are lost, and it lists ${kinds.join(', ')} again`, affects: [name] };
    if (a.name === `${name}-client`) {
      const c = def.clients?.find((x) => x.name === a.param);
      return { actor: 'user', summary: c?.description ?? `${c?.name}: ${(c?.writes(before) ?? []).map(describeWrite).join('; ')}`, to: ['kube-apiserver'] };
    }
    if (a.name === 'garbage-collector') return describeGarbageCollection(a.param as string);
    return { actor: name, summary: a.name };
  };

  return {
    name,
    prepare: (s: ClusterState): ClusterState => {
      let st = store(s);
      for (const o of def.objects ?? []) {
        const [next, outcome] = applyWrite(st, { op: 'create', object: o });
        if (outcome !== 'ok') throw new Error(`initial object ${objectName(o.kind, o.metadata.name)}: ${OUTCOME[outcome]}`);
        st = next;
      }
      const clients = { ...st.clients };
      for (const c of def.clients ?? []) clients[`${name}/${c.name}`] = c.times ?? 1;
      return { ...s, custom: { ...st, clients, watches: { ...st.watches, [name]: watching() } } };
    },
    initial: (s) => started(s) as unknown as JsonValue,
    onTick: (memory, _s, seconds) => {
      const m = memory as unknown as OperatorMemory;
      return m.later.length === 0 ? memory : ({ ...m, later: m.later.map((l) => ({ request: l.request, in: Math.max(0, l.in - seconds) })) } as unknown as JsonValue);
    },
    actions,
    describeStep,
    properties,
    ...(def.liveness === undefined ? {} : { liveness: def.liveness }),
    symmetric: true,
  };
}
