/**
 * What every search shares: what a state is stored as (its key and fingerprint), the checked
 * properties split by kind once (deadlock included) with the one check of state properties, the
 * budget (time, memory, states) with the progress it reports, and the stored states (visited set
 * and parent links) with the one bounded-store step. `forEachSuccessor` (`successors.ts`) is the
 * one enumeration of a state's candidates.
 */
import { encode, fingerprint, hashBytesSeeded, hashString, type Fingerprint } from './fingerprint.js';
import type { VisitedSet } from './fingerprintTable.js';
import { GrowableInt32Array } from './growableArray.js';
import type { ActionLabel, Model } from './model.js';
import { MemoryGuard, memoryBound } from './memory.js';
import type { CheckOptions } from './options.js';
import type { ActionProperty, Invariant, Observer, Property, Reachability } from './properties.js';
import { checkedProperties, type BoundReached, type CheckedProperty, type Path } from './result.js';
import { selectProperties } from './validateModel.js';

/** The observers' states of a state that has none to watch (shared, never written). */
export const NO_OBSERVERS: readonly unknown[] = Object.freeze([]);

/**
 * The function from a state to what is fingerprinted: view ∘ canonicalize, each when present
 * (the model's `canonicalView` when it gives one, under symmetry; without symmetry its
 * `plainView`, or its `canonicalView` when it has no canonicalize).
 */
export function keyFunction<S>(model: Model<S>, symmetry: boolean): (state: S) => unknown {
  const canonical = symmetry && model.canonicalize !== undefined;
  if (canonical && model.canonicalView) return (s) => (model.canonicalView as (s: S) => unknown)(s);
  if (!canonical && model.plainView) return (s) => (model.plainView as (s: S) => unknown)(s);
  // A model without canonicalize may still give canonicalView: its view in a faster form.
  if (!canonical && model.canonicalView && model.canonicalize === undefined) return (s) => (model.canonicalView as (s: S) => unknown)(s);
  const canonicalize = symmetry && model.canonicalize ? (s: S): S => (model.canonicalize as (s: S) => S)(s) : undefined;
  const view = model.view ? (s: S): unknown => (model.view as (s: S) => unknown)(s) : undefined;
  if (canonicalize && view) return (s) => view(canonicalize(s));
  return canonicalize ?? view ?? ((s: S): unknown => s);
}

/** The observers' states as text, each after a separator: what is appended to a key's encoding. */
export function observedText<S>(observers: readonly Observer<S, unknown>[], observed: readonly unknown[]): string {
  let text = '';
  for (let i = 0; i < observers.length; i++) {
    const ob = observers[i];
    text += '\u0001' + (ob.encode ? ob.encode(observed[i]) : encode(observed[i]));
  }
  return text;
}

/**
 * The last observers' states seen by `fingerprintWithObservers` (their values, copied: a caller
 * may reuse its array, as random runs do) and their text's hash.
 */
const seedOf: { observers: readonly unknown[] | undefined; values: unknown[]; seed: bigint } = { observers: undefined, values: [], seed: 0n };

/** Whether `observed` holds the values the seed was computed for. */
function sameSeed(observers: readonly unknown[], observed: readonly unknown[]): boolean {
  if (observers !== seedOf.observers) return false;
  const values = seedOf.values;
  for (let i = 0; i < observed.length; i++) if (!Object.is(observed[i], values[i])) return false;
  return true;
}

/**
 * The fingerprint of a state with its observers' states, as every search computes it: the key
 * alone when there are no observers. A numeric key is hashed seeded with the hash of the
 * observers' text, which most successors share with their parent (computed once for them).
 */
export function fingerprintWithObservers<S>(key: unknown, observers: readonly Observer<S, unknown>[], observed: readonly unknown[]): Fingerprint {
  if (observers.length === 0) return fingerprint(key);
  if (ArrayBuffer.isView(key)) {
    if (sameSeed(observers, observed)) return hashBytesSeeded(key, seedOf.seed);
    // The key may be a view of a buffer an observer's encoder could write again: kept first.
    const bytes = new Uint8Array(key.buffer, key.byteOffset, key.byteLength).slice();
    seedOf.observers = observers;
    seedOf.values = observed.slice();
    seedOf.seed = hashString(observedText(observers, observed));
    return hashBytesSeeded(bytes, seedOf.seed);
  }
  return hashString(encode(key) + observedText(observers, observed));
}

