/**
 * Property kinds on toy models: action properties (self-loops included), observers and
 * bounded response, reachability goals, and the checker's own deadlock check.
 */
import { describe, it, expect } from 'vitest';
import fc from 'fast-check';
import { always, alwaysStep, boundedResponse, check, explainViolation, observer, replayPath, sometimes, type CheckResult, type Property } from '../../checker/index.js';
import { counter, tickingCounter, type TickState } from '../toys/counter.js';

function outcome<S>(r: CheckResult<S>, id: string) {
  const o = r.properties.find((p) => p.id === id);
  if (o === undefined) throw new Error(`no outcome for ${id}`);
  return o;
}

describe('action properties', () => {
  it('should check self-loops: "every step moves x by one" fails on the first stay', () => {
    // From x = 0: inc (candidate 0) is fine, dec (1) is disabled, stay (2) loops on 0.
    const model = counter({ max: 3, stay: true, properties: [alwaysStep('moves-by-one', 'x changes by one', (b, _a, a) => Math.abs(a - b) === 1)] });
    const r = check(model);
    expect(r.verdict).toBe('violation');
    const t = outcome(r, 'moves-by-one').trace!;
    expect(t.path).toEqual({ initial: 0, steps: [2] });
    expect(t.actions).toEqual([{ name: 'stay' }]);
    expect(t.states).toEqual([0, 0]);
  });

  it('should check a self-loop out of a state already seen, with its before, label and after', () => {
    const seen: string[] = [];
    const prop = alwaysStep<number>('no-stay-at-3', 'no stay at x = 3', (b, a, after) => {
      seen.push(`${b}-${a.name}-${after}`);
      return !(a.name === 'stay' && b === 3);
    });
    const r = check(counter({ max: 5, stay: true, properties: [prop] }));
    const t = outcome(r, 'no-stay-at-3').trace!;
    expect(t.actions.map((a) => a.name)).toEqual(['inc', 'inc', 'inc', 'stay']);
    expect(t.states).toEqual([0, 1, 2, 3, 3]);
    expect(seen).toContain('3-stay-3');
    expect(seen).toContain('1-dec-0');
  });

  it('should hold when every step matches its label', () => {
    const prop = alwaysStep<number>('label-matches', 'inc adds one, dec takes one, stay keeps x', (b, a, after) =>
      a.name === 'inc' ? after === b + 1 : a.name === 'dec' ? after === b - 1 : after === b,
    );
    const r = check(counter({ max: 6, stay: true, properties: [prop] }));
    expect(r.verdict).toBe('ok');
    expect(outcome(r, 'label-matches').status).toBe('holds');
  });

  it('should find the shortest step violation: never 2 -> 3 takes three incs', () => {
    const prop = alwaysStep<number>('not-2-to-3', 'x never goes from 2 to 3', (b, _a, after) => !(b === 2 && after === 3));
    const r = check(counter({ max: 6, properties: [prop] }));
    expect(outcome(r, 'not-2-to-3').trace?.states).toEqual([0, 1, 2, 3]);
  });

  it('should check edges out of the last level allowed by maxDepth', () => {
    // Levels 1..3 hold x = 0, 1, 2; the edge 2 -> 3 leaves level 3 and is still checked.
    const prop = alwaysStep<number>('not-2-to-3', 'x never goes from 2 to 3', (b, _a, after) => !(b === 2 && after === 3));
    const r = check(counter({ max: 6, properties: [prop] }), { maxDepth: 3 });
    expect(r.verdict).toBe('violation');
    expect(outcome(r, 'not-2-to-3').trace?.states).toEqual([0, 1, 2, 3]);
  });
});

