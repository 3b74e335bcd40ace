/**
 * The distributed breadth-first search gives the one-thread search's results exactly (distinct and
 * generated counts, depth, verdict, bound, property outcomes and counterexample paths), with 1, 2,
 * 3 and 5 workers, under an adversarial in-process network (random delays, reordering,
 * duplicated and split frames), on random graphs (symmetry, observers, deadlocks, bounds, early
 * stops), on TwoPhase (TLC's published counts) and on Kubernetes scenarios. A network that loses
 * record frames gives a coded error (KC012), never a count.
 */
import { describe, it, expect } from 'vitest';
import fc from 'fast-check';
import { check, type CheckOptions, type FoundViolation } from '../../checker/index.js';
import { checkInMemory, type MemoryNetworkOptions } from '../../checker/distributed/index.js';
import { evenRanges, holderOf, rebalancedRanges } from '../../checker/distributed/protocol.js';
import { graphModel, type GraphSpec } from '../toys/graphModels.js';
import { optionsArb, specArb, summary } from '../toys/graphArbitraries.js';
import { randomGraphModel, type RandomGraph } from '../toys/randomGraph.js';
import { referenceBfs } from '../toys/referenceBfs.js';
import { twoPhasePlain } from '../../examples/two-phase-commit/index.js';
import { resolveFromOptions } from '../../cli/subjects.js';

/** An adversarial network: delays of up to 4 ticks, any order, 10 % of frames twice, 30 % of record frames cut in two. */
const adversary = (seed: number): MemoryNetworkOptions => ({ seed, maxDelay: 4, duplicate: 0.1, split: 0.3 });

describe('distributed search against the one-thread search', () => {
  it('should agree on random graphs with 1, 2, 3 and 5 workers under adversarial delivery: counts, depth, verdict, bounds, outcomes and paths', async () => {
    await fc.assert(
      fc.asyncProperty(specArb, optionsArb, fc.constantFrom(1, 2, 3, 5), fc.nat(), async (spec, options, workers, seed) => {
        const model = graphModel(spec);
        const one = check(model, options);
        const many = await checkInMemory(model, options, workers, adversary(seed));
        expect(summary(many)).toEqual(summary(one));
        expect(many.stats.engine).toBe('distributed');
      }),
      { numRuns: 150 },
    );
  });

  it('should find the reference BFS levels on random graphs (counts and depth it did not produce)', async () => {
    const graphArb: fc.Arbitrary<RandomGraph> = fc.integer({ min: 1, max: 14 }).chain((n) =>
      fc.record({
        edges: fc.array(fc.array(fc.nat({ max: n - 1 }), { maxLength: 4 }), { minLength: n, maxLength: n }),
        roots: fc.array(fc.nat({ max: n - 1 }), { minLength: 1, maxLength: 3 }),
        target: fc.nat({ max: n - 1 }),
      }),
    );
    await fc.assert(
      fc.asyncProperty(graphArb, fc.constantFrom(2, 3), fc.nat(), async (g, workers, seed) => {
        const ref = referenceBfs(randomGraphModel(g));
        const r = await checkInMemory(randomGraphModel({ ...g, invariant: true }), {}, workers, adversary(seed));
        const depthOfTarget = ref.depthOf.get(JSON.stringify(g.target));
        if (depthOfTarget === undefined) {
          expect(r.verdict).toBe('ok');
          expect(r.stats.distinctStates).toBe(ref.levels.flat().length);
        } else {
          expect(r.verdict).toBe('violation');
          expect(r.properties[0].trace?.path.steps.length).toBe(depthOfTarget);
        }
      }),
      { numRuns: 60 },
    );
  });

  it('should agree on wide graphs, where shares drift apart and states move to even them out, whatever the schedule', async () => {
    const n = 3000;
    const edges = Array.from({ length: n }, (_, i) => [(i * 7 + 1) % n, (i * 13 + 5) % n, (i * i + 3) % n]);
    const spec: GraphSpec = { edges, roots: [0], avoid: [[2999]], reach: [[1234]], visits: [{ node: 17, max: 1 }] };
    const model = graphModel(spec);
    const one = check(model);
    expect(one.stats.distinctStates).toBeGreaterThan(3000);
    for (const [workers, seed] of [[2, 1], [3, 2], [5, 3], [5, 4]]) {
      expect(summary(await checkInMemory(model, {}, workers, adversary(seed)))).toEqual(summary(one));
    }
    // Frames in each sender's order, as Redis Streams deliver them, and no adversary at all.
    expect(summary(await checkInMemory(model, {}, 3, { seed: 9, maxDelay: 3, ordered: true }))).toEqual(summary(one));
    expect(summary(await checkInMemory(model, { maxStates: 2500, stopAtFirstViolation: true }, 2))).toEqual(summary(check(model, { maxStates: 2500, stopAtFirstViolation: true })));
  });

  it('should stop at the same step as one thread when every property is decided mid-level', async () => {
    const n = 400;
    const edges = Array.from({ length: n }, (_, i) => [(i + 1) % n, (i * 3 + 2) % n, (i * 5 + 7) % n, i]);
    for (const stop of [false, true]) {
      const spec: GraphSpec = { edges, roots: [0, 5], avoid: [[150]], reach: [[77], [301]], noStep: [[[40, 122]]] };
      const one = check(graphModel(spec), { stopAtFirstViolation: stop });
      expect(one.stats.distinctStates).toBeLessThan(n);
      for (const workers of [2, 5]) expect(summary(await checkInMemory(graphModel(spec), { stopAtFirstViolation: stop }, workers, adversary(workers)))).toEqual(summary(one));
    }
  });
});

