/**
 * What the engines that must give the one-thread search's results are compared on: random graph
 * specs (test/toys/graphModels.ts: invariants, goals, action properties, observers, deadlock,
 * symmetry), random bounds and early stops, and the summary of a result that must agree.
 */
import fc from 'fast-check';
import type { CheckOptions, CheckResult } from '../../checker/index.js';
import type { GraphSpec } from './graphModels.js';

/** What must agree between a one-thread search and a parallel or distributed one. */
export function summary<S>(r: CheckResult<S>) {
  return {
    verdict: r.verdict,
    distinct: r.stats.distinctStates,
    generated: r.stats.generatedStates,
    depth: r.stats.depth,
    stoppedBy: r.stoppedBy,
    properties: r.properties.map((p) => ({ id: p.id, status: p.status, path: p.trace?.path, states: p.trace?.states })),
  };
}

const nodeSets = (n: number) => fc.array(fc.array(fc.nat({ max: n - 1 }), { minLength: 1, maxLength: 3 }), { maxLength: 2 });

export const specArb: fc.Arbitrary<GraphSpec> = fc.integer({ min: 1, max: 120 }).chain((n) =>
  fc.record(
    {
      edges: fc.array(fc.array(fc.nat({ max: n - 1 }), { maxLength: 4 }), { minLength: n, maxLength: n }),
      roots: fc.array(fc.nat({ max: n - 1 }), { minLength: 1, maxLength: 3 }),
      avoid: nodeSets(n),
      reach: nodeSets(n),
      noStep: fc.array(fc.array(fc.tuple(fc.nat({ max: n - 1 }), fc.nat({ max: n - 1 })), { minLength: 1, maxLength: 4 }), { maxLength: 2 }),
      visits: fc.array(fc.record({ node: fc.nat({ max: n - 1 }), max: fc.integer({ min: 1, max: 2 }) }), { maxLength: 1 }),
      deadlock: fc.boolean(),
      mod: fc.integer({ min: 2, max: 7 }),
    },
    { requiredKeys: ['edges', 'roots'] },
  ),
);

export const optionsArb: fc.Arbitrary<CheckOptions> = fc.record(
  {
    maxStates: fc.integer({ min: 1, max: 150 }),
    maxDepth: fc.integer({ min: 1, max: 12 }),
    stopAtFirstViolation: fc.boolean(),
    symmetry: fc.boolean(),
  },
  { requiredKeys: [] },
);
