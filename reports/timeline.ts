/**
 * A trace as a timeline people read: one line per step, `T+50s  actor  summary`, with what changed
 * in the state beneath it. Time is rebuilt from the model's `elapsed` along the path. A
 * timeout-driven trace is mostly quiet: time passing and routine periodic work (heartbeats,
 * controller passes that change nothing). Each quiet stretch is folded into one line that says
 * which steps it covers (`T+9s..T+50s  clock  41s pass, heartbeats as usual (54 steps: 12–65)`),
 * so a 470-step trace reads like a short one; faults, operator actions and the last step are
 * never folded. What is routine the model says (`StepDescription.routine`, `routineKind`).
 */
import type { ActionLabel, Model, StepDescription, Trace } from '../checker/index.js';
import { describeStepOf, faultTest } from '../checker/index.js';
import { plain, type Palette } from './colors.js';
import { diffStates, formatChange, renderValue, type Change } from './diff.js';
import { formatTime, formatDuration } from '../checker/duration.js';

/** One step of a trace, described for people. */
export interface TimelineStep {
  /** 1-based step number (state `index` is reached by it). */
  readonly index: number;
  /** Model time in seconds when the step starts. */
  readonly seconds: number;
  /** Model time the step lets pass (0 for an ordinary step). */
  readonly elapsed: number;
  readonly action: ActionLabel;
  readonly actor: string;
  readonly summary: string;
  readonly to: readonly string[];
  readonly changes: readonly Change[];
  /** Routine periodic work (see `StepDescription.routine`). */
  readonly routine: boolean;
  /** What routine work it is, as the model names it (see `StepDescription.routineKind`). */
  readonly routineKind?: string;
  /** A fault or an operator's action (the model's `isFault`): never folded. */
  readonly fault: boolean;
  /** Components changed without a message (see `StepDescription.affects`). */
  readonly affects: readonly string[];
  /** The work of the user's code under test, e.g. an operator (see `StepDescription.underTest`). */
  readonly underTest: boolean;
}

/** The state as a person reads it: the model's `present`, else the state itself. */
export function presented<S>(model: Model<S>, state: S): unknown {
  return model.present ? model.present(state) : state;
}

/**
 * An action as people read it when the model describes no step: its name and its parameter's
 * fields (`schedule(scheduler=kube-scheduler-1, node=node-2)`), never the parameter's JSON.
 */
export function actionText(action: ActionLabel): string {
  const p = action.param;
  if (p === undefined) return action.name;
  if (Array.isArray(p)) return `${action.name}(${p.map(renderValue).join(', ')})`;
  if (p !== null && typeof p === 'object') return `${action.name}(${Object.entries(p).map(([k, v]) => `${k}=${renderValue(v)}`).join(', ')})`;
  return `${action.name}(${renderValue(p)})`;
}

/** The description of a step, falling back to the action's name and parameter when the model gives none. */
export function describe<S>(model: Model<S>, before: S, action: ActionLabel, after: S): StepDescription {
  return describeStepOf(model, before, action, after) ?? { actor: model.name, summary: actionText(action) };
}

/** A step as one label of a graph's edge: `rm-1: prepares and sends Prepared`. */
export function stepLabel<S>(model: Model<S>, before: S, action: ActionLabel, after: S): string {
  const d = describeStepOf(model, before, action, after);
  return d === undefined ? actionText(action) : `${d.actor}: ${d.summary}`;
}

/** Describes every step of `trace` with its absolute time and its state changes. */
export function timelineSteps<S>(model: Model<S>, trace: Trace<S>): TimelineStep[] {
  const out: TimelineStep[] = [];
  let now = 0;
  const shown = trace.states.map((st) => presented(model, st));
  const isFault = faultTest(model);
  for (let i = 0; i < trace.actions.length; i++) {
    const before = trace.states[i];
    const after = trace.states[i + 1];
    const action = trace.actions[i];
    const d = describe(model, before, action, after);
    const elapsed = model.elapsed?.(before, action, after) ?? 0;
    out.push({
      index: i + 1,
      seconds: now,
      elapsed,
      action,
      actor: d.actor,
      summary: d.summary,
      to: d.to ?? [],
      changes: diffStates(shown[i], shown[i + 1]),
      routine: d.routine === true,
      ...(d.routine === true && d.routineKind !== undefined ? { routineKind: d.routineKind } : {}),
      fault: isFault?.(before, action, after) === true,
      affects: d.affects ?? [],
      underTest: d.underTest === true,
    });
    now += elapsed;
  }
  return out;
}

/**
 * Whether a reader needs a step to see why a trace ends as it does: a fault or an operator's
 * action, or a step of the user's code under test that is not routine work (its reconcile, its
 * write, its informer hearing of a change; not its Lease renewals).
 */
