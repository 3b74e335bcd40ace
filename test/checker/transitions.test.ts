import { describe, expect, it } from 'vitest';
import { check, forEachTransition } from '../../checker/index.js';
import { counter } from '../toys/counter.js';
import { twoPhasePlain } from '../../examples/two-phase-commit/index.js';

describe('forEachTransition', () => {
  it('should visit every step out of every distinct state once: the generated count less the initial states', () => {
    const model = twoPhasePlain({ rms: 3 });
    const seen: string[] = [];
    const stats = forEachTransition(model, (_b, a) => seen.push(a.name));
    const full = check(model, { properties: [], symmetry: false });
    expect(stats.complete).toBe(true);
    expect(stats.distinctStates).toBe(288);
    expect(stats.transitions).toBe(full.stats.generatedStates - 1);
    expect(seen.length).toBe(1145);
    expect(stats.depth).toBe(full.stats.depth);
  });

  it('should give each step its own before and after states (the counter: inc raises by one, dec lowers)', () => {
    const steps: [number, string, number][] = [];
    forEachTransition(counter({ max: 3 }), (b, a, s) => steps.push([b, a.name, s]));
    expect(steps).toEqual([[0, 'inc', 1], [1, 'inc', 2], [1, 'dec', 0], [2, 'inc', 3], [2, 'dec', 1], [3, 'dec', 2]]);
  });

  it('should say when a bound stopped it', () => {
    const stats = forEachTransition(twoPhasePlain({ rms: 3 }), () => {}, { maxStates: 10 });
    expect(stats.complete).toBe(false);
    expect(stats.stoppedBy).toEqual({ bound: 'states', limit: 10 });
    expect(stats.distinctStates).toBe(10);
  });
});
