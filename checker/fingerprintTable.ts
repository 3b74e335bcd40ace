/**
 * The visited set: 64-bit fingerprints in an open-addressing table on typed arrays (linear
 * probing, load factor at most 1/2), each slot with the index of the state it stands for.
 * It grows by doubling, well past the 2^24 entries where JavaScript's `Set` and `Map` stop.
 */
import type { Fingerprint } from './fingerprint.js';

const INITIAL_BITS = 16;
const SCRATCH_64 = new BigUint64Array(1);
/** A 32-bit half of SCRATCH_64[0] (the low one on little-endian machines); either is well mixed. */
const SCRATCH_32 = new Uint32Array(SCRATCH_64.buffer);

export class FingerprintTable {
  private keys: BigUint64Array;
  private ids: Uint32Array;
  private mask: number;
  private bits: number;
  private count = 0;

  constructor(initialBits = INITIAL_BITS) {
    this.bits = initialBits;
    this.keys = new BigUint64Array(1 << initialBits);
    this.ids = new Uint32Array(1 << initialBits);
    this.mask = (1 << initialBits) - 1;
  }

  /** Number of fingerprints stored. */
  get size(): number {
    return this.count;
  }

  /** Slots allocated (a power of two). */
  get capacity(): number {
    return this.keys.length;
  }

  /** Bytes held by the table's arrays. */
  get bytes(): number {
    return this.keys.byteLength + this.ids.byteLength;
  }

  private slot(fp: bigint): number {
    // The low bits of xxh64 are well mixed; take them as the home slot. Read through a typed
    // array view, which (unlike BigInt arithmetic) allocates nothing.
    SCRATCH_64[0] = fp;
    return SCRATCH_32[0] & this.mask;
  }

  /** The id stored with `fp`, or -1 if absent. */
  get(fp: Fingerprint): number {
    const keys = this.keys;
    let i = this.slot(fp);
    for (;;) {
      const k = keys[i];
      if (k === fp) return this.ids[i];
      if (k === 0n) return -1;
      i = (i + 1) & this.mask;
    }
  }

  /**
   * Inserts `fp` with `id` unless present. Returns -1 when it was inserted, else the id already
   * stored (so the caller learns in one probe whether the state is new).
   */
  insert(fp: Fingerprint, id: number): number {
    if ((this.count + 1) * 2 > this.keys.length) this.grow();
    const keys = this.keys;
    let i = this.slot(fp);
    for (;;) {
      const k = keys[i];
      if (k === fp) return this.ids[i];
      if (k === 0n) {
        keys[i] = fp;
        this.ids[i] = id;
        this.count++;
        return -1;
      }
      i = (i + 1) & this.mask;
    }
  }

  private grow(): void {
    const oldKeys = this.keys;
    const oldIds = this.ids;
    this.bits++;
    if (this.bits > 31) throw new RangeError("fingerprint table is full (2^30 states)");
    this.keys = new BigUint64Array(2 ** this.bits);
    this.ids = new Uint32Array(2 ** this.bits);
    this.mask = 2 ** this.bits - 1;
    const keys = this.keys;
    for (let j = 0; j < oldKeys.length; j++) {
      const fp = oldKeys[j];
      if (fp === 0n) continue;
      let i = this.slot(fp);
      while (keys[i] !== 0n) i = (i + 1) & this.mask;
      keys[i] = fp;
      this.ids[i] = oldIds[j];
    }
  }
}
