/**
 * The search against toy models whose counts and orders are known by hand (Stateright's
 * test_util.rs style): bounded counter, water jugs, a binary tree and a grid for visit order.
 */
import { describe, it, expect } from 'vitest';
import fc from 'fast-check';
import { always, check, replayLabels, replayPath, sometimes, type CheckResult, type Model } from '../../checker/index.js';
import { counter } from '../toys/counter.js';
import { waterJugs, type Jugs } from '../toys/waterJugs.js';
import { binaryTree, grid } from '../toys/binaryTree.js';
import { referenceBfs } from '../toys/referenceBfs.js';
import { graphModel, type At } from '../toys/graphModels.js';

function outcome<S>(r: CheckResult<S>, id: string) {
  const o = r.properties.find((p) => p.id === id);
  if (o === undefined) throw new Error(`no outcome for ${id}`);
  return o;
}

describe('bounded counter counts', () => {
  it('should count max+1 distinct, 2*max+1 generated, max+1 levels (max = 5: 6, 11, 6)', () => {
    // x in 0..5; inc from 0..4 (5 steps), dec from 1..5 (5 steps), plus the initial state.
    const r = check(counter({ max: 5 }));
    expect(r.verdict).toBe('ok');
    expect(r.stats).toMatchObject({ distinctStates: 6, generatedStates: 11, depth: 6 });
  });

  it('should count self-loops as generated but not as new states (max = 5 with stay: 6, 17, 6)', () => {
    // The 6 stay self-loops add 6 generated states and no distinct one.
    const r = check(counter({ max: 5, stay: true }));
    expect(r.stats).toMatchObject({ distinctStates: 6, generatedStates: 17, depth: 6 });
  });

  it('should match the formulas for any max, both strategies', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 40 }), fc.constantFrom('bfs' as const, 'dfs' as const), (max, strategy) => {
        const r = check(counter({ max }), { strategy });
        expect(r.verdict).toBe('ok');
        expect(r.stats.distinctStates).toBe(max + 1);
        expect(r.stats.generatedStates).toBe(2 * max + 1);
        // DFS on a line also reaches x = max on level max+1.
        expect(r.stats.depth).toBe(max + 1);
      }),
      { numRuns: 30 },
    );
  });
});

describe('water jugs (3 and 5 gallons, get 4)', () => {
  const bigIsFour = (s: Jugs): boolean => s.big === 4;
  /** The known 6-step solution: fill 5, pour into 3, empty 3, pour 2 into 3, fill 5, top up 3. */
  const solution = ['fillBig', 'pourBigIntoSmall', 'emptySmall', 'pourBigIntoSmall', 'fillBig', 'pourBigIntoSmall'];

  it('should witness "big jug holds 4" with the 6-step shortest solution', () => {
    const model = waterJugs({ properties: [sometimes('four-gallons', 'the big jug can hold 4 gallons', bigIsFour)] });
    const r = check(model);
    expect(r.verdict).toBe('ok');
    const o = outcome(r, 'four-gallons');
    expect(o.status).toBe('witnessed');
    expect(o.trace?.actions.map((a) => a.name)).toEqual(solution);
    expect(o.trace?.states.at(-1)).toEqual({ small: 3, big: 4 });
    expect(replayPath(model, o.trace!.path).states).toEqual(o.trace?.states);
  });

  it('should violate the invariant "big jug != 4" with a 6-step trace', () => {
    const model = waterJugs({ properties: [always('not-four', 'the big jug never holds 4 gallons', (s) => !bigIsFour(s))] });
    const r = check(model);
    expect(r.verdict).toBe('violation');
    const t = outcome(r, 'not-four').trace!;
    expect(t.actions).toHaveLength(6);
    expect(t.states.slice(0, 6).every((s) => !bigIsFour(s))).toBe(true);
    expect(bigIsFour(t.states[6])).toBe(true);
  });

  it('should have no shorter solution (independent BFS)', () => {
    const ref = referenceBfs(waterJugs({ properties: [] }));
    expect(ref.levels.findIndex((l) => l.some(bigIsFour))).toBe(6);
  });

  it('should reach the 16 states with one jug empty or full', () => {
    // (s, b) with s in {0, 3} (2 x 6 = 12) or b in {0, 5} with s in {1, 2} (4): 16.
    const r = check(waterJugs({ properties: [] }));
    expect(r.stats.distinctStates).toBe(16);
    const ref = referenceBfs(waterJugs({ properties: [] }));
    expect(ref.distinct).toBe(16);
    expect(r.stats.generatedStates).toBe(ref.generated);
    expect(r.stats.depth).toBe(ref.levels.length);
  });

  it('should report an unreachable goal as unwitnessed, a violation (2 and 4 gallon jugs hold even amounts)', () => {
    const r = check(waterJugs({ small: 2, big: 4, properties: [sometimes('three-gallons', 'the big jug can hold 3 gallons', (s) => s.big === 3)] }));
    expect(r.stoppedBy).toBeUndefined();
    expect(outcome(r, 'three-gallons').status).toBe('unwitnessed');
    expect(outcome(r, 'three-gallons').trace).toBeUndefined();
    expect(r.verdict).toBe('violation');
  });

  it('should say unknown, not unwitnessed, for a goal not reached before a bound', () => {
    const model = waterJugs({ properties: [sometimes('four-gallons', 'the big jug can hold 4 gallons', bigIsFour)] });
    const r = check(model, { maxDepth: 6 }); // the witness lies on level 7
    expect(outcome(r, 'four-gallons').status).toBe('unknown');
    expect(r.verdict).toBe('incomplete');
    expect(check(model, { maxDepth: 7 }).verdict).toBe('ok');
  });

  it('should find the same states and the goal depth-first', () => {
    const model = waterJugs({ properties: [always('not-four', 'the big jug never holds 4 gallons', (s) => !bigIsFour(s))] });
    const r = check(model, { strategy: 'dfs' });
    expect(r.verdict).toBe('violation');
    const t = outcome(r, 'not-four').trace!;
    expect(bigIsFour(replayPath(model, t.path).states.at(-1)!)).toBe(true);
    expect(check(waterJugs({ properties: [] }), { strategy: 'dfs' }).stats.distinctStates).toBe(16);
  });
});

