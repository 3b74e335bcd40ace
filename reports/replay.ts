/**
 * `kubecheck replay`: re-executes an ITF trace step by step on a model and confirms what it
 * claims. Each label must be an enabled step of the state reached, and each state reached must
 * equal, in its ITF encoding, the state saved in the file; the first step that fails either test is
 * named. Then the property named in `#meta` is evaluated along the replayed trace.
 */
import { successors, type ActionLabel, type LivenessProperty, type Model, type Property, type Trace } from '../checker/index.js';
import { formatAction, replayLabels } from '../checker/index.js';
import { initialStateAt } from '../checker/validateModel.js';
import { fail, ToolErrorCode } from './errors.js';
import { canonicalItf, normaliseItf, stateVars, type ItfValue, type ParsedItf } from './itf.js';

/** What a replay showed. `replayed`: every step replays and the trace names no property. */
export interface ReplayReport<S> {
  readonly trace: Trace<S>;
  readonly outcome: 'violated' | 'witnessed' | 'replayed';
  readonly property?: string;
  /** State index (0 = initial) where the property fails or the goal is reached. */
  readonly at?: number;
}

/** The first variable whose values differ, compared in one form ({"#bigint": "10"} equals 10; sets in any order). */
function firstDifference(saved: Record<string, ItfValue>, replayed: Record<string, ItfValue>): string | undefined {
  const keys = [...new Set([...Object.keys(saved), ...Object.keys(replayed)])];
  const same = (a: ItfValue, b: ItfValue): boolean => canonicalItf(a) === canonicalItf(b) || canonicalItf(normaliseItf(a)) === canonicalItf(normaliseItf(b));
  return keys.find((k) => saved[k] === undefined || replayed[k] === undefined || !same(saved[k], replayed[k]));
}

/**
 * State index at which `property` fails (invariant, action, observer, deadlock) or is reached
 * (reachability) along `trace`, or -1 if it never does.
 */
export function evaluateAlong<S>(model: Model<S>, property: Property<S> | 'deadlock', trace: Trace<S>): number {
  const { states, actions } = trace;
  if (property === 'deadlock') return successors(model, states[states.length - 1]).length === 0 ? states.length - 1 : -1;
  switch (property.kind) {
    case 'invariant':
      return states.findIndex((s) => !property.holds(s));
    case 'reachable':
      return states.findIndex((s) => property.reached(s));
    case 'action':
      for (let i = 0; i < actions.length; i++) if (!property.holds(states[i], actions[i], states[i + 1])) return i + 1;
      return -1;
    case 'observer': {
      let o = property.initial(states[0]);
      if (!property.holds(o, states[0])) return 0;
      for (let i = 0; i < actions.length; i++) {
        o = property.step(o, states[i], actions[i], states[i + 1]);
        if (!property.holds(o, states[i + 1])) return i + 1;
      }
      return -1;
    }
  }
}

/** Replays `itf` on `model`; throws KC205 at the first step that diverges, KC206 if the claim is not reproduced. */
export function replayItf<S>(model: Model<S>, itf: ParsedItf, liveness: readonly LivenessProperty<S>[] = []): ReplayReport<S> {
  const init = initialStateAt(model, itf.initial);
  if (!init.found) fail(ToolErrorCode.traceDiverges, `the trace starts in initial state ${itf.initial}, but the model has ${init.count}`);
  const first = firstDifference(itf.states[0], stateVars(init.state));
  if (first !== undefined) {
    fail(ToolErrorCode.traceDiverges, `the initial state differs in "${first}" from the one the model builds from the trace's scenario and config (an edited trace, or one from another version?)`);
  }
  const run = replayLabels(model, itf.labels, itf.initial);
  if (!run.ok) {
    fail(ToolErrorCode.traceDiverges, `step ${run.failedStep} (${formatAction(run.action)}) is not an enabled step of the state reached; the trace no longer replays`);
  }
  const trace = run.trace;
  for (let i = 1; i < trace.states.length; i++) {
    const diff = firstDifference(itf.states[i], stateVars(trace.states[i]));
    if (diff !== undefined) {
      fail(ToolErrorCode.traceDiverges, `step ${i} (${formatAction(trace.actions[i - 1] as ActionLabel)}) leads to a state that differs from the saved one in "${diff}"`);
    }
  }
  const id = itf.meta.property;
  if (id === undefined) return { trace, outcome: 'replayed' };
  const live = liveness.find((l) => l.id === id);
  if (live !== undefined) return replayLasso(model, live, itf, trace);
  const property = id === 'deadlock' && model.checkDeadlock ? 'deadlock' : model.properties.find((p) => p.id === id);
  if (property === undefined) {
    fail(ToolErrorCode.traceMismatch, `the trace is for property "${id}", which this model does not have; known: ${model.properties.map((p) => p.id).join(', ')}`);
  }
  const at = evaluateAlong(model, property, trace);
  const goal = property !== 'deadlock' && property.kind === 'reachable';
  if (at < 0) {
    fail(ToolErrorCode.traceNotReproduced, `the trace replays, but ${goal ? `goal "${id}" is never reached` : `property "${id}" holds`} along it`);
  }
  return { trace, outcome: goal ? 'witnessed' : 'violated', property: id, at };
}