describe('observers', () => {
  /** Counts dec steps, saturating at 3, and fails at the third. */
  const fewDecs = observer<number, number>({
    id: 'few-decs',
    description: 'at most two dec steps',
    initial: () => 0,
    step: (n, _b, a) => Math.min(3, n + (a.name === 'dec' ? 1 : 0)),
    holds: (n) => n < 3,
  });

  it('should carry observer state in the fingerprint: the third dec needs six steps', () => {
    // Each dec needs x > 0, so it follows an inc: three decs need at least three incs. Were the
    // observer's count not fingerprinted, x = 0 after one inc/dec would be a seen state and the
    // violation would never be found.
    const r = check(counter({ max: 2, properties: [fewDecs] }));
    expect(r.verdict).toBe('violation');
    const names = outcome(r, 'few-decs').trace!.actions.map((a) => a.name);
    expect(names).toHaveLength(6);
    expect([...names].sort()).toEqual(['dec', 'dec', 'dec', 'inc', 'inc', 'inc']);
    expect(names.at(-1)).toBe('dec');
  });

  it('should count the product space of model and observer', () => {
    // x in 0..2 times a count in 0..2 once the violating count is excluded: every (x, n) with
    // n <= 2 is reachable, 9 states, before the third dec is found.
    const holdsAlways = observer<number, number>({
      id: 'dec-count',
      description: 'counts decs up to 2',
      initial: () => 0,
      step: (n, _b, a) => Math.min(2, n + (a.name === 'dec' ? 1 : 0)),
      holds: () => true,
    });
    const r = check(counter({ max: 2, properties: [holdsAlways] }));
    expect(r.verdict).toBe('ok');
    expect(r.stats.distinctStates).toBe(9);
  });

  it('should report an observer that fails in the initial state with an empty trace', () => {
    const bad = observer<number, boolean>({ id: 'never', description: 'fails at once', initial: () => false, step: (o) => o, holds: (o) => o });
    const t = outcome(check(counter({ max: 2, properties: [bad] })), 'never').trace!;
    expect(t.actions).toEqual([]);
    expect(t.states).toEqual([0]);
  });

  const response = (within: number): Property<TickState> =>
    boundedResponse<TickState>({
      id: 'reset-in-time',
      description: `x > 0 is followed by x == 0 within ${within} ticks`,
      trigger: (s) => s.x > 0,
      response: (s) => s.x === 0,
      elapsed: (_b, a) => (a.name === 'tick' ? 1 : 0),
      within,
    });

  it('should hold when time cannot pass beyond the bound (deadline 2, within 2)', () => {
    const r = check(tickingCounter({ max: 3, deadline: 2, properties: [response(2)] }));
    expect(r.verdict).toBe('ok');
    expect(outcome(r, 'reset-in-time').status).toBe('holds');
  });

  it('should be violated one tick past the bound (deadline 3, within 2): inc then three ticks', () => {
    // inc starts the clock at 0; ticks take it to 1, 2, 3 > 2. Nothing shorter: time passes
    // only on ticks and x must first leave 0.
    const model = tickingCounter({ max: 3, deadline: 3, properties: [response(2)] });
    const r = check(model);
    expect(r.verdict).toBe('violation');
    const t = outcome(r, 'reset-in-time').trace!;
    expect(t.actions.map((a) => a.name)).toEqual(['inc', 'tick', 'tick', 'tick']);
    expect(replayPath(model, t.path).states).toEqual(t.states);
  });

  it('should agree with a direct replay of the timer for any deadline and bound', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 6 }), fc.integer({ min: 0, max: 6 }), (deadline, within) => {
        const r = check(tickingCounter({ max: 2, deadline, properties: [response(within)] }));
        expect(r.verdict).toBe(deadline <= within ? 'ok' : 'violation');
        if (deadline > within) expect(outcome(r, 'reset-in-time').trace?.actions).toHaveLength(within + 2);
      }),
      { numRuns: 40 },
    );
  });

  it('should not count inc (no time) toward the bound', () => {
    // Incs pass no time: even with max 6, deadline 2 keeps within-2 satisfied.
    expect(check(tickingCounter({ max: 6, deadline: 2, properties: [response(2)] })).verdict).toBe('ok');
  });
});

