/** Misuse fails at once with a stable code and a one-line sentence; never a stack of nonsense. */
import { describe, it, expect } from 'vitest';
import fc from 'fast-check';
import { action, always, check, KubecheckError, replayPath, sometimes, type CheckOptions, type Model, type Property } from '../../checker/index.js';
import { counter } from '../toys/counter.js';

/** Runs `f` and returns the `KubecheckError` it must throw. */
function thrown(f: () => unknown): KubecheckError {
  try {
    f();
  } catch (e) {
    expect(e).toBeInstanceOf(KubecheckError);
    return e as KubecheckError;
  }
  throw new Error('expected a KubecheckError, nothing was thrown');
}

function expectError(f: () => unknown, code: string, pattern?: RegExp): KubecheckError {
  const e = thrown(f);
  expect(e.code).toBe(code);
  expect(e.message.startsWith(`${code}: `)).toBe(true);
  expect(e.message).not.toMatch(/[\r\n]/);
  if (pattern) expect(e.message).toMatch(pattern);
  return e;
}

const ok = always<number>('non-negative', 'x >= 0', (x) => x >= 0);

describe('bad models', () => {
  it('should refuse duplicate property ids (KC001)', () => {
    const model = counter({ max: 2, properties: [ok, sometimes('non-negative', 'again', () => true)] });
    expectError(() => check(model), 'KC001', /"non-negative"/);
  });

  it('should refuse a property named like the checker\'s own deadlock check (KC001)', () => {
    expectError(() => check(counter({ max: 2, properties: [always('deadlock', 'mine', () => true)] })), 'KC001', /deadlock/);
  });

  it('should refuse a model without initial states (KC002)', () => {
    const model: Model<number> = { ...counter({ max: 2 }), initialStates: () => [] };
    expectError(() => check(model), 'KC002', /initial state/);
    expectError(() => check(model, { strategy: 'dfs' }), 'KC002');
  });

  it('should refuse non-kebab property ids (KC005)', () => {
    for (const id of ['Consistent', 'single_leader', 'two  words', '-lead', 'trail-', 'a--b', '', '1st']) {
      expectError(() => check(counter({ max: 2, properties: [always(id, 'bad id', () => true)] })), 'KC005', /kebab/);
    }
    // and accepts kebab ones
    expect(check(counter({ max: 2, properties: [always('single-leader-2', 'ok', () => true)] })).verdict).toBe('ok');
  });

  // Regression, fixed in cff7042 (checker/validateModel.ts, selectProperties interpolated the id
  // raw into the message): an id containing a newline, e.g. "bad\nid", gives a two-line KC005 message, breaking
  // the one-line promise of errors.ts. JSON.stringify(id) would keep it on one line.
  it('should keep the KC005 message on one line for an id with a newline', () => {
    expectError(() => check(counter({ max: 2, properties: [always('bad\nid', 'bad id', () => true)] })), 'KC005');
  });

  it('should refuse duplicate action names (KC007)', () => {
    const m = counter({ max: 2 });
    const model: Model<number> = { ...m, actions: [...m.actions, action<number>({ name: 'inc', apply: (x) => x })] };
    expectError(() => check(model), 'KC007', /"inc"/);
  });
});

describe('bad options', () => {
  const model = counter({ max: 3, properties: [ok] });
  const bad: [keyof CheckOptions, unknown][] = [
    ['maxDepth', -1],
    ['maxDepth', 0],
    ['maxDepth', NaN],
    ['maxDepth', 2.5],
    ['maxDepth', '5'],
    ['maxDepth', Infinity],
    ['maxStates', -3],
    ['maxStates', NaN],
    ['maxStates', 1.5],
    ['maxStates', '100'],
    ['timeLimitSeconds', -1],
    ['timeLimitSeconds', NaN],
    ['timeLimitSeconds', 'soon'],
    ['maxMemoryMB', 0],
    ['progressIntervalMs', -5],
  ];
  for (const [name, value] of bad) {
    it(`should refuse ${name} = ${typeof value === 'string' ? JSON.stringify(value) : String(value)} (KC003)`, () => {
      expectError(() => check(model, { [name]: value } as CheckOptions), 'KC003', new RegExp(name));
    });
  }

  it('should accept a non-integer time limit', () => {
    expect(check(model, { timeLimitSeconds: 2.5 }).verdict).toBe('ok');
  });

  it('should refuse an unknown strategy (KC003)', () => {
    expectError(() => check(model, { strategy: 'random' as 'bfs' }), 'KC003', /strategy/);
  });

  it('should refuse any non-positive-integer count bound', () => {
    fc.assert(
      fc.property(
        fc.oneof(fc.integer({ max: 0 }), fc.double().filter((d) => !Number.isInteger(d) || d <= 0), fc.string(), fc.constant(null)),
        (value) => {
          expectError(() => check(model, { maxStates: value as number }), 'KC003', /maxStates/);
        },
      ),
      { numRuns: 100 },
    );
  });

  // Regression, fixed in cff7042 (checker/options.ts, checkBound: `JSON.stringify(value) ?? String(value)`):
  // JSON.stringify(NaN) and JSON.stringify(Infinity) are "null", not undefined, so the message
  // says "maxDepth must be a positive integer, got null" for NaN, naming a value nobody passed.
  it('should name NaN and Infinity in the KC003 message', () => {
    expectError(() => check(model, { maxDepth: NaN }), 'KC003', /NaN/);
    expectError(() => check(model, { maxDepth: Infinity }), 'KC003', /Infinity/);
  });

  it('should refuse an unknown property id and list the known ones (KC004)', () => {
    const m = counter({ max: 3, properties: [ok, sometimes('three', 'x can be 3', (x) => x === 3)] });
    const e = expectError(() => check(m, { properties: ['non-negative', 'single-leader'] }), 'KC004', /"single-leader"/);
    expect(e.message).toMatch(/non-negative/);
    expect(e.message).toMatch(/three/);
  });

  it('should refuse deadlock as a property id when the model does not check deadlock (KC004)', () => {
    expectError(() => check(counter({ max: 3, properties: [ok] }), { properties: ['deadlock'] }), 'KC004', /deadlock/);
  });

  it('should check the options before the model runs', () => {
    let calls = 0;
    const m: Model<number> = { ...counter({ max: 3 }), initialStates: () => (calls++, [0]) };
    expectError(() => check(m, { maxDepth: -1 }), 'KC003');
    expect(calls).toBe(0);
  });
});

describe('paths that do not replay', () => {
  const model = counter({ max: 2, properties: [] as Property<number>[] });

  it('should refuse a missing initial state (KC006)', () => {
    expectError(() => replayPath(model, { initial: 1, steps: [] }), 'KC006', /initial state 1/);
  });

  it('should name the first step that is not enabled (KC006)', () => {
    // From 0: inc (candidate 0) to 1, inc to 2, then inc is disabled at max.
    expect(replayPath(model, { initial: 0, steps: [0, 0] }).states).toEqual([0, 1, 2]);
    expectError(() => replayPath(model, { initial: 0, steps: [0, 0, 0] }), 'KC006', /step 3/);
    expectError(() => replayPath(model, { initial: 0, steps: [1] }), 'KC006', /step 1/);
  });
});
