/**
 * The HTML report: one self-contained page with a trace stepper, the sequence diagram and the
 * projected graph. Parsed here always; rendered in headless Chromium (Debian package `chromium`)
 * when it is installed, with the page's content read back from the DOM after its script ran and
 * a screenshot checked to be a real rendering.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { kubernetesSubject } from '../../cli/kubernetesSubject.js';
import { runArtifacts } from '../../reports/artifacts.js';
import { htmlReport } from '../../reports/html.js';
import { check, type CheckResult } from '../../checker/index.js';

import { Browser, chromium, pngFacts } from '../browser.js';
import { partitioned as resolved, partitionedCopyResult } from '../fixtures/partitionedCopy.js';

const result = partitionedCopyResult();
const info = { command: 'check' as const, scenario: 'node-partition', config: resolved.config };
let built: Promise<string> | undefined;
/** The report as --out writes it (built once: the projected graph explores the space). */
const reportHtml = (): Promise<string> =>
  (built ??= runArtifacts(resolved.model, result, info, kubernetesSubject.participants, 500).then((files) => files.find((f) => f.name === 'report.html')!.content));

let long: { html: string; steps: number; unfolded: string } | undefined;
/** A 470-step node-failure run (the shortest to replacement-running) as a counterexample's report. */
function longReport(): { html: string; steps: number; unfolded: string } {
  if (long) return long;
  const nf = kubernetesSubject.resolve('node-failure', {});
  const found = check(nf.model, { properties: ['replacement-running'] });
  const outcome = { ...found.properties[0], status: 'violated' as const };
  const asViolation: CheckResult<unknown> = { ...found, verdict: 'violation', properties: [outcome] };
  const at = { command: 'check' as const, scenario: 'node-failure' };
  long = { html: htmlReport(nf.model, asViolation, at), steps: outcome.trace!.actions.length, unfolded: htmlReport(nf.model, asViolation, at, { fold: false }) };
  return long;
}

const browser = chromium();
const headless = (args: readonly string[]): string =>
  spawnSync(browser!, ['--headless', '--no-sandbox', '--disable-gpu', '--hide-scrollbars', ...args], { encoding: 'utf8', timeout: 60_000 }).stdout;


