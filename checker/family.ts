/**
 * How big a parameterised family of models gets: which parameters multiply its state count,
 * measured by the search itself. A model that does not finish is measured at smaller values,
 * one parameter varied at a time, each search bounded; the growth per +1 of each parameter, the
 * product of those growths as an estimate of the whole, and the values that would bring it under
 * a bound follow from the counts. Generic: the family is a function from integer parameters to
 * models; what the parameters mean (nodes, fault budgets, resource managers) is the caller's.
 */
import { KubecheckError } from './errors.js';
import type { Model } from './model.js';
import type { CheckOptions } from './options.js';
import type { BoundReached } from './result.js';
import { check } from './search.js';

/** One integer parameter of a family, as the model to size has it. */
export interface FamilyParameter {
  readonly key: string;
  /** Its value in the model to size. */
  readonly target: number;
  /** The least value it takes (0 for a budget, 1 for a count that must be at least one). */
  readonly floor: number;
}

/** Values of the varied parameters, by key. */
export type Assignment = Readonly<Record<string, number>>;

/** One bounded search of the family at some values. */
export interface Measurement {
  readonly values: Assignment;
  /** Why the model could not be built at these values (a refused config): nothing was searched. */
  readonly refused?: string;
  readonly distinctStates: number;
  readonly generatedStates: number;
  readonly depth: number;
  readonly seconds: number;
  /** The search explored the whole space at these values (or ended because every property was decided). */
  readonly finished: boolean;
  /** The bound that stopped it, when it did not finish. */
  readonly stoppedBy?: BoundReached;
}

/** One parameter's measured effect, the others held at the base. */
export interface ParameterGrowth extends FamilyParameter {
  /** Its value at the base the others are held at. */
  readonly base: number;
  /** The measurements at base − 1 (when at least the floor), base and base + 1, by increasing value. */
  readonly points: readonly Measurement[];
  /**
   * distinct(base + 1) / distinct(base): how many times the states grow for one more. A lower
   * bound when the search at base + 1 did not finish; undefined when it was refused or the base
   * did not finish.
   */
  readonly factor?: number;
  readonly factorAtLeast: boolean;
  /** distinct(base) / distinct(base − 1), when both finished. */
  readonly downFactor?: number;
}

/** What {@link measureFamily} found. */
export interface FamilySize {
  /** The search at the target values themselves (bounded like the others). */
  readonly target: Measurement;
  /** The values the parameters are varied around: the target when its search finished, else smaller ones. */
  readonly base: Measurement;
  /** Each parameter's growth, the one that multiplies most (up or down from the base) first. */
  readonly parameters: readonly ParameterGrowth[];
  /** Distinct states per second of the largest measurement that finished. */
  readonly statesPerSecond?: number;
  /** Seconds spent measuring, in all. */
  readonly seconds: number;
  /** How many bounded searches ran. */
  readonly searches: number;
}

/** What the states of the family at some values are estimated to be. */
export interface SizeEstimate {
  readonly distinctStates: number;
  /** Measured, not estimated: the values were searched to the end. */
  readonly exact: boolean;
  /** At least this many: a count or a factor it rests on is a lower bound. */
  readonly atLeast: boolean;
  /** Why there is no estimate (a factor it needs could not be measured); distinctStates is then NaN. */
  readonly missing?: string;
}

export interface MeasureFamilyOptions {
  /** The model at some values; a KubecheckError thrown (or rejected) here marks those values refused. */
  readonly build: (values: Assignment) => Model<unknown> | Promise<Model<unknown>>;
  /** Options of every search (properties, symmetry...), without bounds. */
  readonly search?: Omit<CheckOptions, 'maxStates' | 'timeLimitSeconds' | 'maxDepth' | 'onProgress' | 'onViolation' | 'visitor'>;
  /** The bounds of each search. */
  readonly maxStates: number;
  readonly timeLimitSeconds: number;
  /** Runs each search (e.g. under a bound on user code); default: as is. */
  readonly run?: <T>(search: () => T) => T;
  /** Told of each measurement as it is made (progress). */
  readonly onMeasured?: (m: Measurement) => void;
}

