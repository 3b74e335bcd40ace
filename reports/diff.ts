/**
 * What changed in a step: a generic diff of two immutable states, as `path: before → after`
 * lines. Unchanged subtrees are skipped by identity first (immutable states share them), then by
 * value. Array elements that carry a string `name` or `id` are addressed by it
 * (`nodes[node-2].ready`) rather than by position, so a diff reads like the cluster it describes.
 *
 * Not handled: cycles (states are trees), class instances' hidden fields.
 */

import type { JsonValue } from '../checker/index.js';
import { inputText } from '../checker/escape.js';

/** One changed leaf (or a subtree that appeared or disappeared). */
export interface Change {
  /** `api.pods[db-0].nodeName`: keys joined, array elements by name when they have one. */
  readonly path: string;
  /** The same path as a list of keys (strings, or indices of unnamed array elements). */
  readonly keys: readonly (string | number)[];
  /** `set`: a value changed; `add`: the path appeared; `remove`: it is gone. */
  readonly op: 'set' | 'add' | 'remove';
  /** Rendering of the value before; `undefined` when the path is new. */
  readonly before?: string;
  /** Rendering of the value after; `undefined` when the path is gone. */
  readonly after?: string;
  /** The value before as JSON (sets as sorted lists, maps as objects, big integers as strings). */
  readonly from?: JsonValue;
  /** The value after as JSON. */
  readonly to?: JsonValue;
}

/** Longest rendering of one value on a diff line; objects are shown whole up to this. */
const MAX_VALUE = 400;

/** A value as JSON: sets as lists, maps as objects (or entry lists), big integers as strings. */
export function jsonOf(value: unknown): JsonValue {
  if (value === undefined || value === null) return null;
  if (typeof value === 'bigint') return `${value}`;
  if (typeof value === 'number' || typeof value === 'string' || typeof value === 'boolean') return value;
  if (value instanceof Set) return [...value].map(jsonOf);
  if (value instanceof Map) {
    const entries = [...value];
    return entries.every(([k]) => typeof k === 'string') ? Object.fromEntries(entries.map(([k, v]) => [k as string, jsonOf(v)])) : entries.map(([k, v]) => [jsonOf(k), jsonOf(v)]);
  }
  if (Array.isArray(value)) return value.map(jsonOf);
  if (typeof value === 'object') return Object.fromEntries(Object.entries(value as Record<string, unknown>).map(([k, v]) => [k, jsonOf(v)]));
  return String(value);
}

/**
 * Compact text of a value: strings bare, objects as `{key: value, ...}` without quotes. A string
 * or key that would not read as one token on one line (a newline, a control character, a
 * workflow command) is quoted (see `inputText`).
 */
function compact(value: unknown): string {
  if (typeof value === 'string') return inputText(value);
  if (typeof value === 'bigint') return `${value}`;
  if (value === undefined) return 'undefined';
  if (value === null || typeof value !== 'object') return JSON.stringify(value) ?? String(value);
  if (value instanceof Set) return `{${[...value].map(compact).join(', ')}}`;
  if (value instanceof Map) return `{${[...value].map(([k, v]) => `${compact(k)}: ${compact(v)}`).join(', ')}}`;
  if (Array.isArray(value)) return `[${value.map(compact).join(', ')}]`;
  return `{${Object.entries(value as Record<string, unknown>).map(([k, v]) => `${inputText(k)}: ${compact(v)}`).join(', ')}}`;
}

/**
 * A stable rendering of a value for one diff line: whole (an object that appears shows every
 * field, its name left to the path), cut only past 400 characters.
 */
export function renderValue(value: unknown): string {
  let shown = value;
  if (isRecord(value) && typeof (value.name ?? value.id) === 'string') {
    const { name: _n, id: _i, ...rest } = value;
    shown = rest;
  }
  const text = compact(shown);
  return text.length > MAX_VALUE ? `${text.slice(0, MAX_VALUE - 1)}…` : text;
}

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v) && !(v instanceof Set) && !(v instanceof Map);
}