/**
 * A liveness lasso replays when its last state is its `loop` state again and the property's goal
 * fails on every state of the cycle (and, for `eventually`, of the whole lasso), so the cycle can
 * be taken forever without the goal.
 */
function replayLasso<S>(model: Model<S>, live: LivenessProperty<S>, itf: ParsedItf, trace: Trace<S>): ReplayReport<S> {
  const loop = itf.loop;
  if (loop === undefined) fail(ToolErrorCode.traceMismatch, `the trace is for liveness property "${live.id}" but has no "loop" index: a liveness violation is a lasso`);
  const key = (s: S): string => JSON.stringify(model.view ? model.view(s) : s);
  const states = trace.states;
  if (key(states[states.length - 1]) !== key(states[loop])) {
    fail(ToolErrorCode.traceNotReproduced, `the trace replays, but its last state is not state ${loop} again: no cycle closes there`);
  }
  const from = live.kind === 'eventually' ? 0 : loop;
  const reached = states.slice(from).findIndex((s) => live.q(s));
  if (reached >= 0) fail(ToolErrorCode.traceNotReproduced, `the trace replays, but "${live.id}" reaches its goal at state ${from + reached}`);
  return { trace, outcome: 'violated', property: live.id, at: states.length - 1 };
}

/**
 * KC204 when a trace contradicts itself: `#meta.scenario` names one scenario and the config in
 * `#meta.config` another (an edited trace); the model would be built for neither faithfully.
 */
export function checkTraceMeta(meta: ParsedItf['meta'], file: string): void {
  const config = meta.config;
  const inConfig = typeof config === 'object' && config !== null && !Array.isArray(config) ? (config as Record<string, unknown>).scenario : undefined;
  if (inConfig !== undefined && meta.scenario !== undefined && inConfig !== meta.scenario) {
    fail(ToolErrorCode.traceMismatch, `${file} contradicts itself: its #meta.scenario is "${meta.scenario}" but its #meta.config is for ${JSON.stringify(inConfig)?.slice(0, 40)}`);
  }
}

/** The value at a dotted path of a JSON object, for messages. */
export function valueAt(value: unknown, path: string): unknown {
  let v = value;
  for (const k of path.split('.')) v = typeof v === 'object' && v !== null ? (v as Record<string, unknown>)[k] : undefined;
  return v;
}

/** Names the first config field whose value differs (dotted path), or undefined when equal. */
export function configDifference(a: unknown, b: unknown, path = ''): string | undefined {
  if (canonicalItf(a as ItfValue) === canonicalItf(b as ItfValue)) return undefined;
  if (typeof a === 'object' && a !== null && typeof b === 'object' && b !== null && !Array.isArray(a) && !Array.isArray(b)) {
    const ra = a as Record<string, unknown>;
    const rb = b as Record<string, unknown>;
    for (const k of [...new Set([...Object.keys(ra), ...Object.keys(rb)])].sort()) {
      const d = configDifference(ra[k], rb[k], path ? `${path}.${k}` : k);
      if (d !== undefined) return d;
    }
  }
  return path || '(config)';
}
