/** A growable array of 32-bit integers on a typed array: 4 bytes an entry, no boxing. */
export class GrowableInt32Array {
  private data: Int32Array;
  private length = 0;

  constructor(initialCapacity = 1 << 16) {
    this.data = new Int32Array(initialCapacity);
  }

  get size(): number {
    return this.length;
  }

  get bytes(): number {
    return this.data.byteLength;
  }

  /** Bytes the next push allocates (the array doubled when full), or 0. */
  get growthBytes(): number {
    return this.length === this.data.length ? 2 * this.data.byteLength : 0;
  }

  /** Values that can be pushed before a push grows the array. */
  get room(): number {
    return this.data.length - this.length;
  }

  push(value: number): void {
    if (this.length === this.data.length) {
      const next = new Int32Array(this.data.length * 2);
      next.set(this.data);
      this.data = next;
    }
    this.data[this.length++] = value;
  }

  at(index: number): number {
    return this.data[index];
  }
}
