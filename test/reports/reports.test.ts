import { describe, expect, it } from 'vitest';
import { check } from '../../checker/index.js';
import { twoPhasePlain } from '../../examples/two-phase-commit/index.js';
import { diffStates, formatChange } from '../../reports/diff.js';
import { formatDuration } from '../../checker/duration.js';
import { fromItfValue, parseItf, toItf, toItfValue } from '../../reports/itf.js';
import { mermaidSequence, mermaidText } from '../../reports/mermaid.js';
import { replayItf } from '../../reports/replay.js';
import { actionText, formatTimeline, foldTime, timelineSteps } from '../../reports/timeline.js';
import { partitioned, partitionedCopyResult } from '../fixtures/partitionedCopy.js';
import { traceNeighbourhood, wholeGraph } from '../../reports/graph.js';
import { graphToDot } from '../../reports/dot.js';
import type { Model } from '../../checker/index.js';

const buggy = twoPhasePlain({ rms: 3, bug: 'commit-on-any-prepared' });
const trace = check(buggy).properties[0].trace!;

describe('ITF', () => {
  it('should encode big integers, sets, maps and null per the ADR, and read them back', () => {
    const value = { big: 2n ** 64n, small: 5n, n: 7, set: new Set([3, 1]), map: new Map([['b', 1], ['a', 2]]), none: null, list: [1, 2] };
    const itf = toItfValue(value);
    expect(itf).toEqual({
      big: { '#bigint': '18446744073709551616' }, small: 5, n: 7, set: { '#set': [1, 3] },
      map: { '#map': [['a', 2], ['b', 1]] }, none: { '#unserializable': 'null' }, list: [1, 2],
    });
    expect(fromItfValue(itf)).toEqual({ ...value, small: 5, set: new Set([1, 3]), map: new Map([['a', 2], ['b', 1]]) });
  });

  it('should label each state with mbt::actionTaken and mbt::nondetPicks and replay from them', () => {
    const itf = toItf(trace, { scenario: 'x', property: 'consistent' });
    expect(itf.vars).toEqual(['rmState', 'tmState', 'tmPrepared', 'msgs', 'mbt::actionTaken', 'mbt::nondetPicks']);
    expect(itf.states[0]['mbt::actionTaken']).toBe('init');
    expect(itf.states[1]).toMatchObject({ 'mbt::actionTaken': 'RMPrepare', 'mbt::nondetPicks': { param: { tag: 'Some', value: 0 } } });
    const parsed = parseItf(JSON.stringify(itf));
    expect(parsed.labels).toEqual(trace.actions);
    expect(replayItf(buggy, parsed)).toMatchObject({ outcome: 'violated', property: 'consistent', at: 5 });
  });

  it('should refuse what is not ITF with KC203', () => {
    expect(() => parseItf('nope')).toThrow(/KC203: not an ITF trace: not JSON/);
    expect(() => parseItf('{"#meta":{},"vars":[],"states":[{},{}]}')).toThrow(/KC203: .*state 1 has no "mbt::actionTaken"/);
  });

  it('should name the step where a tampered trace diverges, and refuse a trace that no longer violates', () => {
    const itf = toItf(trace, { property: 'consistent' });
    const edited = JSON.parse(JSON.stringify(itf));
    edited.states[4].tmState = 'aborted';
    expect(() => replayItf(buggy, parseItf(JSON.stringify(edited)))).toThrow(/KC205: step 4 \(RMChooseToAbort\(1\)\) leads to a state that differs .* "tmState"/);
    const fixed = twoPhasePlain({ rms: 3 });
    expect(() => replayItf(fixed, parseItf(JSON.stringify(itf)))).toThrow(/KC205: step 3 \(TMCommit\) is not an enabled step/);
  });
});

describe('timeline', () => {
  it('should show who acted and what changed, array elements by name when they have one', () => {
    const text = formatTimeline(buggy, trace);
    expect(text.split('\n')[1]).toBe('T+0s     rm-1  prepares and sends Prepared');
    expect(text).toContain('tmState: init → committed');
    const d = diffStates({ nodes: [{ name: 'node-1', ready: 'True' }, { name: 'node-2', ready: 'True' }] }, { nodes: [{ name: 'node-1', ready: 'True' }, { name: 'node-2', ready: 'Unknown' }] });
    expect(d.map(formatChange)).toEqual(['nodes[node-2].ready: True → Unknown']);
  });

  it('should rebuild absolute time from elapsed and fold runs of ticks', () => {
    type S = { t: number; up: boolean };
    const m: Model<S> = {
      name: 'clock', initialStates: () => [{ t: 0, up: true }], properties: [],
      actions: [], elapsed: (_b, a) => (a.name === 'tick' ? 10 : 0),
      describeStep: (_b, a) => (a.name === 'tick' ? { actor: 'clock', summary: '10s pass' } : { actor: 'kube-controller-manager/node-lifecycle', summary: 'marks node-2 Ready=Unknown' }),
    };
    const states = [0, 1, 2, 3, 4, 5].map((t) => ({ t, up: t < 5 }));
    const actions = [...Array(4).fill({ name: 'tick' }), { name: 'mark' }];
    const lines = foldTime(timelineSteps(m, { states, actions, path: { initial: 0, steps: [] } }));
    expect(lines.map((l) => [l.seconds, l.summary])).toEqual([[0, '40s pass (4 steps)'], [40, 'marks node-2 Ready=Unknown']]);
    expect(formatTimeline(m, { states, actions, path: { initial: 0, steps: [] } }, { changes: false })).toBe(
      'T+0s..T+40s  clock                                   40s pass (4 steps: 1–4)\nT+40s        kube-controller-manager/node-lifecycle  marks node-2 Ready=Unknown',
    );
    expect([0, 50, 300, 350, 3661].map(formatDuration)).toEqual(['0s', '50s', '5m', '5m50s', '1h1m1s']);
  });
});

