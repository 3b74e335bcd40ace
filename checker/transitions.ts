/**
 * Every transition of the reachable state space, visited once per distinct state: the checker's
 * own breadth-first search (with the model's symmetry and view, as `check`, and its time, memory
 * and states bounds), checking no property, with each enabled step out of each distinct state
 * handed to a visitor. What `check` does for action properties, open to any question asked of all
 * steps at once: the earliest and latest value of a quantity over all paths, a histogram of
 * actions, coverage of a set of events.
 *
 * Under symmetry, the steps are those of one representative per orbit; a question whose answer
 * is invariant under the symmetry (as a property's must be) gets the same answer as without it.
 */
import type { ActionLabel, Model } from './model.js';
import type { SearchVisitor } from './options.js';
import type { BoundReached } from './result.js';
import { Search } from './searchCore.js';

/** Called for every step out of every distinct reachable state. */
export type TransitionVisitor<S> = (before: S, action: ActionLabel, after: S) => void;

export interface TransitionOptions {
  /** Merge symmetric states (default: when the model has a symmetry). */
  readonly symmetry?: boolean;
  /** Stop after this many distinct states. */
  readonly maxStates?: number;
  /** Stop after this wall-clock time. */
  readonly timeLimitSeconds?: number;
}

export interface TransitionStats {
  /** Whether every reachable state was expanded (no bound stopped the search). */
  readonly complete: boolean;
  readonly stoppedBy?: BoundReached;
  readonly distinctStates: number;
  /** Steps visited (successors produced, duplicates included). */
  readonly transitions: number;
  /** Breadth-first levels, the initial one included. */
  readonly depth: number;
  readonly seconds: number;
}

/** Visits every step out of every distinct reachable state of `model`, breadth-first. */
export function forEachTransition<S>(model: Model<S>, visit: TransitionVisitor<S>, options: TransitionOptions = {}): TransitionStats {
  let transitions = 0;
  const visitor: SearchVisitor<S> = {
    state: () => {},
    step: (_from, action, after, _to, before) => {
      transitions++;
      visit(before, action, after);
    },
  };
  const r = new Search(model, { properties: [], ...options, visitor: visitor as SearchVisitor<unknown> }).run();
  return {
    complete: r.stoppedBy === undefined,
    ...(r.stoppedBy === undefined ? {} : { stoppedBy: r.stoppedBy }),
    distinctStates: r.stats.distinctStates,
    transitions,
    depth: r.stats.depth,
    seconds: r.stats.seconds,
  };
}
