/**
 * Every engine of the search kernel against an independent BFS on random finite graphs: states
 * are node numbers, one action whose parameters (a function of the state) are the node's
 * out-edges, self-loops and parallel edges included (test/toys/randomGraph.ts). The breadth-first,
 * state-vector and parallel searches must agree exactly on counts, levels, verdicts and shortest
 * violations (with the fewest fault steps among the shortest); depth-first on counts and on
 * finding what is reachable; `forEachTransition` on every state and step, in breadth-first order,
 * within its bounds; random exploration and `traceOfChoices` on taking only real steps from
 * initial states; liveness on an independent fixpoint of "can avoid the target forever".
 */
import { describe, it, expect } from 'vitest';
import fc from 'fast-check';
import {
  always, check, checkLiveness, alwaysEventually, eventually, forEachTransition, replayPath, simulate, traceOfChoices,
  type CheckResult, type Model, type VectorState,
} from '../../checker/index.js';
import { referenceBfs, type ReferenceResult } from '../toys/referenceBfs.js';
import { isFaultStep, randomGraphModel, randomGraphVectorModel, type RandomGraph } from '../toys/randomGraph.js';

const FACTORY = new URL('../toys/randomGraph.ts', import.meta.url).href;

const graphArb: fc.Arbitrary<RandomGraph> = fc.integer({ min: 1, max: 14 }).chain((n) =>
  fc.record(
    {
      edges: fc.array(fc.array(fc.nat({ max: n - 1 }), { maxLength: 4 }), { minLength: n, maxLength: n }),
      roots: fc.array(fc.nat({ max: n - 1 }), { minLength: 1, maxLength: 3 }),
      target: fc.nat({ max: n - 1 }),
      faultSalt: fc.nat({ max: 2 }),
    },
    { requiredKeys: ['edges', 'roots', 'target'] },
  ),
);

/** What the reference predicts of a graph, by node number. */
interface Expected {
  readonly ref: ReferenceResult<number>;
  /** Reachable nodes in breadth-first discovery order (the checker's state ids). */
  readonly order: readonly number[];
  readonly distance: (node: number) => number | undefined;
  /** Fewest fault steps among the shortest paths to the target (undefined: unreachable). */
  readonly fewestFaults: number | undefined;
}

function expected(g: RandomGraph): Expected {
  const ref = referenceBfs(randomGraphModel({ ...g, invariant: false }));
  const order = ref.levels.flat();
  const distance = (node: number): number | undefined => ref.depthOf.get(JSON.stringify(node));
  // Levels in order: a node's fewest faults is final before its successors are reached from it.
  const faults = new Map<number, number>(g.roots.map((r) => [r, 0]));
  for (const u of order) {
    for (const v of g.edges[u]) {
      if (distance(v) !== distance(u)! + 1) continue;
      const f = faults.get(u)! + (isFaultStep(g, u, v) ? 1 : 0);
      if (!(f >= faults.get(v)!)) faults.set(v, f);
    }
  }
  return { ref, order, distance, fewestFaults: faults.get(g.target) };
}

const nodeOf = (s: number | VectorState): number => (typeof s === 'number' ? s : s[0]);

/** A path of real steps: from a root, each state an out-edge of the one before, named by it. */
function expectRealPath(g: RandomGraph, states: readonly number[], params: readonly unknown[]): void {
  expect(g.roots).toContain(states[0]);
  expect(states).toHaveLength(params.length + 1);
  for (let i = 0; i < params.length; i++) {
    expect(params[i]).toBe(states[i + 1]);
    expect(g.edges[states[i]]).toContain(states[i + 1]);
  }
}

/** The full-space figures the reference predicts. */
function expectCounts<S>(r: CheckResult<S>, e: Expected): void {
  expect(r.verdict).toBe('ok');
  expect(r.stats.distinctStates).toBe(e.ref.distinct);
  expect(r.stats.generatedStates).toBe(e.ref.generated);
  expect(r.stats.depth).toBe(e.ref.levels.length);
}

