/**
 * Random exploration driven by fast-check: a run is a list of choices, each picking one of the
 * enabled steps of the current state (the same candidates, in the same order, as the breadth-first
 * search). fast-check generates the lists, checks every property at every step, shrinks a failing
 * list to a minimal one, and replays it exactly from its seed and path.
 *
 * It complements exhaustive search on spaces too large to exhaust; it never proves a property,
 * so its verdict is `violation` or `incomplete`, never `ok`.
 */
import fc from 'fast-check';
import { fingerprint } from './fingerprint.js';
import { FingerprintTable } from './fingerprintTable.js';
import type { ActionLabel, AnyActionDef, JsonValue, Model } from './model.js';
import { checkedProperties, outcomeOf, type CheckResult, type Trace } from './result.js';
import { labelOf, ordinalOf, successors } from './successors.js';
import { CheckerErrorCode, fail } from './errors.js';
import { initialStatesOf, selectProperties } from './validateModel.js';
import type { Property } from './properties.js';

export interface SimulateOptions {
  /** Number of random runs (default 100). */
  readonly runs?: number;
  /** Steps per run at most (default 200). */
  readonly maxSteps?: number;
  /** Seed; default: random, and reported. */
  readonly seed?: number;
  /** fast-check path of a failure to replay (with its seed). */
  readonly replay?: string;
  /** Check only these property ids. */
  readonly properties?: readonly string[];
  /** Use the model's canonicalisation for the coverage count (default true). */
  readonly symmetry?: boolean;
  /**
   * Wall-clock bound in seconds: no run starts after it, and a run under way stops at it (a long
   * `maxSteps` never hangs). Reported as `stoppedBy: { bound: 'time' }`.
   */
  readonly timeLimitSeconds?: number;
}

export interface SimulationResult<S> extends CheckResult<S> {
  /** `violation`, or `incomplete`: nothing violated in these runs (random runs prove nothing). */
  readonly verdict: 'violation' | 'incomplete';
  readonly seed: number;
  readonly runs: number;
  /** Steps taken over all runs (shrinking excluded). */
  readonly steps: number;
  /** fast-check path that, with `seed`, replays the failure. */
  readonly replay?: string;
}

/** Scratch lists reused across steps, so choosing a step allocates nothing per candidate. */
const scratchDefs: unknown[] = [];
const scratchParams: (JsonValue | undefined)[] = [];
const scratchOrdinals: number[] = [];

/**
 * One step chosen by `choice` among the enabled ones (guards only; nothing is applied until one
 * is chosen), or `undefined` in a state with none.
 */
function stepBy<S>(model: Model<S>, state: S, choice: number): { action: ActionLabel; ordinal: number; next: S } | undefined {
  let count = 0;
  let ordinal = 0;
  for (const def of model.actions) {
    const ps = def.params;
    if (ps === undefined) {
      const o = ordinal++;
      if (def.enabled === undefined || def.enabled(state, undefined)) {
        scratchDefs[count] = def;
        scratchParams[count] = undefined;
        scratchOrdinals[count++] = o;
      }
      continue;
    }
    const list = typeof ps === 'function' ? ps(state) : ps;
    for (let i = 0; i < list.length; i++) {
      const o = ordinal++;
      if (def.enabled === undefined || def.enabled(state, list[i])) {
        scratchDefs[count] = def;
        scratchParams[count] = list[i];
        scratchOrdinals[count++] = o;
      }
    }
  }
  // Try the chosen candidate first, then the following ones, if `apply` declines.
  for (let k = 0; k < count; k++) {
    const i = (choice + k) % count;
    const def = scratchDefs[i] as AnyActionDef<S>;
    const next = def.apply(state, scratchParams[i]);
    if (next !== undefined) return { action: labelOf(def, scratchParams[i]), ordinal: scratchOrdinals[i], next };
  }
  return undefined;
}

/** Replays at most this many candidate traces while minimising one failure. */
const MINIMISE_BUDGET = 20_000;

