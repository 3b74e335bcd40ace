/**
 * `kubecheck explore` as a server facing a browser and a terminal: the README's promise that the
 * explorer is loopback only (it binds 127.0.0.1 and answers only requests addressed to it there,
 * so a web page whose name was pointed at 127.0.0.1, DNS rebinding, reads nothing), each request's
 * work bounded (a coded 503), SIGTERM ending the server even in the middle of a request that does
 * not return, and a port in use said at once, before any work.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer as createTcpServer, connect, type AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { action, type Model } from '../../checker/index.js';
import { exploreSession, serveExplorer } from '../../cli/commands/explore.js';
import { answer, refuseForeign, type ExplorerSession } from '../../cli/explorer.js';
import { BIN, ENV, expectOneLine, kubecheckAsync, ROOT } from './run.js';

const work = mkdtempSync(join(tmpdir(), 'kubecheck-explore-server-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

/** A raw HTTP/1.1 exchange, so the test chooses every header (fetch sets Host itself). */
export function rawRequest(port: number, lines: readonly string[]): Promise<{ status: number; head: string; body: string }> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1');
    let data = '';
    socket.setEncoding('utf8');
    socket.on('data', (d: string) => (data += d));
    socket.on('error', reject);
    socket.on('end', () => {
      const [head, ...rest] = data.split('\r\n\r\n');
      resolve({ status: Number(/^HTTP\/1\.[01] (\d{3})/.exec(head)?.[1] ?? -1), head, body: rest.join('\r\n\r\n') });
    });
    socket.write(`${[...lines, 'Connection: close'].join('\r\n')}\r\n\r\n`);
  });
}

