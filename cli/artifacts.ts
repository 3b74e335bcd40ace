/**
 * `--out DIR`: the files a run leaves behind for people and programs: the Markdown report, the
 * JSON outcome, the HTML report (one self-contained page with a trace stepper, the sequence
 * diagram and the projected state graph), and per counterexample its timeline, ITF trace, and
 * its graphs as DOT and SVG (the trace's neighbourhood, and the projected space).
 *
 * Nothing the user has is lost and nothing is half-written: {@link prepareOut} runs before the
 * search and refuses a folder that already holds files (unless `--force`), a file where the folder
 * should be, or a place that cannot be written; {@link writeArtifacts} writes every file into a
 * temporary folder first and only then renames them into place, so a failure (no space, a folder
 * in the way) leaves the earlier report as it was. With `--force`, files of an earlier run (named
 * in its result.json) that this run does not write are removed, so no stale counterexample stays
 * beside the new report.
 */
import { lstatSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync, type Stats } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import type { CheckResult, Model, Property, Trace } from '../checker/index.js';
import type { Lasso } from '../reports/html.js';
import { dotToSvg, graphToDot } from '../reports/dot.js';
import { fail, KubecheckError, ToolErrorCode } from '../reports/errors.js';
import { traceNeighbourhood, wholeGraph } from '../reports/graph.js';
import { itfOf, outcomeJson } from '../reports/json.js';
import { htmlReport } from '../reports/html.js';
import { markdownReport } from '../reports/markdown.js';
import { projectedGraph } from '../reports/projected.js';
import type { RunInfo } from '../reports/outcome.js';
import { formatTimeline } from '../reports/timeline.js';

/** Counterexamples that get a projected state graph, and the states each may explore. */
const MAX_PROJECTED = 3;
const PROJECTED_STATES = 50_000;

export interface Artifact {
  readonly name: string;
  readonly content: string;
}

/** Builds every file of a run (nothing written yet). */
export async function runArtifacts<S>(
  model: Model<S>,
  result: CheckResult<S>,
  info: RunInfo,
  participants: readonly string[] | undefined,
  maxNodes: number,
  lassos: readonly Lasso<S>[] = [],
): Promise<Artifact[]> {
  const files: Artifact[] = [];
  const traceFiles: Record<string, string> = {};
  const graphs: Record<string, string> = {};
  // Only the checked properties colour states.
  const checked = model.properties.filter((q) => result.properties.some((r) => r.id === q.id)) as unknown as readonly Property<unknown>[];
  const violated = result.properties.filter((q) => q.status === 'violated' && q.trace);
  for (const [k, p] of violated.entries()) {
    const trace = p.trace!;
    traceFiles[p.id] = `${p.id}.itf.json`;
    files.push({ name: `${p.id}.itf.json`, content: `${JSON.stringify(itfOf(model, p, info), null, 2)}\n` });
    files.push({ name: `${p.id}.timeline.txt`, content: `${formatTimeline(model, trace)}\n` });
    const dot = graphToDot(traceNeighbourhood(model, trace, { property: p.id, status: 'violated' }, { maxNodes, properties: checked }));
    files.push({ name: `${p.id}.dot`, content: dot }, { name: `${p.id}.svg`, content: await dotToSvg(dot) });
    if (k < MAX_PROJECTED) {
      const projected = projectedGraph(model, { properties: checked, trace: trace as Trace<unknown>, mark: { property: p.id, status: 'violated' }, maxStates: PROJECTED_STATES });
      // A view that barely groups the space (a model without `abstract`) draws no picture.
      if (projected.nodes.length <= maxNodes) {
        const pdot = graphToDot(projected);
        graphs[p.id] = await dotToSvg(pdot);
        files.push({ name: `${p.id}.projected.dot`, content: pdot }, { name: `${p.id}.projected.svg`, content: graphs[p.id] });
      }
    }
  }
  if (violated.length === 0) {
    const whole = wholeGraph(model, { maxNodes, properties: checked });
    if (whole) {
      const dot = graphToDot(whole);
      files.push({ name: 'state-graph.dot', content: dot }, { name: 'state-graph.svg', content: await dotToSvg(dot) });
    }
  }
  const html = htmlReport(model, result, info, { graphs, lassos: lassos as readonly Lasso<unknown>[], ...(participants ? { participants } : {}) });
  files.push({ name: 'report.html', content: html });
  const names = ['report.md', 'result.json', ...files.map((f) => f.name)];
  files.unshift(
    { name: 'report.md', content: markdownReport(model, result, info, { traceFiles, ...(participants ? { participants } : {}) }) },
    { name: 'result.json', content: `${JSON.stringify(outcomeJson(model, result, info, names), null, 2)}\n` },
  );
  return files;
}

/** What `--out` will do, decided before the search. */
export interface OutPlan {
  readonly dir: string;
  readonly force: boolean;
  /** Files of an earlier run found in the folder (from its result.json), removed when not written again. */
  readonly earlier: readonly string[];
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
  const code = (e as NodeJS.ErrnoException).code;
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
    default:
      return String((e as Error)?.message ?? e).split('\n')[0];
  }
}

