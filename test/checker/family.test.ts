/**
 * Sizing a parameterised family of models: a family whose counts are known in closed form
 * (n bits that flip, times a counter 0..m: 2^n × (m + 1) states), measured by bounded searches.
 */
import { describe, expect, it } from 'vitest';
import { action, boundsUnder, check, estimateStates, fail, measureFamily, type Assignment, type Model } from '../../checker/index.js';

interface BitsState {
  readonly bits: number;
  readonly x: number;
}

function bits(n: number, m: number): Model<BitsState> {
  return {
    name: `bits(${n}, ${m})`,
    initialStates: () => [{ bits: 0, x: 0 }],
    actions: [
      action<BitsState, number>({ name: 'flip', params: () => Array.from({ length: n }, (_, i) => i), apply: (s, i) => ({ ...s, bits: s.bits ^ (1 << i) }) }),
      action<BitsState>({ name: 'inc', enabled: (s) => s.x < m, apply: (s) => ({ ...s, x: s.x + 1 }) }),
    ],
    properties: [],
  };
}

const build = (v: Assignment): Model<unknown> => {
  if (v.n > 16) fail('KC999', `n (${v.n}) must be at most 16`);
  return bits(v.n, v.m) as Model<unknown>;
};

describe('measureFamily', () => {
  it('should measure a family that fits as it is, and each parameter one less and one more', async () => {
    const size = await measureFamily([{ key: 'm', target: 2, floor: 0 }, { key: 'n', target: 3, floor: 0 }], { build, maxStates: 10_000, timeLimitSeconds: 60 });
    expect(size.target).toMatchObject({ distinctStates: 8 * 3, finished: true });
    expect(size.base).toBe(size.target);
    // The bits multiply (×2 per bit), the counter adds (4/3 from 2 to 3).
    expect(size.parameters.map((p) => [p.key, p.points.map((m) => m.distinctStates), p.factor])).toEqual([
      ['n', [4 * 3, 8 * 3, 16 * 3], 2],
      ['m', [8 * 2, 8 * 3, 8 * 4], 4 / 3],
    ]);
    expect(estimateStates(size)).toEqual({ distinctStates: 24, exact: true, atLeast: false });
    // The counts are check's at the same values.
    expect(size.parameters[0].points[2].distinctStates).toBe(check(bits(4, 2)).stats.distinctStates);
  });

  it('should measure a family too large for its bound around smaller values, estimate it and find values that fit', async () => {
    const size = await measureFamily([{ key: 'n', target: 12, floor: 0 }, { key: 'm', target: 3, floor: 0 }], { build, maxStates: 1_000, timeLimitSeconds: 60 });
    expect(size.target).toMatchObject({ distinctStates: 1_000, finished: false, stoppedBy: { bound: 'states', limit: 1_000 } });
    expect(size.base).toMatchObject({ values: { n: 1, m: 1 }, distinctStates: 4, finished: true });
    expect(size.parameters.map((p) => [p.key, p.factor, p.downFactor])).toEqual([['n', 2, 2], ['m', 1.5, 2]]);
    // 4 × 2^11 × 1.5^2: the counter's growth is not a factor, so an order of magnitude (16,384 really).
    expect(estimateStates(size)).toEqual({ distinctStates: 18_432, exact: false, atLeast: false });
    // The bits go first: four of them with the counter as it is fit 100 states (64 really).
    const fit = boundsUnder(size, 100)!;
    expect(fit.values).toEqual({ n: 4, m: 3 });
    expect(fit.estimate.distinctStates).toBe(72);
    expect(check(bits(4, 3)).stats.distinctStates).toBeLessThanOrEqual(100);
  });

  it('should take as base the largest check one lower that finishes, and mark a bound growth and refused values', async () => {
    // n = 9, m = 1 (1,024 states) does not fit 600; one lower, n = 8 (512) does, and so does m = 0.
    const size = await measureFamily([{ key: 'n', target: 16, floor: 8 }, { key: 'm', target: 1, floor: 0 }], { build, maxStates: 600, timeLimitSeconds: 60 });
    expect(size.base).toMatchObject({ values: { n: 8, m: 1 }, distinctStates: 512, finished: true });
    const n = size.parameters.find((p) => p.key === 'n')!;
    // n = 9 stopped at the bound: its growth is at least what the bound let through.
    expect(n).toMatchObject({ factorAtLeast: true });
    expect(n.factor).toBeGreaterThan(1);
    expect(n.factor).toBeLessThan(2);
    expect(estimateStates(size).atLeast).toBe(true);
    const upTo5 = (v: Assignment): Model<unknown> => (v.n > 5 ? fail('KC999', `n (${v.n}) must be at most 5`) : build(v));
    const refused = await measureFamily([{ key: 'n', target: 5, floor: 0 }, { key: 'm', target: 0, floor: 0 }], { build: upTo5, maxStates: 100, timeLimitSeconds: 60 });
    expect(refused.parameters.find((p) => p.key === 'n')!.points.find((m) => m.values.n === 6)?.refused).toMatch(/n \(6\) must be at most 5/);
  });
});
