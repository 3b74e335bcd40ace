/**
 * The liveness outcomes of a check (`CheckResult.liveness`) as the reports give them: a summary
 * record for JSON, the terminal's section with each lasso as a timeline, and each lasso as an ITF
 * trace with its `loop` index for replay.
 */
import type { ActionLabel, CheckResult, LivenessOutcome, Model } from '../checker/index.js';
import type { Palette } from './colors.js';
import { toItf } from './itf.js';
import type { RunInfo } from './outcome.js';
import { formatTimeline } from './timeline.js';

/** A liveness property's outcome as the reports give it (`check --liveness`). */
export interface LivenessSummary {
  readonly id: string;
  readonly description: string;
  readonly status: 'holds' | 'violated';
  /** A violation's lasso: the step after which its cycle starts, its steps, and their number. */
  readonly lasso?: { readonly loop: number; readonly actions: readonly ActionLabel[]; readonly length: number };
}

/** The result's liveness outcomes without their states; undefined when it checked none. */
export function livenessSummary<S>(result: Pick<CheckResult<S>, 'liveness'>): LivenessSummary[] | undefined {
  return result.liveness?.map((l) => ({
    id: l.id,
    description: l.description,
    status: l.status,
    ...(l.lasso ? { lasso: { loop: l.lasso.loop, actions: l.lasso.actions, length: l.lasso.actions.length } } : {}),
  }));
}

/**
 * The terminal's liveness section: each outcome, each violation's lasso as a timeline, where its
 * cycle starts. `fairness` says in the heading which steps the check takes to happen eventually
 * (the subject's words, e.g. the Kubernetes components' work).
 */
export function formatLiveness<S>(model: Model<S>, outcomes: readonly LivenessOutcome<S>[], c: Palette, fold: boolean, fairness?: string): string {
  const out = [c.bold(`liveness (whole graph, no symmetry${fairness === undefined ? '' : `; ${fairness}`})`)];
  for (const l of outcomes) out.push(`  ${l.status === 'holds' ? c.green('✓') : c.red('✗')} ${l.id}  ${l.status === 'holds' ? c.green('holds') : c.red('violated')}  ${c.dim(l.description)}`);
  for (const l of outcomes) {
    if (l.lasso === undefined) continue;
    const cycle = l.lasso.actions.length - l.lasso.loop;
    out.push('', c.red(`✗ ${l.id}: a behaviour that never gets there, as a lasso: ${l.lasso.loop} steps, then a cycle of ${cycle === 0 ? 'stuttering' : `${cycle} steps`} back to the state after step ${l.lasso.loop}, forever`));
    out.push(formatTimeline(model, { states: l.lasso.states, actions: l.lasso.actions, path: { initial: 0, steps: [] } }, { colors: c, fold, loop: l.lasso.loop }));
  }
  const failed = outcomes.filter((l) => l.status === 'violated').length;
  out.push('', failed === 0 ? c.green('liveness: every property holds under fairness (exit by the safety verdict above)') : c.red(`liveness: ${failed} ${failed === 1 ? 'property' : 'properties'} violated (exit 1)`));
  return out.join('\n');
}

/**
 * Each liveness violation as an ITF trace (file name and text) with its `loop` index (the ITF
 * format's field for a lasso: the last state equals `states[loop]`), which `kubecheck replay`
 * re-executes.
 */
export function lassoTraces<S>(model: Model<S>, result: Pick<CheckResult<S>, 'liveness'>, info: RunInfo): { readonly id: string; readonly name: string; readonly content: string }[] {
  const key = (s: S): string => JSON.stringify(model.view ? model.view(s) : s);
  const roots = model.initialStates().map(key);
  return (result.liveness ?? []).flatMap((l) => {
    if (l.lasso === undefined) return [];
    const initial = Math.max(0, roots.indexOf(key(l.lasso.states[0])));
    const itf = toItf({ states: l.lasso.states, actions: l.lasso.actions, path: { initial, steps: [] } }, {
      property: l.id,
      status: 'violated',
      ...(info.scenario === undefined ? {} : { scenario: info.scenario }),
      ...(info.config === undefined ? {} : { config: info.config }),
      ...(info.allowUnsafeConfig ? { allowUnsafeConfig: true } : {}),
    });
    return [{ id: l.id, name: `liveness-${l.id}.itf.json`, content: `${JSON.stringify({ ...itf, loop: l.lasso.loop }, null, 2)}\n` }];
  });
}
