/**
 * Liveness under weak fairness, on the pitfalls other checkers document: stuttering, joins in a
 * DAG (Stateright's `eventually` bug), a fair action disabled on the cycle, an unfair scheduler
 * starving a process; lassos that replay; symmetry refused; Tarjan's components against an
 * independent transitive-closure computation on random graphs.
 */
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { action, KubecheckError, successors, type Model } from '../../checker/index.js';
import { alwaysEventually, buildGraph, checkLiveness, components, eventually, leadsTo } from '../../checker/liveness.js';
import type { Lasso } from '../../checker/result.js';

/** Replays a lasso: each action leads from one state to the next, and the last state is `states[loop]`. */
function replays<S>(model: Model<S>, lasso: Lasso<S>): boolean {
  const key = (s: S): string => JSON.stringify(s);
  for (let i = 0; i < lasso.actions.length; i++) {
    const a = lasso.actions[i];
    const next = successors(model, lasso.states[i]).find((x) => x.action.name === a.name && JSON.stringify(x.action.param) === JSON.stringify(a.param));
    if (next === undefined || key(next.state) !== key(lasso.states[i + 1])) return false;
  }
  return key(lasso.states[lasso.states.length - 1]) === key(lasso.states[lasso.loop]);
}

/** x counts 0, 1, 2, 0, ... */
const counter = (fair: boolean): Model<number> => ({
  name: 'counter',
  initialStates: () => [0],
  actions: [action<number>({ name: 'inc', apply: (x) => (x + 1) % 3, fair })],
  properties: [],
});

describe('liveness under weak fairness', () => {
  it('should need fairness against stuttering: x = 0 again and again', () => {
    const gf = alwaysEventually<number>('back-to-zero', 'x is 0 infinitely often', (x) => x === 0);
    expect(checkLiveness(counter(true), [gf])[0].status).toBe('holds');
    const unfair = checkLiveness(counter(false), [gf])[0];
    expect(unfair.status).toBe('violated');
    // The shortest lasso: inc once, then stutter at x = 1 forever.
    expect(unfair.lasso).toEqual({ states: [0, 1], actions: [{ name: 'inc' }], loop: 1 });
    expect(replays(counter(false), unfair.lasso!)).toBe(true);
  });

  it('should judge each branch of a DAG that joins again (Stateright eventually pitfall)', () => {
    // a -> b -> d and a -> c -> d; d has no step. Q holds at b only: a -> c -> d never reaches it.
    const next: Record<string, string[]> = { a: ['b', 'c'], b: ['d'], c: ['d'], d: [] };
    const dag: Model<string> = {
      name: 'dag',
      initialStates: () => ['a'],
      actions: [action<string, string>({ name: 'go', params: (s) => next[s], apply: (_s, t) => t, fair: true })],
      properties: [],
    };
    const atB = checkLiveness(dag, [eventually<string>('reach-b', 'b is reached', (s) => s === 'b')])[0];
    expect(atB.status).toBe('violated');
    expect(atB.lasso!.states).toEqual(['a', 'c', 'd']);
    expect(atB.lasso!.loop).toBe(2);
    // Every branch reaches d: holds under fairness, and fails without it (stutter at a).
    expect(checkLiveness(dag, [eventually<string>('reach-d', 'd is reached', (s) => s === 'd')])[0].status).toBe('holds');
    const unfair = { ...dag, actions: [action<string, string>({ name: 'go', params: (s) => next[s], apply: (_s, t) => t })] };
    expect(checkLiveness(unfair, [eventually<string>('reach-d', 'd is reached', (s) => s === 'd')])[0].status).toBe('violated');
  });

  interface Two {
    readonly a: number;
    readonly b: number;
    readonly last: 1 | 2;
  }
  const scheduler = (fair2: boolean, p2Needs?: number): Model<Two> => ({
    name: 'two-processes',
    initialStates: () => [{ a: 0, b: 0, last: 1 }],
    actions: [
      action<Two>({ name: 'step-1', apply: (s) => ({ ...s, a: 1 - s.a, last: 1 }), fair: true }),
      action<Two>({ name: 'step-2', enabled: (s) => p2Needs === undefined || s.a === p2Needs, apply: (s) => ({ ...s, b: 1 - s.b, last: 2 }), fair: fair2 }),
    ],
    properties: [],
  });
  const p2Runs = alwaysEventually<Two>('p2-runs', 'process 2 steps again and again', (s) => s.last === 2);

  it('should find an unfair scheduler starving a process, and keep it with weak fairness', () => {
    const starved = checkLiveness(scheduler(false), [p2Runs])[0];
    expect(starved.status).toBe('violated');
    expect(replays(scheduler(false), starved.lasso!)).toBe(true);
    expect(checkLiveness(scheduler(true), [p2Runs])[0].status).toBe('holds');
  });

  it('should not force a weakly fair action that the cycle disables', () => {
    // step-2 is enabled only while a = 0; step-1 toggles a, so a cycle of step-1 alone disables it.
    const r = checkLiveness(scheduler(true, 0), [p2Runs])[0];
    expect(r.status).toBe('violated');
    const cycle = r.lasso!.actions.slice(r.lasso!.loop).map((a) => a.name);
    expect(cycle.length).toBeGreaterThan(0);
    expect(cycle.every((n) => n === 'step-1')).toBe(true);
    expect(replays(scheduler(true, 0), r.lasso!)).toBe(true);
  });

  it('should force a strongly fair action enabled again and again, even though the cycle disables it', () => {
    const strong: Model<Two> = { ...scheduler(true, 0), actions: scheduler(true, 0).actions.map((a) => (a.name === 'step-2' ? { ...a, fair: 'strong' as const } : a)) };
    expect(checkLiveness(strong, [p2Runs])[0].status).toBe('holds');
    // Enabled only in states the behaviour can leave for good, it forces nothing there.
    const once: Model<Two> = {
      ...strong,
      actions: [
        action<Two>({ name: 'step-1', enabled: (s) => s.a === 0, apply: (s) => ({ ...s, a: 1, last: 1 }), fair: true }),
        action<Two>({ name: 'spin', enabled: (s) => s.a === 1, apply: (s) => ({ ...s, last: 1 }), fair: true }),
        action<Two>({ name: 'step-2', enabled: (s) => s.a === 0, apply: (s) => ({ ...s, b: 1 - s.b, last: 2 }), fair: 'strong' }),
      ],
    };
    const r = checkLiveness(once, [p2Runs])[0];
    expect(r.status).toBe('violated');
    expect(replays(once, r.lasso!)).toBe(true);
    expect(r.lasso!.actions.slice(r.lasso!.loop).every((a) => a.name === 'spin')).toBe(true);
  });

  it('should check P leads-to Q from every reachable P state', () => {
    // A request is granted under fairness; without it, the grant can wait forever.
    interface Rq { readonly req: boolean; readonly granted: boolean }
    const model = (fair: boolean): Model<Rq> => ({
      name: 'request-grant',
      initialStates: () => [{ req: false, granted: false }],
      actions: [
        action<Rq>({ name: 'request', enabled: (s) => !s.req, apply: () => ({ req: true, granted: false }) }),
        action<Rq>({ name: 'grant', enabled: (s) => s.req && !s.granted, apply: () => ({ req: true, granted: true }), fair }),
        action<Rq>({ name: 'reset', enabled: (s) => s.granted, apply: () => ({ req: false, granted: false }) }),
      ],
      properties: [],
    });
    const prop = leadsTo<Rq>('granted', 'a request is granted', (s) => s.req, (s) => s.granted);
    expect(checkLiveness(model(true), [prop])[0].status).toBe('holds');
    const r = checkLiveness(model(false), [prop])[0];
    expect(r.status).toBe('violated');
    expect(r.lasso!.states[r.lasso!.loop]).toEqual({ req: true, granted: false });
    // Whether its premise was ever reached: a leads-to whose trigger never holds holds vacuously.
    expect(checkLiveness(model(true), [prop])[0].premiseReached).toBe(true);
    const never = leadsTo<Rq>('never-asked', 'a request granted and pending at once is granted', (s) => s.req && s.granted && !s.req, (s) => s.granted);
    expect(checkLiveness(model(false), [never])[0]).toMatchObject({ status: 'holds', premiseReached: false });
    expect(checkLiveness(model(false), [eventually<Rq>('e', 'granted', (s) => s.granted)])[0].premiseReached).toBeUndefined();
  });

  it('should refuse symmetry (liveness on a quotient graph is unsound, tlaplus#59)', () => {
    expect(() => checkLiveness(counter(true), [], { symmetry: true })).toThrow(KubecheckError);
    expect(() => checkLiveness(counter(true), [], { symmetry: true })).toThrow(/KC009/);
  });
});

