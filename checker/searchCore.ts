/**
 * Explicit-state search on one thread: breadth-first (shortest counterexamples) or depth-first, over
 * fingerprints. States of the frontier are kept; visited states are kept only as fingerprints with
 * parent links (parent id, candidate ordinal) in typed arrays, and traces are rebuilt by replaying
 * from the initial state, as TLC does.
 */
import { exactEncoding, type Fingerprint } from './fingerprint.js';
import { FingerprintTable } from './fingerprintTable.js';
import { GrowableInt32Array } from './growableArray.js';
import type { ActionLabel, Model } from './model.js';
import { Budget, fingerprintWithObservers, keyFunction, NO_OBSERVERS, observedText, PropertySet } from './kernel.js';
import type { CheckOptions, SearchVisitor } from './options.js';
import type { Observer } from './properties.js';
import { outcomeOf, type BoundReached, type CheckResult, type Path, type PropertyStatus, type Trace, type Verdict } from './result.js';
import { forEachSuccessor, labelOf } from './successors.js';
import { fewestFaults } from './fewerFaults.js';
import { replayPath } from './trace.js';
import { initialStatesOf } from './validateModel.js';

/** Where a property was decided: the state `id`, and the step `ordinal` out of it (or -1). */
export interface Discovery {
  readonly id: number;
  readonly ordinal: number;
}

/**
 * The sequential search, and the bookkeeping (visited table, parent links, decided properties,
 * bounds, result) that the parallel search reuses.
 */
export class Search<S> {
  /** The checked properties, split by kind. */
  protected readonly props: PropertySet<S>;
  protected readonly observers: readonly Observer<S, unknown>[];
  protected readonly found = new Map<string, Discovery>();
  protected pending: number;

  protected readonly table = new FingerprintTable();
  protected readonly parents = new GrowableInt32Array();
  protected readonly ordinals = new GrowableInt32Array();
  private readonly exact: Map<Fingerprint, string> | undefined;
  private collisions = 0;

  protected readonly symmetry: boolean;
  /** Time, memory and states bounds, and progress. */
  protected readonly budget: Budget;

  protected generated = 0;
  protected depth = 0;
  protected stoppedBy: BoundReached | undefined;
  protected halted = false;
  /** Distinct states when a parallel search stopped mid-level (the table may hold a few more). */
  protected distinctOverride: number | undefined;

  constructor(
    protected readonly model: Model<S>,
    protected readonly options: CheckOptions,
  ) {
    this.props = new PropertySet(model, options.properties);
    this.observers = this.props.observers;
    this.pending = this.props.count;
    this.exact = options.detectCollisions ? new Map() : undefined;
    this.symmetry = (options.symmetry ?? true) && model.canonicalize !== undefined;
    this.key = keyFunction(model, this.symmetry);
    this.visitor = options.visitor as SearchVisitor<S> | undefined;
    this.budget = new Budget(options);
  }

  run(): CheckResult<S> {
    const roots = initialStatesOf(this.model);
    if ((this.options.strategy ?? 'bfs') === 'dfs') this.dfs(roots);
    else this.bfs(roots);
    return this.result();
  }

  // ---- fingerprints -------------------------------------------------------------------------

  /** What is fingerprinted of a state: its view of its canonical form (chosen once, up front). */
  private readonly key: (state: S) => unknown;

  /** Sees each stored state and generated step (CheckOptions.visitor). */
  private readonly visitor: SearchVisitor<S> | undefined;

  /** The id the last `store` found its state under (new or already stored), or -1. */
  private storedAs = -1;

  protected fingerprintOf(state: S, observed: readonly unknown[]): Fingerprint {
    const key = this.key(state);
    const fp = fingerprintWithObservers(key, this.observers, observed);
    if (this.exact !== undefined) {
      const text = exactEncoding(key) + observedText(this.observers, observed);
      const prior = this.exact.get(fp);
      if (prior === undefined) this.exact.set(fp, text);
      else if (prior !== text) this.collisions++;
    }
    return fp;
  }

  // ---- properties ---------------------------------------------------------------------------

  protected decide(id: string, at: Discovery): void {
    if (this.found.has(id)) return;
    this.found.set(id, at);
    this.pending--;
    const isViolation = !this.props.isGoal(id);
    if (this.pending === 0 || (isViolation && this.options.stopAtFirstViolation)) this.halted = true;
  }

