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
import { FingerprintTable } from './fingerprintTable.js';
import { faultTest, type ActionLabel, type AnyActionDef, type JsonValue, type Model } from './model.js';
import { Budget, fingerprintWithObservers, keyFunction, PropertySet } from './kernel.js';
import { outcomeOf, type CheckResult, type Trace } from './result.js';
import { labelOf, ordinalOf, parametersOf, successors } from './successors.js';
import { CheckerErrorCode, fail } from './errors.js';
import { initialStatesOf } from './validateModel.js';
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
  /**
   * Swarm runs (default true): each run allows a random subset of the fault kinds and takes them
   * at a rate of its own (see {@link Swarm}). `false`: every enabled step equally likely.
   */
  readonly swarm?: boolean;
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
  /** What the runs covered (before any shrinking). */
  readonly coverage: SimulationCoverage;
}

/** What random runs covered. */
export interface SimulationCoverage {
  /** Distinct states, counted as `check` counts them (symmetry, view, observers' states). */
  readonly distinctStates: number;
  /** Action names taken at least once, of `actions` in the model. */
  readonly actionsTaken: number;
  readonly actions: number;
  /** Steps that were faults or operator actions (by the model's fault test). */
  readonly faultSteps: number;
  /** Runs were swarm runs (the model has faults, told apart, and `swarm` was not turned off). */
  readonly swarm: boolean;
}

/**
 * fast-check takes a 32-bit seed; ours may be any safe integer (12345678901 stays 12345678901 in
 * every report), folded here to 32 bits the same way on every run.
 */
export function fastCheckSeed(seed: number): number {
  const hi = Math.floor(seed / 2 ** 32);
  return ((seed >>> 0) ^ Math.imul(hi | 0, 0x9e3779b1) ^ (hi / 2 ** 32) | 0) | 0;
}

/**
 * How one random run chooses its steps (swarm testing, Groce et al. 2012): a run leaves out some
 * kinds of fault altogether and draws how eagerly it takes the others, so that across runs a
 * fault happens early, late or never, alone or with others. Uniform choice among enabled steps
 * almost always takes every fault (and its repair) in the first few steps; a bug that needs a
 * fault, then a minute of quiet, then an operator's action is then out of reach.
 *
 * A run's swarm is drawn from one number, generated and shrunk by fast-check with the run's
 * choices, so a failure replays from its seed and path. Swarm 0 is the plain run: every step
 * equally likely, as {@link traceOfChoices} takes them.
 */
export interface Swarm {
  readonly seed: number;
  /** Share of choices that take an allowed fault when one is enabled (the rest: other steps). */
  readonly faultRate: number;
  /** Every fault kind allowed (else each one by a coin drawn from the seed and its name). */
  readonly allFaults: boolean;
}

const FAULT_RATES = [0.5, 0.2, 0.05, 0.01, 0.002] as const;

/** The swarm of a run from its drawn number; `undefined` (0) for the plain uniform run. */
export function swarmOf(seed: number): Swarm | undefined {
  if (seed === 0) return undefined;
  return { seed, faultRate: FAULT_RATES[seed % FAULT_RATES.length], allFaults: ((seed >>> 3) & 3) === 0 };
}

/** FNV-1a over the swarm seed and a fault's name: whether this run allows that kind of fault. */
function allows(swarm: Swarm, name: string): boolean {
  if (swarm.allFaults) return true;
  let h = 0x811c9dc5 ^ swarm.seed;
  for (let i = 0; i < name.length; i++) h = Math.imul(h ^ name.charCodeAt(i), 0x01000193);
  return ((h >>> 7) & 1) === 0;
}

/**
 * Which action names are faults, learned the first time each is enabled (random runs treat a
 * fault as a kind of action: the model's fault test is asked once per action name).
 */
class FaultKinds<S> {
  private readonly known = new Map<string, boolean>();
  private readonly test: ((before: S, action: ActionLabel, after: S) => boolean) | undefined;
  readonly taken = new Set<string>();
  faultSteps = 0;
  constructor(model: Model<S>) {
    this.test = faultTest(model);
  }
  get any(): boolean {
    return this.test !== undefined;
  }
  /** Some action seen so far is a fault. */
  get sawFault(): boolean {
    for (const v of this.known.values()) if (v) return true;
    return false;
  }
  isFault(def: AnyActionDef<S>, param: JsonValue | undefined, state: S): boolean {
    const hit = this.known.get(def.name);
    if (hit !== undefined || this.test === undefined) return hit === true;
    const after = def.apply(state, param);
    if (after === undefined) return false;
    const fault = this.test(state, labelOf(def, param), after);
    this.known.set(def.name, fault);
    return fault;
  }
}