/**
 * The verdict on `avoid-target` the reference predicts and, when violated, a shortest replayable
 * counterexample with the fewest fault steps among the shortest.
 */
function expectShortestViolation<S extends number | VectorState>(g: RandomGraph, model: Model<S>, r: CheckResult<S>, e: Expected): void {
  const distance = e.distance(g.target);
  expect(r.verdict).toBe(distance === undefined ? 'ok' : 'violation');
  if (distance === undefined) return;
  const t = r.properties.find((p) => p.id === 'avoid-target')!.trace!;
  const states = t.states.map(nodeOf);
  expect(t.actions).toHaveLength(distance);
  expect(states.at(-1)).toBe(g.target);
  expectRealPath(g, states, t.actions.map((a) => a.param));
  let faults = 0;
  for (let i = 0; i < distance; i++) if (isFaultStep(g, states[i], states[i + 1])) faults++;
  expect(faults).toBe(e.fewestFaults);
  expect(replayPath(model, t.path).states.map(nodeOf)).toEqual(states);
}

/**
 * The graph as an object model and as a state vector (a copy keeps the capability), each with a
 * property to check, so that a bound that cuts the space makes the verdict incomplete.
 */
function engines(g: RandomGraph): [Model<unknown>, 'generic' | 'state-vector'][] {
  const any = always<unknown>('any', 'true', () => true);
  return [
    [{ ...randomGraphModel(g), properties: [any] } as Model<unknown>, 'generic'],
    [{ ...randomGraphVectorModel(g), properties: [any] } as Model<unknown>, 'state-vector'],
  ];
}

describe('random graphs against an independent BFS', () => {
  it('should count the same distinct, generated and levels: breadth-first, depth-first and state-vector', () => {
    fc.assert(
      fc.property(graphArb, (g) => {
        const e = expected(g);
        const bfs = check(randomGraphModel(g));
        expectCounts(bfs, e);
        expect(bfs.stats.engine).toBe('generic');
        const dfs = check(randomGraphModel(g), { strategy: 'dfs' });
        expect(dfs.stats.distinctStates).toBe(e.ref.distinct);
        expect(dfs.stats.generatedStates).toBe(e.ref.generated);
        const vec = check(randomGraphVectorModel(g));
        expectCounts(vec, e);
        expect(vec.stats.engine).toBe('state-vector');
      }),
      { numRuns: 300 },
    );
  });

  it('should find the target exactly when reachable, by a shortest replayable path with the fewest faults (breadth-first, state-vector)', () => {
    fc.assert(
      fc.property(graphArb, (g0) => {
        const g: RandomGraph = { ...g0, invariant: true };
        const e = expected(g);
        const model = randomGraphModel(g);
        expectShortestViolation(g, model, check(model), e);
        const vectorModel = randomGraphVectorModel(g);
        const vec = check(vectorModel);
        expect(vec.stats.engine).toBe('state-vector');
        expectShortestViolation(g, vectorModel, vec, e);
        // Depth-first finds it too, by some real path.
        const d = check(model, { strategy: 'dfs' });
        expect(d.verdict).toBe(e.distance(g.target) === undefined ? 'ok' : 'violation');
        if (d.verdict === 'ok') return;
        const t = d.properties[0].trace!;
        expectRealPath(g, t.states, t.actions.map((a) => a.param));
        expect(replayPath(model, t.path).states.at(-1)).toBe(g.target);
      }),
      { numRuns: 300 },
    );
  });

  it('should be ok under a maxDepth exactly when the bound covers every level', () => {
    fc.assert(
      fc.property(graphArb, fc.integer({ min: 1, max: 16 }), (g, maxDepth) => {
        const e = expected(g);
        const within = e.ref.levels.slice(0, maxDepth).flat().length;
        for (const [model, engine] of engines(g)) {
          const r = check(model, { maxDepth });
          expect(r.stats.engine).toBe(engine);
          expect(r.verdict).toBe(maxDepth >= e.ref.levels.length ? 'ok' : 'incomplete');
          expect(r.stats.distinctStates).toBe(within);
          if (r.verdict === 'incomplete') expect(r.stoppedBy).toEqual({ bound: 'depth', limit: maxDepth });
        }
        // Depth-first under the same bound may stop earlier (its depth is the path's, not the
        // distance), but it says ok only after seeing every state.
        const d = check(engines(g)[0][0], { maxDepth, strategy: 'dfs' });
        if (d.verdict === 'ok') expect(d.stats.distinctStates).toBe(e.ref.distinct);
        else expect(d.stoppedBy?.bound).toBe('depth');
        if (maxDepth >= e.ref.distinct) expect(d.verdict).toBe('ok');
      }),
      { numRuns: 300 },
    );
  });

  it('should stop at maxStates after exactly the first states in breadth-first order (breadth-first, state-vector)', () => {
    fc.assert(
      fc.property(graphArb, fc.integer({ min: 1, max: 16 }), (g, maxStates) => {
        const e = expected(g);
        for (const [model, engine] of engines(g)) {
          const r = check(model, { maxStates });
          expect(r.stats.engine).toBe(engine);
          expect(r.stats.distinctStates).toBe(Math.min(maxStates, e.ref.distinct));
          expect(r.verdict).toBe(maxStates >= e.ref.distinct ? 'ok' : 'incomplete');
          if (r.verdict === 'incomplete') expect(r.stoppedBy).toEqual({ bound: 'states', limit: maxStates });
        }
      }),
      { numRuns: 200 },
    );
  });
});

