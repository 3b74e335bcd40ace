/**
 * `kubecheck explore`: the session's answers (a state by path, its enabled steps, violations, the
 * ITF of a path that `replay` accepts), the server's refusals of bad requests (4xx, and it goes
 * on serving), and the page in headless Chromium: it loads, a click on a step changes the state,
 * a counterexample opens at its violating step, and it renders at two window sizes.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Server } from 'node:http';
import { replayPath } from '../../checker/index.js';
import { exploreSession, serveExplorer } from '../../cli/commands/explore.js';
import { answer, parsePath, type ExplorerSession } from '../../cli/explorer.js';
import { parseItf } from '../../reports/itf.js';
import { replayItf } from '../../reports/replay.js';
import { Browser, chromium, pngFacts } from '../browser.js';

const OPTIONS = { scenario: 'node-failure', set: { 'operator.forceDeletePod': '1' }, property: ['statefulset-at-most-one', 'node-marked-unknown'], timeLimit: 60 };

let session: ExplorerSession<unknown>;
let server: Server;
let url: string;

beforeAll(async () => {
  session = await exploreSession(OPTIONS);
  ({ server, url } = await serveExplorer(session));
}, 300_000);

afterAll(() => {
  server?.close();
  server?.closeAllConnections();
});

const get = (address: string): { status: number; body: Record<string, unknown> } => {
  const a = answer(session, 'GET', address);
  return { status: a.status, body: a.type.startsWith('application/json') ? (JSON.parse(a.body) as Record<string, unknown>) : { text: a.body } };
};

interface ActionView { ordinal: number; actor: string; summary: string; fault: boolean; path: string }

describe('kubecheck explore: the session', () => {
  it('should list the last check\'s counterexample and witness with paths that replay to them', () => {
    const cx = session.traces.find((t) => t.status === 'violated');
    const witness = session.traces.find((t) => t.status === 'witnessed');
    expect(cx?.property).toBe('statefulset-at-most-one');
    expect(witness?.property).toBe('node-marked-unknown');
    expect(session.traces[0]).toBe(cx); // counterexamples first
    const path = parsePath(cx!.path);
    if (typeof path === 'string') throw new Error(path);
    expect(replayPath(session.model, path).actions).toHaveLength(cx!.steps);
    const atEnd = get(`/api/state?path=${cx!.path}`).body;
    expect(atEnd.violations).toContain('statefulset-at-most-one');
    expect(atEnd.depth).toBe(cx!.steps);
  });

  it('should give a state\'s enabled steps, faults marked, each leading to the state its path names', () => {
    const start = get('/api/state?path=0').body;
    expect(start.depth).toBe(0);
    expect(start.violations).toEqual([]);
    const actions = start.actions as ActionView[];
    expect(actions.some((a) => a.fault && /crashes/.test(a.summary))).toBe(true);
    expect(actions.some((a) => a.fault && /force-deletes/.test(a.summary))).toBe(true);
    const tick = actions.find((a) => !a.fault)!;
    expect(tick.summary).toBe('1s pass');
    const next = get(`/api/state?path=${tick.path}`).body;
    expect(next.depth).toBe(1);
    expect(next.time).toBe('T+1s');
    expect((next.steps as { summary: string }[])[0].summary).toBe('1s pass');
    expect(next.reopen).toBe(`kubecheck explore --scenario node-failure --set operator.forceDeletePod=1 --property statefulset-at-most-one --property node-marked-unknown --path ${tick.path}`);
    // A force delete of db-0 shows what it changed.
    const force = actions.find((a) => /force-deletes pod db-0/.test(a.summary))!;
    expect(get(`/api/state?path=${force.path}`).body.changes).toContain('api.pods[db-0]: removed');
  });

  it('should write a path as an ITF trace that replay rebuilds and reproduces', () => {
    const cx = session.traces.find((t) => t.status === 'violated')!;
    const a = answer(session, 'GET', `/api/itf?path=${cx.path}`);
    expect(a.status).toBe(200);
    expect(a.headers?.['content-disposition']).toMatch(/attachment; filename="explore-\d+-steps\.itf\.json"/);
    const itf = parseItf(a.body);
    expect(itf.meta.scenario).toBe('node-failure');
    const rep = replayItf(session.model, itf);
    expect(rep.trace.actions).toHaveLength(cx.steps);
  });

  it('should refuse bad requests with a 4xx and a message', () => {
    expect(get('/api/state?path=0.x').status).toBe(400);
    expect(get('/api/state?path=-1').status).toBe(400);
    expect(get(`/api/state?path=0${'.0'.repeat(100_001)}`).status).toBe(400);
    const missing = get('/api/state?path=0.999');
    expect(missing.status).toBe(404);
    expect(missing.body.error).toMatch(/step 1: candidate 999 is not enabled/);
    expect(get('/api/state?path=99').body.error).toMatch(/initial state 99 does not exist/);
    expect(get('/nothing-here').status).toBe(404);
    expect(answer(session, 'POST', '/api/state').status).toBe(405);
    expect(answer(session, 'DELETE', '/').headers?.allow).toBe('GET, HEAD');
  });
});

describe('kubecheck explore: the server', () => {
  it('should serve on the loopback interface and go on after bad requests', async () => {
    expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/$/);
    for (const bad of ['api/state?path=0..1', 'api/state?path=0.999999', '%E0%A4%A', 'api/itf?path=zz']) {
      const r = await fetch(url + bad);
      expect(r.status).toBeGreaterThanOrEqual(400);
      expect(r.status).toBeLessThan(500);
      expect(((await r.json()) as { error: string }).error.length).toBeGreaterThan(10);
    }
    const post = await fetch(url, { method: 'POST', body: 'x' });
    expect(post.status).toBe(405);
    const page = await fetch(url);
    expect(page.status).toBe(200);
    const html = await page.text();
    expect(html).toContain('<title>kubecheck explore node-failure</title>');
    expect(html).not.toMatch(/<(script|link|img)[^>]+(src|href)=["']?https?:/); // no outside assets
    const svg = await fetch(`${url}graph.svg`);
    expect(svg.headers.get('content-type')).toBe('image/svg+xml');
    expect(await svg.text()).toMatch(/<svg[\s\S]*<title>s0<\/title>/);
  });
});

const binary = chromium();

describe.skipIf(binary === undefined)(`kubecheck explore: the page in headless Chromium (${binary ?? 'skipped: no chromium'})`, () => {
  let browser: Browser;
  beforeAll(() => {
    browser = Browser.launch(binary!);
  });
  afterAll(() => browser?.close());


  it('should load, take a step on a click, step back, and open a counterexample at its violating step', async () => {
    const page = await browser.page(1400, 1000);
    await page.goto(url);
    await page.until("document.body.dataset.ready === 'true'");
    expect(await page.eval<string>("document.getElementById('where').textContent")).toBe('Initial state');
    expect(await page.eval<number>("document.querySelectorAll('#actions button.action.fault').length")).toBeGreaterThan(3);
    expect(await page.eval<number>("document.querySelectorAll('#graph svg g.node').length")).toBeGreaterThan(3);
    expect(await page.eval<number>("document.querySelectorAll('#graph svg g.node.here').length")).toBe(1);
    // Click the force delete of db-0: one step taken, its change shown, the address holds the path.
    await page.eval("[...document.querySelectorAll('#actions button')].find((b) => /force-deletes pod db-0/.test(b.textContent)).click()");
    await page.until("document.body.dataset.depth === '1'");
    expect(await page.eval<string>("document.getElementById('changes').textContent")).toContain('api.pods[db-0]: removed');
    expect(await page.eval<string>('location.hash')).toMatch(/^#path=0\.\d+$/);
    expect(await page.eval<string>("document.querySelector('#steps li.here').textContent")).toMatch(/^1\. T\+0s\s+operator\s+force-deletes pod db-0/);
    // Step back.
    await page.eval("document.getElementById('back').click()");
    await page.until("document.body.dataset.depth === '0'");
    // The counterexample: opened at its violating step, the violation named.
    await page.eval("document.querySelector('#traces button.violated').click()");
    await page.until("document.body.dataset.depth !== '0'");
    const cx = session.traces.find((t) => t.status === 'violated')!;
    expect(await page.eval<string>('document.body.dataset.path')).toBe(cx.path);
    expect(await page.eval<string>("document.getElementById('where').textContent")).toContain('violating step of a counterexample to statefulset-at-most-one');
    expect(await page.eval<string>("document.getElementById('violations').textContent")).toBe('Violates statefulset-at-most-one');
    expect(await page.eval<string>("document.getElementById('itf').getAttribute('href')")).toBe(`/api/itf?path=${encodeURIComponent(cx.path)}`);
    // A bad address in the page: a message, no crash.
    await page.eval("location.hash = 'path=0.999'");
    await page.until("document.getElementById('error').textContent.length > 0");
    expect(await page.eval<string>("document.getElementById('error').textContent")).toMatch(/candidate 999 is not enabled/);
  }, 60_000);

  for (const [width, height] of [[1400, 1000], [800, 1000]] as const) {
    it(`should render at ${width}x${height} with nothing wider than the window`, async () => {
      const page = await browser.page(width, height);
      const cx = session.traces.find((t) => t.status === 'violated')!;
      await page.goto(`${url}#path=${cx.path}`);
      await page.until("document.body.dataset.ready === 'true'");
      // Text wraps inside the window: the page itself does not scroll sideways (the graph scrolls in its own box).
      expect(await page.eval<number>('document.documentElement.scrollWidth')).toBeLessThanOrEqual(width);
      const facts = pngFacts(await page.screenshot());
      expect(facts.width).toBe(width);
      expect(facts.height).toBe(height);
      expect(facts.colours).toBeGreaterThan(20);
      expect(facts.inkRows).toBeGreaterThan(200);
    }, 60_000);
  }
});