export function matters(s: TimelineStep): boolean {
  return s.fault || (s.underTest && !s.routine);
}

/**
 * The steps that matter of a trace, in order: every step that {@link matters} and the last one
 * (the one that violates), whatever the trace's length. The stock components' work and time
 * passing are left to the full timeline, so the list stays as short as the causes: a 470-step
 * node failure gives its crash and the last step.
 */
export function stepsThatMatter(steps: readonly TimelineStep[]): TimelineStep[] {
  return steps.filter((s, i) => matters(s) || i === steps.length - 1);
}

/** Total model time a trace covers, in seconds. */
export function traceDuration(steps: readonly TimelineStep[]): number {
  const last = steps[steps.length - 1];
  return last === undefined ? 0 : last.seconds + last.elapsed;
}

/** A line of the timeline: a step, or a run of quiet steps folded together. */
export interface TimelineLine {
  readonly seconds: number;
  /** A folded stretch that lets time pass: the model time it ends at (shown `T+9s..T+50s`). */
  readonly until?: number;
  readonly actor: string;
  readonly summary: string;
  /** First and last step numbers covered. */
  readonly steps: readonly [number, number];
  readonly changes: readonly Change[];
  readonly timeOnly: boolean;
  readonly step?: TimelineStep;
}

/**
 * The narrative folding of `kubecheck explain` (see {@link foldQuiet} for counterexamples):
 * consecutive time-only steps (elapsed > 0), with `foldRoutine` routine steps too, become one
 * line each. The last step, the one that violates or reaches the property, is never folded.
 */
export function foldTime(steps: readonly TimelineStep[], foldRoutine = false): TimelineLine[] {
  const out: TimelineLine[] = [];
  const lastIndex = steps.length > 0 ? steps[steps.length - 1].index : -1;
  const folds = (s: TimelineStep): boolean => s.index !== lastIndex && (s.elapsed > 0 || (foldRoutine && s.routine));
  for (let i = 0; i < steps.length; ) {
    const s = steps[i];
    if (!folds(s)) {
      out.push({ seconds: s.seconds, actor: s.actor, summary: s.summary, steps: [s.index, s.index], changes: s.changes, timeOnly: false, step: s });
      i++;
      continue;
    }
    let j = i;
    let total = 0;
    while (j < steps.length && folds(steps[j])) total += steps[j++].elapsed;
    const n = j - i;
    if (total === 0) {
      // Only routine work, no time: nothing to say.
      i = j;
      continue;
    }
    const routine = steps.slice(i, j).filter((x) => x.routine).length;
    const clock = steps.slice(i, j).find((x) => x.elapsed > 0) ?? s;
    out.push({
      seconds: s.seconds,
      actor: clock.actor,
      summary: n === 1 ? s.summary : `${formatDuration(total)} pass (${n} steps${routine ? `, ${routine} of routine work` : ''})`,
      steps: [s.index, steps[j - 1].index],
      changes: [],
      timeOnly: true,
    });
    i = j;
  }
  return out;
}

/** Whether a step may be folded into a quiet stretch: time passing or routine work, never a fault. */
export function isQuiet(s: TimelineStep): boolean {
  return !s.fault && (s.routine || s.elapsed > 0);
}

export interface FoldOptions {
  /**
   * A lasso's loop: the cycle is steps `loop + 1` to the last. No fold spans its start, so the
   * timeline can mark where the loop starts.
   */
  readonly loop?: number;
}

/** `a`, `a and b`, `a, b and c`. */
function andList(items: readonly string[]): string {
  return items.length <= 1 ? (items[0] ?? '') : `${items.slice(0, -1).join(', ')} and ${items[items.length - 1]}`;
}

/** `41s pass, heartbeats and node-monitor passes as usual (54 steps: 12–65)`. */
function quietSummary(stretch: readonly TimelineStep[]): string {
  const total = stretch.reduce((t, s) => t + s.elapsed, 0);
  const routine = stretch.filter((s) => s.routine);
  const kinds = [...new Set(routine.flatMap((s) => (s.routineKind === undefined ? [] : [s.routineKind])))];
  const actors = [...new Set(routine.flatMap((s) => (s.routineKind === undefined ? [s.actor] : [])))];
  const work = andList([...kinds, ...(actors.length > 0 ? [`routine work of ${andList(actors)}`] : [])]);
  const what = total > 0 ? `${formatDuration(total)} pass${work ? `, ${work} as usual` : ''}` : `${work} as usual`;
  return `${what} (${stretch.length} steps: ${stretch[0].index}–${stretch[stretch.length - 1].index})`;
}

/**
 * Folds each stretch of two or more consecutive quiet steps ({@link isQuiet}: time passing and
 * routine work) into one line that names the steps it covers, so every step number is on a line
 * or inside a range. A fault, an operator's action, any step the model does not call routine
 * that changes the state, and the last step (the one that violates or reaches the property) are
 * lines of their own; no fold spans the start of a lasso's loop.
 */
