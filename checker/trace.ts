/** Traces are rebuilt by replaying a path of candidate ordinals from an initial state. */
import { CheckerErrorCode, fail } from './errors.js';
import type { ActionLabel, Model } from './model.js';
import type { Path, Trace } from './result.js';
import { ordinalOf, successorAt } from './successors.js';
import { initialStateAt } from './validateModel.js';

/** Replays `path` on `model`; throws KC006 naming the first step that is not enabled. */
export function replayPath<S>(model: Model<S>, path: Path): Trace<S> {
  const init = initialStateAt(model, path.initial);
  if (!init.found) fail(CheckerErrorCode.pathDoesNotReplay, `initial state ${path.initial} does not exist (the model has ${init.count})`);
  const states: S[] = [init.state];
  const actions: ActionLabel[] = [];
  for (let i = 0; i < path.steps.length; i++) {
    const next = successorAt(model, states[i], path.steps[i]);
    if (next === undefined) fail(CheckerErrorCode.pathDoesNotReplay, `step ${i + 1} (candidate ${path.steps[i]}) is not enabled`);
    actions.push(next.action);
    states.push(next.state);
  }
  return { states, actions, path };
}

/** The outcome of replaying a list of action labels (e.g. read from an ITF file). */
export type LabelReplay<S> =
  | { readonly ok: true; readonly trace: Trace<S> }
  | { readonly ok: false; readonly trace: Trace<S>; readonly failedStep: number; readonly action: ActionLabel };

/**
 * Replays labelled steps from initial state `initial`. Stops at the first label that is not an
 * enabled step of the state reached, and says which (1-based `failedStep`).
 */
export function replayLabels<S>(model: Model<S>, labels: readonly ActionLabel[], initial = 0): LabelReplay<S> {
  const init = initialStateAt(model, initial);
  if (!init.found) fail(CheckerErrorCode.pathDoesNotReplay, `initial state ${initial} does not exist (the model has ${init.count})`);
  const states: S[] = [init.state];
  const actions: ActionLabel[] = [];
  const steps: number[] = [];
  for (let i = 0; i < labels.length; i++) {
    const hit = ordinalOf(model, states[i], labels[i]);
    if (hit === undefined) {
      return { ok: false, trace: { states, actions, path: { initial, steps } }, failedStep: i + 1, action: labels[i] };
    }
    steps.push(hit.ordinal);
    actions.push(labels[i]);
    states.push(hit.next);
  }
  return { ok: true, trace: { states, actions, path: { initial, steps } } };
}
