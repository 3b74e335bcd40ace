/**
 * `--extension FILE`: a user's own controllers, loaded from their module (TypeScript runs through
 * tsx, as kubecheck itself does). A module gives its extensions as its default export or as named
 * exports: a `ClusterExtension` or a list of them.
 */
import { readFileSync, statSync, type Stats } from 'node:fs';
import { createHash } from 'node:crypto';
import { dirname, isAbsolute, join, relative, resolve, sep } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { ClusterExtension } from '../model/index.js';
import { fail, KubecheckError, ToolErrorCode } from '../reports/errors.js';
import { checkRegularFile, kindOf, refuseForbiddenKey, refuseForbiddenKeys, refuseLongKey, shortName } from './input.js';
import type { JsonValue } from '../checker/index.js';
import { ensureTypeScriptLoader } from '../checker/typescriptLoader.js';
import type { ExtensionModuleRecord } from '../reports/outcome.js';

/** An extension is a module of source code; a file larger than this is not one. */
export const MAX_EXTENSION_BYTES = 16 * 1024 * 1024;

/**
 * How long loading one extension may take (a top-level await that never settles would otherwise
 * end the process with nothing checked); `KUBECHECK_EXTENSION_TIMEOUT` (seconds) changes it.
 */
export function extensionLoadTimeoutMs(): number {
  const env = Number(process.env.KUBECHECK_EXTENSION_TIMEOUT);
  return Number.isFinite(env) && env > 0 ? env * 1000 : 30_000;
}

/** What a module threw, in a few words, whatever it is (null, a symbol, an object whose getters throw). */
export function describeThrown(e: unknown): string {
  try {
    if (e instanceof Error) {
      const message = String(e.message).split('\n')[0];
      return message === '' ? e.name : e.name === 'Error' ? message : `${e.name}: ${message}`;
    }
    if (typeof e === 'symbol') return `threw ${e.toString()}`;
    if (e === null || e === undefined || typeof e !== 'object') return `threw ${typeof e === 'string' ? JSON.stringify(e.slice(0, 200)) : String(e)}`;
    const message = (e as { message?: unknown }).message;
    if (typeof message === 'string' && message !== '') return message.split('\n')[0];
    return `threw ${Object.prototype.toString.call(e)}`;
  } catch {
    return 'threw a value that cannot be shown';
  }
}

/** Thrown by `process.exit` while an extension loads, so that the module's evaluation stops there. */
class ExitDuringLoad extends Error {
  constructor(readonly exitCode: unknown) {
    super('process.exit called while loading');
  }
}

/** What a user's module is to the command line: the word its messages use, and their code. */
export interface ModuleKind {
  /** `extension` or `model`. */
  readonly noun: string;
  readonly code: ToolErrorCode;
}

const EXTENSION: ModuleKind = { noun: 'extension', code: ToolErrorCode.extensionFailed };

/**
 * Imports one module with a time bound, `process.exit` made to throw while it evaluates (an
 * extension or a model must not end the check), and anything it throws turned into one coded line
 * (KC215 for an extension).
 */
