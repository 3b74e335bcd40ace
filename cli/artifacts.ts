/**
 * `--out DIR`: where the files a run leaves behind (built by `reports/artifacts.ts`: the Markdown,
 * JSON and HTML reports, each counterexample's timeline, ITF trace and graphs) are written.
 *
 * Nothing the user has is lost and nothing is half-written: {@link prepareOut} runs before the
 * search and refuses a folder that already holds files (unless `--force`), a file where the folder
 * should be, a symbolic link that leads nowhere, a name too long, or a place that cannot be
 * written; {@link stageArtifacts} writes every file into a temporary folder beside the report
 * folder first, and only then replaces the folder as a whole (renamed aside, the new one renamed
 * in, the earlier one removed; the user's own files in it come along as hard links), so a failure
 * (no space, a folder in the way), a kill or Ctrl-C leaves the earlier report as it was, and two
 * runs writing one folder (they take turns on a lock file) leave one whole report. With
 * `--force`, files of an earlier run that this run does not write are gone with the earlier folder,
 * so no stale counterexample stays beside the new report: only those its result.json records with
 * their digests and that still have them (a result.json kubecheck did not write, or a file changed
 * since, removes nothing). What a
 * killed run left beside the folder is removed (or, for an earlier report moved aside, put back)
 * by the next.
 */
export type { Artifact } from '../reports/artifacts.js';
import { chmodSync, closeSync, copyFileSync, linkSync, lstatSync, mkdirSync, mkdtempSync, openSync, readdirSync, readFileSync, readlinkSync, realpathSync, renameSync, rmSync, statSync, symlinkSync, writeFileSync, type Stats } from 'node:fs';
import { createHash } from 'node:crypto';
import { basename, dirname, isAbsolute, join, relative, resolve, sep } from 'node:path';
import type { Artifact } from '../reports/artifacts.js';
import { fail, KubecheckError, ToolErrorCode } from '../reports/errors.js';

/** What `--out` will do, decided before the search. */
export interface OutPlan {
  readonly dir: string;
  readonly force: boolean;
  /** Files an earlier run wrote in the folder (its result.json's digests still match), removed when not written again. */
  readonly earlier: readonly string[];
  /** The folder the report replaces or creates: `dir` with its symbolic links resolved (default: `dir`). */
  readonly target?: string;
}

function statOrUndefined(path: string): Stats | undefined {
  try {
    return statSync(path);
  } catch {
    return undefined;
  }
}

function lstatOrUndefined(path: string): Stats | undefined {
  try {
    return lstatSync(path);
  } catch {
    return undefined;
  }
}

/** Why a file-system call failed, in words. */
export function ioReason(e: unknown): string {
  const code = (e as NodeJS.ErrnoException | null)?.code;
  switch (code) {
    case 'ENOENT':
      return 'no such folder';
    case 'ENOTDIR':
      return 'a part of the path is a file, not a folder';
    case 'EACCES':
    case 'EPERM':
      return 'permission denied';
    case 'EROFS':
      return 'read-only file system';
    case 'ENOSPC':
      return 'no space left on the device';
    case 'EISDIR':
      return 'a folder is in the way';
    case 'ENAMETOOLONG':
      return 'the name is too long';
    case 'ELOOP':
      return 'a loop of symbolic links';
    default:
      return String((e as Error | null)?.message ?? e).split('\n')[0];
  }
}

/** The digest result.json records of a file it was written with. */
const digest = (content: string | Buffer): string => `sha256:${createHash('sha256').update(content).digest('hex')}`;

/**
 * The names an earlier run of ours wrote into `dir` and can prove it wrote: its result.json's
 * `written` gives each file's digest, and a file counts only while its content still has it. A
 * result.json kubecheck did not write (or one of a version that recorded no digests) proves
 * nothing, and a file the user changed since is theirs: neither is removed.
 */
