/**
 * Traces programs read: the Informal Trace Format (ITF) of Apalache and Quint,
 * https://apalache-mc.org/docs/adr/015adr-trace.html.
 *
 * Each state is a record of the model's variables plus Quint's model-based-testing fields:
 * `mbt::actionTaken` (the action that led to the state; `init` for the first) and
 * `mbt::nondetPicks` (`{ param: {tag: "Some", value}}` or `{tag: "None"}`), so `kubecheck replay`
 * and other tools can re-execute the trace. Values are encoded per ITF: integers as JSON numbers
 * within ±(2^53−1) and `{"#bigint": "..."}` beyond, lists as arrays, records as objects, sets as
 * `{"#set": [...]}` (sorted), maps as `{"#map": [[k, v], ...]}`. `null` has no ITF form and is
 * written `{"#unserializable": "null"}`, as the ADR allows. Non-integer numbers are written as JSON
 * numbers (ITF has none; our models keep time in whole seconds).
 */
import type { ActionLabel, JsonValue, Trace } from '../checker/index.js';
import { fail, ToolErrorCode } from './errors.js';

export const ITF_DESCRIPTION = 'https://apalache-mc.org/docs/adr/015adr-trace.html';
export const ACTION_TAKEN = 'mbt::actionTaken';
export const NONDET_PICKS = 'mbt::nondetPicks';

/** An ITF value (JSON). */
export type ItfValue = JsonValue;

/** The `#meta` of a kubecheck trace. Fields beyond `format` are ours; other tools ignore them. */
export interface ItfMeta {
  readonly format: 'ITF';
  readonly 'format-description': string;
  readonly source: string;
  readonly description?: string;
  /** The model's name, e.g. `two-phase-commit(3)`. */
  readonly model?: string;
  readonly scenario?: string;
  /** The config in the form the model reads back (replay rebuilds the same model from it). */
  readonly config?: JsonValue;
  /** The property the trace violates or witnesses. */
  readonly property?: string;
  readonly status?: 'violated' | 'witnessed' | 'run';
  /** Index of the initial state among the model's initial states. */
  readonly initial?: number;
  readonly [key: string]: JsonValue | undefined;
}

export interface ItfTrace {
  readonly '#meta': ItfMeta;
  readonly vars: readonly string[];
  readonly states: readonly { readonly [key: string]: ItfValue }[];
}

const MAX_SAFE = BigInt(Number.MAX_SAFE_INTEGER);

function stableKey(v: ItfValue): string {
  return JSON.stringify(v);
}

/** Encodes a state value as ITF JSON. */
export function toItfValue(value: unknown): ItfValue {
  switch (typeof value) {
    case 'string':
    case 'boolean':
      return value;
    case 'number':
      if (Number.isInteger(value) && !Number.isSafeInteger(value)) return { '#bigint': BigInt(value).toString() };
      return value;
    case 'bigint':
      return value > MAX_SAFE || value < -MAX_SAFE ? { '#bigint': value.toString() } : Number(value);
    case 'undefined':
      return { '#unserializable': 'undefined' };
    case 'object': {
      if (value === null) return { '#unserializable': 'null' };
      if (Array.isArray(value)) return value.map(toItfValue);
      if (value instanceof Set) return { '#set': [...value].map(toItfValue).sort((a, b) => (stableKey(a) < stableKey(b) ? -1 : 1)) };
      if (value instanceof Map) {
        const entries = [...value].map(([k, v]) => [toItfValue(k), toItfValue(v)] as [ItfValue, ItfValue]);
        return { '#map': entries.sort((a, b) => (stableKey(a[0]) < stableKey(b[0]) ? -1 : 1)) };
      }
      const out: Record<string, ItfValue> = {};
      for (const [k, v] of Object.entries(value)) if (v !== undefined) out[k] = toItfValue(v);
      return out;
    }
    default:
      return { '#unserializable': String(value) };
  }
}

