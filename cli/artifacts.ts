/**
 * `--out DIR`: the files a run leaves behind for people and programs: the Markdown report, the
 * JSON outcome, and per counterexample its timeline, ITF trace, DOT and SVG graph. Existing files
 * are never overwritten without `--force`; the check happens before anything is written.
 */
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { CheckResult, Model } from '../checker/index.js';
import { dotToSvg, graphToDot } from '../reports/dot.js';
import { fail, ToolErrorCode } from '../reports/errors.js';
import { traceNeighbourhood, wholeGraph } from '../reports/graph.js';
import { itfOf, outcomeJson } from '../reports/json.js';
import { markdownReport } from '../reports/markdown.js';
import type { RunInfo } from '../reports/outcome.js';
import { formatTimeline } from '../reports/timeline.js';

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
): Promise<Artifact[]> {
  const files: Artifact[] = [];
  const traceFiles: Record<string, string> = {};
  for (const p of result.properties.filter((q) => q.status === 'violated' && q.trace)) {
    const trace = p.trace!;
    traceFiles[p.id] = `${p.id}.itf.json`;
    files.push({ name: `${p.id}.itf.json`, content: `${JSON.stringify(itfOf(model, p, info), null, 2)}\n` });
    files.push({ name: `${p.id}.timeline.txt`, content: `${formatTimeline(model, trace)}\n` });
    const dot = graphToDot(traceNeighbourhood(model, trace, { property: p.id, status: 'violated' }, { maxNodes }));
    files.push({ name: `${p.id}.dot`, content: dot }, { name: `${p.id}.svg`, content: await dotToSvg(dot) });
  }
  if (!result.properties.some((q) => q.status === 'violated')) {
    const whole = wholeGraph(model, { maxNodes });
    if (whole) {
      const dot = graphToDot(whole);
      files.push({ name: 'state-graph.dot', content: dot }, { name: 'state-graph.svg', content: await dotToSvg(dot) });
    }
  }
  const names = ['report.md', 'result.json', ...files.map((f) => f.name)];
  files.unshift(
    { name: 'report.md', content: markdownReport(model, result, info, { traceFiles, ...(participants ? { participants } : {}) }) },
    { name: 'result.json', content: `${JSON.stringify(outcomeJson(model, result, info, names), null, 2)}\n` },
  );
  return files;
}

/** Refuses (KC207) when any file exists and `force` is off; otherwise writes them all. Returns the paths. */
export function writeArtifacts(dir: string, files: readonly Artifact[], force: boolean): string[] {
  const paths = files.map((f) => join(dir, f.name));
  if (!force) {
    const existing = paths.filter((p) => existsSync(p));
    if (existing.length > 0) {
      fail(ToolErrorCode.wouldOverwrite, `${existing[0]} already exists${existing.length > 1 ? ` (and ${existing.length - 1} more)` : ''}; use --force to overwrite, or another --out directory`);
    }
  }
  mkdirSync(dir, { recursive: true });
  files.forEach((f, i) => writeFileSync(paths[i], f.content));
  return paths;
}