describe('distributed search on TwoPhase', () => {
  it("should count TLC's 288 / 1,146 (n = 3) and 8,832 / 58,146 (n = 5) distinct / generated with 1, 2, 3 and 5 workers", async () => {
    for (const [rms, distinct, generated] of [[3, 288, 1146], [5, 8832, 58146]]) {
      const one = check(twoPhasePlain({ rms }));
      for (const workers of [1, 2, 3, 5]) {
        const r = await checkInMemory(twoPhasePlain({ rms }), {}, workers, adversary(rms * 10 + workers));
        expect(r.verdict).toBe('ok');
        expect(r.stats).toMatchObject({ distinctStates: distinct, generatedStates: generated });
        expect(summary(r)).toEqual(summary(one));
      }
    }
  });

  it('should give the same shortest counterexample on the seeded bugs as one thread', async () => {
    for (const bug of ['commit-on-any-prepared', 'rm-commits-on-prepared'] as const) {
      const one = check(twoPhasePlain({ rms: 5, bug }));
      expect(one.verdict).toBe('violation');
      for (const workers of [2, 3]) {
        const many = await checkInMemory(twoPhasePlain({ rms: 5, bug }), {}, workers, adversary(workers));
        expect(summary(many)).toEqual(summary(one));
        expect(many.properties[0].trace?.actions).toEqual(one.properties[0].trace?.actions);
      }
    }
  });

  it('should say incomplete under a time bound, never ok', async () => {
    const timed = await checkInMemory(twoPhasePlain({ rms: 5 }), { timeLimitSeconds: 1e-6 }, 2);
    expect(timed.verdict).toBe('incomplete');
    expect(timed.stoppedBy?.bound).toBe('time');
  });
});

describe('distributed search on Kubernetes scenarios', () => {
  it('should agree with one thread on node-failure (observers, symmetry on and off) and a force delete (a violation), bounded', async () => {
    const failure = await resolveFromOptions({ scenario: 'node-failure' });
    for (const options of [{ maxStates: 2000 }, { maxStates: 1000, symmetry: false }, { maxDepth: 30 }] as CheckOptions[]) {
      const one = check(failure.model, { ...options, properties: failure.defaultProperties });
      const many = await checkInMemory(failure.model, { ...options, properties: failure.defaultProperties }, 3, adversary(7));
      expect(summary(many)).toEqual(summary(one));
    }
    const partition = await resolveFromOptions({ scenario: 'node-partition', set: { 'operator.forceDeletePod': '1' } });
    const options = { properties: ['statefulset-at-most-one', 'single-leader', 'no-double-binding'], maxStates: 2000 };
    const one = check(partition.model, options);
    expect(one.verdict).toBe('violation');
    for (const [workers, extra] of [[2, {}], [5, { stopAtFirstViolation: true }]] as const) {
      // Each violation is told to onViolation (once its path is gathered from the workers) as one thread tells it.
      const told = (into: string[][]) => (v: FoundViolation): void => void into.push([v.property, ...v.trace.actions.map((a) => JSON.stringify(a))]);
      const [byMany, byOne]: string[][][] = [[], []];
      const many = await checkInMemory(partition.model, { ...options, ...extra, onViolation: told(byMany) }, workers, adversary(workers));
      expect(summary(many)).toEqual(summary(check(partition.model, { ...options, ...extra, onViolation: told(byOne) })));
      expect(byOne.length).toBeGreaterThan(0);
      expect(byMany).toEqual(byOne);
    }
  });
});

describe('lost and duplicated records', () => {
  it('should end with KC012, never a count, when the network loses record frames (any order)', async () => {
    const model = twoPhasePlain({ rms: 5 });
    for (const seed of [1, 2, 3]) {
      await expect(checkInMemory(model, {}, 3, { seed, maxDelay: 3, lose: 0.05 })).rejects.toThrow(/KC012/);
    }
  });

  it('should name the lost records at once when frames keep their order (as Redis Streams do)', async () => {
    await expect(checkInMemory(twoPhasePlain({ rms: 5 }), {}, 2, { seed: 4, ordered: true, lose: 0.2 })).rejects.toThrow(/KC012: worker \d: level \d+, .*worker \d sent \d+ items to worker \d, \d+ arrived/);
  });

  it('should refuse depth-first search, threads and a visitor in one line (KC016)', async () => {
    const model = twoPhasePlain({ rms: 3 });
    await expect(checkInMemory(model, { strategy: 'dfs' }, 2)).rejects.toThrow(/KC016: .*breadth-first/);
    await expect(checkInMemory(model, { workers: 2 }, 2)).rejects.toThrow(/KC016/);
  });
});

describe('rank ranges', () => {
  it('should deal ranks in contiguous ranges and find the holder of each', () => {
    expect(evenRanges(10, 3)).toEqual([0, 3, 6, 10]);
    expect(rebalancedRanges([100, 100])).toBeUndefined();
    expect(rebalancedRanges([200, 0])).toEqual([0, 100, 200]);
    const ranges = [0, 0, 5, 5, 9];
    expect([0, 4, 5, 8].map((r) => holderOf(r, ranges))).toEqual([1, 1, 3, 3]);
  });
});
