/**
 * The projected state graph: a space of any size as a few dozen groups, edges labelled by the
 * actions between them, a counterexample's path in bold; only checked properties colour it.
 */
import { describe, expect, it } from 'vitest';
import { check } from '../../checker/index.js';
import { twoPhasePlain } from '../../examples/two-phase-commit/index.js';
import { kubernetesSubject } from '../../cli/kubernetesSubject.js';
import { kubecheckAsync } from './run.js';
import { graphToDot } from '../../reports/dot.js';
import { projectedGraph, projectionVisitor } from '../../reports/projected.js';
import { wholeGraph } from '../../reports/graph.js';

describe('projected state graph', () => {
  it('should draw node-failure, thousands of states, as a few dozen groups with the trace in bold', () => {
    const r = kubernetesSubject.resolve('node-failure', {});
    const witness = check(r.model, { properties: ['replacement-running'] }).properties[0];
    expect(witness.status).toBe('witnessed');
    const g = projectedGraph(r.model, { trace: witness.trace!, mark: { property: 'replacement-running', status: 'witnessed' } });
    const all = check(r.model, { properties: [], symmetry: false });
    expect(g.states).toBe(all.stats.distinctStates);
    expect(g.complete).toBe(true);
    expect(g.nodes.length).toBeGreaterThan(5);
    expect(g.nodes.length).toBeLessThan(50);
    expect(g.nodes.reduce((n, x) => n + Number(/\(([\d,]+) states?\)/.exec(x.label)![1].replace(/,/g, '')), 0)).toBe(g.states);
    expect(g.nodes.every((n) => !/\(0 states\)/.test(n.label))).toBe(true);
    const start = g.nodes.find((n) => n.initial)!;
    expect(start.label).toMatch(/node-1 Ready\nnode-2 Ready\nnode-3 Ready\nweb: 2 running, db: 1 running/);
    const end = g.nodes.find((n) => n.witness)!;
    expect(end.onTrace).toBe(true);
    expect(end.label).toMatch(/Unknown tainted NoExecute/);
    const bold = g.edges.filter((e) => e.onTrace).map((e) => e.label);
    expect(bold).toEqual(expect.arrayContaining(['node-crash', 'node-monitor']));
    expect(g.edges.every((e) => e.from !== e.to)).toBe(true);
    const dot = graphToDot(g);
    expect(dot).toContain('node-noexecute-taint');
  });

  it('should draw from a check\'s own states the same graph its own exploration draws', () => {
    const r = kubernetesSubject.resolve('node-failure', {});
    const properties = r.model.properties.filter((p) => r.defaultProperties.includes(p.id));
    // Without symmetry the check stores every state the graph's own search does.
    const recorder = projectionVisitor(r.model, properties);
    const result = check(r.model, { properties: [...r.defaultProperties], symmetry: false, visitor: recorder.visitor as never });
    const drawn = recorder.projection.graph(true);
    const own = projectedGraph(r.model, { properties });
    expect(drawn.states).toBe(result.stats.distinctStates);
    expect(drawn.states).toBe(own.states);
    expect(graphToDot(drawn)).toBe(graphToDot(own));
    // Under symmetry: the representatives the check kept, fewer states, every one in a group.
    const sym = projectionVisitor(r.model, properties);
    const reduced = check(r.model, { properties: [...r.defaultProperties], visitor: sym.visitor as never });
    const g = sym.projection.graph(true);
    expect(g.states).toBe(reduced.stats.distinctStates);
    expect(g.states).toBeLessThan(own.states);
    expect(g.nodes.reduce((n, x) => n + Number(/\(([\d,]+) states?\)/.exec(x.label)![1].replace(/,/g, '')), 0)).toBe(g.states);
  });

  it('should be refused beside workers, whose states live in their threads', () => {
    const r = kubernetesSubject.resolve('node-failure', {});
    const recorder = projectionVisitor(r.model);
    expect(() => check(r.model, { workers: 2, modelFactory: { module: 'x', export: 'y' }, visitor: recorder.visitor as never })).toThrow(/a visitor needs workers: 1/);
  });

  it('should say when a bound cut the exploration', () => {
    const r = kubernetesSubject.resolve('node-failure', {});
    const g = projectedGraph(r.model, { maxStates: 300 });
    expect(g.complete).toBe(false);
    expect(g.note).toMatch(/partial: the first 300 states/);
  });

  it('should colour only the properties that were checked', () => {
    const model = twoPhasePlain({ rms: 2, bug: 'commit-on-any-prepared' });
    const coloured = wholeGraph(model, { properties: model.properties })!;
    expect(coloured.nodes.some((n) => n.violates.includes('consistent'))).toBe(true);
    const unchecked = wholeGraph(model, { properties: [] })!;
    expect(unchecked.nodes.every((n) => n.violates.length === 0)).toBe(true);
    expect(projectedGraph(model).nodes.every((n) => n.violates.length === 0)).toBe(true);
    expect(projectedGraph(model, { properties: model.properties }).nodes.some((n) => n.violates.length > 0)).toBe(true);
  });

  it('should refuse PNG without Graphviz before any search, and draw a large space projected', async () => {
    const started = performance.now();
    const png = await kubecheckAsync(['graph', '--scenario', 'node-failure', '--set', 'cluster.nodes=5', '--output', '/tmp/kc-never.png'], { env: { PATH: '/nonexistent' } });
    expect(png.code).toBe(2);
    expect(png.stderr).toMatch(/^kubecheck: KC211: PNG needs the Graphviz "dot" program/);
    expect(performance.now() - started).toBeLessThan(15_000);
    const dot = await kubecheckAsync(['graph', '--scenario', 'node-failure']);
    expect(dot.code).toBe(0);
    expect(dot.stderr).toMatch(/drawing it projected: [\d,]+ states in \d+ groups, the \d+-step trace \(replacement-running witnessed\) in bold/);
    expect(dot.stdout).toMatch(/^digraph/);
  });
});