  /** Decides the state properties that the state stored as `id` violates or reaches. */
  protected checkState(state: S, observed: readonly unknown[], id: number): void {
    const props = this.props;
    for (let j = props.decidedOn(state, observed, 0, this.found); j >= 0; j = props.decidedOn(state, observed, j + 1, this.found)) this.decide(props.stateIds[j], { id, ordinal: -1 });
  }

  /** Shows a newly stored state to the visitor and checks the state properties on it. */
  protected onNewState(state: S, observed: readonly unknown[], id: number): void {
    this.visitor?.state(state, id, this.parents.at(id) === -1);
    this.checkState(state, observed, id);
  }

  private stepObservers(observed: readonly unknown[], before: S, label: ActionLabel, after: S): readonly unknown[] {
    const next = new Array<unknown>(this.observers.length);
    for (let i = 0; i < this.observers.length; i++) next[i] = this.observers[i].step(observed[i], before, label, after);
    return next;
  }

  // ---- bounds -------------------------------------------------------------------------------

  protected stop(bound: BoundReached['bound'], limit: number): void {
    this.stoppedBy ??= { bound, limit };
    this.halted = true;
  }

  /** Called once per expanded state: the budget's bounds and progress. */
  protected tick(queued: number, distinctStates: number = this.table.size): void {
    const stop = this.budget.expansion(queued, distinctStates, this.generated, this.depth);
    if (stop !== undefined) this.stop(stop.bound, stop.limit);
  }

  // ---- exploration --------------------------------------------------------------------------

  /**
   * Stores a state if its fingerprint is new; returns its id, or -1 if it was seen (or could not
   * be stored because of the state bound, which then stops the search).
   */
  protected store(state: S, observed: readonly unknown[], parent: number, ordinal: number, atDepthLimit: boolean): number {
    const fp = this.fingerprintOf(state, observed);
    const id = this.table.size;
    if (atDepthLimit || id >= this.budget.maxStates) {
      this.storedAs = this.table.get(fp);
      if (this.storedAs === -1) {
        // Something lies beyond the depth bound: the search goes on with the other states of
        // the last level (their edges are still checked) but can no longer say "ok".
        if (atDepthLimit) this.stoppedBy ??= { bound: 'depth', limit: this.options.maxDepth ?? 0 };
        else this.stop('states', this.budget.maxStates);
      }
      return -1;
    }
    const prior = this.table.insert(fp, id);
    this.storedAs = prior === -1 ? id : prior;
    if (prior !== -1) return -1;
    this.parents.push(parent);
    this.ordinals.push(ordinal);
    this.onNewState(state, observed, id);
    return id;
  }

  protected storeRoots(roots: readonly S[], push: (s: S, o: readonly unknown[], id: number) => void): void {
    for (let i = 0; i < roots.length && !this.halted; i++) {
      const s = roots[i];
      this.generated++;
      const observed = this.observers.length ? this.observers.map((ob) => ob.initial(s)) : NO_OBSERVERS;
      const id = this.store(s, observed, -1, i, false);
      if (id >= 0) push(s, observed, id);
    }
  }

  /**
   * Generates the successors of one state; `push` receives the new ones. At the depth limit the
   * successors are only looked up, so the search knows whether anything lies beyond.
   */
  private expand(state: S, observed: readonly unknown[], id: number, atDepthLimit: boolean, push: (s: S, o: readonly unknown[], id: number) => void): void {
    const actionProperties = this.props.actions;
    const hasStepWatchers = actionProperties.length > 0 || this.observers.length > 0;
    const visitor = this.visitor;
    const produced = forEachSuccessor(this.model, state, (next, ordinal, def, param) => {
      this.generated++;
      let nextObserved = NO_OBSERVERS;
      if (hasStepWatchers) {
        const label = labelOf(def, param);
        for (const ap of actionProperties) {
          if (!this.found.has(ap.id) && !ap.holds(state, label, next)) this.decide(ap.id, { id, ordinal });
        }
        if (this.observers.length) nextObserved = this.stepObservers(observed, state, label, next);
      }
      // A step that returns its own state (immer does when a recipe changes nothing) is a
      // self-loop: counted as generated, never hashed again.
      if (next === state && nextObserved === observed) {
        visitor?.step(id, labelOf(def, param), next, id, state);
        return this.halted;
      }
      const nextId = this.store(next, nextObserved, id, ordinal, atDepthLimit);
      visitor?.step(id, labelOf(def, param), next, this.storedAs, state);
      if (nextId >= 0) push(next, nextObserved, nextId);
      return this.halted;
    });
    if (produced === 0 && this.props.checkDeadlock && !this.found.has('deadlock')) this.decide('deadlock', { id, ordinal: -1 });
  }

