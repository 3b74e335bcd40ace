/**
 * Fairness per parameter value (`fairPer`), TLA+'s `\A p : WF_vars(A(p))`, against fairness of
 * the action as a whole, `WF_vars(\E p : A(p))`: with two processes as one action's parameter, the
 * whole action is taken whenever either process steps, so one process may starve; fair per
 * process, neither may. The Bakery-like lock of `stutteringSpecs.ts` written with one action for
 * both processes gives TLC's verdicts too.
 */
import { describe, expect, it } from 'vitest';
import { action, alwaysEventually, check, leadsTo, vectorAction, vectorModel, type Model, type VectorState } from '../../checker/index.js';
import { buildGraph, checkLiveness } from '../../checker/liveness.js';
import { stutteringMutex, type Mutex } from '../toys/stutteringSpecs.js';

interface Two {
  readonly bits: readonly [number, number];
  readonly last: 0 | 1;
}

const twoProcesses = (perProcess: boolean): Model<Two> => ({
  name: 'two-processes',
  initialStates: () => [{ bits: [0, 0], last: 0 }],
  actions: [
    action<Two, 0 | 1>({
      name: 'step',
      params: [0, 1],
      apply: (s, p) => ({ bits: p === 0 ? [1 - s.bits[0], s.bits[1]] : [s.bits[0], 1 - s.bits[1]], last: p }),
      fair: true,
      ...(perProcess ? { fairPer: (p: 0 | 1) => p } : {}),
    }),
  ],
  properties: [],
});
const secondRuns = alwaysEventually<Two>('second-runs', 'process 2 steps again and again', (s) => s.last === 1);

/** The lock with one action `proc` whose parameter is [process, choice], fair per process. */
function oneActionMutex(fairness: 'weak' | 'strong'): Model<Mutex> {
  const split = stutteringMutex(fairness);
  const byProcess = [split.actions[1], split.actions[2]];
  return {
    ...split,
    actions: [
      split.actions[0],
      action<Mutex, readonly [0 | 1, string | null]>({
        name: 'proc',
        params: (s) => ([0, 1] as const).flatMap((i) => ((byProcess[i].params as (s: Mutex) => readonly string[])(s)).map((c) => [i, c] as const)),
        enabled: (s, [i, c]) => byProcess[i].enabled!(s, c),
        apply: (s, [i, c]) => byProcess[i].apply(s, c),
        fair: fairness,
        fairPer: ([i]) => i,
      }),
    ],
  };
}

describe('fairness per parameter value', () => {
  it('should let a process starve under fairness of the whole action, and not under fairness per process', () => {
    const whole = checkLiveness(twoProcesses(false), [secondRuns])[0];
    expect(whole.status).toBe('violated');
    expect(whole.lasso!.actions.slice(whole.lasso!.loop).every((a) => a.param === 0)).toBe(true);
    expect(checkLiveness(twoProcesses(true), [secondRuns])[0].status).toBe('holds');
  });

  it('should name each instance a fair action of its own', () => {
    const g = buildGraph(twoProcesses(true));
    expect([...g.fairActions].sort()).toEqual(['step(0)', 'step(1)']);
    expect(buildGraph(twoProcesses(false)).fairActions).toEqual(['step']);
  });

  it('should give TLC\'s verdicts on the Bakery-like lock written as one action fair per process', () => {
    const deadlockFree = leadsTo<Mutex>('deadlock-free', 'a spinning process leads to one in cs', (s) => s.pc.includes('spin'), (s) => s.pc.includes('cs'));
    const starvationFree = leadsTo<Mutex>('starvation-free', 'process 1 spinning leads to process 1 in cs', (s) => s.pc[0] === 'spin', (s) => s.pc[0] === 'cs');
    expect(checkLiveness(oneActionMutex('weak'), [deadlockFree, starvationFree]).map((o) => o.status)).toEqual(['holds', 'violated']);
    expect(checkLiveness(oneActionMutex('strong'), [starvationFree])[0].status).toBe('holds');
  });

  it('should pass fairPer on from a state-vector action', () => {
    const vector = (perProcess: boolean) =>
      vectorModel({
        name: 'two-bits',
        slots: [{ name: 'a', size: 2 }, { name: 'b', size: 2 }, { name: 'last', size: 2 }],
        initial: [[0, 0, 0]],
        actions: [
          vectorAction<number>({
            name: 'step',
            params: [0, 1],
            apply: (v, next, p) => {
              next.set(p, 1 - v[p]);
              next.set(2, p);
            },
            fair: true,
            ...(perProcess ? { fairPer: (p: number) => p } : {}),
          }),
        ],
        properties: [],
      });
    const runs = alwaysEventually<VectorState>('second-runs', 'process 2 steps again and again', (v) => v[2] === 1);
    expect(check(vector(true), { liveness: [runs] }).verdict).toBe('ok');
    expect(check(vector(false), { liveness: [runs] }).verdict).toBe('violation');
  });
});
