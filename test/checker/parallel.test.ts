/**
 * The parallel breadth-first search gives the one-thread search's results: the same distinct and
 * generated counts, depth, verdict, bound, property outcomes and counterexample paths, on random
 * graphs (with symmetry, observers, deadlocks, bounds and early stops) and on TwoPhase.
 */
import { afterAll, beforeAll, describe, it, expect } from 'vitest';
import fc from 'fast-check';
import { check, type CheckOptions } from '../../checker/index.js';
import { balancePlan } from '../../checker/parallel.js';
import { graphModel, type GraphSpec } from '../toys/graphModels.js';
import { optionsArb, specArb, summary } from '../toys/graphArbitraries.js';
import { twoPhasePlain } from '../../examples/two-phase-commit/index.js';

const GRAPH = new URL('../toys/graphModels.ts', import.meta.url).href;
const TWO_PHASE = new URL('../../examples/two-phase-commit/index.ts', import.meta.url).href;

const LEVEL = 'KUBECHECK_PARALLEL_LEVEL';

/**
 * Runs `f` with the parallel search handing levels of `level` states or more to the workers
 * (undefined: the default, 1024). The tests below hand over at the initial states unless they say
 * otherwise, so that small graphs exercise the workers.
 */
function withLevel<T>(level: number | undefined, f: () => T): T {
  const before = process.env[LEVEL];
  if (level === undefined) delete process.env[LEVEL];
  else process.env[LEVEL] = String(level);
  try {
    return f();
  } finally {
    if (before === undefined) delete process.env[LEVEL];
    else process.env[LEVEL] = before;
  }
}

let levelBefore: string | undefined;
beforeAll(() => {
  levelBefore = process.env[LEVEL];
  process.env[LEVEL] = '1';
});
afterAll(() => {
  if (levelBefore === undefined) delete process.env[LEVEL];
  else process.env[LEVEL] = levelBefore;
});

function graphCheck(spec: GraphSpec, options: CheckOptions = {}, workers = 2) {
  const model = graphModel(spec);
  const one = check(model, options);
  const many = check(model, { ...options, workers, modelFactory: { module: GRAPH, export: 'graphModel', args: spec as never } });
  return { one, many };
}

describe('parallel search against the one-thread search', () => {
  it('should agree on random graphs: counts, depth, verdict, bounds, outcomes and paths (2 workers)', () => {
    fc.assert(
      fc.property(specArb, optionsArb, (spec, options) => {
        const { one, many } = graphCheck(spec, options);
        expect(summary(many)).toEqual(summary(one));
      }),
      { numRuns: 150 },
    );
  });

  it('should agree with 3 workers, and on larger graphs with many states per level', () => {
    fc.assert(
      fc.property(specArb, optionsArb, (spec, options) => {
        const { one, many } = graphCheck(spec, options, 3);
        expect(summary(many)).toEqual(summary(one));
      }),
      { numRuns: 40 },
    );
    // A wide graph: node i leads to 3 pseudo-random nodes among 3,000, so levels are large and
    // shares drift apart and are evened out; handed over at 200 states, the first five levels
    // (1 to 76 states) are searched on the calling thread and the workers go on from the sixth.
    const n = 3000;
    const edges = Array.from({ length: n }, (_, i) => [(i * 7 + 1) % n, (i * 13 + 5) % n, (i * i + 3) % n]);
    const spec: GraphSpec = { edges, roots: [0], avoid: [[2999]], reach: [[1234]], visits: [{ node: 17, max: 1 }] };
    for (const level of [1, 200]) {
      const { one, many } = withLevel(level, () => graphCheck(spec));
      expect(one.stats.distinctStates).toBeGreaterThan(3000);
      expect(summary(many)).toEqual(summary(one));
    }
  });

  it('should agree wherever the calling thread hands the search over to the workers', () => {
    fc.assert(
      fc.property(specArb, optionsArb, fc.integer({ min: 1, max: 12 }), (spec, options, level) => {
        const { one, many } = withLevel(level, () => graphCheck(spec, options));
        expect(summary(many)).toEqual(summary(one));
      }),
      { numRuns: 80 },
    );
  });

  it('should search levels narrower than the hand-over on the calling thread, starting no worker', () => {
    // A factory no worker could use: a search whose levels all stay narrow never asks for one.
    const spec: GraphSpec = { edges: [[1, 2], [3], [3], [0]], roots: [0], avoid: [[3]] };
    const broken = { module: GRAPH, export: 'noSuchExport', args: spec as never };
    const one = check(graphModel(spec));
    const narrow = withLevel(undefined, () => check(graphModel(spec), { workers: 2, modelFactory: broken }));
    expect(summary(narrow)).toEqual(summary(one));
    expect(narrow.stats.engine).toBe('generic');
    expect(withLevel(1, () => check(graphModel(spec), { workers: 2, modelFactory: { ...broken, export: 'graphModel' } })).stats.engine).toBe('parallel');
    expect(() => withLevel(1, () => check(graphModel(spec), { workers: 2, modelFactory: broken }))).toThrow(/KC008: .*no exported function noSuchExport/);
  });

  it('should stop at the same step as the one-thread search when every property is decided', () => {
    // Only goals and an early violation: the one-thread search halts in the middle of a level.
    const n = 400;
    const edges = Array.from({ length: n }, (_, i) => [(i + 1) % n, (i * 3 + 2) % n, (i * 5 + 7) % n, i]);
    for (const stop of [false, true]) {
      const spec: GraphSpec = { edges, roots: [0, 5], avoid: [[150]], reach: [[77], [301]], noStep: [[[40, 122]]] };
      const { one, many } = graphCheck(spec, { stopAtFirstViolation: stop });
      expect(one.stats.distinctStates).toBeLessThan(n);
      expect(summary(many)).toEqual(summary(one));
    }
  });
});

