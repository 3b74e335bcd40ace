/**
 * The one place that enumerates a state's successors, in the model's deterministic order. BFS,
 * DFS, random exploration and replay all go through it, so a path of candidate ordinals means the
 * same steps everywhere.
 *
 * A candidate is one (action, parameter) pair; its ordinal counts candidates whether or not they
 * are enabled, so it stays stable when an unrelated action's guard changes.
 */
import type { ActionLabel, AnyActionDef, JsonValue, Model } from './model.js';

/** Called for each enabled candidate with its successor. Return `true` to stop early. */
export type SuccessorVisitor<S> = (
  next: S,
  ordinal: number,
  action: AnyActionDef<S>,
  param: JsonValue | undefined,
) => boolean | void;

/** The parameters of an action that takes none: one candidate, with no parameter. */
const NO_PARAMETER: readonly (JsonValue | undefined)[] = Object.freeze([undefined]);

/** The candidates' parameters of action `def` in `state`, in order. */
export function parametersOf<S>(def: AnyActionDef<S>, state: S): readonly (JsonValue | undefined)[] {
  const ps = def.params;
  return ps === undefined ? NO_PARAMETER : typeof ps === 'function' ? ps(state) : ps;
}

/** Visits every successor of `state` in order; returns how many were visited. */
export function forEachSuccessor<S>(model: Model<S>, state: S, visit: SuccessorVisitor<S>): number {
  const actions = model.actions;
  let ordinal = 0;
  let produced = 0;
  for (let a = 0; a < actions.length; a++) {
    const def = actions[a];
    const list = parametersOf(def, state);
    for (let i = 0; i < list.length; i++) {
      const o = ordinal++;
      const p = list[i];
      if (def.enabled !== undefined && !def.enabled(state, p)) continue;
      const next = def.apply(state, p);
      if (next === undefined) continue;
      produced++;
      if (visit(next, o, def, p) === true) return produced;
    }
  }
  return produced;
}

/** The label of a step: `{ name, param }`, the param omitted when there is none. */
export function labelOf<S>(def: AnyActionDef<S>, param: JsonValue | undefined): ActionLabel {
  return param === undefined ? { name: def.name } : { name: def.name, param };
}

/** One enabled step out of a state. */
export interface Successor<S> {
  readonly ordinal: number;
  readonly action: ActionLabel;
  readonly state: S;
}

/** All successors of `state` as a list (for replay, random exploration and graphs). */
export function successors<S>(model: Model<S>, state: S): Successor<S>[] {
  const out: Successor<S>[] = [];
  forEachSuccessor(model, state, (next, ordinal, def, param) => {
    out.push({ ordinal, action: labelOf(def, param), state: next });
  });
  return out;
}

/** The successor reached by candidate `ordinal`, or `undefined` if it is not enabled there. */
export function successorAt<S>(model: Model<S>, state: S, ordinal: number): Successor<S> | undefined {
  let found: Successor<S> | undefined;
  forEachSuccessor(model, state, (next, o, def, param) => {
    if (o === ordinal) found = { ordinal, action: labelOf(def, param), state: next };
    return o >= ordinal;
  });
  return found;
}

/** Candidate ordinal of the enabled step with this label, or -1 (replaying a saved trace). */
export function ordinalOf<S>(model: Model<S>, state: S, label: ActionLabel): { ordinal: number; next: S } | undefined {
  const want = JSON.stringify(label.param ?? null);
  let found: { ordinal: number; next: S } | undefined;
  forEachSuccessor(model, state, (next, o, def, param) => {
    if (def.name === label.name && JSON.stringify(param ?? null) === want) {
      found = { ordinal: o, next };
      return true;
    }
    return false;
  });
  return found;
}