describe('forEachTransition on random graphs', () => {
  /** The steps visited, grouped by the state they leave, in visiting order. */
  function visit(g: RandomGraph, maxStates?: number) {
    const groups: { from: number; to: number[] }[] = [];
    const stats = forEachTransition(
      randomGraphModel(g),
      (before, action, after) => {
        expect(action.name).toBe('go');
        expect(action.param).toBe(after);
        if (groups.at(-1)?.from !== before) groups.push({ from: before, to: [] });
        groups.at(-1)!.to.push(after);
      },
      maxStates === undefined ? {} : { maxStates },
    );
    return { groups, stats };
  }

  it('should visit every step out of every reachable state once, state by state in breadth-first order', () => {
    fc.assert(
      fc.property(graphArb, (g) => {
        const e = expected(g);
        const { groups, stats } = visit(g);
        // Each reachable state with out-edges once (none with no step), its edges in order.
        expect(groups).toEqual(e.order.filter((s) => g.edges[s].length > 0).map((s) => ({ from: s, to: g.edges[s] })));
        expect(stats).toMatchObject({ complete: true, distinctStates: e.ref.distinct, transitions: e.ref.generated - g.roots.length, depth: e.ref.levels.length });
        expect(stats.stoppedBy).toBeUndefined();
      }),
      { numRuns: 300 },
    );
  });

  it('should visit only real steps of the first states under maxStates, and say whether it saw all', () => {
    fc.assert(
      fc.property(graphArb, fc.integer({ min: 1, max: 16 }), (g, maxStates) => {
        const e = expected(g);
        const { groups, stats } = visit(g, maxStates);
        const complete = maxStates >= e.ref.distinct;
        expect(stats.complete).toBe(complete);
        expect(stats.distinctStates).toBe(Math.min(maxStates, e.ref.distinct));
        if (!complete) expect(stats.stoppedBy).toEqual({ bound: 'states', limit: maxStates });
        // The states left are a prefix of the breadth-first order; each one's steps a prefix of its
        // out-edges (all of them but for the last state, where the bound struck).
        const expanded = e.order.filter((s) => g.edges[s].length > 0);
        expect(groups.map((x) => x.from)).toEqual(expanded.slice(0, groups.length));
        groups.forEach(({ from, to }, i) => {
          expect(e.order.indexOf(from)).toBeLessThan(stats.distinctStates);
          if (i < groups.length - 1 || complete) expect(to).toEqual(g.edges[from]);
          else expect(to).toEqual(g.edges[from].slice(0, to.length));
        });
        const stepsSeen = groups.reduce((n, x) => n + x.to.length, 0);
        // `transitions` counts the steps handed to the visitor, also when the bound strikes among
        // the initial states (no step then).
        expect(stats.transitions).toBe(stepsSeen);
        if (maxStates < new Set(g.roots).size) expect(stepsSeen).toBe(0);
      }),
      { numRuns: 300 },
    );
  });
});

