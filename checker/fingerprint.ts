/**
 * 64-bit fingerprints (xxh64) of a canonical encoding of a state.
 *
 * The generic encoder turns a value into a string in which every nested object or array appears
 * as its own encoding when that is short, else as the hex fingerprint of it. Either is memoised
 * by object identity in a
 * `WeakMap`, so for immutable states that share unchanged subtrees (immer, spreads) hashing a
 * successor costs what changed, not the whole state. Object keys are sorted, so two equal values
 * built in different orders get one fingerprint. Maps and Sets are encoded by sorted entries.
 *
 * Not handled: cyclic values, functions, class instances' hidden state (only own enumerable keys).
 */
import xxhash from 'xxhash-wasm';

/** A 64-bit fingerprint; branded so it cannot be mixed up with other bigints. Never 0. */
export type Fingerprint = bigint & { readonly __brand: 'Fingerprint' };

const { h64, h64Raw } = await xxhash();

/** xxh64 of a string (UTF-8); 0 is remapped to 1 because the visited table uses 0 as "empty". */
export function hashString(text: string): Fingerprint {
  const h = h64(text);
  return (h === 0n ? 1n : h) as Fingerprint;
}

/** xxh64 of a key's bytes (a model's numeric key, `KeyBuffer`); 0 remapped to 1 as above. */
export function hashBytes(view: ArrayBufferView): Fingerprint {
  return hashBytesSeeded(view, 0n);
}

/**
 * xxh64 of a key's bytes seeded with `seed` (the hash of a state's observers' text, `kernel.ts`):
 * one pass over the bytes, with no hex rendering of their hash to join to the text.
 */
export function hashBytesSeeded(view: ArrayBufferView, seed: bigint): Fingerprint {
  const bytes = view instanceof Uint8Array ? view : new Uint8Array(view.buffer, view.byteOffset, view.byteLength);
  const h = h64Raw(bytes, seed);
  return (h === 0n ? 1n : h) as Fingerprint;
}

/** The bytes of a typed-array key as text (hex), for the exact debug mode. */
function bytesText(view: ArrayBufferView): string {
  const bytes = new Uint8Array(view.buffer, view.byteOffset, view.byteLength);
  let out = 'B';
  for (let i = 0; i < bytes.length; i++) out += (bytes[i] < 16 ? '0' : '') + bytes[i].toString(16);
  return out;
}

const memo = new WeakMap<object, string>();

/** Encodings up to this length stand inline in their parent's; longer ones by their hash. */
const INLINE_LIMIT = 64;

/**
 * How an object appears inside its parent's encoding, memoised by identity: its own encoding when
 * short (exact, and cheaper than hashing), else `#` and the 16 hex digits of its fingerprint.
 */
function objectToken(value: object): string {
  // A typed array (a model's numeric key) is often a view of a reused buffer: never memoised.
  if (ArrayBuffer.isView(value)) return `#${hashBytes(value).toString(16).padStart(16, '0')}`;
  const cached = memo.get(value);
  if (cached !== undefined) return cached;
  const text = encodeObject(value);
  const token = text.length <= INLINE_LIMIT ? text : `#${hashString(text).toString(16).padStart(16, '0')}`;
  memo.set(value, token);
  return token;
}

function encodeScalar(value: unknown): string {
  switch (typeof value) {
    case 'string':
      return JSON.stringify(value);
    case 'number':
      return Object.is(value, -0) ? '0' : String(value);
    case 'boolean':
      return value ? 't' : 'f';
    case 'undefined':
      return 'u';
    case 'bigint':
      return `${value}n`;
    case 'object':
      return value === null ? 'n' : objectToken(value);
    default:
      throw new TypeError(`cannot fingerprint a ${typeof value}`);
  }
}

function encodeObject(value: object): string {
  if (Array.isArray(value)) {
    let out = '[';
    for (let i = 0; i < value.length; i++) out += (i ? ',' : '') + encodeScalar(value[i]);
    return out + ']';
  }
  if (value instanceof Set) {
    return `S[${[...value].map(encodeScalar).sort().join(',')}]`;
  }
  if (value instanceof Map) {
    return `M[${[...value].map(([k, v]) => `${encodeScalar(k)}:${encodeScalar(v)}`).sort().join(',')}]`;
  }
  const record = value as Record<string, unknown>;
  const keys = Object.keys(record).sort();
  let out = '{';
  let first = true;
  for (let i = 0; i < keys.length; i++) {
    const k = keys[i];
    const v = record[k];
    if (v === undefined) continue; // an absent key and an undefined one are the same state
    out += `${first ? '' : ','}${JSON.stringify(k)}:${encodeScalar(v)}`;
    first = false;
  }
  return out + '}';
}

/** The canonical encoding of a value: what is hashed. Nested objects appear as their hashes. */
export function encode(value: unknown): string {
  return typeof value === 'string' ? value : encodeScalar(value);
}

/** The fingerprint of a value: a string is hashed as is, anything else through {@link encode}. */
export function fingerprint(value: unknown): Fingerprint {
  // A root object is hashed from its own encoding (it is new on every successor; no memo).
  if (typeof value === 'object' && value !== null) return ArrayBuffer.isView(value) ? hashBytes(value) : hashString(encodeObject(value));
  return hashString(encode(value));
}

/**
 * The encoding with no hashing of sub-objects: exact, for the debug mode that detects fingerprint
 * collisions (two different states, one fingerprint). Keys sorted, Sets and Maps by sorted
 * entries, at every depth.
 */
export function exactEncoding(value: unknown): string {
  if (typeof value === 'string') return value;
  if (ArrayBuffer.isView(value)) return bytesText(value);
  return exact(value);
}

function exact(value: unknown): string {
  if (typeof value !== 'object' || value === null) {
    if (typeof value === 'number' && !Number.isFinite(value)) return String(value); // NaN, ±Infinity: not JSON's null
    return typeof value === 'bigint' ? `${value}n` : value === undefined ? 'u' : (JSON.stringify(value) ?? 'u');
  }
  if (Array.isArray(value)) return `[${value.map(exact).join(',')}]`;
  if (value instanceof Set) return `S[${[...value].map(exact).sort().join(',')}]`;
  if (value instanceof Map) return `M[${[...value].map(([k, v]) => `${exact(k)}:${exact(v)}`).sort().join(',')}]`;
  const record = value as Record<string, unknown>;
  const parts: string[] = [];
  for (const k of Object.keys(record).sort()) {
    if (record[k] !== undefined) parts.push(`${JSON.stringify(k)}:${exact(record[k])}`);
  }
  return `{${parts.join(',')}}`;
}