const keyOf = (values: Assignment): string => JSON.stringify(Object.keys(values).sort().map((k) => [k, values[k]]));

/**
 * Measures the family around `parameters`' targets: the target itself, bounded; when it does not
 * finish, a base with each parameter at min(target, floor + 1); when that does not finish either,
 * the largest of the bases with one parameter one lower still that finishes; then, one parameter
 * at a time, base − 1 and base + 1. Each search is bounded by `maxStates` and `timeLimitSeconds`.
 */
export async function measureFamily(parameters: readonly FamilyParameter[], options: MeasureFamilyOptions): Promise<FamilySize> {
  const started = performance.now();
  const run = options.run ?? (<T>(f: () => T): T => f());
  const done = new Map<string, Measurement>();
  const measure = async (values: Assignment): Promise<Measurement> => {
    const known = done.get(keyOf(values));
    if (known !== undefined) return known;
    let model: Model<unknown>;
    let m: Measurement;
    try {
      model = await options.build(values);
    } catch (e) {
      if (!(e instanceof KubecheckError)) throw e;
      m = { values, refused: e.message, distinctStates: 0, generatedStates: 0, depth: 0, seconds: 0, finished: false };
      done.set(keyOf(values), m);
      options.onMeasured?.(m);
      return m;
    }
    const r = run(() => check(model, { ...options.search, maxStates: options.maxStates, timeLimitSeconds: options.timeLimitSeconds }));
    m = {
      values,
      distinctStates: r.stats.distinctStates,
      generatedStates: r.stats.generatedStates,
      depth: r.stats.depth,
      seconds: r.stats.seconds,
      finished: r.stoppedBy === undefined,
      ...(r.stoppedBy === undefined ? {} : { stoppedBy: r.stoppedBy }),
    };
    done.set(keyOf(values), m);
    options.onMeasured?.(m);
    return m;
  };
  const targets: Assignment = Object.fromEntries(parameters.map((p) => [p.key, p.target]));
  const target = await measure(targets);
  const lowered: Assignment = Object.fromEntries(parameters.map((p) => [p.key, Math.min(p.target, p.floor + 1)]));
  let base = target.finished || target.refused !== undefined ? target : await measure(lowered);
  if (!base.finished && base.refused === undefined) {
    // Still too large: one parameter one lower at a time; the largest of those that finish is the
    // base (the parameter lowered multiplies most, and its step up is the bound one).
    let best: Measurement | undefined;
    for (const p of parameters) {
      if (lowered[p.key] - 1 < p.floor) continue;
      const m = await measure({ ...lowered, [p.key]: lowered[p.key] - 1 });
      if (m.finished && (best === undefined || m.distinctStates > best.distinctStates)) best = m;
    }
    if (best !== undefined) base = best;
  }
  const growth: ParameterGrowth[] = [];
  for (const p of parameters) {
    const at = base.values[p.key];
    const points: Measurement[] = [];
    for (const v of [at - 1, at, at + 1].filter((x) => x >= p.floor)) points.push(v === at ? base : await measure({ ...base.values, [p.key]: v }));
    const up = points.find((m) => m.values[p.key] === at + 1);
    const down = points.find((m) => m.values[p.key] === at - 1);
    const usable = base.finished && base.distinctStates > 0;
    const factor = usable && up !== undefined && up.refused === undefined ? up.distinctStates / base.distinctStates : undefined;
    const downFactor = usable && down !== undefined && down.finished && down.distinctStates > 0 ? base.distinctStates / down.distinctStates : undefined;
    growth.push({ ...p, base: at, points, ...(factor === undefined ? {} : { factor }), factorAtLeast: up !== undefined && !up.finished, ...(downFactor === undefined ? {} : { downFactor }) });
  }
  // The one that multiplies most first: by its growth either side of the base (a step up that a
  // bound stopped says little, the step down to it may say more).
  const most = (g: ParameterGrowth): number => Math.max(g.factor ?? 0, g.downFactor ?? 0);
  growth.sort((a, b) => most(b) - most(a));
  const finished = [...done.values()].filter((m) => m.finished && m.seconds > 0).sort((a, b) => b.distinctStates - a.distinctStates)[0];
  return {
    target,
    base,
    parameters: growth,
    ...(finished === undefined ? {} : { statesPerSecond: finished.distinctStates / finished.seconds }),
    seconds: (performance.now() - started) / 1000,
    searches: done.size,
  };
}

