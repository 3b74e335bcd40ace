/**
 * Every transition of the reachable state space, visited once per distinct state: a
 * breadth-first search over fingerprints (with the model's symmetry and view, as `check`) that
 * hands each enabled step out of each distinct state to a visitor. What `check` does for action
 * properties, open to any question asked of all steps at once: the earliest and latest value of
 * a quantity over all paths, a histogram of actions, coverage of a set of events.
 *
 * Under symmetry, the steps are those of one representative per orbit; a question whose answer
 * is invariant under the symmetry (as a property's must be) gets the same answer as without it.
 */
import { fingerprint } from './fingerprint.js';
import { FingerprintTable } from './fingerprintTable.js';
import type { ActionLabel, Model } from './model.js';
import type { BoundReached } from './result.js';
import { keyFunction } from './searchCore.js';
import { forEachSuccessor, labelOf } from './successors.js';
import { initialStatesOf } from './validateModel.js';

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
  const started = performance.now();
  const key = keyFunction(model, (options.symmetry ?? true) && model.canonicalize !== undefined);
  const table = new FingerprintTable();
  const maxStates = options.maxStates ?? Infinity;
  const deadline = options.timeLimitSeconds === undefined ? Infinity : started + options.timeLimitSeconds * 1000;
  let frontier: S[] = [];
  for (const s of initialStatesOf(model)) if (table.insert(fingerprint(key(s)), table.size) < 0) frontier.push(s);
  let transitions = 0;
  let depth = frontier.length > 0 ? 1 : 0;
  let stoppedBy: BoundReached | undefined;
  let expanded = 0;
  while (frontier.length > 0 && stoppedBy === undefined) {
    const next: S[] = [];
    for (let i = 0; i < frontier.length; i++) {
      const before = frontier[i];
      forEachSuccessor(model, before, (after, _ordinal, def, param) => {
        transitions++;
        visit(before, labelOf(def, param), after);
        if (table.size < maxStates && table.insert(fingerprint(key(after)), table.size) < 0) next.push(after);
        else if (table.size >= maxStates && table.get(fingerprint(key(after))) < 0) stoppedBy ??= { bound: 'states', limit: maxStates };
      });
      if ((++expanded & 255) === 0 && performance.now() > deadline) {
        stoppedBy = { bound: 'time', limit: options.timeLimitSeconds! };
        break;
      }
    }
    frontier = next;
    if (next.length > 0 && stoppedBy === undefined) depth++;
  }
  return {
    complete: stoppedBy === undefined,
    ...(stoppedBy === undefined ? {} : { stoppedBy }),
    distinctStates: table.size,
    transitions,
    depth,
    seconds: (performance.now() - started) / 1000,
  };
}
