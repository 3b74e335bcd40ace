/**
 * Assembles the cluster model: components, faults and the tick, in the order that defines
 * urgency. While some urgent action (periodic or reactive work of a live component) is due, only
 * the *first* due urgent action in this order may fire (all its due parameters are choices), and
 * neither tick nor faults are enabled.
 *
 * What the fixed order within an instant abstracts: work that becomes due at the same instant
 * runs leader election first, then kubelets, then the controller manager's controllers, then the
 * scheduler. Kubelets therefore always act on an API change before a controller chain reacts to
 * it within the same second, and the node lifecycle controller sees a renewal made in the same
 * second. Races finer than the quantum between different components are not explored; races
 * between candidates of one election and between scheduler choices are.
 */
import { refuseOversizedConfig } from './limits.js';
import type { ActionLabel, AnyActionDef, JsonValue, Model, StepDescription } from '../checker/model.js';
import type { Property } from '../checker/properties.js';
import type { LivenessProperty } from '../checker/liveness.js';
import { KubecheckError } from '../checker/errors.js';
import { modelError, ModelErrorCode, refuseUnknownOptions } from './errors.js';
import type { ExtensionCauses } from './possible.js';
import type { ApiObject } from './operator/api.js';
import { withExtensionPresentation } from './extensionPresentation.js';
import type { ClusterConfig } from './config.js';
import { clusterAction, makeCtx, type ClusterAction, type Ctx } from './context.js';
import { describeState } from './describe.js';
import { faultActions, operatorActions, sequenceActions } from './faults.js';
import { initialStates } from './initial.js';
import { containerExitAction, kubeletActions, kubeletStartAction, powerOffAction, runtimeCheckActions } from './kubelet.js';
import { acquireActions, followerTryActions, leaderElectionActions } from './leaderElection.js';
import { nodeLifecycleActions } from './nodeLifecycle.js';
import { podGcActions } from './podGC.js';
import { schedulerActions } from './scheduler.js';
import { claimActions } from './claims.js';
import { readyAtStart, type ClusterState } from './state.js';
import { canonicalize, canonicalKeyBytes, plainKeyBytes } from './symmetry.js';
import { withPresentation } from './presentation.js';
import { stateKey } from './key.js';
import { garbageCollector } from './operator/garbageCollector.js';
import { checkedMemory, guardedHooks, modelBuiltExtensions, userCall } from './operator/userCode.js';
import { taintEvictionActions } from './taintEviction.js';
import { syncHistory, tickAction } from './time.js';
import { workloadActions } from './workloads.js';
import { apiserverCacheName, informerActions, informersOn, relist, relistSources, syncInformers, tickInformers, watchEventActions } from './informers.js';

export interface ClusterModelOptions {
  /** Use symmetry reduction (default true); the checker's `symmetry: false` also turns it off. */
  readonly symmetry?: boolean;
  /**
   * The model's exact reductions of history variables (default: the config's `model.reductions`,
   * true unless set; see `ModelReductions` in context.ts): false explores the model as written,
   * with more states and the same verdicts and shortest counterexamples.
   */
  readonly reductions?: boolean;
  /** Users' own controllers with a memory of their own (see {@link ClusterExtension}). */
  readonly extensions?: readonly ClusterExtension[];
}

/**
 * A user's own controller added beside the built-in components: its memory lives in
 * `state.extensions[name]` (a JSON value, fingerprinted with the rest of the state), its timers
 * move when the clock ticks, and its actions are pure transitions over the whole cluster state.
 *
 * Its actions are non-urgent, like faults and operator actions: once enabled they may fire at
 * any instant, so the search covers every reaction delay, the immediate one included. Unless the
 * extension says its memory is `symmetric` (unchanged by renaming nodes and ReplicaSet pods),
 * symmetry reduction is turned off, since per-node memory would not follow the permutation.
 * For liveness (`check --liveness`), mark an action that must eventually happen `fair: 'strong'`:
 * urgent work of the built-in components disables non-urgent actions now and then, so weak
 * fairness would not force it.
 */