describe('parallel search on random graphs', () => {
  function parallel<S>(model: Model<S>, exportName: string, g: RandomGraph): CheckResult<S> {
    // Every level goes to the workers (by default only levels of 1,024 states or more do).
    process.env.KUBECHECK_PARALLEL_LEVEL = '1';
    try {
      return check(model, { workers: 2, modelFactory: { module: FACTORY, export: exportName, args: g as never } });
    } finally {
      delete process.env.KUBECHECK_PARALLEL_LEVEL;
    }
  }

  it('should count, decide and give shortest counterexamples with the fewest faults as the reference (2 workers)', () => {
    // Starting workers costs about half a second a check: few runs, each either counting the
    // whole space or looking for the target, on the object or the state-vector model.
    fc.assert(
      fc.property(graphArb, fc.boolean(), fc.boolean(), (g0, vector, invariant) => {
        const g: RandomGraph = { ...g0, invariant };
        const e = expected(g);
        const judge = <S extends number | VectorState>(model: Model<S>, r: CheckResult<S>): void => {
          // Workers take every level; only a search decided on its initial states (its one
          // property violated there) starts none.
          expect(r.stats.engine).toBe(r.properties.some((p) => p.trace?.states.length === 1) ? 'generic' : 'parallel');
          if (invariant) expectShortestViolation(g, model, r, e);
          if (!invariant || e.distance(g.target) === undefined) expectCounts(r, e);
        };
        if (vector) {
          const model = randomGraphVectorModel(g);
          judge(model, parallel(model, 'randomGraphVectorModel', g));
        } else {
          const model = randomGraphModel(g);
          judge(model, parallel(model, 'randomGraphModel', g));
        }
      }),
      { numRuns: 10 },
    );
  });
});

describe('random exploration on random graphs', () => {
  it('should follow only real steps from an initial state, stopping early only at a dead end (traceOfChoices)', () => {
    fc.assert(
      fc.property(graphArb, fc.array(fc.nat(), { minLength: 1, maxLength: 24 }), (g, choices) => {
        const e = expected(g);
        const model = randomGraphModel(g);
        const t = traceOfChoices(model, choices);
        expectRealPath(g, t.states, t.actions.map((a) => a.param));
        expect(t.path.steps).toHaveLength(t.actions.length);
        t.path.steps.forEach((ordinal, i) => expect(g.edges[t.states[i]][ordinal]).toBe(t.states[i + 1]));
        for (const s of t.states) expect(e.distance(s)).toBeDefined();
        expect(t.actions.length).toBeLessThanOrEqual(choices.length - 1);
        if (t.actions.length < choices.length - 1) expect(g.edges[t.states.at(-1)!]).toHaveLength(0);
        expect(replayPath(model, t.path).states).toEqual(t.states);
      }),
      { numRuns: 300 },
    );
  });

  it('should report only reachable states and real counterexamples no shorter than the shortest (simulate)', () => {
    fc.assert(
      fc.property(graphArb, fc.integer({ min: 1, max: 2 ** 31 - 1 }), (g0, seed) => {
        const g: RandomGraph = { ...g0, invariant: true };
        const e = expected(g);
        const model = randomGraphModel(g);
        const r = simulate(model, { seed, runs: 20, maxSteps: 16 });
        expect(r.stats.engine).toBe('random');
        expect(r.coverage.distinctStates).toBeLessThanOrEqual(e.ref.distinct);
        expect(r.stats.distinctStates).toBeLessThanOrEqual(e.ref.distinct);
        const distance = e.distance(g.target);
        if (distance === undefined) expect(r.verdict).toBe('incomplete');
        if (g.roots.every((s) => s === g.target)) expect(r.verdict).toBe('violation');
        if (r.verdict !== 'violation') return;
        const t = r.properties.find((p) => p.id === 'avoid-target')!.trace!;
        expectRealPath(g, t.states, t.actions.map((a) => a.param));
        expect(t.states.at(-1)).toBe(g.target);
        expect(t.actions.length).toBeGreaterThanOrEqual(distance!);
        expect(replayPath(model, t.path).states).toEqual(t.states);
      }),
      { numRuns: 150 },
    );
  });
});

