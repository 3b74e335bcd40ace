/**
 * Explicit-state search on one thread: breadth-first (shortest counterexamples) or depth-first, over
 * fingerprints. States of the frontier are kept; visited states are kept only as fingerprints with
 * parent links (`StateStore`), and traces are rebuilt by replaying from the initial state.
 */
import { exactEncoding, type Fingerprint } from './fingerprint.js';
import { FingerprintTable, type VisitedSet } from './fingerprintTable.js';
import type { ActionLabel, Model } from './model.js';
import { BEYOND_DEPTH, BEYOND_MEMORY, BEYOND_STATES, Budget, fingerprintWithObservers, stepObservers, keyFunction, NO_OBSERVERS, observedText, PropertySet, SEEN, StateStore, type Discovery } from './kernel.js';
import type { CheckOptions, SearchVisitor } from './options.js';
import type { Observer, Property } from './properties.js';
import { outcomeOf, type BoundReached, type CheckResult, type Path, type PropertyStatus, type SearchStats, type Trace, type Verdict } from './result.js';
import { forEachSuccessor, labelOf } from './successors.js';
import { FEWER_FAULTS_STATE_CAP, fewestFaults, type FewestFaultsBounds } from './fewerFaults.js';
import { StateBytes } from './stateBytes.js';
import { replayPath } from './trace.js';
import { eachInitialState } from './validateModel.js';

/**
 * What every search on the main thread keeps, whatever its states and fingerprints (`K`, the
 * fingerprint's form): the properties decided, the stored states, the budget, and the result.
 */
export abstract class SearchBase<S, K> {
  /** The checked properties, split by kind. */
  protected readonly props: PropertySet<S>;
  protected readonly found = new Map<string, Discovery>();
  protected pending: number;
  protected readonly states: StateStore<K>;
  protected readonly symmetry: boolean;
  /** Time, memory and states bounds, and progress. */
  protected readonly budget: Budget;
  protected abstract readonly engine: SearchStats['engine'];
  /** Fingerprint collisions seen, when they are looked for. */
  protected collisions: number | undefined;

  protected generated = 0;
  protected depth = 0;
  protected stoppedBy: BoundReached | undefined;
  protected halted = false;
  /** Distinct states when a parallel search stopped mid-level (the table may hold a few more). */
  protected distinctOverride: number | undefined;

  constructor(
    protected readonly model: Model<S>,
    protected readonly options: CheckOptions,
    visited: VisitedSet<K>,
    props: PropertySet<S> = new PropertySet(model, options.properties),
  ) {
    this.props = props;
    this.pending = this.props.count;
    this.symmetry = (options.symmetry ?? true) && model.canonicalize !== undefined;
    this.budget = new Budget(options);
    this.states = new StateStore(visited, this.budget.maxStates, this.budget.memory);
  }

  abstract run(): CheckResult<S>;

  // ---- properties ---------------------------------------------------------------------------

  protected decide(id: string, at: Discovery): void {
    if (this.found.has(id)) return;
    this.found.set(id, at);
    this.pending--;
    const isViolation = !this.props.isGoal(id);
    if (this.pending === 0 || (isViolation && this.options.stopAtFirstViolation)) this.halted = true;
    if (isViolation && this.options.onViolation !== undefined) this.announce(id, at);
  }

  /** Tells `onViolation` of a violation found, with its path (a distributed search defers it until the path is gathered). */
  protected announce(id: string, at: Discovery): void {
    const seconds = this.budget.seconds();
    const distinct = this.distinctOverride ?? this.states.size;
    const stats = { distinctStates: distinct, generatedStates: this.generated, depth: this.depth, seconds, statesPerSecond: seconds > 0 ? distinct / seconds : 0, peakMemoryMB: this.budget.memory.peakRss / 1048576, bytesPerState: distinct ? this.states.bytes / distinct : 0, engine: this.engine };
    this.options.onViolation?.({ property: id, trace: replayPath(this.model, this.pathOf(at)) as Trace<unknown>, stats });
  }

