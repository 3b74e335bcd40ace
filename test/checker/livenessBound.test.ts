/**
 * A liveness graph past its bound no longer throws away the search: `check` keeps the search's
 * outcomes and verdict, gives each liveness property `unknown` with the reason, and an `ok`
 * becomes `incomplete` (exit 3); a safety violation stays a violation (exit 1).
 */
import { describe, expect, it } from 'vitest';
import { action, always, alwaysEventually, check, KubecheckError, type Model } from '../../checker/index.js';
import { formatOutcome } from '../../reports/outcome.js';
import { outcomeJson } from '../../reports/json.js';

/** x counts 0 .. 9 and back to 0, fairly; `bad` is an invariant that fails at `bad`. */
const ring = (bad?: number): Model<number> => ({
  name: 'ring',
  initialStates: () => [0],
  actions: [action<number>({ name: 'inc', apply: (x) => (x + 1) % 10, fair: true })],
  properties: [always<number>('not-bad', 'x never reaches the bad value', (x) => x !== bad)],
});
const backToZero = alwaysEventually<number>('back-to-zero', 'x is 0 again and again', (x) => x === 0);
const info = { command: 'check' as const, scenario: 'ring' };

describe('liveness past its graph bound', () => {
  it('should keep the search\'s result and leave liveness unknown, the verdict incomplete', () => {
    const r = check(ring(), { liveness: [backToZero], livenessMaxStates: 5 });
    expect(r.searchVerdict).toBe('ok');
    expect(r.verdict).toBe('incomplete');
    expect(r.stats.distinctStates).toBe(10);
    expect(r.properties.map((p) => [p.id, p.status])).toEqual([['not-bad', 'holds'], ['back-to-zero', 'unknown']]);
    expect(r.properties[1].reason).toMatch(/more than 5 states/);
    const text = formatOutcome(ring(), r, info);
    expect(text).toContain('ok: every checked property holds on the whole state space; liveness not decided (exit 3, see below)');
    expect(text).toMatch(/\? back-to-zero {2}unknown/);
    const json = outcomeJson(ring(), r, info, []) as { verdict: string; exitCode: number; liveness: { status: string; reason: string }[] };
    expect([json.verdict, json.exitCode, json.liveness[0].status]).toEqual(['incomplete', 3, 'unknown']);
    expect(json.liveness[0].reason).toMatch(/not decided/);
    // Within the bound it is decided.
    expect(check(ring(), { liveness: [backToZero], livenessMaxStates: 10 }).verdict).toBe('ok');
  });

  it('should leave a safety violation the verdict', () => {
    const r = check(ring(4), { liveness: [backToZero], livenessMaxStates: 5 });
    expect(r.verdict).toBe('violation');
    expect(r.properties.map((p) => p.status)).toEqual(['violated', 'unknown']);
  });

  it('should refuse a bound that is not a positive integer', () => {
    expect(() => check(ring(), { liveness: [backToZero], livenessMaxStates: 0 })).toThrow(KubecheckError);
  });
});
