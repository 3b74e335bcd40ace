/**
 * `redis-node-failure-crash2` (default set) and `redis-five-nodes-two-zones` (--full): the
 * distributed search through a redis-server started here (loopback, no persistence) with 1, 2 and
 * 4 `kubecheck worker` processes, against the one-thread `kubecheck check` of the same scenario.
 * Each line: counts (checked equal to one thread's: a difference fails the bench), wall time,
 * rate, the workers' CPU per state; then the exchange cost per state (the CPU a state's records
 * and notices add when they cross to another worker, from the 1- and 2-worker runs), the per-level
 * fixed cost (rounds and barriers), and a model of the speed-up on 8 and 64 machines from those
 * costs and the run's own level-width profile.
 */
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Measurement } from './measure.js';

/** The command, from the sources (bench/) or compiled (dist/bench/). */
const BIN = fileURLToPath(new URL(import.meta.url.includes('/dist/bench/') ? '../../bin/kubecheck.js' : '../bin/kubecheck.js', import.meta.url));

const SCENARIOS: Record<string, string[]> = {
  'node-failure-crash2': ['--scenario', 'node-failure', '--set', 'faults.nodeCrash=2'],
  'five-nodes-two-zones': ['--scenario', 'node-failure', '--set', 'cluster.nodes=5', '--set', 'cluster.zones=2', '--set', 'faults.nodeCrash=1', '--set', 'faults.nodePartition=1', '--set', 'faults.nodePartitionHeal=1'],
};

const HEAP = ['--max-old-space-size=12000'];

function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const s = createServer();
    s.listen(0, '127.0.0.1', () => {
      const port = (s.address() as { port: number }).port;
      s.close(() => resolve(port));
    });
  });
}

function run(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [...HEAP, BIN, ...args]);
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (d: string) => (stdout += d));
    child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
    child.on('close', (code) => resolve({ code: code ?? -1, stdout, stderr }));
  });
}

interface Profile {
  readonly levelWidths: number[];
  readonly levelMs: number[];
  readonly workerCpu: number[];
}

/** Least squares of `ms = a + b * width`: the per-level fixed cost and the per-state cost (ms). */
function fit(widths: readonly number[], ms: readonly number[]): { a: number; b: number } {
  const n = widths.length;
  const mx = widths.reduce((s, x) => s + x, 0) / n;
  const my = ms.reduce((s, y) => s + y, 0) / n;
  let sxy = 0;
  let sxx = 0;
  for (let i = 0; i < n; i++) {
    sxy += (widths[i] - mx) * (ms[i] - my);
    sxx += (widths[i] - mx) ** 2;
  }
  const b = sxx > 0 ? sxy / sxx : 0;
  return { a: my - b * mx, b };
}

const round = (x: number, d = 3): number => Math.round(x * 10 ** d) / 10 ** d;