  /** Decides the state properties that the state stored as `id` violates or reaches. */
  protected checkState(state: S, observed: readonly unknown[], id: number): void {
    const props = this.props;
    for (let j = props.decidedOn(state, observed, 0, this.found); j >= 0; j = props.decidedOn(state, observed, j + 1, this.found)) this.decide(props.stateIds[j], { id, ordinal: -1 });
  }

  // ---- bounds -------------------------------------------------------------------------------

  protected stop(reached: BoundReached): void {
    this.stoppedBy ??= reached;
    this.halted = true;
  }

  /** Called once per expanded state: the budget's bounds and progress. */
  protected tick(queued: number): void {
    const stop = this.budget.expansion(queued, this.states.size, this.generated, this.depth);
    if (stop !== undefined) this.stop(stop);
  }

  /**
   * Stores a fingerprint ({@link StateStore.store}). An unseen state beyond the depth bound lets
   * the search go on with the other states of the last level (their steps are still checked), but
   * it can no longer say "ok"; the states bound stops it, and so does the memory bound when
   * storing it would grow the store's arrays past it.
   */
  protected admit(fp: K, parent: number, ordinal: number, atDepthLimit: boolean): number {
    const id = this.states.store(fp, parent, ordinal, atDepthLimit);
    if (id === BEYOND_DEPTH) this.stoppedBy ??= { bound: 'depth', limit: this.options.maxDepth ?? 0 };
    else if (id === BEYOND_STATES) this.stop({ bound: 'states', limit: this.budget.maxStates });
    else if (id === BEYOND_MEMORY) this.stop(this.budget.memoryStop());
    return id;
  }

  /** Holds `bytes` more on the memory guard (`heap`: JavaScript objects); stops the search when that reaches the bound. */
  protected hold(bytes: number, heap: boolean): void {
    if (this.budget.memory.hold(bytes, heap)) this.stop(this.budget.memoryStop());
  }

  // ---- results ------------------------------------------------------------------------------

  /**
   * The trace to a discovery; a breadth-first counterexample is the shortest one with the fewest
   * fault steps (see fewerFaults.ts), the same whatever order the states were met in.
   */
  private traceTo(id: string, status: PropertyStatus, at: Discovery): Trace<S> {
    const trace = replayPath(this.model, this.pathOf(at));
    const property = this.props.selected.find((p) => p.id === id);
    if (status !== 'violated' || property === undefined || (this.options.strategy ?? 'bfs') !== 'bfs') return trace;
    // Within the check's time limit: past it, the shortest trace as found (it may carry a fault
    // the violation does not need).
    const { timeLimitSeconds: limit, maxMemoryBytes, maxMemoryMB } = this.options;
    const left = limit === undefined ? undefined : limit - this.budget.seconds();
    if (left !== undefined && left <= 0) return trace;
    return fewestFaults(this.model, property, trace, this.symmetry, { timeLimitSeconds: left, maxMemoryBytes, maxMemoryMB });
  }

  /** The level of the last state stored (an initial state's is 1); a distributed search counts it by level. */
  protected deepestStoredLevel(distinct: number): number {
    return this.states.levelOf(distinct - 1);
  }

  /** The path to a discovery (from the parent links; a distributed search asks their owners first). */
  protected pathOf(at: Discovery): Path {
    return this.states.pathTo(at);
  }