/** Scratch lists reused across steps, so choosing a step allocates nothing per candidate. */
const scratchDefs: unknown[] = [];
const scratchParams: (JsonValue | undefined)[] = [];
const scratchOrdinals: number[] = [];
const scratchPool: number[] = [];

/**
 * One step chosen by `choice` among the enabled ones (guards only; nothing is applied until one
 * is chosen), or `undefined` in a state with none. With a swarm, the choice first picks faults
 * (those the run allows) or other steps by the run's fault rate, then one among them.
 */
function stepBy<S>(model: Model<S>, state: S, choice: number, swarm?: Swarm, kinds?: FaultKinds<S>): { action: ActionLabel; ordinal: number; next: S } | undefined {
  let count = 0;
  let ordinal = 0;
  for (const def of model.actions) {
    const list = parametersOf(def, state);
    for (let i = 0; i < list.length; i++) {
      const o = ordinal++;
      if (def.enabled === undefined || def.enabled(state, list[i])) {
        scratchDefs[count] = def;
        scratchParams[count] = list[i];
        scratchOrdinals[count++] = o;
      }
    }
  }
  let pool = count;
  let pick = choice;
  if (swarm !== undefined && kinds !== undefined && kinds.any && count > 0) {
    // Sort the candidates' positions into allowed faults, other steps and left-out faults.
    let faults = 0;
    let others = 0;
    const kindOf = new Array<number>(count);
    for (let i = 0; i < count; i++) {
      const def = scratchDefs[i] as AnyActionDef<S>;
      const k = !kinds.isFault(def, scratchParams[i], state) ? 1 : allows(swarm, def.name) ? 0 : 2;
      kindOf[i] = k;
      if (k === 0) faults++;
      else if (k === 1) others++;
    }
    const wanted = faults > 0 && (others === 0 || choice % 1000 < swarm.faultRate * 1000) ? 0 : others > 0 ? 1 : 2;
    pool = 0;
    for (let i = 0; i < count; i++) if (kindOf[i] === wanted) scratchPool[pool++] = i;
    for (let i = 0; i < count; i++) if (kindOf[i] !== wanted) scratchPool[pool++] = i;
    pool = wanted === 0 ? faults : wanted === 1 ? others : count - faults - others;
    pick = Math.floor(choice / 1000);
  } else {
    for (let i = 0; i < count; i++) scratchPool[i] = i;
  }
  // Try the chosen candidate first, then the following ones of its group, then the rest, if `apply` declines.
  for (let k = 0; k < count; k++) {
    const i = scratchPool[k < pool ? (pick + k) % pool : k];
    const def = scratchDefs[i] as AnyActionDef<S>;
    const next = def.apply(state, scratchParams[i]);
    if (next !== undefined) {
      if (kinds !== undefined) {
        kinds.taken.add(def.name);
        if (kinds.isFault(def, scratchParams[i], state)) kinds.faultSteps++;
      }
      return { action: labelOf(def, scratchParams[i]), ordinal: scratchOrdinals[i], next };
    }
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
  return traceOfRun(model, choices);
}

/** {@link traceOfChoices} under a run's swarm. */
function traceOfRun<S>(model: Model<S>, choices: readonly number[], swarm?: Swarm, kinds?: FaultKinds<S>): Trace<S> {
  const init = initialStatesOf(model);
  const initial = choices.length ? choices[0] % init.length : 0;
  const states: S[] = [init[initial]];
  const actions: ActionLabel[] = [];
  const steps: number[] = [];
  for (let i = 1; i < choices.length; i++) {
    const step = stepBy(model, states[states.length - 1], choices[i], swarm, kinds);
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
  refuseLongRuns(options.maxSteps ?? 200);
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
  props: PropertySet<S>,
  run: { readonly choices: readonly number[]; readonly swarm: Swarm | undefined; readonly kinds: FaultKinds<S> },
  onState: (state: S, observed: readonly unknown[]) => void,
  onGoal: (id: string, trace: () => Trace<S>) => void,
  outOfTime: () => boolean = () => false,
): RunFailure | undefined {
  const { choices, swarm, kinds } = run;
  const init = initialStatesOf(model);
  let state = init[choices.length ? choices[0] % init.length : 0];
  const { actions, observers } = props;
  const observed = observers.map((ob) => ob.initial(state));
  // State properties in the model's order: goals reached before the first violation are reported.
  const checkState = (s: S, i: number): RunFailure | undefined => {
    onState(s, observed);
    for (let j = props.decidedOn(s, observed); j >= 0; j = props.decidedOn(s, observed, j + 1)) {
      const p = props.stateProperties[j];
      if (p.kind !== 'reachable') return { property: p.id, steps: i };
      onGoal(p.id, () => traceOfRun(model, choices.slice(0, i + 1), swarm, kinds));
    }
    return undefined;
  };
  const first = checkState(state, 0);
  if (first) return first;
  for (let i = 1; i < choices.length; i++) {
    if ((i & 255) === 0 && outOfTime()) return undefined;
    const step = stepBy(model, state, choices[i], swarm, kinds);
    if (step === undefined) return props.checkDeadlock ? { property: 'deadlock', steps: i - 1 } : undefined;
    for (const p of actions) if (!p.holds(state, step.action, step.next)) return { property: p.id, steps: i };
    for (let k = 0; k < observers.length; k++) observed[k] = observers[k].step(observed[k], state, step.action, step.next);
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

/**
 * The longest random run (`maxSteps`; `kubecheck simulate --max-steps`): fast-check draws and
 * holds a run's choices in memory while it runs and shrinks it, so more would abort the process.
 */
export const MAX_SIMULATE_STEPS = 1_000_000;

/** Refuses (KC003) `maxSteps` above {@link MAX_SIMULATE_STEPS}. */
function refuseLongRuns(maxSteps: number): void {
  if (maxSteps > MAX_SIMULATE_STEPS) {
    fail(CheckerErrorCode.invalidBound, `maxSteps must be at most ${MAX_SIMULATE_STEPS.toLocaleString('en-US')}, got ${String(maxSteps)}: each run's choices are held in memory (ten million take gigabytes); for deep behaviours use check`);
  }
}

/** Random exploration with shrinking; see the module comment. */
export function simulate<S>(model: Model<S>, options: SimulateOptions = {}): SimulationResult<S> {
  const runs = options.runs ?? 100;
  const maxSteps = options.maxSteps ?? 200;
  for (const [name, v] of [['runs', runs], ['maxSteps', maxSteps]] as const) {
    if (!Number.isInteger(v) || v <= 0) fail(CheckerErrorCode.invalidBound, `${name} must be a positive integer, got ${String(v)}`);
  }
  refuseLongRuns(maxSteps);
  const limit = options.timeLimitSeconds;
  if (limit !== undefined && !(Number.isFinite(limit) && limit > 0)) {
    fail(CheckerErrorCode.invalidBound, `timeLimitSeconds must be a positive number, got ${String(limit)}`);
  }
  if (options.seed !== undefined && !Number.isInteger(options.seed)) {
    fail(CheckerErrorCode.invalidBound, `seed must be an integer, got ${String(options.seed)}`);
  }
  const props = new PropertySet(model, options.properties);
  // Coverage counts states as `check` does: the same key (view of the canonical form) with the
  // observers' own states, so the two figures compare.
  const key = keyFunction(model, (options.symmetry ?? true) && model.canonicalize !== undefined);
  const visited = new FingerprintTable();
  const kinds = new FaultKinds(model);
  const swarming = options.swarm ?? true;
  let steps = 0;
  let longest = 0;
  let recording = true;
  let covered: { actions: number; faultSteps: number } | undefined;
  const onState = (s: S, observed: readonly unknown[]): void => {
    if (!recording) return;
    steps++;
    visited.add(fingerprintWithObservers(key(s), props.observers, observed));
  };
  const stopRecording = (): void => {
    if (recording) covered = { actions: kinds.taken.size, faultSteps: kinds.faultSteps };
    recording = false;
  };
  const witnesses = new Map<string, Trace<S>>();
  const onGoal = (id: string, trace: () => Trace<S>): void => {
    // The witness trace is rebuilt only the first time a goal is reached.
    if (recording && !witnesses.has(id)) witnesses.set(id, trace());
  };
  let lastFailure: RunFailure | undefined;
  const budget = new Budget({ timeLimitSeconds: limit });
  let timedOut = false;
  const outOfTime = (): boolean => (timedOut ||= budget.outOfTime());
  const seed = options.seed ?? Math.floor(Math.random() * 2 ** 32);
  const details = fc.check(
    fc.property(fc.nat(), fc.array(fc.nat(), { minLength: 1, maxLength: maxSteps + 1, size: 'max' }), (swarmSeed, choices) => {
      if (recording && choices.length > longest) longest = choices.length;
      const run = { choices, swarm: swarming ? swarmOf(swarmSeed) : undefined, kinds };
      const failure = runOnce(model, props, run, onState, onGoal, outOfTime);
      if (failure) {
        stopRecording(); // shrinking replays are not new coverage
        lastFailure = failure;
        return false;
      }
      return true;
    }),
    {
      numRuns: runs,
      seed: fastCheckSeed(seed),
      // The failing run is minimised by labels below, which shrinks far better than fast-check's
      // index-based shrinking (and in a bounded time on runs of hundreds of steps).
      endOnFailure: true,
      ...(options.replay === undefined ? {} : { path: options.replay, endOnFailure: true }),
      ...(limit === undefined ? {} : { interruptAfterTimeLimit: limit * 1000 }),
    },
  );
  const seconds = budget.seconds();

  let failedId: string | undefined;
  let failedTrace: Trace<S> | undefined;
  if (details.failed && details.counterexample) {
    const [swarmSeed, choices] = details.counterexample;
    const run = { choices, swarm: swarming ? swarmOf(swarmSeed) : undefined, kinds };
    // Rerun the minimal list to learn which property fails where, and cut the trace there.
    stopRecording();
    const failure = runOnce(model, props, run, () => {}, () => {}) ?? lastFailure;
    if (failure) {
      failedId = failure.property;
      const property = props.selected.find((p) => p.id === failure.property) ?? 'deadlock';
      const shrunk = cutTrace(traceOfRun(model, choices, run.swarm, kinds), failure.steps);
      failedTrace = minimiseByLabels(model, shrunk, (t) => failureStep(model, property, t));
    }
  }
  // Random runs decide only what they saw: a violation or a witness; the rest stays unknown.
  const outcomes = props.checked().map((p) =>
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
      engine: 'random',
      distinctStates: visited.size,
      generatedStates: steps,
      depth: longest,
      seconds,
      statesPerSecond: seconds > 0 ? steps / seconds : 0,
      peakMemoryMB: rss / 1048576,
      bytesPerState: visited.size ? visited.bytes / visited.size : 0,
    },
    ...(failedId === undefined && (timedOut || details.interrupted) && limit !== undefined ? { stoppedBy: { bound: 'time' as const, limit } } : {}),
    seed,
    runs: details.numRuns,
    steps,
    coverage: {
      distinctStates: visited.size,
      actionsTaken: (covered ?? { actions: kinds.taken.size }).actions,
      actions: new Set(model.actions.map((a) => a.name)).size,
      faultSteps: (covered ?? { faultSteps: kinds.faultSteps }).faultSteps,
      swarm: swarming && kinds.sawFault,
    },
    ...(details.failed && details.counterexamplePath ? { replay: details.counterexamplePath } : {}),
  };
}

/**
 * Drops the steps of a counterexample that the violation does not need: steps are removed (and
 * replaced by other enabled ones) while the rest still replays and still violates `propertyId`,
 * within a replay budget. A breadth-first counterexample is already as short as any, so this
 * shortens depth-first and hand-made traces; it never lengthens one. Goals and unknown ids are
 * returned as they are.
 */
export function minimizeTrace<S>(model: Model<S>, propertyId: string, trace: Trace<S>): Trace<S> {
  const property = propertyId === 'deadlock' ? 'deadlock' : model.properties.find((p) => p.id === propertyId);
  if (property === undefined || (property !== 'deadlock' && property.kind === 'reachable')) return trace;
  const at = failureStep(model, property, trace);
  if (at < 0) return trace;
  const shorter = minimiseByLabels(model, cutTrace(trace, at), (t) => failureStep(model, property, t));
  return shorter.actions.length < trace.actions.length ? shorter : trace;
}
