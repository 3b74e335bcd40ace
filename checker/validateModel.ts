/** Model misuse caught before a search starts, each with a stable code. */
import { CheckerErrorCode, fail } from './errors.js';
import type { Model } from './model.js';
import { isKebabCase, type Property } from './properties.js';
import { vectorSpecOf } from './vectorModel.js';

/** Checks ids and names; returns the properties selected by `ids` (all when undefined). */
export function selectProperties<S>(model: Model<S>, ids?: readonly string[]): Property<S>[] {
  const seen = new Set<string>();
  for (const p of model.properties) {
    if (!isKebabCase(p.id)) fail(CheckerErrorCode.invalidPropertyId, `property id ${JSON.stringify(p.id)} is not kebab-case (e.g. single-leader)`);
    if (p.id === 'deadlock') fail(CheckerErrorCode.duplicatePropertyId, `property id "deadlock" is reserved for the checker's deadlock check`);
    if (seen.has(p.id)) fail(CheckerErrorCode.duplicatePropertyId, `model ${model.name} has two properties with id "${p.id}"; ids must be unique`);
    seen.add(p.id);
  }
  const names = new Set<string>();
  for (const a of model.actions) {
    if (names.has(a.name)) fail(CheckerErrorCode.duplicateActionName, `model ${model.name} has two actions named "${a.name}"; names must be unique`);
    names.add(a.name);
  }
  if (ids === undefined) return [...model.properties];
  const known = model.properties.map((p) => p.id);
  for (const id of ids) {
    if (!seen.has(id) && !(id === 'deadlock' && model.checkDeadlock)) {
      fail(CheckerErrorCode.unknownProperty, `unknown property "${id}"; known: ${known.join(', ') || '(none)'}`);
    }
  }
  return model.properties.filter((p) => ids.includes(p.id));
}

/** The initial states, refusing a model with none (KC002). */
export function initialStatesOf<S>(model: Model<S>): readonly S[] {
  const init = model.initialStates();
  if (init.length === 0) fail(CheckerErrorCode.noInitialState, `model ${model.name} has no initial state`);
  return init;
}

/**
 * The initial states of a vector model whose `initialStates` is still the one `vectorModel` gave
 * it, made one at a time from its spec (listed or yielded); `undefined` for any other model
 * (a copy that replaced `initialStates` lists its own).
 */
function lazyInitialStates<S>(model: Model<S>): Iterable<S> | undefined {
  const compiled = vectorSpecOf(model);
  return compiled !== undefined && (model.initialStates as unknown) === compiled.initialList ? (compiled.initialVectors() as Iterable<unknown> as Iterable<S>) : undefined;
}

/**
 * The initial states as the searches take them, in order, one at a time: a vector model's are
 * made as they are taken, so no list of them is held beside what the search stores. Refuses a
 * model with none (KC002) once it has looked; a search that stops early (a bound) takes no more.
 */
export function* eachInitialState<S>(model: Model<S>): Generator<S, void, undefined> {
  let count = 0;
  for (const s of lazyInitialStates(model) ?? model.initialStates()) {
    count++;
    yield s;
  }
  if (count === 0) fail(CheckerErrorCode.noInitialState, `model ${model.name} has no initial state`);
}

/** Initial state `index` (a trace's `path.initial`), or how many there are when it does not exist; a vector model's are walked, not listed. */
export function initialStateAt<S>(model: Model<S>, index: number): { readonly found: true; readonly state: S } | { readonly found: false; readonly count: number } {
  const lazy = lazyInitialStates(model);
  if (lazy === undefined) {
    const init = model.initialStates();
    return Number.isInteger(index) && index >= 0 && index < init.length ? { found: true, state: init[index] } : { found: false, count: init.length };
  }
  let i = 0;
  for (const s of lazy) {
    if (i === index) return { found: true, state: s };
    i++;
  }
  return { found: false, count: i };
}