/**
 * The states of the family at `values` (a key left out keeps its target), estimated as the
 * base's count times each parameter's growth per +1 for each step above its base, divided by
 * the growth measured from base − 1 to the base for each step below it. Exact where `values` were
 * searched to the end; interactions between parameters are not measured, so it is an order of
 * magnitude.
 */
export function estimateStates(size: FamilySize, values: Assignment = {}): SizeEstimate {
  const at: Assignment = Object.fromEntries(size.parameters.map((p) => [p.key, values[p.key] ?? p.target]));
  const measured = [size.base, size.target, ...size.parameters.flatMap((p) => p.points)].find((m) => m.refused === undefined && keyOf(m.values) === keyOf(at));
  if (measured !== undefined && measured.finished) return { distinctStates: measured.distinctStates, exact: true, atLeast: false };
  if (size.base.refused !== undefined) return { distinctStates: NaN, exact: false, atLeast: false, missing: `the base values are refused: ${size.base.refused}` };
  if (!size.base.finished) return { distinctStates: size.base.distinctStates, exact: false, atLeast: true, missing: 'the search at the base values did not finish within the bounds of each search' };
  let states = size.base.distinctStates;
  let atLeast = false;
  for (const p of size.parameters) {
    const steps = at[p.key] - p.base;
    if (steps > 0) {
      if (p.factor === undefined) return { distinctStates: NaN, exact: false, atLeast: false, missing: `${p.key} = ${p.base + 1} could not be measured` };
      states *= p.factor ** steps;
      atLeast ||= p.factorAtLeast;
    } else if (steps < 0) {
      if (p.downFactor === undefined) return { distinctStates: NaN, exact: false, atLeast: false, missing: `${p.key} = ${p.base - 1} could not be measured` };
      states /= p.downFactor ** -steps;
    }
  }
  return { distinctStates: Math.round(states), exact: false, atLeast };
}

/**
 * Values of the varied parameters, each at most its target, under which the family is estimated
 * to stay within `maxStates`: starting from the targets, the parameter whose step down saves the
 * most is lowered first, one step at a time, no lower than its floor. Undefined when lowering
 * them that far does not get there (or nothing can be estimated).
 */
export function boundsUnder(size: FamilySize, maxStates: number): { readonly values: Assignment; readonly estimate: SizeEstimate } | undefined {
  const values: Record<string, number> = Object.fromEntries(size.parameters.map((p) => [p.key, p.target]));
  for (;;) {
    const estimate = estimateStates(size, values);
    if (Number.isNaN(estimate.distinctStates)) return undefined;
    if (!estimate.atLeast && estimate.distinctStates <= maxStates) return { values, estimate };
    // The step down that divides the estimate most.
    let best: { key: string; by: number } | undefined;
    for (const p of size.parameters) {
      const v = values[p.key];
      const by = v > p.base ? p.factor : v - 1 >= p.floor ? p.downFactor : undefined;
      if (by !== undefined && by > 1 && (best === undefined || by > best.by)) best = { key: p.key, by };
    }
    if (best === undefined) return undefined;
    values[best.key] -= 1;
  }
}
