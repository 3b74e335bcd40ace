/**
 * An operator as controller-runtime runs it, inside the cluster model: informers per watched
 * kind feed a workqueue, its workers take requests in order and call your `reconcile`, whose
 * writes go to the API one by one.
 *
 * - **Informers.** Each watched kind has its own watch stream: every change of an object of
 *   that kind is an event, delivered to the operator's cache in order, each at any later instant
 *   (so every staleness of the cache is explored: a reconcile may read an object its own last
 *   write already changed). Delivering an event queues the request it maps to (the object's key,
 *   `namespace/name` or a bare name, for the primary kind `for`; the controller owner's key, in
 *   the dependent's namespace, for kinds in `owns`; your `map` for other `watches`).
 *   With `informers.watchLag` > 0 the lag is bounded as the built-in informers' is: an event that
 *   has waited that long (a cache of the cluster's Pods or Nodes that has differed from the API
 *   that long) is delivered before time passes and before anything else happens
 *   (`<name>-watch-due`, urgent), so a reconcile reads a copy less than the lag old; earlier it
 *   may come at any instant. With 0 (the default) an event may wait any time: Kubernetes bounds no
 *   watch's delay (a slow or restarted watch, a lagging kube-apiserver watch cache, a paused
 *   process: client-go promises only that events come in order), and for the built-in components
 *   0 means no cache at all, which would be no staleness for an operator, whose stale reads are
 *   what is checked. Give a lag to assume a bound (a verdict then holds only under it); a paused
 *   or cut-off replica hears nothing until it runs again, and then hears what is due first.
 * - **Workqueue.** A request already queued is not queued twice (events coalesce); each free
 *   worker (`maxConcurrentReconciles`, controller-runtime's MaxConcurrentReconciles, default 1)
 *   takes the oldest request no other worker is reconciling; a request that arrives while it is
 *   being reconciled is queued again and runs after.
 * - **Reconcile.** `reconcile(request, view)` reads only `view` (the cache, your memory, and the
 *   API reader controller-runtime gives as `mgr.GetAPIReader()`) and returns the writes it makes,
 *   in order. The first write that fails ends the reconcile with that error: the request is
 *   queued again through the rate limiter (`AddRateLimited`). Given `rateLimiter`, its
 *   per-request backoff doubles with each failure (controller-runtime's 5 ms × 2^n up to 1000 s,
 *   rounded down to the model's one second: the first eight retries at once, the later ones after
 *   at least 1, 2, 5 … 1000 s) and a success forgets the count; without it a retry is queued at
 *   once (as the first ones are) and may run at any later instant. `requeue: true` is queued again
 *   the same way, `requeueAfter: N` after at least N seconds. The overall token bucket (10 per
 *   second, burst 100) is not modelled.
 *   Between two writes of one reconcile anything else may happen, a restart included.
 * - **Restart** (`<name>-restart`, budget `faults.extensionRestart`): the process loses its
 *   memory, cache, queue and the rest of its reconcile; it lists every watched kind again and
 *   queues every object of `for`. The API objects and the calls made outside stay.
 *
 * Sources: sigs.k8s.io/controller-runtime pkg/internal/controller/controller.go (MaxConcurrentReconciles
 * workers; reconcileHandler: error or Requeue → AddRateLimited, RequeueAfter → Forget and AddAfter,
 * success → Forget), client-go util/workqueue (dirty and processing sets: an item is queued once,
 * never handed to two workers, re-added after Done if it changed while processed;
 * DefaultTypedControllerRateLimiter, ItemExponentialFailureRateLimiter),
 * client-go tools/cache (reflector ListAndWatch, store keyed by namespace/name).
 */
import { action, type AnyActionDef, type JsonValue, type LivenessProperty, type Property, type StepDescription } from '../../checker/index.js';
import { always } from '../../checker/properties.js';
import type { ClusterExtension } from '../clusterModel.js';
import { clusterAction, type ClusterAction } from '../context.js';
import { canWrite, stateWith, type ClusterState } from '../state.js';
import { deletePod } from '../informers.js';
import { deleteClaim } from '../claims.js';
import { modelError, ModelErrorCode } from '../errors.js';
import { compactJson, objectLabel, presentObject, shownVersion } from './present.js';
import { copyOf, deepFreeze, jsonFrom, modelBuiltExtensions, userCall } from './userCode.js';
import { nodeLabelsOf, type WorkloadConfig } from '../config.js';
import { labelKeysRead, podLabelKeysRead } from '../placement.js';
import { applyWrite, DELETABLE_KINDS, EMPTY_STORE, workloadAsObject, isStockKind, keyOf, namesNodes, objectKey, objectName, SCALABLE_KINDS, scaleWorkload, stockObjects, workloadSpecOf, writeNode, writePodMeta, type ApiObject, type MetaPatch, type MetaWrite, type CustomStore, type ObjectInit, type WatchEvent, type Write, type WriteOutcome } from './api.js';

/**
 * What a reconcile reads. Objects are found by name and namespace, or by their key
 * (`namespace/name`, what a request of a namespaced object is; a bare name for an object
 * without a namespace), as controller-runtime's `client.ObjectKey` and client-go's cache keys do.
 */
export interface ReconcileView<M extends JsonValue = JsonValue> {
  /** From the operator's informer cache (possibly stale). */
  get(kind: string, name: string, namespace?: string): ApiObject | undefined;
  /** Every cached object of `kind` (of `namespace` when given: `client.InNamespace`), sorted by key. */
  list(kind: string, namespace?: string): readonly ApiObject[];
  /** A live read from the API, bypassing the cache (controller-runtime's `mgr.GetAPIReader()`). */
  readonly reader: { get(kind: string, name: string, namespace?: string): ApiObject | undefined; list(kind: string, namespace?: string): readonly ApiObject[] };
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
  /**
   * The error the reconcile returns (Go's `return ctrl.Result{}, err`), in one line: once its
   * writes are made (none, or all of them that did not fail), the reconcile ends in failure and its
   * request is queued again through the rate limiter, as controller-runtime's reconcileHandler does
   * with an error (`AddRateLimited`, the error logged; `requeue` and `requeueAfter` are then
   * ignored, as there). Traces give it: `reconciles db: returns error "db-0 not Ready yet", so ...`.
   * An empty string is no error.
   */
  readonly error?: string;
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
  /** The primary kind: its events queue the object's own key (`namespace/name`, or its name when it has no namespace). */
  readonly for: string;
  /** Kinds it creates with itself as controller owner: their events queue the owner's key (in the dependent's namespace). */
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
  /**
   * Replicas of the operator's Deployment (default 1). With more than one, the manager's leader
   * election runs (controller-runtime's `LeaderElection: true`): only the leader's controllers run.
   */
  readonly replicas?: number;
  /** The manager's leader-election timings in seconds (controller-runtime's defaults: 15, 10, 2). */
  readonly leaderElection?: { readonly leaseDurationSeconds?: number; readonly renewDeadlineSeconds?: number; readonly retryPeriodSeconds?: number };
  /**
   * Workers of its controller (controller-runtime's `MaxConcurrentReconciles`, default 1, at most
   * 3): that many reconciles run at once, never two of one request (the workqueue hands a request
   * being processed to no other worker; one queued meanwhile waits for it to finish).
   */
  readonly maxConcurrentReconciles?: number;
  /**
   * The per-request backoff of the controller's rate limiter: a failed
   * reconcile (or one asking `requeue`) is queued again after `baseDelaySeconds` × 2^(failures
   * so far), at most `maxDelaySeconds`; a success forgets the count. Each field defaults to
   * controller-runtime's (`DefaultTypedControllerRateLimiter`'s exponential part: 5 ms and
   * 1000 s; at the model's one-second grain the first eight retries are at once, then 1, 2, 5, 10,
   * 20, 40, 81, 163, 327, 655 and 1000 s), so `rateLimiter: {}` is controller-runtime's default.
   *
   * The delays are kept at the model's one-second grain (rounded down) as lower bounds: a due
   * retry is queued at some instant after.
   *
   * Without it, a failed reconcile is queued again at once, as the first retries of
   * controller-runtime's default are (5 ms apart), and since a reconcile is never forced to run at
   * an instant it may run at any later one; the failure counts and their timers are not kept, at
   * a fraction of the states. What it leaves out is a retry that must wait while other events
   * come and go (with a backoff, an event in the meantime is reconciled, and the retry runs after
   * it). Give it when a verdict may depend on how late a retry comes.
   */
  readonly rateLimiter?: { readonly baseDelaySeconds?: number; readonly maxDelaySeconds?: number };
  /** Whether its memory is unchanged by renaming nodes (default true: a reconcile reads only its view). */
  readonly symmetric?: boolean;
  /**
   * Your memory (what reconciles keep in `memory`) in people's words, e.g. `2 restarts seen`: in
   * a step's changes (`extensions.<name>.memory: 1 restart seen → 2 restarts seen`) and in the
   * operator's part of a state's description. Default: the memory as compact JSON.
   */
  describeMemory?(memory: M): string;
  /**
   * The words for an object of one of its kinds (`for`, `owns`, `watches`), after its kind, name
   * and metadata (`RestartRequest db-restart (uid-2, rv-4): Restarting, 0 of 2 done`), wherever it
   * is shown: the API's objects and cached copies, in a step's changes and a state's description.
   * Undefined (or no hook) leaves the default: its spec and status.
   */
  describeObject?(object: ApiObject): string | undefined;
}

/** One replica's process state; `state.extensions[name]` lists them. */
export interface OperatorMemory {
  /** `single` without leader election; else whether it believes it leads. */
  readonly role: 'single' | 'leader' | 'follower';
  /** Seconds until its next leader-election try (acquire or renew). */
  readonly retryIn: number;
  /** Leader: seconds since its last successful renewal (saturates at the renew deadline). */
  readonly sinceRenew: number;
  /** The Lease's resourceVersion when it last saw the record change, and seconds since (saturating at the lease duration). */
  readonly observed: string;
  readonly observedAge: number;
  /** Seconds left of a stop-the-world pause. */
  readonly paused: number;
  /**
   * A leader whose pause ended past its deadline: `race` until its goroutines' order is chosen,
   * `stale` while its controllers run before its renew loop (until the next tick). Absent otherwise.
   */
  readonly resumed?: 'race' | 'stale';
  readonly cache: Readonly<Record<string, readonly ApiObject[]>>;
  readonly queue: readonly string[];
  readonly later: readonly { readonly request: string; readonly in: number }[];
  /** The reconciles under way, one per busy worker, sorted by request (workers are alike, so which one runs it does not matter). */
  readonly inflight: readonly Reconciling[];
  /** The rate limiter's count of failures per request since it last succeeded (`Forget`), saturating where the delay reaches its cap. */
  readonly failures: Readonly<Record<string, number>>;
  readonly memory: JsonValue;
  /**
   * With `informers.watchLag` > 0: per watched kind, how long (seconds, saturating at the lag)
   * each of its first undelivered watch events has waited, oldest first (events after those have
   * waited less than one tick); for the cluster's Pods and Nodes, how long the cache has differed
   * from the API. Absent when nothing waits.
   */
  readonly watchAges?: Readonly<Record<string, readonly number[]>>;
}

