/** Helpers of the operator suites: writes applied in order, and checks of extra properties. */
import { check, type CheckResult, type Model, type Property } from '../../checker/index.js';
import { applyWrite, EMPTY_STORE, type CustomStore, type Write } from '../../model/operator/api.js';
import type { ClusterState } from '../../model/state.js';

/** Applies `writes` in order from `start`: the store after them and each outcome. */
export function run(writes: readonly Write[], start: CustomStore = EMPTY_STORE): { store: CustomStore; outcomes: string[] } {
  let store = start;
  const outcomes: string[] = [];
  for (const w of writes) {
    const [next, outcome] = applyWrite(store, w);
    store = next;
    outcomes.push(outcome);
  }
  return { store, outcomes };
}

/** The model with `extra` properties, checked alone with `also` (ids of the model's own). */
export function checkWith(model: Model<ClusterState>, extra: readonly Property<ClusterState>[], also: readonly string[] = []): CheckResult<ClusterState> {
  return check({ ...model, properties: [...model.properties, ...extra] }, { properties: [...also, ...extra.map((p) => p.id)] });
}

/** Each checked property's status, by id. */
export const statusOf = (r: CheckResult<ClusterState>): Record<string, string> => Object.fromEntries(r.properties.map((p) => [p.id, p.status]));
