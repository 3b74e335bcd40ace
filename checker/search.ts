/**
 * `check`: explores a model and returns the verdict, every property's outcome and the
 * statistics; on one thread (`searchCore.ts`) or, with `workers` > 1, level by level on worker
 * threads (`parallel.ts`) with the same results. A state-vector model (`vectorModel.ts`) is
 * explored breadth-first by the state-vector search (`vectorSearch.ts`), with the same results
 * as the generic search, unless something only the generic search does is asked for.
 */
import type { Model } from './model.js';
import { validateOptions, type CheckOptions } from './options.js';
import { ParallelSearch } from './parallel.js';
import type { CheckResult } from './result.js';
import { Search } from './searchCore.js';
import type { VectorState } from './vectorModel.js';
import { VectorSearch, vectorSearchFor } from './vectorSearch.js';

/** Explores `model` and returns the verdict, every property's outcome and the statistics. */
export function check<S>(model: Model<S>, options: CheckOptions = {}): CheckResult<S> {
  validateOptions(options);
  if ((options.workers ?? 1) > 1) return new ParallelSearch(model, options).run();
  const vector = vectorSearchFor(model, options);
  if (vector !== undefined) return new VectorSearch(model as unknown as Model<VectorState>, options, vector).run() as unknown as CheckResult<S>;
  return new Search(model, options).run();
}