describe('the README\'s promise: the explorer is loopback only', () => {
  let server: Server;
  let port: number;
  let session: ExplorerSession<unknown>;
  beforeAll(async () => {
    session = await exploreSession({ scenario: 'node-failure', check: false, graph: false, set: { 'operator.forceDeletePod': '1' } });
    const served = await serveExplorer(session);
    server = served.server;
    port = Number(new URL(served.url).port);
    expect(served.url).toBe(`http://127.0.0.1:${port}/`);
  }, 120_000);
  afterAll(() => {
    server?.close();
    server?.closeAllConnections();
  });

  /** What a refused answer must not hold: anything of the session (title, config values, the reopen command). */
  const expectNothingOfTheSession = (body: string): void => {
    expect(body).not.toMatch(/node-failure|forceDeletePod|operator|kubecheck explore|<html|"actions"/i);
  };

  it('should bind the loopback interface only', () => {
    expect((server.address() as AddressInfo).address).toBe('127.0.0.1');
  });

  it('should answer requests addressed to 127.0.0.1, localhost or [::1] on its port', async () => {
    for (const host of [`127.0.0.1:${port}`, `localhost:${port}`, `LocalHost:${port}`, `[::1]:${port}`]) {
      const r = await rawRequest(port, ['GET /api/session HTTP/1.1', `Host: ${host}`]);
      expect(r.status, host).toBe(200);
      expect(JSON.parse(r.body).title).toBe('node-failure');
    }
    // The page's own requests carry its origin.
    const own = await rawRequest(port, ['GET /api/state?path=0 HTTP/1.1', `Host: localhost:${port}`, `Origin: http://localhost:${port}`]);
    expect(own.status).toBe(200);
  });

  it('should refuse another Host (DNS rebinding) with 421 and nothing of the session', async () => {
    const hostile = ['evil.example', `evil.example:${port}`, `127.0.0.1.evil.example:${port}`, `localhost.evil.example:${port}`, '127.0.0.1', `127.0.0.1:${port + 1}`, `127.0.0.2:${port}`, `0.0.0.0:${port}`, `[::1]`, `127.0.0.1:${port}@evil.example`, ''];
    for (const path of ['/', '/api/session', '/api/state?path=0', '/api/itf?path=0', '/graph.svg']) {
      for (const host of hostile) {
        const r = await rawRequest(port, [`GET ${path} HTTP/1.1`, `Host: ${host}`]);
        expect(r.status, `${path} with Host ${host}`).toBe(421);
        expectNothingOfTheSession(r.body);
        expect(JSON.parse(r.body).error).toMatch(/loopback interface/);
      }
    }
    // No Host at all (HTTP/1.0 allows it): refused too.
    const none = await rawRequest(port, ['GET /api/session HTTP/1.0']);
    expect(none.status).toBe(421);
    expectNothingOfTheSession(none.body);
  });

  it('should refuse another Origin with 403, on what changes state and on reads', async () => {
    for (const method of ['POST', 'PUT', 'DELETE', 'GET']) {
      for (const origin of ['http://evil.example', `http://evil.example:${port}`, 'null', `https://127.0.0.1:${port}`, `http://127.0.0.1:${port + 1}`, `http://localhost:${port}.evil.example`]) {
        const r = await rawRequest(port, [`${method} /api/session HTTP/1.1`, `Host: 127.0.0.1:${port}`, `Origin: ${origin}`, 'Content-Length: 0']);
        expect(r.status, `${method} from ${origin}`).toBe(403);
        expectNothingOfTheSession(r.body);
      }
    }
    // From its own origin, or with none: what the method allows (GET only).
    expect((await rawRequest(port, ['POST /api/session HTTP/1.1', `Host: 127.0.0.1:${port}`, `Origin: http://127.0.0.1:${port}`, 'Content-Length: 0'])).status).toBe(405);
    expect((await rawRequest(port, ['POST /api/session HTTP/1.1', `Host: 127.0.0.1:${port}`, 'Content-Length: 0'])).status).toBe(405);
  });

  it('should decide from the headers alone, for any port', () => {
    expect(refuseForeign({ host: '127.0.0.1:8080' }, 8080)).toBeUndefined();
    expect(refuseForeign({ host: '127.0.0.1' }, 80)).toBeUndefined();
    expect(refuseForeign({ host: '127.0.0.1' }, 8080)?.status).toBe(421);
    expect(refuseForeign({ host: undefined }, 8080)?.status).toBe(421);
    expect(refuseForeign({ host: 'localhost:8080', origin: 'http://localhost:8080' }, 8080)).toBeUndefined();
    expect(refuseForeign({ host: 'localhost:8080', origin: 'http://attacker:8080' }, 8080)?.status).toBe(403);
  });
});

/** A model whose every step takes a few milliseconds: a long path takes long to replay. */
function slowModel(msPerStep: number): Model<number> {
  const busy = (): void => {
    const until = performance.now() + msPerStep;
    while (performance.now() < until) {
      // a step that takes its time
    }
  };
  return {
    name: 'slow-counter',
    initialStates: () => [0],
    actions: [action<number>({ name: 'next', enabled: () => true, apply: (n) => (busy(), n + 1) })],
    properties: [],
  };
}

describe('explore: the work of one request is bounded', () => {
  it('should answer a request whose replay takes too long with a coded 503, keeping what was replayed', () => {
    const session: ExplorerSession<unknown> = {
      model: slowModel(2) as Model<unknown>, title: 'slow', properties: [], checkSummary: 'not checked', traces: [], itfMeta: {}, reopenCommand: 'kubecheck explore',
    };
    const path = `/api/state?path=0${'.0'.repeat(2_000)}`; // 4s of steps at least
    const first = answer(session, 'GET', path, 0.25);
    expect(first.status).toBe(503);
    expect(JSON.parse(first.body)).toMatchObject({ code: 'KC216', error: expect.stringMatching(/^KC216: replaying the path took more than 0\.25s/) });
    // Asking again goes on from where it stopped: the path is reached in a bounded number of requests.
    let last = first;
    for (let i = 0; i < 200 && last.status === 503; i++) last = answer(session, 'GET', path, 0.25);
    expect(last.status).toBe(200);
    expect(JSON.parse(last.body).depth).toBe(2_000);
  });
});

