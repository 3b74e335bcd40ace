/**
 * Benchmark of the default `node-failure` scenario (3 nodes in one zone, a ReplicaSet of 2, a
 * StatefulSet of 1, 2 candidates per election, one node crash) with its default properties,
 * exhaustive, with and without symmetry reduction.
 *
 * `benchNodeFailure()` measures both; `bench/measure.ts` runs each in its own process, so when
 * the process was started for one of them (argv[2] names it) only that one is measured and the
 * peak RSS is its own.
 */
import { check } from '../checker/index.js';
import { resolveConfig } from '../model/index.js';
import { defaultPropertyIds, kubernetesModel } from '../properties/index.js';

export interface NodeFailureMeasurement {
  bench: string;
  distinct: number;
  generated: number;
  depth: number;
  seconds: number;
  distinctPerSecond: number;
  peakRssMB: number;
}

const BENCHES = [
  { bench: 'node-failure-symmetry', symmetry: true },
  { bench: 'node-failure-nosymmetry', symmetry: false },
] as const;

const round = (x: number): number => Math.round(x * 100) / 100;

export async function benchNodeFailure(only: string | undefined = process.argv[2]): Promise<NodeFailureMeasurement[]> {
  const config = resolveConfig('node-failure');
  const properties = defaultPropertyIds('node-failure', config);
  const selected = BENCHES.some((b) => b.bench === only) ? BENCHES.filter((b) => b.bench === only) : BENCHES;
  const out: NodeFailureMeasurement[] = [];
  for (const { bench, symmetry } of selected) {
    const r = check(kubernetesModel(config), { properties, symmetry });
    if (r.verdict !== 'ok') throw new Error(`${bench}: verdict ${r.verdict}`);
    out.push({
      bench,
      distinct: r.stats.distinctStates,
      generated: r.stats.generatedStates,
      depth: r.stats.depth,
      seconds: round(r.stats.seconds),
      distinctPerSecond: Math.round(r.stats.statesPerSecond),
      peakRssMB: Math.round(Math.max(r.stats.peakMemoryMB, process.resourceUsage().maxRSS / 1024)),
    });
  }
  return out;
}