  protected result(): CheckResult<S> {
    const complete = this.stoppedBy === undefined && !this.halted;
    const outcomes = this.props.checked().map((p) => {
      const at = this.found.get(p.id);
      const isGoal = p.kind === 'reachable';
      let status: PropertyStatus;
      if (at !== undefined) status = isGoal ? 'witnessed' : 'violated';
      else if (!complete) status = 'unknown';
      else status = isGoal ? 'unwitnessed' : 'holds';
      return outcomeOf<S>(p, status, at === undefined ? undefined : this.traceTo(p.id, status, at));
    });
    const failed = outcomes.some((o) => o.status === 'violated' || o.status === 'unwitnessed');
    // Halting because every property is decided leaves nothing unknown; any other stop is partial.
    const partial = this.stoppedBy !== undefined || (this.halted && this.pending > 0);
    const verdict: Verdict = failed ? 'violation' : partial ? 'incomplete' : 'ok';
    const seconds = this.budget.seconds();
    this.budget.memory.sample();
    const distinct = this.distinctOverride ?? this.states.size;
    // The level of the deepest state stored, as TLC reports it: a search stopped in the middle
    // of a level (at a violation, a bound) has stored states of the next one, the violating
    // state among them. Breadth-first, the last state stored is the deepest; depth-first, every
    // stored state is expanded in a complete search, and a stopped one ends on the last stored.
    const depth = distinct > 0 ? Math.max(this.depth, this.deepestStoredLevel(distinct)) : this.depth;
    return {
      model: this.model.name,
      strategy: this.options.strategy ?? 'bfs',
      verdict,
      properties: outcomes,
      stats: {
        distinctStates: distinct,
        generatedStates: this.generated,
        depth,
        seconds,
        statesPerSecond: seconds > 0 ? distinct / seconds : 0,
        peakMemoryMB: this.budget.memory.peakRss / 1048576,
        bytesPerState: distinct ? this.states.bytes / distinct : 0,
        ...(this.collisions === undefined ? {} : { collisions: this.collisions }),
        engine: this.engine,
      },
      ...(this.stoppedBy === undefined ? {} : { stoppedBy: this.stoppedBy }),
    };
  }
}

/**
 * A level of a breadth-first search: its states (stored and checked), their observers' values and
 * their ids, and the bytes held for them on the memory guard.
 */
export interface Frontier<S> {
  readonly states: readonly S[];
  readonly observed: readonly (readonly unknown[])[];
  readonly ids: readonly number[];
  readonly bytes: number;
}

/** Bytes of a queued state's entries in the queue's arrays (state, observers' values, id, bytes). */
const QUEUE_ENTRY_BYTES = 32;
/** Bytes of an exact encoding's entry in the map that detects collisions, beside the text's own. */
const EXACT_ENTRY_BYTES = 64;

/** The generic search: object states, BigInt fingerprints, breadth- or depth-first. */
export class Search<S> extends SearchBase<S, Fingerprint> {
  protected readonly engine: SearchStats['engine'] = 'generic';
  protected readonly observers: readonly Observer<S, unknown>[];
  /** The visited set, for the id a step's state was stored under. */
  private readonly table: FingerprintTable;
  /** Exact encodings by fingerprint, when collisions are looked for. */
  private readonly exact: Map<Fingerprint, string> | undefined;
  /** What is fingerprinted of a state: its view of its canonical form (chosen once, up front). */
  private readonly key: (state: S) => unknown;
  /** Sees each stored state and generated step (CheckOptions.visitor). */
  private readonly visitor: SearchVisitor<S> | undefined;
  /** Whether {@link onStep} sees each step (with a visitor, or in a search that watches steps). */
  protected watchesSteps: boolean;
  /** The id the last `store` found its state under (new, or stored before when steps are watched), or -1. */
  private storedAs = -1;
  /** What a queued state costs in memory (held on the guard while it waits to be expanded). */
  private readonly stateBytes = new StateBytes();
  /**
   * The state being expanded and its observers' values: what its successors are charged beside
   * ({@link charge}); undefined while the initial states are stored, which are charged whole,
   * once for what they share (`rootsSeen`).
   */
  private parentState: S | undefined;
  private parentObserved: readonly unknown[] = NO_OBSERVERS;
  private rootsSeen: Set<object> | undefined;

