/**
 * Reading what the user typed: config files (YAML or JSON), `--set key=value` pairs, counts and
 * durations for bounds. Each bad input fails at once with a code and one line naming it.
 */
import { closeSync, constants, fstatSync, openSync, readSync, statSync, type Stats } from 'node:fs';
import { isAlias, isMap, isScalar, LineCounter, parseDocument, visit } from 'yaml';
import { ModelErrorCode, modelError } from '../model/errors.js';
import { fail, KubecheckError, ToolErrorCode } from '../reports/errors.js';
import { durationSeconds } from '../model/duration.js';
import { nestingDepth } from '../model/resolve.js';

/** Config files are a few dozen parameters; anything much larger is not one (and would be slow to parse). */
export const MAX_CONFIG_BYTES = 1024 * 1024;
/** Trace files hold long traces, but a JavaScript string holds at most about 512 MiB. */
export const MAX_TRACE_BYTES = 256 * 1024 * 1024;
/** Parameters are at most three levels deep (kubeControllerManager.leaderElection.leaseDuration). */
const MAX_CONFIG_DEPTH = 16;

function size(bytes: number): string {
  return bytes >= 1024 * 1024 ? `${(bytes / 1024 / 1024).toFixed(1)} MiB` : `${Math.ceil(bytes / 1024)} KiB`;
}

/** What a file-system entry is, in words, for a refusal. */
export function kindOf(st: Stats): string {
  if (st.isFile()) return 'a regular file';
  if (st.isDirectory()) return 'a folder';
  if (st.isFIFO()) return 'a named pipe (FIFO)';
  if (st.isCharacterDevice()) return 'a character device';
  if (st.isBlockDevice()) return 'a block device';
  if (st.isSocket()) return 'a socket';
  return 'not a regular file';
}

/** Why opening or reading a file failed, in words. */
function readReason(e: unknown): string {
  const code = (e as NodeJS.ErrnoException | null)?.code;
  switch (code) {
    case 'ENOENT':
      return 'no such file';
    case 'EISDIR':
      return 'it is a directory';
    case 'EACCES':
    case 'EPERM':
      return 'permission denied';
    case 'ENOTDIR':
      return 'a part of the path is not a directory';
    case 'ELOOP':
      return 'a loop of symbolic links';
    case 'ENAMETOOLONG':
      return 'the name is too long';
    default:
      return String((e as Error | null)?.message ?? e).split('\n')[0];
  }
}

/**
 * Checks, before anything opens it, that `path` is a regular file (a symbolic link is followed)
 * of at most `maxBytes`: a FIFO, a device such as /dev/zero or a socket would block the open or
 * never end. KC201 naming what it is.
 */
export function checkRegularFile(path: string, what: string, maxBytes: number, verb: 'read' | 'load' = 'read'): Stats {
  if (path === '') fail(ToolErrorCode.unreadableFile, `the ${what} name is empty`);
  let st: Stats;
  try {
    st = statSync(path);
  } catch (e) {
    return fail(ToolErrorCode.unreadableFile, `cannot ${verb} ${what} ${shortName(path, 200)}: ${readReason(e)}`);
  }
  if (st.isDirectory()) fail(ToolErrorCode.unreadableFile, `cannot ${verb} ${what} ${shortName(path, 200)}: it is a directory`);
  if (!st.isFile()) fail(ToolErrorCode.unreadableFile, `cannot ${verb} ${what} ${shortName(path, 200)}: not a regular file but ${kindOf(st)}; give a file`);
  if (st.size > maxBytes) fail(ToolErrorCode.unreadableFile, `${what} ${shortName(path, 200)} is ${size(st.size)}, more than the ${size(maxBytes)} a ${what} can be`);
  return st;
}

/**
 * Reads a regular file as text; KC201 when it cannot be read, is not a regular file (a folder, a
 * FIFO that would block the open, a device such as /dev/zero that never ends) or is larger than
 * `maxBytes`. The type is checked before the open, the open does not block (a file swapped for a
 * FIFO in between is refused too), and no more than `maxBytes` are read, whatever the file grows to.
 */
