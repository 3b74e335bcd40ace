/** Search options and their validation: a bad bound fails at once with a code and a sentence. */
import { totalmem } from 'node:os';
import { CheckerErrorCode, fail } from './errors.js';
import type { ActionLabel, JsonValue } from './model.js';
import type { SearchStats, Trace } from './result.js';

/**
 * How a worker thread rebuilds the model, since a model is code and cannot be sent to it: the
 * module (a file URL) is imported in the worker and its export called with `args`; it must return
 * (or resolve to) a model equal to the one given to `check` (same name, same actions).
 */
export interface ModelFactory {
  /** File URL of the module, e.g. `new URL('./myModel.ts', import.meta.url).href`. */
  readonly module: string;
  /** Name of the exported function. */
  readonly export: string;
  /** The function's argument: JSON, so it crosses to the worker as is. */
  readonly args?: JsonValue;
}

const GiB = 2 ** 30;

/**
 * The memory bound when none is given: 4 GiB, or half the machine's memory if that is less. A
 * search is stopped there (verdict `incomplete`) rather than left to grow until Node aborts.
 */
export function defaultMaxMemoryBytes(): number {
  return Math.min(4 * GiB, Math.floor(totalmem() / 2));
}

/** Progress figures handed to `onProgress` while a search runs. */
export interface Progress {
  readonly distinctStates: number;
  readonly generatedStates: number;
  readonly depth: number;
  readonly queued: number;
  readonly seconds: number;
}

export interface CheckOptions {
  /** `bfs` (default) gives shortest counterexamples; `dfs` uses less memory for its frontier. */
  readonly strategy?: 'bfs' | 'dfs';
  /**
   * `auto` (default): the state-vector search for a model that declares `stateVector` when the
   * check allows it, else the generic one; `generic`: always the generic search (same results).
   */
  readonly engine?: 'auto' | 'generic';
  /** Maximum BFS levels, the initial one included. */
  readonly maxDepth?: number;
  /** Maximum distinct states stored. */
  readonly maxStates?: number;
  /** Wall-clock limit in seconds. */
  readonly timeLimitSeconds?: number;
  /**
   * Resident memory bound of the whole process, in bytes (default {@link defaultMaxMemoryBytes}).
   * The search stops with `incomplete` when it is reached, and also before a JavaScript heap
   * (the main thread's or a worker's) reaches V8's limit, so it never aborts on memory.
   */
  readonly maxMemoryBytes?: number;
  /** The same bound in MiB (older name; the smaller of the two applies when both are given). */
  readonly maxMemoryMB?: number;
  /**
   * Threads for breadth-first search (default 1). With more, each level is expanded by worker
   * threads and merged in the order a one-thread search discovers states: counts, verdicts and
   * counterexamples are the same as with one. Needs `modelFactory`, and states that survive
   * `structuredClone` (plain data).
   */
  readonly workers?: number;
  /** How workers rebuild the model (required when `workers` > 1). */
  readonly modelFactory?: ModelFactory;
  /** Check only these property ids (default: all of the model's). */
  readonly properties?: readonly string[];
  /** Use the model's canonicalisation (default: true when the model has one). */
  readonly symmetry?: boolean;
  /** Keep exact encodings beside fingerprints and count collisions (debug; memory heavy). */
  readonly detectCollisions?: boolean;
  /** Stop at the first violation instead of deciding every property. */
  readonly stopAtFirstViolation?: boolean;
  /**
   * Sees what the search explores, as it does (one thread, generic search: the state-vector
   * engine steps aside; refused with workers > 1, whose states live in the worker threads). For
   * reports drawn from the states a check explored rather than from a second exploration.
   */
  readonly visitor?: SearchVisitor<unknown>;
  /**
   * Called as each violation is found, while the search goes on (to decide the other properties):
   * the property, the path to the violating state as found (the result's counterexample may be
   * another of the same length with fewer faults), and the figures so far. For a command line that
   * reports a violation at once and keeps the violations of a run that is then stopped or killed.
   */
  readonly onViolation?: (found: FoundViolation) => void;
  /** Called about every `progressIntervalMs` (default 500) during the search. */
  readonly onProgress?: (progress: Progress) => void;
  readonly progressIntervalMs?: number;
}

/** A violation as the search finds it ({@link CheckOptions.onViolation}). */
export interface FoundViolation {
  readonly property: string;
  readonly trace: Trace<unknown>;
  /** The search's figures when it was found. */
  readonly stats: SearchStats;
}

/** What the search reports to a {@link CheckOptions.visitor}. */
export interface SearchVisitor<S> {
  /** A state stored under `id` (ids count up from 0 in discovery order); `initial` for a root. */
  state(state: S, id: number, initial: boolean): void;
  /**
   * A step generated out of stored state `from` (duplicates and self-loops included), to the
   * state stored under `toId` (the one it was found equal to, under symmetry a representative of
   * its orbit), or -1 when a bound kept it from being stored. Called after `state` for a new one.
   * `before` is the state stepped from, as stored under `from`.
   */
  step(from: number, action: ActionLabel, to: S, toId: number, before: S): void;
}

/** Validates a bound: a positive finite number (an integer for counts). */
export function checkBound(name: string, value: unknown, integer: boolean): void {
  if (value === undefined) return;
  const ok = typeof value === 'number' && Number.isFinite(value) && value > 0 && (!integer || Number.isInteger(value));
  if (!ok) {
    fail(
      CheckerErrorCode.invalidBound,
      `${name} must be a positive ${integer ? 'integer' : 'number'}, got ${typeof value === 'number' ? String(value) : (JSON.stringify(value) ?? String(value))}`,
    );
  }
}

/** Throws a `KubecheckError` (KC003) naming the first bad bound. */
export function validateOptions(options: CheckOptions): void {
  checkBound('maxDepth', options.maxDepth, true);
  checkBound('maxStates', options.maxStates, true);
  checkBound('timeLimitSeconds', options.timeLimitSeconds, false);
  checkBound('maxMemoryMB', options.maxMemoryMB, false);
  checkBound('maxMemoryBytes', options.maxMemoryBytes, false);
  checkBound('workers', options.workers, true);
  checkBound('progressIntervalMs', options.progressIntervalMs, false);
  if (options.engine !== undefined && options.engine !== 'auto' && options.engine !== 'generic') {
    fail(CheckerErrorCode.invalidBound, `engine must be "auto" or "generic", got ${JSON.stringify(options.engine)}`);
  }
  if (options.strategy !== undefined && options.strategy !== 'bfs' && options.strategy !== 'dfs') {
    fail(CheckerErrorCode.invalidBound, `strategy must be "bfs" or "dfs", got ${JSON.stringify(options.strategy)}`);
  }
  if ((options.workers ?? 1) > 1) {
    if (options.strategy === 'dfs') fail(CheckerErrorCode.invalidBound, 'workers > 1 needs breadth-first search (strategy "bfs"); depth-first search runs on one thread');
    if (options.detectCollisions) fail(CheckerErrorCode.invalidBound, 'detectCollisions needs workers: 1 (the exact encodings are kept in one thread)');
    if (options.visitor) fail(CheckerErrorCode.invalidBound, 'a visitor needs workers: 1 (the states live in the worker threads)');
    const f = options.modelFactory;
    if (f === undefined || typeof f.module !== 'string' || typeof f.export !== 'string') {
      fail(CheckerErrorCode.invalidBound, 'workers > 1 needs modelFactory { module, export, args } so that each worker can rebuild the model');
    }
  }
}