/**
 * Makes a failing trace short, by labels (index-based choices shrink poorly: removing one shifts
 * the meaning of the rest). First removes steps one at a time (the rest replayed as far as they
 * stay enabled) while the failure remains: a 1-minimal trace, as delta debugging gives. Then tries
 * replacing one step by another step enabled there, kept when it lets a removal follow (e.g. an
 * abort received from the TM replaced by an abort chosen by the RM, after which the TM's abort
 * goes). Bounded by a replay budget, so long traces stay cheap; not a proof of global minimality.
 */
function minimiseByLabels<S>(model: Model<S>, trace: Trace<S>, stillFails: (t: Trace<S>) => number): Trace<S> {
  let budget = MINIMISE_BUDGET;
  const attempt = (labels: readonly ActionLabel[], initial: number): Trace<S> | undefined => {
    budget--;
    const candidate = replayEnabledLabels(model, initial, labels);
    const cut = stillFails(candidate);
    return cut >= 0 ? cutTrace(candidate, cut) : undefined;
  };
  const removeSteps = (from: Trace<S>): Trace<S> => {
    let best = from;
    for (let drop = 0; drop < best.actions.length && budget > 0; drop++) {
      const shorter = attempt(best.actions.filter((_, i) => i !== drop), best.path.initial);
      if (shorter !== undefined && shorter.actions.length < best.actions.length) {
        best = shorter;
        drop = -1; // start over on the shorter trace
      }
    }
    return best;
  };
  let best = removeSteps(trace);
  let improved = true;
  while (improved && budget > 0) {
    improved = false;
    for (let at = 0; at < best.actions.length && !improved && budget > 0; at++) {
      for (const alternative of successors(model, best.states[at])) {
        if (budget <= 0) break;
        if (sameLabel(alternative.action, best.actions[at])) continue;
        const labels = best.actions.map((a, i) => (i === at ? alternative.action : a));
        const replaced = attempt(labels, best.path.initial);
        if (replaced === undefined || replaced.actions.length > best.actions.length) continue;
        const shorter = removeSteps(replaced);
        if (shorter.actions.length < best.actions.length) {
          best = shorter;
          improved = true;
          break;
        }
      }
    }
  }
  return best;
}

const sameLabel = (a: ActionLabel, b: ActionLabel): boolean =>
  a.name === b.name && JSON.stringify(a.param ?? null) === JSON.stringify(b.param ?? null);

/** Replays labels from an initial state, skipping any that is not enabled where it falls. */
function replayEnabledLabels<S>(model: Model<S>, initial: number, labels: readonly ActionLabel[]): Trace<S> {
  const states: S[] = [initialStatesOf(model)[initial]];
  const actions: ActionLabel[] = [];
  const steps: number[] = [];
  for (const label of labels) {
    const hit = ordinalOf(model, states[states.length - 1], label);
    if (hit === undefined) continue;
    states.push(hit.next);
    actions.push(label);
    steps.push(hit.ordinal);
  }
  return { states, actions, path: { initial, steps } };
}

function cutTrace<S>(trace: Trace<S>, steps: number): Trace<S> {
  return {
    states: trace.states.slice(0, steps + 1),
    actions: trace.actions.slice(0, steps),
    path: { initial: trace.path.initial, steps: trace.path.steps.slice(0, steps) },
  };
}

/** Follows `choices` from initial state `choices[0]`; stops early in a state with no step. */
export function traceOfChoices<S>(model: Model<S>, choices: readonly number[]): Trace<S> {
  const init = initialStatesOf(model);
  const initial = choices.length ? choices[0] % init.length : 0;
  const states: S[] = [init[initial]];
  const actions: ActionLabel[] = [];
  const steps: number[] = [];
  for (let i = 1; i < choices.length; i++) {
    const step = stepBy(model, states[states.length - 1], choices[i]);
    if (step === undefined) break;
    states.push(step.next);
    actions.push(step.action);
    steps.push(step.ordinal);
  }
  return { states, actions, path: { initial, steps } };
}

/**
 * An arbitrary of the model's behaviours (traces up to `maxSteps` steps), for users' own
 * fast-check properties: it shrinks towards shorter traces and earlier-listed actions.
 */
