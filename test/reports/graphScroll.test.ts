/**
 * The HTML report's projected state graph opens on the counterexample's path: the graph sits in
 * a frame that scrolls, the frame names the path's nodes (`data-path`, ids that exist in its SVG,
 * in the order the trace visits them), and the page's script scrolls the frame to them. A graph
 * much wider than the page drew its first node (centred at the top) off screen.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { action, always, check, type Model, type Trace } from '../../checker/index.js';
import { runArtifacts } from '../../reports/artifacts.js';
import { projectedGraph } from '../../reports/projected.js';
import { Browser, chromium } from '../browser.js';

const FAN = 40;
/**
 * A fan: from 0 one step to each of 1..FAN, and from FAN on to the bad state -1. Its graph is one
 * wide row of FAN boxes; the shortest counterexample goes 0 → FAN → -1.
 */
const fan: Model<number> = {
  name: 'fan',
  initialStates: () => [0],
  actions: [
    action<number, number>({ name: 'branch', params: (s) => (s === 0 ? Array.from({ length: FAN }, (_, k) => k + 1) : []), apply: (_s, k) => k }),
    action<number>({ name: 'fail', enabled: (s) => s === FAN, apply: () => -1 }),
  ],
  describeState: (s) => (s < 0 ? 'failed' : `branch ${String(s).padStart(2, '0')} of the fan, drawn as a wide box`),
  properties: [always<number>('never-fails', 'the fan never fails', (s) => s >= 0)],
};
const result = check(fan);
const info = { command: 'check' as const, scenario: 'fan' };
let page: Promise<string> | undefined;
const reportHtml = (): Promise<string> => (page ??= runArtifacts(fan, result, info, undefined, 500).then((files) => files.find((f) => f.name === 'report.html')!.content));

describe('the projected graph in the HTML report', () => {
  it('should sit in a scrolling frame that names the path\'s nodes, each an id of its SVG, in order', async () => {
    const html = await reportHtml();
    expect(result.properties[0].trace!.actions.map((a) => a.name)).toEqual(['branch', 'fail']);
    const path = projectedGraph(fan, { trace: result.properties[0].trace as Trace<unknown> }).path!;
    expect(path).toHaveLength(3);
    const frame = /<div class="figure graph" data-path="([^"]+)">([\s\S]*?<\/svg>)\s*<\/div>/.exec(html)!;
    const ids = frame[1].split(' ');
    expect(ids).toEqual(path.map((n) => `cx0-s${n}`));
    // Each names a node of the graph drawn in the frame: the first the initial state's group.
    for (const [k, id] of ids.entries()) expect(frame[2]).toMatch(new RegExp(`<g id="${id}" class="node">\\s*<title>s${path[k]}</title>`));
    expect(frame[2]).toMatch(new RegExp(`<g id="${ids[0]}" class="node">\\s*<title>s\\d+</title>[\\s\\S]*?branch 00 of the fan`));
    expect(html).toMatch(/\.figure\{overflow:auto[^}]*\}\.figure\.graph\{max-height:/);
    expect(html).toContain("document.querySelectorAll('.graph[data-path]').forEach(scrollToPath);");
  });

  const browser = chromium();
  it.skipIf(browser === undefined)('should open scrolled to the path in Chromium, its first node in view', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'kc-graph-'));
    const file = join(dir, 'report.html');
    writeFileSync(file, await reportHtml());
    const b = Browser.launch(browser!);
    try {
      const view = await b.page(1280, 900);
      await view.goto(`file://${file}`);
      await view.until("document.readyState === 'complete'");
      // The path's first node, the initial state's group, found by its label.
      const seen = await view.eval<{ wide: boolean; inView: boolean }>(`(() => {
        const frame = document.querySelector('.figure.graph');
        const box = frame.getBoundingClientRect();
        const first = [...frame.querySelectorAll('g.node')].find((g) => g.textContent.includes('branch 00 of'));
        const r = first.getBoundingClientRect();
        return { wide: frame.scrollWidth > 2 * frame.clientWidth, inView: r.left >= box.left && r.right <= box.right && r.top >= box.top && r.bottom <= box.bottom };
      })()`);
      expect(seen.wide).toBe(true);
      expect(seen.inView).toBe(true);
    } finally {
      await b.close();
    }
  }, 60_000);
});
