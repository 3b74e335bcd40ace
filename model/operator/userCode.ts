/**
 * The boundary between an operator's own code (its reconcile and hooks) and the model's states.
 *
 * States share their parts (a step copies only what it changes), so an object a reconcile reads
 * is, unless copied, the same object in its parent state, in the initial state and in every state
 * the search has stored. A reconcile that edits what it read, the habit of a Go controller that
 * mutates the object it got and then updates it, would then rewrite states already explored.
 * controller-runtime's cache reader hands out deep copies (`CacheReader.Get` / `List` copy the
 * informer's object unless told not to), so here too everything a reconcile reads is a copy it may
 * change at will: the change stays in the reconcile, as it stays in the Go process. What user code
 * returns (writes, memory) is copied back into plain JSON, refused with a code when it is not JSON
 * (a function, a cycle, a class instance, a number that is not finite), so no reference the code
 * keeps can reach a stored state either. Hooks handed a whole cluster state (a client's `writes`,
 * a property) get it deeply frozen: a change throws in strict code (every ES module) and is
 * ignored otherwise, and the state is never changed.
 */
import type { JsonValue } from '../../checker/index.js';
import { KubecheckError } from '../../checker/errors.js';
import { modelError, ModelErrorCode } from '../errors.js';

/** How deep user JSON may nest (deeper is refused with a code, not a stack overflow). */
const MAX_DEPTH = 200;

/** Sets `key` on a fresh plain object, `__proto__` included as an own property. */
function setOwn(out: Record<string, unknown>, key: string, value: unknown): void {
  if (key === '__proto__') Object.defineProperty(out, key, { value, enumerable: true, writable: true, configurable: true });
  else out[key] = value;
}

/** A deep copy of a JSON value held in a state: what user code may change without changing the state. */
export function copyOf<T>(value: T): T {
  if (value === null || typeof value !== 'object') return value;
  if (Array.isArray(value)) {
    const out = new Array<unknown>(value.length);
    for (let i = 0; i < value.length; i++) out[i] = copyOf(value[i]);
    return out as T;
  }
  const out: Record<string, unknown> = {};
  for (const k of Object.keys(value)) setOwn(out, k, copyOf((value as Record<string, unknown>)[k]));
  return out as T;
}

/**
 * A value user code returned, as plain JSON of its own (a copy): object properties left
 * undefined are dropped, as JSON drops them. Anything else that is not JSON is refused (KC110)
 * with `where` (`operator backup-operator: reconcile's result`) and the path to the bad value.
 */
export function jsonFrom(value: unknown, where: string): JsonValue {
  const ancestors: object[] = [];
  const bad = notJson(where);
  const walk = (v: unknown, path: string): JsonValue => {
    const o = jsonObject(v, path, ancestors, bad);
    if (o === undefined) return v as JsonValue;
    ancestors.push(o);
    try {
      if (Array.isArray(o)) return o.map((x, i) => walk(x, `${path}[${i}]`));
      const out: Record<string, JsonValue> = {};
      for (const k of Object.keys(o)) {
        const x = (o as Record<string, unknown>)[k];
        if (x !== undefined) setOwn(out, k, walk(x, path === '' ? k : `${path}.${k}`));
      }
      return out;
    } finally {
      ancestors.pop();
    }
  };
  return walk(value, '');
}

/** The refusal (KC110) of a value user code gave at `where` that is not JSON. */
function notJson(where: string): (path: string, why: string) => never {
  return (path, why) => modelError(ModelErrorCode.extensionFailed, `${where}${path === '' ? '' : ` at ${path}`} ${why}; it must be JSON (objects, arrays, strings, finite numbers, booleans, null)`);
}

/**
 * One node of user JSON: undefined for a scalar that is JSON, the object itself for an array or a
 * plain object to walk into; anything else (a function, a cycle, a class instance, a number that
 * is not finite, too deep a nesting) is refused through `bad`.
 */
function jsonObject(v: unknown, path: string, ancestors: readonly object[], bad: (path: string, why: string) => never): object | undefined {
  switch (typeof v) {
    case 'string':
    case 'boolean':
      return undefined;
    case 'number':
      return Number.isFinite(v) ? undefined : bad(path, `is ${String(v)}`);
    case 'undefined':
      return bad(path, 'is undefined');
    case 'function':
      return bad(path, 'is a function');
    case 'symbol':
    case 'bigint':
      return bad(path, `is a ${typeof v}`);
  }
  if (v === null) return undefined;
  const o = v as object;
  if (ancestors.includes(o)) return bad(path, 'holds a cycle (it contains itself)');
  if (ancestors.length >= MAX_DEPTH) return bad(path, `nests deeper than ${MAX_DEPTH} levels`);
  if (!Array.isArray(o)) {
    const proto = Object.getPrototypeOf(o) as unknown;
    if (proto !== Object.prototype && proto !== null) return bad(path, `is ${(o as { constructor?: { name?: string } }).constructor?.name ?? 'an object'} instance, not a plain object`);
  }
  return o;
}

/** Objects {@link checkedMemory} has found to be JSON throughout and frozen. */
const checkedJson = new WeakSet<object>();