describe('parallel search on TwoPhase', () => {
  const factory = (args: { rms: number; bug?: string }) => ({ module: TWO_PHASE, export: 'twoPhasePlain', args });

  it("should count TLC's 288 / 1,146 (n = 3) and 8,832 / 58,146 (n = 5) distinct / generated with 2 workers", () => {
    for (const [rms, distinct, generated] of [[3, 288, 1146], [5, 8832, 58146]]) {
      const r = check(twoPhasePlain({ rms }), { workers: 2, modelFactory: factory({ rms }) });
      expect(r.verdict).toBe('ok');
      expect(r.stats).toMatchObject({ distinctStates: distinct, generatedStates: generated });
      expect(summary(r)).toEqual(summary(check(twoPhasePlain({ rms }))));
    }
  });

  it('should give the same shortest counterexample on the seeded bugs as one thread', () => {
    for (const bug of ['commit-on-any-prepared', 'rm-commits-on-prepared'] as const) {
      for (const rms of [3, 5]) {
        const one = check(twoPhasePlain({ rms, bug }));
        const many = check(twoPhasePlain({ rms, bug }), { workers: 2, modelFactory: factory({ rms, bug }) });
        expect(one.verdict).toBe('violation');
        expect(summary(many)).toEqual(summary(one));
        expect(many.properties[0].trace?.actions).toEqual(one.properties[0].trace?.actions);
      }
    }
  });

  it('should say incomplete under a time or memory bound, never ok', () => {
    const timed = check(twoPhasePlain({ rms: 5 }), { workers: 2, modelFactory: factory({ rms: 5 }), timeLimitSeconds: 1e-6 });
    expect(timed.verdict).toBe('incomplete');
    expect(timed.stoppedBy?.bound).toBe('time');
    const small = check(twoPhasePlain({ rms: 5 }), { workers: 2, modelFactory: factory({ rms: 5 }), maxMemoryBytes: 2 ** 20 });
    expect(small.verdict).toBe('incomplete');
    expect(small.stoppedBy?.bound).toBe('memory');
    expect(small.stats.distinctStates).toBeLessThan(8832);
  });
});

describe('parallel search misuse', () => {
  it('should refuse workers > 1 without a model factory, with dfs, or a factory that builds another model (KC003, KC008)', () => {
    const model = twoPhasePlain({ rms: 3 });
    expect(() => check(model, { workers: 2 })).toThrow(/KC003: workers > 1 needs modelFactory/);
    expect(() => check(model, { workers: 2, strategy: 'dfs', modelFactory: { module: TWO_PHASE, export: 'twoPhasePlain', args: { rms: 3 } } })).toThrow(/KC003/);
    expect(() => check(model, { workers: 2, modelFactory: { module: TWO_PHASE, export: 'twoPhasePlain', args: { rms: 4 } } })).toThrow(/KC008: .*two-phase-commit\(4\).*not the model checked/);
    expect(() => check(model, { workers: 2, modelFactory: { module: TWO_PHASE, export: 'noSuchExport' } })).toThrow(/KC008: .*no exported function noSuchExport/);
    expect(() => check(model, { workers: 1.5 })).toThrow(/KC003: workers must be a positive integer/);
    // The workers still serve the next search after a refusal.
    expect(check(model, { workers: 2, modelFactory: { module: TWO_PHASE, export: 'twoPhasePlain', args: { rms: 3 } } }).stats.distinctStates).toBe(288);
  });
});

describe('balancePlan', () => {
  it('should move states from the largest shares to the smallest, only beyond the slack', () => {
    expect(balancePlan([100, 100])).toEqual([]);
    expect(balancePlan([105, 95])).toEqual([]); // within 10% of the mean
    expect(balancePlan([200, 0])).toEqual([{ from: 0, to: 1, count: 100 }]);
    expect(balancePlan([10, 0])).toEqual([]); // within 8 states
    expect(balancePlan([300, 0, 0])).toEqual([{ from: 0, to: 1, count: 100 }, { from: 0, to: 2, count: 100 }]);
    const plan = balancePlan([7, 90, 200]);
    const after = [7, 90, 200];
    for (const t of plan) {
      after[t.from] -= t.count;
      after[t.to] += t.count;
    }
    expect(after.reduce((a, b) => a + b)).toBe(297);
    expect(Math.max(...after) - Math.min(...after)).toBeLessThanOrEqual(1);
  });
});
