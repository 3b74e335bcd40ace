/**
 * The liveness outcomes of a check (the result's `properties` of a liveness kind, see
 * `isLiveness`) as the reports give them: the kind the reports label them with, a summary record
 * for JSON, the terminal's section with each lasso as a timeline, and each lasso as an ITF trace
 * with its `loop` index for replay.
 */
import { isLiveness, type ActionLabel, type CheckResult, type Lasso, type Model, type PropertyOutcome, type PropertyStatus, type Trace } from '../checker/index.js';
import type { Palette } from './colors.js';
import { toItf } from './itf.js';
import type { RunInfo } from './outcome.js';
import { recordedInput } from './recorded.js';
import { formatTimeline } from './timeline.js';

/** A liveness property's outcome as the reports give it (`check --liveness`). */
export interface LivenessSummary {
  readonly id: string;
  readonly description: string;
  /** `holds`, `violated`, or `unknown` (not decided: see `reason`). */
  readonly status: PropertyStatus;
  /** Why it was not decided (its graph was too large to keep). */
  readonly reason?: string;
  /** A decided leads-to's: whether its premise holds in some explored state (false: it holds vacuously). */
  readonly premiseReached?: boolean;
  /** A violation's lasso: the step after which its cycle starts, its steps, and their number. */
  readonly lasso?: { readonly loop: number; readonly actions: readonly ActionLabel[]; readonly length: number };
}

/** The result's liveness outcomes, in order. */
export function livenessOutcomes<S>(result: Pick<CheckResult<S>, 'properties'>): PropertyOutcome<S>[] {
  return result.properties.filter(isLiveness);
}

/** The result's outcomes of the search, the liveness ones left out. */
export function searchOutcomes<S>(result: Pick<CheckResult<S>, 'properties'>): PropertyOutcome<S>[] {
  return result.properties.filter((p) => !isLiveness(p));
}

/**
 * The kind a report gives an outcome (table column, JUnit `classname`, SARIF rule kind):
 * `liveness` for every liveness kind (`eventually`, `always-eventually`, `leads-to`), else the
 * property's own.
 */
export function reportKind(outcome: Pick<PropertyOutcome<unknown>, 'kind'>): string {
  return isLiveness(outcome) ? 'liveness' : outcome.kind;
}

/** A lasso as a trace from its first state (the path is not kept: a lasso is not replayed by ordinals). */
export function lassoTrace<S>(lasso: Lasso<S>): Trace<S> {
  return { states: lasso.states, actions: lasso.actions, path: { initial: 0, steps: [] } };
}

/** The steps of a lasso's cycle, those after `loop` (0: the cycle is a stutter). */
export function cycleLength<S>(lasso: Lasso<S>): number {
  return lasso.actions.length - lasso.loop;
}

/** The result's liveness outcomes without their states; undefined when it checked none. */
export function livenessSummary<S>(result: Pick<CheckResult<S>, 'properties'>): LivenessSummary[] | undefined {
  const outcomes = livenessOutcomes(result);
  if (outcomes.length === 0) return undefined;
  return outcomes.map((l) => ({
    id: l.id,
    description: l.description,
    status: l.status,
    ...(l.reason === undefined ? {} : { reason: l.reason }),
    ...(l.premiseReached === undefined ? {} : { premiseReached: l.premiseReached }),
    ...(l.lasso ? { lasso: { loop: l.lasso.loop, actions: l.lasso.actions, length: l.lasso.actions.length } } : {}),
  }));
}

/**
 * The terminal's liveness section: each outcome, each violation's lasso as a timeline, where its
 * cycle starts. `fairness` says in the heading which steps the check takes to happen eventually
 * (the subject's words, e.g. the Kubernetes components' work).
 */
export function formatLiveness<S>(model: Model<S>, outcomes: readonly PropertyOutcome<S>[], c: Palette, fold: boolean, fairness?: string): string {
  const out = [c.bold(`liveness (whole graph, no symmetry${fairness === undefined ? '' : `; ${fairness}`})`)];
  const mark = (l: PropertyOutcome<S>): string => (l.status === 'holds' ? c.green('✓ ') : l.status === 'unknown' ? c.yellow('? ') : c.red('✗ '));
  const status = (l: PropertyOutcome<S>): string => (l.status === 'holds' ? c.green('holds') : l.status === 'unknown' ? c.yellow('unknown') : c.red('violated'));
  for (const l of outcomes) out.push(`  ${mark(l)}${l.id}  ${status(l)}  ${c.dim(l.description)}`);
  for (const l of outcomes) {
    if (l.lasso === undefined) continue;
    const cycle = cycleLength(l.lasso);
    out.push('', c.red(`✗ ${l.id}: a behaviour that never gets there, as a lasso: ${l.lasso.loop} steps, then a cycle of ${cycle === 0 ? 'stuttering' : `${cycle} steps`} back to the state after step ${l.lasso.loop}, forever`));
    out.push(formatTimeline(model, lassoTrace(l.lasso), { colors: c, fold, loop: l.lasso.loop }));
  }
  const failed = outcomes.filter((l) => l.status === 'violated').length;
  const undecided = outcomes.filter((l) => l.status === 'unknown');
  if (failed > 0) out.push('', c.red(`liveness: ${failed} ${failed === 1 ? 'property' : 'properties'} violated (exit 1)`));
  else if (undecided.length > 0) out.push('', c.yellow(`liveness: ${undecided.length} ${undecided.length === 1 ? 'property' : 'properties'} ${undecided[0].reason ?? 'not decided'} (exit 3 unless the safety verdict above is a violation)`));
  else out.push('', c.green('liveness: every property holds under fairness (exit by the safety verdict above)'));
  return out.join('\n');
}

/**
 * Each liveness violation as an ITF trace (file name and text) with its `loop` index (the ITF
 * format's field for a lasso: the last state equals `states[loop]`), which `kubecheck replay`
 * re-executes.
 */
export function lassoTraces<S>(model: Model<S>, result: Pick<CheckResult<S>, 'properties'>, info: RunInfo): { readonly id: string; readonly name: string; readonly content: string }[] {
  const key = (s: S): string => JSON.stringify(model.view ? model.view(s) : s);
  const roots = model.initialStates().map(key);
  return livenessOutcomes(result).flatMap((l) => {
    if (l.lasso === undefined) return [];
    const initial = Math.max(0, roots.indexOf(key(l.lasso.states[0])));
    const itf = toItf({ ...lassoTrace(l.lasso), path: { initial, steps: [] } }, {
      property: l.id,
      status: 'violated',
      ...(info.scenario === undefined ? {} : { scenario: info.scenario }),
      ...(info.config === undefined ? {} : { config: info.config }),
      ...(info.allowUnsafeConfig ? { allowUnsafeConfig: true } : {}),
      ...recordedInput(info),
    });
    return [{ id: l.id, name: `liveness-${l.id}.itf.json`, content: `${JSON.stringify({ ...itf, loop: l.lasso.loop }, null, 2)}\n` }];
  });
}