/**
 * A memory a user's extension gave (its `initial`, `onTick`, a step's new state), checked to be
 * JSON and frozen in place, so that it can be fingerprinted and no later edit in place by the
 * extension can change a stored state (the edit throws, and is reported with its hook). Parts
 * checked before (shared with the parent state) cost nothing. Refused with KC110 naming `where`
 * and the path to the bad value, where it ended in an uncoded "cannot fingerprint a function" or
 * "Maximum call stack size exceeded".
 */
export function checkedMemory(value: unknown, where: string): JsonValue {
  const ancestors: object[] = [];
  const bad = notJson(where);
  const walk = (v: unknown, path: string): void => {
    if (v !== null && typeof v === 'object' && checkedJson.has(v)) return;
    const o = jsonObject(v, path, ancestors, bad);
    if (o === undefined) return;
    ancestors.push(o);
    if (Array.isArray(o)) for (let i = 0; i < o.length; i++) walk(o[i], `${path}[${i}]`);
    else for (const k of Object.keys(o)) {
      const x = (o as Record<string, unknown>)[k];
      if (x !== undefined) walk(x, path === '' ? k : `${path}.${k}`);
    }
    ancestors.pop();
    Object.freeze(o);
    checkedJson.add(o);
  };
  walk(value, '');
  return value as JsonValue;
}

/** Extensions the model builds itself (an `operator(...)`): their memories are the model's own JSON, not checked again. */
export const modelBuiltExtensions = new WeakSet<object>();

/**
 * `value` deeply frozen, in place. A part already frozen is taken as frozen throughout (this
 * module freezes whole subtrees only), so a state whose parts were frozen with its parent costs
 * only its new parts.
 */
export function deepFreeze<T>(value: T): T {
  if (value === null || typeof value !== 'object' || Object.isFrozen(value) || ArrayBuffer.isView(value)) return value;
  Object.freeze(value);
  for (const k of Object.keys(value)) deepFreeze((value as Record<string, unknown>)[k]);
  return value;
}

/** What user code threw, in a few words, whatever it is. */
export function thrownWords(e: unknown): string {
  try {
    if (e instanceof Error) {
      const message = String(e.message).split('\n')[0];
      return message === '' ? e.name : e.name === 'Error' ? message : `${e.name}: ${message}`;
    }
    if (typeof e === 'string') return JSON.stringify(e.slice(0, 200));
    if (e === null || typeof e !== 'object') return String(e);
    const message = (e as { message?: unknown }).message;
    return typeof message === 'string' && message !== '' ? message.split('\n')[0] : Object.prototype.toString.call(e);
  } catch {
    return 'a value that cannot be shown';
  }
}

/**
 * Where the process is in user code, for a bound on how long one call may run (the command line's
 * `cli/userCodeBound.ts`): `calls[0]` changes at every entry into and return from user code,
 * `calls[1]` is how many such calls are under way (nested ones included), `where` the innermost.
 * A watchdog thread reads `calls` when it is shared memory; the writes cost a few nanoseconds a
 * call and nothing else.
 */
export const userCodeClock: { calls: Int32Array; where: string | undefined } = { calls: new Int32Array(2), where: undefined };

/**
 * Runs one call into user code: what it throws becomes one coded line (KC110) naming the
 * operator and the hook; the model's own coded errors and the errors in `passThrough` go on as
 * they are. The call is known to {@link userCodeClock} while it runs.
 */
export function userCall<R>(where: string, f: () => R, passThrough?: (e: unknown) => boolean): R {
  const clock = userCodeClock;
  const outer = clock.where;
  const calls = clock.calls;
  clock.where = where;
  calls[0]++;
  calls[1]++;
  try {
    return f();
  } catch (e) {
    if (e instanceof KubecheckError || passThrough?.(e) === true) throw e;
    const overflow = e instanceof RangeError && /call stack/i.test(e.message);
    return modelError(ModelErrorCode.extensionFailed, `${where} threw: ${overflow ? 'RangeError: Maximum call stack size exceeded (unbounded recursion?)' : thrownWords(e)}`);
  } finally {
    calls[1]--;
    calls[0]++;
    clock.where = outer;
  }
}

/**
 * `value` (a property, a liveness property) with each of its functions run through
 * {@link userCall} as `<where>'s <function>` and given its arguments deeply frozen: a predicate
 * can neither change the state it reads nor end the check with an uncoded error.
 */
export function guardedHooks<T extends object>(value: T, where: string): T {
  const out: Record<string, unknown> = {};
  for (let o: object | null = value; o !== null && o !== Object.prototype; o = Object.getPrototypeOf(o) as object | null) {
    for (const k of Object.getOwnPropertyNames(o)) {
      if (k === 'constructor' || k in out) continue;
      const v = (value as Record<string, unknown>)[k];
      out[k] = typeof v === 'function' ? (...args: unknown[]) => userCall(`${where}'s ${k}`, () => (v as (...a: unknown[]) => unknown).apply(value, args.map(deepFreeze))) : v;
    }
  }
  return out as T;
}