/** Starts `kubecheck explore ...args`; resolves with the child and the URL once it serves. */
function startExplore(args: readonly string[]): Promise<{ child: ReturnType<typeof spawn>; url: string; stderr: () => string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [BIN, 'explore', ...args], { cwd: ROOT, env: ENV });
    let out = '';
    let err = '';
    child.stderr!.setEncoding('utf8').on('data', (d: string) => (err += d));
    child.stdout!.setEncoding('utf8').on('data', (d: string) => {
      out += d;
      const m = /at (http:\/\/127\.0\.0\.1:\d+\/)/.exec(out);
      if (m) resolve({ child, url: m[1], stderr: () => err });
    });
    child.on('exit', (code) => reject(new Error(`explore ended (${code}) before serving: ${err}`)));
  });
}

const exited = (child: ReturnType<typeof spawn>): Promise<{ code: number | null; signal: NodeJS.Signals | null }> =>
  new Promise((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) resolve({ code: child.exitCode, signal: child.signalCode });
    else child.once('exit', (code, signal) => resolve({ code, signal }));
  });

/** Resolves when `predicate` holds, polling (a bound on waiting for a process, not on its speed). */
async function until(predicate: () => boolean, what: string, ms = 120_000): Promise<void> {
  const end = Date.now() + ms;
  while (!predicate()) {
    if (Date.now() > end) throw new Error(`waited ${ms / 1000}s for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

describe('explore: signals and ports', () => {
  it('should end on SIGTERM in the middle of a request that does not return', async () => {
    // An extension whose step never returns (ten minutes of work): the request for the initial state's steps hangs.
    const extension = join(work, 'slow-step.mjs');
    writeFileSync(extension, [
      'export default {',
      "  name: 'slow-step', initial: () => 0,",
      "  actions: [{ name: 'slow-step', enabled: () => true, apply: (s) => { process.stderr.write('slow step started\\n'); const until = Date.now() + 600000; while (Date.now() < until) {} return s; } }],",
      '};',
    ].join('\n'));
    const { child, url, stderr } = await startExplore(['--scenario', 'node-failure', '--no-check', '--no-graph', '--extension', extension]);
    const end = exited(child);
    try {
      fetch(`${url}api/state?path=0`).catch(() => undefined); // never answered: the server ends first
      await until(() => stderr().includes('slow step started'), 'the request to reach the step');
      child.kill('SIGTERM');
      // Ended by the signal, as SIGTERM ends a process, within the test's bound: half the ten minutes the step would take.
      expect(await end).toEqual({ code: null, signal: 'SIGTERM' });
    } finally {
      child.kill('SIGKILL'); // nothing left running if it did not end
    }
  }, 300_000);

  it('should end with exit 0 on SIGTERM between requests', async () => {
    const { child, url } = await startExplore(['--scenario', 'two-phase-commit', '--no-check', '--no-graph']);
    const end = exited(child);
    expect((await fetch(`${url}api/state?path=0`)).status).toBe(200);
    child.kill('SIGTERM');
    expect(await end).toEqual({ code: 0, signal: null });
  }, 120_000);

  it('should say a port in use at once, in one coded line, before checking the scenario or drawing its graph', async () => {
    const taken = createTcpServer();
    await new Promise<void>((r) => taken.listen(0, '127.0.0.1', r));
    const port = (taken.address() as AddressInfo).port;
    try {
      const r = await kubecheckAsync(['explore', '--scenario', 'node-failure', '--port', String(port)]);
      expectOneLine(r, 'KC200', new RegExp(`--port ${port} is in use`));
      expect(r.stderr).not.toMatch(/checking|drawing/);
    } finally {
      taken.close();
    }
  }, 120_000);
});
