/**
 * `kubecheck explain [SCENARIO]`: narrates one run of a scenario as a timeline with real times
 * from the config. The run is produced by the model, not written by hand: breadth-first search
 * finds the shortest run reaching each of the scenario's reachability goals (e.g. for
 * node-failure: node-marked-unknown, pod-evicted, replacement-running), and the longest of those
 * runs, which passes through the others, is told step by step.
 */
import { check, type Property } from '../../checker/index.js';
import { formatTime } from '../../reports/duration.js';
import { fail, ToolErrorCode } from '../../reports/errors.js';
import { counterexampleJson } from '../../reports/json.js';
import { evaluateAlong } from '../../reports/replay.js';
import { formatTimeline, timelineSteps } from '../../reports/timeline.js';
import { resolveFromOptions, type ConfigOptions } from '../subjects.js';
import { progressReporter, stdoutPalette } from '../terminal.js';

export interface ExplainOptions extends ConfigOptions {
  readonly goal?: string[];
  readonly changes?: boolean;
  readonly allSteps?: boolean;
  readonly maxStates?: number;
  readonly timeLimit?: number;
  readonly json?: boolean;
  readonly color?: boolean;
}

export async function runExplain(scenarioArg: string | undefined, opts: ExplainOptions): Promise<number> {
  if (scenarioArg && opts.scenario && scenarioArg !== opts.scenario) fail(ToolErrorCode.badOption, `scenario "${scenarioArg}" and --scenario ${opts.scenario} disagree`);
  const r = await resolveFromOptions({ ...opts, ...(scenarioArg ? { scenario: scenarioArg } : {}) });
  const model = r.model;
  const reachable = model.properties.filter((p) => p.kind === 'reachable');
  let goals: Property<unknown>[];
  if (opts.goal && opts.goal.length > 0) {
    goals = opts.goal.map((id) => reachable.find((p) => p.id === id) ?? fail(ToolErrorCode.unknownProperty, `unknown goal "${id}"; the reachability goals are: ${reachable.map((p) => p.id).join(', ') || '(none)'}`));
  } else {
    goals = reachable.filter((p) => r.defaultProperties.includes(p.id));
    if (goals.length === 0) goals = reachable;
  }
  if (goals.length === 0) fail(ToolErrorCode.unknownProperty, `scenario ${r.scenario} has no reachability goal to narrate a run towards; try kubecheck check --scenario ${r.scenario}`);
  const progress = progressReporter();
  let result;
  try {
    result = check(model, {
      properties: goals.map((g) => g.id),
      ...(opts.maxStates ? { maxStates: opts.maxStates } : {}),
      ...(opts.timeLimit ? { timeLimitSeconds: opts.timeLimit } : {}),
      ...(progress ? { onProgress: progress.onProgress } : {}),
    });
  } finally {
    progress?.stop();
  }
  const witnessed = result.properties.filter((p) => p.status === 'witnessed' && p.trace);
  if (witnessed.length === 0) {
    const why = result.verdict === 'incomplete' ? 'the search stopped at a bound first (raise --max-states or --time-limit)' : 'no run reaches them';
    process.stderr.write(`kubecheck: no goal of ${r.scenario} (${goals.map((g) => g.id).join(', ')}) was reached: ${why}\n`);
    return result.verdict === 'incomplete' ? 3 : 1;
  }
  const story = witnessed.reduce((a, b) => (b.trace!.actions.length > a.trace!.actions.length ? b : a));
  const trace = story.trace!;
  const steps = timelineSteps(model, trace);
  const timeAt = (i: number): number => steps.slice(0, i).reduce((t, s) => t + s.elapsed, 0);
  const reached = goals.map((g) => ({ id: g.id, at: evaluateAlong(model, g, trace) })).filter((g) => g.at >= 0).sort((a, b) => a.at - b.at);
  if (opts.json) {
    const cx = counterexampleJson(model, story, { command: 'check', scenario: r.scenario, config: r.config });
    process.stdout.write(`${JSON.stringify({ scenario: r.scenario, config: r.config, goal: story.id, goals: reached.map((g) => ({ id: g.id, step: g.at, time: timeAt(g.at) })), run: cx }, null, 2)}\n`);
    return 0;
  }
  const c = stdoutPalette(opts.color === false);
  const description = r.subject.scenarios.find((s) => s.name === r.scenario)?.description;
  const out: string[] = [];
  out.push(c.bold(`${r.scenario}${description ? `: ${description}` : ''}`));
  out.push(c.dim(`One run produced by the model (the shortest that reaches ${story.id}), ${trace.actions.length} steps; times from the config.`), '');
  out.push(formatTimeline(model, trace, { colors: c, changes: opts.changes === true, foldTime: opts.allSteps !== true, foldRoutine: opts.allSteps !== true }));
  out.push('');
  for (const g of reached) out.push(`${c.green('✓')} ${g.id.padEnd(Math.max(...reached.map((x) => x.id.length)))}  reached at ${formatTime(timeAt(g.at))} (step ${g.at})`);
  process.stdout.write(`${out.join('\n')}\n`);
  return 0;
}