describe('explain hooks', () => {
  const traceOf = <S>(model: Parameters<typeof check<S>>[0], id: string) => outcome(check(model), id).trace!;

  it('should explain an invariant from the last state of its counterexample', () => {
    const small = always<number>('small', 'x stays below 3', (x) => x < 3, { explain: (x) => `x is ${x}, not below 3` });
    const t = traceOf(counter({ max: 5, properties: [small] }), 'small');
    expect(explainViolation(small, t)).toBe(`x is ${t.states.at(-1)}, not below 3`);
  });

  it('should explain an action property from the last step: before, label and after', () => {
    const prop = alwaysStep<number>('not-2-to-3', 'x never goes from 2 to 3', (b, _a, after) => !(b === 2 && after === 3), {
      explain: (b, a, after) => `${a.name} takes x from ${b} to ${after}`,
    });
    expect(explainViolation(prop, traceOf(counter({ max: 6, properties: [prop] }), 'not-2-to-3'))).toBe('inc takes x from 2 to 3');
  });

  it('should explain an observer from its state replayed along the history, which it is given too', () => {
    const seen: unknown[] = [];
    const fewDecs = observer<number, number>({
      id: 'few-decs',
      description: 'at most two dec steps',
      initial: () => 0,
      step: (n, _b, a) => Math.min(3, n + (a.name === 'dec' ? 1 : 0)),
      holds: (n) => n < 3,
      explain: (n, h) => {
        seen.push(n);
        return `dec number ${n}, after ${h.actions.length} steps, leaves x at ${h.states.at(-1)}`;
      },
    });
    const t = traceOf(counter({ max: 2, properties: [fewDecs] }), 'few-decs');
    expect(explainViolation(fewDecs, t)).toBe(`dec number 3, after 6 steps, leaves x at ${t.states.at(-1)}`);
    expect(seen).toEqual([3]);
  });

  it('should pass a bounded response\'s explain the history', () => {
    const response = boundedResponse<TickState>({
      id: 'reset-in-time',
      description: 'x > 0 is followed by x == 0 within 2 ticks',
      trigger: (s) => s.x > 0,
      response: (s) => s.x === 0,
      elapsed: (_b, a) => (a.name === 'tick' ? 1 : 0),
      within: 2,
      explain: (h) => `x is ${h.states.at(-1)!.x} after ${h.actions.filter((a) => a.name === 'tick').length} ticks`,
    });
    const t = traceOf(tickingCounter({ max: 3, deadline: 3, properties: [response] }), 'reset-in-time');
    expect(explainViolation(response, t)).toBe('x is 1 after 3 ticks');
  });

  it('should say nothing without a hook, for a goal, or when the hook says nothing; and keep it to one line', () => {
    const plain = always<number>('small', 'x stays below 3', (x) => x < 3);
    const t = traceOf(counter({ max: 5, properties: [plain] }), 'small');
    expect(explainViolation(plain, t)).toBeUndefined();
    expect(explainViolation(sometimes<number>('three', 'x reaches 3', (x) => x === 3), t)).toBeUndefined();
    expect(explainViolation(always<number>('small', '', (x) => x < 3, { explain: () => undefined }), t)).toBeUndefined();
    expect(explainViolation(always<number>('small', '', (x) => x < 3, { explain: () => '  ' }), t)).toBeUndefined();
    expect(explainViolation(always<number>('small', '', (x) => x < 3, { explain: () => ' x is 3\n   too big ' }), t)).toBe('x is 3 too big');
    expect(explainViolation(alwaysStep<number>('step', '', () => false, { explain: () => 'a step' }), { states: [0], actions: [] })).toBeUndefined();
  });

  it('should report a hook that throws in the line, not as an exception', () => {
    const broken = always<number>('small', 'x stays below 3', (x) => x < 3, {
      explain: () => {
        throw new Error('no such node');
      },
    });
    const t = traceOf(counter({ max: 5, properties: [broken] }), 'small');
    expect(explainViolation(broken, t)).toBe('(the explain hook of small failed: no such node)');
  });

  it('should never be called by the search', () => {
    let calls = 0;
    const count = (): string => `call ${++calls}`;
    const r = check(counter({
      max: 4,
      stay: true,
      properties: [
        always<number>('small', 'x below 3', (x) => x < 3, { explain: count }),
        alwaysStep<number>('no-stay', 'no stay', (_b, a) => a.name !== 'stay', { explain: count }),
        observer<number, number>({ id: 'no-dec', description: 'no dec', initial: () => 0, step: (n, _b, a) => (a.name === 'dec' ? 1 : n), holds: (n) => n === 0, explain: count }),
      ],
    }));
    expect(r.properties.map((p) => p.status)).toEqual(['violated', 'violated', 'violated']);
    expect(calls).toBe(0);
  });
});