describe('visit order', () => {
  it('should check states breadth-first, level by level: 1, 2, ..., 31 in a binary tree', () => {
    const order: number[] = [];
    const r = check(binaryTree(31, [always('record', 'records the visit order', (k) => (order.push(k), true))]));
    expect(r.verdict).toBe('ok');
    expect(order).toEqual(Array.from({ length: 31 }, (_, i) => i + 1));
    expect(r.stats).toMatchObject({ distinctStates: 31, generatedStates: 31, depth: 5 });
  });

  it('should check each grid state once, on level row + col, levels in order', () => {
    const order: (readonly [number, number])[] = [];
    const n = 6;
    const r = check(grid(n, [always('record', 'records the visit order', (s) => (order.push(s), true))]));
    expect(r.stats.distinctStates).toBe(n * n);
    // Generated: 1 + (n-1)*n down steps + n*(n-1) right steps.
    expect(r.stats.generatedStates).toBe(1 + 2 * n * (n - 1));
    expect(r.stats.depth).toBe(2 * n - 1);
    expect(new Set(order.map((s) => s.join(','))).size).toBe(n * n);
    const levels = order.map(([a, b]) => a + b);
    expect(levels).toEqual([...levels].sort((a, b) => a - b));
    // Within level 1 the model's action order decides: down before right.
    expect(order.slice(0, 3)).toEqual([[0, 0], [1, 0], [0, 1]]);
  });

  it('should visit the same set depth-first, and check every state exactly once', () => {
    const order: number[] = [];
    const r = check(binaryTree(31, [always('record', 'records the visit order', (k) => (order.push(k), true))]), { strategy: 'dfs' });
    expect(r.stats.distinctStates).toBe(31);
    expect([...order].sort((a, b) => a - b)).toEqual(Array.from({ length: 31 }, (_, i) => i + 1));
  });

  it('should still find a violation depth-first, on a path of real steps', () => {
    const model = binaryTree(31, [always('not-27', 'node 27 is never reached', (k) => k !== 27)]);
    const r = check(model, { strategy: 'dfs' });
    expect(r.verdict).toBe('violation');
    const t = outcome(r, 'not-27').trace!;
    // 27 = 0b11011: right, left, right, right from the root; the tree has one path to it.
    expect(t.actions.map((a) => a.name)).toEqual(['right', 'left', 'right', 'right']);
    expect(t.states).toEqual([1, 3, 6, 13, 27]);
  });
});