function earlierRun(dir: string): string[] {
  try {
    const written = (JSON.parse(readFileSync(join(dir, 'result.json'), 'utf8')) as { written?: unknown }).written;
    if (written === null || typeof written !== 'object' || Array.isArray(written)) return [];
    return Object.entries(written).filter(([name, recorded]) => {
      if (typeof recorded !== 'string' || name === '' || name.startsWith('.') || basename(name) !== name || name === 'result.json') return false;
      const path = join(dir, name);
      return lstatOrUndefined(path)?.isFile() === true && digest(readFileSync(path)) === recorded;
    }).map(([name]) => name);
  } catch {
    return [];
  }
}

/**
 * The files with result.json's `written`: the digest of every other file of the run, which lets a
 * later `--force` into the folder remove exactly what this run wrote ({@link earlierRun}).
 */
function withDigests(files: readonly Artifact[]): Artifact[] {
  return files.map((f) => {
    if (f.name !== 'result.json') return f;
    let outcome: unknown;
    try {
      outcome = JSON.parse(f.content);
    } catch {
      return f;
    }
    if (outcome === null || typeof outcome !== 'object' || Array.isArray(outcome)) return f;
    const written = Object.fromEntries(files.filter((g) => g.name !== 'result.json').map((g) => [g.name, digest(g.content)]));
    return { name: f.name, content: `${JSON.stringify({ ...outcome, written }, null, 2)}\n` };
  });
}

/** Creates and removes a temporary folder in `parent`: proof that a report can be written there. */
function probe(parent: string, what: string): void {
  try {
    rmSync(mkdtempSync(join(parent, '.kubecheck-probe-')), { recursive: true, force: true });
  } catch (e) {
    fail(ToolErrorCode.cannotWrite, `cannot write ${what}: ${ioReason(e)} (${parent})`);
  }
}

/**
 * What is at `path`, without following a last symbolic link that leads nowhere: `undefined` when
 * nothing is there; KC214 for a link that dangles or loops, a name too long, or a path that
 * cannot be looked at.
 */
function entryAt(path: string, what: string): Stats | undefined {
  let l: Stats;
  try {
    l = lstatSync(path);
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR') return undefined; // the caller finds the file in the way
    return fail(ToolErrorCode.cannotWrite, `cannot write ${what}: ${ioReason(e)} (${path})`);
  }
  if (!l.isSymbolicLink()) return l;
  try {
    return statSync(path);
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    let to = '';
    try {
      to = readlinkSync(path);
    } catch {
      // the reason below says enough
    }
    if (code === 'ELOOP') return fail(ToolErrorCode.cannotWrite, `cannot write ${what}: ${path} is a symbolic link in a loop of links`);
    if (code === 'ENOENT') return fail(ToolErrorCode.cannotWrite, `cannot write ${what}: ${path} is a symbolic link to ${to}, which does not exist; remove the link or create its folder`);
    return fail(ToolErrorCode.cannotWrite, `cannot write ${what}: ${path} is a symbolic link that cannot be followed: ${ioReason(e)}`);
  }
}

/** The nearest folder of `path` that exists (its parent, grandparent, ...); KC214 when a file is in the way. */
function nearestFolder(path: string, what: string): string {
  let cur = dirname(resolve(path));
  for (;;) {
    const st = entryAt(cur, what);
    if (st) {
      if (!st.isDirectory()) fail(ToolErrorCode.cannotWrite, `cannot write ${what}: ${cur} is a file, not a folder`);
      return cur;
    }
    const up = dirname(cur);
    if (up === cur) fail(ToolErrorCode.cannotWrite, `cannot write ${what}: no such folder`);
    cur = up;
  }
}

/** The longest name of a folder `--out` accepts: a report is first written beside it under a longer temporary name (file systems allow 255 bytes). */
export const MAX_OUT_NAME_BYTES = 200;
/** Room left in a path for the report's own file names. */
const MAX_OUT_PATH_BYTES = 3800;

/**
 * Checks `--out DIR` before the search: KC200 for an empty name, KC214 for a file in the way, a
 * symbolic link that dangles or loops, a name too long, or a place that cannot be written, KC207
 * for a folder that already holds files without `force`.
 */
