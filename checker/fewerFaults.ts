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
import { fingerprintWithObservers, keyFunction, NO_OBSERVERS } from './kernel.js';
import type { Fingerprint } from './fingerprint.js';
import { faultTest, type Model } from './model.js';
import type { Observer, Property } from './properties.js';
import type { Trace } from './result.js';
import { forEachSuccessor, labelOf } from './successors.js';
import { replayPath } from './trace.js';
import { initialStatesOf } from './validateModel.js';

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

/**
 * A counterexample to `property` as long as `trace` with the fewest fault steps (`trace` itself
 * when none has fewer). `trace` must be a shortest counterexample (breadth-first).
 */
export function fewestFaults<S>(model: Model<S>, property: Property<S>, trace: Trace<S>, symmetry: boolean): Trace<S> {
  const isFault = faultTest(model);
  if (!isFault || property.kind === 'reachable') return trace;
  const budget = faultSteps(model, trace);
  const depth = trace.actions.length;
  if (budget === 0 || depth === 0) return trace;
  const key = keyFunction(model, symmetry);
  const observers: readonly Observer<S, unknown>[] = property.kind === 'observer' ? [property] : [];
  const fp = (s: S, o: readonly unknown[]): Fingerprint => fingerprintWithObservers(key(s), observers, o);

  const ids = new Map<Fingerprint, number>();
  const parents: number[] = [];
  const ordinals: number[] = [];
  const faults: number[] = [];
  let level: { state: S; observed: readonly unknown[]; id: number }[] = [];
  initialStatesOf(model).forEach((s, i) => {
    const observed = observers.length ? observers.map((ob) => ob.initial(s)) : NO_OBSERVERS;
    const f = fp(s, observed);
    if (ids.has(f)) return;
    ids.set(f, parents.length);
    level.push({ state: s, observed, id: parents.length });
    parents.push(-1);
    ordinals.push(i);
    faults.push(0);
  });
  let best: { id: number; ordinal: number; faults: number } | undefined;
  for (let d = 0; d < depth; d++) {
    const nextStart = parents.length;
    const next: typeof level = [];
    for (const { state, observed, id } of level) {
      forEachSuccessor(model, state, (after, ordinal, def, param) => {
        const label = labelOf(def, param);
        const f = faults[id] + (isFault(state, label, after) ? 1 : 0);
        if (d === depth - 1 && property.kind === 'action' && !property.holds(state, label, after)) {
          if (best === undefined || f < best.faults) best = { id, ordinal, faults: f };
        }
        const o = observers.length ? [observers[0].step(observed[0], state, label, after)] : NO_OBSERVERS;
        const k = fp(after, o);
        const seen = ids.get(k);
        if (seen === undefined) {
          ids.set(k, parents.length);
          next.push({ state: after, observed: o, id: parents.length });
          parents.push(id);
          ordinals.push(ordinal);
          faults.push(f);
        } else if (seen >= nextStart && f < faults[seen]) {
          parents[seen] = id;
          ordinals[seen] = ordinal;
          faults[seen] = f;
        }
      });
      if (parents.length > FEWER_FAULTS_STATE_CAP) return trace;
    }
    level = next;
  }
  if (property.kind === 'invariant' || property.kind === 'observer') {
    for (const { state, observed, id } of level) {
      const bad = property.kind === 'invariant' ? !property.holds(state) : !property.holds(observed[0], state);
      if (bad && (best === undefined || faults[id] < best.faults)) best = { id, ordinal: -1, faults: faults[id] };
    }
  }
  if (best === undefined || best.faults >= budget) return trace;
  const steps: number[] = [];
  let cur = best.id;
  while (parents[cur] !== -1) {
    steps.push(ordinals[cur]);
    cur = parents[cur];
  }
  steps.reverse();
  if (best.ordinal >= 0) steps.push(best.ordinal);
  return replayPath(model, { initial: ordinals[cur], steps });
}