  private bfs(roots: readonly S[]): void {
    let states: S[] = [];
    let observed: (readonly unknown[])[] = [];
    let ids: number[] = [];
    const push = (s: S, o: readonly unknown[], id: number): void => {
      states.push(s);
      observed.push(o);
      ids.push(id);
    };
    this.storeRoots(roots, push);
    const maxDepth = this.options.maxDepth ?? Infinity;
    while (states.length > 0 && !this.halted) {
      this.depth++;
      const level = states;
      const levelObserved = observed;
      const levelIds = ids;
      states = [];
      observed = [];
      ids = [];
      const atDepthLimit = this.depth >= maxDepth;
      for (let i = 0; i < level.length && !this.halted; i++) {
        this.tick(level.length - i + states.length);
        this.expand(level[i], levelObserved[i], levelIds[i], atDepthLimit, push);
      }
    }
  }

  private dfs(roots: readonly S[]): void {
    const states: S[] = [];
    const observed: (readonly unknown[])[] = [];
    const ids: number[] = [];
    const depths: number[] = [];
    let current = 1;
    const push = (s: S, o: readonly unknown[], id: number): void => {
      states.push(s);
      observed.push(o);
      ids.push(id);
      depths.push(current);
    };
    this.storeRoots(roots, push);
    const maxDepth = this.options.maxDepth ?? Infinity;
    while (states.length > 0 && !this.halted) {
      const s = states.pop() as S;
      const o = observed.pop() as readonly unknown[];
      const id = ids.pop() as number;
      const d = depths.pop() as number;
      if (d > this.depth) this.depth = d;
      current = d + 1;
      this.tick(states.length);
      this.expand(s, o, id, d >= maxDepth, push);
    }
  }

  // ---- results ------------------------------------------------------------------------------

  protected pathTo(at: Discovery): Path {
    const steps: number[] = [];
    let cur = at.id;
    while (this.parents.at(cur) !== -1) {
      steps.push(this.ordinals.at(cur));
      cur = this.parents.at(cur);
    }
    steps.reverse();
    if (at.ordinal >= 0) steps.push(at.ordinal);
    return { initial: this.ordinals.at(cur), steps };
  }

  /**
   * The trace to a discovery; a breadth-first counterexample is the shortest one with the fewest
   * fault steps (see fewerFaults.ts), the same whatever order the states were met in.
   */
  private traceTo(id: string, status: PropertyStatus, at: Discovery): Trace<S> {
    const trace = replayPath(this.model, this.pathTo(at));
    const property = this.props.selected.find((p) => p.id === id);
    if (status !== 'violated' || property === undefined || (this.options.strategy ?? 'bfs') !== 'bfs') return trace;
    return fewestFaults(this.model, property, trace, this.symmetry);
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
    const distinct = this.distinctOverride ?? this.table.size;
    return {
      model: this.model.name,
      strategy: this.options.strategy ?? 'bfs',
      verdict,
      properties: outcomes,
      stats: {
        distinctStates: distinct,
        generatedStates: this.generated,
        depth: this.depth,
        seconds,
        statesPerSecond: seconds > 0 ? distinct / seconds : 0,
        peakMemoryMB: this.budget.memory.peakRss / 1048576,
        bytesPerState: distinct ? (this.table.bytes + this.parents.bytes + this.ordinals.bytes) / distinct : 0,
        ...(this.exact === undefined ? {} : { collisions: this.collisions }),
        engine: 'generic',
      },
      ...(this.stoppedBy === undefined ? {} : { stoppedBy: this.stoppedBy }),
    };
  }
}