  /** `props`: the properties checked, when not those `options` select from the model's. */
  constructor(model: Model<S>, options: CheckOptions, props?: PropertySet<S>) {
    const table = new FingerprintTable();
    super(model, options, table, props);
    this.table = table;
    this.observers = this.props.observers;
    this.exact = options.detectCollisions ? new Map() : undefined;
    if (this.exact !== undefined) this.collisions = 0;
    this.key = keyFunction(model, this.symmetry);
    this.visitor = options.visitor as SearchVisitor<S> | undefined;
    this.watchesSteps = this.visitor !== undefined;
  }

  run(): CheckResult<S> {
    const roots = eachInitialState(this.model);
    if ((this.options.strategy ?? 'bfs') === 'dfs') this.dfs(roots);
    else this.bfs(roots);
    return this.result();
  }

  protected fingerprintOf(state: S, observed: readonly unknown[]): Fingerprint {
    const key = this.key(state);
    const fp = fingerprintWithObservers(key, this.observers, observed);
    if (this.exact !== undefined) {
      const text = exactEncoding(key) + observedText(this.observers, observed);
      const prior = this.exact.get(fp);
      if (prior === undefined) {
        this.exact.set(fp, text);
        this.hold(EXACT_ENTRY_BYTES + text.length, true);
      }
      else if (prior !== text) (this.collisions as number)++;
    }
    return fp;
  }

  /** Sees a generated step out of state `from`: `to` is the id its state is stored under, or -1 past a bound. */
  protected onStep(from: number, ordinal: number, label: ActionLabel, after: S, to: number, before: S): void {
    this.visitor?.step(from, label, after, to, before);
  }

  /** Shows a newly stored state to the visitor and checks the state properties on it. */
  protected onNewState(state: S, observed: readonly unknown[], id: number): void {
    this.visitor?.state(state, id, this.states.parents.at(id) === -1);
    this.checkState(state, observed, id);
  }

  /** Stores a state if its fingerprint is new (see {@link admit}); returns its id, else a negative answer of `StateStore.store`. */
  protected store(state: S, observed: readonly unknown[], parent: number, ordinal: number, atDepthLimit: boolean): number {
    const fp = this.fingerprintOf(state, observed);
    const id = this.admit(fp, parent, ordinal, atDepthLimit);
    this.storedAs = id >= 0 ? id : id === SEEN && this.watchesSteps ? this.table.get(fp) : -1;
    if (id >= 0) this.onNewState(state, observed, id);
    return id;
  }

  /** Stores the initial states in order, taking each only when the search goes on (none past a bound). */
  protected storeRoots(roots: Iterable<S>, push: (s: S, o: readonly unknown[], id: number) => void): void {
    if (this.halted) return;
    this.parentState = undefined;
    this.rootsSeen = new Set();
    let i = 0;
    for (const s of roots) {
      this.generated++;
      const observed = this.observers.length ? this.observers.map((ob) => ob.initial(s)) : NO_OBSERVERS;
      const id = this.store(s, observed, -1, i++, false);
      if (id >= 0) push(s, observed, id);
      if (this.halted) break;
    }
    this.rootsSeen = undefined;
  }