describe('mermaid', () => {
  it('should draw messages between participants and escape what Mermaid reads specially', () => {
    const text = mermaidSequence(buggy, trace, { order: ['tm'], conclusion: '✗ consistent violated' });
    expect(text.split('\n').slice(0, 3)).toEqual(['sequenceDiagram', '  participant P0 as tm', '  participant P1 as rm-1']);
    expect(text).toContain('P1->>P0: T+0s prepares and sends Prepared');
    expect(mermaidText('a;b #1\nc')).toBe('a#59;b #35;1 c');
  });
});

describe('graphs', () => {
  it('should hold every reachable state of a small space, and give up beyond the cap', () => {
    const model = twoPhasePlain({ rms: 3 });
    const g = wholeGraph(model)!;
    expect(g.nodes).toHaveLength(check(model).stats.distinctStates);
    expect(g.nodes.filter((n) => n.initial)).toHaveLength(1);
    expect(wholeGraph(model, { maxNodes: 100 })).toBeUndefined();
  });

  it('should draw a trace and its direct successors, the violating state marked', () => {
    const g = traceNeighbourhood(buggy, trace, { property: 'consistent', status: 'violated' }, { maxNodes: 10 });
    expect(g.nodes).toHaveLength(10);
    expect(g.note).toMatch(/successor states left out \(cap 10 nodes\)/);
    expect(g.nodes.filter((n) => n.violates.includes('consistent')).length).toBeGreaterThan(0);
    expect(g.edges.filter((e) => e.onTrace)).toHaveLength(5);
    expect(graphToDot(g)).toContain('label = "rm-1: prepares and sends Prepared"');
  });

  it('should label edges with the model\'s description of each step, never a parameter\'s JSON', () => {
    const cut = partitionedCopyResult().properties[0].trace!;
    const g = traceNeighbourhood(partitioned.model, cut, { property: 'no-cut-off-copy', status: 'violated' }, { maxNodes: 40 });
    expect(g.edges.length).toBeGreaterThan(cut.actions.length);
    for (const e of g.edges) expect(e.label).not.toMatch(/[{}"]/);
    expect(g.edges.filter((e) => e.onTrace).map((e) => e.label)).toContainEqual(expect.stringMatching(/^kube-scheduler: picks node-\d for db-0/));
    // A model that describes no step: its action's name and its parameter's fields.
    const bare: Model<number> = { name: 'bare', initialStates: () => [0], properties: [], actions: [{ name: 'pick', params: () => [{ scheduler: 's-1', node: 'n-2' }], apply: (x) => x + 1 }] };
    const [edge] = traceNeighbourhood(bare, { states: [0, 1], actions: [{ name: 'pick', param: { scheduler: 's-1', node: 'n-2' } }], path: { initial: 0, steps: [] } }).edges;
    expect(edge.label).toBe('pick(scheduler=s-1, node=n-2)');
    expect(actionText({ name: 'inc', param: 3 })).toBe('inc(3)');
    expect(actionText({ name: 'tick' })).toBe('tick');
  });
});

describe('bad trace files', () => {
  it('should keep a parser error that spans lines on one line', () => {
    let message = '';
    try {
      parseItf('garbage: [\nmore\n');
    } catch (e) {
      message = (e as Error).message;
    }
    expect(message).toMatch(/^KC203: not an ITF trace: not JSON/);
    expect(message).not.toMatch(/\n/);
  });
});

describe('state diffs of sets', () => {
  it('should show what joined or left a sorted list of names, not shifted positions', () => {
    const changes = diffStates({ running: ['web-0'] }, { running: ['db-0', 'web-0'] }).map(formatChange);
    expect(changes).toEqual(['running: + db-0']);
    expect(diffStates({ taints: ['a', 'b'] }, { taints: ['b'] }).map(formatChange)).toEqual(['taints: - a']);
    // Positional lists keep their positions (an RM's state by index).
    expect(diffStates({ rm: ['working', 'working'] }, { rm: ['working', 'prepared'] }).map(formatChange)).toEqual(['rm[1]: working → prepared']);
  });
});
