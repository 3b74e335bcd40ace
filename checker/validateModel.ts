/** Model misuse caught before a search starts, each with a stable code. */
import { CheckerErrorCode, fail } from './errors.js';
import type { Model } from './model.js';
import { isKebabCase, type Property } from './properties.js';

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
