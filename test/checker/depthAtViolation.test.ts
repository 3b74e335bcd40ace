/**
 * Depth as TLC reports it: the level of the deepest state stored, the initial one being level 1.
 * Stopped at a first violation, that is the violating state's level (TLC: depth 12 on
 * MissionariesAndCannibals, whose solution is 11 moves), on every search that can stop there.
 */
import { describe, expect, it } from 'vitest';
import { check, vectorAction, vectorModel, always } from '../../checker/index.js';
import { missionariesAndCannibals } from '../toys/missionariesAndCannibals.js';
import { counter } from '../toys/counter.js';

describe('depth at a first violation', () => {
  it('should report the violating state\'s level on MissionariesAndCannibals, as TLC (12)', () => {
    const r = check(missionariesAndCannibals(), { stopAtFirstViolation: true });
    expect(r.verdict).toBe('violation');
    const trace = r.properties.find((p) => p.id === 'solution')!.trace!;
    expect(trace.states).toHaveLength(12);
    expect(trace.states[11].east).toEqual([]);
    expect(r.stats.depth).toBe(12);
  });

  it('should report the violating state\'s level depth-first too, and levels of the whole space when not stopped', () => {
    const dfs = check(missionariesAndCannibals(), { stopAtFirstViolation: true, strategy: 'dfs' });
    // Depth-first, the deepest level reached, the violating state's among them.
    expect(dfs.stats.depth).toBeGreaterThanOrEqual(dfs.properties[0].trace!.states.length);
    // Not stopped, the search counts every level: 12 (the solution is on the last), as bounding
    // the levels tells independently.
    const whole = check(missionariesAndCannibals());
    expect(whole.stats.depth).toBe(12);
    expect(check(missionariesAndCannibals(), { maxDepth: whole.stats.depth }).stoppedBy).toBeUndefined();
    expect(check(missionariesAndCannibals(), { maxDepth: whole.stats.depth - 1 }).stoppedBy).toEqual({ bound: 'depth', limit: whole.stats.depth - 1 });
  });

  it('should count a level reached in the middle on the generic and the state-vector search alike', () => {
    // x counts up from 0; the invariant x < 3 fails at x = 3, the state on level 4.
    const generic = check(counter({ max: 6, properties: [always<number>('small', 'x < 3', (x) => x < 3)] }), { stopAtFirstViolation: true });
    expect(generic.stats.depth).toBe(4);
    const vector = vectorModel({
      name: 'vector-counter',
      slots: [{ name: 'x', size: 7 }],
      initial: [[0]],
      actions: [vectorAction({ name: 'inc', enabled: (v) => v[0] < 6, apply: (v, next) => next.set(0, v[0] + 1) })],
      properties: [always('small', 'x < 3', (v) => v[0] < 3)],
    });
    const r = check(vector, { stopAtFirstViolation: true });
    expect(r.stats.engine).toBe('state-vector');
    expect(r.stats.depth).toBe(4);
  });
});