/** Decodes an ITF value (the inverse of {@link toItfValue} for JSON-shaped data). */
export function fromItfValue(value: ItfValue): unknown {
  if (Array.isArray(value)) return value.map(fromItfValue);
  if (value === null || typeof value !== 'object') return value;
  const rec = value as Record<string, ItfValue>;
  if ('#bigint' in rec) {
    const b = BigInt(rec['#bigint'] as string);
    return b > MAX_SAFE || b < -MAX_SAFE ? b : Number(b);
  }
  if ('#set' in rec) return new Set((rec['#set'] as ItfValue[]).map(fromItfValue));
  if ('#map' in rec) return new Map((rec['#map'] as [ItfValue, ItfValue][]).map(([k, v]) => [fromItfValue(k), fromItfValue(v)]));
  if ('#tup' in rec) return (rec['#tup'] as ItfValue[]).map(fromItfValue);
  if ('#unserializable' in rec) return rec['#unserializable'] === 'null' ? null : undefined;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(rec)) out[k] = fromItfValue(v);
  return out;
}

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v) && !(v instanceof Set) && !(v instanceof Map);
}

/** A state's ITF variables: a record state's own fields, anything else as one variable `state`. */
export function stateVars(state: unknown): Record<string, ItfValue> {
  if (isRecord(state)) return toItfValue(state) as Record<string, ItfValue>;
  return { state: toItfValue(state) };
}

function picks(action: ActionLabel | undefined): ItfValue {
  if (action === undefined || action.param === undefined) return { param: { tag: 'None', value: { '#tup': [] } } };
  return { param: { tag: 'Some', value: toItfValue(action.param) } };
}

/** Writes a trace as ITF; `meta` adds scenario, config, property and anything else to `#meta`. */
export function toItf<S>(trace: Trace<S>, meta: Omit<ItfMeta, 'format' | 'format-description' | 'source'> = {}): ItfTrace {
  const first = trace.states[0];
  const vars = [...Object.keys(stateVars(first)), ACTION_TAKEN, NONDET_PICKS];
  const states = trace.states.map((s, i) => {
    const action = i === 0 ? undefined : trace.actions[i - 1];
    return { '#meta': { index: i }, ...stateVars(s), [ACTION_TAKEN]: action ? action.name : 'init', [NONDET_PICKS]: picks(action) };
  });
  return {
    '#meta': {
      format: 'ITF',
      'format-description': ITF_DESCRIPTION,
      source: 'kubecheck',
      ...(trace.path.initial === 0 ? {} : { initial: trace.path.initial }),
      ...meta,
    },
    vars,
    states,
  };
}

/** An ITF trace read back: its meta, the labels to replay, and each state's variables. */
export interface ParsedItf {
  readonly meta: ItfMeta;
  readonly vars: readonly string[];
  readonly labels: readonly ActionLabel[];
  /** Each state's model variables (without `#meta` and `mbt::` fields), as written. */
  readonly states: readonly Record<string, ItfValue>[];
  readonly initial: number;
  /** The ITF `loop` field of a lasso: the last state equals `states[loop]`. */
  readonly loop?: number;
}

function notItf(why: string): never {
  fail(ToolErrorCode.notItf, `not an ITF trace: ${why}`);
}

/** Values nest at most this deep (a model's state is a few levels; a deeper file is not ours). */
const MAX_ITF_DEPTH = 1000;
/** A `#bigint` of more digits than this is no model's value (and costly to parse). */
const MAX_BIGINT_DIGITS = 1000;

function shortJson(v: unknown): string {
  const text = JSON.stringify(v) ?? String(v);
  return text.length > 40 ? `${text.slice(0, 37)}...` : text;
}

/**
 * Checks that `value` is well-formed ITF: `#bigint` a string of decimal digits, `#set` and `#tup`
 * lists, `#map` a list of [key, value] pairs, `#unserializable` a string; nested at most
 * {@link MAX_ITF_DEPTH} levels. Iterative, so no file overflows the stack. KC203 names where.
 */