export function prepareOut(dir: string, force: boolean): OutPlan {
  if (dir.trim() === '') fail(ToolErrorCode.badOption, '--out needs a folder name, got ""');
  const what = `--out ${dir.length > 120 ? `${dir.slice(0, 100)}...` : dir}`;
  const parts = resolve(dir).split(sep);
  const last = parts[parts.length - 1];
  const long = parts.slice(0, -1).find((part) => Buffer.byteLength(part) > 255) ?? (Buffer.byteLength(last) > MAX_OUT_NAME_BYTES ? last : undefined);
  if (long !== undefined) fail(ToolErrorCode.cannotWrite, `cannot write ${what}: the name ${long.slice(0, 40)}... is ${Buffer.byteLength(long)} bytes, more than the ${long === last ? MAX_OUT_NAME_BYTES : 255} a ${long === last ? "report folder's" : "folder's"} name can be`);
  if (Buffer.byteLength(resolve(dir)) > MAX_OUT_PATH_BYTES) fail(ToolErrorCode.cannotWrite, `cannot write ${what}: the path is ${Buffer.byteLength(resolve(dir))} bytes, more than the ${MAX_OUT_PATH_BYTES} a report folder's path can be`);
  const st = entryAt(dir, what);
  // What a killed run left: an earlier report it had moved aside goes back in place first.
  removeStrays(st?.isDirectory() ? realpathSync(dir) : resolve(dir));
  if (st === undefined && lstatOrUndefined(dir) !== undefined) return prepareOut(dir, force);
  if (st === undefined) {
    probe(nearestFolder(dir, what), what);
    return { dir, force, earlier: [] };
  }
  if (!st.isDirectory()) fail(ToolErrorCode.cannotWrite, `--out ${dir} is a file, not a folder; give a folder for the report`);
  let entries: string[];
  try {
    entries = readdirSync(dir).filter((e) => !e.startsWith('.kubecheck-'));
  } catch (e) {
    return fail(ToolErrorCode.cannotWrite, `cannot write ${what}: ${ioReason(e)}`);
  }
  if (entries.length > 0 && !force) {
    const shown = entries.sort().slice(0, 3).join(', ');
    fail(ToolErrorCode.wouldOverwrite, `${dir} already holds files (${shown}${entries.length > 3 ? `, and ${entries.length - 3} more` : ''}); use --force to replace the report in it, or another --out folder`);
  }
  probe(dir, what);
  const target = realpathSync(dir);
  return { dir, force, earlier: earlierRun(dir), ...(target === resolve(dir) ? {} : { target }) };
}

/** Creates the missing folders of `dir`, one level at a time (a recursive mkdir loops on /proc). */
function makeFolders(dir: string): void {
  const missing: string[] = [];
  for (let cur = resolve(dir); statOrUndefined(cur) === undefined; cur = dirname(cur)) {
    missing.unshift(cur);
    if (dirname(cur) === cur) break;
  }
  for (const m of missing) mkdirSync(m);
}