export interface ClusterExtension extends ExtensionCauses {
  readonly name: string;
  /**
   * Once, before any memory: what it adds to the cluster's initial states (an operator's
   * objects in `state.custom`, its watch streams).
   */
  prepare?(state: ClusterState, config: ClusterConfig): ClusterState;
  /**
   * Work that is due at an instant and happens before time passes (a leader-election client's
   * renewal at its retry period), like the built-in components' periodic work.
   */
  readonly urgentActions?: readonly ClusterAction[];
  /** Its memory in the initial states. */
  initial(state: ClusterState): JsonValue;
  /** Its memory after `seconds` pass, in the state reached by the tick. */
  onTick?(memory: JsonValue, state: ClusterState, seconds: number): JsonValue;
  readonly actions: readonly AnyActionDef<ClusterState>[];
  /** A person's description of one of its steps (actor, summary, who it talks to). */
  describeStep?(before: ClusterState, action: ActionLabel, after: ClusterState): StepDescription;
  /**
   * Its memory in people's words (`node-2 NotReady for 12s`): its part of a state's one-line
   * description (the initial and final states of a trace, `<name>: <words>`), the line a tick
   * that changes it adds to the tick's step (`<name>: <before> → <after>`), and, unless
   * `presentMemory` is given, its memory in a step's changes. Default: the memory as compact JSON.
   */
  describeMemory?(memory: JsonValue, state: ClusterState): string;
  /**
   * Its memory as a structure people read, for a step's changes, the state panes and JSON
   * reports: names instead of positions, so a diff says field by field what changed. Default:
   * `describeMemory`'s words when given, else the memory as it is. `objectWords` gives the
   * words every extension's `describeObject` has for an object (for copies of objects it keeps).
   */
  presentMemory?(memory: JsonValue, state: ClusterState, objectWords: (object: ApiObject) => string | undefined): unknown;
  /** Its parts of a state's one-line description, in place of `<name>: describeMemory(...)`. */
  describeState?(state: ClusterState): readonly string[];
  /**
   * What a tick of `seconds` did to its memory (`onTick`), in the tick's step: one line, or
   * undefined for nothing worth saying. Default, when the tick changed its memory:
   * `<name>: <before> → <after>` in `describeMemory`'s words (or compact JSON).
   */
  describeTick?(before: JsonValue, after: JsonValue, seconds: number, state: ClusterState): string | undefined;
  /**
   * The words for an API object of a users' kind (`state.custom`: an operator's custom
   * resources), after its kind, name and metadata, in a step's changes and a state's description;
   * undefined leaves it to another extension or the default (its spec and status).
   */
  describeObject?(object: ApiObject): string | undefined;
  readonly symmetric?: boolean;
  /**
   * Give this controller an informer cache of pods and Node objects (`state.informers[name]`),
   * as a real controller built on client-go has: read it with `viewOf(state, name)`, and write
   * through the API (`state.api`). Effective with `informers.watchLag` > 0; the cache then lags
   * the API by up to that bound, and `<name>-restart` (budget `faults.extensionRestart`) restarts
   * the controller: its memory starts over and it relists, from a kube-apiserver's watch cache
   * when there are several ("time travel").
   */
  readonly informer?: boolean;
  /**
   * What this controller promises, checked with the cluster's own properties: invariants
   * (`always`), step properties (`alwaysStep`), observers and reachability goals (`sometimes`).
   * `kubecheck check --extension` checks them by default, replay and reports know them by id.
   * An id may not be one of the built-in properties'.
   */
  readonly properties?: readonly Property<ClusterState>[];
  /** Its liveness properties (`eventually`, `alwaysEventually`, `leadsTo`), checked by `check --liveness`. */
  readonly liveness?: readonly LivenessProperty<ClusterState>[];
}