/** A property decided on a stored state rather than on a step. */
export type StateProperty<S> = Invariant<S> | Reachability<S> | Observer<S, unknown>;

/** The properties a search checks, split by kind; `deadlock` when the model asks and it was selected. */
export class PropertySet<S> {
  readonly selected: readonly Property<S>[];
  readonly actions: readonly ActionProperty<S>[];
  readonly observers: readonly Observer<S, unknown>[];
  /** Invariants, goals and observers, in the model's order (the parallel search reports them so). */
  readonly stateProperties: readonly StateProperty<S>[];
  readonly stateIds: readonly string[];
  readonly checkDeadlock: boolean;
  private readonly goalIds: ReadonlySet<string>;
  /** Per state property: its index among the observers (where its observed state is), or -1. */
  private readonly observerAt: readonly number[];

  /**
   * `ids` as `CheckOptions.properties`: every property of the model when absent. `selected`: the
   * properties themselves, when they are given rather than picked from the model's by `ids`.
   */
  constructor(model: Model<S>, ids: readonly string[] | undefined, selected: readonly Property<S>[] = selectProperties(model, ids)) {
    this.selected = selected;
    this.actions = this.selected.filter((p): p is ActionProperty<S> => p.kind === 'action');
    this.observers = this.selected.filter((p): p is Observer<S, unknown> => p.kind === 'observer');
    this.stateProperties = this.selected.filter((p): p is StateProperty<S> => p.kind !== 'action');
    this.stateIds = this.stateProperties.map((p) => p.id);
    this.checkDeadlock = model.checkDeadlock === true && (ids === undefined || ids.includes('deadlock'));
    this.goalIds = new Set(this.selected.flatMap((p) => (p.kind === 'reachable' ? [p.id] : [])));
    let observer = 0;
    this.observerAt = this.stateProperties.map((p) => (p.kind === 'observer' ? observer++ : -1));
  }

  /**
   * The index in {@link stateProperties} of the first one, from `from` on and not in `decided`,
   * that `state` decides (an invariant or observer violated, a goal reached), or -1. `observed`
   * holds the observers' states in the order of {@link observers}.
   */
  decidedOn(state: S, observed: readonly unknown[], from = 0, decided?: Pick<ReadonlySet<string>, 'has'>): number {
    const list = this.stateProperties;
    for (let j = from; j < list.length; j++) {
      const p = list[j];
      if (decided !== undefined && decided.has(p.id)) continue;
      if (p.kind === 'invariant' ? !p.holds(state) : p.kind === 'reachable' ? p.reached(state) : !p.holds(observed[this.observerAt[j]], state)) return j;
    }
    return -1;
  }

  /** How many verdicts the search owes: every selected property, and deadlock. */
  get count(): number {
    return this.selected.length + (this.checkDeadlock ? 1 : 0);
  }

  /** Whether deciding `id` is a witness (a goal reached) rather than a violation. */
  isGoal(id: string): boolean {
    return this.goalIds.has(id);
  }

  /** The outcomes' rows: the selected properties, then deadlock. */
  checked(): CheckedProperty[] {
    return checkedProperties(this.selected, this.checkDeadlock);
  }
}

/**
 * A search's budget: the wall clock, the memory bound and the states bound, with the progress
 * reports. `expansion` is called once per expanded state and looks at the clock and memory only
 * now and then: the clock on every expansion under a time limit (steps may be slow), else every
 * 64th, when memory is looked at too; a memory bound found reached by the bytes the search holds
 * (`MemoryGuard.hold`) stops it at the next expansion. `started` is when the search began
 * (`performance.now()` of this thread: a worker's budget is given the main thread's start).
 */
export class Budget {
  readonly maxStates: number;
  readonly memory: MemoryGuard;
  private readonly memoryReportMiB: number;
  private readonly timeLimitSeconds: number | undefined;
  private lastProgress: number;
  private expansions = 0;

