/**
 * Visited sets: 64-bit fingerprints in open-addressing tables on typed arrays (linear probing,
 * load factor at most 1/2), growing by doubling well past the 2^24 entries where JavaScript's
 * `Set` and `Map` stop.
 */
import type { Fingerprint } from './fingerprint.js';

/**
 * A search's visited set: the fingerprints of the states it stored, `K` the fingerprint's form
 * (a BigInt `Fingerprint`, or the two 32-bit lanes of a state vector's in an `Int32Array`).
 */
export interface VisitedSet<K> {
  /** Number of fingerprints stored. */
  readonly size: number;
  /** Bytes held by the set's arrays. */
  readonly bytes: number;
  /** Bytes the next {@link add} allocates (the set's arrays grown), or 0. */
  readonly growthBytes: number;
  /** New fingerprints that can be added before an add grows the set's arrays. */
  readonly room: number;
  /** Whether `fp` is stored. */
  has(fp: K): boolean;
  /** Stores `fp` unless present; returns whether it was new. */
  add(fp: K): boolean;
}

const INITIAL_BITS = 16;
const SCRATCH_64 = new BigUint64Array(1);
/** The 32-bit halves of SCRATCH_64[0] (the low one first on little-endian machines); either is well mixed. */
const SCRATCH_32 = new Int32Array(SCRATCH_64.buffer);

/**
 * Stores the key (lo, hi) in the interleaved open-addressing `keys` (linear probing from slot
 * `i`; (0, 0) marks an empty slot) unless present: the slot it went to, or -1 when it was there.
 */
function insertPair(keys: Int32Array, mask: number, i: number, lo: number, hi: number): number {
  for (;;) {
    const k0 = keys[2 * i];
    const k1 = keys[2 * i + 1];
    if (k0 === lo && k1 === hi) return -1;
    if ((k0 | k1) === 0) {
      keys[2 * i] = lo;
      keys[2 * i + 1] = hi;
      return i;
    }
    i = (i + 1) & mask;
  }
}

/** The slot holding the key (lo, hi) in `keys`, probing from slot `i` as `insertPair` stores, or -1. */
function findPair(keys: Int32Array, mask: number, i: number, lo: number, hi: number): number {
  for (;;) {
    const k0 = keys[2 * i];
    const k1 = keys[2 * i + 1];
    if (k0 === lo && k1 === hi) return i;
    if ((k0 | k1) === 0) return -1;
    i = (i + 1) & mask;
  }
}

/**
 * A visited set of BigInt fingerprints, each with an id: the order it was added in. Keys are kept
 * as their two 32-bit halves, interleaved in one `Int32Array`, so a probe compares numbers and
 * allocates nothing (reading a `BigUint64Array` makes a BigInt per element read). A fingerprint is
 * never 0 (`fingerprint.ts`), so (0, 0) marks an empty slot.
 */
export class FingerprintTable implements VisitedSet<Fingerprint> {
  private keys: Int32Array;
  private ids: Uint32Array;
  private mask: number;
  private bits: number;
  private count = 0;

  constructor(initialBits = INITIAL_BITS) {
    this.bits = initialBits;
    this.keys = new Int32Array(2 << initialBits);
    this.ids = new Uint32Array(1 << initialBits);
    this.mask = (1 << initialBits) - 1;
  }

  /** Number of fingerprints stored. */
  get size(): number {
    return this.count;
  }

  /** Slots allocated (a power of two). */
  get capacity(): number {
    return this.ids.length;
  }

  /** Bytes held by the table's arrays. */
  get bytes(): number {
    return this.keys.byteLength + this.ids.byteLength;
  }

  /** Bytes the next add allocates: both arrays, doubled, when it grows them. */
  get growthBytes(): number {
    return this.room === 0 ? 2 * this.bytes : 0;
  }

  /** New fingerprints that can be added before an add grows the arrays (at a load of one half). */
  get room(): number {
    return (this.ids.length >> 1) - this.count;
  }

  /** The id stored with `fp`, or -1 if absent. */
  get(fp: Fingerprint): number {
    // The low bits of xxh64 are well mixed; take them as the home slot. The halves are read
    // through a typed array view, which (unlike BigInt arithmetic) allocates nothing.
    SCRATCH_64[0] = fp;
    const lo = SCRATCH_32[0];
    const slot = findPair(this.keys, this.mask, lo & this.mask, lo, SCRATCH_32[1]);
    return slot < 0 ? -1 : this.ids[slot];
  }

