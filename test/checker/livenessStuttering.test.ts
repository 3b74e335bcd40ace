/**
 * Fairness is about steps that change the state (TLA+'s `<<A>>_vars`): a fair action is enabled
 * in a state only by a step that leaves it, and taken only by such a step. Each spec of
 * `test/toys/stutteringSpecs.ts` is checked against the verdict TLC gives it (derived there from
 * the TLA+ text); every lasso of a violation is replayed and checked to be a fair behaviour.
 */
import { describe, expect, it } from 'vitest';
import { successors, type Model } from '../../checker/index.js';
import { buildGraph, checkLiveness, eventually, eventuallyAlways, leadsTo } from '../../checker/liveness.js';
import type { Lasso } from '../../checker/result.js';
import { strongStutter, stutteringCounter, stutteringMutex, vacuousFairness, type Mutex } from '../toys/stutteringSpecs.js';

const key = (s: unknown): string => JSON.stringify(s);

/**
 * Whether `lasso` is a behaviour of `model` that satisfies its fairness: every step replays, the
 * last state is the loop's first, and on the cycle each weakly fair action is taken (by a step
 * that changes the state) or disabled somewhere, each strongly fair one taken or disabled all along.
 */
function fairLasso<S>(model: Model<S>, lasso: Lasso<S>): boolean {
  for (let i = 0; i < lasso.actions.length; i++) {
    const a = lasso.actions[i];
    const next = successors(model, lasso.states[i]).filter((x) => x.action.name === a.name && key(x.action.param) === key(a.param));
    if (!next.some((x) => key(x.state) === key(lasso.states[i + 1]))) return false;
  }
  if (key(lasso.states[lasso.states.length - 1]) !== key(lasso.states[lasso.loop])) return false;
  const cycle = lasso.states.slice(lasso.loop);
  const takes = (name: string): boolean =>
    lasso.actions.slice(lasso.loop).some((a, k) => a.name === name && key(lasso.states[lasso.loop + k]) !== key(lasso.states[lasso.loop + k + 1]));
  const enabled = (s: S, name: string): boolean => successors(model, s).some((x) => x.action.name === name && key(x.state) !== key(s));
  return model.actions.every((a) => {
    if (a.fair === undefined || a.fair === false) return true;
    if (takes(a.name)) return true;
    return a.fair === 'strong' ? cycle.every((s) => !enabled(s, a.name)) : cycle.some((s) => !enabled(s, a.name));
  });
}

