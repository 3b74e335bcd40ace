/**
 * An independent breadth-first search for the checker's tests. It shares no code with the
 * checker: it calls the model's `enabled` / `apply` directly, keys states by a sorted-keys
 * `JSON.stringify`, and keeps whole states in a `Map`. Slow but obviously right, so its numbers
 * can judge the checker's.
 */
import type { Model } from '../../checker/index.js';

/** JSON with object keys sorted, so key order does not matter. */
export function stableKey(value: unknown): string {
  return JSON.stringify(value, (_k, v: unknown) => {
    if (v && typeof v === 'object' && !Array.isArray(v)) {
      const out: Record<string, unknown> = {};
      for (const k of Object.keys(v).sort()) out[k] = (v as Record<string, unknown>)[k];
      return out;
    }
    return v;
  });
}

/** Every enabled step of `state`, in the model's order, as [action name, successor]. */
export function referenceSuccessors<S>(model: Model<S>, state: S): [string, S][] {
  const out: [string, S][] = [];
  for (const def of model.actions) {
    const ps = def.params === undefined ? [undefined] : typeof def.params === 'function' ? def.params(state) : def.params;
    for (const p of ps) {
      if (def.enabled && !def.enabled(state, p)) continue;
      const next = def.apply(state, p);
      if (next !== undefined) out.push([def.name, next]);
    }
  }
  return out;
}

export interface ReferenceResult<S> {
  /** States by BFS level; `levels[0]` holds the initial states. */
  readonly levels: S[][];
  /** Level (0-based number of steps) of each state's key. */
  readonly depthOf: Map<string, number>;
  readonly distinct: number;
  /** Initial states plus every successor produced, self-loops included (TLC's "generated"). */
  readonly generated: number;
}

/** Explores the whole reachable space of `model` (which must be finite). */
export function referenceBfs<S>(model: Model<S>, key: (s: S) => string = stableKey): ReferenceResult<S> {
  const depthOf = new Map<string, number>();
  const levels: S[][] = [];
  let generated = 0;
  let frontier: S[] = [];
  for (const s of model.initialStates()) {
    generated++;
    const k = key(s);
    if (!depthOf.has(k)) {
      depthOf.set(k, 0);
      frontier.push(s);
    }
  }
  while (frontier.length > 0) {
    levels.push(frontier);
    const next: S[] = [];
    for (const s of frontier) {
      for (const [, t] of referenceSuccessors(model, s)) {
        generated++;
        const k = key(t);
        if (!depthOf.has(k)) {
          depthOf.set(k, levels.length);
          next.push(t);
        }
      }
    }
    frontier = next;
  }
  return { levels, depthOf, distinct: depthOf.size, generated };
}