describe('reachability goals', () => {
  it('should witness a goal true in the initial state with an empty trace', () => {
    const r = check(counter({ max: 3, properties: [sometimes('zero', 'x can be 0', (x) => x === 0)] }));
    expect(r.verdict).toBe('ok');
    expect(outcome(r, 'zero').trace?.states).toEqual([0]);
  });

  it('should report an unreachable goal after a complete search as unwitnessed and a violation', () => {
    const r = check(counter({ max: 3, properties: [sometimes('four', 'x can be 4', (x) => x === 4)] }));
    expect(r.stoppedBy).toBeUndefined();
    expect(r.stats.distinctStates).toBe(4);
    expect(outcome(r, 'four').status).toBe('unwitnessed');
    expect(r.verdict).toBe('violation');
  });

  it('should not stop at a witnessed goal with stopAtFirstViolation (a witness is no violation)', () => {
    const props = [sometimes<number>('one', 'x can be 1', (x) => x === 1), always<number>('below-3', 'x < 3', (x) => x < 3)];
    const r = check(counter({ max: 5, properties: props }), { stopAtFirstViolation: true });
    expect(outcome(r, 'one').status).toBe('witnessed');
    expect(outcome(r, 'below-3').status).toBe('violated');
  });
});

describe('deadlock', () => {
  it('should report the deadlock of an up-only counter at max when checkDeadlock is on', () => {
    const r = check(counter({ max: 3, dec: false, checkDeadlock: true }));
    expect(r.verdict).toBe('violation');
    const d = outcome(r, 'deadlock');
    expect(d.kind).toBe('deadlock');
    expect(d.status).toBe('violated');
    expect(d.trace?.states).toEqual([0, 1, 2, 3]);
  });

  it('should ignore the deadlock when checkDeadlock is off or absent', () => {
    for (const checkDeadlock of [false, undefined]) {
      const r = check(counter({ max: 3, dec: false, ...(checkDeadlock === undefined ? {} : { checkDeadlock }) }));
      expect(r.verdict).toBe('ok');
      expect(r.properties.some((p) => p.id === 'deadlock')).toBe(false);
    }
  });

  it('should hold when every state has a step, self-loops included', () => {
    const withDec = check(counter({ max: 3, checkDeadlock: true }));
    expect(outcome(withDec, 'deadlock').status).toBe('holds');
    const withStay = check(counter({ max: 3, dec: false, stay: true, checkDeadlock: true }));
    expect(outcome(withStay, 'deadlock').status).toBe('holds');
  });

  it('should be selectable by id alone', () => {
    const model = counter({ max: 3, dec: false, checkDeadlock: true, properties: [always('small', 'x < 10', (x) => x < 10)] });
    const r = check(model, { properties: ['deadlock'] });
    expect(r.properties.map((p) => p.id)).toEqual(['deadlock']);
    expect(r.verdict).toBe('violation');
    expect(check(model, { properties: ['small'] }).verdict).toBe('ok');
  });
});