export function traceArbitrary<S>(model: Model<S>, options: { maxSteps?: number } = {}): fc.Arbitrary<Trace<S>> {
  return fc.array(fc.nat(), { minLength: 1, maxLength: (options.maxSteps ?? 200) + 1, size: 'max' }).map((choices) => traceOfChoices(model, choices));
}

/** A failure found in one run: which property, at which step (trace length). */
interface RunFailure {
  readonly property: string;
  readonly steps: number;
}

/** Runs one list of choices and returns the first failure (the trace cut at it), if any. */
function runOnce<S>(
  model: Model<S>,
  properties: readonly Property<S>[],
  choices: readonly number[],
  onState: (state: S) => void,
  onGoal: (id: string, trace: () => Trace<S>) => void,
  deadlock: boolean,
  outOfTime: () => boolean = () => false,
): RunFailure | undefined {
  const init = initialStatesOf(model);
  let state = init[choices.length ? choices[0] % init.length : 0];
  const observed = properties.map((p) => (p.kind === 'observer' ? p.initial(state) : undefined));
  const checkState = (s: S, i: number): RunFailure | undefined => {
    onState(s);
    for (let k = 0; k < properties.length; k++) {
      const p = properties[k];
      if (p.kind === 'invariant' && !p.holds(s)) return { property: p.id, steps: i };
      if (p.kind === 'observer' && !p.holds(observed[k], s)) return { property: p.id, steps: i };
      if (p.kind === 'reachable' && p.reached(s)) onGoal(p.id, () => traceOfChoices(model, choices.slice(0, i + 1)));
    }
    return undefined;
  };
  const first = checkState(state, 0);
  if (first) return first;
  for (let i = 1; i < choices.length; i++) {
    if ((i & 255) === 0 && outOfTime()) return undefined;
    const step = stepBy(model, state, choices[i]);
    if (step === undefined) return deadlock ? { property: 'deadlock', steps: i - 1 } : undefined;
    for (let k = 0; k < properties.length; k++) {
      const p = properties[k];
      if (p.kind === 'action' && !p.holds(state, step.action, step.next)) return { property: p.id, steps: i };
      if (p.kind === 'observer') observed[k] = p.step(observed[k], state, step.action, step.next);
    }
    state = step.next;
    const failure = checkState(state, i);
    if (failure) return failure;
  }
  return undefined;
}

/** The step at which property `id` fails along `trace` (0 = initial state), or -1. */
function failureStep<S>(model: Model<S>, property: Property<S> | 'deadlock', trace: Trace<S>): number {
  const { states, actions } = trace;
  if (property === 'deadlock') {
    return stepBy(model, states[states.length - 1], 0) === undefined ? states.length - 1 : -1;
  }
  let observed = property.kind === 'observer' ? property.initial(states[0]) : undefined;
  for (let i = 0; i < states.length; i++) {
    if (i > 0) {
      if (property.kind === 'action' && !property.holds(states[i - 1], actions[i - 1], states[i])) return i;
      if (property.kind === 'observer') observed = property.step(observed, states[i - 1], actions[i - 1], states[i]);
    }
    if (property.kind === 'invariant' && !property.holds(states[i])) return i;
    if (property.kind === 'observer' && !property.holds(observed, states[i])) return i;
  }
  return -1;
}

