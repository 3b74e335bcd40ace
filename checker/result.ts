/** Results are data: the checker returns them, reports format them, nothing throws a violation. */
import type { LivenessKind } from './liveness.js';
import type { ActionLabel } from './model.js';
import type { PropertyKind } from './properties.js';

/** The candidate ordinals that rebuild a trace by replay from the model's initial states. */
export interface Path {
  /** Index into `model.initialStates()`. */
  readonly initial: number;
  /** One candidate ordinal per step (see `successors.ts`). */
  readonly steps: readonly number[];
}

/** A behaviour: `states[0]` is initial and `actions[i]` leads from `states[i]` to `states[i+1]`. */
export interface Trace<S> {
  readonly states: readonly S[];
  readonly actions: readonly ActionLabel[];
  readonly path: Path;
}

/**
 * A property's outcome. `holds`: no violation on the explored space (with verdict `ok`, on the
 * whole space; a liveness property: on the whole graph under fairness). `violated`: a
 * counterexample is attached (a liveness property: a lasso). `witnessed`: a reachability goal with
 * its witness. `unwitnessed`: a goal not reached on the whole space. `unknown`: the search was
 * stopped by a bound before the property was decided.
 */
export type PropertyStatus = 'holds' | 'violated' | 'witnessed' | 'unwitnessed' | 'unknown';

export interface PropertyOutcome<S> {
  readonly id: string;
  readonly kind: PropertyKind;
  readonly description: string;
  readonly source?: string;
  readonly status: PropertyStatus;
  /** Shortest counterexample (violated) or witness (witnessed) under BFS. */
  readonly trace?: Trace<S>;
  /** A violated liveness property's counterexample: a behaviour that never gets there. */
  readonly lasso?: Lasso<S>;
  /** Why a property is `unknown` when it is not a bound of the search (a liveness graph too large to keep). */
  readonly reason?: string;
  /**
   * A decided `leads-to` property's: whether its premise (the left side, P of `P leads-to Q`) holds
   * in some state of the explored graph. False on a `holds`: it holds only vacuously, since nothing
   * ever triggers it. Absent for every other kind.
   */
  readonly premiseReached?: boolean;
}

/** `ok`: every property holds on the whole space and every goal is witnessed. */
export type Verdict = 'ok' | 'violation' | 'incomplete';

/** Which bound stopped a search. */
export interface BoundReached {
  readonly bound: 'depth' | 'states' | 'time' | 'memory';
  readonly limit: number;
}

export interface SearchStats {
  /** Distinct states (fingerprints) stored. With symmetry, orbits. */
  readonly distinctStates: number;
  /** Initial states plus every successor produced, duplicates and self-loops included (TLC). */
  readonly generatedStates: number;
  /**
   * BFS levels including the initial one: the level of the deepest state stored (DFS: the deepest
   * level reached). A search stopped at a violation counts the violating state's level, as TLC does.
   */
  readonly depth: number;
  readonly seconds: number;
  /** Distinct states per second. */
  readonly statesPerSecond: number;
  /** Peak resident set size of the process during the search, in MiB. */
  readonly peakMemoryMB: number;
  /** Bytes held by the visited table and parent links, per distinct state. */
  readonly bytesPerState: number;
  /** Fingerprint collisions detected (only with `detectCollisions`). */
  readonly collisions?: number;
  /**
   * The search that ran: `generic` (object states, one thread; also a `workers` search whose
   * levels all stayed narrower than the hand-over to the workers), `state-vector` (a model that
   * declares `stateVector`), `parallel` (worker threads) or `random` (random runs).
   */
  readonly engine: 'generic' | 'state-vector' | 'parallel' | 'distributed' | 'random';
}

export interface CheckResult<S> {
  readonly model: string;
  readonly strategy: 'bfs' | 'dfs' | 'random';
  /** The verdict of the whole check: a liveness property violated makes it `violation`. */
  readonly verdict: Verdict;
  /**
   * Every checked property's outcome: the search's, then those of the liveness properties
   * (`check`'s `liveness`, see {@link isLiveness}), decided on the whole reachable graph without
   * symmetry.
   */
  readonly properties: readonly PropertyOutcome<S>[];
  readonly stats: SearchStats;
  /** Set when a bound stopped the search. */
  readonly stoppedBy?: BoundReached;
  /** With liveness properties: the verdict of the search for the other properties alone. */
  readonly searchVerdict?: Verdict;
}

/** A lasso: `states[0..]` with `actions[i]` from `states[i]` to `states[i + 1]`; the last state equals `states[loop]`. */
export interface Lasso<S> {
  readonly states: readonly S[];
  readonly actions: readonly ActionLabel[];
  /** Index in `states` where the cycle starts; the cycle may be a stutter (no actions after `loop`). */
  readonly loop: number;
}

const LIVENESS_KINDS: ReadonlySet<PropertyKind> = new Set<LivenessKind>(['eventually', 'always-eventually', 'eventually-always', 'leads-to']);

/** Whether an outcome is a liveness property's: decided on the whole graph, a lasso when violated. */
export function isLiveness(outcome: { readonly kind: PropertyKind }): boolean {
  return LIVENESS_KINDS.has(outcome.kind);
}

/**
 * The result with liveness outcomes after the search's: a violated one makes the verdict
 * `violation`, one not decided makes an `ok` `incomplete`, and `searchVerdict` keeps the
 * search's. No outcome leaves the result as it is.
 */
export function withLiveness<S>(result: CheckResult<S>, liveness: readonly PropertyOutcome<S>[]): CheckResult<S> {
  if (liveness.length === 0) return result;
  const violated = liveness.some((l) => l.status === 'violated');
  const undecided = liveness.some((l) => l.status === 'unknown');
  const verdict = violated ? 'violation' : undecided && result.verdict === 'ok' ? 'incomplete' : result.verdict;
  return { ...result, verdict, properties: [...result.properties, ...liveness], searchVerdict: result.verdict };
}

/** What a result says of any checked property, the checker's own `deadlock` included. */
export interface CheckedProperty {
  readonly id: string;
  readonly kind: PropertyKind;
  readonly description: string;
  readonly source?: string;
}

/** The properties a search reports on: the selected ones, then `deadlock` when it is checked. */
export function checkedProperties(selected: readonly CheckedProperty[], deadlock: boolean): CheckedProperty[] {
  return deadlock ? [...selected, { id: 'deadlock', kind: 'deadlock', description: 'every reachable state has an enabled action' }] : [...selected];
}

/** One property's outcome record. */
export function outcomeOf<S>(p: CheckedProperty, status: PropertyStatus, trace: Trace<S> | undefined): PropertyOutcome<S> {
  return {
    id: p.id,
    kind: p.kind,
    description: p.description,
    ...(p.source === undefined ? {} : { source: p.source }),
    status,
    ...(trace === undefined ? {} : { trace }),
  };
}

/** The outcomes with a counterexample (violated). */
export function violations<S>(result: CheckResult<S>): PropertyOutcome<S>[] {
  return result.properties.filter((p) => p.status === 'violated');
}

/** The outcomes with a witness. */
export function witnesses<S>(result: CheckResult<S>): PropertyOutcome<S>[] {
  return result.properties.filter((p) => p.status === 'witnessed');
}

/** Failed properties: violated, or goals unwitnessed on the whole space. */
export function failures<S>(result: CheckResult<S>): PropertyOutcome<S>[] {
  return result.properties.filter((p) => p.status === 'violated' || p.status === 'unwitnessed');
}