/** Whether a process of this machine is running (a temporary folder's owner). */
function alive(pid: number): boolean {
  if (pid === process.pid) return true;
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** `.NAME.kubecheck-PID-new-XXXXXX` (the report being written) and `-old-` (the earlier one, moved aside). */
const tempName = (base: string, kind: 'new' | 'old'): string => `.${base}.kubecheck-${process.pid}-${kind}-`;

/**
 * Removes what runs of ours that were killed left beside `target` (their process is gone): a new
 * report half-written, and an earlier one moved aside, which goes back in place if nothing took
 * its place (the run was killed between its two renames). Old versions' temporary folders inside
 * the report folder (`DIR/.kubecheck-XXXX/`) are removed too.
 */
export function removeStrays(target: string): void {
  const parent = dirname(target);
  const base = basename(target);
  const prefix = `.${base}.kubecheck-`;
  let names: string[] = [];
  try {
    names = readdirSync(parent).filter((n) => n.startsWith(prefix));
  } catch {
    return;
  }
  for (const n of names.sort()) {
    const m = /^(\d+)-(new|old)-[A-Za-z0-9]+$/.exec(n.slice(prefix.length));
    const legacy = /^[A-Za-z0-9]{6}$/.test(n.slice(prefix.length)); // before the process id was in the name
    if (!legacy && (m === null || alive(Number(m[1])))) continue;
    const path = join(parent, n);
    try {
      const report = join(path, 'report');
      if (m?.[2] === 'old' && lstatOrUndefined(target) === undefined && lstatOrUndefined(report)?.isDirectory()) renameSync(report, target);
      rmSync(path, { recursive: true, force: true });
    } catch {
      // a stray that cannot be removed stays; it is not part of any report
    }
  }
  try {
    for (const n of readdirSync(target)) {
      const m = /^\.kubecheck-(?:(\d+)-(new|old)-)?[A-Za-z0-9]{6}$/.exec(n);
      if (m === null || (m[1] !== undefined && alive(Number(m[1])))) continue;
      const path = join(target, n);
      // The earlier report's files, set aside by a run killed while it replaced them in place: back.
      if (m[2] === 'old') for (const name of readdirSync(path)) renameSync(join(path, name), join(target, name));
      rmSync(path, { recursive: true, force: true });
    }
  } catch {
    // no folder yet
  }
}

/**
 * Where a report is written before it is put in place: beside its folder (which it then replaces
 * as a whole), or inside it when the folder cannot be moved (it holds the working folder, it is a
 * mount point, its parent cannot be written).
 */
function placeOf(target: string): 'beside' | 'inside' {
  const st = statOrUndefined(target);
  if (st === undefined) return 'beside';
  if (isWithin(process.cwd(), target)) return 'inside';
  const parent = statOrUndefined(dirname(target));
  if (parent === undefined || parent.dev !== st.dev || dirname(target) === target) return 'inside';
  try {
    rmSync(mkdtempSync(join(dirname(target), `.${basename(target)}.kubecheck-${process.pid}-new-`)), { recursive: true, force: true });
    return 'beside';
  } catch {
    return 'inside';
  }
}

/** A report written into its temporary folder, not yet in place. */
export interface StagedArtifacts {
  readonly plan: OutPlan;
  readonly paths: readonly string[];
  /** Puts the report in place (whole, by renames) and removes the earlier one; returns the paths written. */
  commit(): string[];
  /** Removes the temporary folder (nothing of the earlier report changes). */
  abandon(): void;
}

/** Hard-links (or, where links are refused, copies) a user's file into the new report folder. */
function carry(from: string, to: string): void {
  const st = lstatSync(from);
  if (st.isSymbolicLink()) symlinkSync(readlinkSync(from), to);
  else {
    try {
      linkSync(from, to);
    } catch {
      copyFileSync(from, to);
    }
  }
}

/**
 * KC214 before anything is written when one of `names` is a folder in `--out`: a report written
 * while the search goes on checks the names its final report may take, so that a report that
 * cannot be put in place leaves the earlier one as it was, not replaced by a partial one.
 */
export function refuseFoldersInTheWay(plan: OutPlan, names: readonly string[]): void {
  const target = plan.target ?? plan.dir;
  for (const name of names) {
    if (lstatOrUndefined(join(target, name))?.isDirectory()) fail(ToolErrorCode.cannotWrite, `cannot write ${join(plan.dir, name)}: a folder is in the way; nothing was written`);
  }
}

/**
 * Writes the files of a run into a temporary folder beside the report folder (nothing in place
 * changes). A process exit before {@link StagedArtifacts.commit} (Ctrl-C) removes it.
 */
export function stageArtifacts(plan: OutPlan, given: readonly Artifact[]): StagedArtifacts {
  const target = plan.target ?? resolve(plan.dir);
  const paths = given.map((f) => join(plan.dir, f.name));
  const files = withDigests(given);
  const parent = dirname(target);
  const base = basename(target);
  let tmp: string | undefined;
  const cleanup = (): void => {
    if (tmp !== undefined) rmSync(tmp, { recursive: true, force: true });
    tmp = undefined;
  };
  const done = (): void => {
    process.removeListener('exit', cleanup);
  };
  let place: 'beside' | 'inside' = 'beside';
  try {
    makeFolders(parent);
    removeStrays(target);
    place = placeOf(target);
    tmp = mkdtempSync(place === 'beside' ? join(parent, tempName(base, 'new')) : join(target, `.kubecheck-${process.pid}-new-`));
    process.on('exit', cleanup);
    for (const f of files) writeFileSync(join(tmp, f.name), f.content);
  } catch (e) {
    cleanup();
    done();
    if (e instanceof KubecheckError) throw e;
    return fail(ToolErrorCode.cannotWrite, `cannot write the report to ${plan.dir}: ${ioReason(e)}; nothing was written`);
  }
  const staged = tmp;
  const where = place;
  return {
    plan,
    paths,
    abandon() {
      cleanup();
      done();
    },
    commit() {
      try {
        return commitStaged(plan, files, staged, target, paths, where);
      } finally {
        cleanup();
        done();
      }
    },
  };
}

/** Takes the lock of a report folder's writers (`.NAME.kubecheck-lock`, holding the writer's pid); waits for a live writer, breaks a dead one's. */
function lock(target: string): () => void {
  const path = join(dirname(target), `.${basename(target)}.kubecheck-lock`);
  const deadline = Date.now() + 30_000;
  for (;;) {
    try {
      const fd = openSync(path, 'wx');
      writeFileSync(fd, String(process.pid));
      closeSync(fd);
      return () => rmSync(path, { force: true });
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e;
    }
    let owner = NaN;
    try {
      owner = Number(readFileSync(path, 'utf8'));
    } catch {
      continue; // released meanwhile
    }
    if (!Number.isSafeInteger(owner) || !alive(owner)) {
      rmSync(path, { force: true });
      continue;
    }
    if (Date.now() > deadline) fail(ToolErrorCode.cannotWrite, `cannot write the report to ${target}: another kubecheck (process ${owner}) is writing a report there; nothing was written`);
    Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 20);
  }
}