/** The properties the extensions declare, in order; KC107 when an id is declared twice or is a built-in one. */
export function extensionProperties(extensions: readonly ClusterExtension[], builtIn: readonly string[]): { readonly properties: Property<ClusterState>[]; readonly liveness: LivenessProperty<ClusterState>[] } {
  const seen = new Map<string, string>(builtIn.map((id) => [id, 'the built-in properties']));
  const properties: Property<ClusterState>[] = [];
  const liveness: LivenessProperty<ClusterState>[] = [];
  const take = (e: ClusterExtension, id: string): void => {
    const other = seen.get(id);
    if (other !== undefined) modelError(ModelErrorCode.invalidShape, `extension ${e.name} declares property ${id}, which ${other === 'the built-in properties' ? 'is a built-in property' : `extension ${other} declares too`}: give it another id`);
    seen.set(id, e.name);
  };
  validateExtensions(extensions);
  for (const e of extensions) {
    // Each predicate runs guarded, on a frozen state (a property can neither change a state nor end the check uncoded).
    for (const p of e.properties ?? []) {
      take(e, p.id);
      properties.push(guardedHooks(p, `extension ${e.name}: property ${p.id}`));
    }
    for (const p of e.liveness ?? []) {
      take(e, p.id);
      liveness.push(guardedHooks(p, `extension ${e.name}: liveness property ${p.id}`));
    }
  }
  return { properties, liveness };
}

/** The functions a {@link ClusterExtension} may give beside `initial`. */
const EXTENSION_HOOKS = ['prepare', 'onTick', 'describeStep', 'describeMemory', 'presentMemory', 'describeState', 'describeTick', 'describeObject'] as const;

/**
 * Refuses (KC107), in one line naming the extension (by name, else by its place in the list) and
 * the field, a list of extensions that cannot run: an entry that is not an object (`[null]`), no
 * name, an `initial` or hook that is not a function, an action without a name or `apply`, a
 * property without an id, two extensions of one name. It ended in a TypeError somewhere inside
 * the model before.
 */
export function validateExtensions(extensions: unknown): asserts extensions is readonly ClusterExtension[] {
  if (!Array.isArray(extensions)) modelError(ModelErrorCode.invalidShape, `extensions must be a list of ClusterExtension (got ${extensions === null ? 'null' : typeof extensions})`);
  const names = new Set<string>();
  extensions.forEach((e: unknown, i: number) => {
    const shape = 'a ClusterExtension: an object with name, initial and actions';
    if (e === null || typeof e !== 'object' || Array.isArray(e)) modelError(ModelErrorCode.invalidShape, `extensions[${i}] is ${e === null ? 'null' : Array.isArray(e) ? 'a list' : typeof e}, not ${shape}`);
    const x = e as Record<string, unknown>;
    if (typeof x.name !== 'string' || x.name === '') modelError(ModelErrorCode.invalidShape, `extensions[${i}] has no name (a non-empty string); ${shape}`);
    const bad = (why: string): never => modelError(ModelErrorCode.invalidShape, `extension ${x.name as string}: ${why}`);
    if (names.has(x.name)) bad('a second extension has this name; names must be unique');
    names.add(x.name);
    if (typeof x.initial !== 'function') bad('initial must be a function (its memory in the initial states)');
    for (const hook of EXTENSION_HOOKS) if (x[hook] !== undefined && typeof x[hook] !== 'function') bad(`${hook} must be a function`);
    if (x.causes !== undefined && !Array.isArray(x.causes)) bad('causes must be a list of event kinds');
    for (const list of ['actions', 'urgentActions'] as const) {
      const actions = x[list];
      if (list === 'urgentActions' && actions === undefined) continue;
      if (!Array.isArray(actions)) return bad(`${list} must be a list of actions`);
      actions.forEach((a: unknown, k: number) => {
        if (a === null || typeof a !== 'object') bad(`${list}[${k}] is ${a === null ? 'null' : typeof a}, not an action ({ name, apply })`);
        const act = a as Record<string, unknown>;
        if (typeof act.name !== 'string' || act.name === '') bad(`${list}[${k}] has no name`);
        for (const f of list === 'urgentActions' ? ['apply', 'enabled', 'describe'] : ['apply']) if (typeof act[f] !== 'function') bad(`action ${act.name as string}: ${f} must be a function`);
        if (act.enabled !== undefined && typeof act.enabled !== 'function') bad(`action ${act.name as string}: enabled must be a function`);
        if (act.params !== undefined && typeof act.params !== 'function' && !Array.isArray(act.params)) bad(`action ${act.name as string}: params must be a list or a function`);
      });
    }
    for (const list of ['properties', 'liveness'] as const) {
      const props = x[list];
      if (props === undefined) continue;
      if (!Array.isArray(props)) return bad(`${list} must be a list`);
      props.forEach((p: unknown, k: number) => {
        if (p === null || typeof p !== 'object' || typeof (p as { id?: unknown }).id !== 'string') bad(`${list}[${k}] is not a property with an id (use always, eventually, ... from kubecheck)`);
      });
    }
  });
}

