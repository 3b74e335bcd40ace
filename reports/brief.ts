/**
 * A failure in brief, for a test runner's failure message (`kubecheck/testing`): per failed
 * property the lines that matter, a counterexample's faults, operator steps and violating step, a lasso's steps
 * up to its cycle and the cycle, or a goal never reached. The full report is in the files the
 * run writes (`artifacts.ts`).
 */
import { explainViolation, type Lasso, type Model, type PropertyOutcome, type Trace } from '../checker/index.js';
import { formatDuration, formatTime } from '../checker/duration.js';
import { cycleLength, lassoTrace } from './liveness.js';
import { stateParts, stepsThatMatter, timelineSteps, traceDuration, type TimelineStep } from './timeline.js';

/** Traces up to this many steps are shown whole in a failure message; longer ones in brief. */
const WHOLE_TRACE_STEPS = 8;

/** A step as a failure message shows it: its model time, actor and summary. */
const stepLine = (s: TimelineStep): string => `${formatTime(s.seconds)}  ${s.actor}  ${s.summary}`;

/**
 * The lines of a failure message that matter for one counterexample: its length, why its last
 * state violates the property (the property's `explain` hook, when it has one), the faults,
 * operator actions and steps of the user's code under test that set it up (see
 * `stepsThatMatter`), the violating step and the state it ends in. A short trace is
 * shown whole; the rest of a long one (routine heartbeats, ticks) is in the full report.
 */
export function counterexampleBrief<S>(model: Model<S>, id: string, description: string, trace: Trace<S>): string[] {
  const steps = timelineSteps(model, trace);
  const out = [`✗ ${id} violated (${steps.length} steps, ${formatDuration(traceDuration(steps))} of model time): ${description}`];
  const property = model.properties.find((p) => p.id === id);
  const why = property === undefined ? undefined : explainViolation(property, trace);
  if (why !== undefined) out.push(`    why: ${why}`);
  const last = steps[steps.length - 1];
  if (steps.length <= WHOLE_TRACE_STEPS) {
    for (const s of steps) out.push(`    ${s === last ? '→ ' : ''}${stepLine(s)}`);
  } else {
    const key = stepsThatMatter(steps).filter((s) => s !== last);
    for (const s of key) out.push(`    ${s.fault ? 'fault     ' : 'under test'} ${stepLine(s)}`);
    const before = steps.length - 1 - key.length;
    out.push(`    …          ${before} other steps (in the report)`);
    if (last) out.push(`    violation  ${stepLine(last)}`);
  }
  const end = trace.states[trace.states.length - 1];
  if (model.describeState && end !== undefined) {
    out.push('    final state:');
    for (const p of stateParts(model.describeState(end))) out.push(`      ${p}`);
  }
  return out;
}

/** A lasso as the lines of a failure message: the steps up to the cycle, then the cycle, marked. */
export function lassoBrief<S>(model: Model<S>, id: string, description: string, lasso: Lasso<S>): string[] {
  const steps = timelineSteps(model, lassoTrace(lasso));
  const cycle = cycleLength(lasso);
  const out = [`✗ ${id} violated: ${description}`, `    a behaviour that never gets there: ${lasso.loop} steps, then a cycle of ${cycle === 0 ? 'stuttering (nothing fair is left to do)' : `${cycle} steps`} forever`];
  const shown = steps.length <= 2 * WHOLE_TRACE_STEPS ? steps : [...steps.slice(0, WHOLE_TRACE_STEPS), ...steps.slice(-WHOLE_TRACE_STEPS)];
  for (const s of shown) {
    if (s.index - 1 === lasso.loop) out.push('    ── loop starts here ──');
    if (shown.length < steps.length && s === steps[steps.length - WHOLE_TRACE_STEPS]) out.push(`    …  ${steps.length - shown.length} steps`);
    out.push(`    ${stepLine(s)}`);
  }
  if (cycle === 0) out.push('    ── and it stays in this state ──');
  const end = lasso.states[lasso.states.length - 1];
  if (model.describeState && end !== undefined) {
    out.push('    state on the cycle:');
    for (const p of stateParts(model.describeState(end))) out.push(`      ${p}`);
  }
  return out;
}

/**
 * The failed outcomes in brief, in order, each after a blank line: a violated liveness property
 * its lasso, a violated property its counterexample, a goal never reached on the whole space a
 * line saying so. Outcomes that did not fail give nothing.
 */
export function failureBrief<S>(model: Model<S>, outcomes: readonly PropertyOutcome<S>[]): string[] {
  return outcomes.flatMap((p) => {
    if (p.status === 'violated' && p.lasso !== undefined) return ['', ...lassoBrief(model, p.id, p.description, p.lasso)];
    if (p.status === 'violated' && p.trace !== undefined) return ['', ...counterexampleBrief(model, p.id, p.description, p.trace)];
    if (p.status === 'unwitnessed') return ['', `✗ ${p.id} never reached on the whole space: ${p.description}`];
    return [];
  });
}