  /**
   * Generates the successors of one state; `push` receives the new ones. At the depth limit the
   * successors are only looked up, so the search knows whether anything lies beyond.
   */
  private expand(state: S, observed: readonly unknown[], id: number, atDepthLimit: boolean, push: (s: S, o: readonly unknown[], id: number) => void): void {
    const actionProperties = this.props.actions;
    const hasStepWatchers = actionProperties.length > 0 || this.observers.length > 0;
    this.parentState = state;
    this.parentObserved = observed;
    const produced = forEachSuccessor(this.model, state, (next, ordinal, def, param) => {
      this.generated++;
      let nextObserved = NO_OBSERVERS;
      const label = hasStepWatchers || this.watchesSteps ? labelOf(def, param) : undefined;
      if (label !== undefined) {
        for (const ap of actionProperties) if (!this.found.has(ap.id) && !ap.holds(state, label, next)) this.decide(ap.id, { id, ordinal });
        if (this.observers.length) nextObserved = stepObservers(this.observers, observed, state, label, next);
      }
      // A step that returns its own state (immer does when a recipe changes nothing) is a
      // self-loop: counted as generated, never hashed again.
      const selfLoop = next === state && nextObserved === observed;
      const nextId = selfLoop ? SEEN : this.store(next, nextObserved, id, ordinal, atDepthLimit);
      if (this.watchesSteps) this.onStep(id, ordinal, label as ActionLabel, next, selfLoop ? id : this.storedAs, state);
      if (nextId >= 0) push(next, nextObserved, nextId);
      return this.halted;
    });
    if (produced === 0 && this.props.checkDeadlock && !this.found.has('deadlock')) this.decide('deadlock', { id, ordinal: -1 });
  }

  /**
   * Holds what a state about to be queued costs on the memory guard (what it and its observers'
   * values do not share with the state expanded, estimated by `StateBytes.estimate`, and its
   * queue entry), stopping the search when that reaches the bound; returns the bytes, released
   * when it is expanded.
   */
  private charge(state: S, observed: readonly unknown[]): number {
    const sizes = this.stateBytes;
    const parent = this.parentState;
    let bytes = QUEUE_ENTRY_BYTES;
    if (parent === undefined) bytes += sizes.added(state, undefined, this.rootsSeen) + sizes.added(observed, undefined, this.rootsSeen);
    else bytes += sizes.estimate(state, parent, this.budget.memory) + (observed === this.parentObserved ? 0 : sizes.added(observed, this.parentObserved));
    this.hold(bytes, true);
    return bytes;
  }

  /**
   * Breadth-first search from `roots`, level by level. With `handOff`, it stops before expanding
   * the first level `handOff` accepts (by its number of states and the bytes held for them) and
   * returns that level, stored and checked, for another search to go on from (the parallel search
   * hands wide levels to workers); otherwise, or when the search ends first, it returns undefined.
   */
  protected bfs(roots: Iterable<S>, handOff?: (levelSize: number, levelBytes: number) => boolean): Frontier<S> | undefined {
    let states: S[] = [];
    let observed: (readonly unknown[])[] = [];
    let ids: number[] = [];
    let sizes: number[] = [];
    const push = (s: S, o: readonly unknown[], id: number): void => {
      states.push(s);
      observed.push(o);
      ids.push(id);
      sizes.push(this.charge(s, o));
    };
    this.storeRoots(roots, push);
    const maxDepth = this.options.maxDepth ?? Infinity;
    while (states.length > 0 && !this.halted) {
      if (handOff !== undefined) {
        const bytes = sizes.reduce((a, b) => a + b, 0);
        if (handOff(states.length, bytes)) return { states, observed, ids, bytes };
      }
      this.depth++;
      const level = states;
      const levelObserved = observed;
      const levelIds = ids;
      const levelSizes = sizes;
      states = [];
      observed = [];
      ids = [];
      sizes = [];
      const atDepthLimit = this.depth >= maxDepth;
      const memory = this.budget.memory;
      for (let i = 0; i < level.length && !this.halted; i++) {
        this.tick(level.length - i + states.length);
        this.expand(level[i], levelObserved[i], levelIds[i], atDepthLimit, push);
        // An expanded state is let go now rather than with its level (what its successors share
        // with it stays), and its bytes are no longer held.
        level[i] = undefined as S;
        levelObserved[i] = NO_OBSERVERS;
        memory.release(levelSizes[i]);
      }
    }
    return undefined;
  }