export async function measureDistributed(name: string): Promise<Measurement[]> {
  const scenario = SCENARIOS[name.replace(/^redis-/, '')];
  if (scenario === undefined) throw new Error(`unknown benchmark ${name}`);
  const common = [...scenario, '--json', '--quiet', '--max-memory', '12GiB'];
  const port = await freePort();
  const dir = mkdtempSync(join(tmpdir(), 'kubecheck-bench-redis-'));
  const redis = spawn('redis-server', ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--dir', dir], { stdio: 'ignore' });
  const out: Measurement[] = [];
  try {
    for (let i = 0; spawnSync('redis-cli', ['-p', String(port), 'ping'], { encoding: 'utf8' }).stdout?.trim() !== 'PONG'; i++) {
      if (i > 100) throw new Error('redis-server did not start');
      await new Promise((r) => setTimeout(r, 100));
    }
    const oneRun = await run(['check', ...common]);
    const one = JSON.parse(oneRun.stdout);
    out.push({ bench: `${name}-one-thread`, distinct: one.stats.distinctStates, generated: one.stats.generatedStates, depth: one.stats.depth, seconds: round(one.stats.seconds), distinctPerSecond: Math.round(one.stats.statesPerSecond), peakRssMB: Math.round(one.stats.peakMemoryMB) });
    const profiles = new Map<number, Profile & { seconds: number }>();
    for (const n of [1, 2, 4]) {
      const runName = `bench-${name}-${n}`;
      const url = `redis://127.0.0.1:${port}/${runName}`;
      const workers = Array.from({ length: n }, () => run(['worker', url, '--quiet']));
      const coordinator = await run(['check', ...common, '--cluster', url, '--expect', String(n)]);
      const codes = (await Promise.all(workers)).map((w) => w.code);
      if (coordinator.stdout === '') throw new Error(`${name}: the coordinator with ${n} workers failed (exit ${coordinator.code}): ${coordinator.stderr.trim().split('\n').slice(-2).join(' | ')}`);
      const r = JSON.parse(coordinator.stdout);
      const equal = r.stats.distinctStates === one.stats.distinctStates && r.stats.generatedStates === one.stats.generatedStates && r.stats.depth === one.stats.depth && r.verdict === one.verdict;
      if (!equal) throw new Error(`${name}: ${n} workers counted ${r.stats.distinctStates}/${r.stats.generatedStates} at depth ${r.stats.depth} (${r.verdict}), one thread ${one.stats.distinctStates}/${one.stats.generatedStates} at depth ${one.stats.depth} (${one.verdict})`);
      const stored = JSON.parse(spawnSync('redis-cli', ['-p', String(port), '--raw', 'GET', `kubecheck:${runName}:result`], { encoding: 'utf8', maxBuffer: 1 << 28 }).stdout) as { profile: Profile };
      const p = stored.profile;
      profiles.set(n, { ...p, seconds: r.stats.seconds });
      const cpu = p.workerCpu.reduce((a, b) => a + b, 0);
      out.push({
        bench: `${name}-redis-w${n}`,
        distinct: r.stats.distinctStates,
        generated: r.stats.generatedStates,
        depth: r.stats.depth,
        seconds: round(r.stats.seconds),
        distinctPerSecond: Math.round(r.stats.statesPerSecond),
        peakRssMB: Math.round(r.stats.peakMemoryMB),
        equalToOneThread: 'yes',
        workerCpuSeconds: round(cpu, 1),
        workerCpuMicrosPerState: round((cpu / r.stats.distinctStates) * 1e6, 2),
        speedup: round(one.stats.seconds / r.stats.seconds, 2),
        workerExitCodes: codes.join(','),
      });
    }
    // The model: a level costs a fixed a(P) (its rounds and barriers: a2 - a1 more per added peer)
    // plus its states spread over P workers, each costing t (one worker's own per-state CPU) plus
    // the exchange c (P-1)/P of a state whose records all cross.
    const p1 = profiles.get(1) as Profile & { seconds: number };
    const p2 = profiles.get(2) as Profile & { seconds: number };
    const states = one.stats.distinctStates as number;
    const t = (p1.workerCpu[0] / states) * 1e3; // ms per state
    const cpu2 = p2.workerCpu.reduce((a, b) => a + b, 0);
    const c = Math.max(0, ((cpu2 - p1.workerCpu[0]) / states) * 1e3 * 2); // ms per state, records all crossing
    const a1 = fit(p1.levelWidths, p1.levelMs).a;
    const a2 = fit(p2.levelWidths, p2.levelMs).a;
    const perPeer = Math.max(0, a2 - a1);
    const predict = (P: number): number => {
      let ms = 0;
      for (const w of p1.levelWidths) ms += a1 + perPeer * (P - 1) + (w * (t + (c * (P - 1)) / P)) / P;
      return ms / 1000;
    };
    const widths = [...p1.levelWidths].sort((x, y) => x - y);
    out.push({
      bench: `${name}-redis-model`,
      distinct: states,
      generated: one.stats.generatedStates,
      depth: one.stats.depth,
      seconds: round(predict(1)),
      distinctPerSecond: Math.round(states / predict(1)),
      peakRssMB: 0,
      exchangeMicrosPerState: round(c * 1e3, 2),
      workerMicrosPerState: round(t * 1e3, 2),
      levelFixedMs: round(a1, 2),
      levelPerPeerMs: round(perPeer, 2),
      levels: widths.length,
      medianLevelWidth: widths[widths.length >> 1],
      maxLevelWidth: widths[widths.length - 1],
      predictedSpeedup8: round(one.stats.seconds / predict(8), 1),
      predictedSpeedup64: round(one.stats.seconds / predict(64), 1),
    });
  } finally {
    redis.kill();
    rmSync(dir, { recursive: true, force: true });
  }
  return out;
}
