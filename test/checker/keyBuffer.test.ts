import { describe, expect, it } from 'vitest';
import { exactEncoding, fingerprint } from '../../checker/fingerprint.js';
import { KeyBuffer } from '../../checker/keyBuffer.js';

const hex = (b: Uint8Array): string => Buffer.from(b).toString('hex');
const keyOf = (write: (w: KeyBuffer) => void): string => {
  const w = new KeyBuffer();
  write(w);
  return hex(w.bytes());
};

describe('KeyBuffer', () => {
  it('should keep strings apart by their length and every code unit', () => {
    const keys = [
      keyOf((w) => { w.text('ab'); w.text('c'); }),
      keyOf((w) => { w.text('a'); w.text('bc'); }),
      keyOf((w) => w.text('abc')),
      keyOf((w) => w.text('abd')),
      keyOf((w) => w.text('abc\u0000')),
      keyOf((w) => w.text('')),
      keyOf((w) => w.text('😀x')),
      keyOf((w) => w.text('😁x')),
    ];
    expect(new Set(keys).size).toBe(keys.length);
  });

  it('should write -0 as 0 and tell apart numbers and absence', () => {
    expect(keyOf((w) => w.num(-0))).toBe(keyOf((w) => w.num(0)));
    expect(keyOf((w) => w.num(-Infinity))).not.toBe(keyOf((w) => w.num(-1)));
    expect(keyOf((w) => w.num(0.5))).not.toBe(keyOf((w) => w.num(0)));
  });

  it('should grow past its first buffer and reuse it after reset', () => {
    const w = new KeyBuffer();
    for (let i = 0; i < 1000; i++) w.num(i);
    expect(w.size).toBe(1000);
    const long = hex(w.bytes());
    w.reset().num(7);
    expect(w.size).toBe(1);
    expect(hex(w.bytes())).toBe(keyOf((x) => x.num(7)));
    expect(long.length).toBe(16_000);
  });

  it('should order runs slot by slot, shorter first on a common prefix', () => {
    const w = new KeyBuffer();
    [1, 2, 3, 1, 2, 1, 3].forEach((x) => w.num(x));
    expect(w.compareRuns(0, 3, 3, 5)).toBeGreaterThan(0); // [1,2,3] after [1,2]
    expect(w.compareRuns(3, 5, 0, 3)).toBeLessThan(0);
    expect(w.compareRuns(3, 5, 5, 7)).toBeLessThan(0); // [1,2] before [1,3]
    expect(w.compareRuns(0, 2, 3, 5)).toBe(0);
  });

  it('should give equal bytes one fingerprint, wherever they sit, and exact text per content', () => {
    const a = new KeyBuffer();
    a.text('web-0');
    a.num(3);
    const b = new KeyBuffer();
    b.num(99);
    b.reset().text('web-0');
    b.num(3);
    expect(fingerprint(a.bytes())).toBe(fingerprint(b.bytes()));
    expect(exactEncoding(a.bytes())).toBe(exactEncoding(b.bytes()));
    b.num(4);
    expect(fingerprint(a.bytes())).not.toBe(fingerprint(b.bytes()));
    expect(exactEncoding(a.bytes())).not.toBe(exactEncoding(b.bytes()));
  });
});
