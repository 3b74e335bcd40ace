/**
 * One benchmark measurement in its own process (so peak RSS is this measurement's alone):
 * `tsx bench/measure.ts <name>` prints one JSON object.
 */
import { setAutoFreeze } from 'immer';
import { check, simulate, type CheckResult, type SimulationResult } from '../checker/index.js';
import { twoPhaseImmer, twoPhasePlain } from '../examples/two-phase-commit/index.js';
import { resolveConfig } from '../model/index.js';
import { defaultPropertyIds, kubernetesModel } from '../properties/index.js';

export interface Measurement {
  readonly bench: string;
  readonly distinct: number;
  readonly generated: number;
  readonly depth: number;
  readonly seconds: number;
  readonly distinctPerSecond: number;
  readonly peakRssMB: number;
  readonly bytesPerState?: number;
  readonly [extra: string]: number | string | undefined;
}

function peakRssMB(): number {
  return process.resourceUsage().maxRSS / 1024;
}

function fromCheck(bench: string, r: CheckResult<unknown>): Measurement {
  if (r.verdict !== 'ok') throw new Error(`${bench}: verdict ${r.verdict}`);
  return {
    bench,
    distinct: r.stats.distinctStates,
    generated: r.stats.generatedStates,
    depth: r.stats.depth,
    seconds: round(r.stats.seconds),
    distinctPerSecond: Math.round(r.stats.statesPerSecond),
    peakRssMB: Math.round(peakRssMB()),
    bytesPerState: round(r.stats.bytesPerState),
  };
}

const round = (x: number): number => Math.round(x * 100) / 100;

function fromSimulation(bench: string, r: SimulationResult<unknown>): Measurement {
  return {
    bench,
    distinct: r.stats.distinctStates,
    generated: r.steps,
    depth: r.stats.depth,
    seconds: round(r.stats.seconds),
    distinctPerSecond: Math.round(r.stats.distinctStates / r.stats.seconds),
    peakRssMB: Math.round(peakRssMB()),
  };
}

async function measure(name: string): Promise<Measurement[]> {
  const twoPhase = /^twophase-(\d+)-(plain|immer)(-nofreeze)?(-generic)?$/.exec(name);
  if (twoPhase) {
    const n = Number(twoPhase[1]);
    if (twoPhase[2] === 'immer') setAutoFreeze(twoPhase[3] === undefined);
    const model = twoPhase[2] === 'plain' ? twoPhasePlain({ rms: n }) : twoPhaseImmer({ rms: n, genericFingerprint: twoPhase[4] !== undefined });
    return [fromCheck(name, check(model) as CheckResult<unknown>)];
  }
  const random = /^random-twophase-(\d+)$/.exec(name);
  if (random) {
    // Random steps per second, and the share of the exhaustive space it covered.
    const model = twoPhasePlain({ rms: Number(random[1]) });
    const exhaustive = check(model).stats.distinctStates;
    const r = simulate(model, { seed: 1, runs: 2000, maxSteps: 200 });
    return [{ ...fromSimulation(name, r), stepsPerSecond: Math.round(r.steps / r.stats.seconds), coverage: round(r.stats.distinctStates / exhaustive) }];
  }
  const coverage = /^coverage-twophase-(\d+)$/.exec(name);
  if (coverage) {
    // Coverage per second: random exploration against breadth-first search on a known space.
    const model = twoPhasePlain({ rms: Number(coverage[1]) });
    const bfs = check(model);
    const r = simulate(model, { seed: 1, runs: 500, maxSteps: 100 });
    const total = bfs.stats.distinctStates;
    return [{
      ...fromSimulation(name, r),
      randomCoveragePerSecond: round(r.stats.distinctStates / total / r.stats.seconds),
      bfsCoveragePerSecond: round(1 / bfs.stats.seconds),
      randomCoverage: round(r.stats.distinctStates / total),
    }];
  }
  const nodeFailure = /^node-failure-(symmetry|nosymmetry)$/.exec(name);
  if (nodeFailure) {
    // The default Kubernetes scenario with the properties `kubecheck check` checks by default.
    const config = resolveConfig('node-failure');
    const properties = defaultPropertyIds('node-failure', config);
    return [fromCheck(name, check(kubernetesModel(config), { properties, symmetry: nodeFailure[1] === 'symmetry' }) as CheckResult<unknown>)];
  }
  throw new Error(`unknown benchmark ${name}`);
}

const name = process.argv[2];
if (!name) {
  console.error('usage: tsx bench/measure.ts <benchmark>');
  process.exit(2);
}
for (const m of await measure(name)) console.log(JSON.stringify(m));