describe('bounds on toys', () => {
  const inRange = always<number>('in-range', 'x stays in 0..5', (x) => x >= 0 && x <= 5);

  it('should be ok when maxDepth covers every level and incomplete one below', () => {
    expect(check(counter({ max: 5, properties: [inRange] }), { maxDepth: 6 }).verdict).toBe('ok');
    const r = check(counter({ max: 5, properties: [inRange] }), { maxDepth: 5 });
    expect(r.verdict).toBe('incomplete');
    expect(r.stoppedBy).toEqual({ bound: 'depth', limit: 5 });
    expect(r.stats.distinctStates).toBe(5);
  });

  // Regression, fixed in cff7042 (checker/search.ts, result(): `verdict = failed ? 'violation' :
  // outcomes.some(unknown) ? 'incomplete' : 'ok'`): with no property selected (a model without properties, or
  // `properties: []`) there is no outcome to be 'unknown', so a search cut short by a bound says
  // 'ok' while `stoppedBy` is set. Repro: check(counter({ max: 5 }), { maxDepth: 5 }) gives
  // verdict 'ok', stoppedBy { bound: 'depth', limit: 5 }, 5 of 6 states.
  it('should not say ok on a partial search of a model with no properties', () => {
    for (const options of [{ maxDepth: 5 }, { maxStates: 5 }]) {
      const r = check(counter({ max: 5 }), options);
      expect(r.stoppedBy).toBeDefined();
      expect(r.verdict).toBe('incomplete');
    }
  });

  it('should not say ok on a partial search when options.properties is empty', () => {
    const r = check(counter({ max: 5, properties: [inRange] }), { maxStates: 3, properties: [] });
    expect(r.stoppedBy).toEqual({ bound: 'states', limit: 3 });
    expect(r.verdict).toBe('incomplete');
  });

  it('should never say ok on a partial search, whatever the bound', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 30 }), fc.integer({ min: 1, max: 30 }), fc.constantFrom('bfs' as const, 'dfs' as const), (max, bound, strategy) => {
        // Arrange: x in 0..max, one invariant that holds.
        const model = counter({ max, properties: [always('in-range', 'x stays in 0..max', (x) => x >= 0 && x <= max)] });
        // Act
        const byDepth = check(model, { maxDepth: bound, strategy });
        const byStates = check(model, { maxStates: bound, strategy });
        // Assert: ok exactly when the bound lets the whole space (max+1 states on max+1 levels) in.
        const whole = bound >= max + 1;
        expect(byDepth.verdict).toBe(whole ? 'ok' : 'incomplete');
        expect(byStates.verdict).toBe(whole ? 'ok' : 'incomplete');
        expect(byDepth.stoppedBy).toEqual(whole ? undefined : { bound: 'depth', limit: bound });
        expect(byStates.stoppedBy).toEqual(whole ? undefined : { bound: 'states', limit: bound });
        expect(byStates.stats.distinctStates).toBe(Math.min(bound, max + 1));
        expect(outcome(byStates, 'in-range').status).toBe(whole ? 'holds' : 'unknown');
      }),
      { numRuns: 60 },
    );
  });

  it('should report a violation found before a bound stopped the search', () => {
    const model = counter({ max: 10, properties: [always('below-3', 'x stays below 3', (x) => x < 3)] });
    const r = check(model, { maxStates: 5 });
    expect(r.verdict).toBe('violation');
    expect(outcome(r, 'below-3').trace?.states).toEqual([0, 1, 2, 3]);
  });

  it('should stop at the first violation when asked, leaving the rest unknown', () => {
    const props = [
      always<number>('below-2', 'x stays below 2', (x) => x < 2),
      always<number>('below-4', 'x stays below 4', (x) => x < 4),
    ];
    const all = check(counter({ max: 10, properties: props }));
    expect(outcome(all, 'below-2').status).toBe('violated');
    expect(outcome(all, 'below-4').status).toBe('violated');
    expect(outcome(all, 'below-4').trace?.actions).toHaveLength(4);
    const first = check(counter({ max: 10, properties: props }), { stopAtFirstViolation: true });
    expect(first.verdict).toBe('violation');
    expect(outcome(first, 'below-2').status).toBe('violated');
    expect(outcome(first, 'below-4').status).toBe('unknown');
  });

  it('should check only the properties asked for', () => {
    const props = [always<number>('below-2', 'x stays below 2', (x) => x < 2), always<number>('non-negative', 'x >= 0', (x) => x >= 0)];
    const r = check(counter({ max: 4, properties: props }), { properties: ['non-negative'] });
    expect(r.verdict).toBe('ok');
    expect(r.properties.map((p) => p.id)).toEqual(['non-negative']);
  });
});