/** One reconcile under way: its writes, the next to send, and what to do when they are done. */
export interface Reconciling {
  readonly request: string;
  readonly writes: readonly Write[];
  readonly next: number;
  readonly ignore: readonly WriteOutcome[];
  readonly requeue: boolean;
  readonly after: number;
  /** The error the reconcile returned: it fails once its writes are made. */
  readonly error?: string;
}

const sameObject = (a: ApiObject | undefined, b: ApiObject): boolean => a === b || (a !== undefined && JSON.stringify(a) === JSON.stringify(b));
const sameObjects = (a: readonly ApiObject[], b: readonly ApiObject[]): boolean => a === b || (a.length === b.length && a.every((o, k) => sameObject(o, b[k])));
const byKey = (a: ApiObject, b: ApiObject): number => {
  const x = objectKey(a.metadata);
  const y = objectKey(b.metadata);
  return x < y ? -1 : x > y ? 1 : 0;
};
/**
 * The cluster's own objects (Pods, Nodes, workloads) are those of namespace `default`, served
 * without `metadata.namespace`: a read or write naming `default` (or `default/web`) finds them.
 */
const stockName = (name: string, namespace?: string): string => {
  const key = keyOf(name, namespace);
  return key.startsWith('default/') ? key.slice('default/'.length) : key;
};
/** One object of `kind` by name and namespace, or by key. */
const find = (list: readonly ApiObject[], kind: string, name: string, namespace?: string): ApiObject | undefined => {
  const key = isStockKind(kind) ? stockName(name, namespace) : keyOf(name, namespace);
  return list.find((o) => objectKey(o.metadata) === key);
};
/** The objects of one namespace (all of them when none is named). */
const inNamespace = (list: readonly ApiObject[], kind: string, namespace: string | undefined): readonly ApiObject[] => {
  if (namespace === undefined) return list;
  if (isStockKind(kind)) return namespace === 'default' ? list : [];
  return list.filter((o) => (o.metadata.namespace ?? '') === namespace);
};
const describeWrite = (w: Write): string => {
  switch (w.op) {
    case 'external':
      return `call ${w.call}`;
    case 'create':
      return `create ${objectName(w.object.kind, objectKey(w.object.metadata))}`;
    case 'update':
    case 'updateStatus':
      return `${w.op} ${objectName(w.object.kind, objectKey(w.object.metadata))} (resourceVersion ${w.object.metadata.resourceVersion || 'none'})`;
    case 'patch':
    case 'patchStatus':
      return `${w.op} ${objectName(w.kind, w.name, w.namespace)}${w.resourceVersion === undefined ? '' : ` (resourceVersion ${w.resourceVersion})`}${w.op === 'patch' && (w.kind === 'Pod' || w.kind === 'Node') ? metaPatchText(w.patch) : ''}`;
    case 'delete': {
      const pre = w.preconditions === undefined ? '' : ` (preconditions ${Object.entries(w.preconditions).map(([k, v]) => `${k}=${v}`).join(', ')})`;
      return `delete ${objectName(w.kind, w.name, w.namespace)}${pre}${w.gracePeriodSeconds === 0 ? ' (--grace-period=0 --force)' : ''}`;
    }
  }
};
/** What a patch of a Pod's or Node's labels and annotations writes, as people read it: ` labels {state: evicting, x: null}`. */
const metaPatchText = (p: { readonly labels?: MetaPatch; readonly annotations?: MetaPatch }): string =>
  `${p.labels === undefined ? '' : ` labels ${compactJson(p.labels)}`}${p.annotations === undefined ? '' : ` annotations ${compactJson(p.annotations)}`}`;
const OUTCOME: Record<WriteOutcome, string> = { ok: 'ok', AlreadyExists: '409 AlreadyExists', Conflict: '409 Conflict', NotFound: '404 NotFound', Invalid: '422 Invalid', Unavailable: 'no answer (cut off from the kube-apiserver)' };

/** Applies writes in order with no stop on failure (a user's commands). */
function applyAll(store: CustomStore, writes: readonly Write[]): CustomStore {
  let s = store;
  for (const w of writes) s = applyWrite(s, w)[0];
  return s;
}

const NO_AGES: readonly number[] = Object.freeze([]);
const NO_KEYS: ReadonlySet<string> = new Set();

/** A reconcile's result as the model keeps it (JSON of its own, defaults filled in). */
interface Reconciled {
  readonly writes: readonly Write[];
  readonly ignore: readonly WriteOutcome[];
  readonly requeue: boolean;
  readonly requeueAfter: number;
  /** The error it returned (`ReconcileResult.error`), when not empty. */
  readonly error?: string;
}
const WRITE_OPS: readonly Write['op'][] = ['create', 'update', 'updateStatus', 'patch', 'patchStatus', 'delete', 'external'];

/** The label keys the scheduler reads (see `CustomStore.labelKeysRead`), when any. */
function labelKeysOf(workloads: readonly WorkloadConfig[]): Pick<CustomStore, 'labelKeysRead'> {
  const node = [...labelKeysRead(workloads)].sort();
  const pod = [...podLabelKeysRead(workloads)].sort();
  return node.length === 0 && pod.length === 0 ? {} : { labelKeysRead: { node, pod } };
}

/** A live read (`view.reader`) of a replica cut off from the kube-apiserver: no answer. */
class LiveReadUnanswered extends Error {}

/** controller-runtime's per-item exponential backoff (workqueue.DefaultTypedControllerRateLimiter). */
const DEFAULT_RATE_LIMITER = { baseDelaySeconds: 0.005, maxDelaySeconds: 1000 };

/**
 * The rate limiter's delay, in whole seconds at the model's grain, for a request that failed `n`
 * times before (`ItemExponentialFailureRateLimiter.When`), and the count past which it stays at its cap.
 */
export function backoffOf(limiter: { readonly baseDelaySeconds: number; readonly maxDelaySeconds: number }): { readonly delay: (n: number) => number; readonly cap: number } {
  const cap = Math.max(0, Math.ceil(Math.log2(limiter.maxDelaySeconds / limiter.baseDelaySeconds)));
  return { delay: (n) => Math.floor(Math.min(limiter.maxDelaySeconds, limiter.baseDelaySeconds * 2 ** Math.min(n, cap))), cap };
}

/**
 * Whether operator `name` has nothing left to do in `s`: no replica has a request queued, a
 * reconcile under way or a requeue timer set, and each has heard every watch event of its kinds
 * (its caches of the cluster's Pods and Nodes show the API as it is). True for an operator that
 * is not attached. Nothing but a fault, a user's command or a change by another component wakes
 * an idle operator, so "every X is eventually Y" is broken for good in an idle state where X is
 * not Y and nothing else is left to come: a safety property `always((s) => !idle(s, name) ||
 * done(s))` finds such a state on a plain `check`, without `--liveness` (the restart counter's
 * `restart-counter-not-stuck`).
 */
export function idle(s: ClusterState, name: string): boolean {
  const list = s.extensions?.[name] as unknown as readonly OperatorMemory[] | undefined;
  if (list === undefined) return true;
  return list.every((m, i) => {
    if (m.queue.length > 0 || m.inflight.length > 0 || m.later.length > 0) return false;
    const replica = list.length > 1 ? `${name}-${i + 1}` : name;
    const pending = s.custom?.watches[replica] ?? {};
    if (Object.values(pending).some((events) => events.length > 0)) return false;
    return Object.keys(m.cache).every((kind) => !isStockKind(kind) || sameObjects(m.cache[kind], stockObjects(s, kind)));
  });
}

/**
 * The initial state with its pods' phases (`PodObject.ready` false: posted Running, not Ready):
 * the cluster was steady before the check starts, so a bound pod whose container runs was posted
 * Running by its kubelet (those on Ready nodes are Ready already, `readyAtStart`).
 */
function podsRanAtStart(s: ClusterState): ClusterState {
  const pods = s.api.pods.map((p) => (p.ready === undefined && p.nodeName >= 0 && s.nodes[p.nodeName]?.running.includes(p.name) ? { ...p, ready: false } : p));
  return pods.every((p, i) => p === s.api.pods[i]) ? s : stateWith(s, { api: { ...s.api, pods } });
}

/** A definition that cannot run is refused when it is built, in one coded line (KC1xx, exit 2 on the command line). */
function validate(def: OperatorDefinition): void {
  const bad = (why: string): never => modelError(ModelErrorCode.invalidShape, `operator ${typeof def?.name === 'string' ? def.name : '(no name)'}: ${why}`);
  if (typeof def !== 'object' || def === null) bad('the definition is not an object');
  if (typeof def.name !== 'string' || !/^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/.test(def.name)) bad('name must be a DNS label (lower-case letters, digits and -)');
  if (typeof def.for !== 'string' || def.for === '') bad('for must name the primary kind');
  if (typeof def.reconcile !== 'function') bad('reconcile must be a function');
  for (const hook of ['describeMemory', 'describeObject', 'nonIdempotent'] as const) if (def[hook] !== undefined && typeof def[hook] !== 'function') bad(`${hook} must be a function`);
  if (def.replicas !== undefined && (!Number.isInteger(def.replicas) || def.replicas < 1 || def.replicas > 3)) bad(`replicas must be 1, 2 or 3 (got ${String(def.replicas)})`);
  if (def.maxConcurrentReconciles !== undefined && (!Number.isInteger(def.maxConcurrentReconciles) || def.maxConcurrentReconciles < 1 || def.maxConcurrentReconciles > 3)) bad(`maxConcurrentReconciles must be 1, 2 or 3 (got ${String(def.maxConcurrentReconciles)})`);
  const rl = { ...DEFAULT_RATE_LIMITER, ...def.rateLimiter };
  if (typeof rl.baseDelaySeconds !== 'number' || !(rl.baseDelaySeconds > 0) || !Number.isFinite(rl.baseDelaySeconds)) bad(`rateLimiter.baseDelaySeconds must be a number of seconds above 0 (got ${String(rl.baseDelaySeconds)})`);
  if (typeof rl.maxDelaySeconds !== 'number' || !Number.isInteger(rl.maxDelaySeconds) || rl.maxDelaySeconds < 1 || rl.maxDelaySeconds > 3600) bad(`rateLimiter.maxDelaySeconds must be a whole number of seconds from 1 to 3600 (got ${String(rl.maxDelaySeconds)})`);
  if (rl.maxDelaySeconds < rl.baseDelaySeconds) bad('rateLimiter.maxDelaySeconds must not be below baseDelaySeconds');
  const le = { leaseDurationSeconds: 15, renewDeadlineSeconds: 10, retryPeriodSeconds: 2, ...def.leaderElection };
  for (const [k, v] of Object.entries(le)) if (!Number.isInteger(v) || v < 1) bad(`leaderElection.${k} must be a whole number of seconds, at least 1 (got ${String(v)})`);
  // client-go's NewLeaderElector refuses these.
  if (le.leaseDurationSeconds <= le.renewDeadlineSeconds) bad('leaderElection.leaseDurationSeconds must be greater than renewDeadlineSeconds');
  if (le.renewDeadlineSeconds <= le.retryPeriodSeconds * 1.2) bad('leaderElection.renewDeadlineSeconds must be greater than 1.2 × retryPeriodSeconds');
  const names = new Set<string>();
  for (const o of def.objects ?? []) {
    if (typeof o?.kind !== 'string' || typeof o.metadata?.name !== 'string' || o.metadata.name === '') bad('every object needs a kind and metadata.name');
    if (isStockKind(o.kind)) bad(`objects: ${o.kind} ${o.metadata.name}: the cluster's own ${o.kind}s come from the scenario (cluster.workloads, cluster.nodes), not from an operator`);
    const key = objectName(o.kind, objectKey(o.metadata));
    if (names.has(key)) bad(`${key} is given twice in objects`);
    names.add(key);
  }
}

