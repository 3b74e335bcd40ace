/**
 * `check`: explores a model and returns the verdict, every property's outcome and the
 * statistics; on one thread (`searchCore.ts`) or, with `workers` > 1, level by level on worker
 * threads (`parallel.ts`) with the same results. A state-vector model (`vectorModel.ts`) is
 * explored breadth-first by the state-vector search (`vectorSearch.ts`), with the same results
 * as the generic search, unless something only the generic search does is asked for.
 */
import { livenessWithin, type LivenessProperty } from './liveness.js';
import type { Model } from './model.js';
import { checkBound, validateOptions, type CheckOptions } from './options.js';
import { ParallelSearch } from './parallel.js';
import { withLiveness, type CheckResult } from './result.js';
import { Search } from './searchCore.js';
import type { VectorState } from './vectorModel.js';
import { VectorSearch, vectorSearchFor } from './vectorSearch.js';

/** The liveness properties a check decides beside the others (see `liveness.ts`). */
export interface LivenessSelection<S> {
  /**
   * Checked after the search, on the whole reachable graph without symmetry (a lasso on a reduced
   * graph need not be a behaviour), whatever the search's options; the graph is kept whole, so
   * this is for spaces that fit in memory as objects. Their outcomes follow the search's in the
   * result's `properties`.
   */
  readonly liveness?: readonly LivenessProperty<S>[];
  /**
   * The most states the liveness graph may hold (default 200,000, `LIVENESS_MAX_STATES`): past
   * it, each liveness property is `unknown` with its `reason`, the search's outcomes are kept, and
   * an `ok` verdict becomes `incomplete`.
   */
  readonly livenessMaxStates?: number;
  /**
   * Called once the search has ended, before the liveness properties are checked: liveness
   * reports no progress, so a progress display of the search is closed here.
   */
  readonly onSearchEnd?: () => void;
}

/** Explores `model` and returns the verdict, every property's outcome and the statistics. */
export function check<S>(model: Model<S>, options: CheckOptions & LivenessSelection<S> = {}): CheckResult<S> {
  const { liveness, onSearchEnd, livenessMaxStates, ...search } = options;
  checkBound('livenessMaxStates', livenessMaxStates, true);
  const result = explore(model, search);
  onSearchEnd?.();
  return liveness === undefined ? result : withLiveness(result, livenessWithin(model, liveness, livenessMaxStates, { maxMemoryBytes: search.maxMemoryBytes, maxMemoryMB: search.maxMemoryMB }));
}

function explore<S>(model: Model<S>, options: CheckOptions): CheckResult<S> {
  validateOptions(options);
  if ((options.workers ?? 1) > 1) return new ParallelSearch(model, options).run();
  const vector = vectorSearchFor(model, options);
  if (vector !== undefined) return new VectorSearch(model as unknown as Model<VectorState>, options, vector).run() as unknown as CheckResult<S>;
  return new Search(model, options).run();
}