describe('components against an independent transitive closure', () => {
  it('should partition random graphs into the same strongly connected components', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 12 }).chain((n) => fc.array(fc.array(fc.nat({ max: n - 1 }), { maxLength: 3 }), { minLength: n, maxLength: n })),
        fc.array(fc.boolean(), { minLength: 12, maxLength: 12 }),
        (edges, mask) => {
          const n = edges.length;
          const model: Model<number> = {
            name: 'g',
            initialStates: () => Array.from({ length: n }, (_, i) => i),
            actions: [action<number, number>({ name: 'go', params: (s) => edges[s], apply: (_s, t) => t })],
            properties: [],
          };
          const g = buildGraph(model);
          const inside = (i: number): boolean => mask[g.states[i]] !== false;
          const ours = components(g, inside).map((c) => c.map((i) => g.states[i]).sort((a, b) => a - b).join(',')).sort();
          // Reachability within `inside` by Warshall's closure; a component is the set of mutually reachable states.
          const reach = Array.from({ length: n }, (_, i) => Array.from({ length: n }, (_, j) => i === j));
          for (let i = 0; i < n; i++) if (mask[i] !== false) for (const j of edges[i]) if (mask[j] !== false) reach[i][j] = true;
          for (let k = 0; k < n; k++) for (let i = 0; i < n; i++) for (let j = 0; j < n; j++) if (reach[i][k] && reach[k][j]) reach[i][j] = true;
          const theirs = new Set<string>();
          for (let i = 0; i < n; i++) {
            if (mask[i] === false) continue;
            theirs.add(Array.from({ length: n }, (_, j) => j).filter((j) => mask[j] !== false && reach[i][j] && reach[j][i]).join(','));
          }
          expect(ours).toEqual([...theirs].sort());
        },
      ),
      { seed: 4242, numRuns: 200 },
    );
  });
});
