/**
 * The search against an independent BFS on random finite graphs: states are node numbers, one
 * action whose parameters (a function of the state) are the node's out-edges, self-loops and
 * parallel edges included. Counts, levels and shortest violations must agree exactly.
 */
import { describe, it, expect } from 'vitest';
import fc from 'fast-check';
import { action, always, check, replayPath, type Model } from '../../checker/index.js';
import { referenceBfs } from '../toys/referenceBfs.js';

interface Graph {
  readonly edges: readonly (readonly number[])[];
  readonly roots: readonly number[];
  readonly target: number;
}

const graphArb: fc.Arbitrary<Graph> = fc.integer({ min: 1, max: 14 }).chain((n) =>
  fc.record({
    edges: fc.array(fc.array(fc.nat({ max: n - 1 }), { maxLength: 4 }), { minLength: n, maxLength: n }),
    roots: fc.array(fc.nat({ max: n - 1 }), { minLength: 1, maxLength: 3 }),
    target: fc.nat({ max: n - 1 }),
  }),
);

function graphModel(g: Graph, withInvariant: boolean): Model<number> {
  return {
    name: 'random-graph',
    initialStates: () => g.roots,
    actions: [action<number, number>({ name: 'go', params: (s) => g.edges[s], apply: (_s, t) => t })],
    properties: withInvariant ? [always('avoid-target', 'the target node is never reached', (s) => s !== g.target)] : [],
  };
}

describe('random graphs against an independent BFS', () => {
  it('should count the same distinct, generated and levels, both strategies', () => {
    fc.assert(
      fc.property(graphArb, (g) => {
        const ref = referenceBfs(graphModel(g, false));
        const bfs = check(graphModel(g, false));
        expect(bfs.verdict).toBe('ok');
        expect(bfs.stats.distinctStates).toBe(ref.distinct);
        expect(bfs.stats.generatedStates).toBe(ref.generated);
        expect(bfs.stats.depth).toBe(ref.levels.length);
        const dfs = check(graphModel(g, false), { strategy: 'dfs' });
        expect(dfs.stats.distinctStates).toBe(ref.distinct);
        expect(dfs.stats.generatedStates).toBe(ref.generated);
      }),
      { numRuns: 300 },
    );
  });

  it('should find the target exactly when reachable, by a shortest replayable path', () => {
    fc.assert(
      fc.property(graphArb, (g) => {
        const model = graphModel(g, true);
        const ref = referenceBfs(graphModel(g, false));
        const distance = ref.depthOf.get(JSON.stringify(g.target));
        const r = check(model);
        expect(r.verdict).toBe(distance === undefined ? 'ok' : 'violation');
        if (distance === undefined) return;
        const t = r.properties[0].trace!;
        expect(t.actions).toHaveLength(distance);
        expect(t.states.at(-1)).toBe(g.target);
        expect(g.roots).toContain(t.states[0]);
        for (let i = 0; i < distance; i++) expect(g.edges[t.states[i]]).toContain(t.states[i + 1]);
        expect(replayPath(model, t.path).states).toEqual(t.states);
        // Depth-first finds it too, by some real path.
        const d = check(model, { strategy: 'dfs' });
        expect(d.verdict).toBe('violation');
        expect(replayPath(model, d.properties[0].trace!.path).states.at(-1)).toBe(g.target);
      }),
      { numRuns: 300 },
    );
  });

  it('should be ok under a maxDepth exactly when the bound covers every level', () => {
    fc.assert(
      fc.property(graphArb, fc.integer({ min: 1, max: 16 }), (g, maxDepth) => {
        const ref = referenceBfs(graphModel(g, false));
        const model: Model<number> = { ...graphModel(g, false), properties: [always('any', 'true', () => true)] };
        const r = check(model, { maxDepth });
        expect(r.verdict).toBe(maxDepth >= ref.levels.length ? 'ok' : 'incomplete');
        expect(r.stats.distinctStates).toBe(ref.levels.slice(0, maxDepth).flat().length);
        // Depth-first under the same bound may stop earlier (its depth is the path's, not the
        // distance), but it says ok only after seeing every state.
        const d = check(model, { maxDepth, strategy: 'dfs' });
        if (d.verdict === 'ok') expect(d.stats.distinctStates).toBe(ref.distinct);
        else expect(d.stoppedBy?.bound).toBe('depth');
        if (maxDepth >= ref.distinct) expect(d.verdict).toBe('ok');
      }),
      { numRuns: 300 },
    );
  });
});
