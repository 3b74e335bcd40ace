/**
 * `check`: explores a model and returns the verdict, every property's outcome and the
 * statistics; on one thread (`searchCore.ts`) or, with `workers` > 1, level by level on worker
 * threads (`parallel.ts`) with the same results.
 */
import type { Model } from './model.js';
import { validateOptions, type CheckOptions } from './options.js';
import { ParallelSearch } from './parallel.js';
import type { CheckResult } from './result.js';
import { Search } from './searchCore.js';

/** Explores `model` and returns the verdict, every property's outcome and the statistics. */
export function check<S>(model: Model<S>, options: CheckOptions = {}): CheckResult<S> {
  validateOptions(options);
  if ((options.workers ?? 1) > 1) return new ParallelSearch(model, options).run();
  return new Search(model, options).run();
}