/** The names an earlier run of ours wrote into `dir`, as its result.json lists them. */
function earlierRun(dir: string): string[] {
  try {
    const files = (JSON.parse(readFileSync(join(dir, 'result.json'), 'utf8')) as { files?: unknown }).files;
    if (!Array.isArray(files)) return [];
    return files.filter((f): f is string => typeof f === 'string').map((f) => basename(f)).filter((f) => f !== '' && !f.startsWith('.'));
  } catch {
    return [];
  }
}

/** Creates and removes a temporary folder in `parent`: proof that a report can be written there. */
function probe(parent: string, what: string): void {
  try {
    rmSync(mkdtempSync(join(parent, '.kubecheck-probe-')), { recursive: true, force: true });
  } catch (e) {
    fail(ToolErrorCode.cannotWrite, `cannot write ${what}: ${ioReason(e)} (${parent})`);
  }
}

/** The nearest folder of `path` that exists (its parent, grandparent, ...); KC214 when a file is in the way. */
function nearestFolder(path: string, what: string): string {
  let cur = dirname(resolve(path));
  for (;;) {
    const st = statOrUndefined(cur);
    if (st) {
      if (!st.isDirectory()) fail(ToolErrorCode.cannotWrite, `cannot write ${what}: ${cur} is a file, not a folder`);
      return cur;
    }
    const up = dirname(cur);
    if (up === cur) fail(ToolErrorCode.cannotWrite, `cannot write ${what}: no such folder`);
    cur = up;
  }
}

/**
 * Checks `--out DIR` before the search: KC200 for an empty name, KC214 for a file in the way or a
 * place that cannot be written, KC207 for a folder that already holds files without `force`.
 */
export function prepareOut(dir: string, force: boolean): OutPlan {
  if (dir.trim() === '') fail(ToolErrorCode.badOption, '--out needs a folder name, got ""');
  const st = statOrUndefined(dir);
  if (st === undefined) {
    probe(nearestFolder(dir, `--out ${dir}`), `--out ${dir}`);
    return { dir, force, earlier: [] };
  }
  if (!st.isDirectory()) fail(ToolErrorCode.cannotWrite, `--out ${dir} is a file, not a folder; give a folder for the report`);
  let entries: string[];
  try {
    entries = readdirSync(dir).filter((e) => !e.startsWith('.kubecheck-'));
  } catch (e) {
    return fail(ToolErrorCode.cannotWrite, `cannot write --out ${dir}: ${ioReason(e)}`);
  }
  if (entries.length > 0 && !force) {
    const shown = entries.sort().slice(0, 3).join(', ');
    fail(ToolErrorCode.wouldOverwrite, `${dir} already holds files (${shown}${entries.length > 3 ? `, and ${entries.length - 3} more` : ''}); use --force to replace the report in it, or another --out folder`);
  }
  probe(dir, `--out ${dir}`);
  return { dir, force, earlier: earlierRun(dir) };
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

/**
 * Writes the files of a run as {@link prepareOut} planned: all into a temporary folder, then into
 * place by renames, then the earlier run's leftovers removed. KC214 when anything fails; the
 * folder is then as it was. Returns the paths written.
 */
export function writeArtifacts(plan: OutPlan, files: readonly Artifact[]): string[] {
  const { dir } = plan;
  const paths = files.map((f) => join(dir, f.name));
  let tmp: string | undefined;
  let moved = 0;
  try {
    const exists = statOrUndefined(dir)?.isDirectory() === true;
    if (!exists) {
      const parent = dirname(resolve(dir));
      makeFolders(parent);
      tmp = mkdtempSync(join(parent, `.${basename(resolve(dir))}.kubecheck-`));
      for (const f of files) writeFileSync(join(tmp, f.name), f.content);
      renameSync(tmp, dir);
      tmp = undefined;
      return paths;
    }
    tmp = mkdtempSync(join(dir, '.kubecheck-'));
    for (const f of files) writeFileSync(join(tmp, f.name), f.content);
    // A folder where a file goes cannot be replaced by a rename: refuse before anything moves.
    for (const p of paths) {
      const st = lstatOrUndefined(p);
      if (st?.isDirectory()) fail(ToolErrorCode.cannotWrite, `cannot write ${p}: a folder is in the way; nothing was written`);
      if (st && !plan.force) fail(ToolErrorCode.wouldOverwrite, `${p} already exists; use --force to overwrite, or another --out folder`);
    }
    for (let i = 0; i < files.length; i++) {
      renameSync(join(tmp, files[i].name), paths[i]);
      moved++;
    }
    const written = new Set(files.map((f) => f.name));
    for (const name of plan.earlier) {
      if (written.has(name)) continue;
      const p = join(dir, name);
      if (statOrUndefined(p)?.isFile()) rmSync(p, { force: true });
    }
    return paths;
  } catch (e) {
    if (e instanceof KubecheckError) throw e;
    const what = moved === 0 ? 'nothing was written' : `only ${moved} of ${files.length} files were replaced`;
    return fail(ToolErrorCode.cannotWrite, `cannot write the report to ${dir}: ${ioReason(e)}; ${what}`);
  } finally {
    if (tmp !== undefined) rmSync(tmp, { recursive: true, force: true });
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
