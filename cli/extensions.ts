/**
 * `--extension FILE`: a user's own controllers, loaded from their module (TypeScript runs through
 * tsx, as kubecheck itself does). A module gives its extensions as its default export or as named
 * exports: a `ClusterExtension` or a list of them.
 */
import { isAbsolute, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { ClusterExtension } from '../model/index.js';
import { fail, KubecheckError, ToolErrorCode } from '../reports/errors.js';
import { checkRegularFile } from './input.js';

/** An extension is a module of source code; a file larger than this is not one. */
export const MAX_EXTENSION_BYTES = 16 * 1024 * 1024;

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

/** Loads the extensions of each file, in order; KC201 when a file cannot be loaded, KC200 when it exports none. */
export async function loadExtensions(paths: readonly string[]): Promise<ClusterExtension[]> {
  const all: ClusterExtension[] = [];
  for (const p of paths) {
    const abs = isAbsolute(p) ? p : resolve(process.cwd(), p);
    // A FIFO would block the loader's open forever, /dev/zero would never end: refuse them first.
    checkRegularFile(p, 'extension', MAX_EXTENSION_BYTES, 'load');
    let module: Record<string, unknown>;
    try {
      module = (await import(pathToFileURL(abs).href)) as Record<string, unknown>;
    } catch (e) {
      if (e instanceof KubecheckError) throw e;
      const err = e as NodeJS.ErrnoException;
      const why = err.code === 'ERR_MODULE_NOT_FOUND' && String(err.message).includes(abs) ? 'no such file' : String(err.message ?? e).split('\n')[0];
      return fail(ToolErrorCode.unreadableFile, `cannot load extension ${p}: ${why}`);
    }
    const found = extensionsOf(module);
    if (found.length === 0) {
      fail(ToolErrorCode.badOption, `--extension ${p} exports no ClusterExtension (an object with name, initial and actions, or a list of them); exports: ${Object.keys(module).join(', ') || 'none'}`);
    }
    for (const e of found) {
      if (all.some((x) => x.name === e.name)) fail(ToolErrorCode.badOption, `--extension ${p}: a second extension is named "${e.name}"; names must be unique`);
      all.push(e);
    }
  }
  return all;
}