export function checkItfValue(value: unknown, where: string): void {
  const todo: [unknown, number][] = [[value, 0]];
  while (todo.length > 0) {
    const [v, depth] = todo.pop()!;
    if (v === null || typeof v !== 'object') continue;
    if (depth >= MAX_ITF_DEPTH) notItf(`${where}: values nested more than ${MAX_ITF_DEPTH} levels deep`);
    if (Array.isArray(v)) {
      for (const x of v) todo.push([x, depth + 1]);
      continue;
    }
    const rec = v as Record<string, unknown>;
    if ('#bigint' in rec) {
      const b = rec['#bigint'];
      if (typeof b !== 'string' || !/^-?\d+$/.test(b)) notItf(`${where}: ${shortJson(v)} is not an integer ("#bigint" holds decimal digits, e.g. "-12")`);
      if (b.length > MAX_BIGINT_DIGITS + 1) notItf(`${where}: a "#bigint" of ${b.length} digits, more than ${MAX_BIGINT_DIGITS}`);
      continue;
    }
    if ('#set' in rec || '#tup' in rec) {
      const tag = '#set' in rec ? '#set' : '#tup';
      const list = rec[tag];
      if (!Array.isArray(list)) notItf(`${where}: ${shortJson(v)}: "${tag}" must hold a list`);
      for (const x of list) todo.push([x, depth + 1]);
      continue;
    }
    if ('#map' in rec) {
      const list = rec['#map'];
      if (!Array.isArray(list) || !list.every((e) => Array.isArray(e) && e.length === 2)) notItf(`${where}: ${shortJson(v)}: "#map" must hold a list of [key, value] pairs`);
      for (const x of list as unknown[][]) todo.push([x[0], depth + 1], [x[1], depth + 1]);
      continue;
    }
    if ('#unserializable' in rec) {
      if (typeof rec['#unserializable'] !== 'string') notItf(`${where}: ${shortJson(v)}: "#unserializable" must hold a string`);
      continue;
    }
    for (const x of Object.values(rec)) todo.push([x, depth + 1]);
  }
}

/**
 * One form per value, so equal values compare equal: a `#bigint` within ±(2^53−1) becomes a
 * number (the ITF ADR allows either), `#set` elements and `#map` entries are sorted. The value is
 * well-formed ({@link checkItfValue}).
 */
export function normaliseItf(value: ItfValue): ItfValue {
  if (Array.isArray(value)) return value.map(normaliseItf);
  if (value === null || typeof value !== 'object') return value;
  const rec = value as Record<string, ItfValue>;
  if (typeof rec['#bigint'] === 'string') {
    const b = BigInt(rec['#bigint']);
    return b > MAX_SAFE || b < -MAX_SAFE ? { '#bigint': b.toString() } : Number(b);
  }
  if (Array.isArray(rec['#set'])) {
    const items = rec['#set'].map(normaliseItf);
    return { '#set': items.map((x) => [canonicalItf(x), x] as const).sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0)).map((e) => e[1]) };
  }
  if (Array.isArray(rec['#map'])) {
    const entries = (rec['#map'] as ItfValue[][]).map((e) => [normaliseItf(e[0]), normaliseItf(e[1])]);
    return { '#map': entries.map((e) => [canonicalItf(e[0]), e] as const).sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0)).map((e) => e[1]) };
  }
  const out: Record<string, ItfValue> = {};
  for (const [k, v] of Object.entries(rec)) out[k] = normaliseItf(v);
  return out;
}

