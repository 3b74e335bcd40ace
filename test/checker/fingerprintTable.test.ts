/** The visited table against a reference `Map<bigint, number>` under random operation sequences. */
import { describe, it, expect } from 'vitest';
import fc from 'fast-check';
import { FingerprintTable, type Fingerprint } from '../../checker/index.js';

const MAX64 = 2n ** 64n - 1n;

/** Non-zero 64-bit values; half of them share a few low-bit patterns, so their home slots collide. */
const fingerprintArb: fc.Arbitrary<Fingerprint> = fc
  .oneof(
    fc.bigInt({ min: 1n, max: MAX64 }),
    fc
      .tuple(fc.bigInt({ min: 0n, max: 2n ** 32n - 1n }), fc.constantFrom(0n, 1n, 7n, 2n ** 31n, 2n ** 32n - 1n))
      .map(([high, low]) => (high << 32n) | low)
      .filter((v) => v !== 0n),
    fc.constantFrom(1n, MAX64, 2n ** 63n, 2n ** 32n),
  )
  .map((v) => v as Fingerprint);

type Op = { kind: 'add' | 'get'; index: number };

const opArb: fc.Arbitrary<Op> = fc.record({
  kind: fc.constantFrom('add' as const, 'get' as const),
  index: fc.nat(),
});

describe('FingerprintTable', () => {
  it('should behave as a Map<bigint, id> through growth and probing', () => {
    fc.assert(
      fc.property(
        fc.uniqueArray(fingerprintArb, { minLength: 1, maxLength: 300 }),
        fc.array(opArb, { maxLength: 600 }),
        fc.integer({ min: 0, max: 4 }),
        (pool, ops, initialBits) => {
          // Arrange
          const table = new FingerprintTable(initialBits);
          const reference = new Map<bigint, number>();
          // Act / Assert, operation by operation
          for (const op of ops) {
            const fp = pool[op.index % pool.length];
            if (op.kind === 'add') {
              expect(table.add(fp)).toBe(!reference.has(fp));
              if (!reference.has(fp)) reference.set(fp, reference.size);
            } else {
              expect(table.get(fp)).toBe(reference.get(fp) ?? -1);
            }
            expect(table.size).toBe(reference.size);
            // Load factor at most 1/2 and a power-of-two capacity.
            expect(table.size * 2).toBeLessThanOrEqual(table.capacity);
            expect(Number.isInteger(Math.log2(table.capacity))).toBe(true);
          }
          for (const fp of pool) expect(table.get(fp)).toBe(reference.get(fp) ?? -1);
        },
      ),
      { numRuns: 200 },
    );
  });

  it('should keep every entry through many doublings from 4 slots', () => {
    // Inserting 40,000 values from 2^2 slots doubles the table 15 times.
    const table = new FingerprintTable(2);
    const reference = new Map<bigint, number>();
    const wrong: string[] = [];
    let x = 0x9e3779b97f4a7c15n;
    for (let i = 0; i < 40_000; i++) {
      // A 64-bit LCG; every fourth value keeps low bits 0x...5 to pile up on a few slots.
      x = (x * 6364136223846793005n + 1442695040888963407n) & MAX64;
      const fp = (i % 4 === 0 ? (x & ~0xffffn) | 5n : x || 1n) as Fingerprint;
      const added = table.add(fp);
      if (added === reference.has(fp)) wrong.push(`add #${i} ${fp}: ${added}`);
      if (!reference.has(fp)) reference.set(fp, reference.size);
    }
    expect(table.size).toBe(reference.size);
    expect(table.capacity).toBe(2 ** Math.ceil(Math.log2(reference.size * 2)));
    for (const [fp, id] of reference) if (table.get(fp as Fingerprint) !== id) wrong.push(`get ${fp}`);
    expect(wrong).toEqual([]);
    expect(table.get(123456789n as Fingerprint)).toBe(reference.get(123456789n) ?? -1);
  });

  it('should find values whose home slots collide and wrap around the end of the table', () => {
    // With 8 slots every value below has home slot 7 (low bits ...111), so they probe 7, 0, 1.
    const table = new FingerprintTable(3);
    const fps = [7n, 15n, 23n].map((v) => (v | (1n << 40n)) as Fingerprint);
    fps.forEach((fp) => expect(table.add(fp)).toBe(true));
    expect(table.capacity).toBe(8);
    fps.forEach((fp, i) => expect(table.get(fp)).toBe(i));
    expect(table.get((31n | (1n << 40n)) as Fingerprint)).toBe(-1);
    expect(table.add(fps[1])).toBe(false);
    expect(table.get(fps[1])).toBe(1);
  });
});
