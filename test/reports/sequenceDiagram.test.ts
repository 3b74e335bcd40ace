/**
 * The HTML report's sequence diagram stays legible at any lane count: drawn at its own size in a
 * frame that scrolls sideways (never shrunk to the window: 11 lanes made 7 px text), its text at
 * the diagram's font size and wrapped where a lane is too narrow, and a lane nothing drawn acts
 * on (a component that only passes a message on) left out and named beneath it.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { action, always, check, type Model } from '../../checker/index.js';
import { htmlReport } from '../../reports/html.js';
import { CHAR_PX, wrapText } from '../../reports/sequenceSvg.js';
import { Browser, chromium } from '../browser.js';

/** Smallest font a reader is given, in CSS pixels. */
const MIN_FONT_PX = 11;

const controllers = Array.from({ length: 10 }, (_, i) => `controller-${i + 1}`);
/**
 * Twelve steps, each by one of ten controllers, through `api` to `store` (a relay the diagram does
 * not draw): eleven lanes drawn, one left out.
 */
const model: Model<number> = {
  name: 'eleven-lanes',
  initialStates: () => [0],
  actions: [
    action<number>({
      name: 'write',
      enabled: (s) => s < 12,
      apply: (s) => s + 1,
      describe: (s) => ({ actor: controllers[s % 10], summary: `writes object-${s} with a summary long enough to need more than one line of its lane`, to: ['api', 'store'] }),
    }),
  ],
  properties: [always<number>('few-writes', 'at most eleven writes', (s) => s < 12)],
};
const result = check(model);
const html = htmlReport(model, result, { command: 'check', scenario: 'eleven-lanes' });
const svg = /<svg class="sequence"[\s\S]*?<\/svg>/.exec(html)![0];

describe('the sequence diagram of eleven lanes', () => {
  it('should draw eleven lanes and name the one left out', () => {
    expect(result.properties[0].trace!.actions).toHaveLength(12);
    const heads = [...svg.matchAll(/<rect [^>]*class="head"\/>((?:<text [^>]*>[^<]*<\/text>)+)/g)].map((m) => m[1].replace(/<[^>]+>/g, ''));
    expect(heads).toEqual([controllers[0], 'api', ...controllers.slice(1)]);
    expect(html).toContain('<p class="collapsed">Lanes left out, since no step drawn acts on them (they only pass a message on): <code>store</code>.</p>');
  });

  it('should be drawn at its own size in a frame that scrolls, its text never below the minimum', () => {
    const [, w, h, vw, vh] = /^<svg class="sequence" [^>]*width="(\d+)" height="(\d+)" viewBox="0 0 (\d+) (\d+)"/.exec(svg)!;
    // One unit of the drawing is one CSS pixel: 11 lanes are wider than the page, and scroll.
    expect([w, h]).toEqual([vw, vh]);
    expect(Number(w)).toBeGreaterThan(1400);
    expect(svg).not.toMatch(/^<svg[^>]*(width="100%"|max-width)/);
    expect(html).toContain('<div class="figure sequence-figure"><svg class="sequence"');
    expect(html).toMatch(/\.figure\{overflow:auto/);
    const font = /svg\.sequence text\{font:(\d+(?:\.\d+)?)px/.exec(html)!;
    expect(Number(font[1])).toBeGreaterThanOrEqual(MIN_FONT_PX);
    expect(svg).not.toMatch(/font-size|textLength/);
    // Every text fits the room it is given, so nothing needs squeezing: long ones wrap.
    const texts = [...svg.matchAll(/<text [^>]*data-fit="(\d+)"[^>]*>([^<]*)<\/text>/g)];
    expect(texts.length).toBeGreaterThan(12 + 11);
    for (const [, fit, text] of texts) expect(text.replace(/&[a-z#0-9]+;/g, '&').length * CHAR_PX).toBeLessThanOrEqual(Number(fit));
    // The first step's text, wrapped: nothing of it is lost.
    const first = /<g>((?:<text [^>]*>[^<]*<\/text>)+)<\/g><line /.exec(svg)![1].match(/>[^<]+</g)!.map((t) => t.slice(1, -1));
    expect(first.length).toBeGreaterThan(1);
    expect(first.join(' ')).toBe('T+0s writes object-0 with a summary long enough to need more than one line of its lane');
  });

  it('should wrap after spaces and slashes and cut what is beyond its lines', () => {
    expect(wrapText('kube-controller-manager/node-lifecycle', 174, 2)).toEqual(['kube-controller-manager/', 'node-lifecycle']);
    expect(wrapText('a b c d e f', 3 * CHAR_PX, 2)).toEqual(['a b', 'c d…']);
    expect(wrapText('abcdefghij', 4 * CHAR_PX)).toEqual(['abcd', 'efgh', 'ij']);
  });

  const browser = chromium();
  it.skipIf(browser === undefined)('should show every lane\'s text at the minimum size or larger in Chromium, the page no wider than its window', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'kc-lanes-'));
    const file = join(dir, 'report.html');
    writeFileSync(file, html);
    const b = Browser.launch(browser!);
    try {
      const page = await b.page(1280, 900);
      await page.goto(`file://${file}`);
      await page.until("document.readyState === 'complete' && document.fonts.status === 'loaded'");
      // Each text's size as drawn: its font, the drawing's scale, and any squeezing of its length.
      const sizes = await page.eval<number[]>(`(() => [...document.querySelectorAll('svg.sequence text')].map((t) => {
        const scale = t.ownerSVGElement.getScreenCTM().a;
        const squeeze = t.textLength.baseVal.value > 0 ? t.textLength.baseVal.value / t.getComputedTextLength() : 1;
        return parseFloat(getComputedStyle(t).fontSize) * scale * Math.min(1, squeeze);
      }))()`);
      expect(sizes.length).toBeGreaterThan(20);
      expect(Math.min(...sizes)).toBeGreaterThanOrEqual(MIN_FONT_PX);
      expect(await page.eval<number>('document.documentElement.scrollWidth')).toBeLessThanOrEqual(1280);
      expect(await page.eval<boolean>("(() => { const f = document.querySelector('.sequence-figure'); return f.scrollWidth > f.clientWidth; })()")).toBe(true);
    } finally {
      await b.close();
    }
  }, 60_000);
});
