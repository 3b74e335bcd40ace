/**
 * The why-line in every report: a counterexample opens with the one line its property's
 * `explain` hook gives (text, --json, Markdown, HTML, JUnit, SARIF, GitHub annotations), and a
 * property without a hook gets no line and no placeholder.
 */
import { describe, expect, it } from 'vitest';
import { always, alwaysStep, check, type Model } from '../../checker/index.js';
import { counter } from '../toys/counter.js';
import { githubAnnotations } from '../../reports/githubAnnotations.js';
import { htmlReport } from '../../reports/html.js';
import { outcomeJson } from '../../reports/json.js';
import { junitReport } from '../../reports/junit.js';
import { markdownReport } from '../../reports/markdown.js';
import { formatOutcome, violationWhy } from '../../reports/outcome.js';
import { sarifReport } from '../../reports/sarif.js';

// `small` explains itself from the last state; `slow` (no hook) says nothing.
const small = always<number>('small', 'x stays below 3', (x) => x < 3, { explain: (x) => `x is ${x} <at> 3 & more` });
const slow = alwaysStep<number>('slow', 'x never reaches 2', (_b, _a, after) => after !== 2);
const model: Model<number> = counter({ max: 4, properties: [small, slow] });
const result = check(model);
const info = { command: 'check' as const, scenario: 'counter' };
const WHY = 'x is 3 <at> 3 & more';

describe('the why-line', () => {
  it('should come from the property\'s hook on its counterexample, and be absent without one', () => {
    expect(result.properties.map((p) => [p.id, p.status])).toEqual([['small', 'violated'], ['slow', 'violated']]);
    expect(violationWhy(model, result.properties[0])).toBe(WHY);
    expect(violationWhy(model, result.properties[1])).toBeUndefined();
    // A property the model does not have (a liveness lasso drawn like one) has none either.
    expect(violationWhy(model, { ...result.properties[0], id: 'elsewhere' })).toBeUndefined();
  });

  it('should be printed right under the counterexample\'s header in check\'s text', () => {
    const lines = formatOutcome(model, result, info).split('\n');
    const head = lines.indexOf('✗ small: x stays below 3');
    expect(lines[head + 1]).toBe(`  why: ${WHY}`);
    expect(lines[head + 2]).toMatch(/^ {2}counterexample: 3 steps/);
    const other = lines.indexOf('✗ slow: x never reaches 2');
    expect(lines[other + 1]).toMatch(/^ {2}counterexample: 2 steps/);
    expect(lines.filter((l) => l.includes('why:'))).toHaveLength(1);
  });

  it('should be a why field of the violated property and of its counterexample in --json', () => {
    const json = outcomeJson(model, result, info) as { properties: Record<string, unknown>[]; counterexamples: Record<string, unknown>[] };
    expect(json.properties[0]).toMatchObject({ id: 'small', status: 'violated', why: WHY });
    expect(json.properties[1]).not.toHaveProperty('why');
    expect(json.counterexamples[0]).toMatchObject({ property: 'small', why: WHY });
    expect(json.counterexamples[1]).not.toHaveProperty('why');
  });

  it('should open the Markdown and HTML counterexample sections, escaped', () => {
    const md = markdownReport(model, result, info).split('\n');
    const at = md.indexOf('### Counterexample to `small`');
    expect(md.slice(at + 1, at + 3)).toEqual(['', '**Why:** x is 3 \\<at\\> 3 & more']);
    expect(md.filter((l) => l.startsWith('**Why:**'))).toHaveLength(1);
    const html = htmlReport(model, result, info);
    expect(html).toContain('<h2>Counterexample to <code>small</code></h2>\n<p class="why"><b>Why:</b> x is 3 &lt;at&gt; 3 &amp; more</p>');
    expect(html.match(/class="why"/g)).toHaveLength(1);
  });

  it('should be in JUnit\'s failure message and body, SARIF\'s result message and the GitHub annotation', () => {
    const xml = junitReport(model, result, info);
    expect(xml).toContain('<failure message="x stays below 3: x is 3 &lt;at&gt; 3 &amp; more (counterexample: 3 steps)" type="violated">small: x stays below 3\nwhy: x is 3 &lt;at&gt; 3 &amp; more\ncounterexample: 3 steps');
    expect(xml).toContain('<failure message="x never reaches 2 (counterexample: 2 steps)" type="violated">slow: x never reaches 2\ncounterexample: 2 steps');
    const results = sarifReport(model, result, info).runs[0].results;
    expect(results.map((r) => r.message.text)).toEqual([`x stays below 3: violated (${WHY}); counterexample of 3 steps`, 'x never reaches 2: violated; counterexample of 2 steps']);
    expect(githubAnnotations(model, result, info)).toEqual([
      `::error title=small::kubecheck counter: small violated: x stays below 3 (${WHY}); counterexample of 3 steps`,
      '::error title=slow::kubecheck counter: slow violated: x never reaches 2; counterexample of 2 steps',
    ]);
  });
});