export function foldQuiet(steps: readonly TimelineStep[], options: FoldOptions = {}): TimelineLine[] {
  const out: TimelineLine[] = [];
  const lastIndex = steps.length > 0 ? steps[steps.length - 1].index : -1;
  const folds = (s: TimelineStep): boolean => s.index !== lastIndex && isQuiet(s);
  const side = (s: TimelineStep): boolean => options.loop !== undefined && s.index > options.loop;
  for (let i = 0; i < steps.length; ) {
    const s = steps[i];
    let j = i;
    if (folds(s)) while (j < steps.length && folds(steps[j]) && side(steps[j]) === side(s)) j++;
    if (j - i < 2) {
      // One step is its own line: a lone tick is still time passing, drawn as such.
      const timeOnly = s.elapsed > 0 && !s.routine && !s.fault && s.index !== lastIndex;
      out.push({ seconds: s.seconds, actor: s.actor, summary: s.summary, steps: [s.index, s.index], changes: s.changes, timeOnly, step: s });
      i++;
      continue;
    }
    const stretch = steps.slice(i, j);
    const total = stretch.reduce((t, x) => t + x.elapsed, 0);
    const clock = stretch.find((x) => x.elapsed > 0);
    out.push({
      seconds: s.seconds,
      ...(total > 0 ? { until: s.seconds + total } : {}),
      actor: clock?.actor ?? '…',
      summary: quietSummary(stretch),
      steps: [s.index, stretch[stretch.length - 1].index],
      changes: [],
      timeOnly: true,
    });
    i = j;
  }
  return out;
}

/** The lines of a timeline, one per step. */
export function unfolded(steps: readonly TimelineStep[]): TimelineLine[] {
  const lastIndex = steps.length > 0 ? steps[steps.length - 1].index : -1;
  return steps.map((s) => ({ seconds: s.seconds, actor: s.actor, summary: s.summary, steps: [s.index, s.index], changes: s.changes, timeOnly: s.elapsed > 0 && !s.routine && !s.fault && s.index !== lastIndex, step: s }));
}

/** A line's time: `T+9s`, or `T+9s..T+50s` for a folded stretch that lets time pass. */
export function lineTime(l: Pick<TimelineLine, 'seconds' | 'until'>): string {
  return l.until === undefined ? formatTime(l.seconds) : `${formatTime(l.seconds)}..${formatTime(l.until)}`;
}

/** The line that marks where a lasso's loop starts, among `n` steps. */
export function loopMark(loop: number, n: number): string {
  return loop >= n ? `── loop: the state after step ${n} repeats forever (stuttering) ──` : `── loop starts here (steps ${loop + 1}..${n} repeat) ──`;
}

export interface TimelineOptions {
  /** Show the state changes under each step (default true). */
  readonly changes?: boolean;
  /** Most change lines shown per step (default 8). */
  readonly maxChanges?: number;
  /**
   * Fold each quiet stretch (time passing, routine work) into one line (default true, see
   * {@link foldQuiet}); false gives one line per step (`--unfold`).
   */
  readonly fold?: boolean;
  /** false: one line per step, as `fold: false`. */
  readonly foldTime?: boolean;
  /**
   * The narrative folding of `kubecheck explain`: runs of ticks and routine steps folded as
   * `41s pass (54 steps, 13 of routine work)`, routine work at one instant left out (default
   * false: quiet stretches are folded as {@link foldQuiet} does, every step numbered).
   */
  readonly foldRoutine?: boolean;
  /**
   * A lasso's loop: the cycle is steps `loop + 1` to the last; a line marks where it starts
   * (`── loop starts here (steps 13..20 repeat) ──`).
   */
  readonly loop?: number;
  /**
   * After the steps, the last state in full, one part per line (default true): what a
   * counterexample ends in, not only what its last step changed.
   */
  readonly finalState?: boolean;
  /** The word before the last state (default `final`), e.g. `✗ violates consistent`. */
  readonly finalLabel?: string;
  /** Model time shown as T+0s (default 0, the start): times before it print as `T-9s`. */
  readonly origin?: number;
  /**
   * Fold a block of lines that repeats identically (the same actors doing the same routine work,
   * e.g. Lease renewals and passes that change nothing every 10 s) into its first occurrence and
   * one line saying how often it repeats (default false).
   */
  readonly foldRepeats?: boolean;
  readonly colors?: Palette;
}

/**
 * The timeline as text:
 * ```
 * T+0s    tm    commits and sends Commit
 *                 tmState: init → committed
 * ```
 */