  constructor(
    private readonly options: CheckOptions,
    readonly started: number = performance.now(),
  ) {
    this.maxStates = options.maxStates ?? Infinity;
    this.timeLimitSeconds = options.timeLimitSeconds;
    this.lastProgress = started;
    const bound = memoryBound(options);
    this.memory = new MemoryGuard(bound.bytes);
    this.memoryReportMiB = bound.reportMiB;
  }

  /**
   * The bound that stops the search at this expansion, if one does; reports progress when due.
   * Counts are passed as numbers: this runs once per expanded state, so it allocates nothing.
   */
  expansion(queued: number, distinctStates: number, generatedStates: number, depth: number): BoundReached | undefined {
    if (this.memory.tripped) return this.memoryStop();
    if ((++this.expansions & 63) !== 0 && this.timeLimitSeconds === undefined) return undefined;
    const now = performance.now();
    let stop: BoundReached | undefined;
    if (this.outOfTime(now)) stop = { bound: 'time', limit: this.timeLimitSeconds as number };
    if (stop === undefined && (this.expansions & 63) === 0) stop = this.overMemory();
    this.progress(now, queued, distinctStates, generatedStates, depth);
    return stop;
  }

  /** Whether the time limit, if any, has passed. */
  outOfTime(now: number = performance.now()): boolean {
    return this.timeLimitSeconds !== undefined && now - this.started > this.timeLimitSeconds * 1000;
  }

  /** Reports what the search has done if the interval has passed since the last report. */
  progress(now: number, queued: number, distinctStates: number, generatedStates: number, depth: number): void {
    const { onProgress } = this.options;
    if (!onProgress || now - this.lastProgress < (this.options.progressIntervalMs ?? 500)) return;
    this.lastProgress = now;
    onProgress({ distinctStates, generatedStates, depth, queued, seconds: (now - this.started) / 1000 });
  }

  /** The memory stop when memory is exceeded now: the bound given, or this thread's V8 heap limit when that came first. */
  overMemory(): BoundReached | undefined {
    return this.memory.exceeded() ? this.memoryStop() : undefined;
  }

  /**
   * The memory stop once the guard has tripped: the bound given, or this thread's V8 heap limit
   * (its old generation's, in MiB) when that came first.
   */
  memoryStop(): BoundReached {
    return { bound: 'memory', limit: this.memory.reason === 'heap' ? Math.round(this.memory.heapLimit / 1048576) : this.memoryReportMiB };
  }

  /** Seconds since the search began. */
  seconds(): number {
    return (performance.now() - this.started) / 1000;
  }
}

/** Where a property was decided: the state `id`, and the step `ordinal` out of it (or -1). */
export interface Discovery {
  readonly id: number;
  readonly ordinal: number;
}

/** {@link StateStore.store}'s answer for a state stored before. */
export const SEEN = -1;
/** {@link StateStore.store}'s answer for an unseen state at the depth limit. */
export const BEYOND_DEPTH = -2;
/** {@link StateStore.store}'s answer for an unseen state once the states bound is reached. */
export const BEYOND_STATES = -3;
/** {@link StateStore.store}'s answer for an unseen state whose storing would grow the arrays past the memory bound. */
export const BEYOND_MEMORY = -4;

/**
 * The states a search stored: their fingerprints in a visited set and, per state (ids count up
 * from 0 in discovery order), its parent link: the parent's id and the candidate ordinal of the
 * step from it (for a root, -1 and its index among the initial states). Traces are rebuilt from
 * the links by replay, as TLC does. With a memory guard, the arrays' bytes are held on it, and
 * an array is grown only when the guard says the new one fits beside the old.
 */
export class StateStore<K> {
  readonly parents = new GrowableInt32Array();
  readonly ordinals = new GrowableInt32Array();
  /** Links given again after the state was stored ({@link relink}). */
  private relinked: Map<number, Discovery> | undefined;
  /** The bytes held on the guard. */
  private accounted = 0;
  /** New states that can be stored before an array grows (0: the next store looks). */
  private untilGrowth = 0;