/** Runs a user's extension code; what it throws becomes one coded line (KC110) naming the extension and the hook. */
function guarded<A extends unknown[], R>(extension: string, what: string, f: (...args: A) => R): (...args: A) => R {
  const where = `extension ${extension}: ${what}`;
  return (...args: A): R => userCall(where, () => f(...args));
}

/**
 * The extension with every function it gives wrapped by {@link guarded}; unless the model built it
 * (an operator), the memories it gives are checked to be JSON and frozen ({@link checkedMemory}),
 * and a step's result to be a state.
 */
function guardedExtension(e: ClusterExtension): ClusterExtension {
  const own = !modelBuiltExtensions.has(e);
  const memory = (what: string, f: (...args: never[]) => JsonValue): ((...args: never[]) => JsonValue) => (own ? (...args) => checkedMemory(f(...args), `extension ${e.name}: ${what}'s result`) : f);
  /** A step's result: undefined (not enabled) or a state whose extension memories are JSON. */
  const stepResult = (name: string, before: ClusterState, after: ClusterState | undefined): ClusterState | undefined => {
    if (after === undefined) return after;
    const where = `extension ${e.name}: the step ${name}`;
    if (after === null || typeof after !== 'object' || Array.isArray(after)) modelError(ModelErrorCode.extensionFailed, `${where} returned ${after === null ? 'null' : Array.isArray(after) ? 'a list' : typeof after}, not a cluster state (the state it was given, changed, or undefined when it cannot happen)`);
    const memories = after.extensions;
    if (memories === null || typeof memories !== 'object') modelError(ModelErrorCode.extensionFailed, `${where} returned a state without the extensions' memories (state.extensions); return the state it was given, changed`);
    if (own && memories !== before.extensions) {
      for (const k of Object.keys(memories)) if (memories[k] !== before.extensions?.[k]) checkedMemory(memories[k], `extension ${e.name}: the memory of ${k} after the step ${name}`);
    }
    return after;
  };
  const wrapAction = (a: AnyActionDef<ClusterState>): AnyActionDef<ClusterState> => ({
    ...a,
    ...(typeof a.params === 'function' ? { params: guarded(e.name, `the parameters of ${a.name}`, a.params) } : {}),
    ...(a.enabled === undefined ? {} : { enabled: guarded(e.name, `the guard of ${a.name}`, a.enabled) }),
    apply: guarded(e.name, `the step ${a.name}`, (s: ClusterState, p: JsonValue | undefined) => stepResult(a.name, s, a.apply(s, p as never))),
  });
  return {
    ...e,
    initial: guarded(e.name, 'initial', memory('initial', e.initial as (...args: never[]) => JsonValue) as (s: ClusterState) => JsonValue),
    ...(e.onTick === undefined ? {} : { onTick: guarded(e.name, 'onTick', memory('onTick', e.onTick as (...args: never[]) => JsonValue) as (m: JsonValue, s: ClusterState, seconds: number) => JsonValue) }),
    ...(e.prepare === undefined ? {} : { prepare: guarded(e.name, 'its initial objects', e.prepare) }),
    ...(e.describeStep === undefined ? {} : { describeStep: guarded(e.name, 'describeStep', e.describeStep) }),
    ...(e.describeMemory === undefined ? {} : { describeMemory: guarded(e.name, 'describeMemory', e.describeMemory) }),
    ...(e.presentMemory === undefined ? {} : { presentMemory: guarded(e.name, 'presentMemory', e.presentMemory) }),
    ...(e.describeState === undefined ? {} : { describeState: guarded(e.name, 'describeState', e.describeState) }),
    ...(e.describeTick === undefined ? {} : { describeTick: guarded(e.name, 'describeTick', e.describeTick) }),
    ...(e.describeObject === undefined ? {} : { describeObject: guarded(e.name, 'describeObject', e.describeObject) }),
    actions: e.actions.map(wrapAction),
    ...(e.urgentActions === undefined
      ? {}
      : { urgentActions: e.urgentActions.map((a) => ({ ...a, enabled: guarded(e.name, `the guard of ${a.name}`, a.enabled), apply: guarded(e.name, `the step ${a.name}`, (s: ClusterState, p: JsonValue | undefined) => stepResult(a.name, s, a.apply(s, p as never)) as ClusterState), describe: guarded(e.name, `the description of ${a.name}`, a.describe), ...(typeof a.params === 'function' ? { params: guarded(e.name, `the parameters of ${a.name}`, a.params) } : {}) })) }),
  };
}