export function formatTimeline<S>(model: Model<S>, trace: Trace<S>, options: TimelineOptions = {}): string {
  const c = options.colors ?? plain;
  const steps = timelineSteps(model, trace);
  const origin = options.origin ?? 0;
  const loop = options.loop;
  const folded: TimelineLine[] = options.fold === false || options.foldTime === false
    ? unfolded(steps)
    : options.foldRoutine === true ? foldTime(steps, true) : foldQuiet(steps, loop === undefined ? {} : { loop });
  const shifted = folded.map((l) => ({ ...l, seconds: l.seconds - origin, ...(l.until === undefined ? {} : { until: l.until - origin }) }));
  const lines = options.foldRepeats ? foldRepeats(shifted) : shifted;
  const timeWidth = Math.max(7, ...lines.map((l) => lineTime(l).length));
  const actorWidth = Math.max(...lines.map((l) => l.actor.length), 0);
  const max = options.maxChanges ?? 8;
  const out: string[] = [];
  const init = trace.states[0];
  if (model.describeState && init !== undefined) out.push(`${c.dim('initial'.padEnd(timeWidth))}  ${model.describeState(init)}`);
  const n = steps.length;
  const mark = loop === undefined ? undefined : c.yellow(loopMark(loop, n));
  let marked = false;
  for (const l of lines) {
    if (mark !== undefined && !marked && loop! < n && l.steps[0] > loop!) {
      out.push(mark);
      marked = true;
    }
    const time = c.dim(lineTime(l).padEnd(timeWidth));
    const actor = l.timeOnly ? c.dim(l.actor.padEnd(actorWidth)) : c.cyan(l.actor.padEnd(actorWidth));
    out.push(`${time}  ${actor}  ${l.timeOnly ? c.dim(l.summary) : l.summary}`.trimEnd());
    if (options.changes === false || l.timeOnly) continue;
    const pad = ' '.repeat(timeWidth + 4);
    for (const ch of l.changes.slice(0, max)) out.push(c.dim(`${pad}${formatChange(ch)}`));
    if (l.changes.length > max) out.push(c.dim(`${pad}… ${l.changes.length - max} more changes`));
  }
  if (mark !== undefined && !marked) out.push(mark);
  const last = trace.states[trace.states.length - 1];
  if (options.finalState !== false && model.describeState && last !== undefined && trace.actions.length > 0) {
    const parts = stateParts(model.describeState(last));
    const label = options.finalLabel ?? 'final';
    out.push(`${c.bold(label.padEnd(timeWidth))}  ${parts[0] ?? ''}`.trimEnd());
    for (const p of parts.slice(1)) out.push(`${' '.repeat(Math.max(timeWidth, label.length))}  ${p}`);
  }
  return out.join('\n');
}

/** Most lines in a block {@link foldRepeats} looks for. */
const MAX_BLOCK = 24;

/**
 * Folds blocks of lines that repeat identically (same actor and summary, in the same order) into
 * the first block and a line `… the same 4 lines again 37 times (10s each, until T+6m)`. Only
 * blocks without state changes shown are folded; the last line is never part of a fold.
 */
export function foldRepeats<L extends Pick<TimelineLine, 'seconds' | 'until' | 'actor' | 'summary' | 'changes' | 'timeOnly'>>(lines: readonly L[]): L[] {
  const same = (a: L, b: L): boolean => a.actor === b.actor && a.summary === b.summary;
  const out: L[] = [];
  const end = lines.length - 1;
  for (let i = 0; i < lines.length; ) {
    let best = { p: 0, r: 0 };
    for (let p = 1; p <= MAX_BLOCK && i + 2 * p <= end; p++) {
      let r = 0;
      while (i + (r + 2) * p <= end && lines.slice(i + (r + 1) * p, i + (r + 2) * p).every((l, k) => same(l, lines[i + k]))) r++;
      if (r >= 2 && r * p > best.r * best.p) best = { p, r };
    }
    if (best.r === 0) {
      out.push(lines[i++]);
      continue;
    }
    const block = lines.slice(i, i + best.p);
    out.push(...block);
    const next = lines[i + (best.r + 1) * best.p];
    const period = lines[i + best.p].seconds - lines[i].seconds;
    const every = period > 0 ? `${formatDuration(period)} each, ` : '';
    out.push({ ...block[0], seconds: lines[i + best.p].seconds, until: undefined, actor: '…', summary: `the same ${best.p === 1 ? 'line' : `${best.p} lines`} again ${best.r} times (${every}until ${formatTime(next.seconds)})`, changes: [], timeOnly: true });
    i += (best.r + 1) * best.p;
  }
  return out;
}

/** A state description split into its ` | `-separated parts (one per line where there is room). */
export function stateParts(description: string): string[] {
  return description.split(' | ').map((p) => p.trim()).filter((p) => p !== '');
}
