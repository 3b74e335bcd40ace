/**
 * Long counterexamples read like short ones: each quiet stretch (time passing, routine periodic
 * work the model calls routine) is one line naming the steps it covers; faults, operator actions,
 * the steps the model does not call routine and the last step are lines of their own; `fold:
 * false` gives one line per step. The Kubernetes trace is checked in
 * test/model/presentation.test.ts.
 */
import { describe, expect, it } from 'vitest';
import type { ActionLabel, CheckResult, Model, Trace } from '../../checker/index.js';
import { markdownReport } from '../../reports/markdown.js';
import { mermaidSequence } from '../../reports/mermaid.js';
import { foldQuiet, formatTimeline, isQuiet, timelineSteps, type TimelineStep } from '../../reports/timeline.js';

interface Toy {
  readonly t: number;
  readonly beats: number;
  readonly up: boolean;
  readonly alarm: boolean;
}

const toy: Model<Toy> = {
  name: 'toy',
  initialStates: () => [{ t: 0, beats: 0, up: true, alarm: false }],
  actions: [],
  properties: [],
  elapsed: (_b, a) => (a.name === 'tick' ? 1 : 0),
  describeStep: (b, a, x) => {
    switch (a.name) {
      case 'tick':
        return { actor: 'clock', summary: '1s pass' };
      case 'beat':
        return { actor: 'kubelet/node-1', summary: 'renews its Lease', to: ['api'], routine: true, routineKind: 'heartbeats' };
      case 'pass':
        return { actor: 'monitor', summary: 'health pass: no change', routine: true };
      case 'crash':
        return { actor: 'fault', summary: 'node-1 crashes' };
      case 'delete':
        return { actor: 'operator', summary: 'deletes node-1' };
      default:
        return { actor: 'alarm', summary: x.alarm && !b.alarm ? 'rings' : 'stays quiet' };
    }
  },
  describeState: (s) => `t=${s.t} | ${s.up ? 'up' : 'down'} | alarm ${s.alarm ? 'on' : 'off'}`,
};

/** A trace from action names: `tick` lets a second pass, `beat` and `pass` are routine. */
function run(names: readonly string[]): Trace<Toy> {
  const states: Toy[] = [toy.initialStates()[0]];
  const actions: ActionLabel[] = [];
  for (const name of names) {
    const s = states[states.length - 1];
    const next = name === 'tick' ? { ...s, t: s.t + 1 } : name === 'beat' ? { ...s, beats: s.beats + 1 } : name === 'crash' ? { ...s, up: false } : name === 'ring' ? { ...s, alarm: true } : s;
    states.push(next);
    actions.push({ name });
  }
  return { states, actions, path: { initial: 0, steps: [] } };
}

/** 10 s of heartbeats every 5 s and passes every 2 s, as a controller's background. */
function quiet(seconds: number): string[] {
  const out: string[] = [];
  for (let i = 0; i < seconds; i++) {
    if (i % 5 === 0) out.push('beat');
    if (i % 2 === 0) out.push('pass');
    out.push('tick');
  }
  return out;
}

const names = [...quiet(60), 'crash', ...quiet(120), 'delete', 'pass', ...quiet(200), 'ring'];
const trace = run(names);
const steps = timelineSteps(toy, trace);

/**
 * Walks the timeline's lines against the steps: each line is either a folded stretch that names
 * exactly the next steps, or the next step itself, verbatim. Returns the folded step numbers.
 */
function walk(text: string, all: readonly TimelineStep[]): number[] {
  const lines = text.split('\n').filter((l) => !l.startsWith('initial') && !l.startsWith('final') && !l.startsWith(' ') && !l.startsWith('──'));
  const folded: number[] = [];
  let k = 1;
  for (const line of lines) {
    const fold = /\((\d+) steps: (\d+)–(\d+)\)$/.exec(line);
    if (fold) {
      const [n, a, b] = fold.slice(1).map(Number);
      expect(a).toBe(k);
      expect(n).toBe(b - a + 1);
      expect(n).toBeGreaterThanOrEqual(2);
      for (let i = a; i <= b; i++) folded.push(i);
      k = b + 1;
      continue;
    }
    const s = all[k - 1];
    expect(line).toMatch(new RegExp(`^T\\+\\S+\\s+${s.actor.replace(/[/.*+?^${}()|[\]\\]/g, '\\$&')}\\s+${s.summary.replace(/[/.*+?^${}()|[\]\\]/g, '\\$&')}$`));
    k++;
  }
  expect(k).toBe(all.length + 1);
  return folded;
}

