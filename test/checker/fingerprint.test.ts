/** Laws of `fingerprint()`: equal values share one, different values do not, memoisation is safe. */
import { describe, it, expect } from 'vitest';
import fc from 'fast-check';
import { produce, setAutoFreeze } from 'immer';
import { check, exactEncoding, fingerprint, hashString, type Model } from '../../checker/index.js';

/** A deep copy with every object's keys inserted in reverse order (new identities throughout). */
function reordered(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(reordered);
  if (value instanceof Set) return new Set([...value].reverse().map(reordered));
  if (value instanceof Map) return new Map([...value].reverse().map(([k, v]) => [k, reordered(v)]));
  if (value !== null && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).reverse().map(([k, v]) => [k, reordered(v)]));
  }
  return value;
}

/** Plain values the encoder handles: JSON plus undefined-free nesting, bigints, Sets and Maps. */
const valueArb: fc.Arbitrary<unknown> = fc.letrec((tie) => ({
  value: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    fc.oneof(fc.string(), fc.integer(), fc.double({ noNaN: false }), fc.boolean(), fc.constant(null), fc.bigInt()),
    fc.array(tie('value'), { maxLength: 4 }),
    fc.dictionary(fc.string({ maxLength: 4 }), tie('value'), { maxKeys: 4 }),
    fc.uniqueArray(fc.integer({ min: -5, max: 5 }), { maxLength: 4 }).map((xs) => new Set(xs)),
    fc.uniqueArray(fc.tuple(fc.string({ maxLength: 3 }), tie('value')), { maxLength: 3, selector: ([k]) => k }).map((es) => new Map(es)),
  ),
})).value;

describe('fingerprint: equal values, one fingerprint', () => {
  it('should not depend on key order, Set/Map insertion order or object identity', () => {
    fc.assert(
      fc.property(valueArb, (v) => {
        const copy = reordered(v);
        expect(fingerprint(copy)).toBe(fingerprint(v));
        // Twice on the same object: the memoised answer is the computed one.
        expect(fingerprint(v)).toBe(fingerprint(reordered(copy)));
      }),
      { numRuns: 300 },
    );
  });

  it('should treat -0 as 0 and an undefined key as an absent one', () => {
    expect(fingerprint([-0])).toBe(fingerprint([0]));
    expect(fingerprint({ a: undefined })).toBe(fingerprint({}));
    expect(fingerprint({ b: 1, z: undefined })).toBe(fingerprint({ b: 1 }));
  });

  // Regression: up to commit 8fc24b6, encodeObject wrote `${i ? ',' : ''}` with i the index
  // among all keys, skipped undefined ones included, so {a: undefined, b: 1} encoded as "{,b:1}"
  // and got another fingerprint than {b: 1} (duplicate states for optional fields).
  it('should treat an undefined first key as absent too', () => {
    expect(fingerprint({ a: undefined, b: 1 })).toBe(fingerprint({ b: 1 }));
  });

  it('should give a pinned xxh64 for a known input and never 0', () => {
    // xxh64("") with seed 0 is 0xef46db3751d8e999 (the xxHash reference value).
    expect(hashString('')).toBe(0xef46db3751d8e999n);
    expect(hashString('abc')).toBe(0x44bc2cf5ad770999n);
  });
});