function commitStaged(plan: OutPlan, files: readonly Artifact[], tmp: string, target: string, paths: string[], place: 'beside' | 'inside'): string[] {
  const written = new Set(files.map((f) => f.name));
  let unlock: (() => void) | undefined;
  let aside: string | undefined;
  let moved = false;
  try {
    unlock = lock(target);
    const old = entryAt(target, `--out ${plan.dir}`);
    if (old === undefined) {
      renameSync(tmp, target);
      return paths;
    }
    if (!old.isDirectory()) fail(ToolErrorCode.cannotWrite, `--out ${plan.dir} is a file, not a folder; nothing was written`);
    // A folder where a file goes cannot be replaced: refuse before anything moves.
    const kept: string[] = [];
    for (const name of readdirSync(target)) {
      if (name.startsWith('.kubecheck-')) continue; // strays of older runs: they go with the earlier report
      const st = lstatSync(join(target, name));
      if (written.has(name)) {
        if (st.isDirectory()) fail(ToolErrorCode.cannotWrite, `cannot write ${join(plan.dir, name)}: a folder is in the way; nothing was written`);
        if (!plan.force) fail(ToolErrorCode.wouldOverwrite, `${join(plan.dir, name)} already exists; use --force to overwrite, or another --out folder`);
        continue;
      }
      if (plan.earlier.includes(name) && st.isFile()) continue; // the earlier run's, which this one does not write again
      kept.push(name);
    }
    if (place === 'inside' || kept.some((name) => lstatSync(join(target, name)).isDirectory())) return replaceInPlace(plan, files, tmp, target, paths);
    // The user's own files come along as hard links; then the folder is replaced as a whole.
    for (const name of kept) carry(join(target, name), join(tmp, name));
    chmodSync(tmp, old.mode & 0o7777);
    aside = mkdtempSync(join(dirname(target), tempName(basename(target), 'old')));
    renameSync(target, join(aside, 'report'));
    try {
      renameSync(tmp, target);
    } catch (e) {
      renameSync(join(aside, 'report'), target);
      throw e;
    }
    moved = true;
    return paths;
  } catch (e) {
    if (e instanceof KubecheckError) throw e;
    return fail(ToolErrorCode.cannotWrite, `cannot write the report to ${plan.dir}: ${ioReason(e)}; ${moved ? 'the new report is in place' : 'nothing was written'}`);
  } finally {
    if (aside !== undefined) rmSync(aside, { recursive: true, force: true });
    unlock?.();
  }
}

