/**
 * A model's key written as numbers instead of a string: `view` or `canonicalView` may return the
 * bytes of a `KeyBuffer` (any `ArrayBufferView`), which the checker hashes as they are. Nothing
 * is built but a run of float64 slots in a reused buffer: no string ropes to flatten, no number
 * formatting, nothing for the collector, which is what a hand-written string key spends most of
 * its time on.
 *
 * Exactness is the writer's: every variable-length part must be preceded by its length (or end in
 * a value no element can take) so that the concatenation stays injective. Strings are written as
 * their length and their UTF-16 code units packed three to a slot (48 bits, exact in a double).
 * The bytes depend only on what is written, never on the process, so two workers give one state
 * one fingerprint.
 */

/** Three UTF-16 code units per slot: 2^48 < 2^53. */
const UNITS_PER_SLOT = 3;

/** Packed forms of the strings written so far (names come from a small set). */
const packedStrings = new Map<string, readonly number[]>();
const PACKED_LIMIT = 100_000;
/** Strings longer than this are packed as they are written (names are short; long texts mostly unique). */
const LONG_TEXT = 48;

function packed(text: string): readonly number[] {
  let slots = packedStrings.get(text);
  if (slots === undefined) {
    const out: number[] = [text.length];
    for (let i = 0; i < text.length; i += UNITS_PER_SLOT) {
      let v = 0;
      for (let j = i; j < i + UNITS_PER_SLOT; j++) v = v * 65536 + (j < text.length ? text.charCodeAt(j) : 0);
      out.push(v);
    }
    slots = out;
    if (packedStrings.size >= PACKED_LIMIT) packedStrings.clear();
    packedStrings.set(text, slots);
  }
  return slots;
}

export class KeyBuffer {
  private slots = new Float64Array(256);
  private length = 0;

  /** Starts a new key (the buffer is reused: read the previous key's bytes before this). */
  reset(): this {
    this.length = 0;
    return this;
  }

  /** A number; -0 is written as 0 (one state). Use ±Infinity for "absent" where a field may be. */
  num(x: number): void {
    if (this.length === this.slots.length) this.grow();
    this.slots[this.length++] = x + 0;
  }

  flag(b: boolean): void {
    this.num(b ? 1 : 0);
  }

  /** A string: its length, then its code units. */
  text(s: string): void {
    if (s.length > LONG_TEXT) return this.longText(s);
    const p = packed(s);
    for (let i = 0; i < p.length; i++) this.num(p[i]);
  }

  /** A long string (a whole cache's contents, most of them seen once): packed as it is written, not kept. */
  private longText(s: string): void {
    this.num(s.length);
    for (let i = 0; i < s.length; i += UNITS_PER_SLOT) {
      let v = 0;
      for (let j = i; j < i + UNITS_PER_SLOT; j++) v = v * 65536 + (j < s.length ? s.charCodeAt(j) : 0);
      this.num(v);
    }
  }

  /** Slot i as written. */
  slot(i: number): number {
    return this.slots[i];
  }

  /** Slots written since `reset`. */
  get size(): number {
    return this.length;
  }

  /**
   * Slot-by-slot order of the runs `[a, aEnd)` and `[b, bEnd)` written so far (shorter first on a
   * common prefix): signatures written one after another are sorted in place, copying nothing.
   */
  compareRuns(a: number, aEnd: number, b: number, bEnd: number): number {
    const slots = this.slots;
    const n = Math.min(aEnd - a, bEnd - b);
    for (let i = 0; i < n; i++) if (slots[a + i] !== slots[b + i]) return slots[a + i] < slots[b + i] ? -1 : 1;
    return aEnd - a - (bEnd - b);
  }

  /** The key's bytes: a view of the buffer, valid until the next write. */
  bytes(): Uint8Array {
    return new Uint8Array(this.slots.buffer, 0, this.length * 8);
  }

  private grow(): void {
    const next = new Float64Array(this.slots.length * 2);
    next.set(this.slots);
    this.slots = next;
  }
}