describe('fingerprint: different values, different fingerprints', () => {
  const pairs: [string, unknown, unknown][] = [
    ['string vs number, nested', ['1'], [1]],
    ['string vs number as a field', { a: '1' }, { a: 1 }],
    ['nesting on the left vs the right', [1, [2]], [[1], 2]],
    ['empty array vs array of empty array', [], [[]]],
    ['empty object vs empty array', { a: {} }, { a: [] }],
    ['null vs undefined element', [null], [undefined]],
    ['true vs "t"', [true], ['t']],
    ['bigint vs number', [1n], [1]],
    ['Set vs array', new Set([1, 2]), [1, 2]],
    ['Map vs object', new Map([['a', 1]]), { a: 1 }],
    ['array vs object with index keys', [1], { 0: 1 }],
    ['string with a comma vs two elements', ['a,b'], ['a', 'b']],
    ['key order within a value is not data, but key names are', { a: 1, b: 2 }, { a: 2, b: 1 }],
  ];
  for (const [name, a, b] of pairs) {
    it(`should distinguish ${name}`, () => {
      expect(fingerprint(a)).not.toBe(fingerprint(b));
    });
  }

  it('should hash a top-level string verbatim, so "1" and 1 collide there by design', () => {
    // Documented: a string is hashed as is (compact keys from `view`). A model whose whole state
    // may be either a string or a number must wrap it; nested, the two differ (above).
    expect(fingerprint('1')).toBe(fingerprint(1));
    expect(fingerprint('1')).toBe(hashString('1'));
  });

  // Regression: up to commit 8fc24b6, encodeObject wrote object keys unquoted (`${k}:`), so
  // {"a:1,b": 2} and {a: 1, b: 2} both encoded as "{a:1,b:2}": one fingerprint for two states,
  // one of which was never explored.
  it('should distinguish a key containing ":" and "," from two fields', () => {
    expect(fingerprint({ 'a:1,b': 2 })).not.toBe(fingerprint({ a: 1, b: 2 }));
  });

  it('should distinguish random different values', () => {
    fc.assert(
      fc.property(valueArb, valueArb, (a, b) => {
        fc.pre(canon(a) !== canon(b));
        // Keys made only of letters cannot mimic the encoding's punctuation.
        fc.pre([...allKeys(a), ...allKeys(b)].every((k) => !/[:,{}[\]#"]/.test(k)));
        fc.pre(typeof a !== 'string' && typeof b !== 'string');
        expect(fingerprint(a)).not.toBe(fingerprint(b));
      }),
      { numRuns: 300 },
    );
  });
});

/** The test's own canonical text of a value (independent of the checker's encoders). */
function canon(v: unknown): string {
  if (typeof v === 'number') return Object.is(v, -0) ? 'num:0' : `num:${v}`;
  if (typeof v === 'bigint') return `big:${v}`;
  if (typeof v === 'string') return `str:${JSON.stringify(v)}`;
  if (typeof v === 'boolean' || v === null || v === undefined) return String(v);
  if (Array.isArray(v)) return `arr(${v.map(canon).join(';')})`;
  if (v instanceof Set) return `set(${[...v].map(canon).sort().join(';')})`;
  if (v instanceof Map) return `map(${[...v].map(([k, x]) => `${canon(k)}=>${canon(x)}`).sort().join(';')})`;
  const o = v as Record<string, unknown>;
  return `obj(${Object.keys(o).filter((k) => o[k] !== undefined).sort().map((k) => `${JSON.stringify(k)}=>${canon(o[k])}`).join(';')})`;
}

function allKeys(v: unknown): string[] {
  if (Array.isArray(v)) return v.flatMap(allKeys);
  if (v instanceof Map) return [...v.values()].flatMap(allKeys);
  if (v instanceof Set) return [];
  if (v !== null && typeof v === 'object') return Object.entries(v).flatMap(([k, x]) => [k, ...allKeys(x)]);
  return [];
}

describe('fingerprint memoisation on structurally shared states', () => {
  interface Doc {
    readonly nodes: readonly { readonly name: string; readonly ready: boolean; readonly pods: readonly number[] }[];
    readonly meta: { readonly version: number };
  }
  const start: Doc = {
    nodes: [0, 1, 2].map((i) => ({ name: `node-${i}`, ready: true, pods: [i] })),
    meta: { version: 0 },
  };
  type Edit = { node: number; kind: 'toggle' | 'add' | 'drop' | 'same'; pod: number };
  const editArb: fc.Arbitrary<Edit> = fc.record({
    node: fc.integer({ min: 0, max: 2 }),
    kind: fc.constantFrom('toggle' as const, 'add' as const, 'drop' as const, 'same' as const),
    pod: fc.integer({ min: 0, max: 3 }),
  });

  for (const autoFreeze of [true, false]) {
    it(`should match a fresh deep copy after every immer edit (autoFreeze=${autoFreeze})`, () => {
      setAutoFreeze(autoFreeze);
      try {
        fc.assert(
          fc.property(fc.array(editArb, { maxLength: 25 }), (edits) => {
            let s = start;
            const seen = new Map<string, bigint>([[exactEncoding(s), fingerprint(s)]]);
            for (const e of edits) {
              s = produce(s, (d) => {
                const n = d.nodes[e.node];
                if (e.kind === 'toggle') n.ready = !n.ready;
                else if (e.kind === 'add') n.pods.push(e.pod);
                else if (e.kind === 'drop') n.pods.pop();
                else n.name = `node-${e.node}`; // writes an equal value: immer keeps identity
                if (e.kind !== 'same') d.meta.version = (d.meta.version + 1) % 3;
              });
              const fp = fingerprint(s);
              // Arrange-free check: a structuredClone has no memoised sub-hashes.
              expect(fp).toBe(fingerprint(structuredClone(s)));
              const text = exactEncoding(s);
              const prior = seen.get(text);
              if (prior !== undefined) expect(fp).toBe(prior);
              else for (const [t, other] of seen) if (other === fp) expect.fail(`stale or colliding hash: ${t} vs ${text}`);
              seen.set(text, fp);
            }
          }),
          { numRuns: 150 },
        );
      } finally {
        setAutoFreeze(true);
      }
    });
  }

  it('should match a fresh deep copy after spreads that share unchanged subtrees', () => {
    const a = { x: { deep: [1, 2, 3] }, y: { other: 'same' } };
    const fa = fingerprint(a);
    const b = { ...a, x: { deep: [1, 2, 4] } };
    expect(fingerprint(b)).toBe(fingerprint(structuredClone(b)));
    expect(fingerprint(b)).not.toBe(fa);
    expect(fingerprint({ ...b, x: a.x })).toBe(fa);
  });
});

describe('exactEncoding (the collision detector\'s reference)', () => {
  it('should not depend on key order or identity for JSON values', () => {
    fc.assert(
      fc.property(fc.jsonValue(), (v) => {
        expect(exactEncoding(reordered(v))).toBe(exactEncoding(v));
      }),
    );
  });

  // Regressions, fixed in cff7042: exactEncoding sent Set and Map entries through a bare
  // `JSON.stringify(x)` without the replacer, so (1) a Set or Map holding a bigint threw "Do not
  // know how to serialize a BigInt" under `detectCollisions`; (2) objects inside Sets/Maps kept
  // their key order, so one state built in two orders counted as a collision; (3) a Set or Map
  // nested in a Set or Map encoded as "{}", hiding real collisions.
  it('should encode bigints inside a Map or Set', () => {
    expect(() => exactEncoding(new Map([['k', 1n]]))).not.toThrow();
    expect(() => exactEncoding(new Set([1n]))).not.toThrow();
  });

  it('should encode equal Maps with differently ordered nested objects alike', () => {
    expect(exactEncoding(new Map([['k', { a: 1, b: 2 }]]))).toBe(exactEncoding(new Map([['k', { b: 2, a: 1 }]])));
  });

  it('should report no collision for one state built in two key orders inside a Map', () => {
    const model: Model<Map<string, Record<string, number>>> = {
      name: 'map-order',
      initialStates: () => [new Map([['k', { a: 1, b: 2 }]]), new Map([['k', { b: 2, a: 1 }]])],
      actions: [],
      properties: [],
    };
    const r = check(model, { detectCollisions: true });
    expect(r.stats.distinctStates).toBe(1);
    expect(r.stats.collisions).toBe(0);
  });

  it('should tell apart different Sets nested in a Set', () => {
    expect(exactEncoding(new Set([new Set([1])]))).not.toBe(exactEncoding(new Set([new Set([2])])));
  });
});

describe('exactEncoding is exact', () => {
  it('should give two values one exact encoding only when they are equal', () => {
    fc.assert(
      fc.property(valueArb, valueArb, (a, b) => {
        fc.pre(typeof a !== 'string' && typeof b !== 'string'); // top-level strings pass verbatim
        expect(exactEncoding(a) === exactEncoding(b)).toBe(canon(a) === canon(b));
      }),
      { numRuns: 500 },
    );
  });

  // Regression (checker/fingerprint.ts, exact() once sent scalars go through `JSON.stringify(value)`, which
  // writes NaN, Infinity and -Infinity as "null"): exactEncoding([NaN]), ([Infinity]),
  // ([-Infinity]) and ([null]) are all "[null]", while `fingerprint` tells them apart ("NaN",
  // "Infinity", "n"). The collision detector would miss a real collision between such states.
  it('should tell apart NaN, Infinity and null', () => {
    const encodings = [[NaN], [Infinity], [-Infinity], [null]].map(exactEncoding);
    expect(new Set(encodings).size).toBe(4);
  });
});

describe('collision detection', () => {
  it('should count a detected collision for each pair of different states with one fingerprint', () => {
    // Two different initial states that the old unquoted-key encoding gave one fingerprint.
    // Either they are two distinct states, or one distinct state plus one detected collision:
    // never silently one.
    const model: Model<Record<string, number>> = {
      name: 'two-keys',
      initialStates: (): Record<string, number>[] => [{ a: 1, b: 2 }, { 'a:1,b': 2 }],
      actions: [],
      properties: [],
    };
    const r = check(model, { detectCollisions: true });
    expect(r.stats.distinctStates + (r.stats.collisions ?? NaN)).toBe(2);
    expect(check(model).stats.collisions).toBeUndefined();
  });
});
