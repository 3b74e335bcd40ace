/**
 * `--json`: the outcome of `check` or `simulate` as one object that programs read. Its shape is
 * documented in the README and stable once released:
 *
 * ```
 * { verdict, exitCode, command, scenario, model, config,
 *   properties: [{ id, kind, description, source, status, steps? }],
 *   stats: { distinctStates, generatedStates, depth, seconds, statesPerSecond, peakMemoryMB, ... },
 *   stoppedBy: { bound, limit } | null,
 *   simulation?: { seed, runs, steps, replay, replayCommand, distinct, exhaustive? },
 *   counterexample: { property, description, steps, seconds, timeline: [...], itf } | null }
 * ```
 */
import type { CheckResult, JsonValue, Model, PropertyOutcome } from '../checker/index.js';
import { toItf, type ItfTrace } from './itf.js';
import { exitCodeOf, type RunInfo } from './outcome.js';
import { timelineSteps, traceDuration } from './timeline.js';

export interface TimelineJson {
  readonly step: number;
  /** Model time (seconds) when the step starts. */
  readonly time: number;
  readonly actor: string;
  readonly action: { readonly name: string; readonly param?: JsonValue };
  readonly summary: string;
  readonly to?: readonly string[];
  readonly changes: readonly { readonly path: string; readonly before?: string; readonly after?: string }[];
}

export interface CounterexampleJson {
  readonly property: string;
  readonly description: string;
  readonly steps: number;
  readonly seconds: number;
  readonly timeline: readonly TimelineJson[];
  readonly itf: ItfTrace;
}

/** The ITF of one property's trace, with the run's scenario and config in `#meta`. */
export function itfOf<S>(model: Model<S>, outcome: PropertyOutcome<S>, info: Pick<RunInfo, 'scenario' | 'config' | 'allowUnsafeConfig'>): ItfTrace {
  return toItf(outcome.trace!, {
    description: `${outcome.status === 'witnessed' ? 'witness of' : 'counterexample to'} ${outcome.id}: ${outcome.description}`,
    model: model.name,
    ...(info.scenario === undefined ? {} : { scenario: info.scenario }),
    ...(info.config === undefined ? {} : { config: info.config }),
    ...(info.allowUnsafeConfig ? { allowUnsafeConfig: true } : {}),
    property: outcome.id,
    status: outcome.status === 'witnessed' ? 'witnessed' : 'violated',
  });
}

/** A counterexample for programs: its timeline and its ITF trace. */
export function counterexampleJson<S>(model: Model<S>, outcome: PropertyOutcome<S>, info: RunInfo): CounterexampleJson {
  const steps = timelineSteps(model, outcome.trace!);
  return {
    ...(info.allowUnsafeConfig ? { allowUnsafeConfig: true } : {}),
    property: outcome.id,
    description: outcome.description,
    steps: steps.length,
    seconds: traceDuration(steps),
    timeline: steps.map((s) => ({
      step: s.index,
      time: s.seconds,
      actor: s.actor,
      action: s.action,
      summary: s.summary,
      ...(s.to.length > 0 ? { to: s.to } : {}),
      changes: s.changes,
    })),
    itf: itfOf(model, outcome, info),
  };
}

/** The `--json` object. */
export function outcomeJson<S>(model: Model<S>, result: CheckResult<S>, info: RunInfo, files: readonly string[] = []): Record<string, unknown> {
  const first = result.properties.find((p) => p.status === 'violated' && p.trace);
  return {
    verdict: result.verdict,
    exitCode: exitCodeOf(result.verdict),
    command: info.command,
    scenario: info.scenario ?? null,
    model: model.name,
    config: info.config ?? null,
    properties: result.properties.map((p) => ({
      id: p.id,
      kind: p.kind,
      description: p.description,
      source: p.source ?? null,
      status: p.status,
      ...(p.trace ? { steps: p.trace.actions.length } : {}),
    })),
    stats: result.stats,
    stoppedBy: result.stoppedBy ?? null,
    ...(info.simulation ? { simulation: info.simulation } : {}),
    ...(info.leftOut ? { leftOut: info.leftOut } : {}),
    ...(info.warnings ? { warnings: info.warnings } : {}),
    counterexample: first ? counterexampleJson(model, first, info) : null,
    ...(files.length > 0 ? { files } : {}),
  };
}