describe('initial states and replay by labels', () => {
  const twoRoots = (roots: number[]): Model<number> => ({ ...counter({ max: 3, properties: [always('not-zero', 'x != 0', (x) => x !== 0)] }), initialStates: () => roots });

  it('should point a trace at the right initial state', () => {
    const r = check(twoRoots([2, 0]));
    const t = outcome(r, 'not-zero').trace!;
    expect(t.path).toEqual({ initial: 1, steps: [] });
    expect(t.states).toEqual([0]);
  });

  it('should count duplicate initial states as generated, not distinct', () => {
    const r = check({ ...counter({ max: 3 }), initialStates: () => [1, 1, 3] });
    // Level 1 is {1, 3}, level 2 is {2, 0}. Generated: 3 initial + inc from 0, 1, 2 (3) + dec
    // from 1, 2, 3 (3) = 9; distinct 0..3.
    expect(r.stats).toMatchObject({ distinctStates: 4, generatedStates: 9, depth: 2 });
  });

  it('should replay a trace from its labels and name the first label that does not apply', () => {
    const model = waterJugs({ properties: [sometimes('four-gallons', 'the big jug can hold 4 gallons', (s) => s.big === 4)] });
    const t = outcome(check(model), 'four-gallons').trace!;
    const again = replayLabels(model, t.actions);
    expect(again.ok).toBe(true);
    expect(again.trace.path).toEqual(t.path);
    expect(again.trace.states).toEqual(t.states);
    const broken = replayLabels(model, [{ name: 'fillBig' }, { name: 'fillBig' }]);
    expect(broken.ok).toBe(false);
    if (!broken.ok) expect(broken.failedStep).toBe(2);
  });
});

describe('time limit on slow steps', () => {
  // Regression, fixed in cff7042 (checker/search.ts, tick() read the clock only every 1024
  // expansions): a model with fewer, slow states overran timeLimitSeconds without bound. Repro: 200 states of
  // 5 ms each with timeLimitSeconds 0.1 runs ~1 s and returns verdict 'ok' with no stoppedBy.
  it('should stop near the time limit even when steps are slow', () => {
    const slow: Model<number> = {
      ...counter({ max: 200, dec: false, properties: [always('any', 'true', () => true)] }),
      name: 'slow-counter',
    };
    const inc = slow.actions[0];
    const model: Model<number> = {
      ...slow,
      actions: [{ ...inc, apply: (x: number) => { const end = performance.now() + 5; while (performance.now() < end); return x + 1; } }],
    };
    const started = performance.now();
    const r = check(model, { timeLimitSeconds: 0.1 });
    expect(performance.now() - started).toBeLessThan(500);
    expect(r.stoppedBy?.bound).toBe('time');
  });
});

describe('plainView', () => {
  // A model with a symmetry gives plainView so that a search asked for none (or liveness on the
  // whole graph) keys states by it rather than by `view`.
  it('should key states by plainView when no symmetry applies, and by the canonical form otherwise', () => {
    const base = graphModel({ edges: [[1, 2], [3], [3], [0]], roots: [0], mod: 2 });
    const calls = { view: 0, plain: 0 };
    const model: Model<At> = {
      ...base,
      view: (s) => {
        calls.view++;
        return `at ${s.at}`;
      },
      plainView: (s) => {
        calls.plain++;
        return Uint8Array.of(s.at);
      },
    };
    const plain = check(model, { symmetry: false });
    expect(plain.stats.distinctStates).toBe(4);
    expect(calls.plain).toBeGreaterThan(0);
    expect(calls.view).toBe(0);
    calls.plain = 0;
    const reduced = check(model, { symmetry: true });
    expect(reduced.stats.distinctStates).toBe(2);
    expect(calls.plain).toBe(0);
    expect(calls.view).toBeGreaterThan(0);
  });
});

describe('onViolation', () => {
  it('should report each violation as it is found, with its path and the figures then, while the search goes on', () => {
    // Die Hard: 4 gallons in the big jug is reached at depth 6; "never 8 in total" fails earlier.
    const properties = [
      always<Jugs>('never-4-in-big', 'the big jug never holds 4 gallons', (s) => s.big !== 4),
      always<Jugs>('never-8-in-total', 'the jugs never hold 8 gallons together', (s) => s.small + s.big !== 8),
    ];
    const seen: { property: string; last: Jugs; steps: number; distinct: number }[] = [];
    const result = check(waterJugs({ properties }), {
      onViolation: (v) => seen.push({ property: v.property, last: v.trace.states.at(-1) as Jugs, steps: v.trace.actions.length, distinct: v.stats.distinctStates }),
    });
    expect(seen.map((v) => v.property)).toEqual(['never-8-in-total', 'never-4-in-big']);
    expect(seen[0].last.small + seen[0].last.big).toBe(8);
    expect(seen[1].last.big).toBe(4);
    expect(seen[1].steps).toBe(6);
    // Found before the search ended: fewer states than the whole space, the first before the second.
    expect(seen[0].distinct).toBeLessThan(seen[1].distinct);
    expect(seen[1].distinct).toBeLessThanOrEqual(result.stats.distinctStates);
    expect(result.properties.map((p) => p.status)).toEqual(['violated', 'violated']);
  });
});
