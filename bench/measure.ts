/**
 * One benchmark measurement in its own process (so peak RSS is this measurement's alone):
 * `tsx bench/measure.ts <name>` prints one JSON object.
 */
import { measureDistributed } from './distributed.js';
import { Worker } from 'node:worker_threads';
import { setAutoFreeze } from 'immer';
import { check, simulate, type CheckOptions, type CheckResult, type Model, type ModelFactory, type SimulationResult } from '../checker/index.js';
import { modelFactoryOf } from '../cli/modelFactory.js';
import { resolveFromOptions } from '../cli/subjects.js';
import { twoPhaseImmer, twoPhasePlain, twoPhaseVector } from '../examples/two-phase-commit/index.js';
import { resolveConfig } from '../model/index.js';
import { defaultPropertyIds, kubernetesModel } from '../properties/index.js';
import { makeCtx, type ClusterState } from '../model/index.js';
import { canonicalKeyBytes } from '../model/symmetry.js';
import { clusterVectorLayout, decodeCluster, encodeCluster } from '../model/vector/layout.js';
import { canonicalVectorBytes } from '../model/vector/symmetry.js';

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

/** A measurement of a check; `anyVerdict` for the large configurations, whose verdict is reported beside it. */
function fromCheck(bench: string, r: CheckResult<unknown>, anyVerdict = false): Measurement {
  if (r.verdict !== 'ok' && !anyVerdict) throw new Error(`${bench}: verdict ${r.verdict}`);
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

/**
 * What two threads get from this machine now: a fixed arithmetic loop on one worker thread, then
 * on two at once; the work done per second by two over that by one (2: two free cores; 1: the two
 * threads share one core's time, whatever the core count says). Read beside a workers' speed-up:
 * a search on two workers cannot beat this.
 */
async function threadCapacity(): Promise<number> {
  const loop = `const { parentPort } = require('node:worker_threads'); let x = 0; for (let i = 0; i < 2e8; i++) x = (x * 31 + i) | 0; parentPort.postMessage(x);`;
  const timed = async (threads: number): Promise<number> => {
    const start = performance.now();
    await onThreads(threads, loop, undefined);
    return performance.now() - start;
  };
  await timed(1); // warm the code path
  const one = await timed(1);
  const two = await timed(2);
  return round((2 * one) / two);
}

/** Runs `code` on `threads` worker threads at once; each thread's one message, in order (a thread that ends without one fails). */
function onThreads<T>(threads: number, code: string, workerData: unknown): Promise<T[]> {
  return Promise.all(Array.from({ length: threads }, () => new Promise<T>((done, failed) => {
    const w = new Worker(code, { eval: true, workerData });
    let answered = false;
    w.once('message', (m: T) => {
      answered = true;
      void w.terminate().then(() => done(m));
    });
    w.once('error', failed);
    w.once('exit', (exitCode) => {
      if (!answered) failed(new Error(`a bench thread ended with code ${exitCode} before it answered`));
    });
  })));
}

/**
 * What two threads get from this machine on this very search: the one-thread search run on a
 * worker thread alone, then on two worker threads at once; twice the time of one over the time of
 * the slower of two (2: each ran as fast as alone; 1: together they did no more than one). Unlike
 * {@link threadCapacity}'s arithmetic loop, this feels what a search shares between cores (caches,
 * memory bandwidth, the collector's threads): two searches on two workers cannot beat it. Only
 * compiled (the threads load the checker's JavaScript).
 */
async function searchCapacity(factory: ModelFactory, options: CheckOptions): Promise<number | undefined> {
  if (import.meta.url.endsWith('.ts')) return undefined;
  const code = `
    const { parentPort, workerData } = require('node:worker_threads');
    (async () => {
      const { check } = await import(workerData.checker);
      const mod = await import(workerData.factory.module);
      const model = await mod[workerData.factory.export](workerData.factory.args);
      const start = performance.now();
      check(model, workerData.options);
      parentPort.postMessage(performance.now() - start);
    })();`;
  const workerData = { checker: new URL('../checker/index.js', import.meta.url).href, factory, options };
  const [one] = await onThreads<number>(1, code, workerData);
  const two = await onThreads<number>(2, code, workerData);
  return round((2 * one) / Math.max(...two));
}

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

/**
 * The configurations users named as too large: five nodes in two zones with a crash and a
 * partition-and-heal, and two stock scenarios; `expectations-timeout` as it stands (maxPods 3) and
 * with the kubelets' default maxPods of 110, where the pod churn onto the crashed node keeps it
 * from finishing.
 */
const LARGE: Readonly<Record<string, { readonly scenario: string; readonly set?: Readonly<Record<string, string>> }>> = {
  'five-nodes-two-zones': { scenario: 'node-failure', set: { 'cluster.nodes': '5', 'cluster.zones': '2', 'faults.nodeCrash': '1', 'faults.nodePartition': '1', 'faults.nodePartitionHeal': '1' } },
  'node-partition-force-delete': { scenario: 'node-partition', set: { 'operator.forceDeletePod': '1' } },
  'expectations-timeout': { scenario: 'expectations-timeout' },
  'expectations-timeout-max-pods-110': { scenario: 'expectations-timeout', set: { 'cluster.maxPods': '110' } },
};

/**
 * What keying a state costs as objects and as a vector (`model/vector/`), per state of the
 * two-crash check: the object model's canonical key (`canonicalKeyBytes`, what the search
 * fingerprints now) against the canonical form of the state's vector, and what encoding a state
 * to a vector and decoding it back cost. Each is timed over every stored state, three rounds in
 * turn, the best round of each reported (nanoseconds per state), with the slots each writes.
 */
function vectorKey(): Measurement {
  const config = resolveConfig('node-failure', { set: { 'faults.nodeCrash': '2' } });
  const ctx = makeCtx(config);
  const states: ClusterState[] = [];
  const r = check(kubernetesModel(config), {
    properties: defaultPropertyIds('node-failure', config),
    visitor: { state: (s) => void states.push(s as ClusterState), step: () => undefined },
  });
  const layout = clusterVectorLayout(ctx, states[0]);
  if ('unsupported' in layout) throw new Error(layout.unsupported);
  const vectors = states.map((s) => encodeCluster(layout, s));
  let sink = 0;
  const timed = (work: (i: number) => number): number => {
    const start = performance.now();
    for (let i = 0; i < states.length; i++) sink += work(i);
    return ((performance.now() - start) * 1e6) / states.length;
  };
  const best = { objectKey: Infinity, vectorKey: Infinity, encode: Infinity, decode: Infinity };
  let keySlots = 0;
  for (let round = 0; round < 3; round++) {
    best.objectKey = Math.min(best.objectKey, timed((i) => (keySlots = canonicalKeyBytes(ctx, states[i]).length / 8)));
    best.vectorKey = Math.min(best.vectorKey, timed((i) => canonicalVectorBytes(ctx, layout, vectors[i]).length));
    best.encode = Math.min(best.encode, timed((i) => encodeCluster(layout, states[i]).length));
    best.decode = Math.min(best.decode, timed((i) => decodeCluster(layout, vectors[i]).nodes.length));
  }
  if (sink === 0) throw new Error('nothing measured');
  return {
    ...fromCheck('vector-key', r as CheckResult<unknown>),
    objectKeyNs: Math.round(best.objectKey),
    vectorKeyNs: Math.round(best.vectorKey),
    encodeNs: Math.round(best.encode),
    decodeNs: Math.round(best.decode),
    keySlots,
    vectorSlots: layout.width,
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
  // The state-vector TwoPhase (checker/vectorSearch.ts); `-generic` runs the same model through
  // the generic search (`engine: 'generic'`).
  const vector = /^twophase-(\d+)-vector(-generic)?$/.exec(name);
  if (vector) {
    const model = twoPhaseVector({ rms: Number(vector[1]) });
    return [fromCheck(name, check(model, vector[2] === undefined ? {} : { engine: 'generic' }) as CheckResult<unknown>)];
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
  const nodeFailure = /^node-failure-(symmetry|nosymmetry|crash2)$/.exec(name);
  if (nodeFailure) {
    // The default Kubernetes scenario (and with two node crashes) with the properties `kubecheck
    // check` checks by default. Two crashes were 1,489,022 states in 112 s on this machine while
    // replacement-within kept an observer timer.
    const config = resolveConfig('node-failure', nodeFailure[1] === 'crash2' ? { set: { 'faults.nodeCrash': '2' } } : {});
    const properties = defaultPropertyIds('node-failure', config);
    return [fromCheck(name, check(kubernetesModel(config), { properties, symmetry: nodeFailure[1] !== 'nosymmetry' }) as CheckResult<unknown>)];
  }
  if (name === 'warm-rates') {
    // The two-crash check and TwoPhase n=8 as a state vector, each run three times in turn in one
    // process, the third of each reported: the search's own rate, without the fixed cost of
    // compiling the model's code that a first search in a process pays (about a third of the
    // two-crash check's one second; nothing measurable for the vector's smaller code).
    const r = await resolveFromOptions({ scenario: 'node-failure', set: { 'faults.nodeCrash': '2' } });
    let vector: Measurement | undefined;
    let crash2: Measurement | undefined;
    for (let i = 0; i < 3; i++) {
      vector = fromCheck('twophase-8-vector-warm', check(twoPhaseVector({ rms: 8 })) as CheckResult<unknown>);
      crash2 = fromCheck('node-failure-crash2-warm', check(r.model, { properties: r.defaultProperties }));
    }
    return [vector!, { ...crash2!, percentOfVectorRate: Math.round((1000 * crash2!.distinctPerSecond) / vector!.distinctPerSecond) / 10 }];
  }
  if (name === 'vector-key') return [vectorKey()];
  const workers = /^workers-(twophase-(\d+)|node-failure-crash2|five-nodes-two-zones)$/.exec(name);
  if (workers) {
    // One search on one thread, then the same on two workers (started cold, as the CLI does);
    // the ratio of the two, in one process, is the figure to read on a shared machine.
    let model: Model<unknown>;
    let options: CheckOptions;
    let factory: ModelFactory;
    if (workers[2] !== undefined) {
      const rms = Number(workers[2]);
      model = twoPhasePlain({ rms }) as Model<unknown>;
      options = {};
      factory = { module: new URL(`../examples/two-phase-commit/index.${import.meta.url.endsWith('.ts') ? 'ts' : 'js'}`, import.meta.url).href, export: 'twoPhasePlain', args: { rms } };
    } else {
      // The two-crash check (levels too narrow for workers: it runs as on one thread), or five
      // nodes in two zones (--full: most of its states in levels the workers take).
      const r = await resolveFromOptions(workers[1] === 'five-nodes-two-zones' ? LARGE['five-nodes-two-zones'] : { scenario: 'node-failure', set: { 'faults.nodeCrash': '2' } });
      model = r.model;
      // Five nodes hold 2.6 GiB at the end of each search, and both run in this one process.
      options = { properties: r.defaultProperties, ...(workers[1] === 'five-nodes-two-zones' ? { maxMemoryBytes: 12 * 2 ** 30 } : {}) };
      factory = modelFactoryOf(r.scenario, r.config);
    }
    // CPU seconds of the whole process (every thread) per wall-clock second: near 2 when both
    // cores worked, near 1 when another program held one of them.
    const timed = (label: string, o: CheckOptions): Measurement => {
      const cpu = process.cpuUsage();
      const m = fromCheck(label, check(model, o));
      const used = process.cpuUsage(cpu);
      return { ...m, coresUsed: round((used.user + used.system) / 1e6 / m.seconds) };
    };
    const capacity = await threadCapacity();
    // Not for five nodes: three more searches of seven minutes each.
    const search = workers[1] === 'five-nodes-two-zones' ? undefined : await searchCapacity(factory, options);
    // The one-thread search runs once untimed first: the second search of a process runs warm
    // (compiled code, grown heap), and the two-crash check's "two workers" search runs on this
    // same thread (no level reaches the workers), so timing it warm against a cold first search
    // showed a speed-up of 1.3 that was only the warm-up. Not for five nodes (two minutes more,
    // where the warm-up is lost in the noise).
    if (workers[1] !== 'five-nodes-two-zones') check(model, options);
    const one = timed(`${name}-w1`, options);
    const two = timed(`${name}-w2`, { ...options, workers: 2, modelFactory: factory });
    if (one.distinct !== two.distinct || one.generated !== two.generated) throw new Error(`${name}: counts differ between 1 and 2 workers`);
    return [one, { ...two, speedup: round(one.seconds / two.seconds), threadCapacity: capacity, ...(search === undefined ? {} : { searchCapacity: search }) }];
  }
  // The large configurations, as `kubecheck check` runs them (default properties, the default
  // memory bound): complete, or stopped at the memory bound or the time limit with figures (never
  // a heap abort). Each runs to the end of the space, past a violation, as the command does.
  const large = LARGE[name];
  if (large !== undefined) {
    const r = await resolveFromOptions(large);
    const limit = Number(process.env.KUBECHECK_BENCH_TIME_LIMIT ?? 600);
    const res = check(r.model, { properties: r.defaultProperties, timeLimitSeconds: limit });
    return [{
      ...fromCheck(name, res, true),
      verdict: res.verdict,
      stoppedBy: res.stoppedBy === undefined ? 'complete' : `${res.stoppedBy.bound} ${res.stoppedBy.limit}`,
    }];
  }
  if (name.startsWith('redis-')) return measureDistributed(name);
  throw new Error(`unknown benchmark ${name}`);
}

const name = process.argv[2];
if (!name) {
  console.error('usage: tsx bench/measure.ts <benchmark>');
  process.exit(2);
}
for (const m of await measure(name)) console.log(JSON.stringify(m));