describe('folded timelines', () => {
  it('should fold quiet stretches into far fewer lines than steps, each naming the steps it covers', () => {
    expect(steps.length).toBeGreaterThan(500);
    const text = formatTimeline(toy, trace, { changes: false, finalState: false });
    const lines = text.split('\n');
    expect(lines.length).toBeLessThan(12);
    const folded = walk(text, steps);
    // Every folded step is quiet; every step not folded is on a line of its own.
    for (const i of folded) expect(isQuiet(steps[i - 1])).toBe(true);
    expect(folded.length).toBeGreaterThan(steps.length - 10);
    expect(lines[1]).toBe('T+0s..T+1m     clock     1m pass, heartbeats and routine work of monitor as usual (102 steps: 1–102)');
  });

  it('should never fold a fault, an operator action, a step that is not routine, or the last step', () => {
    const text = formatTimeline(toy, trace, { changes: false });
    expect(text).toMatch(/^T\+1m\s+fault\s+node-1 crashes$/m);
    expect(text).toMatch(/^T\+3m\s+operator\s+deletes node-1$/m);
    expect(text).toMatch(/^T\+6m20s\s+alarm\s+rings$/m);
    const lines = foldQuiet(steps);
    for (const s of steps.filter((x) => x.fault || !isQuiet(x) || x.index === steps.length)) {
      expect(lines.find((l) => l.steps[0] <= s.index && s.index <= l.steps[1])).toMatchObject({ steps: [s.index, s.index], summary: s.summary });
    }
    // The last step is a line of its own even when it only lets time pass.
    const ticking = timelineSteps(toy, run(['tick', 'tick', 'tick']));
    expect(foldQuiet(ticking).map((l) => l.steps)).toEqual([[1, 2], [3, 3]]);
  });

  it('should keep a lone quiet step as it is, and fold routine work without time by its kinds', () => {
    const few = timelineSteps(toy, run(['crash', 'tick', 'delete', 'beat', 'pass', 'ring']));
    expect(foldQuiet(few).map((l) => l.summary)).toEqual(['node-1 crashes', '1s pass', 'deletes node-1', 'heartbeats and routine work of monitor as usual (2 steps: 4–5)', 'rings']);
    expect(foldQuiet(few)[1]).toMatchObject({ timeOnly: true, steps: [2, 2] });
  });

  it('should give one line per step with fold: false', () => {
    const text = formatTimeline(toy, trace, { changes: false, finalState: false, fold: false });
    expect(text.split('\n')).toHaveLength(steps.length + 1);
    expect(walk(text, steps)).toEqual([]);
  });

  it('should mark where a lasso\'s loop starts, and fold nothing across it', () => {
    const lasso = run(['crash', ...quiet(30), ...quiet(10)]);
    const n = lasso.actions.length;
    const loop = n - quiet(10).length;
    const text = formatTimeline(toy, lasso, { changes: false, finalState: false, loop });
    const lines = text.split('\n');
    const at = lines.indexOf(`── loop starts here (steps ${loop + 1}..${n} repeat) ──`);
    expect(at).toBeGreaterThan(1);
    expect(lines[at - 1]).toMatch(new RegExp(`steps: 2–${loop}\\)$`));
    expect(lines[at + 1]).toMatch(new RegExp(`steps: ${loop + 1}–${n - 1}\\)$`));
    walk(text, timelineSteps(toy, lasso));
    // Unfolded too; a cycle of no steps (stuttering) is said after the last step.
    expect(formatTimeline(toy, lasso, { changes: false, finalState: false, loop, fold: false }).split('\n')[loop + 1]).toContain('── loop starts here');
    expect(formatTimeline(toy, lasso, { changes: false, finalState: false, loop: n }).split('\n').at(-1)).toBe(`── loop: the state after step ${n} repeats forever (stuttering) ──`);
  });

  it('should draw a quiet stretch as one note in the sequence diagram, every step with fold: false', () => {
    const diagram = mermaidSequence(toy, trace).split('\n');
    expect(diagram.length).toBeLessThan(20);
    expect(diagram).toContain('  Note over P0,P2: T+0s..T+1m 1m pass, heartbeats and routine work of monitor as usual (102 steps: 1–102)');
    const full = mermaidSequence(toy, trace, { fold: false, maxLines: 10_000 }).split('\n');
    expect(full.filter((l) => /^ {2}(Note|P\d)/.test(l)).length).toBe(steps.length);
  });

  it('should fold the Markdown report\'s diagram and timeline, and show every step with fold: false', () => {
    const result: CheckResult<Toy> = {
      model: 'toy', strategy: 'bfs', verdict: 'violation',
      properties: [{ id: 'quiet', kind: 'invariant', description: 'the alarm stays off', status: 'violated', trace }],
      stats: { distinctStates: 1, generatedStates: 1, depth: 1, seconds: 0, statesPerSecond: 0, peakMemoryMB: 0 } as CheckResult<Toy>['stats'],
    };
    const info = { command: 'check' as const };
    const md = markdownReport(toy, result, info, { timings: false });
    expect(md.split('\n').length).toBeLessThan(60);
    expect(md).toContain('<summary>Timeline with state changes (quiet stretches folded: time passing and routine work, with the steps each covers)</summary>');
    expect(md).toContain('Note over P0,P2: T+1m..T+3m 2m pass, heartbeats and routine work of monitor as usual (204 steps: 104–307)');
    expect(md).toMatch(/^T\+1m\.\.T\+3m\s+clock\s+2m pass, heartbeats and routine work of monitor as usual \(204 steps: 104–307\)$/m);
    const full = markdownReport(toy, result, info, { timings: false, fold: false });
    expect(full).not.toMatch(/\(\d+ steps: \d+–\d+\)/);
    expect(full.split('\n').filter((l) => /^T\+/.test(l))).toHaveLength(steps.length);
  });
});
