/**
 * Liveness outcomes are part of the check's one result: `check(model, { liveness })` attaches them,
 * a violated one makes the verdict a violation (the search's own verdict kept beside it), and every
 * report read from the result (text, JSON, JUnit, SARIF, GitHub annotations) says the same.
 */
import { describe, expect, it } from 'vitest';
import { action, always, alwaysEventually, check, type Model } from '../../checker/index.js';
import { formatOutcome } from '../../reports/outcome.js';
import { outcomeJson } from '../../reports/json.js';
import { junitReport } from '../../reports/junit.js';
import { sarifReport } from '../../reports/sarif.js';
import { githubAnnotations } from '../../reports/githubAnnotations.js';
import { markdownReport } from '../../reports/markdown.js';

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
  it('should attach a violated one with its lasso and make the verdict a violation', () => {
    const result = check(counter(false), { liveness: [backToZero] });
    expect(result.searchVerdict).toBe('ok');
    expect(result.verdict).toBe('violation');
    expect(result.liveness?.map((l) => [l.id, l.status])).toEqual([['back-to-zero', 'violated']]);
    expect(result.liveness?.[0].lasso?.loop).toBe(1);
  });

  it('should leave the verdict to the search when every one holds, and attach none when none is asked', () => {
    const held = check(counter(true), { liveness: [backToZero] });
    expect(held.verdict).toBe('ok');
    expect(held.liveness?.[0].status).toBe('holds');
    expect(check(counter(false)).liveness).toBeUndefined();
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
    expect(junitReport(model, result, info)).toMatch(/<testcase classname="liveness" name="back-to-zero"[^>]*>\s*<failure/);
    expect(sarifReport(model, result, info).runs[0].results.map((r) => r.ruleId)).toEqual(['back-to-zero']);
    expect(githubAnnotations(model, result, info).filter((l) => l.startsWith('::error')).length).toBe(1);
    expect(markdownReport(model, result, info)).toMatch(/\| `back-to-zero` \| liveness \| ❌ violated \|[\s\S]*### Liveness counterexample to `back-to-zero` \(a lasso\)/);
    // The heading says only what this model's check assumes: no fairness words of another subject.
    expect(text).toContain('liveness (whole graph, no symmetry)\n');
    expect(formatOutcome(model, result, { ...info, livenessFairness: 'inc is fair' })).toContain('liveness (whole graph, no symmetry; inc is fair)');
  });
});