/** Gives every extension its memory in `state`. */
function withExtensions(extensions: readonly ClusterExtension[], state: ClusterState, config: ClusterConfig): ClusterState {
  if (extensions.length === 0) return state;
  let prepared = state;
  for (const e of extensions) if (e.prepare) prepared = e.prepare(prepared, config);
  const memory: Record<string, JsonValue> = {};
  for (const e of extensions) memory[e.name] = e.initial(prepared);
  return { ...prepared, extensions: memory };
}

/** Moves the extensions' timers after a tick of `seconds`. */
function tickExtensions(extensions: readonly ClusterExtension[], state: ClusterState, seconds: number): ClusterState {
  if (extensions.length === 0 || state.extensions === undefined) return state;
  const memory: Record<string, JsonValue> = { ...state.extensions };
  for (const e of extensions) if (e.onTick) memory[e.name] = e.onTick(memory[e.name], state, seconds);
  return { ...state, extensions: memory };
}

/**
 * `extension-restart` (budget `faults.extensionRestart`): a user's controller with an informer
 * restarts: its memory starts over and it lists with resourceVersion="0", which a kube-apiserver
 * serves from its watch cache, possibly older than what the controller saw before.
 */
function extensionRestart(extensions: readonly ClusterExtension[]): ClusterAction {
  const byName = new Map(extensions.map((e) => [e.name, e]));
  const from = (i: number): string => (i < 0 ? 'kube-apiserver' : apiserverCacheName(i));
  return clusterAction<{ extension: string; from: string }>({
    name: 'extension-restart',
    urgent: false,
    params: (s) => ((s.budget.extensionRestart ?? 0) > 0 ? extensions.flatMap((e) => relistSources(s).map((i) => ({ extension: e.name, from: from(i) }))) : []),
    enabled: (s) => (s.budget.extensionRestart ?? 0) > 0,
    apply: (s, p) => {
      const e = byName.get(p.extension)!;
      const i = p.from === 'kube-apiserver' ? -1 : Number(p.from.slice('kube-apiserver-'.length)) - 1;
      const listedState = relist({ ...s, budget: { ...s.budget, extensionRestart: s.budget.extensionRestart - 1 } }, e.name, i);
      return { ...listedState, extensions: { ...listedState.extensions, [e.name]: e.initial(listedState) } };
    },
    describe: (b, p) => {
      const cache = p.from === 'kube-apiserver' ? undefined : b.informers?.[p.from];
      const behind = cache === undefined ? -1 : Math.max(cache.podsBehind, cache.nodesBehind);
      const stale = behind >= 0 ? ` (its watch cache lags the API${behind > 0 ? ` by up to ${behind}s` : ''}: the list goes back in time)` : '';
      return { actor: 'fault', summary: `${p.extension} restarts and lists pods and nodes with resourceVersion="0" from ${p.from}${stale}`, to: [p.from === 'kube-apiserver' ? 'kube-apiserver' : p.from], affects: [p.extension] };
    },
  });
}