/**
 * Builds the operator as an extension of the cluster model: `kubecheck check --extension` takes
 * the module that exports it, and its properties are checked by default.
 *
 * With `replicas` > 1 the replicas elect a leader through a Lease (`<name>-leader`) as client-go's
 * leaderelection does: every `retryPeriodSeconds` (urgent: at that instant, unless paused) a
 * follower reads the Lease and takes it with a resourceVersion-conditioned update when it is empty
 * or has not changed for `leaseDurationSeconds` by its own observation; the leader renews it. A
 * leader that has not renewed for `renewDeadlineSeconds` stops leading and its process exits
 * (controller-runtime's default), at any instant after: until then its controllers still run,
 * so a reconcile it had begun may still write. Each replica keeps its own informer cache; only the
 * leader's controller queues and reconciles (from its cache, with every object queued when it
 * starts leading). `<name>-pause` (budget `faults.operatorPause`, length
 * `faults.processPauseDuration`) stops a replica's world while time passes; `<name>-partition`
 * and `<name>-heal` (budgets `faults.operatorPartition`, `faults.operatorPartitionHeal`) cut a
 * replica off from the kube-apiserver: its watches stall, its writes and Lease tries fail (no
 * answer, nothing written), while it keeps running and its calls outside the cluster still go.
 * `<name>-lost-answer` (budget `faults.operatorLostAnswer`) is a write that the kube-apiserver
 * applies while its answer is lost: the client sees a timeout, the reconcile fails and is retried
 * (so a create comes back as AlreadyExists, a status write runs again).
 * Source: k8s.io/client-go/tools/leaderelection/leaderelection.go (tryAcquireOrRenew, renew),
 * sigs.k8s.io/controller-runtime/pkg/manager (defaults 15 s / 10 s / 2 s, OnStoppedLeading exits).
 */