  private dfs(roots: Iterable<S>): void {
    const states: S[] = [];
    const observed: (readonly unknown[])[] = [];
    const ids: number[] = [];
    const depths: number[] = [];
    const sizes: number[] = [];
    let current = 1;
    const push = (s: S, o: readonly unknown[], id: number): void => {
      states.push(s);
      observed.push(o);
      ids.push(id);
      depths.push(current);
      sizes.push(this.charge(s, o));
    };
    this.storeRoots(roots, push);
    const maxDepth = this.options.maxDepth ?? Infinity;
    while (states.length > 0 && !this.halted) {
      const s = states.pop() as S;
      const o = observed.pop() as readonly unknown[];
      const id = ids.pop() as number;
      const d = depths.pop() as number;
      this.budget.memory.release(sizes.pop() as number);
      if (d > this.depth) this.depth = d;
      current = d + 1;
      this.tick(states.length);
      this.expand(s, o, id, d >= maxDepth, push);
    }
  }
}

/**
 * The breadth-first search behind `fewestFaults` (fewerFaults.ts): to a counterexample's length,
 * keeping for each state the path with the fewest fault steps among its shortest ones (ties: the
 * first found), and the violation of `property` at that length with the fewest.
 */
export class FewestFaultsSearch<S> extends Search<S> {
  /** Fault steps on each state's kept path; -1 until the step that found it is seen. */
  private readonly faults: number[] = [];
  /** Each state's level: its steps from an initial state. */
  private readonly levels: number[] = [];
  /** States of the last level that violate the property (an invariant or observer), by id. */
  private readonly violating: number[] = [];
  private best: { readonly at: Discovery; readonly faults: number } | undefined;

  constructor(
    model: Model<S>,
    private readonly property: Property<S>,
    private readonly length: number,
    private readonly isFault: (before: S, action: ActionLabel, after: S) => boolean,
    symmetry: boolean,
    bounds: FewestFaultsBounds = {},
  ) {
    const checked = property.kind === 'action' ? [] : [property];
    super(model, { ...bounds, symmetry, maxDepth: length + 1, maxStates: FEWER_FAULTS_STATE_CAP }, new PropertySet(model, [], checked));
    this.watchesSteps = true;
  }

  /** The path to the violation with the fewest faults and their number; none past the states cap, the time left or memory. */
  fewest(): { readonly path: Path; readonly faults: number } | undefined {
    this.run();
    if (this.stoppedBy !== undefined && this.stoppedBy.bound !== 'depth') return undefined;
    for (const id of this.violating) this.consider({ id, ordinal: -1 }, this.faults[id]);
    return this.best && { path: this.states.pathTo(this.best.at), faults: this.best.faults };
  }

  /** The search halts at the first state past the counterexample's length, or at the time left or the memory bound. */
  protected override tick(queued: number): void {
    if (this.depth > this.length) this.halted = true;
    else super.tick(queued);
  }

  protected override onNewState(state: S, observed: readonly unknown[], id: number): void {
    this.faults[id] = this.depth === 0 ? 0 : -1;
    this.levels[id] = this.depth;
    if (this.depth === this.length && this.props.decidedOn(state, observed) >= 0) this.violating.push(id);
  }

  protected override onStep(from: number, ordinal: number, label: ActionLabel, after: S, to: number, before: S): void {
    if (this.depth > this.length) return;
    const faults = this.faults[from] + (this.isFault(before, label, after) ? 1 : 0);
    const p = this.property;
    if (p.kind === 'action' && this.depth === this.length && !p.holds(before, label, after)) this.consider({ id: from, ordinal }, faults);
    if (to < 0) return;
    if (this.faults[to] === -1) this.faults[to] = faults;
    else if (this.levels[to] === this.depth && faults < this.faults[to]) {
      this.faults[to] = faults;
      this.states.relink(to, { id: from, ordinal });
    }
  }

  private consider(at: Discovery, faults: number): void {
    if (this.best === undefined || faults < this.best.faults) this.best = { at, faults };
  }
}