export async function importBounded(p: string, href: string, kind: ModuleKind = EXTENSION): Promise<Record<string, unknown>> {
  const { noun, code } = kind;
  const exit = process.exit;
  let timer: NodeJS.Timeout | undefined;
  const ms = extensionLoadTimeoutMs();
  process.exit = ((code?: unknown) => {
    throw new ExitDuringLoad(code);
  }) as typeof process.exit;
  try {
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new KubecheckError(code, `${noun} ${p} did not finish loading within ${ms / 1000} s (a top-level await that never settles?); nothing was checked`)), ms);
    });
    return (await Promise.race([import(href), timeout])) as Record<string, unknown>;
  } catch (e) {
    if (e instanceof KubecheckError) throw e;
    if (e instanceof ExitDuringLoad) fail(code, `${noun} ${p} called process.exit(${describeCode(e.exitCode)}) while loading; ${noun === 'extension' ? 'an' : 'a'} ${noun} must not end the check, nothing was checked`);
    const err = e as NodeJS.ErrnoException | null;
    let notFound = false;
    try {
      notFound = err?.code === 'ERR_MODULE_NOT_FOUND' && String(err.message).includes(href.replace(/^file:\/\//, ''));
    } catch {
      notFound = false;
    }
    if (notFound) fail(ToolErrorCode.unreadableFile, `cannot load ${noun} ${p}: no such file`);
    // A .ts or .tsx file loads as an ES module whatever its package.json says (the checker's
    // module hook): CommonJS's require and module.exports are not defined there.
    if (/\.tsx?$/.test(p) && /\b(require|module|exports) is not defined in ES module scope/.test(describeThrown(e))) {
      fail(code, `${noun} ${p} failed while loading: ${describeThrown(e)}; a .ts ${noun} loads as an ES module: write it with import and export`);
    }
    return fail(code, `${noun} ${p} failed while loading: ${describeThrown(e)}`);
  } finally {
    clearTimeout(timer);
    process.exit = exit;
  }
}

function describeCode(code: unknown): string {
  return code === undefined ? '' : typeof code === 'number' || typeof code === 'string' ? String(code).slice(0, 20) : typeof code;
}

/** Static `import ... from './x'`, `import './x'`, `export ... from './x'`, `import('./x')` and `require('./x')` with a relative path. */
const LOCAL_IMPORT = /(?:\bfrom\s*|\bimport\s*\(?\s*|\brequire\s*\(\s*)(['"])(\.{1,2}\/[^'"\n]*)\1/g;
/** The files one extension may pull in by relative paths before loading is refused as too large a graph to check. */
const MAX_LOCAL_IMPORTS = 500;

/**
 * Checks every file an extension imports by a relative path, transitively, the way the
 * extension itself is checked (a regular file of bounded size), before anything is imported.
 * TypeScript's `./x.js` for `./x.ts` and extensionless paths are tried as tsx resolves them; a
 * path that resolves to nothing is left to the loader's own error. Returns the files found, the
 * entry first, in the order they were found.
 */
export function checkLocalImports(entry: string, shown: string, noun = 'extension'): string[] {
  const seen = new Set<string>([entry]);
  const queue = [entry];
  while (queue.length > 0 && seen.size <= MAX_LOCAL_IMPORTS) {
    const file = queue.shift() as string;
    let text: string;
    try {
      text = readFileSync(file, 'utf8');
    } catch {
      continue; // the loader says why
    }
    for (const m of text.matchAll(LOCAL_IMPORT)) {
      const base = resolve(dirname(file), m[2]);
      const candidates = [base, base.replace(/\.([cm]?)js$/, '.$1ts'), `${base}.ts`, `${base}.js`, `${base}.mjs`, join(base, 'index.ts'), join(base, 'index.js')];
      let st: Stats | undefined;
      const target = candidates.find((c) => {
        try {
          st = statSync(c);
          return !st.isDirectory();
        } catch {
          return false;
        }
      });
      if (target === undefined || st === undefined || seen.has(target)) continue;
      seen.add(target);
      const where = `${m[2]}, imported by ${file === entry ? `${noun} ${shown}` : relative(dirname(entry), file)}`;
      if (!st.isFile()) fail(ToolErrorCode.unreadableFile, `cannot load ${where}: not a regular file but ${kindOf(st)}; ${noun === 'extension' ? 'an' : 'a'} ${noun} imports files`);
      if (st.size > MAX_EXTENSION_BYTES) fail(ToolErrorCode.unreadableFile, `cannot load ${where}: it is ${(st.size / 1048576).toFixed(1)} MiB, more than the ${MAX_EXTENSION_BYTES / 1048576} MiB a module of ${noun === 'extension' ? 'an' : 'a'} ${noun} can be`);
      if (/\.[cm]?[jt]sx?$/.test(target)) queue.push(target);
    }
  }
  return [...seen];
}

/** One file of a module's content hash: its path relative to the entry's folder, and its own digest. */
export interface ModuleFileDigest {
  /** Relative to the folder of the module's entry file, with `/` separators (the entry's own name first). */
  readonly path: string;
  /** `sha256:` and the hex digest of its bytes. */
  readonly sha256: string;
}

/** A module's content hash: over its entry file and every file it imports by a relative path, transitively. */
export interface ModuleDigest {
  /** `sha256:` and the hex digest over each file's relative path and bytes, in path order. */
  readonly sha256: string;
  readonly files: readonly ModuleFileDigest[];
}

function sha256Of(bytes: string | Uint8Array): string {
  return `sha256:${createHash('sha256').update(bytes).digest('hex')}`;
}

/**
 * The content hash of the module at `entry` (an absolute path): the entry and the files it
 * imports by relative paths (`./x.js` for `./x.ts` as tsx resolves it), transitively. A file is
 * named by its path relative to the entry's folder, so the folder may move and hash the same,
 * while a change to any file, or a file renamed, hashes differently. KC201 for a file that cannot
 * be read (as loading would say).
 */
export function moduleDigest(entry: string, shown: string, noun = 'extension'): ModuleDigest {
  const root = dirname(entry);
  const files = checkLocalImports(entry, shown, noun).map((file) => {
    let bytes: Buffer;
    try {
      bytes = readFileSync(file);
    } catch (e) {
      return fail(ToolErrorCode.unreadableFile, `cannot read ${file === entry ? `${noun} ${shown}` : `${relative(root, file)}, imported by ${noun} ${shown}`}: ${describeThrown(e)}`);
    }
    return { path: relative(root, file).split(sep).join('/'), sha256: sha256Of(bytes) };
  });
  // The entry first, the others by path: the order the imports were found in does not count.
  const [first, ...rest] = files;
  const ordered = [first, ...rest.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0))];
  return { sha256: sha256Of(ordered.map((f) => `${f.path}\0${f.sha256}\n`).join('')), files: ordered };
}

/** Whether a value has the shape of a {@link ClusterExtension}. */
export function isClusterExtension(v: unknown): v is ClusterExtension {
  if (v === null || typeof v !== 'object') return false;
  const e = v as Record<string, unknown>;
  return typeof e.name === 'string' && typeof e.initial === 'function' && Array.isArray(e.actions);
}

/** The extensions a module exports: its default export first, then its named exports in order. */
export function extensionsOf(module: Readonly<Record<string, unknown>>): ClusterExtension[] {
  const out: ClusterExtension[] = [];
  const take = (v: unknown): void => {
    if (isClusterExtension(v)) out.push(v);
    else if (Array.isArray(v)) for (const x of v) if (isClusterExtension(x)) out.push(x);
  };
  take(module.default);
  for (const [k, v] of Object.entries(module)) if (k !== 'default') take(v);
  return out.filter((e, i) => out.indexOf(e) === i);
}

/** An `--extension` module as loaded: where it is, what it hashed to, what it exports. */
export interface LoadedExtensionModule {
  /** The path as given (`--extension`, or as a trace recorded it). */
  readonly path: string;
  readonly absolutePath: string;
  readonly digest: ModuleDigest;
  /** The names of the extensions it exports. */
  readonly extensions: readonly string[];
  /** Its `settings` export: the `--set` keys and values its properties assume. */
  readonly settings?: Readonly<Record<string, JsonValue>>;
}

/** The `settings` export of a module, as JSON; KC200 when it is not an object of keys and plain values. */
function settingsOf(module: Readonly<Record<string, unknown>>, p: string): Readonly<Record<string, JsonValue>> | undefined {
  let raw: unknown;
  try {
    raw = module.settings;
  } catch (e) {
    return fail(ToolErrorCode.extensionFailed, `extension ${p} failed while its settings export was read: ${describeThrown(e)}`);
  }
  if (raw === undefined) return undefined;
  if (raw === null || typeof raw !== 'object' || Array.isArray(raw) || Object.getPrototypeOf(raw) !== Object.prototype) {
    fail(ToolErrorCode.badOption, `extension ${p}: its settings export must be an object of --set keys and values, e.g. { 'cluster.nodes': 3 }; got ${Array.isArray(raw) ? 'a list' : raw === null ? 'null' : typeof raw}`);
  }
  const out: Record<string, JsonValue> = Object.create(null) as Record<string, JsonValue>;
  for (const [key, value] of Object.entries(raw as Record<string, unknown>)) {
    refuseLongKey(key, `extension ${p}: its settings export`);
    refuseForbiddenKey(key, key, `extension ${p}: its settings export`);
    let json: JsonValue;
    try {
      json = JSON.parse(JSON.stringify(value) ?? 'null') as JsonValue;
    } catch {
      return fail(ToolErrorCode.badOption, `extension ${p}: settings.${shortName(key)} is not a plain value (a number, a string, a boolean or a list or object of them)`);
    }
    if (value === undefined || typeof value === 'function' || typeof value === 'symbol' || typeof value === 'bigint' || (typeof value === 'number' && !Number.isFinite(value))) {
      fail(ToolErrorCode.badOption, `extension ${p}: settings.${shortName(key)} is not a plain value (a number, a string, a boolean or a list or object of them)`);
    }
    refuseForbiddenKeys(json, `extension ${p}: settings.${shortName(key)}`);
    out[key] = json;
  }
  return { ...out };
}

/**
 * Loads the extensions of each file, in order; KC201 when a file cannot be read, KC215 when it
 * throws, ends the process or does not finish loading in time, KC200 when it exports none.
 */
export async function loadExtensions(paths: readonly string[]): Promise<ClusterExtension[]> {
  return (await loadExtensionModules(paths)).extensions;
}

/**
 * {@link loadExtensions}, with what each module was: its paths, its content hash (taken before it
 * is imported, over the files it imports by relative paths too) and its `settings` export.
 */
export async function loadExtensionModules(paths: readonly string[]): Promise<{ readonly extensions: ClusterExtension[]; readonly modules: readonly LoadedExtensionModule[] }> {
  const all: ClusterExtension[] = [];
  const modules: LoadedExtensionModule[] = [];
  for (const p of paths) {
    const abs = isAbsolute(p) ? p : resolve(process.cwd(), p);
    // A FIFO would block the loader's open forever, /dev/zero would never end: refuse them first,
    // the extension and the files it imports by a relative path (a blocked open holds the process
    // even after the load timeout: its thread cannot be stopped).
    checkRegularFile(p, 'extension', MAX_EXTENSION_BYTES, 'load');
    const digest = moduleDigest(abs, p);
    // The user's module is imported as it always was (TypeScript through tsx, registered here when
    // the command line named no .ts file: replay finds its modules in the trace), bounded and guarded.
    const href = pathToFileURL(abs).href;
    await ensureTypeScriptLoader(href);
    const module = await importBounded(p, href);
    let found: ClusterExtension[];
    try {
      found = extensionsOf(module);
    } catch (e) {
      return fail(ToolErrorCode.extensionFailed, `extension ${p} failed while its exports were read: ${describeThrown(e)}`);
    }
    if (found.length === 0) {
      fail(ToolErrorCode.badOption, `--extension ${p} exports no ClusterExtension (an object with name, initial and actions, or a list of them); exports: ${Object.keys(module).join(', ') || 'none'}`);
    }
    for (const e of found) {
      if (all.some((x) => x.name === e.name)) fail(ToolErrorCode.badOption, `--extension ${p}: a second extension is named "${e.name}"; names must be unique`);
      all.push(e);
    }
    const settings = settingsOf(module, p);
    modules.push({ path: p, absolutePath: abs, digest, extensions: found.map((e) => e.name), ...(settings === undefined ? {} : { settings }) });
  }
  return { extensions: all, modules };
}

/**
 * What the reports record of each extension module: its paths (as given, absolute, and relative
 * to the `--out` folder, where the traces are, so that `replay` finds it from there) and hashes.
 */
export function extensionRecords(modules: readonly LoadedExtensionModule[], out: string | undefined): ExtensionModuleRecord[] {
  return modules.map((m) => ({
    path: m.path,
    absolutePath: m.absolutePath,
    ...(out === undefined ? {} : { relativePath: relative(resolve(out), m.absolutePath).split(sep).join('/') }),
    sha256: m.digest.sha256,
    files: m.digest.files,
    extensions: m.extensions,
    ...(m.settings === undefined ? {} : { settings: m.settings }),
  }));
}
