/**
 * `kubecheck explain [SCENARIO]`: narrates one run of a scenario as a timeline with real times
 * from the config. The run is produced by the model, not written by hand: breadth-first search
 * finds the shortest run reaching each of the scenario's reachability goals (e.g. for
 * node-failure: node-marked-unknown, pod-evicted, replacement-running), and the longest of those
 * runs, which passes through the others, is told step by step.
 *
 * Times count from the failure (the run's first fault: T+0s is the crash, what came before is
 * T-9s), and the narration says where in its heartbeat cycle the failed node was: the timeouts
 * that follow run from its last Lease renewal, not from the crash. Routine work that repeats
 * identically (renewals, passes that change nothing) is folded into one line.
 */
import { jsonText } from '../../checker/escape.js';
import { check, faultTest, type Model, type Property, type Trace } from '../../checker/index.js';
import { formatDuration, formatTime } from '../../checker/duration.js';
import { fail, ToolErrorCode } from '../../reports/errors.js';
import { counterexampleJson } from '../../reports/json.js';
import { evaluateAlong } from '../../reports/replay.js';
import { formatTimeline, presented, timelineSteps, type TimelineStep } from '../../reports/timeline.js';
import { resolveFromOptions, type ConfigOptions } from '../subjects.js';
import { printErr, printOut, progressReporter, stdoutPalette } from '../terminal.js';

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
      ...(progress ? { onProgress: progress.onProgress, progressIntervalMs: progress.intervalMs } : {}),
    });
  } finally {
    progress?.stop();
  }
  const witnessed = result.properties.filter((p) => p.status === 'witnessed' && p.trace);
  if (witnessed.length === 0) {
    const why = result.verdict === 'incomplete' ? 'the search stopped at a bound first (raise --max-states or --time-limit)' : 'no run reaches them';
    printErr(`kubecheck: no goal of ${r.scenario} (${goals.map((g) => g.id).join(', ')}) was reached: ${why}\n`);
    return result.verdict === 'incomplete' ? 3 : 1;
  }
  const story = witnessed.reduce((a, b) => (b.trace!.actions.length > a.trace!.actions.length ? b : a));
  const trace = story.trace!;
  const steps = timelineSteps(model, trace);
  const timeAt = (i: number): number => steps.slice(0, i).reduce((t, s) => t + s.elapsed, 0);
  const reached = goals.map((g) => ({ id: g.id, at: evaluateAlong(model, g, trace) })).filter((g) => g.at >= 0).sort((a, b) => a.at - b.at);
  const failure = failureOf(model, trace, steps);
  const origin = failure?.step.seconds ?? 0;
  if (opts.json) {
    const cx = counterexampleJson(model, story, { command: 'check', scenario: r.scenario, config: r.config });
    const fail = failure === undefined ? null : { step: failure.step.index, time: failure.step.seconds, actor: failure.step.actor, summary: failure.step.summary, ...(failure.phase ? { heartbeat: failure.phase } : {}) };
    process.stdout.write(`${jsonText({ scenario: r.scenario, config: r.config, goal: story.id, failure: fail, goals: reached.map((g) => ({ id: g.id, step: g.at, time: timeAt(g.at), sinceFailure: timeAt(g.at) - origin })), run: cx })}\n`);
    return 0;
  }
  const c = stdoutPalette(opts.color === false);
  const description = r.subject.scenarios.find((s) => s.name === r.scenario)?.description;
  const out: string[] = [];
  out.push(c.bold(`${r.scenario}${description ? `: ${description}` : ''}`));
  out.push(c.dim(`One run produced by the model (the shortest that reaches ${story.id}), ${trace.actions.length} steps; times from the config${failure ? `, counted from the failure (T+0s: ${failure.step.summary}, ${formatDuration(origin)} into the run)` : ''}.`));
  if (failure?.phase) {
    const p = failure.phase;
    out.push(c.dim(`The failure fell ${formatDuration(p.sinceRenewal)} into ${p.node}'s ${formatDuration(p.interval)} heartbeat cycle: ${formatDuration(p.sinceRenewal)} after its last Lease renewal, ${formatDuration(p.untilNext)} before the next would have been; the timeouts below run from that last renewal.`));
  }
  out.push('');
  out.push(formatTimeline(model, trace, { colors: c, changes: opts.changes === true, foldTime: opts.allSteps !== true, foldRoutine: opts.allSteps !== true, origin, foldRepeats: true }));
  out.push('');
  const since = failure ? ' after the failure' : '';
  for (const g of reached) out.push(`${c.green('✓')} ${g.id.padEnd(Math.max(...reached.map((x) => x.id.length)))}  reached at ${formatTime(timeAt(g.at) - origin)}${since} (step ${g.at})`);
  printOut(`${out.join('\n')}\n`, c);
  return 0;
}

/** Where the failed node was in its heartbeat cycle when the failure came. */
interface HeartbeatPhase {
  readonly node: string;
  readonly interval: number;
  readonly sinceRenewal: number;
  readonly untilNext: number;
}

/**
 * The run's first fault, and for a fault that stops a node's kubelet, its heartbeat phase: the
 * time until its next renewal read from the state (`nodes[...].heartbeatIn`), the interval from
 * the gaps between renewals along the run.
 */
function failureOf<S>(model: Model<S>, trace: Trace<S>, steps: readonly TimelineStep[]): { step: TimelineStep; phase?: HeartbeatPhase } | undefined {
  const isFault = faultTest(model);
  const step = isFault ? steps.find((s) => isFault(trace.states[s.index - 1], s.action, trace.states[s.index])) : undefined;
  if (step === undefined) return undefined;
  const kubelet = step.affects.find((a) => a.startsWith('kubelet/'));
  if (kubelet === undefined) return { step };
  const node = kubelet.slice('kubelet/'.length);
  const before = presented(model, trace.states[step.index - 1]) as { nodes?: readonly { name?: string; heartbeatIn?: unknown }[] };
  const untilNext = before.nodes?.find((n) => n.name === node)?.heartbeatIn;
  // The renewal interval: the gap between two renewals of one kubelet along the run.
  const renewals = new Map<string, number[]>();
  for (const s of steps) {
    if (!/renew/i.test(s.summary) || !s.actor.startsWith('kubelet/')) continue;
    for (const n of s.actor.slice('kubelet/'.length).split(',')) renewals.set(n, [...(renewals.get(n) ?? []), s.seconds]);
  }
  const gaps = [...renewals.values()].flatMap((times) => times.slice(1).map((t, i) => t - times[i])).filter((g) => g > 0);
  if (typeof untilNext !== 'number' || gaps.length === 0) return { step };
  const interval = Math.min(...gaps);
  return { step, phase: { node, interval, untilNext, sinceRenewal: Math.max(0, interval - untilNext) } };
}