/** The built-in urgent actions, in urgency order. */
export function urgentActions(ctx: Ctx): ClusterAction[] {
  return [
    // A fault of the scenario's sequence whose fixed time has come happens first in its instant.
    ...(ctx.config.faults.sequence.some((x) => x.after !== null) ? [sequenceActions(ctx).timed] : []),
    // A cache as far behind as informers.watchLag allows catches up before anything else happens.
    ...(informersOn(ctx) ? informerActions(ctx) : []),
    ...leaderElectionActions(ctx),
    ...(ctx.jitteredTries ? [followerTryActions(ctx)[0]] : []),
    ...kubeletActions(ctx),
    ...(ctx.config.kubelet.shutdownGracePeriod > 0 && ctx.possible.count['node-shutdown'] > 0 ? [powerOffAction(ctx)] : []),
    ...(runtimeMayFail(ctx) ? [runtimeCheckActions().urgent] : []),
    ...nodeLifecycleActions(ctx),
    ...taintEvictionActions(ctx),
    ...workloadActions(ctx),
    ...podGcActions(ctx),
    ...claimActions(ctx),
    ...schedulerActions(ctx),
  ];
}

/** Whether a container runtime can fail in this configuration (then the kubelets' runtime checks are actions). */
const runtimeMayFail = (ctx: Ctx): boolean => ctx.possible.count['container-runtime-failure'] > 0;

/** The built-in non-urgent actions: tick, faults, operator actions. */
export function backgroundActions(ctx: Ctx): ClusterAction[] {
  return [tickAction(ctx), ...acquireActions(ctx), ...(ctx.jitteredTries ? [followerTryActions(ctx)[1]] : []), containerExitAction(), ...(ctx.config.cluster.newNodes > 0 ? [kubeletStartAction()] : []), ...(runtimeMayFail(ctx) ? [runtimeCheckActions().background] : []), ...(informersOn(ctx) ? watchEventActions(ctx) : []), ...(ctx.config.faults.sequence.length > 0 ? [sequenceActions(ctx).free] : []), ...faultActions(ctx), ...operatorActions(ctx)];
}

/** The one candidate of an action without parameters (shared: asked in every state). */
const NO_PARAMETER: readonly (JsonValue | undefined)[] = Object.freeze([undefined]);

const paramsOf = (a: ClusterAction, s: ClusterState): readonly (JsonValue | undefined)[] =>
  a.params === undefined ? NO_PARAMETER : typeof a.params === 'function' ? a.params(s) : a.params;

function isClusterAction(a: ClusterAction | AnyActionDef<ClusterState>): a is ClusterAction {
  return 'urgent' in a && 'describe' in a;
}