describe('fairness counts only steps that change the state (TLC verdicts)', () => {
  const deadlockFree = leadsTo<Mutex>('deadlock-free', 'a spinning process leads to one in cs', (s) => s.pc.includes('spin'), (s) => s.pc.includes('cs'));
  const starvationFree = leadsTo<Mutex>('starvation-free', 'process 1 spinning leads to process 1 in cs', (s) => s.pc[0] === 'spin', (s) => s.pc[0] === 'cs');

  it('should prove the Bakery-like lock deadlock-free under weak fairness, as TLC does', () => {
    // The lock holder may stay in exit by a stuttering step, and the spinner busy-waits by one:
    // neither is a fair step taken, and the stay does not excuse the holder from releasing.
    const r = checkLiveness(stutteringMutex('weak'), [deadlockFree])[0];
    expect(r.status).toBe('holds');
    expect(r.lasso).toBeUndefined();
  });

  it('should find starvation under weak fairness and prove it absent under strong fairness, as TLC does', () => {
    const weak = checkLiveness(stutteringMutex('weak'), [starvationFree])[0];
    expect(weak.status).toBe('violated');
    expect(fairLasso(stutteringMutex('weak'), weak.lasso!)).toBe(true);
    // Process 2 goes round while process 1 spins; process 1 never enters.
    expect(weak.lasso!.states.slice(weak.lasso!.loop).every((s) => s.pc[0] === 'spin')).toBe(true);
    expect(weak.lasso!.actions.slice(weak.lasso!.loop).map((a) => a.name)).toContain('proc-2');
    expect(checkLiveness(stutteringMutex('strong'), [starvationFree])[0].status).toBe('holds');
  });

  it('should make a fair action that may stutter take a step that changes the state', () => {
    expect(checkLiveness(stutteringCounter(), [eventually<number>('reach-2', 'x reaches 2', (x) => x === 2)])[0].status).toBe('holds');
  });

  it('should let weak fairness of an action whose every step stutters force nothing, and stutter in the lasso', () => {
    type S = { readonly x: number; readonly polls: number };
    const done = eventually<S>('done', 'x becomes 1', (s) => s.x === 1);
    const r = checkLiveness(vacuousFairness(false), [done])[0];
    expect(r.status).toBe('violated');
    // TLC's counterexample: the initial state, then stuttering.
    expect(r.lasso).toEqual({ states: [{ x: 0, polls: 0 }], actions: [], loop: 0 });
    expect(checkLiveness(vacuousFairness(true), [done])[0].status).toBe('holds');
  });

  it('should force a strongly fair action enabled again and again by steps that change the state, whatever its stuttering steps', () => {
    type S = { readonly x: number; readonly y: boolean };
    const setY = eventually<S>('y', 'y becomes true', (s) => s.y);
    const weak = checkLiveness(strongStutter('weak'), [setY])[0];
    expect(weak.status).toBe('violated');
    expect(fairLasso(strongStutter('weak'), weak.lasso!)).toBe(true);
    expect(weak.lasso!.actions.slice(weak.lasso!.loop).map((a) => a.name)).toEqual(['flip', 'flip']);
    expect(checkLiveness(strongStutter('strong'), [setY])[0].status).toBe('holds');
  });

  it('should mark a step stuttering when it is stored as the state it left, and enable its action only by the others', () => {
    const g = buildGraph(stutteringCounter());
    const zero = g.states.indexOf(0);
    expect(g.edges[zero].map((e) => [g.states[e.to], e.fair])).toEqual([[0, undefined], [1, 'inc']]);
    expect([...g.fairEnabled[zero]]).toEqual(['inc']);
    expect([...g.fairEnabled[g.states.indexOf(2)]]).toEqual([]);
  });
});

describe('eventually always (TLA+ <>[]P)', () => {
  // VARIABLE x; Init == x = 0; Set == x = 0 /\ x' = 1; Flip == x' = 1 - x
  const setOnce = (fair: boolean): Model<number> => ({ name: 'set-once', initialStates: () => [0], actions: [{ name: 'set', enabled: (x: number) => x === 0, apply: () => 1, fair }], properties: [] });
  const flipping: Model<number> = { name: 'flipping', initialStates: () => [0], actions: [{ name: 'flip', apply: (x: number) => 1 - x, fair: true }], properties: [] };
  const settled = eventuallyAlways<number>('settles-at-1', 'x is 1 from some point on', (x) => x === 1);

  it('should hold when a fair step leads to P for good, and fail by stuttering without fairness (TLC: <>[](x = 1) under WF_x(Set), violated under [][Set]_x alone)', () => {
    expect(checkLiveness(setOnce(true), [settled])[0].status).toBe('holds');
    const r = checkLiveness(setOnce(false), [settled])[0];
    expect(r.status).toBe('violated');
    expect(r.lasso).toEqual({ states: [0], actions: [], loop: 0 });
  });

  it('should fail when a fair cycle meets not-P again and again (TLC: <>[](x = 1) violated under WF_x(Flip))', () => {
    const r = checkLiveness(flipping, [settled])[0];
    expect(r.status).toBe('violated');
    expect(fairLasso(flipping, r.lasso!)).toBe(true);
    expect(r.lasso!.states.slice(r.lasso!.loop)).toContain(0);
  });
});
