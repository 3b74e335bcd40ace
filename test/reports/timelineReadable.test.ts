/**
 * Timelines people read: the violating step is never folded away, the last state is shown in
 * full, objects that appear show their fields, and diffs carry structured paths for programs.
 */
import { describe, expect, it } from 'vitest';
import type { Model, Trace } from '../../checker/index.js';
import { diffStates, formatChange } from '../../reports/diff.js';
import { foldTime, formatTimeline, timelineSteps } from '../../reports/timeline.js';

interface Clock {
  readonly t: number;
  readonly alarm: boolean;
}

const clock: Model<Clock> = {
  name: 'clock',
  initialStates: () => [{ t: 0, alarm: false }],
  actions: [],
  properties: [],
  elapsed: (_b, a) => (a.name === 'tick' ? 1 : 0),
  describeStep: (_b, a) => (a.name === 'tick' ? { actor: 'clock', summary: '1s passes' } : { actor: 'alarm', summary: 'rings' }),
  describeState: (s) => `t=${s.t} | alarm ${s.alarm ? 'on' : 'off'}`,
};

function ticks(n: number, ring: boolean): Trace<Clock> {
  const states: Clock[] = [{ t: 0, alarm: false }];
  const actions = [];
  for (let i = 1; i <= n; i++) {
    states.push({ t: i, alarm: false });
    actions.push({ name: 'tick' });
  }
  if (ring) {
    states.push({ t: n, alarm: true });
    actions.push({ name: 'ring' });
  }
  return { states, actions, path: { initial: 0, steps: [] } };
}

describe('timeline', () => {
  it('should never fold the last step, even when it only lets time pass', () => {
    for (const n of [1, 2, 5, 30]) {
      const lines = foldTime(timelineSteps(clock, ticks(n, false)));
      const last = lines[lines.length - 1];
      expect(last.timeOnly).toBe(false);
      expect(last.steps).toEqual([n, n]);
      expect(last.summary).toBe('1s passes');
      if (n > 2) expect(lines[0].summary).toBe(`${n - 1}s pass (${n - 1} steps)`);
    }
    const rung = foldTime(timelineSteps(clock, ticks(4, true)));
    expect(rung.map((l) => l.summary)).toEqual(['4s pass (4 steps)', 'rings']);
  });

  it('should end with the last state in full, one part per line', () => {
    const text = formatTimeline(clock, ticks(3, true)).split('\n');
    expect(text.slice(-2)).toEqual(['final       t=3', '            alarm on']);
    expect(formatTimeline(clock, ticks(3, true), { finalState: false })).not.toContain('final');
  });

  it('should show every field of an object that appears, by name, and say which one went', () => {
    const pod = { name: 'db-0', workload: 'db', nodeName: null, tolerations: { unreachable: 300, notReady: 300 }, note: 'x'.repeat(80) };
    const added = diffStates({ pods: [] }, { pods: [pod] });
    expect(added).toHaveLength(1);
    const line = formatChange(added[0]);
    expect(line.startsWith('pods[0]: + {') || line.startsWith('pods[db-0]: + {')).toBe(true);
    expect(line).toContain(`note: ${'x'.repeat(80)}`);
    expect(line).toContain('tolerations: {unreachable: 300, notReady: 300}');
    expect(line).not.toContain('…');
    const gone = diffStates({ pods: [pod, { ...pod, name: 'web-0' }] }, { pods: [{ ...pod, name: 'web-0' }] });
    expect(gone.map(formatChange)).toEqual(['pods[db-0]: removed']);
    expect(gone[0]).toMatchObject({ op: 'remove', keys: ['pods', 'db-0'], from: { name: 'db-0', workload: 'db' } });
  });

  it('should give programs the path as keys and the values as JSON', () => {
    const [c] = diffStates({ nodes: [{ name: 'node-1', running: new Set(['a']) }] }, { nodes: [{ name: 'node-1', running: new Set(['a', 'b']) }] });
    expect(c).toMatchObject({ path: 'nodes[node-1].running', keys: ['nodes', 'node-1', 'running'], op: 'set', from: ['a'], to: ['a', 'b'] });
    const [d] = diffStates({ rm: ['working', 'working'] }, { rm: ['working', 'prepared'] });
    expect(d).toMatchObject({ path: 'rm[1]', keys: ['rm', 1], from: 'working', to: 'prepared' });
  });
});
