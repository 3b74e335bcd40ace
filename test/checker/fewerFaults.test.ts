/**
 * Among shortest counterexamples the checker returns one with the fewest fault steps, whatever
 * order the actions are listed in.
 */
import { describe, expect, it } from 'vitest';
import { action, always, alwaysStep, check, observer, type ActionLabel, type Model } from '../../checker/index.js';
import { faultSteps, fewestFaults } from '../../checker/fewerFaults.js';

interface Counter {
  readonly x: number;
  readonly crashed: boolean;
}

/**
 * x counts up to 3. `glitch` (a fault) also adds one and is listed first, so plain BFS reaches
 * every x first through glitches; `crash` is a fault that changes nothing the properties read.
 */
function glitchy(options: { faultsFirst: boolean; describe: 'actor' | 'hook' }): Model<Counter> {
  const inc = action<Counter>({ name: 'inc', enabled: (s) => s.x < 3, apply: (s) => ({ ...s, x: s.x + 1 }) });
  const glitch = action<Counter>({ name: 'glitch', enabled: (s) => s.x < 3, apply: (s) => ({ ...s, x: s.x + 1 }) });
  const crash = action<Counter>({ name: 'crash', enabled: (s) => !s.crashed, apply: (s) => ({ ...s, crashed: true }) });
  const isFault = (a: ActionLabel): boolean => a.name !== 'inc';
  return {
    name: 'glitchy',
    initialStates: () => [{ x: 0, crashed: false }],
    actions: options.faultsFirst ? [crash, glitch, inc] : [inc, glitch, crash],
    properties: [
      always<Counter>('below-two', 'x stays below 2', (s) => s.x < 2),
      alwaysStep<Counter>('no-step-to-two', 'no step reaches x = 2', (_b, _a, after) => after.x !== 2),
      observer<Counter, number>({
        id: 'at-most-one-increment-seen',
        description: 'the observer counts increments; at most one',
        initial: () => 0,
        step: (n, before, _a, after) => n + (after.x > before.x ? 1 : 0),
        holds: (n) => n < 2,
      }),
    ],
    ...(options.describe === 'hook'
      ? { isFault: (_b: Counter, a: ActionLabel) => isFault(a) }
      : { describeStep: (_b: Counter, a: ActionLabel) => ({ actor: isFault(a) ? 'fault' : 'counter', summary: a.name }) }),
  };
}

describe('shortest counterexamples with the fewest faults', () => {
  for (const describeBy of ['actor', 'hook'] as const) {
    it(`should return a fault-free shortest trace when one exists (faults by ${describeBy})`, () => {
      const model = glitchy({ faultsFirst: true, describe: describeBy });
      const r = check(model);
      for (const id of ['below-two', 'no-step-to-two', 'at-most-one-increment-seen']) {
        const p = r.properties.find((q) => q.id === id)!;
        expect(p.status).toBe('violated');
        expect(p.trace!.actions.length).toBe(2);
        expect(p.trace!.actions.map((a) => a.name)).toEqual(['inc', 'inc']);
        expect(faultSteps(model, p.trace!)).toBe(0);
      }
    });
  }

  it('should keep the trace as found when no time is left for the second search', () => {
    // Plain BFS reaches x = 2 through glitches first (faults listed first); the second search
    // finds the fault-free one, unless the check's time limit leaves it none.
    const model = glitchy({ faultsFirst: true, describe: 'hook' });
    const plain = check({ ...model, isFault: () => false }, { properties: ['below-two'] }).properties[0].trace!;
    expect(faultSteps(model, plain)).toBe(2);
    const property = model.properties!.find((p) => p.id === 'below-two')!;
    expect(faultSteps(model, fewestFaults(model, property, plain, false))).toBe(0);
    expect(faultSteps(model, fewestFaults(model, property, plain, false, { timeLimitSeconds: 60 }))).toBe(0);
    expect(fewestFaults(model, property, plain, false, { timeLimitSeconds: 1e-9 })).toBe(plain);
  });

  it('should give the second search only what is left of the check\'s time limit', () => {
    // The search meets the violating state within microseconds; judging it takes 100 ms here,
    // which uses up the 50 ms limit: no time is left for the second search, and the trace keeps
    // the glitches BFS met first.
    const model = glitchy({ faultsFirst: true, describe: 'hook' });
    const slowJudge = (s: Counter): boolean => {
      if (s.x >= 2) for (const until = performance.now() + 100; performance.now() < until; );
      return s.x < 2;
    };
    const slow: Model<Counter> = { ...model, properties: [always<Counter>('below-two', 'x stays below 2', slowJudge)] };
    const r = check(slow, { properties: ['below-two'], timeLimitSeconds: 0.05 });
    const p = r.properties.find((q) => q.id === 'below-two')!;
    expect(p.status).toBe('violated');
    expect(faultSteps(model, p.trace!)).toBe(2);
    // Given the time, the same check finds the fault-free trace.
    expect(faultSteps(model, check(model, { properties: ['below-two'], timeLimitSeconds: 60 }).properties[0].trace!)).toBe(0);
  });

  it('should keep the same traces whatever the order of the actions', () => {
    const a = check(glitchy({ faultsFirst: true, describe: 'actor' }));
    const b = check(glitchy({ faultsFirst: false, describe: 'actor' }));
    expect(a.properties.map((p) => p.trace?.actions)).toEqual(b.properties.map((p) => p.trace?.actions));
  });

  it('should keep a fault that the violation needs', () => {
    const model: Model<Counter> = {
      ...glitchy({ faultsFirst: true, describe: 'hook' }),
      properties: [always<Counter>('no-crash-at-one', 'never crashed with x = 1', (s) => !(s.crashed && s.x === 1))],
    };
    const trace = check(model).properties[0].trace!;
    expect(trace.actions.length).toBe(2);
    expect(faultSteps(model, trace)).toBe(1);
    expect(trace.actions.map((a) => a.name).sort()).toEqual(['crash', 'inc']);
  });

  it('should leave depth-first traces and the counts as they are', () => {
    const plain = check({ ...glitchy({ faultsFirst: true, describe: 'hook' }), isFault: () => false });
    const preferring = check(glitchy({ faultsFirst: true, describe: 'hook' }));
    expect(preferring.stats.distinctStates).toBe(plain.stats.distinctStates);
    expect(preferring.stats.generatedStates).toBe(plain.stats.generatedStates);
    const dfs = check(glitchy({ faultsFirst: true, describe: 'hook' }), { strategy: 'dfs' });
    const dfsPlain = check({ ...glitchy({ faultsFirst: true, describe: 'hook' }), isFault: () => false }, { strategy: 'dfs' });
    expect(dfs.properties.map((p) => p.trace?.actions)).toEqual(dfsPlain.properties.map((p) => p.trace?.actions));
  });
});
