/**
 * The files a run leaves behind for people and programs, built (nothing written): the Markdown
 * report, the JSON outcome, the HTML report (one self-contained page with a trace stepper, the
 * sequence diagram and the projected state graph), per counterexample its timeline, ITF trace,
 * and its graphs as DOT and SVG (the trace's neighbourhood, and the projected space), and per
 * liveness violation its lasso as an ITF trace. The command line's `--out` and the testing API
 * write them.
 */
import type { CheckResult, Model, Property, Trace } from '../checker/index.js';
import { dotToSvg, graphToDot } from './dot.js';
import { traceNeighbourhood, wholeGraph } from './graph.js';
import { itfOf, outcomeJson } from './json.js';
import { htmlReport, type GraphFigure } from './html.js';
import { lassoTraces, searchOutcomes } from './liveness.js';
import { markdownReport } from './markdown.js';
import { projectedGraph, type Projection, type ProjectedTrace } from './projected.js';
import type { RunInfo } from './outcome.js';
import { formatTimeline } from './timeline.js';

/** Counterexamples that get a projected state graph, and the states each may explore. */
const MAX_PROJECTED = 3;
const PROJECTED_STATES = 50_000;

export interface Artifact {
  readonly name: string;
  readonly content: string;
}

/**
 * Whether a check explored every reachable state (a property of the search that holds, or a goal
 * never reached, needs them all; a search that decided every property may stop before), and
 * what the graph of its states then says.
 */
export function exploredSpace<T extends ProjectedTrace>(result: CheckResult<unknown>, drawn: T): [boolean, T & { readonly note?: string }] {
  if (result.stoppedBy !== undefined) return [false, { ...drawn, note: `the states the check explored before its ${result.stoppedBy.bound} bound stopped it` }];
  if (searchOutcomes(result).some((p) => p.status === 'holds' || p.status === 'unwitnessed')) return [true, drawn];
  return [false, { ...drawn, note: 'the states the check explored until it had decided every property' }];
}

/**
 * The names a run's report can take for the violations of `violatedIds`: what `runArtifacts`
 * writes for them at most (a report written while the search goes on checks them first).
 */
export function reportNamesFor(violatedIds: readonly string[]): string[] {
  return ['report.md', 'result.json', 'report.html', ...violatedIds.flatMap((id) => ['itf.json', 'timeline.txt', 'dot', 'svg', 'projected.dot', 'projected.svg'].map((ext) => `${id}.${ext}`))];
}

/** Builds every file of a run (nothing written yet). */
export async function runArtifacts<S>(
  model: Model<S>,
  result: CheckResult<S>,
  info: RunInfo,
  participants: readonly string[] | undefined,
  maxNodes: number,
  /** Fold quiet stretches of the timelines, diagrams and stepper (default true; `--unfold` clears it). */
  fold = true,
  /**
   * The projected graphs: drawn from the check's own states (its `projectionVisitor`), else from
   * an exploration of at most this many states (0: none, where the time left is short).
   */
  projected: number | Projection<S> = PROJECTED_STATES,
): Promise<Artifact[]> {

  const files: Artifact[] = [];
  const traceFiles: Record<string, string> = {};
  const graphs: Record<string, GraphFigure> = {};
  // Only the checked properties colour states.
  const checked = model.properties.filter((q) => result.properties.some((r) => r.id === q.id)) as unknown as readonly Property<unknown>[];
  const violated = result.properties.filter((q) => q.status === 'violated' && q.trace);
  for (const [k, p] of violated.entries()) {
    const trace = p.trace!;
    traceFiles[p.id] = `${p.id}.itf.json`;
    files.push({ name: `${p.id}.itf.json`, content: `${JSON.stringify(itfOf(model, p, info), null, 2)}\n` });
    files.push({ name: `${p.id}.timeline.txt`, content: `${formatTimeline(model, trace, { fold })}\n` });
    const dot = graphToDot(traceNeighbourhood(model, trace, { property: p.id, status: 'violated' }, { maxNodes, properties: checked }));
    files.push({ name: `${p.id}.dot`, content: dot }, { name: `${p.id}.svg`, content: await dotToSvg(dot) });
    if (k < MAX_PROJECTED && projected !== 0) {
      const mark = { property: p.id, status: 'violated' } as const;
      const drawn = { trace: trace as Trace<unknown>, mark };
      const graph = typeof projected === 'number'
        ? projectedGraph(model, { properties: checked, ...drawn, maxStates: projected })
        : projected.graph(...exploredSpace(result as CheckResult<unknown>, drawn));
      // A view that barely groups the space (a model without `abstract`) draws no picture.
      if (graph.nodes.length <= maxNodes) {
        const pdot = graphToDot(graph);
        const svg = await dotToSvg(pdot);
        graphs[p.id] = { svg, path: (graph.path ?? []).map((n) => `s${n}`) };
        files.push({ name: `${p.id}.projected.dot`, content: pdot }, { name: `${p.id}.projected.svg`, content: svg });
      }
    }
  }
  if (violated.length === 0 && projected !== 0) {
    const whole = wholeGraph(model, { maxNodes, properties: checked });
    if (whole) {
      const dot = graphToDot(whole);
      files.push({ name: 'state-graph.dot', content: dot }, { name: 'state-graph.svg', content: await dotToSvg(dot) });
    }
  }
  const html = htmlReport(model, result, info, { graphs, fold, ...(participants ? { participants } : {}) });
  const lassos = lassoTraces(model, result, info);
  for (const l of lassos) traceFiles[l.id] = l.name;
  files.push({ name: 'report.html', content: html }, ...lassos.map(({ name, content }) => ({ name, content })));
  const names = ['report.md', 'result.json', ...files.map((f) => f.name)];
  files.unshift(
    { name: 'report.md', content: markdownReport(model, result, info, { traceFiles, fold, ...(participants ? { participants } : {}) }) },
    { name: 'result.json', content: `${JSON.stringify(outcomeJson(model, result, info, names), null, 2)}\n` },
  );
  return files;
}
