/**
 * `npm run bench [-- --json] [-- --full] [-- names...]`: runs each measurement in its own process
 * and prints a table for people, or with --json one JSON object per line for scripts.
 * Default set: TwoPhase n=7 and n=8, plain, immer (auto-freeze on and off at n=7) and as a state
 * vector (`twophase-N-vector`; `twophase-N-vector-generic` is the same model through the generic
 * search), random
 * exploration, the Kubernetes node-failure scenario, and one search on 1 and on 2 worker threads
 * (TwoPhase n=8; node-failure with two crashes) with the speed-up measured in one process, and
 * `redis-node-failure-crash2` (the two-crash check through a local redis-server with 1, 2 and 4
 * `kubecheck worker` processes: counts checked equal to one thread's, the exchange cost per state
 * and a model of the speed-up on 8 and 64 machines; `redis-five-nodes-two-zones` with --full),
 * `warm-rates` (the two-crash check and TwoPhase n=8 as a state vector, the third of three runs
 * of each in one process: their rates without the first search's compiling), `vector-key` (what
 * keying a two-crash state costs as objects and as a vector, model/vector/). --full
 * adds TwoPhase n=9 (10,340,352 states) with a larger heap, and the three large configurations:
 * the 5-node 2-zone scenario with a crash and a partition-and-heal, node-partition with a force
 * delete, and expectations-timeout (as it stands, and with the default maxPods of 110), each with
 * its default properties (complete, or stopped by the memory bound or the time limit,
 * `KUBECHECK_BENCH_TIME_LIMIT` seconds, 600 by default), and five nodes in two zones on 1 and 2
 * workers.
 */
import { spawnSync } from 'node:child_process';
import { cpus, totalmem } from 'node:os';
import { fileURLToPath } from 'node:url';
import type { Measurement } from './measure.js';

const args = process.argv.slice(2);
const json = args.includes('--json');
const full = args.includes('--full');
const named = args.filter((a) => !a.startsWith('--'));
const here = fileURLToPath(new URL('.', import.meta.url));
const fromSources = import.meta.url.endsWith('.ts');

const defaults = [
  'twophase-7-plain',
  'twophase-7-immer',
  'twophase-7-immer-nofreeze',
  'twophase-7-immer-nofreeze-generic',
  'twophase-8-plain',
  'twophase-8-immer-nofreeze',
  'twophase-7-vector',
  'twophase-8-vector',
  'random-twophase-7',
  'coverage-twophase-5',
  'node-failure-symmetry',
  'node-failure-nosymmetry',
  'node-failure-crash2',
  'workers-twophase-8',
  'workers-node-failure-crash2',
  'warm-rates',
  'vector-key',
  'redis-node-failure-crash2',
  ...(full ? ['redis-five-nodes-two-zones', 'twophase-9-plain', 'five-nodes-two-zones', 'node-partition-force-delete', 'expectations-timeout', 'expectations-timeout-max-pods-110', 'workers-five-nodes-two-zones'] : []),
];
const names = named.length ? named : defaults;

if (!json) {
  console.log(`machine: ${cpus().length} × ${cpus()[0]?.model ?? 'cpu'}, ${Math.round(totalmem() / 2 ** 30)} GiB, Node ${process.version}, one thread unless named workers-*`);
  console.log(['bench', 'distinct', 'generated', 'depth', 'seconds', 'distinct/s', 'peak RSS MB', 'extra'].join('\t'));
}
let failed = false;
for (const name of names) {
  const heap = name.startsWith('twophase-9') || name.startsWith('twophase-10') || name === 'workers-five-nodes-two-zones' ? ['--max-old-space-size=20000'] : [];
  // Compiled (npm run bench runs dist/bench/) each measurement runs as plain JavaScript, as users run kubecheck.
  const measure = fromSources ? ['--import', 'tsx', `${here}measure.ts`] : [`${here}measure.js`];
  const run = spawnSync(process.execPath, [...heap, ...measure, name], { encoding: 'utf8', maxBuffer: 1 << 24 });
  if (run.status !== 0) {
    failed = true;
    console.error(`${name}: failed: ${(run.stderr || run.stdout).trim().split('\n').slice(-3).join(' | ')}`);
    continue;
  }
  for (const line of run.stdout.trim().split('\n')) {
    const m = JSON.parse(line) as Measurement;
    if (json) console.log(JSON.stringify(m));
    else {
      const { bench, distinct, generated, depth, seconds, distinctPerSecond, peakRssMB, ...extra } = m;
      const rest = Object.entries(extra).map(([k, v]) => `${k}=${v}`).join(' ');
      console.log([bench, distinct, generated, depth, seconds, distinctPerSecond, peakRssMB, rest].join('\t'));
    }
  }
}
process.exit(failed ? 1 : 0);