describe('the HTML report', () => {
  it('should be one self-contained page with the steps, the diagram and the data for the stepper', async () => {
    const html = await reportHtml();
    expect(html).not.toMatch(/<(script|img|iframe)[^>]+src=/i);
    expect(html).not.toMatch(/<link\b/i);
    expect(html).not.toMatch(/https?:\/\/(?!www\.w3\.org)/);
    const data = JSON.parse(/<script type="application\/json" id="kubecheck-data">([\s\S]*?)<\/script>/.exec(html)![1]) as { property: string; steps: { summary: string; changes: string[]; state: string; fault: boolean }[] }[];
    const trace = result.properties[0].trace!;
    expect(data).toHaveLength(1);
    expect(data[0].steps).toHaveLength(trace.actions.length);
    expect(data[0].steps.filter((s) => s.fault).length).toBe(2);
    expect(data[0].steps[1].changes).toContain('api.pods[db-0]: removed');
    expect(JSON.parse(data[0].steps[0].state).nodes[2]).toMatchObject({ name: 'node-3', partitioned: true });
    expect(html).toMatch(/<svg class="sequence"[\s\S]*>kubelet\/node-3<\/text>/);
    expect(html).toContain('<h3>State graph, projected</h3>');
    expect(htmlReport(resolved.model, { ...result, properties: [] }, info)).toContain('No counterexample');
  });

  it('should put the steps that matter first: the faults and the violating step, each a link to it', () => {
    const { html, steps } = longReport();
    const key = /<p><b>The steps that matter<\/b> \((\d+) of (\d+)\):<\/p><ol class="key-steps">([\s\S]*?)<\/ol>/.exec(html)!;
    expect(Number(key[2])).toBe(steps);
    const items = key[3].match(/<li\b[\s\S]*?<\/li>/g)!;
    expect(items).toHaveLength(Number(key[1]));
    expect(items.length).toBeLessThan(5);
    expect(items[0]).toMatch(/<li class="fault"><a href="#cx=0&amp;step=\d+">\d+\. T\+\d+s  fault  node-\d crashes/);
    expect(items[items.length - 1]).toContain(`<a href="#cx=0&amp;step=${steps}">`);
    expect(items[items.length - 1]).toContain('(violates)');
  });

  it('should list a long trace as a few rows, each quiet stretch one row that opens, every step still a row', () => {
    const { html, steps, unfolded } = longReport();
    const list = /<ol class="steps">([\s\S]*?)<\/div>/.exec(html)![1];
    const top = list.replace(/<ol>[\s\S]*?<\/ol>/g, '');
    const rows = top.match(/<li\b/g)!.length;
    expect(rows).toBeLessThan(25);
    // Every step keeps its row (for step links and the state pane), folded ones inside their stretch.
    for (let i = 0; i <= steps; i++) expect(list).toContain(`<li data-step="${i}"`);
    const folds = [...list.matchAll(/<li class="fold" data-from="(\d+)" data-to="(\d+)"><details><summary>([^<]*)<\/summary><ol>([\s\S]*?)<\/ol>/g)];
    expect(folds.length).toBeGreaterThan(2);
    for (const [, from, to, summary, inner] of folds) {
      expect(summary).toContain(`(${Number(to) - Number(from) + 1} steps: ${from}–${to})`);
      expect([...inner.matchAll(/data-step="(\d+)"/g)].map((m) => Number(m[1]))).toEqual(Array.from({ length: Number(to) - Number(from) + 1 }, (_, k) => Number(from) + k));
    }
    expect(top).toMatch(/<li data-step="11" class="fault">11\. T\+9s  fault  node-1 crashes/);
    // The sequence diagram folds the same stretches; unfolded, every step is a row of its own.
    expect(html).toMatch(/<text [^>]*class="time">T\+9s\.\.T\+50s 41s pass, heartbeats and node-monitor passes as usual \(54 steps: 12–65\)<\/text>/);
    expect(unfolded).not.toContain('class="fold"');
    expect(/<ol class="steps">([\s\S]*?)<\/ol>/.exec(unfolded)![1].match(/<li\b/g)).toHaveLength(steps + 1);
  });

  it.skipIf(browser === undefined)('should open a folded stretch in Chromium when a step in it is shown', () => {
    const dir = mkdtempSync(join(tmpdir(), 'kc-html-'));
    const page = join(dir, 'long.html');
    writeFileSync(page, longReport().html);
    const dom = headless(['--virtual-time-budget=3000', '--dump-dom', `file://${page}#cx=0&step=200`]);
    expect(dom).toMatch(/<span class="where">step 200 of 470 \(T\+/);
    expect(dom).toMatch(/<li class="fold" data-from="(\d+)" data-to="(\d+)"><details open="">(?:(?!<\/details>)[\s\S])*<li data-step="200" class="active">/);
    // Only that stretch opened; at the last step (no address) every stretch stays closed.
    expect(dom.match(/<details open="">/g)).toHaveLength(1);
    const last = headless(['--virtual-time-budget=3000', '--dump-dom', `file://${page}`]);
    expect(last).not.toContain('<details open');
    expect(last).toMatch(/<li data-step="470" class="active">/);
  });

  it.skipIf(browser === undefined)(`should step through the trace in headless Chromium and render it (${browser ?? 'skipped: no chromium binary; apt-get install chromium, or set CHROMIUM'})`, async () => {
    const dir = mkdtempSync(join(tmpdir(), 'kc-html-'));
    const page = join(dir, 'report.html');
    writeFileSync(page, await reportHtml());
    // The DOM after the page's script ran, opened at step 2.
    const dom = headless(['--virtual-time-budget=3000', '--dump-dom', `file://${page}#cx=0&step=2`]);
    const section = /<section class="counterexample" id="cx-0"[^>]*>/.exec(dom)![0];
    expect(section).toContain('data-step="2"');
    expect(dom).toMatch(/<span class="where">step 2 of 6 \(T\+0s\)\s+operator: force-deletes pod db-0/);
    expect(dom).toMatch(/<pre class="diff">api\.pods\[db-0\]: removed\nbudget\.forceDeletePod: 1 → 0<\/pre>/);
    expect(dom).toMatch(/<li data-step="2" class="fault active">/);
    expect(dom).toMatch(/<pre class="summary">node-1 Ready=True running\{web-0\}\nnode-2/);
    // Without a step in the address it opens at the violating step.
    const last = headless(['--virtual-time-budget=3000', '--dump-dom', `file://${page}`]);
    expect(last).toMatch(/<span class="where">step 6 of 6 \(T\+0s\)\s+kubelet\/node-1: starts db-0 on node-1/);
    // A screenshot: the page really renders (text in many rows, the colours of the diagrams).
    const shot = join(dir, 'report.png');
    headless(['--virtual-time-budget=3000', `--screenshot=${shot}`, '--window-size=1280,1400', `file://${page}#cx=0&step=2`]);
    const facts = pngFacts(shot);
    expect(facts.width).toBe(1280);
    expect(facts.height).toBe(1400);
    expect(facts.colours).toBeGreaterThan(50);
    expect(facts.inkRows).toBeGreaterThan(300);
  });
});

describe.skipIf(browser === undefined)('HTML report in Chromium: text stays where it was laid out', () => {
  it('should keep every graph label in its box, every diagram label in its lane, and the page within the window', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'kc-html-'));
    const file = join(dir, 'report.html');
    writeFileSync(file, await reportHtml());
    const b = Browser.launch(browser!);
    try {
      const page = await b.page(1400, 1000);
      await page.goto(`file://${file}`);
      await page.until("document.querySelectorAll('.graph svg g.node').length > 0 && document.readyState === 'complete' && document.fonts.status === 'loaded'");
      const overflow = await page.eval<string[]>(`(() => {
        const out = [];
        document.querySelectorAll('.graph svg g.node').forEach((g) => {
          const w = g.querySelector('polygon, path, ellipse').getBBox().width;
          g.querySelectorAll('text').forEach((t) => { const len = t.textLength.baseVal.value || t.getComputedTextLength(); if (len > w) out.push(t.textContent + ' ' + len + '>' + w); });
        });
        document.querySelectorAll('svg.sequence text[data-fit]').forEach((t) => { const len = t.textLength.baseVal.value || t.getComputedTextLength(); if (len > Number(t.dataset.fit) + 0.5) out.push(t.textContent); });
        return out;
      })()`);
      expect(overflow).toEqual([]);
      // A step that matters, clicked: the stepper shows it.
      await page.eval("document.querySelector('.key-steps a').click()");
      await page.until("document.querySelector('#cx-0').dataset.step !== '6'");
      expect(await page.eval<string>("document.querySelector('#cx-0 .where').textContent")).toMatch(/^step \d+ of \d+ \(T\+\d+s\)\s+(operator|fault)/);
      // The sequence diagram's frame stays within the window (a wider diagram scrolls inside it).
      expect(await page.eval<number>("Math.round(document.querySelector('.sequence-figure').getBoundingClientRect().right)")).toBeLessThanOrEqual(1400);
      expect(await page.eval<number>('document.documentElement.scrollWidth')).toBeLessThanOrEqual(1400);
    } finally {
      await b.close();
    }
  }, 60_000);
});