/** The Kubernetes cluster as a checker `Model`, without properties (see `properties/`). */
export function clusterModel(config: ClusterConfig, options: ClusterModelOptions = {}): Model<ClusterState> {
  const asExtension = 'give your controller as an extension: extensions: [{ name, initial, actions, urgentActions }] (ClusterExtension)';
  refuseUnknownOptions('clusterModel', options, ['symmetry', 'reductions', 'extensions'], { extraActions: asExtension, urgentActions: asExtension });
  refuseOversizedConfig(config); // a config built by hand, not by resolveConfig: the same caps
  if (options.extensions !== undefined) validateExtensions(options.extensions);
  // What the extensions say they cause (`causes`) counts for every "cannot happen" shortcut.
  const ctx = makeCtx(config, options.extensions ?? [], options.reductions === undefined ? {} : { reductions: options.reductions });
  const extensions = (options.extensions ?? []).map(guardedExtension);
  const urgent = [...urgentActions(ctx), ...extensions.flatMap((e) => e.urgentActions ?? [])];
  const cached = informersOn(ctx) ? extensions.filter((e) => e.informer === true) : [];
  const background: (ClusterAction | AnyActionDef<ClusterState>)[] = [
    ...backgroundActions(ctx),
    ...(cached.length > 0 && config.faults.extensionRestart > 0 ? [extensionRestart(cached)] : []),
    ...extensions.flatMap((e) => e.actions),
    // Objects of users' kinds (an extension's `prepare` adds them) have owners to collect.
    ...(extensions.some((e) => e.prepare !== undefined) ? [garbageCollector] : []),
  ];
  // Every step of an extension's own actions is the code under test (reports always show it).
  const userActions = new Set(extensions.flatMap((e) => [...(e.urgentActions ?? []), ...e.actions].map((a) => a.name)));
  const ours = (name: string, d: StepDescription): StepDescription => (userActions.has(name) ? { ...d, underTest: true } : d);
  const informerClients = cached.map((e) => e.name);
  const watchCaches = cached.length > 0 && config.faults.extensionRestart > 0;
  /** After any step: history variables, and the caches when modelled. */
  const settle = informersOn(ctx) ? (s: ClusterState): ClusterState => syncInformers(ctx, syncHistory(ctx, s), informerClients, watchCaches) : (s: ClusterState): ClusterState => syncHistory(ctx, s);
  /** Per state: the first due urgent action, and the parameters it was found with. */
  interface Due {
    readonly index: number;
    readonly params: readonly (JsonValue | undefined)[];
    /** Which of `params` are enabled (each guard is evaluated once per state). */
    readonly on: readonly boolean[];
  }
  const QUIESCENT: Due = { index: -1, params: [], on: [] };
  // The search asks about one state many times in a row (every candidate's guard), then moves
  // on: two entries of memory are enough, and cost the collector nothing (a WeakMap entry per
  // state did).
  let lastState: ClusterState | undefined;
  let lastDue: Due = QUIESCENT;
  let priorState: ClusterState | undefined;
  let priorDue: Due = QUIESCENT;
  const dueOf = (s: ClusterState): Due => {
    if (s === lastState) return lastDue;
    if (s === priorState) return priorDue;
    let found = QUIESCENT;
    for (let i = 0; i < urgent.length && found === QUIESCENT; i++) {
      const a = urgent[i];
      const ps = paramsOf(a, s);
      for (let k = 0; k < ps.length; k++) {
        if (a.enabled(s, ps[k])) {
          const on = new Array<boolean>(ps.length).fill(false);
          on[k] = true;
          for (let j = k + 1; j < ps.length; j++) on[j] = a.enabled(s, ps[j]);
          found = { index: i, params: ps, on };
          break;
        }
      }
    }
    priorState = lastState;
    priorDue = lastDue;
    lastState = s;
    lastDue = found;
    return found;
  };
  /** Whether urgent action i is enabled with p: read from `dueOf` when p is one of its listed parameters. */
  const urgentEnabled = (a: ClusterAction, i: number, s: ClusterState, p: JsonValue | undefined): boolean => {
    const d = dueOf(s);
    if (d.index !== i) return false;
    const k = d.params.indexOf(p);
    return k >= 0 ? d.on[k] : a.enabled(s, p);
  };
  /** Index in `urgent` of the first action with a due parameter, or -1 (quiescent). */
  const firstDue = (s: ClusterState): number => dueOf(s).index;
  const NONE: readonly JsonValue[] = [];
  const describers = new Map<string, ClusterAction>();
  const actions: AnyActionDef<ClusterState>[] = [];
  urgent.forEach((a, i) => {
    describers.set(a.name, a);
    actions.push({
      name: a.name,
      // Only the first due action has candidates: the others' parameters are not even listed (its
      // own were, while finding it). Ordinals count listed candidates, so this changes no order.
      ...(a.params === undefined ? {} : { params: (s: ClusterState) => { const d = dueOf(s); return d.index === i ? (d.params as readonly JsonValue[]) : NONE; } }),
      enabled: (s, p) => urgentEnabled(a, i, s, p),
      apply: (s, p) => settle(a.apply(s, p)),
      // Periodic and reactive work of live components happens. Strong fairness: more urgent work
      // can disable it for a moment (only the first due urgent action is enabled).
      fair: 'strong',
    });
  });
  for (const a of background) {
    if (isClusterAction(a)) {
      describers.set(a.name, a);
      const ps = a.params;
      actions.push({
        name: a.name,
        // Between instants only: while urgent work is due no background candidate is listed.
        ...(ps === undefined ? {} : { params: (s: ClusterState) => (firstDue(s) < 0 ? (typeof ps === 'function' ? ps(s) : ps) : NONE) as readonly JsonValue[] }),
        enabled: (s, p) => firstDue(s) < 0 && a.enabled(s, p),
        apply: a.name === 'tick' ? (s, p) => settle(tickInformers(ctx, tickExtensions(extensions, a.apply(s, p), ctx.tick), ctx.tick)) : (s, p) => settle(a.apply(s, p)),
        // As the action says (time passes, an expired Lease is taken); faults and operator actions may never happen.
        ...(a.fair === undefined ? {} : { fair: a.fair }),
      });
    } else {
      const own = a.describe;
      actions.push({
        ...a,
        ...(own === undefined ? {} : { describe: (b: ClusterState, p: JsonValue | undefined, after: ClusterState) => ours(a.name, own(b, p, after)) }),
        enabled: (s, p) => firstDue(s) < 0 && (a.enabled === undefined || a.enabled(s, p)),
        apply: (s, p) => {
          const next = a.apply(s, p);
          return next === undefined ? undefined : settle(next);
        },
      });
    }
  }
  // Caches hold node indices and pod names of their own; symmetry does not permute them (yet).
  const symmetry = (options.symmetry ?? true) && extensions.every((e) => e.symmetric === true) && !informersOn(ctx);
  const extensionOf = new Map<string, ClusterExtension>();
  for (const e of extensions) for (const a of e.actions) extensionOf.set(a.name, e);
  const model = withPresentation({
    name: `kubernetes(${config.scenario})`,
    initialStates: () => initialStates(ctx).map((s) => settle(withExtensions(extensions, readyAtStart(s), config))),
    actions,
    properties: [],
    // Without symmetry (none in the model, or a search asked for none) a state is keyed as numbers all the same.
    ...(symmetry ? { canonicalize: (s: ClusterState) => canonicalize(ctx, s), canonicalView: (s: ClusterState) => canonicalKeyBytes(ctx, s) } : {}),
    plainView: plainKeyBytes,
    view: stateKey,
    elapsed: (_b: ClusterState, a: ActionLabel) => (a.name === 'tick' ? ctx.tick : 0),
    describeStep: (b: ClusterState, a: ActionLabel, after: ClusterState): StepDescription => {
      const d = describers.get(a.name);
      if (d === undefined) {
        const e = extensionOf.get(a.name);
        if (e?.describeStep) return ours(a.name, e.describeStep(b, a, after));
        return ours(a.name, { actor: e?.name ?? 'extension', summary: a.param === undefined ? a.name : `${a.name}(${JSON.stringify(a.param)})` });
      }
      return ours(a.name, d.describe(b, a.param, after));
    },
    describeState,
  });
  // The extensions' memories and objects in people's words (the stock model's texts are unchanged).
  return extensions.length === 0 ? model : withExtensionPresentation(model, extensions);
}

/** Whether no urgent built-in work is due in `s` (time may pass, faults may happen). */
export function quiescent(config: ClusterConfig, s: ClusterState): boolean {
  const ctx = makeCtx(config);
  return urgentActions(ctx).every((a) => paramsOf(a, s).every((p) => !a.enabled(s, p)));
}
