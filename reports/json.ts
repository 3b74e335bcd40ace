/**
 * `--json`: the outcome of `check` or `simulate` as one object that programs read. Its shape is
 * versioned by `schema` (now 1: fields may be added, none removed or changed without a new
 * number), documented in docs/command-line.md (`--json`):
 *
 * ```
 * { schema: 1, verdict, exitCode, command, scenario, model, config,
 *   properties: [{ id, kind, description, source, status, steps?, why? }],
 *   stats: { distinctStates, generatedStates, depth, seconds, statesPerSecond, peakMemoryMB (MiB, named so for compatibility), ... },
 *   stoppedBy: { bound, limit } | null,
 *   simulation?: { seed, runs, steps, replay, replayCommand, distinct, exhaustive? },
 *   liveness?: [{ id, description, status, lasso?: { loop, actions, length } }],
 *   counterexamples: [{ property, description, why?, steps, seconds, faultSteps, timeline: [...], final, itf }],
 *   counterexample: the first of them, or null }
 * ```
 *
 * `why` (a violated property whose `explain` hook says something) is the one line saying why the
 * counterexample's last state violates it, in the model's terms (`db-0 runs on node-1 and on node-3`).
 *
 * A timeline step's `changes` are structured: `{ path, keys, op, before, after, from, to }` with
 * `keys` the path as a list and `from`/`to` the values as JSON.
 */

/** The version of the `--json` and `result.json` shape. */
export const JSON_SCHEMA_VERSION = 1;
import { faultTest, type CheckResult, type JsonValue, type Model, type PropertyOutcome } from '../checker/index.js';
import { jsonOf, type Change } from './diff.js';
import { toItf, type ItfTrace } from './itf.js';
import { livenessSummary, searchOutcomes } from './liveness.js';
import { runVerdict, violationWhy, type RunInfo } from './outcome.js';
import { recordedInput } from './recorded.js';
import { presented, timelineSteps, traceDuration } from './timeline.js';

export interface TimelineJson {
  readonly step: number;
  /** Model time (seconds) when the step starts. */
  readonly time: number;
  readonly actor: string;
  readonly action: { readonly name: string; readonly param?: JsonValue };
  readonly summary: string;
  readonly to?: readonly string[];
  /** Components the step changed without a message (a node a fault cut off). */
  readonly affects?: readonly string[];
  /** A fault or an operator's action (the model's fault test). */
  readonly fault: boolean;
  readonly changes: readonly Change[];
}

export interface CounterexampleJson {
  readonly property: string;
  readonly description: string;
  /** Why the last state violates the property, in one line, from the property's `explain` hook (absent without one). */
  readonly why?: string;
  readonly steps: number;
  readonly seconds: number;
  /** Steps that are faults or operator actions. */
  readonly faultSteps: number;
  readonly timeline: readonly TimelineJson[];
  /** The last state: the model's description and the state as people read it (see Model.present). */
  readonly final: { readonly description: string | null; readonly state: JsonValue };
  readonly itf: ItfTrace;
}

/** The ITF of one property's trace, with the run's scenario and config in `#meta`. */
export function itfOf<S>(model: Model<S>, outcome: PropertyOutcome<S>, info: Pick<RunInfo, 'scenario' | 'config' | 'allowUnsafeConfig' | 'configInput' | 'extensionModules'>): ItfTrace {
  return toItf(outcome.trace!, {
    description: `${outcome.status === 'witnessed' ? 'witness of' : 'counterexample to'} ${outcome.id}: ${outcome.description}`,
    model: model.name,
    ...(info.scenario === undefined ? {} : { scenario: info.scenario }),
    ...(info.config === undefined ? {} : { config: info.config }),
    ...(info.allowUnsafeConfig ? { allowUnsafeConfig: true } : {}),
    ...recordedInput(info),
    property: outcome.id,
    status: outcome.status === 'witnessed' ? 'witnessed' : 'violated',
  });
}

/** A counterexample for programs: its timeline and its ITF trace. */
export function counterexampleJson<S>(model: Model<S>, outcome: PropertyOutcome<S>, info: RunInfo): CounterexampleJson {
  const trace = outcome.trace!;
  const steps = timelineSteps(model, trace);
  const isFault = faultTest(model);
  const faults = steps.map((s) => isFault?.(trace.states[s.index - 1], s.action, trace.states[s.index]) === true);
  const last = trace.states[trace.states.length - 1];
  const why = violationWhy(model, outcome);
  return {
    ...(info.allowUnsafeConfig ? { allowUnsafeConfig: true } : {}),
    property: outcome.id,
    description: outcome.description,
    ...(why === undefined ? {} : { why }),
    steps: steps.length,
    seconds: traceDuration(steps),
    faultSteps: faults.filter(Boolean).length,
    timeline: steps.map((s, i) => ({
      step: s.index,
      time: s.seconds,
      actor: s.actor,
      action: s.action,
      summary: s.summary,
      ...(s.to.length > 0 ? { to: s.to } : {}),
      ...(s.affects.length > 0 ? { affects: s.affects } : {}),
      fault: faults[i],
      changes: s.changes,
    })),
    final: { description: model.describeState ? model.describeState(last) : null, state: jsonOf(presented(model, last)) },
    itf: itfOf(model, outcome, info),
  };
}

/**
 * The `--json` object: the search's outcomes as `properties`, the liveness ones as `liveness`
 * (each violation's lasso in brief).
 */
export function outcomeJson<S>(model: Model<S>, result: CheckResult<S>, info: RunInfo, files: readonly string[] = []): Record<string, unknown> {
  const searched = searchOutcomes(result);
  const violated = searched.filter((p) => p.status === 'violated' && p.trace);
  const liveness = livenessSummary(result);
  const counterexamples = violated.map((p) => counterexampleJson(model, p, info));
  const whyOf = new Map(counterexamples.flatMap((c) => (c.why === undefined ? [] : [[c.property, c.why] as const])));
  const { verdict, exitCode } = runVerdict(result);
  return {
    schema: JSON_SCHEMA_VERSION,
    verdict,
    exitCode,
    command: info.command,
    scenario: info.scenario ?? null,
    model: model.name,
    config: info.config ?? null,
    ...recordedInput(info),
    properties: searched.map((p) => ({
      id: p.id,
      kind: p.kind,
      description: p.description,
      source: p.source ?? null,
      status: p.status,
      ...(p.trace ? { steps: p.trace.actions.length } : {}),
      ...(whyOf.has(p.id) ? { why: whyOf.get(p.id) } : {}),
    })),
    stats: result.stats,
    stoppedBy: result.stoppedBy ?? null,
    ...(info.simulation ? { simulation: info.simulation } : {}),
    ...(info.leftOut ? { leftOut: info.leftOut } : {}),
    ...(info.warnings || info.verdictWarnings ? { warnings: [...(info.warnings ?? []), ...(info.verdictWarnings ?? [])] } : {}),
    ...(info.notModelled ? { notModelled: info.notModelled } : {}),
    ...(liveness === undefined ? {} : { liveness }),
    counterexamples,
    counterexample: counterexamples[0] ?? null,
    ...(files.length > 0 ? { files } : {}),
  };
}
