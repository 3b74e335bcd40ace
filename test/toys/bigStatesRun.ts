/**
 * Runs one check of `bigStates` in this process and prints what the memory bound did, as JSON:
 * the bound (the resident set before the check plus `over` bytes), the result's verdict, bound and
 * states, and the process's true peak resident set (Linux's VmHWM, whatever the checker read).
 * Run as a child process (`tsx test/toys/bigStatesRun.ts '<json>'`): a bound that fails lets
 * the process grow or abort, which must not take the test runner with it.
 */
import { readFileSync } from 'node:fs';
import { check, type CheckOptions } from '../../checker/index.js';
import { checkInMemory } from '../../checker/distributed/index.js';
import { bigStates, type BigStatesOptions } from './bigStates.js';

interface RunArgs extends BigStatesOptions {
  /** Bytes the bound allows above the resident set before the check. */
  readonly over: number;
  readonly strategy?: 'bfs' | 'dfs';
  readonly workers?: number;
  /** Workers of a distributed search in this process (the memory transport), instead. */
  readonly distributed?: number;
}

/** A field of /proc/self/status in bytes (VmRSS, VmHWM), or the resident set where there is none. */
function status(field: 'VmRSS' | 'VmHWM'): number {
  try {
    const m = new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(readFileSync('/proc/self/status', 'utf8'));
    if (m) return Number(m[1]) * 1024;
  } catch {
    // not Linux
  }
  return process.memoryUsage.rss();
}

const args = JSON.parse(process.argv[2] ?? '{}') as RunArgs;
const baseline = status('VmRSS');
const bound = baseline + args.over;
const options: CheckOptions = {
  maxMemoryBytes: bound,
  ...(args.strategy ? { strategy: args.strategy } : {}),
  ...(args.workers ? { workers: args.workers, modelFactory: { module: new URL('./bigStates.ts', import.meta.url).href, export: 'bigStates', args: { ...args } } } : {}),
};
const r = args.distributed ? await checkInMemory(bigStates(args), options, args.distributed) : check(bigStates(args), options);
process.stdout.write(
  `${JSON.stringify({
    verdict: r.verdict,
    stoppedBy: r.stoppedBy,
    distinct: r.stats.distinctStates,
    depth: r.stats.depth,
    engine: r.stats.engine,
    baseline,
    bound,
    peak: status('VmHWM'),
    reportedPeak: Math.round(r.stats.peakMemoryMB * 2 ** 20),
  })}\n`,
);
