/**
 * Headless Chromium for the tests of pages (the HTML report, the explorer): the binary if one is
 * installed (Debian package `chromium`, or CHROMIUM), facts of a PNG it wrote, and a small client
 * of the DevTools protocol over a pipe (`--remote-debugging-pipe`: no port, no WebSocket library)
 * to load a page, run script in it, click and take screenshots.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Readable, Writable } from 'node:stream';
import { inflateSync } from 'node:zlib';
import { expect } from 'vitest';

/** The Chromium binary, if one is installed. */
export function chromium(): string | undefined {
  for (const name of [process.env.CHROMIUM, 'chromium', 'chromium-browser', 'google-chrome']) {
    if (!name) continue;
    const r = spawnSync(name, ['--version'], { encoding: 'utf8' });
    if (r.status === 0) return name;
  }
  return undefined;
}
/** Width, height and the number of distinct colours of a PNG (8-bit RGB or RGBA, not interlaced). */
export function pngFacts(file: string | Buffer): { width: number; height: number; colours: number; inkRows: number } {
  const buf = typeof file === 'string' ? readFileSync(file) : file;
  expect(buf.subarray(1, 4).toString()).toBe('PNG');
  let at = 8;
  let width = 0;
  let height = 0;
  let channels = 4;
  const idat: Buffer[] = [];
  while (at < buf.length) {
    const len = buf.readUInt32BE(at);
    const type = buf.subarray(at + 4, at + 8).toString();
    const body = buf.subarray(at + 8, at + 8 + len);
    if (type === 'IHDR') {
      width = body.readUInt32BE(0);
      height = body.readUInt32BE(4);
      channels = body[9] === 6 ? 4 : 3;
      expect(body[8]).toBe(8);
      expect(body[12]).toBe(0);
    }
    if (type === 'IDAT') idat.push(body);
    at += 12 + len;
  }
  const raw = inflateSync(Buffer.concat(idat));
  const stride = width * channels;
  const rows: Uint8Array[] = [];
  let prev = new Uint8Array(stride);
  for (let y = 0; y < height; y++) {
    const filter = raw[y * (stride + 1)];
    const line = new Uint8Array(raw.subarray(y * (stride + 1) + 1, (y + 1) * (stride + 1)));
    for (let x = 0; x < stride; x++) {
      const a = x >= channels ? line[x - channels] : 0;
      const b = prev[x];
      const c = x >= channels ? prev[x - channels] : 0;
      const p = a + b - c;
      const pr = Math.abs(p - a) <= Math.abs(p - b) && Math.abs(p - a) <= Math.abs(p - c) ? a : Math.abs(p - b) <= Math.abs(p - c) ? b : c;
      line[x] = (line[x] + [0, a, b, (a + b) >> 1, pr][filter]) & 255;
    }
    rows.push(line);
    prev = line;
  }
  const colours = new Set<number>();
  let inkRows = 0;
  for (const line of rows) {
    let ink = false;
    for (let x = 0; x < stride; x += channels) {
      colours.add((line[x] << 16) | (line[x + 1] << 8) | line[x + 2]);
      if (line[x] < 128 && line[x + 1] < 128 && line[x + 2] < 128) ink = true;
    }
    if (ink) inkRows++;
  }
  return { width, height, colours: colours.size, inkRows };
}

interface Pending {
  resolve(value: Record<string, unknown>): void;
  reject(error: Error): void;
}

/** One browser process, driven through the DevTools protocol. */
export class Browser {
  private nextId = 1;
  private readonly pending = new Map<number, Pending>();
  private buffer = '';

  private constructor(private readonly child: ChildProcess, private readonly profile: string) {
    const out = child.stdio[4] as Readable;
    out.setEncoding('utf8');
    out.on('data', (chunk: string) => {
      this.buffer += chunk;
      let end: number;
      while ((end = this.buffer.indexOf('\0')) >= 0) {
        const message = JSON.parse(this.buffer.slice(0, end)) as { id?: number; result?: Record<string, unknown>; error?: { message: string } };
        this.buffer = this.buffer.slice(end + 1);
        const p = message.id === undefined ? undefined : this.pending.get(message.id);
        if (p === undefined) continue;
        this.pending.delete(message.id!);
        if (message.error) p.reject(new Error(message.error.message));
        else p.resolve(message.result ?? {});
      }
    });
  }

  static launch(binary: string): Browser {
    const profile = mkdtempSync(join(tmpdir(), 'kc-chromium-'));
    const child = spawn(binary, ['--headless', '--no-sandbox', '--disable-gpu', '--hide-scrollbars', '--remote-debugging-pipe', `--user-data-dir=${profile}`, 'about:blank'], { stdio: ['ignore', 'ignore', 'ignore', 'pipe', 'pipe'] });
    return new Browser(child, profile);
  }

  send(method: string, params: Record<string, unknown> = {}, sessionId?: string): Promise<Record<string, unknown>> {
    const id = this.nextId++;
    const message = JSON.stringify({ id, method, params, ...(sessionId === undefined ? {} : { sessionId }) });
    return new Promise((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      (this.child.stdio[3] as Writable).write(`${message}\0`);
    });
  }

  /** A new tab of the given window size. */
  async page(width: number, height: number): Promise<Page> {
    const { targetId } = await this.send('Target.createTarget', { url: 'about:blank' });
    const { sessionId } = await this.send('Target.attachToTarget', { targetId, flatten: true });
    const page = new Page(this, sessionId as string);
    await page.send('Emulation.setDeviceMetricsOverride', { width, height, deviceScaleFactor: 1, mobile: false });
    return page;
  }

  /** Stops the browser and removes its profile once it has exited. */
  async close(): Promise<void> {
    const exited = this.child.exitCode !== null ? Promise.resolve() : new Promise<void>((resolve) => this.child.once('exit', () => resolve()));
    this.child.kill();
    await exited;
    try {
      rmSync(this.profile, { recursive: true, force: true, maxRetries: 10, retryDelay: 200 });
    } catch {
      // A helper process of the browser may still write to its profile: a temporary folder left
      // behind is no failure of the page under test.
    }
  }
}

export class Page {
  constructor(private readonly browser: Browser, private readonly sessionId: string) {}

  send(method: string, params: Record<string, unknown> = {}): Promise<Record<string, unknown>> {
    return this.browser.send(method, params, this.sessionId);
  }

  async goto(url: string): Promise<void> {
    await this.send('Page.navigate', { url });
  }

  /** The value of an expression evaluated in the page (promises awaited). */
  async eval<T>(expression: string): Promise<T> {
    const r = await this.send('Runtime.evaluate', { expression, returnByValue: true, awaitPromise: true });
    if (r.exceptionDetails) throw new Error(`in the page: ${JSON.stringify(r.exceptionDetails).slice(0, 300)}`);
    return (r.result as { value: T }).value;
  }

  /** Waits until an expression is true in the page (at most `ms`). */
  async until(expression: string, ms = 20_000): Promise<void> {
    const end = Date.now() + ms;
    for (;;) {
      let ok = false;
      try {
        ok = await this.eval<boolean>(`Boolean(${expression})`);
      } catch {
        ok = false; // the page is still loading
      }
      if (ok) return;
      if (Date.now() > end) throw new Error(`the page never got to: ${expression}`);
      await new Promise((r) => setTimeout(r, 100));
    }
  }

  /** A PNG of the window. */
  async screenshot(): Promise<Buffer> {
    const { data } = await this.send('Page.captureScreenshot', { format: 'png' });
    return Buffer.from(data as string, 'base64');
  }
}