  constructor(
    readonly visited: VisitedSet<K>,
    private readonly maxStates: number,
    private readonly memory?: MemoryGuard,
  ) {
    this.account();
  }

  get size(): number {
    return this.visited.size;
  }

  /** Bytes held by the visited set and the links. */
  get bytes(): number {
    return this.visited.bytes + this.parents.bytes + this.ordinals.bytes;
  }

  /**
   * The bounded store step: stores `fp` with its parent link and returns its id, or {@link SEEN}.
   * At the depth limit or the states bound `fp` is only looked up: {@link SEEN}, or the bound an
   * unseen state lies beyond ({@link BEYOND_DEPTH}, {@link BEYOND_STATES}); an unseen state that
   * would grow an array past the memory bound is {@link BEYOND_MEMORY}.
   */
  store(fp: K, parent: number, ordinal: number, atDepthLimit: boolean): number {
    const visited = this.visited;
    if (atDepthLimit || visited.size >= this.maxStates) return visited.has(fp) ? SEEN : atDepthLimit ? BEYOND_DEPTH : BEYOND_STATES;
    if (this.untilGrowth === 0) return this.storeGrowing(fp, parent, ordinal);
    if (!visited.add(fp)) return SEEN;
    this.parents.push(parent);
    this.ordinals.push(ordinal);
    this.untilGrowth--;
    return visited.size - 1;
  }

  /** {@link store} when an array may grow: only if the guard says the new one fits beside the old. */
  private storeGrowing(fp: K, parent: number, ordinal: number): number {
    const visited = this.visited;
    const growth = visited.growthBytes + this.parents.growthBytes + this.ordinals.growthBytes;
    if (growth > 0 && this.memory !== undefined && !this.memory.fits(growth, false)) return visited.has(fp) ? SEEN : BEYOND_MEMORY;
    const added = visited.add(fp);
    if (added) {
      this.parents.push(parent);
      this.ordinals.push(ordinal);
    }
    this.account();
    this.untilGrowth = Math.min(visited.room, this.parents.room, this.ordinals.room);
    return added ? visited.size - 1 : SEEN;
  }

  /** Holds the arrays' bytes on the guard (their growth since the last time). */
  private account(): void {
    if (this.memory === undefined) return;
    const bytes = this.bytes;
    if (bytes > this.accounted) this.memory.hold(bytes - this.accounted, false);
    this.accounted = bytes;
  }

  /** Gives state `id` the parent link `link` in place of the one it was stored with. */
  relink(id: number, link: Discovery): void {
    (this.relinked ??= new Map()).set(id, link);
  }

  /** The BFS level of state `id`: 1 for an initial state, its parent's plus one otherwise. */
  levelOf(id: number): number {
    let level = 1;
    for (let p = this.linkOf(id).id; p !== -1; p = this.linkOf(p).id) level++;
    return level;
  }

  /** The path from an initial state to a discovery. */
  pathTo(at: Discovery): Path {
    const steps: number[] = [];
    let link = this.linkOf(at.id);
    for (; link.id !== -1; link = this.linkOf(link.id)) steps.push(link.ordinal);
    steps.reverse();
    if (at.ordinal >= 0) steps.push(at.ordinal);
    return { initial: link.ordinal, steps };
  }

  private linkOf(id: number): Discovery {
    return this.relinked?.get(id) ?? { id: this.parents.at(id), ordinal: this.ordinals.at(id) };
  }
}

/**
 * The observers' states after a step: `observed` itself when none changed (most steps), so the
 * successors of a state and their own successors share one array, and what is derived from it
 * (the fingerprint's seed, `fingerprintWithObservers`) is computed once for them.
 */
export function stepObservers<S>(observers: readonly Observer<S, unknown>[], observed: readonly unknown[], state: S, label: ActionLabel, next: S): readonly unknown[] {
  let out: unknown[] | undefined;
  for (let i = 0; i < observers.length; i++) {
    const v = observers[i].step(observed[i], state, label, next);
    if (out === undefined && Object.is(v, observed[i])) continue;
    out ??= observed.slice(0, i);
    out.push(v);
  }
  return out ?? observed;
}
