/**
 * `kubecheck check --cluster redis://...` with `kubecheck worker` processes through a real
 * redis-server started here on a free loopback port (no persistence) and stopped after: the
 * counts, verdict and counterexample equal one thread's; a SIGKILLed worker ends the run with
 * KC013 and exit 3, naming it; an unreachable Redis is KC015 (exit 3); what a distributed search
 * does not do is refused in one line. Skipped, saying why, where redis-server is not installed.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BIN, ENV, kubecheck, kubecheckAsync, ROOT } from './run.js';

const hasRedis = spawnSync('redis-server', ['--version']).status === 0;
if (!hasRedis) console.warn('test/cli/distributed.test.ts: redis-server is not installed (Debian package redis-server); the Redis tests are skipped');

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.listen(0, '127.0.0.1', () => {
      const port = (s.address() as { port: number }).port;
      s.close(() => resolve(port));
    });
    s.on('error', reject);
  });
}

let redis: ChildProcess | undefined;
/** Every process started here, killed after the tests (a hung one must not outlive the suite). */
const started: ChildProcess[] = [];
let port = 0;
let dir = '';

beforeAll(async () => {
  if (!hasRedis) return;
  port = await freePort();
  dir = mkdtempSync(join(tmpdir(), 'kubecheck-redis-'));
  redis = spawn('redis-server', ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--dir', dir], { stdio: 'ignore' });
  // Ready when it answers.
  for (let i = 0; i < 100; i++) {
    if (spawnSync('redis-cli', ['-p', String(port), 'ping'], { encoding: 'utf8' }).stdout?.trim() === 'PONG') return;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error('redis-server did not start');
});

afterAll(() => {
  for (const child of started) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  if (redis?.pid !== undefined) process.kill(redis.pid);
  if (dir) rmSync(dir, { recursive: true, force: true });
});

/** A worker process of run `run`, its output gathered. */
function worker(run: string): { child: ChildProcess; done: Promise<{ code: number; stderr: string }> } {
  const child = spawn(process.execPath, [BIN, 'worker', `redis://127.0.0.1:${port}/${run}`], { cwd: ROOT, env: ENV, timeout: 300_000, killSignal: 'SIGKILL' });
  started.push(child);
  let stderr = '';
  child.stderr?.setEncoding('utf8').on('data', (d: string) => (stderr += d));
  const done = new Promise<{ code: number; stderr: string }>((resolve) => child.on('close', (code) => resolve({ code: code ?? -1, stderr })));
  return { child, done };
}

describe.skipIf(!hasRedis)('a check over two worker processes through redis-server', () => {
  it('should give one thread\'s counts, verdict and counterexample (node-failure; a force delete; an operator)', async () => {
    const cases = [
      ['check', '--scenario', 'node-failure', '--json'],
      ['check', '--scenario', 'node-partition', '--set', 'operator.forceDeletePod=1', '--max-states', '2000', '--json'],
      // An operator: each worker process imports the module the manifest names (path and hash).
      ['check', '--scenario', 'node-partition', '--config', 'examples/node-remediation/cluster.yaml', '--extension', 'examples/node-remediation/nodeRemediation.ts', '--max-states', '3000', '--json'],
    ];
    for (const [k, args] of cases.entries()) {
      const run = `equal-${k}`;
      const workers = [worker(run), worker(run)];
      const many = await kubecheckAsync([...args, '--cluster', `redis://127.0.0.1:${port}/${run}`, '--expect', '2']);
      const one = await kubecheckAsync(args);
      expect(many.code).toBe(one.code);
      const a = JSON.parse(one.stdout);
      const b = JSON.parse(many.stdout);
      expect(b.stats.engine).toBe('distributed');
      expect([b.verdict, b.stats.distinctStates, b.stats.generatedStates, b.stats.depth, b.properties]).toEqual([a.verdict, a.stats.distinctStates, a.stats.generatedStates, a.stats.depth, a.properties]);
      expect(b.counterexample?.timeline).toEqual(a.counterexample?.timeline);
      for (const w of workers) expect((await w.done).code).toBe(0);
    }
  });

  it('should end with KC013 and exit 3, naming the worker, when a worker is killed', async () => {
    const run = 'killed';
    const workers = [worker(run), worker(run)];
    const coordinator = spawn(process.execPath, [BIN, 'check', '--scenario', 'node-failure', '--set', 'faults.nodeCrash=2', '--cluster', `redis://127.0.0.1:${port}/${run}`, '--expect', '2'], { cwd: ROOT, env: ENV, timeout: 300_000, killSignal: 'SIGKILL' });
    started.push(coordinator);
    let stderr = '';
    let stdout = '';
    coordinator.stdout?.setEncoding('utf8').on('data', (d: string) => (stdout += d));
    const joined = new Promise<void>((resolve) => {
      coordinator.stderr?.setEncoding('utf8').on('data', (d: string) => {
        stderr += d;
        if (/2 of 2 joined/.test(stderr)) resolve();
      });
    });
    const exited = new Promise<number>((resolve) => coordinator.on('close', (code) => resolve(code ?? -1)));
    await joined;
    await new Promise((r) => setTimeout(r, 1500));
    const victim = workers[1].child;
    victim.kill('SIGKILL');
    const code = await exited;
    expect(code).toBe(3);
    expect(stdout).toBe('');
    expect(stderr).toMatch(/kubecheck: KC013: worker \d \([^)]*pid \d+\) stopped heartbeating/);
    const named = /pid (\d+)\) stopped heartbeating/.exec(stderr)?.[1];
    expect(Number(named)).toBe(victim.pid);
    // The other worker is told to stop.
    expect([0, 3]).toContain((await workers[0].done).code);
  });

  it('should refuse a worker whose copy of the extension module differs from the coordinator\'s (KC014)', async () => {
    const run = 'changed-module';
    const mod = mkdtempSync(join(tmpdir(), 'kubecheck-module-'));
    const file = join(mod, 'op.ts');
    writeFileSync(file, "import { nodeRemediation } from '" + join(ROOT, 'examples/node-remediation/nodeRemediation.ts').replace(/\\/g, '/') + "';\nexport default nodeRemediation({ force: false });\n");
    const coordinator = spawn(process.execPath, [BIN, 'check', '--scenario', 'node-partition', '--config', 'examples/node-remediation/cluster.yaml', '--extension', file, '--cluster', `redis://127.0.0.1:${port}/${run}`, '--expect', '1'], { cwd: ROOT, env: ENV, timeout: 120_000, killSignal: 'SIGKILL' });
    started.push(coordinator);
    let stderr = '';
    const waiting = new Promise<void>((resolve) => {
      coordinator.stderr?.setEncoding('utf8').on('data', (d: string) => {
        stderr += d;
        if (/waiting for 1 worker|0 of 1 joined/.test(stderr)) resolve();
      });
    });
    await Promise.race([waiting, new Promise((r) => setTimeout(r, 8000))]);
    // The module changes on this "machine" before its worker joins.
    writeFileSync(file, "import { nodeRemediation } from '" + join(ROOT, 'examples/node-remediation/nodeRemediation.ts').replace(/\\/g, '/') + "';\nexport default nodeRemediation({ force: true });\n");
    const w = worker(run);
    const { code, stderr: said } = await w.done;
    coordinator.kill('SIGKILL');
    rmSync(mod, { recursive: true, force: true });
    expect(code).toBe(2);
    expect(said).toMatch(/KC014: extension module .*op\.ts on this worker is not the coordinator's/);
  });

  it('should say KC015 (exit 3) when Redis cannot be reached', async () => {
    const nowhere = await freePort();
    const r = kubecheck(['check', '--scenario', 'node-failure', '--cluster', `redis://127.0.0.1:${nowhere}/x`]);
    expect(r.code).toBe(3);
    expect(r.stderr).toMatch(/^kubecheck: KC015: cannot reach the Redis server at redis:\/\/127\.0\.0\.1:\d+\/x/);
  });
});

describe('what a check over worker processes refuses', () => {
  it('should refuse --liveness, --dfs and --workers with --cluster in one line (KC016, exit 2), and a bad address (KC200)', () => {
    for (const [flag, why] of [['--liveness', /--liveness is decided on the whole graph/], ['--dfs', /breadth-first/], ['--workers=2', /--workers/]] as const) {
      const r = kubecheck(['check', '--scenario', 'node-failure', flag, '--cluster', 'redis://127.0.0.1:1/x']);
      expect(r.code).toBe(2);
      expect(r.stderr).toMatch(/^kubecheck: KC016: --cluster cannot be combined with /);
      expect(r.stderr).toMatch(why);
      expect(r.stderr.trim().split('\n')).toHaveLength(1);
    }
    const bad = kubecheck(['check', '--cluster', 'http://127.0.0.1/x']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/^kubecheck: KC200: the cluster address must start with redis:\/\//);
  });
});