function keyOf(item: unknown): string | undefined {
  if (!isRecord(item)) return undefined;
  const k = item.name ?? item.id;
  return typeof k === 'string' ? k : undefined;
}

/** Elements of an array keyed by name/id when every element has a distinct one, else by index. */
function entriesOf(xs: readonly unknown[]): Map<string | number, unknown> {
  const keys = xs.map(keyOf);
  const named = keys.every((k) => k !== undefined) && new Set(keys).size === keys.length;
  return new Map(xs.map((x, i) => [named ? (keys[i] as string) : i, x]));
}

/** Strings or numbers in strictly ascending order: how immutable states keep a set. */
function isSortedSet(xs: readonly unknown[]): boolean {
  for (let i = 0; i < xs.length; i++) {
    const t = typeof xs[i];
    if (t !== 'string' && t !== 'number') return false;
    if (i > 0 && !((xs[i - 1] as string | number) < (xs[i] as string | number))) return false;
  }
  return true;
}

function same(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return Number.isNaN(a) && Number.isNaN(b);
  return renderFull(a) === renderFull(b);
}

function renderFull(v: unknown): string {
  return JSON.stringify(v, (_k, x: unknown) =>
    x instanceof Set ? { $set: [...x] } : x instanceof Map ? { $map: [...x] } : typeof x === 'bigint' ? `${x}n` : x,
  );
}

function walk(path: string, keys: readonly (string | number)[], a: unknown, b: unknown, out: Change[]): void {
  if (a === b || same(a, b)) return;
  if (Array.isArray(a) && Array.isArray(b)) {
    if (a.length !== b.length && isSortedSet(a) && isSortedSet(b)) {
      // A sorted list of distinct names (running pods, taints) that grew or shrank reads as a
      // set: what joined and what left, not every position that shifted.
      for (const x of a) if (!b.includes(x)) out.push({ path, keys, op: 'remove', before: renderValue(x), from: jsonOf(x) });
      for (const x of b) if (!a.includes(x)) out.push({ path, keys, op: 'add', after: renderValue(x), to: jsonOf(x) });
      return;
    }
    const ea = entriesOf(a);
    const eb = entriesOf(b);
    const at = (k: string | number): string => `${path}[${typeof k === 'string' ? inputText(k) : k}]`;
    for (const [k, v] of ea) walk(at(k), [...keys, k], v, eb.get(k), out);
    for (const [k, v] of eb) if (!ea.has(k)) walk(at(k), [...keys, k], undefined, v, out);
    return;
  }
  if (isRecord(a) && isRecord(b)) {
    const at = (k: string): string => (path ? `${path}.${inputText(k)}` : inputText(k));
    for (const k of Object.keys(a)) walk(at(k), [...keys, k], a[k], b[k], out);
    for (const k of Object.keys(b)) if (!(k in a)) walk(at(k), [...keys, k], undefined, b[k], out);
    return;
  }
  out.push({
    path: path || '(state)',
    keys,
    op: a === undefined ? 'add' : b === undefined ? 'remove' : 'set',
    ...(a === undefined ? {} : { before: renderValue(a), from: jsonOf(a) }),
    ...(b === undefined ? {} : { after: renderValue(b), to: jsonOf(b) }),
  });
}

/** The changes from `before` to `after`, in the order of the state's keys. */
export function diffStates(before: unknown, after: unknown): Change[] {
  const out: Change[] = [];
  walk('', [], before, after, out);
  return out;
}

/**
 * One line per change: `path: a → b`, `path: + b` (appeared, every field shown) or `path: - a`
 * (gone). An object that disappears is shown as `removed` with the fields a reader needs to know
 * which one it was, not its whole content again.
 */
export function formatChange(c: Change): string {
  if (c.before === undefined) return `${c.path}: + ${c.after}`;
  if (c.after === undefined) return c.from !== null && typeof c.from === 'object' && !Array.isArray(c.from) ? `${c.path}: removed` : `${c.path}: - ${c.before}`;
  return `${c.path}: ${c.before} → ${c.after}`;
}
