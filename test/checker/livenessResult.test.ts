/**
 * Liveness outcomes are part of the check's one result: `check(model, { liveness })` puts them in
 * its `properties` after the search's, each of its kind with its lasso; a violated one makes the
 * verdict a violation (the search's own verdict kept beside it), and every report read from the
 * result (text, JSON, JUnit, SARIF, GitHub annotations, Markdown, HTML) says the same.
 */
import { describe, expect, it } from 'vitest';
import { action, always, alwaysEventually, check, isLiveness, type Model } from '../../checker/index.js';
import { formatOutcome } from '../../reports/outcome.js';
import { outcomeJson } from '../../reports/json.js';
import { junitReport } from '../../reports/junit.js';
import { sarifReport } from '../../reports/sarif.js';
import { githubAnnotations } from '../../reports/githubAnnotations.js';
import { markdownReport } from '../../reports/markdown.js';
import { htmlReport } from '../../reports/html.js';

/** x counts 0, 1, 2, 0, ...; with `fair` false it may stop anywhere. */
const counter = (fair: boolean): Model<number> => ({
  name: 'counter',
  initialStates: () => [0],
  actions: [action<number>({ name: 'inc', apply: (x) => (x + 1) % 3, fair })],
  properties: [always<number>('small', 'x stays below 3', (x) => x < 3)],
});
const backToZero = alwaysEventually<number>('back-to-zero', 'x is 0 infinitely often', (x) => x === 0);
const info = { command: 'check' as const, scenario: 'counter' };

describe('check with liveness properties', () => {
  it('should list a violated one after the search\'s properties, with its kind and lasso, and make the verdict a violation', () => {
    const result = check(counter(false), { liveness: [backToZero] });
    expect(result.searchVerdict).toBe('ok');
    expect(result.verdict).toBe('violation');
    expect(result.properties.map((p) => [p.id, p.kind, p.status, isLiveness(p)])).toEqual([
      ['small', 'invariant', 'holds', false],
      ['back-to-zero', 'always-eventually', 'violated', true],
    ]);
    expect(result.properties[1].lasso?.loop).toBe(1);
    expect(result.properties[1].trace).toBeUndefined();
  });

  it('should leave the verdict to the search when every one holds, and add none when none is asked', () => {
    const held = check(counter(true), { liveness: [backToZero] });
    expect(held.verdict).toBe('ok');
    expect(held.properties.filter(isLiveness).map((p) => p.status)).toEqual(['holds']);
    const plain = check(counter(false));
    expect(plain.properties.some(isLiveness)).toBe(false);
    expect(plain.searchVerdict).toBeUndefined();
    expect(check(counter(false), { liveness: [] })).toMatchObject({ properties: plain.properties, verdict: 'ok' });
  });

  it('should call onSearchEnd once the search is over, before liveness is checked', () => {
    const seen: string[] = [];
    const tracked = alwaysEventually<number>('back-to-zero', 'x is 0 infinitely often', (x) => {
      seen.push('liveness');
      return x === 0;
    });
    check(counter(true), { liveness: [tracked], onSearchEnd: () => seen.push('end') });
    expect(seen[0]).toBe('end');
    expect(seen.filter((s) => s === 'end')).toHaveLength(1);
  });

  it('should be reported alike by every format read from the result', () => {
    const model = counter(false);
    const result = check(model, { liveness: [backToZero] });
    const text = formatOutcome(model, result, info);
    expect(text).toContain('a liveness property is violated (exit 1, see below)');
    expect(text).toContain('liveness: 1 property violated (exit 1)');
    const json = outcomeJson(model, result, info, []) as { verdict: string; exitCode: number; liveness: { id: string; status: string; lasso: { loop: number } }[] };
    expect([json.verdict, json.exitCode]).toEqual(['violation', 1]);
    expect(json.liveness.map((l) => [l.id, l.status, l.lasso.loop])).toEqual([['back-to-zero', 'violated', 1]]);
    expect(junitReport(model, result, info)).toMatch(/<testcase classname="kubecheck\.[^"]*\.liveness" name="back-to-zero"[^>]*>\s*<failure/);
    expect(sarifReport(model, result, info).runs[0].results.map((r) => r.ruleId)).toEqual(['back-to-zero']);
    expect(githubAnnotations(model, result, info).filter((l) => l.startsWith('::error')).length).toBe(1);
    expect(markdownReport(model, result, info)).toMatch(/\| `back-to-zero` \| liveness \| ❌ violated \| x is 0 infinitely often \| \|\n[\s\S]*### Liveness counterexample to `back-to-zero` \(a lasso\)/);
    const html = htmlReport(model, result, info);
    expect(html).toContain('<tr><td><code>back-to-zero</code></td><td>liveness</td><td class="violated">violated</td>');
    expect(html).toContain('Liveness counterexample (lasso) to <code>back-to-zero</code>');
    // The search's table and counts leave the liveness properties to their own section.
    expect(text.slice(0, text.indexOf('\n\n')).split('\n').slice(1)).toEqual(['  ✓ small  holds  x stays below 3']);
    // The heading says only what this model's check assumes: no fairness words of another subject.
    expect(text).toContain('liveness (whole graph, no symmetry)\n');
    expect(formatOutcome(model, result, { ...info, livenessFairness: 'inc is fair' })).toContain('liveness (whole graph, no symmetry; inc is fair)');
  });
});