export function operator<M extends JsonValue = JsonValue>(def: OperatorDefinition<M>): ClusterExtension {
  validate(def as unknown as OperatorDefinition);
  const name = def.name;
  const replicas = Math.max(1, Math.floor(def.replicas ?? 1));
  const elected = replicas > 1;
  const le = { leaseDurationSeconds: 15, renewDeadlineSeconds: 10, retryPeriodSeconds: 2, ...def.leaderElection };
  // client-go's renew loop: RetryPeriod after a renewal, a poll of tries every RetryPeriod that
  // times out RenewDeadline after it starts; a leader stops leading that long after its last renewal.
  const giveUp = le.retryPeriodSeconds + le.renewDeadlineSeconds;
  const lease = `${name}-leader`;
  const replicaNames = Array.from({ length: replicas }, (_, i) => (elected ? `${name}-${i + 1}` : name));
  const indices = replicaNames.map((_, i) => i);
  const workers = def.maxConcurrentReconciles ?? 1;
  // A write step names its replica, and with several workers the reconcile (by its place in `inflight`).
  const slots: (number | number[])[] = workers === 1 ? indices : indices.flatMap((i) => Array.from({ length: workers }, (_, k) => [i, k]));
  // Without a rate limiter given, retries are not counted: a retry may come at any later instant.
  const backoff = def.rateLimiter === undefined ? undefined : backoffOf({ ...DEFAULT_RATE_LIMITER, ...def.rateLimiter });
  const kinds = [...new Set([def.for, ...(def.owns ?? []), ...(def.watches ?? []).map((w) => w.kind)])];
  // Kinds of the operator's own store stream watch events; the cluster's Pods and Nodes are watched by comparing.
  const customKinds = kinds.filter((k) => !isStockKind(k));
  const stockKinds = kinds.filter(isStockKind);
  const objectsIn = (s: ClusterState, kind: string): readonly ApiObject[] => (isStockKind(kind) ? stockObjects(s, kind) : (store(s).objects[kind] ?? []));
  // What the definition gives is copied once into frozen JSON of the model's own (refused with a
  // code when it is not JSON): states share it, and the module that gave it may still change its own.
  const fresh = deepFreeze(jsonFrom(def.memory ?? null, `extension ${name}: memory`));
  const initialObjects = deepFreeze(jsonFrom(def.objects ?? [], `extension ${name}: objects`)) as unknown as readonly ObjectInit[];
  /** One call into the operator's code, its failures in one coded line naming the operator and the hook. */
  const hook = <R>(what: string, f: () => R): R => userCall(`extension ${name}: ${what}`, f, (e) => e instanceof LiveReadUnanswered);
  const all = (s: ClusterState): readonly OperatorMemory[] => s.extensions![name] as unknown as readonly OperatorMemory[];
  const mem = (s: ClusterState, i: number): OperatorMemory => all(s)[i];
  const store = (s: ClusterState): CustomStore => s.custom ?? EMPTY_STORE;
  const withMem = (s: ClusterState, i: number, m: OperatorMemory, custom: CustomStore = store(s)): ClusterState => {
    const list = [...all(s)];
    list[i] = m;
    return { ...s, custom, extensions: { ...s.extensions, [name]: list as unknown as JsonValue } };
  };
  // A replica runs its controllers when it leads (or is not elected) and runs: not paused, and not
  // at the instant it resumes before its goroutines' order is chosen (its renew loop may run first
  // and stop it before any controller does).
  const acting = (m: OperatorMemory): boolean => m.paused === 0 && m.role !== 'follower' && m.resumed !== 'race';
  const cutOff = (s: ClusterState, i: number): boolean => store(s).partitioned?.includes(replicaNames[i]) === true;
  /** One write as the replica sees it: `Unavailable` without effect while it is cut off (calls outside the cluster still go). */
  const send = (s: ClusterState, i: number, w: Write): [ClusterState, WriteOutcome] => (w.op !== 'external' && cutOff(s, i) ? [s, 'Unavailable'] : applyTo(s, w));
  /** A write as the kube-apiserver applies it: to the operator's store, or to the cluster's own Pods. */
  const applyTo = (s: ClusterState, w: Write): [ClusterState, WriteOutcome] => {
    const kind = w.op === 'create' || w.op === 'update' || w.op === 'updateStatus' ? w.object.kind : w.op === 'external' ? '' : w.kind;
    if (!isStockKind(kind)) {
      const [custom, outcome] = applyWrite(store(s), w);
      return [{ ...s, custom }, outcome];
    }
    if ((kind === 'Node' || kind === 'Pod') && (w.op === 'patch' || w.op === 'update')) {
      // Of a Node: cordon, uncordon, the out-of-service taint, labels and annotations; of a Pod:
      // labels and annotations. Anything else written to them is refused.
      const refuse = kind === 'Node' ? refuseNodeWrite : refusePodWrite;
      const target = w.op === 'patch' ? stockName(w.name, w.namespace) : stockName(w.object.metadata.name, w.object.metadata.namespace);
      const allowed = kind === 'Node' ? ['spec', 'labels', 'annotations'] : ['labels', 'annotations'];
      if (w.op === 'patch' && Object.keys(w.patch).some((k) => !allowed.includes(k))) return refuse(`a patch of ${kind} ${w.name}'s ${Object.keys(w.patch).filter((k) => !allowed.includes(k)).join(', ')}`);
      // A Node or Pod named without reading one (no watch of Nodes, Pods or claims) would break node symmetry, which is on for such an operator.
      if (!stockKinds.some(namesNodes) && def.symmetric !== false) return modelError(ModelErrorCode.invalidShape, `operator ${name}: writes ${kind} ${target} but watches no Node, Pod or PersistentVolumeClaim, so its nodes are interchangeable to the search; list ${kind} in watches (or set symmetric: false)`);
      const meta: MetaWrite = w.op === 'patch' ? { op: 'patch', labels: w.patch.labels, annotations: w.patch.annotations } : { op: 'update', labels: w.object.metadata.labels, annotations: w.object.metadata.annotations };
      // The object as served now, which an update is checked against.
      const served = w.op === 'update' ? stockObjects(s, kind).find((o) => o.metadata.name === target) : undefined;
      if (w.op === 'update' && w.object.metadata.resourceVersion && served !== undefined && served.metadata.resourceVersion !== w.object.metadata.resourceVersion) {
        // The resourceVersion read (a fingerprint of the object as served, `contentVersion`): a copy
        // from before a change gets 409 Conflict, as an optimistic update does.
        if (!canWrite(s, false)) return [s, 'Unavailable'];
        return [s, 'Conflict'];
      }
      if (kind === 'Pod' && w.op === 'update') {
        // The rest of the Pod as read may be sent back; a change of it is not modelled.
        const sent = w.object.spec;
        if (served !== undefined && JSON.stringify(sent ?? null) !== JSON.stringify(served.spec)) {
          // Only spec.nodeName differs: a copy read before the pod was bound (409 Conflict on its stale
          // resourceVersion in Kubernetes), or a change of it (422: a pod's spec.nodeName is immutable).
          const fields = sent !== null && typeof sent === 'object' && !Array.isArray(sent) ? Object.keys(sent) : [];
          if (fields.length !== 1 || fields[0] !== 'nodeName') return refuse(`an update of Pod ${target}'s spec`);
          if (!canWrite(s, false)) return [s, 'Unavailable'];
          return [s, (sent as { nodeName: unknown }).nodeName === '' ? 'Conflict' : 'Invalid'];
        }
        const other = (['finalizers', 'ownerReferences'] as const).find((k) => (w.object.metadata[k]?.length ?? 0) > 0);
        if (other !== undefined) return refuse(`a write of Pod ${target}'s ${other}`);
      }
      // A write to etcd needs quorum (an operator runs on the control plane's network, so only quorum can fail it).
      if (!canWrite(s, false)) return [s, 'Unavailable'];
      const r = kind === 'Node' ? writeNode(s, target, (w.op === 'patch' ? w.patch.spec : w.object.spec) ?? {}, meta) : writePodMeta(s, target, meta, w.op === 'update' ? w.object.metadata.uid : undefined);
      return 'refused' in r ? refuse(r.refused) : r;
    }
    const replicas = w.op === 'delete' && DELETABLE_KINDS.includes(kind) ? undefined : scaleOf(s, w, kind);
    // A write to etcd needs quorum (an operator runs on the control plane's network, so only quorum can fail it).
    if (!canWrite(s, false)) return [s, 'Unavailable'];
    if (w.op === 'patch') return scaleWorkload(s, kind, stockName(w.name, w.namespace), replicas);
    if (w.op === 'update') return scaleWorkload(s, kind, stockName(w.object.metadata.name, w.object.metadata.namespace), replicas);
    if (w.op !== 'delete') return [s, 'Invalid'];
    const target = stockName(w.name, w.namespace);
    const uid = w.preconditions?.uid;
    // A Pod's or claim's uid reads `<name>-<n>` (podAsObject, claimAsObject); any other string is no incarnation of it (409 Conflict).
    const incarnation = uid === undefined ? undefined : uid.startsWith(`${target}-`) && /^\d+$/.test(uid.slice(target.length + 1)) ? Number(uid.slice(target.length + 1)) : -1;
    const r = kind === 'PersistentVolumeClaim' ? deleteClaim(s, target, incarnation) : deletePod(s, target, { force: w.gracePeriodSeconds === 0, ...(incarnation === undefined ? {} : { uid: incarnation }) });
    return [r.state, r.outcome === 'deleted' ? 'ok' : r.outcome === 'conflict' ? 'Conflict' : 'NotFound'];
  };

  const refuseNodeWrite = (what: string): never =>
    modelError(ModelErrorCode.invalidShape, `operator ${name}: ${what} is not modelled; of a Node an operator writes spec.unschedulable (cordon), the node.kubernetes.io/out-of-service NoExecute taint in spec.taints, and labels and annotations other than the model's`);
  const refusePodWrite = (what: string): never =>
    modelError(ModelErrorCode.invalidShape, `operator ${name}: ${what} is not modelled; of a Pod an operator deletes it or writes its annotations and labels (but its template's and those the scheduler's selectors read)`);

  /**
   * The `spec.replicas` a patch or update of a workload writes; anything else it would change is
   * refused as not modelled (the model's workloads are their replicas and their pods).
   */
  const scaleOf = (s: ClusterState, w: Write, kind: string): unknown => {
    const refuse = (what: string): never =>
      modelError(ModelErrorCode.invalidShape, `operator ${name}: ${what} is not modelled; of the cluster's own objects an operator deletes Pods and PersistentVolumeClaims, scales Deployments, ReplicaSets and StatefulSets (spec.replicas, by patch or update), writes Pods' and Nodes' labels and annotations, and cordons or taints Nodes out of service`);
    if (!SCALABLE_KINDS.includes(kind) || (w.op !== 'patch' && w.op !== 'update')) return refuse(`a ${w.op} of a ${kind}`);
    if (w.op === 'patch') {
      const { spec, ...rest } = w.patch;
      const fields = spec !== null && typeof spec === 'object' && !Array.isArray(spec) ? Object.keys(spec) : [];
      if (Object.keys(rest).length > 0 || fields.length !== 1 || fields[0] !== 'replicas') return refuse(`a patch of ${objectName(kind, w.name)} other than {spec: {replicas}}`);
      return (spec as { replicas: unknown }).replicas;
    }
    const now = workloadSpecOf(s, kind, w.object.metadata.name);
    const spec = (w.object.spec ?? {}) as Record<string, JsonValue>;
    // The rest of the spec as read back (a StatefulSet's podManagementPolicy, volumeClaimTemplates
    // and retention policy) may be sent unchanged; a change of it is not modelled.
    const served = (now === undefined ? {} : workloadAsObject(s, kind, now).spec ?? {}) as Record<string, JsonValue>;
    const changed = Object.keys(spec).find((k) => k !== 'replicas' && JSON.stringify(spec[k]) !== JSON.stringify(served[k]));
    if (changed === 'podManagementPolicy' || changed === 'volumeClaimTemplates') return refuse(`a change of ${objectName(kind, w.object.metadata.name)}'s ${changed} (immutable in Kubernetes too)`);
    if (changed !== undefined) return refuse(`an update of ${objectName(kind, w.object.metadata.name)}'s spec beyond replicas (spec.${changed})`);
    return spec.replicas;
  };


  /** The requests one object's event queues. */
  const requestsOf = (o: ApiObject): readonly string[] => {
    if (o.kind === def.for) return [objectKey(o.metadata)];
    const out: string[] = [];
    // An owner is in its dependent's namespace (owner references name no namespace).
    if (def.owns?.includes(o.kind)) for (const r of o.metadata.ownerReferences ?? []) if (r.controller === true && r.kind === def.for) out.push(keyOf(r.name, o.metadata.namespace));
    for (const w of def.watches ?? []) {
      if (w.kind !== o.kind) continue;
      const mapped = jsonFrom(hook(`the map of its watch of ${w.kind}`, () => w.map(copyOf(o))), `extension ${name}: the map of its watch of ${w.kind}`);
      if (!Array.isArray(mapped) || mapped.some((r) => typeof r !== 'string')) modelError(ModelErrorCode.extensionFailed, `extension ${name}: the map of its watch of ${w.kind} returned ${compactJson(mapped).slice(0, 80)}, not a list of request keys (strings)`);
      out.push(...(mapped as string[]));
    }
    return out;
  };
  const enqueue = (queue: readonly string[], requests: readonly string[]): readonly string[] => {
    let q = queue;
    for (const r of requests) if (!q.includes(r)) q = [...q, r];
    return q;
  };
  /** Every request the cached objects map to: what a controller queues when it starts. */
  const everything = (cache: Readonly<Record<string, readonly ApiObject[]>>): readonly string[] => {
    let queue: readonly string[] = [];
    for (const k of kinds) for (const o of cache[k] ?? []) queue = enqueue(queue, requestsOf(o));
    return queue;
  };
  /** A fresh process: lists every watched kind; without leader election its controller starts at once. */
  const started = (s: ClusterState): OperatorMemory => {
    const cache: Record<string, readonly ApiObject[]> = {};
    for (const k of kinds) cache[k] = objectsIn(s, k);
    return { role: elected ? 'follower' : 'single', retryIn: 0, sinceRenew: 0, observed: '', observedAge: 0, paused: 0, cache, queue: elected ? [] : everything(cache), later: [], inflight: [], failures: {}, memory: fresh };
  };
  const watching = (): Record<string, readonly WatchEvent[]> => Object.fromEntries(customKinds.map((k) => [k, []]));

  const view = (s: ClusterState, m: OperatorMemory, i: number, memory: M): ReconcileView<M> => {
    // A live read needs the kube-apiserver: cut off, it gets no answer and the reconcile fails.
    const live = (kind: string): readonly ApiObject[] => {
      if (cutOff(s, i)) throw new LiveReadUnanswered(`${replicaNames[i]} cannot reach the kube-apiserver for a live read of ${kind}`);
      // The cluster's Pods and Nodes name nodes: an operator reading them says so by watching them (so symmetry is off for it).
      if (namesNodes(kind) && !kinds.includes(kind)) modelError(ModelErrorCode.invalidShape, `operator ${name}: reads ${kind}s; list ${kind} in watches (or owns) to read the cluster's ${kind}s`);
      return objectsIn(s, kind);
    };
    // Copies, as controller-runtime's cache reader gives (see userCode.ts): a reconcile may edit
    // what it read, as a Go controller edits its copy before an Update, and no state changes.
    const one = (o: ApiObject | undefined): ApiObject | undefined => (o === undefined ? undefined : copyOf(o));
    return {
      get: (kind, n, namespace) => one(find(m.cache[kind] ?? [], kind, n, namespace)),
      list: (kind, namespace) => copyOf(inNamespace(m.cache[kind] ?? [], kind, namespace)),
      reader: { get: (kind, n, namespace) => one(find(live(kind), kind, n, namespace)), list: (kind, namespace) => copyOf(inNamespace(live(kind), kind, namespace)) },
      memory,
    };
  };
  /**
   * The reconcile of `request` on replica i: its result (`unanswered` when a live read got no
   * answer: the error it returns), and the memory after it. The memory is the process's own: the
   * one returned, else the copy handed in as the reconcile left it (an edit in place stays, as
   * in a Go process).
   */
  const reconcileOf = (s: ClusterState, m: OperatorMemory, i: number, request: string): { readonly result: Reconciled | 'unanswered'; readonly memory: JsonValue } => {
    const own = copyOf(m.memory);
    const where = `reconcile of ${request}`;
    let returned: unknown;
    try {
      returned = hook(where, () => def.reconcile(request, view(s, m, i, own as M)));
    } catch (e) {
      if (e instanceof LiveReadUnanswered) return { result: 'unanswered', memory: keptMemory(m.memory, own, where) };
      throw e;
    }
    if (returned === undefined || returned === null || typeof returned !== 'object' || Array.isArray(returned)) modelError(ModelErrorCode.extensionFailed, `extension ${name}: ${where} returned ${returned === undefined ? 'nothing' : compactJson(jsonFrom(returned, `extension ${name}: ${where}'s result`)).slice(0, 80)}; return an object ({} when there is nothing to do)`);
    const r = jsonFrom(returned, `extension ${name}: ${where}'s result`) as ReconcileResult;
    const memory = r.memory === undefined ? keptMemory(m.memory, own, where) : r.memory;
    const writes = writesFrom((r.writes ?? []) as unknown as JsonValue, where);
    if (r.error !== undefined && typeof r.error !== 'string') modelError(ModelErrorCode.extensionFailed, `extension ${name}: ${where} returned error ${compactJson(r.error as JsonValue).slice(0, 80)}, not a string (the error's message)`);
    const error = r.error === undefined || r.error === '' ? {} : { error: r.error };
    return { result: { writes, ignore: r.ignore ?? [], requeue: r.requeue === true, requeueAfter: typeof r.requeueAfter === 'number' && r.requeueAfter > 0 ? r.requeueAfter : 0, ...error }, memory };
  };
  /** The memory after a reconcile that returned none: the copy it was handed, when it edited it in place. */
  const keptMemory = (before: JsonValue, own: JsonValue, where: string): JsonValue => {
    const after = jsonFrom(own, `extension ${name}: the memory after the ${where}`);
    return JSON.stringify(after) === JSON.stringify(before) ? before : after;
  };
  /** `AddAfter`: a request waiting already keeps the earlier of its two times; the list is kept sorted by request (one state per set of waiting requests). */
  const addAfter = (later: OperatorMemory['later'], request: string, after: number): OperatorMemory['later'] => {
    const waiting = later.find((l) => l.request === request);
    if (waiting === undefined) return [...later, { request, in: after }].sort((a, b) => (a.request < b.request ? -1 : 1));
    return waiting.in <= after ? later : later.map((l) => (l === waiting ? { request, in: after } : l));
  };
  /** `Done`: a request queued again while it was being reconciled (the workqueue's dirty set) goes to the back of the queue. */
  const done = (queue: readonly string[], request: string): readonly string[] => (queue.includes(request) && queue[queue.length - 1] !== request ? [...queue.filter((r) => r !== request), request] : queue);
  /**
   * The end of a reconcile (controller-runtime's reconcileHandler): an error, or `requeue`, is
   * queued again through the rate limiter (`AddRateLimited`: at once or after the backoff); a
   * success forgets the request's failures and, with `requeueAfter`, queues it after that long.
   */
  const finish = (m: OperatorMemory, request: string, end: 'failed' | 'requeue' | 'done', after: number): OperatorMemory => {
    const inflight = m.inflight.some((f) => f.request === request) ? m.inflight.filter((f) => f.request !== request) : m.inflight;
    // The rate limiter's retry is added before Done (reconcileHandler, then processNextWorkItem's deferred Done).
    if (end === 'done' || (end === 'requeue' && after > 0)) {
      const { [request]: _forgotten, ...failures } = m.failures;
      return { ...m, inflight, failures, queue: done(m.queue, request), ...(after > 0 ? { later: addAfter(m.later, request, after) } : {}) };
    }
    if (backoff === undefined) return { ...m, inflight, queue: done(enqueue(m.queue, [request]), request) };
    const n = m.failures[request] ?? 0;
    const failures = { ...m.failures, [request]: Math.min(n + 1, backoff.cap) };
    const delay = backoff.delay(n);
    return delay === 0 ? { ...m, inflight, failures, queue: done(enqueue(m.queue, [request]), request) } : { ...m, inflight, failures, queue: done(m.queue, request), later: addAfter(m.later, request, delay) };
  };
  /** How a failed reconcile of `request` is queued again, as traces say it. */
  const requeued = (m: OperatorMemory, request: string): string => {
    const n = m.failures[request] ?? 0;
    const delay = backoff?.delay(n) ?? 0;
    return delay === 0 ? `${request} is queued again` : `${request} is queued again in ${delay}s (the rate limiter's backoff after ${n + 1} failures)`;
  };
  /** The first queued request no worker is reconciling (the workqueue never hands out one being processed). */
  const nextRequest = (m: OperatorMemory): string | undefined => m.queue.find((r) => !m.inflight.some((f) => f.request === r));
  /** A write or lost-answer step's replica and worker slot. */
  const slotOf = (p: number | readonly number[]): readonly [number, number] => (typeof p === 'number' ? [p, 0] : [p[0], p[1]]);
  /** A replica's process starts over (a restart, or the exit after losing leadership). */
  const restarted = (s: ClusterState, i: number): ClusterState => {
    const st = store(s);
    const identities = elected ? { ...st.identities, [replicaNames[i]]: `uid-${st.nextUid}` } : st.identities;
    const s1: ClusterState = { ...s, custom: { ...st, nextUid: elected ? st.nextUid + 1 : st.nextUid, ...(identities === undefined ? {} : { identities }), watches: { ...st.watches, [replicaNames[i]]: watching() } } };
    return withMem(s1, i, started(s1), s1.custom);
  };

  /** `informers.watchLag` in this run (0: a watch event may wait any time). */
  const lagOf = (s: ClusterState): number => store(s).watchLag ?? 0;
  const agesOf = (m: OperatorMemory, kind: string): readonly number[] => m.watchAges?.[kind] ?? NO_AGES;
  /** The memory with the ages of some kinds replaced: in the order of `kinds`, no empty list, no field when none (one form per state). */
  const setAges = (m: OperatorMemory, updates: Readonly<Record<string, readonly number[]>>): OperatorMemory => {
    const next: Record<string, readonly number[]> = {};
    for (const k of kinds) {
      const list = k in updates ? updates[k] : m.watchAges?.[k];
      if (list !== undefined && list.length > 0) next[k] = list;
    }
    if (Object.keys(next).length === 0 && m.watchAges === undefined) return m;
    const { watchAges: _old, ...rest } = m;
    return Object.keys(next).length === 0 ? rest : { ...rest, watchAges: next };
  };
  /** Replica i's informer of a kind of the operator's store hears its next event. */
  const hear = (s: ClusterState, i: number, kind: string): ClusterState => {
    const st = store(s);
    const w = replicaNames[i];
    const [event, ...rest] = st.watches[w][kind];
    const m = mem(s, i);
    const key = objectKey(event.object.metadata);
    const others = (m.cache[kind] ?? []).filter((o) => objectKey(o.metadata) !== key);
    const list = event.type === 'DELETED' ? others : [...others, event.object].sort(byKey);
    // A follower's informer keeps its cache; only a running controller queues requests.
    const next: OperatorMemory = { ...m, cache: { ...m.cache, [kind]: list }, queue: m.role === 'follower' ? m.queue : enqueue(m.queue, requestsOf(event.object)) };
    const aged = agesOf(m, kind).length === 0 ? next : setAges(next, { [kind]: agesOf(m, kind).slice(1) });
    return withMem(s, i, aged, { ...st, watches: { ...st.watches, [w]: { ...st.watches[w], [kind]: rest } } });
  };
  /**
   * The keys of the objects replica i's cache of `kind` holds in an incarnation the API no longer
   * has, while the API has another of the same name (a pod deleted and recreated: its uid differs).
   */
  const reincarnated = (cache: readonly ApiObject[], now: readonly ApiObject[]): ReadonlySet<string> => {
    let out: Set<string> | undefined;
    const uids = new Map(now.map((o) => [objectKey(o.metadata), o.metadata.uid]));
    for (const o of cache) {
      const uid = uids.get(objectKey(o.metadata));
      if (uid !== undefined && uid !== o.metadata.uid) (out ??= new Set()).add(objectKey(o.metadata));
    }
    return out ?? NO_KEYS;
  };
  /**
   * Replica i's informer of a cluster kind catches up with the API, and queues the requests of
   * every object that changed since. An object its cache holds in an older incarnation (another
   * uid) was deleted and created again: its watch had a DELETED event, then an ADDED one, and an
   * informer hands both to the handlers, so the cache is without it for a while. The catch-up
   * then takes the API without the new incarnations (the old ones' deletes delivered, their
   * requests queued) and the next brings them in (each at any instant after, within the lag).
   */
  const catchUp = (s: ClusterState, i: number, kind: string): ClusterState => {
    const m = mem(s, i);
    const before = m.cache[kind] ?? [];
    const api = stockObjects(s, kind);
    const renewed = reincarnated(before, api);
    const now = renewed.size === 0 ? api : api.filter((o) => !renewed.has(objectKey(o.metadata)));
    let queue = m.queue;
    if (m.role !== 'follower') {
      const old = new Map(before.map((o) => [objectKey(o.metadata), o]));
      for (const o of now) if (!sameObject(old.get(objectKey(o.metadata)), o)) queue = enqueue(queue, requestsOf(o));
      const current = new Set(now.map((o) => objectKey(o.metadata)));
      for (const o of before) if (!current.has(objectKey(o.metadata))) queue = enqueue(queue, requestsOf(o));
    }
    // With a lag, what is left (the new incarnations) has waited as long as the rest: its age stays.
    return withMem(s, i, setAges({ ...m, cache: { ...m.cache, [kind]: now }, queue }, { [kind]: now === api ? [] : agesOf(m, kind) }));
  };
  /** Whether replica i's informer of `kind` has something to deliver, and can (not paused, not cut off). */
  const behind = (s: ClusterState, i: number, kind: string): boolean =>
    mem(s, i).paused === 0 && !cutOff(s, i) && (isStockKind(kind) ? !sameObjects(mem(s, i).cache[kind] ?? [], stockObjects(s, kind)) : (store(s).watches[replicaNames[i]]?.[kind]?.length ?? 0) > 0);
  /**
   * The memory after a tick of `seconds`, with `informers.watchLag` > 0: each undelivered event
   * (each cache of a cluster kind that differs from the API) has waited that much longer, up to the lag.
   */
  const aged = (s: ClusterState, m: OperatorMemory, i: number, seconds: number, lag: number): OperatorMemory => {
    const updates: Record<string, readonly number[]> = {};
    const pending = store(s).watches[replicaNames[i]] ?? {};
    for (const k of customKinds) {
      const old = agesOf(m, k);
      updates[k] = (pending[k] ?? []).map((_, j) => Math.min(lag, (old[j] ?? 0) + seconds));
    }
    for (const k of stockKinds) updates[k] = sameObjects(m.cache[k] ?? [], stockObjects(s, k)) ? [] : [Math.min(lag, (agesOf(m, k)[0] ?? 0) + seconds)];
    return setAges(m, updates);
  };

  const actions: AnyActionDef<ClusterState>[] = [
    action<ClusterState, [number, string]>({
      name: `${name}-watch`,
      params: indices.flatMap((i) => customKinds.map((k) => [i, k] as [number, string])),
      enabled: (s, [i, kind]) => behind(s, i, kind),
      apply: (s, [i, kind]) => hear(s, i, kind),
      fair: 'strong',
    }),
    action<ClusterState, [number, string]>({
      // The informer of a cluster kind (Pods, Nodes): the cache catches up with the API at some
      // instant after a change, and the handlers queue the requests of every object that changed
      // since (client-go's DeltaFIFO hands a handler the latest object; intermediate states an
      // informer coalesces are missed, as here), but for a delete and a recreation of one name,
      // which a watch delivers as two events (see `catchUp`).
      name: `${name}-watch-cluster`,
      params: indices.flatMap((i) => stockKinds.map((k) => [i, k] as [number, string])),
      enabled: (s, [i, kind]) => behind(s, i, kind),
      apply: (s, [i, kind]) => catchUp(s, i, kind),
      fair: 'strong',
    }),
    action<ClusterState, number>({
      name: `${name}-reconcile`,
      params: indices,
      enabled: (s, i) => acting(mem(s, i)) && mem(s, i).inflight.length < workers && nextRequest(mem(s, i)) !== undefined,
      apply: (s, i) => {
        const m = mem(s, i);
        const request = nextRequest(m)!;
        const queue = m.queue.filter((q) => q !== request);
        const { result: r, memory } = reconcileOf(s, m, i, request);
        const taken: OperatorMemory = { ...m, queue, memory };
        // controller-runtime requeues a reconcile that returns an error (here: a live read unanswered).
        if (r === 'unanswered') return withMem(s, i, finish(taken, request, 'failed', 0));
        const writes = r.writes;
        if (writes.length === 0) return withMem(s, i, finish(taken, request, r.error !== undefined ? 'failed' : r.requeue ? 'requeue' : 'done', r.error !== undefined ? 0 : r.requeueAfter));
        const started: Reconciling = { request, writes, next: 0, ignore: r.ignore, requeue: r.requeue, after: r.requeueAfter, ...(r.error === undefined ? {} : { error: r.error }) };
        return withMem(s, i, { ...taken, inflight: [...m.inflight, started].sort((a, b) => (a.request < b.request ? -1 : 1)) });
      },
      fair: 'strong',
    }),
    action<ClusterState, number | number[]>({
      name: `${name}-write`,
      params: slots,
      enabled: (s, p) => {
        const [i, k] = slotOf(p);
        return acting(mem(s, i)) && mem(s, i).inflight.length > k;
      },
      apply: (s, p) => {
        const [i, k] = slotOf(p);
        const m = mem(s, i);
        const f = m.inflight[k];
        const [after, outcome] = send(s, i, f.writes[f.next]);
        const failed = outcome !== 'ok' && !f.ignore.includes(outcome);
        const done = failed || f.next + 1 === f.writes.length;
        // A reconcile that returned an error fails once its writes are made (reconcileHandler: err → AddRateLimited).
        const ends = failed || f.error !== undefined ? 'failed' : f.requeue ? 'requeue' : 'done';
        const next = done ? finish(m, f.request, ends, ends === 'failed' ? 0 : f.after) : { ...m, inflight: m.inflight.map((x) => (x === f ? { ...f, next: f.next + 1 } : x)) };
        return withMem(after, i, next, store(after));
      },
      fair: 'strong',
    }),
    action<ClusterState, number | number[]>({
      // A fault: the write reaches the kube-apiserver and is applied, the answer never comes back
      // (a timeout, a connection reset): the reconcile fails and its request is queued again.
      name: `${name}-lost-answer`,
      params: slots,
      enabled: (s, p) => {
        const [i, k] = slotOf(p);
        const f = mem(s, i).inflight[k];
        return (s.budget.operatorLostAnswer ?? 0) > 0 && acting(mem(s, i)) && f !== undefined && f.writes[f.next].op !== 'external' && !cutOff(s, i);
      },
      apply: (s, p) => {
        const [i, k] = slotOf(p);
        const m = mem(s, i);
        const f = m.inflight[k];
        const [after] = applyTo(s, f.writes[f.next]);
        return withMem({ ...after, budget: { ...after.budget, operatorLostAnswer: after.budget.operatorLostAnswer - 1 } }, i, finish(m, f.request, 'failed', 0), store(after));
      },
    }),
    action<ClusterState, number>({
      name: `${name}-requeue`,
      params: indices,
      enabled: (s, i) => acting(mem(s, i)) && mem(s, i).later.some((l) => l.in === 0),
      apply: (s, i) => {
        const m = mem(s, i);
        const due = m.later.find((l) => l.in === 0)!;
        return withMem(s, i, { ...m, later: m.later.filter((l) => l !== due), queue: enqueue(m.queue, [due.request]) });
      },
      fair: 'strong',
    }),
    action<ClusterState, number>({
      name: `${name}-restart`,
      params: indices,
      enabled: (s) => (s.budget.extensionRestart ?? 0) > 0,
      apply: (s, i) => restarted({ ...s, budget: { ...s.budget, extensionRestart: s.budget.extensionRestart - 1 } }, i),
    }),
  ];
  if (elected) {
    actions.push(
      action<ClusterState, number>({
        name: `${name}-pause`,
        params: indices,
        enabled: (s, i) => (s.budget.operatorPause ?? 0) > 0 && mem(s, i).paused === 0,
        apply: (s, i) => withMem({ ...s, budget: { ...s.budget, operatorPause: s.budget.operatorPause - 1 } }, i, { ...mem(s, i), paused: store(s).pauseSeconds ?? 20 }),
      }),
    );
  }
  const partitioned = (s: ClusterState): readonly string[] => store(s).partitioned ?? [];
  actions.push(
    action<ClusterState, number>({
      name: `${name}-partition`,
      params: indices,
      enabled: (s, i) => (s.budget.operatorPartition ?? 0) > 0 && !cutOff(s, i),
      apply: (s, i) => ({ ...s, budget: { ...s.budget, operatorPartition: s.budget.operatorPartition - 1 }, custom: { ...store(s), partitioned: [...partitioned(s), replicaNames[i]].sort() } }),
    }),
    action<ClusterState, number>({
      name: `${name}-heal`,
      params: indices,
      enabled: (s, i) => (s.budget.operatorPartitionHeal ?? 0) > 0 && cutOff(s, i),
      apply: (s, i) => ({ ...s, budget: { ...s.budget, operatorPartitionHeal: s.budget.operatorPartitionHeal - 1 }, custom: { ...store(s), partitioned: partitioned(s).filter((r) => r !== replicaNames[i]) } }),
    }),
  );
  if ((def.clients ?? []).length > 0) {
    const clients = new Map((def.clients ?? []).map((c) => [c.name, c]));
    actions.push(
      action<ClusterState, string>({
        name: `${name}-client`,
        params: [...clients.keys()],
        enabled: (s, c) => (store(s).clients[`${name}/${c}`] ?? 0) > 0 && clientWrites(clients.get(c)!, s).length > 0,
        apply: (s, c) => {
          const st = store(s);
          const key = `${name}/${c}`;
          const custom = applyAll({ ...st, clients: { ...st.clients, [key]: st.clients[key] - 1 } }, clientWrites(clients.get(c)!, s));
          return { ...s, custom };
        },
      }),
    );
  }

  /** A description hook's words for a copy of `value` (undefined or a string; anything else is refused with a code). */
  function wordsFrom<T extends JsonValue | ApiObject>(what: string, f: (value: T) => string | undefined, value: T): string | undefined {
    const words = hook(what, () => f(copyOf(value)));
    if (words !== undefined && typeof words !== 'string') modelError(ModelErrorCode.extensionFailed, `extension ${name}: ${what} returned ${typeof words}, not a string`);
    return words;
  }

  /** The Lease as the API holds it. */
  const leaseOf = (s: ClusterState): ApiObject => (store(s).objects.Lease ?? []).find((o) => objectKey(o.metadata) === lease)!;
  const holderOf = (o: ApiObject): string => (o.spec as { holderIdentity: string }).holderIdentity;
  /** The holder as people read it: the replica, and which process of it when it restarted since. */
  const holderName = (o: ApiObject): string => (o.spec as { holder: string }).holder || 'none';
  /** A process's leader-election identity (controller-runtime: hostname and a fresh uuid): new at every start. */
  const identityOf = (s: ClusterState, i: number): string => store(s).identities?.[replicaNames[i]] ?? '';
  /** One try of client-go's tryAcquireOrRenew: read the Lease, then take or renew it when allowed. */
  const tryAcquireOrRenew = (s: ClusterState, i: number): { state: ClusterState; outcome: string } => {
    const m = mem(s, i);
    if (cutOff(s, i)) return { state: withMem(s, i, { ...m, retryIn: le.retryPeriodSeconds }), outcome: `cannot reach the kube-apiserver to ${m.role === 'leader' ? 'renew' : 'read'} ${lease}` };
    const l = leaseOf(s);
    const me = identityOf(s, i);
    const changed = l.metadata.resourceVersion !== m.observed;
    const observed = { observed: l.metadata.resourceVersion, observedAge: changed ? 0 : m.observedAge };
    const holder = holderOf(l);
    const expired = holder === '' || (!changed && m.observedAge >= le.leaseDurationSeconds);
    if (holder !== me && !expired) return { state: withMem(s, i, { ...m, ...observed, retryIn: le.retryPeriodSeconds }), outcome: `sees ${holderName(l)} holding ${lease}${changed ? '' : ` (unchanged for ${m.observedAge}s)`}` };
    const spec = l.spec as { holderIdentity: string; renewTime: number; leaseTransitions: number };
    const taking = holder !== me;
    const [custom] = applyWrite(store(s), { op: 'update', object: { ...l, spec: { ...spec, holderIdentity: me, holder: replicaNames[i], renewTime: 1 - spec.renewTime, leaseTransitions: taking ? Math.min(spec.leaseTransitions + 1, 2) : spec.leaseTransitions } } });
    const rv = custom.objects.Lease.find((o) => objectKey(o.metadata) === lease)!.metadata.resourceVersion;
    const becomes = m.role !== 'leader';
    const next: OperatorMemory = { ...m, observed: rv, observedAge: 0, retryIn: le.retryPeriodSeconds, sinceRenew: 0, role: 'leader', queue: becomes ? everything(m.cache) : m.queue };
    return { state: withMem(s, i, next, custom), outcome: taking ? `takes ${lease}${holder === '' ? '' : ` from ${holderName(l)} (unchanged for ${m.observedAge}s)`} and starts its controller` : becomes ? `holds ${lease} again and starts its controller` : `renews ${lease}` };
  };
  /** A user's writes in state `s`: the state handed in frozen, the writes copied out (see userCode.ts). */
  function clientWrites(c: ClientAction, s: ClusterState): readonly Write[] {
    const where = `the writes of its client ${c.name}`;
    return writesFrom(jsonFrom(hook(where, () => c.writes(deepFreeze(s))) ?? [], `extension ${name}: ${where}`), where);
  }
  /** Writes user code returned (as JSON already): a list of writes, each with a known op, or KC110. */
  function writesFrom(writes: JsonValue, where: string): readonly Write[] {
    if (!Array.isArray(writes) || writes.some((w) => w === null || typeof w !== 'object' || !WRITE_OPS.includes((w as { op?: unknown }).op as Write['op']))) modelError(ModelErrorCode.extensionFailed, `extension ${name}: ${where} returned ${compactJson(writes).slice(0, 80)}, not a list of writes (each with an op of ${WRITE_OPS.join(', ')})`);
    return writes as unknown as readonly Write[];
  }

  const urgentActions: ClusterAction[] = [
    // With informers.watchLag > 0: an event that has waited that long is heard before time passes
    // (and before anything else happens), as the built-in informers' catch-up is.
    clusterAction<[number, string]>({
      name: `${name}-watch-due`,
      urgent: true,
      params: indices.flatMap((i) => kinds.map((k) => [i, k] as [number, string])),
      enabled: (s, [i, kind]) => {
        const lag = lagOf(s);
        return lag > 0 && (agesOf(mem(s, i), kind)[0] ?? 0) >= lag && behind(s, i, kind);
      },
      apply: (s, [i, kind]) => (isStockKind(kind) ? catchUp(s, i, kind) : hear(s, i, kind)),
      describe: (b, [i, kind], a) => {
        const d = describeStep(b, { name: isStockKind(kind) ? `${name}-watch-cluster` : `${name}-watch`, param: [i, kind] }, a);
        return { ...d, summary: `${d.summary} (${isStockKind(kind) ? 'behind' : 'the event waited'} ${lagOf(b)}s, informers.watchLag: delivered before time passes)` };
      },
    }),
  ];
  if (elected) {
    urgentActions.unshift(
      clusterAction<[number, 'renew-loop' | 'controllers']>({
        // A leader resumed from a pause past its deadline: its goroutines run in either order (no
        // fencing), so its controllers may act once more before its renew loop sees the deadline
        // passed (until the next tick, as for the control plane's leaders in leaderElection.ts).
        name: `${name}-resume`,
        urgent: true,
        params: indices.flatMap((i) => [[i, 'renew-loop'], [i, 'controllers']] as [number, 'renew-loop' | 'controllers'][]),
        enabled: (s, [i]) => mem(s, i).resumed === 'race',
        apply: (s, [i, first]) => (first === 'renew-loop' ? restarted(s, i) : withMem(s, i, { ...mem(s, i), resumed: 'stale' })),
        describe: (_b, [i, first]) => ({
          actor: replicaNames[i],
          summary: first === 'renew-loop' ? `resumes; its renew loop runs first: it has not renewed ${lease} for ${giveUp}s or more, stops leading and exits; it restarts as a follower` : 'resumes; its controllers run before its renew loop notices its renew deadline has passed (leader election is no fencing)',
          affects: [replicaNames[i]],
        }),
      }),
    );
    urgentActions.push(
        clusterAction<number>({
          name: `${name}-leader-election`,
          urgent: true,
          params: indices,
          enabled: (s, i) => {
            const m = mem(s, i);
            return m.paused === 0 && m.retryIn === 0 && !(m.role === 'leader' && m.sinceRenew >= giveUp);
          },
          apply: (s, i) => tryAcquireOrRenew(s, i).state,
          describe: (b, i) => ({ actor: replicaNames[i], summary: tryAcquireOrRenew(b, i).outcome, to: ['kube-apiserver'], routine: mem(b, i).role === 'leader' && holderOf(leaseOf(b)) === replicaNames[i], routineKind: 'lease renewals' }),
        }),
      // After the tries: a follower's try due at the very instant the leader's deadline passes goes
      // first (a race in client-go too: the leader's deadline runs from its renewal's answer, the
      // follower's observation from its own read), so timings with leaseDuration equal to
      // retryPeriod + renewDeadline can give two leaders.
      clusterAction<number>({
        // controller-runtime's OnStoppedLeading ends the process: a running leader past its
        // deadline stops before time passes (a paused one does not run; see `<name>-resume`).
        name: `${name}-stop-leading`,
        urgent: true,
        params: indices,
        enabled: (s, i) => {
          const m = mem(s, i);
          return m.role === 'leader' && m.paused === 0 && m.sinceRenew >= giveUp && m.resumed === undefined;
        },
        apply: (s, i) => restarted(s, i),
        describe: (_b, i) => ({ actor: replicaNames[i], summary: `stops leading (no renewal of ${lease} for ${giveUp}s: retry period ${le.retryPeriodSeconds}s, then renew deadline ${le.renewDeadlineSeconds}s) and exits; it restarts as a follower`, affects: [replicaNames[i]] }),
      }),
    );
  }

  const properties: Property<ClusterState>[] = [...(def.properties ?? [])];
  // Without pauses the timings alone bound the overlap: a leader stops retryPeriod + renewDeadline
  // after its last renewal, the others take the Lease leaseDuration after they saw it.
  const guaranteed = le.leaseDurationSeconds > giveUp;
  const timings = `${le.leaseDurationSeconds}/${le.renewDeadlineSeconds}/${le.retryPeriodSeconds} s`;
  if (elected) {
    properties.unshift(
      always<ClusterState>(
        `${name}-single-leader`,
        `at most one replica of ${name} acts as leader (runs its controllers) at any instant${guaranteed ? ` (its Lease timings ${timings} promise it unless a process pauses)` : ` (its Lease timings ${timings} do not promise it: the lease duration is not longer than retry period + renew deadline)`}`,
        (s) => all(s).filter(acting).length <= 1,
        {
          source: 'kubernetes/client-go:tools/leaderelection/leaderelection.go (package doc: "does not guarantee that only one client is acting as a leader (a.k.a. fencing)")',
          explain: (s) => {
            const leaders = replicaNames.filter((_, i) => acting(mem(s, i)));
            if (leaders.length < 2) return undefined;
            const stale = leaders.filter((r) => mem(s, replicaNames.indexOf(r)).resumed !== undefined);
            const why = stale.length > 0 ? `${stale.join(' and ')} resumed from a pause past its renew deadline and runs its controllers before its renew loop notices (no fencing)` : guaranteed ? 'a leader past its renew deadline has not stopped yet' : `a leader cut off from the Lease leads for ${giveUp}s after its last renewal, and the lease expires for the others after ${le.leaseDurationSeconds}s`;
            return `${leaders.join(' and ')} both run their controllers (the Lease names ${holderName(leaseOf(s))}): ${why}`;
          },
        },
      ),
    );
  }
  if (def.nonIdempotent !== undefined) {
    const once = def.nonIdempotent;
    properties.unshift(
      always<ClusterState>(
        `${name}-external-call-once`,
        `${name} never makes a call outside the cluster that is not idempotent twice`,
        (s) => Object.entries(store(s).calls).every(([call, n]) => n < 2 || !hook(`nonIdempotent(${JSON.stringify(call)})`, () => once(call))),
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

  /** One replica's process after `seconds` pass: its timers move, and with a watch lag its undelivered events age. */
  const ticked = (s: ClusterState, m: OperatorMemory, i: number, seconds: number, lag: number): OperatorMemory => {
    const { resumed: _resumed, ...rest } = m;
    const sinceRenew = m.role === 'leader' ? Math.min(giveUp, m.sinceRenew + seconds) : 0;
    const t: OperatorMemory = {
      ...rest,
      // A leader whose pause ends past its deadline races its controllers against its renew loop.
      ...(m.paused > 0 && m.paused <= seconds && m.role === 'leader' && sinceRenew >= giveUp ? { resumed: 'race' as const } : {}),
      // Exact: a leader past its renew deadline tries no more, and a leader never reads its own observation's age.
      retryIn: m.role === 'leader' && m.sinceRenew + seconds >= giveUp ? 0 : Math.max(0, m.retryIn - seconds),
      sinceRenew,
      observedAge: elected && m.role === 'follower' ? Math.min(le.leaseDurationSeconds, m.observedAge + seconds) : 0,
      paused: Math.max(0, m.paused - seconds),
      later: m.later.map((l) => ({ request: l.request, in: Math.max(0, l.in - seconds) })),
    };
    return lag > 0 ? aged(s, t, i, seconds, lag) : t;
  };

  /** The words for an object, given by the operators' `describeObject` hooks (this one's when the caller has none). */
  const ownWords = (o: ApiObject): string | undefined => (def.describeObject !== undefined && kinds.includes(o.kind) ? wordsFrom('describeObject', def.describeObject, o) : undefined);
  const memoryWords = (m: OperatorMemory): string => (def.describeMemory !== undefined ? (wordsFrom('describeMemory', def.describeMemory, m.memory as M) ?? compactJson(m.memory)) : compactJson(m.memory));
  const hasMemory = (m: OperatorMemory): boolean => def.memory !== undefined || m.memory !== null;
  /** The undelivered watch events of replica i, oldest first per kind, with how long each has waited (known with a watch lag). */
  const undelivered = (s: ClusterState, m: OperatorMemory, i: number): { readonly rv: string; readonly event: string; readonly waited: number }[] => {
    const pending = store(s).watches[replicaNames[i]] ?? {};
    return customKinds.flatMap((k) => (pending[k] ?? []).map((e, j) => ({ rv: e.object.metadata.resourceVersion, event: `${e.type} ${objectLabel(e.object)}`, waited: agesOf(m, k)[j] ?? 0 })));
  };
  /** One replica's process as people read it: its queue, its reconciles under way, its timers, what it has not heard yet, its cache and your memory. */
  const presentReplica = (s: ClusterState, m: OperatorMemory, i: number, words: (o: ApiObject) => string | undefined): Record<string, unknown> => {
    const said = (o: ApiObject): string | undefined => words(o) ?? ownWords(o);
    const stale = stockKinds.filter((k) => agesOf(m, k).length > 0);
    return {
      ...(elected
        ? {
            role: m.role,
            nextLeaseTry: m.retryIn === 0 ? 'now' : `in ${m.retryIn}s`,
            ...(m.role === 'leader' ? { sinceRenewal: `${m.sinceRenew}s` } : { leaseSeen: m.observed === '' ? 'not yet' : `${m.observed}, unchanged for ${m.observedAge}s` }),
          }
        : {}),
      ...(m.paused > 0 ? { paused: `${m.paused}s more` } : {}),
      ...(hasMemory(m) ? { memory: def.describeMemory !== undefined ? memoryWords(m) : m.memory } : {}),
      queue: m.queue,
      reconciling: m.inflight.map((f) => ({
        name: f.request,
        plan: f.writes.map(describeWrite).join('; '),
        sent: `${f.next} of ${f.writes.length}`,
        ...(f.ignore.length > 0 ? { ignoring: f.ignore.join(', ') } : {}),
        ...(f.error !== undefined ? { then: `error ${JSON.stringify(f.error)}` } : f.requeue ? { then: 'requeue' } : f.after > 0 ? { then: `requeue after ${f.after}s` } : {}),
      })),
      later: Object.fromEntries(m.later.map((l) => [l.request, l.in === 0 ? 'due' : `in ${l.in}s`])),
      ...(backoff === undefined ? {} : { failures: m.failures }),
      // By resourceVersion (each change has its own): `undelivered.rv-4: + MODIFIED Backup nightly`.
      undelivered: Object.fromEntries(undelivered(s, m, i).map((u) => [u.rv, `${u.event}${u.waited > 0 ? `, waiting ${u.waited}s` : ''}`])),
      ...(stale.length > 0 ? { behind: Object.fromEntries(stale.map((k) => [k, `${agesOf(m, k)[0]}s`])) } : {}),
      cache: kinds.flatMap((k) => (m.cache[k] ?? []).map((o) => presentObject(o, said(o)))),
    };
  };
  /** A cached copy in brief: which version of the object the replica holds. */
  const cachedLine = (o: ApiObject): string => `${objectLabel(o)}${shownVersion(o) !== '' ? ` at ${o.metadata.resourceVersion}` : DELETABLE_KINDS.includes(o.kind) ? ` (${o.metadata.uid})` : ''}${o.metadata.deletionTimestamp === undefined ? '' : ' (deleting)'}`;
  /** One replica's part of a state's description: `backup-operator: queue nightly; reconciling nightly (1 of 2 sent); cache Backup nightly at rv-2; not heard yet MODIFIED Backup nightly (rv-3)`. */
  const describeReplica = (s: ClusterState, m: OperatorMemory, i: number): string => {
    const status = [...(elected ? [m.role] : []), ...(m.paused > 0 ? [`paused ${m.paused}s more`] : []), ...(cutOff(s, i) ? ['cut off'] : [])];
    const parts = [`queue ${m.queue.length === 0 ? 'empty' : m.queue.join(', ')}`];
    for (const f of m.inflight) parts.push(`reconciling ${f.request} (${f.next} of ${f.writes.length} sent)`);
    for (const l of m.later) parts.push(`${l.request} queued again ${l.in === 0 ? 'now' : `in ${l.in}s`}`);
    const cached = kinds.flatMap((k) => (m.cache[k] ?? []).map(cachedLine));
    parts.push(`cache ${cached.length === 0 ? 'empty' : cached.join(', ')}`);
    const pending = undelivered(s, m, i).map((u) => `${u.event} (${u.rv})`);
    if (pending.length > 0) parts.push(`not heard yet ${pending.join(', ')}`);
    if (hasMemory(m)) parts.push(`memory ${memoryWords(m)}`);
    return `${replicaNames[i]}${status.length === 0 ? '' : ` (${status.join(', ')})`}: ${parts.join('; ')}`;
  };
  /** What a tick did to one replica's timers, in words (empty: nothing changed). */
  const tickWords = (s: ClusterState, b: OperatorMemory, a: OperatorMemory): string[] => {
    const out: string[] = [];
    if (a.paused !== b.paused) out.push(a.paused === 0 ? 'its pause is over' : `paused ${a.paused}s more`);
    for (const l of a.later) {
      const was = b.later.find((x) => x.request === l.request);
      if (was?.in !== l.in) out.push(l.in === 0 ? `${l.request} may be queued again` : `${l.request} queued again in ${l.in}s`);
    }
    if (a.sinceRenew !== b.sinceRenew && a.role === 'leader') out.push(a.sinceRenew >= giveUp ? `${lease} not renewed for ${a.sinceRenew}s (its retry period and renew deadline: it stops leading)` : `${lease} renewed ${a.sinceRenew}s ago`);
    if (a.observedAge !== b.observedAge) out.push(`${lease} unchanged for ${a.observedAge}s by its watch${a.observedAge >= le.leaseDurationSeconds ? ' (the lease duration: it may take it)' : ''}`);
    if (a.retryIn !== b.retryIn) out.push(a.retryIn === 0 ? 'its next Lease try is due' : `next Lease try in ${a.retryIn}s`);
    const lag = lagOf(s);
    for (const k of kinds) {
      const age = agesOf(a, k)[0];
      if (age === undefined || age === agesOf(b, k)[0]) continue;
      const what = isStockKind(k) ? `its ${k} cache behind the API for ${age}s` : `its oldest unheard ${k} event waiting ${age}s`;
      out.push(`${what}${age >= lag ? ' (informers.watchLag: heard before time passes)' : ''}`);
    }
    return out;
  };

  const describeStep = (before: ClusterState, a: { readonly name: string; readonly param?: JsonValue }, after: ClusterState): StepDescription => {
    const i = Array.isArray(a.param) ? (a.param[0] as number) : typeof a.param === 'number' ? a.param : 0;
    const actor = replicaNames[i];
    const m = mem(before, i);
    if (a.name === `${name}-watch`) {
      const kind = (a.param as [number, string])[1];
      const event = store(before).watches[actor][kind][0];
      const queued = m.role === 'follower' ? [] : requestsOf(event.object).filter((r) => !m.queue.includes(r));
      return { actor, summary: `its informer hears ${event.type} ${objectName(event.object.kind, objectKey(event.object.metadata))} (${event.object.metadata.resourceVersion})${queued.length > 0 ? `, queues ${queued.join(', ')}` : ''}` };
    }
    if (a.name === `${name}-watch-cluster`) {
      const kind = (a.param as [number, string])[1];
      const seen = mem(after, i).cache[kind] ?? [];
      const queued = mem(after, i).queue.filter((r) => !m.queue.includes(r));
      const renewed = [...reincarnated(m.cache[kind] ?? [], stockObjects(before, kind))];
      const gone = renewed.length === 0 ? '' : `; hears DELETED ${renewed.map((k) => `${objectName(kind, k)} (${(m.cache[kind] ?? []).find((o) => objectKey(o.metadata) === k)?.metadata.uid})`).join(', ')}, the new ${renewed.length === 1 ? 'one' : 'ones'} next`;
      return { actor, summary: `its ${kind} informer catches up (${seen.length === 0 ? 'none' : seen.map((o) => o.metadata.name + (o.metadata.deletionTimestamp === undefined ? '' : ' Terminating')).join(', ')})${gone}${queued.length > 0 ? `, queues ${queued.join(', ')}` : ''}` };
    }
    if (a.name === `${name}-reconcile`) {
      const request = nextRequest(m)!;
      const f = mem(after, i).inflight.find((x) => x.request === request);
      const cached = m.cache[def.for]?.find((o) => objectKey(o.metadata) === request);
      const read = cached === undefined ? `its cache has no ${def.for} ${request}` : `its cache has ${def.for} ${request}${shownVersion(cached) === '' ? '' : ` at ${cached.metadata.resourceVersion}`}${cached.metadata.deletionTimestamp === undefined ? '' : ', being deleted'}`;
      const result = reconcileOf(before, m, i, request).result;
      if (result === 'unanswered') return { actor, summary: `reconciles ${request} (${read}): its live read gets no answer (cut off from the kube-apiserver), so the reconcile fails and ${requeued(m, request)}` };
      const plan = f === undefined ? 'nothing to write' : `plans ${f.writes.map(describeWrite).join('; ')}`;
      if (result.error !== undefined) return { actor, summary: `reconciles ${request} (${read}): ${f === undefined ? `returns error ${JSON.stringify(result.error)}, so the reconcile fails and ${requeued(m, request)}` : `${plan}, then returns error ${JSON.stringify(result.error)}`}` };
      return { actor, summary: `reconciles ${request} (${read}): ${plan}` };
    }
    if (a.name === `${name}-write`) {
      const f = m.inflight[slotOf(a.param as number | number[])[1]];
      const outcome = send(before, i, f.writes[f.next])[1];
      const failed = outcome !== 'ok' && !f.ignore.includes(outcome);
      const w = f.writes[f.next];
      const stale = m.role === 'leader' && m.sinceRenew >= giveUp ? ` (it has not renewed ${lease} for ${m.sinceRenew}s: it no longer leads, but has not noticed)` : '';
      const returned = !failed && f.error !== undefined && f.next + 1 === f.writes.length ? `; the reconcile of ${f.request} returns its error ${JSON.stringify(f.error)}, so ${requeued(m, f.request)}` : '';
      return { actor, summary: `${describeWrite(w)}: ${OUTCOME[outcome]}${failed ? `, so the reconcile of ${f.request} fails and ${requeued(m, f.request)}` : returned}${stale}`, to: [w.op === 'external' ? 'outside the cluster' : 'kube-apiserver'] };
    }
    if (a.name === `${name}-lost-answer`) {
      const f = m.inflight[slotOf(a.param as number | number[])[1]];
      const w = f.writes[f.next];
      const outcome = applyWrite(store(before), w)[1];
      return { actor: 'fault', summary: `${describeWrite(w)} from ${actor} reaches the kube-apiserver (${OUTCOME[outcome]}), but the answer is lost: the reconcile of ${f.request} fails and ${requeued(m, f.request)}`, to: ['kube-apiserver'], affects: [actor] };
    }
    if (a.name === `${name}-requeue`) {
      const due = m.later.find((l) => l.in === 0)?.request ?? '?';
      return { actor, summary: `queues ${due} again (${(m.failures[due] ?? 0) > 0 ? "the rate limiter's backoff is over" : 'requeueAfter'})` };
    }
    if (a.name === `${name}-restart`) return { actor: 'fault', summary: `${actor} restarts: its memory, cache and queue are lost, and it lists ${kinds.join(', ')} again`, affects: [actor] };
    if (a.name === `${name}-partition`) return { actor: 'fault', summary: `${actor} is cut off from the kube-apiserver (keeps running)`, affects: [actor] };
    if (a.name === `${name}-heal`) return { actor: 'fault', summary: `${actor} reaches the kube-apiserver again`, affects: [actor] };
    if (a.name === `${name}-pause`) return { actor: 'fault', summary: `${actor} is paused (stop-the-world) for ${store(before).pauseSeconds ?? 20}s`, affects: [actor] };
    if (a.name === `${name}-client`) {
      const c = def.clients?.find((x) => x.name === a.param);
      return { actor: 'user', summary: c?.description ?? `${c?.name}: ${(c === undefined ? [] : clientWrites(c, before)).map(describeWrite).join('; ')}`, to: ['kube-apiserver'] };
    }
    return { actor, summary: a.name };
  };

  const extension: ClusterExtension = {
    name,
    prepare: (s: ClusterState, config): ClusterState => {
      let st: CustomStore = {
        ...store(s),
        pauseSeconds: config.faults.processPauseDuration,
        nodeLabels: Array.from({ length: config.cluster.nodes }, (_, n) => nodeLabelsOf(config, n)),
        ...labelKeysOf(config.cluster.workloads),
        ...(config.informers.watchLag > 0 ? { watchLag: config.informers.watchLag } : {}),
        workloads: config.cluster.workloads.map((w) => ({
          kind: w.kind,
          name: w.name,
          ...(w.labels === undefined || Object.keys(w.labels).length === 0 ? {} : { labels: w.labels }),
          replicas: w.replicas,
          ...(w.podManagementPolicy === undefined ? {} : { podManagementPolicy: w.podManagementPolicy }),
          ...(w.volumeClaimTemplates === undefined ? {} : { volumeClaimTemplates: w.volumeClaimTemplates.map((t) => t.name) }),
          ...(w.persistentVolumeClaimRetentionPolicy === undefined ? {} : { persistentVolumeClaimRetentionPolicy: w.persistentVolumeClaimRetentionPolicy }),
        })),
      };
      // The cluster's own objects of the kinds this operator declares (`cluster.objects`, from the
      // user's manifests) join its own; one of the same kind, namespace and name replaces the definition's.
      const given = (config.cluster.objects ?? []).filter((o) => kinds.includes(o.kind));
      const own = initialObjects.filter((o) => !given.some((g) => g.kind === o.kind && objectKey(g.metadata) === objectKey(o.metadata)));
      const objects = [...own, ...(given as readonly ObjectInit[]), ...(elected ? [{ kind: 'Lease', metadata: { name: lease }, spec: { holderIdentity: '', holder: '', leaseDurationSeconds: le.leaseDurationSeconds, renewTime: 0, leaseTransitions: 0 } }] : [])];
      for (const o of objects) {
        const [next, outcome] = applyWrite(st, { op: 'create', object: o });
        if (outcome !== 'ok') throw new Error(`initial object ${objectName(o.kind, objectKey(o.metadata))}: ${OUTCOME[outcome]}`);
        st = next;
      }
      const clients = { ...st.clients };
      for (const c of def.clients ?? []) clients[`${name}/${c.name}`] = c.times ?? 1;
      const watches = { ...st.watches };
      for (const w of replicaNames) watches[w] = watching();
      const identities: Record<string, string> = { ...st.identities };
      if (elected) {
        for (const w of replicaNames) {
          identities[w] = `uid-${st.nextUid}`;
          st = { ...st, nextUid: st.nextUid + 1 };
        }
      }
      // An operator reading the cluster's Pods reads their phase: the pods keep whether they ran.
      const readsPods = stockKinds.includes('Pod');
      return { ...(readsPods ? podsRanAtStart(s) : s), custom: { ...st, clients, watches, ...(elected ? { identities } : {}), ...(readsPods ? { podPhases: true as const } : {}) } };
    },
    initial: (s) => indices.map(() => started(s)) as unknown as JsonValue,
    onTick: (memory, s, seconds) => {
      const list = memory as unknown as readonly OperatorMemory[];
      const lag = lagOf(s);
      return list.map((m, i) => ticked(s, m, i, seconds, lag)) as unknown as JsonValue;
    },
    actions,
    urgentActions,
    describeStep,
    describeObject: ownWords,
    presentMemory: (memory, s, words) => {
      const list = memory as unknown as readonly OperatorMemory[];
      return elected ? list.map((m, i) => ({ name: replicaNames[i], ...presentReplica(s, m, i, words) })) : presentReplica(s, list[0], 0, words);
    },
    describeState: (s) => all(s).map((m, i) => describeReplica(s, m, i)),
    describeTick: (before, after, _seconds, s) => {
      const b = before as unknown as readonly OperatorMemory[];
      const lines = (after as unknown as readonly OperatorMemory[]).flatMap((m, i) => {
        const said = tickWords(s, b[i], m);
        return said.length === 0 ? [] : [`${replicaNames[i]}: ${said.join(', ')}`];
      });
      return lines.length === 0 ? undefined : lines.join('; ');
    },
    properties,
    ...(def.liveness === undefined ? {} : { liveness: def.liveness }),
    // A cache of the cluster's Pods or Nodes names nodes, which symmetry would rename under it.
    symmetric: !stockKinds.some(namesNodes) && (def.symmetric ?? true),
  };
  // Its memories are built by the model from JSON copies: not checked again after every step.
  modelBuiltExtensions.add(extension);
  return extension;
}
