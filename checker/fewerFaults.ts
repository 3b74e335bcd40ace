/**
 * Among the shortest counterexamples, one with the fewest fault steps. Breadth-first search keeps
 * the first path it finds to each state, so a shortest counterexample may carry a fault that has
 * nothing to do with the violation (a node crash on the way to a leader-election race) when a
 * trace of the same length without it exists. This second, bounded search runs level by level up
 * to the counterexample's length, keeps for every state the path with the fewest faults among
 * its shortest ones (ties: the first found, so the result is deterministic), and returns the
 * violating path with the fewest faults.
 *
 * It depends only on the model, the property and the length, never on the order in which a
 * search (one thread or many) met the states, so every search returns the same trace. It runs
 * only when the counterexample has a fault step to save.
 */
import { faultTest, type Model } from './model.js';
import type { CheckOptions } from './options.js';
import type { Property } from './properties.js';
import type { Trace } from './result.js';
import { FewestFaultsSearch } from './searchCore.js';
import { replayPath } from './trace.js';

/** Most states the second search stores before it gives up and keeps the trace it was given. */
export const FEWER_FAULTS_STATE_CAP = 2_000_000;

/** Fault steps along a trace, by the model's fault test (0 when it has none). */
export function faultSteps<S>(model: Model<S>, trace: Trace<S>): number {
  const isFault = faultTest(model);
  if (!isFault) return 0;
  let n = 0;
  for (let i = 0; i < trace.actions.length; i++) if (isFault(trace.states[i], trace.actions[i], trace.states[i + 1])) n++;
  return n;
}

/** The check's bounds the second search keeps to: the time left of the check's limit, and its memory bound. */
export type FewestFaultsBounds = Pick<CheckOptions, 'timeLimitSeconds' | 'maxMemoryBytes' | 'maxMemoryMB'>;

/**
 * A counterexample to `property` as long as `trace` with the fewest fault steps (`trace` itself
 * when none has fewer, or when the search does not end within `bounds` or its states cap).
 * `trace` must be a shortest counterexample (breadth-first).
 */
export function fewestFaults<S>(model: Model<S>, property: Property<S>, trace: Trace<S>, symmetry: boolean, bounds: FewestFaultsBounds = {}): Trace<S> {
  const isFault = faultTest(model);
  if (!isFault || property.kind === 'reachable') return trace;
  const budget = faultSteps(model, trace);
  const length = trace.actions.length;
  if (budget === 0 || length === 0) return trace;
  const best = new FewestFaultsSearch(model, property, length, isFault, symmetry, bounds).fewest();
  return best === undefined || best.faults >= budget ? trace : replayPath(model, best.path);
}
