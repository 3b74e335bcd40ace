/**
 * The public types a user writes models with, without casts: models over different state types in
 * one list (`Model<unknown>[]`), and an action with a tuple parameter described by its own
 * `describe`, the parameter typed as declared. This file type-checks only if both hold (the
 * suite runs `tsc --noEmit`); the tests check that what the types allow also works.
 */
import { describe, expect, it } from 'vitest';
import { action, always, check, describeStepOf, type Model } from '../../checker/index.js';
import { formatTimeline } from '../../reports/timeline.js';

const counter: Model<number> = {
  name: 'counter',
  initialStates: () => [0],
  actions: [action<number, number>({ name: 'add', params: (x) => (x < 3 ? [1, 2] : []), apply: (x, n) => x + n })],
  properties: [always<number>('small', 'x stays below 4', (x) => x < 4)],
};
const word: Model<string> = {
  name: 'word',
  initialStates: () => [''],
  actions: [action<string>({ name: 'grow', enabled: (w) => w.length < 2, apply: (w) => `${w}a` })],
  properties: [],
};

type Transfer = readonly [from: 'alice' | 'bob', amount: number];
interface Accounts {
  readonly alice: number;
  readonly bob: number;
}
const bank: Model<Accounts> = {
  name: 'bank',
  initialStates: () => [{ alice: 2, bob: 0 }],
  actions: [
    action<Accounts, Transfer>({
      name: 'transfer',
      params: [['alice', 1], ['bob', 1]],
      enabled: (s, [from, amount]) => s[from] >= amount,
      apply: (s, [from, amount]) => (from === 'alice' ? { alice: s.alice - amount, bob: s.bob + amount } : { alice: s.alice + amount, bob: s.bob - amount }),
      describe: (_before, [from, amount]) => ({ actor: from, summary: `sends ${amount} to ${from === 'alice' ? 'bob' : 'alice'}` }),
    }),
  ],
  properties: [always<Accounts>('conserved', 'money is conserved', (s) => s.alice + s.bob === 2)],
};

describe('models of different state types in one list', () => {
  it('should check each with its own counts', () => {
    const models: Model<unknown>[] = [counter, word, bank];
    expect(models.map((m) => [m.name, check(m).stats.distinctStates])).toEqual([['counter', 5], ['word', 3], ['bank', 3]]);
  });
});

describe('an action\'s own describe', () => {
  it('should describe its steps with the tuple parameter, in the reports too', () => {
    const s = { alice: 2, bob: 0 };
    const d = describeStepOf(bank, s, { name: 'transfer', param: ['alice', 1] }, { alice: 1, bob: 1 });
    expect(d).toEqual({ actor: 'alice', summary: 'sends 1 to bob' });
    const found = check({ ...bank, properties: [always<Accounts>('bob-poor', 'bob never has 2', (x) => x.bob < 2)] });
    const trace = found.properties[0].trace!;
    expect(formatTimeline(bank, trace)).toMatch(/alice.*sends 1 to bob/);
  });
});
