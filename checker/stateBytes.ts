/**
 * What a stored state costs in memory, estimated as the search stores it so that the memory
 * bound holds between two readings (`memory.ts`). States are immutable and a successor shares
 * what it did not change with its parent (immer, spreads), so a successor is charged for what
 * it does not share: walking it beside its parent, an object found at the same place in both
 * (or, in an array, one place before or after: an element inserted or removed) is the parent's
 * and is not entered. An initial state, or one that came from another thread, is charged whole.
 * Nothing is remembered between two calls, so charging costs the walk of what changed and leaves
 * nothing for the collector; far from the bound only some successors are walked ({@link
 * StateBytes.estimate}).
 *
 * Sizes follow V8's layout on a 64-bit machine: an object's header and a slot per field, an
 * array's header and a slot per element, a string's header and a byte per character (two past
 * Latin-1). A string cannot be compared with its parent's by identity: one shorter than
 * {@link SHORT_STRING} is taken for one shared by every state that holds it (names,
 * enumerations: V8 keeps one copy of a literal) and costs only its slot; a longer one is
 * charged unless the parent has an equal string at the same place (strings compare by value,
 * so an equal copy is taken for the parent's).
 */

/** Header of a plain object (map, properties, elements), bytes. */
const OBJECT_HEADER = 24;
/** Header of an array and of its elements' store, bytes. */
const ARRAY_HEADER = 32 + 16;
/** A field's or element's slot, bytes. */
const SLOT = 8;
/** Header of a string, bytes. */
const STRING_HEADER = 16;
/** Header of a Map or Set and of its hash table, bytes; and a Map entry's (key, value, chain), a Set entry's. */
const COLLECTION_HEADER = 32 + 40;
const MAP_ENTRY = 3 * SLOT + SLOT;
const SET_ENTRY = 2 * SLOT + SLOT;
/** Header of a typed array and of its buffer, bytes. */
const TYPED_HEADER = 80 + 48;
/** A BigInt's header and first digit, bytes. */
const BIGINT = 24;
/** Strings shorter than this are taken for shared (see above). */
export const SHORT_STRING = 32;

const TWO_BYTE = /[^\u0000-\u00ff]/;

/** The bytes of a string of its own. */
function stringBytes(s: string): number {
  return STRING_HEADER + (TWO_BYTE.test(s) ? 2 * s.length : s.length);
}

/** Whether a value may hold bytes of its own beyond its slot (an object, a long string, a BigInt). */
function costly(v: unknown): boolean {
  return typeof v === 'object' ? v !== null : typeof v === 'string' ? v.length >= SHORT_STRING : typeof v === 'bigint';
}

/** Walks between two, at most, in {@link StateBytes.estimate}. */
const MOST_SKIPPED = 16;

/** Charges states for the bytes they hold that their parents do not. */
export class StateBytes {
  /** Pending pairs: a value and what the parent has at its place (undefined where nothing). */
  private readonly stack: unknown[] = [];
  /** What the last state walked by {@link estimate} added, and states to go before the next walk. */
  private last = 0;
  private skip = 0;
  /** A xorshift32 generator's state: the walks' phase (fixed seed: charges are reproducible). */
  private random = 0x9e3779b9;

  /**
   * {@link added} for a successor, walked only now and then while the bound is far: the states
   * between two walks are charged what the last one walked added. Walks come after at most
   * {@link MOST_SKIPPED} states, and after one state when so many states of the last size would
   * take more than a sixteenth of the room `bound` (the memory guard) leaves; the gap is drawn at
   * random, so no period of the model's successors is always missed. Far from the bound a
   * successor costs a sixteenth of a walk (a Kubernetes state's walk takes about 2.5 µs); near
   * it every state is walked.
   */
  estimate(value: unknown, parent: unknown, bound: { room(heap: boolean): number }): number {
    if (--this.skip > 0) return this.last;
    const bytes = this.added(value, parent);
    this.last = bytes;
    const most = Math.min(MOST_SKIPPED, Math.floor(bound.room(true) / (MOST_SKIPPED * Math.max(bytes, 64))));
    if (most <= 1) {
      this.skip = 1;
    } else {
      let x = this.random;
      x ^= x << 13;
      x ^= x >>> 17;
      x ^= x << 5;
      this.random = x;
      // A gap of 1 to 2 × most - 1 states: most on average.
      this.skip = 1 + ((x >>> 0) % (2 * most - 1));
    }
    return bytes;
  }

  /**
   * Bytes `value` holds that `parent` does not (all of them without a parent). `seen`: objects
   * already charged in this batch (states cloned together share what they shared before), kept
   * across calls by the caller; without a parent, a shared object is charged once per call.
   */
  added(value: unknown, parent?: unknown, seen?: Set<object>): number {
    const stack = this.stack;
    let total = 0;
    const whole = parent === undefined;
    const local = whole ? (seen ?? new Set<object>()) : undefined;
    stack.push(value, parent);
    while (stack.length > 0) {
      const p = stack.pop();
      const v = stack.pop();
      if (v === p) continue;
      if (typeof v === 'string') {
        if (v.length >= SHORT_STRING) total += stringBytes(v);
        continue;
      }
      if (typeof v === 'bigint') {
        total += BIGINT + SLOT * Math.floor((v < 0n ? -v : v).toString(16).length / 16);
        continue;
      }
      if (typeof v !== 'object' || v === null) continue;
      if (local !== undefined) {
        if (local.has(v)) continue;
        local.add(v);
      }
      const po = typeof p === 'object' && p !== null ? p : undefined;
      if (Array.isArray(v)) {
        total += ARRAY_HEADER + SLOT * v.length;
        const pa = Array.isArray(po) ? (po as unknown[]) : undefined;
        for (let i = 0; i < v.length; i++) {
          const e: unknown = v[i];
          if (!costly(e)) continue;
          if (pa === undefined) {
            stack.push(e, undefined);
            continue;
          }
          // The parent's element at this place, or next to it when one was inserted or removed.
          const here = pa[i];
          if (e === here || (i > 0 && e === pa[i - 1]) || e === pa[i + 1]) continue;
          stack.push(e, here);
        }
      } else if (ArrayBuffer.isView(v)) {
        total += TYPED_HEADER + v.byteLength;
      } else if (v instanceof Map) {
        total += COLLECTION_HEADER + MAP_ENTRY * v.size;
        const pm = po instanceof Map ? po : undefined;
        for (const [k, x] of v) {
          if (costly(k)) stack.push(k, pm !== undefined && pm.has(k) ? k : undefined);
          if (costly(x)) stack.push(x, pm?.get(k));
        }
      } else if (v instanceof Set) {
        total += COLLECTION_HEADER + SET_ENTRY * v.size;
        const ps = po instanceof Set ? po : undefined;
        for (const x of v) if (costly(x) && !(ps !== undefined && ps.has(x))) stack.push(x, undefined);
      } else {
        let fields = 0;
        const record = v as Record<string, unknown>;
        const pr = po as Record<string, unknown> | undefined;
        for (const k in record) {
          fields++;
          const e = record[k];
          if (!costly(e)) continue;
          const here = pr === undefined ? undefined : pr[k];
          if (e !== here) stack.push(e, here);
        }
        total += OBJECT_HEADER + SLOT * fields;
      }
    }
    return total;
  }
}