describe('liveness on random graphs', () => {
  /** A node's edges to other nodes: an edge back to itself is a stuttering step, which takes no action (TLA+'s <<A>>_vars). */
  const moves = (g: RandomGraph, u: number): number[] => g.edges[u].filter((v) => v !== u);

  /**
   * The nodes from which a behaviour can avoid the target forever under weak fairness of `go`
   * (greatest fixpoint): not the target, and either a dead end (no edge to another node: it
   * stutters there) or with an edge to another such node. Without fairness every node but the
   * target may stutter forever.
   */
  function avoiders(g: RandomGraph): Set<number> {
    const inside = new Set(g.edges.map((_, i) => i).filter((i) => i !== g.target));
    for (let changed = true; changed; ) {
      changed = false;
      for (const u of [...inside]) {
        if (moves(g, u).length > 0 && !moves(g, u).some((v) => inside.has(v))) {
          inside.delete(u);
          changed = true;
        }
      }
    }
    return inside;
  }

  it('should decide eventually and always-eventually as the fixpoint does, with lassos that are real behaviours', () => {
    fc.assert(
      fc.property(graphArb, fc.boolean(), fc.boolean(), (g0, fair, vector) => {
        const g: RandomGraph = { ...g0, fair };
        const e = expected(g);
        const stay = fair ? avoiders(g) : new Set(g.edges.map((_, i) => i).filter((i) => i !== g.target));
        const expectEventually = g.roots.some((r) => stay.has(r));
        const expectAlways = e.order.some((s) => stay.has(s));
        const outcomes = vector
          ? checkLiveness(randomGraphVectorModel(g), [
              eventually<VectorState>('eventually', 'reaches the target', (v) => v[0] === g.target),
              alwaysEventually<VectorState>('always-eventually', 'reaches the target again and again', (v) => v[0] === g.target),
            ])
          : checkLiveness(randomGraphModel(g), [
              eventually<number>('eventually', 'reaches the target', (s) => s === g.target),
              alwaysEventually<number>('always-eventually', 'reaches the target again and again', (s) => s === g.target),
            ]);
        expect(outcomes.map((o) => o.status)).toEqual([expectEventually ? 'violated' : 'holds', expectAlways ? 'violated' : 'holds']);
        outcomes.forEach((o, k) => {
          if (o.status === 'holds') return;
          const { states: raw, actions, loop } = o.lasso!;
          const states = raw.map((s) => nodeOf(s as number | VectorState));
          expectRealPath(g, states, actions.map((a) => a.param));
          expect(loop).toBeGreaterThanOrEqual(0);
          expect(loop).toBeLessThan(states.length);
          const last = states.at(-1)!;
          // The cycle returns to where it starts, or is a stutter (under fairness, at a dead end).
          if (loop < states.length - 1) expect(last).toBe(states[loop]);
          else if (fair) expect(moves(g, last)).toHaveLength(0);
          // The run never meets the target: from the start (eventually) or on the cycle.
          for (const s of k === 0 ? states : states.slice(loop)) expect(s).not.toBe(g.target);
        });
      }),
      { numRuns: 300 },
    );
  });
});