/** Random exploration with shrinking; see the module comment. */
export function simulate<S>(model: Model<S>, options: SimulateOptions = {}): SimulationResult<S> {
  const runs = options.runs ?? 100;
  const maxSteps = options.maxSteps ?? 200;
  for (const [name, v] of [['runs', runs], ['maxSteps', maxSteps]] as const) {
    if (!Number.isInteger(v) || v <= 0) fail(CheckerErrorCode.invalidBound, `${name} must be a positive integer, got ${String(v)}`);
  }
  const limit = options.timeLimitSeconds;
  if (limit !== undefined && !(Number.isFinite(limit) && limit > 0)) {
    fail(CheckerErrorCode.invalidBound, `timeLimitSeconds must be a positive number, got ${String(limit)}`);
  }
  if (options.seed !== undefined && !Number.isInteger(options.seed)) {
    fail(CheckerErrorCode.invalidBound, `seed must be an integer, got ${String(options.seed)}`);
  }
  const properties = selectProperties(model, options.properties);
  const deadlock = model.checkDeadlock === true && (options.properties === undefined || options.properties.includes('deadlock'));
  const canonicalize = (options.symmetry ?? true) && model.canonicalize ? model.canonicalize.bind(model) : undefined;
  const view = model.view?.bind(model);
  const visited = new FingerprintTable();
  let steps = 0;
  let longest = 0;
  let recording = true;
  const onState = (s: S): void => {
    if (!recording) return;
    steps++;
    let v: unknown = s;
    if (canonicalize) v = canonicalize(s);
    if (view) v = view(v as S);
    visited.insert(fingerprint(v), visited.size);
  };
  const witnesses = new Map<string, Trace<S>>();
  const onGoal = (id: string, trace: () => Trace<S>): void => {
    // The witness trace is rebuilt only the first time a goal is reached.
    if (recording && !witnesses.has(id)) witnesses.set(id, trace());
  };
  let lastFailure: RunFailure | undefined;
  const started = performance.now();
  let timedOut = false;
  const outOfTime = (): boolean => {
    if (limit !== undefined && !timedOut && performance.now() - started >= limit * 1000) timedOut = true;
    return timedOut;
  };
  const seed = options.seed ?? (Date.now() ^ (Math.random() * 0x7fffffff)) | 0;
  const details = fc.check(
    fc.property(fc.array(fc.nat(), { minLength: 1, maxLength: maxSteps + 1, size: 'max' }), (choices) => {
      if (recording && choices.length > longest) longest = choices.length;
      const failure = runOnce(model, properties, choices, onState, onGoal, deadlock, outOfTime);
      if (failure) {
        recording = false; // shrinking replays are not new coverage
        lastFailure = failure;
        return false;
      }
      return true;
    }),
    {
      numRuns: runs,
      seed,
      ...(options.replay === undefined ? {} : { path: options.replay, endOnFailure: true }),
      ...(limit === undefined ? {} : { interruptAfterTimeLimit: limit * 1000 }),
    },
  );
  const seconds = (performance.now() - started) / 1000;

  let failedId: string | undefined;
  let failedTrace: Trace<S> | undefined;
  if (details.failed && details.counterexample) {
    const choices = details.counterexample[0];
    // Rerun the minimal list to learn which property fails where, and cut the trace there.
    recording = false;
    const failure = runOnce(model, properties, choices, () => {}, () => {}, deadlock) ?? lastFailure;
    if (failure) {
      failedId = failure.property;
      const property = properties.find((p) => p.id === failure.property) ?? 'deadlock';
      const shrunk = cutTrace(traceOfChoices(model, choices), failure.steps);
      failedTrace = minimiseByLabels(model, shrunk, (t) => failureStep(model, property, t));
    }
  }
  // Random runs decide only what they saw: a violation or a witness; the rest stays unknown.
  const outcomes = checkedProperties(properties, deadlock).map((p) =>
    p.id === failedId
      ? outcomeOf<S>(p, 'violated', failedTrace)
      : witnesses.has(p.id)
        ? outcomeOf<S>(p, 'witnessed', witnesses.get(p.id))
        : outcomeOf<S>(p, 'unknown', undefined),
  );
  const rss = process.memoryUsage.rss();
  return {
    model: model.name,
    strategy: 'random',
    verdict: failedId !== undefined ? 'violation' : 'incomplete',
    properties: outcomes,
    stats: {
      distinctStates: visited.size,
      generatedStates: steps,
      depth: longest,
      seconds,
      statesPerSecond: seconds > 0 ? steps / seconds : 0,
      peakMemoryMB: rss / 1048576,
      bytesPerState: visited.size ? visited.bytes / visited.size : 0,
    },
    ...(failedId === undefined && (timedOut || details.interrupted) && limit !== undefined ? { stoppedBy: { bound: 'time' as const, limit } } : {}),
    seed: details.seed,
    runs: details.numRuns,
    steps,
    ...(details.failed && details.counterexamplePath ? { replay: details.counterexamplePath } : {}),
  };
}