  has(fp: Fingerprint): boolean {
    return this.get(fp) !== -1;
  }

  /** Stores `fp` unless present, with the next id (the number stored before); whether it was new. */
  add(fp: Fingerprint): boolean {
    if ((this.count + 1) * 2 > this.ids.length) this.grow();
    SCRATCH_64[0] = fp;
    const lo = SCRATCH_32[0];
    const slot = insertPair(this.keys, this.mask, lo & this.mask, lo, SCRATCH_32[1]);
    if (slot < 0) return false;
    this.ids[slot] = this.count++;
    return true;
  }

  private grow(): void {
    const oldKeys = this.keys;
    const oldIds = this.ids;
    this.bits++;
    if (this.bits > 31) throw new RangeError("fingerprint table is full (2^30 states)");
    this.keys = new Int32Array(2 * 2 ** this.bits);
    this.ids = new Uint32Array(2 ** this.bits);
    this.mask = 2 ** this.bits - 1;
    const keys = this.keys;
    const mask = this.mask;
    for (let j = 0; j < oldIds.length; j++) {
      const lo = oldKeys[2 * j];
      const hi = oldKeys[2 * j + 1];
      if ((lo | hi) !== 0) this.ids[insertPair(keys, mask, lo & mask, lo, hi)] = oldIds[j];
    }
  }
}

/**
 * A visited set of 64-bit fingerprints given as two 32-bit lanes `fp[0]`, `fp[1]` (the
 * state-vector search's Zobrist fingerprints), with no BigInt: keys interleaved in one
 * `Int32Array`. Only membership is kept. The fingerprint (0, 0) marks an empty slot and is stored
 * as (1, 0).
 */
export class FingerprintPairTable implements VisitedSet<Int32Array> {
  private keys: Int32Array;
  private mask: number;
  private shift: number;
  private bits: number;
  private count = 0;

  constructor(initialBits = INITIAL_BITS) {
    this.bits = initialBits;
    this.keys = new Int32Array(2 << initialBits);
    this.mask = (1 << initialBits) - 1;
    this.shift = 32 - initialBits;
  }

  /** Number of fingerprints stored. */
  get size(): number {
    return this.count;
  }

  /** Slots allocated (a power of two). */
  get capacity(): number {
    return this.keys.length >> 1;
  }

  /** Bytes held by the table. */
  get bytes(): number {
    return this.keys.byteLength;
  }

  /** Bytes the next add allocates: the keys, doubled, when it grows them. */
  get growthBytes(): number {
    return this.room === 0 ? 2 * this.bytes : 0;
  }

  /** New fingerprints that can be added before an add grows the keys (at a load of one half). */
  get room(): number {
    return (this.keys.length >> 2) - this.count;
  }

  /** Home slot: Fibonacci hashing of both lanes (robust to lanes whose low bits are not mixed). */
  private home(lo: number, hi: number): number {
    return Math.imul(lo ^ Math.imul(hi, 0x85ebca6b), 0x9e3779b1) >>> this.shift;
  }

  has(fp: Int32Array): boolean {
    const hi = fp[1];
    const lo = (fp[0] | hi) === 0 ? 1 : fp[0];
    return findPair(this.keys, this.mask, this.home(lo, hi), lo, hi) >= 0;
  }

  add(fp: Int32Array): boolean {
    const hi = fp[1];
    const lo = (fp[0] | hi) === 0 ? 1 : fp[0];
    if ((this.count + 1) * 2 > this.keys.length >> 1) this.grow();
    if (insertPair(this.keys, this.mask, this.home(lo, hi), lo, hi) < 0) return false;
    this.count++;
    return true;
  }

  private grow(): void {
    const old = this.keys;
    this.bits++;
    // 2^28 slots are 2 GiB of keys, about the largest typed array Node allocates.
    if (this.bits > 28) throw new RangeError('fingerprint table is full (2^27 states)');
    this.keys = new Int32Array(2 << this.bits);
    this.mask = (1 << this.bits) - 1;
    this.shift = 32 - this.bits;
    const keys = this.keys;
    for (let j = 0; j < old.length; j += 2) {
      const lo = old[j];
      const hi = old[j + 1];
      if ((lo | hi) === 0) continue;
      let i = this.home(lo, hi);
      while ((keys[2 * i] | keys[2 * i + 1]) !== 0) i = (i + 1) & this.mask;
      keys[2 * i] = lo;
      keys[2 * i + 1] = hi;
    }
  }
}