/** Parses ITF JSON text; throws KC203 saying what is missing or malformed. */
export function parseItf(text: string): ParsedItf {
  let doc: unknown;
  try {
    doc = JSON.parse(text);
  } catch (e) {
    notItf(`not JSON (${(e as Error).message})`);
  }
  if (!isRecord(doc)) notItf('the top level is not an object');
  const meta = doc['#meta'];
  if (!isRecord(meta)) notItf('no "#meta" object');
  for (const field of ['scenario', 'property', 'model'] as const) {
    if (meta[field] !== undefined && typeof meta[field] !== 'string') notItf(`"#meta.${field}" is not a string`);
  }
  if (meta.initial !== undefined && !(typeof meta.initial === 'number' && Number.isSafeInteger(meta.initial) && meta.initial >= 0)) {
    notItf('"#meta.initial" is not the index of an initial state');
  }
  if (!Array.isArray(doc.vars) || !doc.vars.every((v) => typeof v === 'string')) notItf('"vars" is not a list of names');
  if (!Array.isArray(doc.states) || doc.states.length === 0) notItf('"states" is not a non-empty list');
  const labels: ActionLabel[] = [];
  const states: Record<string, ItfValue>[] = [];
  doc.states.forEach((raw: unknown, i: number) => {
    if (!isRecord(raw)) notItf(`state ${i} is not an object`);
    checkItfValue(raw, `state ${i}`);
    const taken = raw[ACTION_TAKEN];
    if (i > 0) {
      if (typeof taken !== 'string') notItf(`state ${i} has no "${ACTION_TAKEN}" label, so it cannot be replayed`);
      labels.push(labelFrom(taken, raw[NONDET_PICKS], i));
    }
    const vars: Record<string, ItfValue> = {};
    for (const [k, v] of Object.entries(raw)) if (k !== '#meta' && !k.startsWith('mbt::')) vars[k] = v as ItfValue;
    states.push(vars);
  });
  const initial = typeof meta.initial === 'number' ? meta.initial : 0;
  const loop = (doc as { loop?: unknown }).loop;
  if (loop !== undefined && !(typeof loop === 'number' && Number.isSafeInteger(loop) && loop >= 0 && loop < states.length)) notItf('"loop" is not the index of one of its states');
  return { meta: meta as unknown as ItfMeta, vars: doc.vars as string[], labels, states, initial, ...(loop === undefined ? {} : { loop: loop as number }) };
}

/** True when a decoded value holds an integer beyond ±(2^53−1) (no action parameter is one). */
function holdsBigint(v: unknown): boolean {
  if (typeof v === 'bigint') return true;
  if (v instanceof Set) return [...v].some(holdsBigint);
  if (v instanceof Map) return [...v].some(([k, x]) => holdsBigint(k) || holdsBigint(x));
  if (typeof v === 'object' && v !== null) return Object.values(v).some(holdsBigint);
  return false;
}

function labelFrom(name: string, nondet: unknown, i: number): ActionLabel {
  if (nondet === undefined) return { name };
  if (!isRecord(nondet)) notItf(`state ${i}: "${NONDET_PICKS}" is not an object`);
  const p = nondet.param;
  if (p === undefined) return { name };
  if (!isRecord(p) || (p.tag !== 'Some' && p.tag !== 'None')) notItf(`state ${i}: "${NONDET_PICKS}.param" is not an Option ({tag, value})`);
  if (p.tag === 'None') return { name };
  const param = fromItfValue(p.value as ItfValue);
  if (holdsBigint(param)) {
    fail(ToolErrorCode.traceDiverges, `step ${i} (${name}) picks ${shortJson(p.value)}, an integer beyond ±(2^53−1) that no step of the model takes; the trace does not replay`);
  }
  return { name, param: param as JsonValue };
}

/** Canonical JSON of an ITF value with sorted keys: equal values, equal text. */
export function canonicalItf(value: ItfValue): string {
  return JSON.stringify(value, (_k, v: unknown) => {
    if (isRecord(v)) {
      const sorted: Record<string, unknown> = {};
      for (const k of Object.keys(v).sort()) sorted[k] = v[k];
      return sorted;
    }
    return v;
  });
}