export function readText(path: string, what: string, maxBytes: number = MAX_TRACE_BYTES): string {
  checkRegularFile(path, what, maxBytes);
  let fd: number | undefined;
  try {
    fd = openSync(path, constants.O_RDONLY | (constants.O_NONBLOCK ?? 0));
    const st = fstatSync(fd);
    if (!st.isFile()) fail(ToolErrorCode.unreadableFile, `cannot read ${what} ${shortName(path, 200)}: not a regular file but ${kindOf(st)}; give a file`);
    if (st.size > maxBytes) fail(ToolErrorCode.unreadableFile, `${what} ${shortName(path, 200)} is ${size(st.size)}, more than the ${size(maxBytes)} a ${what} can be`);
    const chunks: Buffer[] = [];
    let total = 0;
    const chunk = Buffer.allocUnsafe(Math.min(maxBytes + 1, 1024 * 1024));
    for (;;) {
      const n = readSync(fd, chunk, 0, Math.min(chunk.length, maxBytes + 1 - total), null);
      if (n === 0) break;
      chunks.push(Buffer.from(chunk.subarray(0, n)));
      total += n;
      if (total > maxBytes) fail(ToolErrorCode.unreadableFile, `${what} ${shortName(path, 200)} is more than the ${size(maxBytes)} a ${what} can be`);
    }
    return Buffer.concat(chunks, total).toString('utf8');
  } catch (e) {
    if (e instanceof KubecheckError) throw e;
    return fail(ToolErrorCode.unreadableFile, `cannot read ${what} ${shortName(path, 200)}: ${readReason(e)}`);
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}

/**
 * Keys that name JavaScript's own objects rather than data: written through, `__proto__` changes
 * the prototype of every object (and so options nobody set), `constructor.prototype` too. No
 * parameter, section or Kubernetes field the model reads has one of these names.
 */
export const FORBIDDEN_KEYS: ReadonlySet<string> = new Set(['__proto__', 'constructor', 'prototype']);

/** A name as a message shows it: whole when short, else its start and its length. */
export function shortName(name: string, max = 60): string {
  return name.length <= max ? name : `${name.slice(0, max - 3)}... (${name.length.toLocaleString('en-US')} characters)`;
}

/**
 * Longer than any parameter's dotted key (the longest is under 70 characters): a key this long
 * is no parameter, and is refused without the edit distances of "did you mean" (quadratic in
 * its length: a 100,000-character key took most of a minute).
 */
export const MAX_KEY_LENGTH = 200;

/** Refuses (KC102) a key of a kubecheck config or a `--set` longer than {@link MAX_KEY_LENGTH}. */
export function refuseLongKey(key: string, where: string): void {
  if (key.length <= MAX_KEY_LENGTH) return;
  modelError(ModelErrorCode.unknownParameter, `unknown parameter "${shortName(key)}" (${where}): no parameter is longer than ${MAX_KEY_LENGTH} characters; kubecheck list parameters lists them`);
}

/** Refuses (KC109) one key of user data that is `__proto__`, `constructor` or `prototype`. */
export function refuseForbiddenKey(key: string, at: string, where: string): void {
  if (!FORBIDDEN_KEYS.has(key)) return;
  modelError(ModelErrorCode.forbiddenKey, `${where}: the key "${key}"${at === key ? '' : ` (at ${shortName(at)})`} is refused: __proto__, constructor and prototype name JavaScript's own objects, not parameters or Kubernetes fields`);
}

/**
 * Refuses (KC109) parsed user data (a config file, a Kubernetes object, a trace's `#meta`) that
 * holds a key `__proto__`, `constructor` or `prototype` at any depth, without recursion.
 */
export function refuseForbiddenKeys(value: unknown, where: string, options: { readonly parameterKeys?: boolean } = {}): void {
  const todo: [unknown, string][] = [[value, '']];
  while (todo.length > 0) {
    const [v, path] = todo.pop()!;
    if (v === null || typeof v !== 'object') continue;
    if (Array.isArray(v)) {
      for (let i = v.length - 1; i >= 0; i--) todo.push([v[i], `${path}[${i}]`]);
      continue;
    }
    const o = v as Record<string, unknown>;
    for (const k of Object.keys(o)) {
      const at = path === '' ? k : `${path}.${k}`;
      refuseForbiddenKey(k, at, where);
      if (options.parameterKeys) refuseLongKey(at, where);
      todo.push([o[k], at.length > 200 ? `${at.slice(0, 200)}...` : at]);
    }
  }
}

/**
 * Reads a trace file (see {@link readText}); a trace holding a key `__proto__`, `constructor`
 * or `prototype` anywhere (in its `#meta.config`, in a state) is refused (KC109). The text is
 * parsed for that only when such a name or an escape could spell one.
 */
export function readTraceText(path: string): string {
  const text = readText(path, 'trace file');
  if (/__proto__|constructor|prototype|\\u/.test(text)) {
    let doc: unknown;
    try {
      doc = JSON.parse(text);
    } catch {
      return text; // not JSON: the ITF reader names the problem
    }
    refuseForbiddenKeys(doc, path);
  }
  return text;
}

/** Line number (1-based) of `offset` in `text`. */
function lineOf(text: string, offset: number): number {
  let line = 1;
  for (let i = 0; i < offset && i < text.length; i++) if (text.charCodeAt(i) === 10) line++;
  return line;
}

/**
 * The first key that appears twice in one object of a JSON text (JSON.parse keeps the last one
 * silently; YAML refuses it), with its line; linear in the text. The text is valid JSON.
 */
export function duplicateJsonKey(text: string): { key: string; line: number } | undefined {
  const stack: ({ keys: Set<string>; expectKey: boolean } | undefined)[] = [];
  for (let i = 0; i < text.length; i++) {
    const ch = text[i];
    if (ch === '{') stack.push({ keys: new Set(), expectKey: true });
    else if (ch === '[') stack.push(undefined);
    else if (ch === '}' || ch === ']') stack.pop();
    else if (ch === ',') {
      const top = stack[stack.length - 1];
      if (top) top.expectKey = true;
    } else if (ch === '"') {
      const start = i;
      for (i++; i < text.length && text[i] !== '"'; i++) if (text[i] === '\\') i++;
      const top = stack[stack.length - 1];
      if (top?.expectKey) {
        const key = JSON.parse(text.slice(start, i + 1)) as string;
        if (top.keys.has(key)) return { key, line: lineOf(text, start) };
        top.keys.add(key);
        top.expectKey = false;
      }
    }
  }
  return undefined;
}

/** Parses YAML strictly: errors and warnings refused, keys unique (checked in linear time), numbers in decimal. */
function parseYamlConfig(path: string, text: string): unknown {
  const bad = (why: string): never => fail(ToolErrorCode.malformedConfig, `${path} is not valid YAML: ${why}`);
  const lines = new LineCounter();
  try {
    // logLevel 'error' (not 'silent'): a second document (text after `...` or `---`) is an error, not dropped.
    const doc = parseDocument(text, { uniqueKeys: false, logLevel: 'error', prettyErrors: false, lineCounter: lines });
    const at = (range: readonly number[] | null | undefined): string => {
      if (!range) return '';
      const { line, col } = lines.linePos(range[0]);
      return ` at line ${line}, column ${col}`;
    };
    const problem = doc.errors[0] ?? doc.warnings[0];
    if (problem && /call stack/i.test(problem.message)) bad('nested too deeply (parameters are at most 3 levels deep)');
    if (problem?.code === 'MULTIPLE_DOCS') bad(`a second document starts${at(problem.pos)} (after a --- or ... marker); a config file holds one mapping of parameters`);
    if (problem) bad(`${problem.message.split('\n')[0].replace(/:$/, '')}${at(problem.pos)}`);
    /** Tags whose values are no parameter's: a set, ordered map, pairs, binary data, a timestamp. */
    const foreign = (tag: string | undefined, range: readonly number[] | null | undefined): void => {
      const m = tag === undefined ? null : /^tag:yaml\.org,2002:(set|omap|pairs|binary|timestamp)$/.exec(tag);
      if (m) bad(`!!${m[1]}${at(range)} is not a value of any parameter; write a mapping, a list, a string, a number or a boolean`);
    };
    visit(doc, {
      Seq(_key, seq) {
        foreign(seq.tag, seq.range);
      },
      Map(_key, map) {
        foreign(map.tag, map.range);
        const seen = new Set<string>();
        for (const item of map.items) {
          const k: unknown = item.key;
          if (!isScalar(k)) return bad(`a key must be a name, not ${isAlias(k) ? `an alias (*${String(k.source)})` : isMap(k) ? 'a mapping' : 'a list'}${at((k as { range?: number[] } | null)?.range)}`);
          const key = String(k.value);
          if (seen.has(key)) bad(`duplicate key "${key}"${at(k.range)}`);
          seen.add(key);
        }
      },
      Scalar(_key, node) {
        foreign(node.tag, node.range);
        if (typeof node.value === 'number' && !Number.isFinite(node.value)) {
          bad(`${text.slice(node.range?.[0] ?? 0, node.range?.[1] ?? 0).trim()} is ${Number.isNaN(node.value) ? 'not a number (NaN)' : 'infinite'}; every parameter takes a finite value${at(node.range)}`);
        }
        if (node.format === 'HEX' || node.format === 'OCT') {
          bad(`${text.slice(node.range?.[0] ?? 0, node.range?.[1] ?? 0)} is ${node.format === 'HEX' ? 'a hexadecimal' : 'an octal'} number; write numbers in decimal${at(node.range)}`);
        }
      },
    });
    return doc.toJS({ maxAliasCount: 100 });
  } catch (e) {
    if (e instanceof KubecheckError) throw e;
    if (e instanceof RangeError) bad(`nested too deeply (parameters are at most 3 levels deep)`);
    return bad((e as Error).message.split('\n')[0].replace(/:$/, ''));
  }
}

/**
 * Parses a config file: JSON when it ends in `.json`, else YAML (a superset of JSON). KC202 names
 * the line: invalid syntax, a duplicate key, a hexadecimal or octal number, a nesting deeper than
 * any parameter. At most {@link MAX_CONFIG_BYTES}.
 */
export function readConfigFile(path: string): unknown {
  const text = readText(path, 'config file', MAX_CONFIG_BYTES);
  let value: unknown;
  if (path.endsWith('.json')) {
    try {
      value = JSON.parse(text);
    } catch (e) {
      fail(ToolErrorCode.malformedConfig, `${path} is not valid JSON: ${(e as Error).message}`);
    }
    const dup = duplicateJsonKey(text);
    if (dup) fail(ToolErrorCode.malformedConfig, `${path} is not valid JSON for a config: duplicate key "${dup.key}" at line ${dup.line} (JSON.parse would keep only the last one)`);
  } else {
    value = parseYamlConfig(path, text);
  }
  if (value === null || value === undefined) return {};
  if (typeof value !== 'object' || Array.isArray(value)) fail(ToolErrorCode.malformedConfig, `${path} must be a mapping of parameters (key: value), not a ${Array.isArray(value) ? 'list' : typeof value}`);
  if (nestingDepth(value, MAX_CONFIG_DEPTH) > MAX_CONFIG_DEPTH) fail(ToolErrorCode.malformedConfig, `${path} is nested more than ${MAX_CONFIG_DEPTH} levels deep; parameters are at most 3 levels deep (e.g. kubeControllerManager.leaderElection.leaseDuration)`);
  refuseForbiddenKeys(value, path, { parameterKeys: true });
  return value;
}

/**
 * Collects repeated `--set key=value` options into a record without a prototype (a key such as
 * `__proto__.force` is refused, KC109, before anything reads it).
 */
export function collectSet(pair: string, previous: Record<string, string> = Object.create(null) as Record<string, string>): Record<string, string> {
  const eq = pair.indexOf('=');
  if (eq <= 0) fail(ToolErrorCode.badOption, `--set expects key=value (e.g. kubeControllerManager.nodeMonitorGracePeriod=40s), got "${shortName(pair)}"`);
  const key = pair.slice(0, eq).trim();
  refuseLongKey(key, '--set');
  for (const part of key.split('.')) refuseForbiddenKey(part, key, '--set');
  const out = Object.assign(Object.create(null) as Record<string, string>, previous);
  out[key] = pair.slice(eq + 1).trim();
  return out;
}

/** Collects a repeatable option into a list (`--property a,b` too); an empty id is refused, not ignored. */
export function collectList(value: string, previous: string[] = []): string[] {
  const ids = value.split(',').map((v) => v.trim());
  if (ids.some((id) => id === '')) fail(ToolErrorCode.badOption, `expected a comma-separated list of ids, got "${value}" (an empty id)`);
  return [...previous, ...ids];
}

/**
 * A count as people write it: decimal digits, `_` between groups (`1_000_000`) or a power of ten
 * (`1e6`); not hexadecimal, not a fraction. KC200 names the option; too large to count exactly
 * (`1e21`) is refused too.
 */
function parseCount(name: string, value: string, least: number): number {
  const t = value.trim();
  const what = least > 0 ? 'a positive integer' : 'a non-negative integer';
  if (!/^\d+(_\d+)*$/.test(t) && !/^\d+(\.\d+)?e\+?\d+$/i.test(t)) {
    fail(ToolErrorCode.badOption, `${name} must be ${what}${/^0[xob]/i.test(t) ? ' in decimal' : ''}, got "${value}"`);
  }
  const n = Number(t.replace(/_/g, ''));
  if (!Number.isInteger(n) || n < least) fail(ToolErrorCode.badOption, `${name} must be ${what}, got "${value}"`);
  if (!Number.isSafeInteger(n)) fail(ToolErrorCode.badOption, `${name} must be at most ${Number.MAX_SAFE_INTEGER}, got "${value}"`);
  return n;
}

/** A positive integer option (`--max-states 1e6` and `1_000_000` accepted; `0x10`, `1e21` refused). */
export function positiveInt(name: string): (value: string) => number {
  return (value: string) => parseCount(name, value, 1);
}

/** A non-negative integer option (seeds). */
export function nonNegativeInt(name: string): (value: string) => number {
  return (value: string) => parseCount(name, value, 0);
}

/** The longest bound accepted: a year of wall-clock time is more than any search is given. */
const MAX_BOUND_SECONDS = 365 * 24 * 3600;

/**
 * Parses a wall-clock bound of the command line (`--time-limit 90s`, `5m`, `1h30m`) to seconds,
 * with the parameters' duration syntax; refuses a bare number, a negative one, zero, more than a year.
 */
export function parseTimeLimit(name: string, text: string): number {
  const t = text.trim();
  const shown = t.length > 24 ? `${t.slice(0, 20)}...` : text;
  if (t.startsWith('-')) fail(ToolErrorCode.badOption, `${name} must not be negative, got "${shown}"`);
  if (/^\d+(\.\d+)?$/.test(t)) fail(ToolErrorCode.badOption, `${name} needs a unit (e.g. ${shown}s or ${shown}m), got "${shown}"`);
  const total = durationSeconds(t);
  if (total === undefined) fail(ToolErrorCode.badOption, `${name} must be a duration such as 30s, 5m or 1h30m, got "${shown}"`);
  if (t.length === 0 || total <= 0) fail(ToolErrorCode.badOption, `${name} must be a positive duration such as 30s or 5m, got "${shown}"`);
  if (!(total <= MAX_BOUND_SECONDS)) fail(ToolErrorCode.badOption, `${name} must be at most a year (8760h), got "${shown}"`);
  return total;
}

/** Collects a repeatable option whose values are file names (kept whole: a name may hold a comma). */
export function collectPath(value: string, previous: string[] = []): string[] {
  if (value === '') fail(ToolErrorCode.badOption, 'expected a file name, got an empty one');
  return [...previous, value];
}
