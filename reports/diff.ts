/**
 * What changed in a step: a generic diff of two immutable states, as `path: before → after`
 * lines. Unchanged subtrees are skipped by identity first (immutable states share them), then by
 * value. Array elements that carry a string `name` or `id` are addressed by it
 * (`nodes[node-2].ready`) rather than by position, so a diff reads like the cluster it describes.
 *
 * Not handled: cycles (states are trees), class instances' hidden fields.
 */

/** One changed leaf (or a subtree that appeared or disappeared). */
export interface Change {
  readonly path: string;
  /** Compact rendering of the value before; `undefined` when the path is new. */
  readonly before?: string;
  /** Compact rendering of the value after; `undefined` when the path is gone. */
  readonly after?: string;
}

const MAX_VALUE = 60;

/** A short, stable rendering of a value for one diff line. */
export function renderValue(value: unknown): string {
  let text: string;
  if (typeof value === 'string') text = value;
  else if (typeof value === 'bigint') text = `${value}`;
  else if (value instanceof Set) text = `{${[...value].map(renderValue).join(', ')}}`;
  else if (value instanceof Map) text = `{${[...value].map(([k, v]) => `${renderValue(k)}: ${renderValue(v)}`).join(', ')}}`;
  else if (value === undefined) text = 'undefined';
  else text = JSON.stringify(value, (_k, v: unknown) => (typeof v === 'bigint' ? `${v}` : v));
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
function entriesOf(xs: readonly unknown[]): Map<string, unknown> {
  const keys = xs.map(keyOf);
  const named = keys.every((k) => k !== undefined) && new Set(keys).size === keys.length;
  return new Map(xs.map((x, i) => [named ? (keys[i] as string) : String(i), x]));
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

function walk(path: string, a: unknown, b: unknown, out: Change[]): void {
  if (a === b || same(a, b)) return;
  if (Array.isArray(a) && Array.isArray(b)) {
    if (a.length !== b.length && isSortedSet(a) && isSortedSet(b)) {
      // A sorted list of distinct names (running pods, taints) that grew or shrank reads as a
      // set: what joined and what left, not every position that shifted.
      for (const x of a) if (!b.includes(x)) out.push({ path, before: renderValue(x) });
      for (const x of b) if (!a.includes(x)) out.push({ path, after: renderValue(x) });
      return;
    }
    const ea = entriesOf(a);
    const eb = entriesOf(b);
    for (const [k, v] of ea) walk(`${path}[${k}]`, v, eb.get(k), out);
    for (const [k, v] of eb) if (!ea.has(k)) walk(`${path}[${k}]`, undefined, v, out);
    return;
  }
  if (isRecord(a) && isRecord(b)) {
    for (const k of Object.keys(a)) walk(path ? `${path}.${k}` : k, a[k], b[k], out);
    for (const k of Object.keys(b)) if (!(k in a)) walk(path ? `${path}.${k}` : k, undefined, b[k], out);
    return;
  }
  out.push({
    path: path || '(state)',
    ...(a === undefined ? {} : { before: renderValue(a) }),
    ...(b === undefined ? {} : { after: renderValue(b) }),
  });
}

/** The changes from `before` to `after`, in the order of the state's keys. */
export function diffStates(before: unknown, after: unknown): Change[] {
  const out: Change[] = [];
  walk('', before, after, out);
  return out;
}

/** One line per change: `path: a → b`, `path: + b` (appeared) or `path: − a` (gone). */
export function formatChange(c: Change): string {
  if (c.before === undefined) return `${c.path}: + ${c.after}`;
  if (c.after === undefined) return `${c.path}: - ${c.before}`;
  return `${c.path}: ${c.before} → ${c.after}`;
}