/** Whether `path` is `folder` or lies in it. */
function isWithin(path: string, folder: string): boolean {
  const rel = relative(folder, path);
  return rel === '' || (!rel.startsWith('..') && !isAbsolute(rel));
}

/**
 * The report folder holds folders of the user's, or is the working folder: it cannot be moved as
 * a whole. The earlier run's files are moved aside into a folder inside it
 * (`.kubecheck-PID-old-XXXXXX`), then the new files are renamed in one by one; if one rename
 * fails, the new files go out again and the earlier ones back, so the folder holds one report or
 * the other, never a mix. A run killed halfway leaves the folder aside, which the next run puts
 * back before anything else ({@link removeStrays}).
 */
function replaceInPlace(plan: OutPlan, files: readonly Artifact[], tmp: string, target: string, paths: string[]): string[] {
  const aside = mkdtempSync(join(target, `.kubecheck-${process.pid}-old-`));
  const setAside: string[] = [];
  const movedIn: string[] = [];
  try {
    for (const name of plan.earlier) {
      if (!lstatOrUndefined(join(target, name))?.isFile()) continue;
      renameSync(join(target, name), join(aside, name));
      setAside.push(name);
    }
    for (const f of files) {
      renameSync(join(tmp, f.name), join(target, f.name));
      movedIn.push(f.name);
    }
  } catch (e) {
    const undone = undo(() => {
      for (const name of movedIn.reverse()) renameSync(join(target, name), join(tmp, name));
      for (const name of setAside) renameSync(join(aside, name), join(target, name));
    });
    if (undone) rmSync(aside, { recursive: true, force: true });
    return fail(ToolErrorCode.cannotWrite, `cannot write the report to ${plan.dir}: ${ioReason(e)}; ${undone ? 'nothing was written, the earlier report is as it was' : `the earlier report's files are in ${aside}`}`);
  }
  rmSync(aside, { recursive: true, force: true });
  return paths;
}

/** Runs the steps that undo a half-done replacement; whether all of them succeeded. */
function undo(steps: () => void): boolean {
  try {
    steps();
    return true;
  } catch {
    return false;
  }
}

/**
 * Checks `--output FILE` before any work: KC200 for an empty name, KC207 for an existing file
 * without `force`, KC214 for a folder in its place or a folder that cannot be written.
 */
export function prepareOutputFile(path: string, force: boolean): void {
  if (path.trim() === '') fail(ToolErrorCode.badOption, '--output needs a file name, got ""');
  const st = statOrUndefined(path);
  if (st?.isDirectory()) fail(ToolErrorCode.cannotWrite, `--output ${path} is a folder; give a file name`);
  if (st && !force) fail(ToolErrorCode.wouldOverwrite, `${path} already exists; use --force to overwrite it, or another --output`);
  const parent = dirname(resolve(path));
  const pst = statOrUndefined(parent);
  if (pst === undefined) fail(ToolErrorCode.cannotWrite, `cannot write --output ${path}: no such folder ${dirname(path)}`);
  if (!pst.isDirectory()) fail(ToolErrorCode.cannotWrite, `cannot write --output ${path}: ${dirname(path)} is a file, not a folder`);
  probe(parent, `--output ${path}`);
}

/**
 * Writes one file whole or not at all: `write` fills a temporary file beside `path`, which is then
 * renamed into place. KC214 when it fails; an existing file stays as it was.
 */
export async function writeFileWhole(path: string, write: (tmp: string) => Promise<void> | void): Promise<void> {
  const tmp = join(dirname(resolve(path)), `.${basename(path)}.kubecheck-${process.pid}`);
  try {
    await write(tmp);
    renameSync(tmp, path);
  } catch (e) {
    if (e instanceof KubecheckError) throw e;
    fail(ToolErrorCode.cannotWrite, `cannot write ${path}: ${ioReason(e)}`);
  } finally {
    rmSync(tmp, { force: true });
  }
}
