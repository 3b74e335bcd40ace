/**
 * `kubecheck graph`: the state graph of a scenario as DOT (default), SVG or PNG. A small space is
 * drawn whole; a large one projected (states grouped by the model's view, see
 * reports/projected.ts) with the first counterexample (else the longest witness) in bold; with
 * `--trace FILE`, the neighbourhood of that trace (or, with `--projected`, its path through the
 * groups). Only the checked properties colour states. PNG needs Graphviz `dot`, which is looked
 * for before any search.
 */
import { writeFileSync } from 'node:fs';
import { check, type Model, type Trace } from '../../checker/index.js';
import { dotToPngFile, dotToSvg, graphToDot, hasDotProgram, PNG_NEEDS_DOT } from '../../reports/dot.js';
import { projectedGraph } from '../../reports/projected.js';
import { fail, ToolErrorCode } from '../../reports/errors.js';
import { traceNeighbourhood, wholeGraph, type StateGraph, type TraceMark } from '../../reports/graph.js';
import { parseItf } from '../../reports/itf.js';
import { checkTraceMeta, replayItf } from '../../reports/replay.js';
import { prepareOutputFile, writeFileWhole } from '../artifacts.js';
import { readTraceText } from '../input.js';
import { checkPropertyIds, resolveFromOptions, type ConfigOptions } from '../subjects.js';

export interface GraphCommandOptions extends ConfigOptions {
  readonly trace?: string;
  readonly format?: string;
  readonly output?: string;
  readonly maxNodes?: number;
  readonly maxStates?: number;
  readonly symmetry?: boolean;
  readonly property?: string[];
  readonly force?: boolean;
  readonly projected?: boolean;
}

const FORMATS = ['dot', 'svg', 'png'] as const;

function formatOf(opts: GraphCommandOptions): (typeof FORMATS)[number] {
  const f = opts.format ?? (opts.output ? opts.output.split('.').pop() : 'dot');
  if (!(FORMATS as readonly string[]).includes(f ?? '')) fail(ToolErrorCode.badOption, `--format must be one of ${FORMATS.join(', ')}, got "${f}"`);
  return f as (typeof FORMATS)[number];
}

/** The trace to draw around when the space is too large: a counterexample, else the longest witness. */
function traceToDraw(model: Model<unknown>, properties: readonly string[], maxStates: number | undefined): { trace: Trace<unknown>; mark: TraceMark } | undefined {
  const result = check(model, { properties, ...(maxStates ? { maxStates } : {}) });
  const bad = result.properties.find((p) => p.status === 'violated' && p.trace);
  if (bad) return { trace: bad.trace!, mark: { property: bad.id, status: 'violated' } };
  const goals = result.properties.filter((p) => p.status === 'witnessed' && p.trace);
  goals.sort((a, b) => b.trace!.actions.length - a.trace!.actions.length);
  return goals[0] ? { trace: goals[0].trace!, mark: { property: goals[0].id, status: 'witnessed' } } : undefined;
}

export async function runGraph(opts: GraphCommandOptions): Promise<number> {
  const format = formatOf(opts);
  if (format === 'png' && !opts.output) fail(ToolErrorCode.badOption, 'PNG is written to a file: give --output FILE.png');
  // Before any search: a long one must not end in "dot is missing".
  if (format === 'png' && !hasDotProgram()) fail(ToolErrorCode.formatUnavailable, PNG_NEEDS_DOT);
  if (opts.output !== undefined) prepareOutputFile(opts.output, opts.force === true);
  const r = await resolveFromOptions(opts);
  checkPropertyIds(r.subject, opts.property, r.config);
  if (opts.symmetry === true && r.model.canonicalize === undefined) fail(ToolErrorCode.badOption, `scenario ${r.scenario} has no symmetry to reduce; drop --symmetry`);
  const maxNodes = opts.maxNodes ?? 500;
  const ids = opts.property && opts.property.length > 0 ? opts.property : r.defaultProperties;
  const checked = r.model.properties.filter((p) => ids.includes(p.id));
  const gopts = { maxNodes, properties: checked, ...(opts.symmetry ? { symmetry: true } : {}) };
  let graph: StateGraph | undefined;
  if (opts.projected && opts.trace) {
    const itf = parseItf(readTraceText(opts.trace));
    checkTraceMeta(itf.meta, opts.trace);
    const rep = replayItf(r.model, itf);
    graph = projectedGraph(r.model, { properties: checked, trace: rep.trace, mark: { ...(rep.property ? { property: rep.property } : {}), ...(rep.outcome === 'replayed' ? {} : { status: rep.outcome }) }, ...(opts.maxStates ? { maxStates: opts.maxStates } : {}) });
  } else if (opts.projected) {
    const found = traceToDraw(r.model, ids, opts.maxStates);
    graph = projectedGraph(r.model, { properties: checked, ...(found ? { trace: found.trace, mark: found.mark } : {}), ...(opts.maxStates ? { maxStates: opts.maxStates } : {}) });
  } else if (opts.trace) {
    const itf = parseItf(readTraceText(opts.trace));
    checkTraceMeta(itf.meta, opts.trace);
    if (itf.meta.scenario !== undefined && itf.meta.scenario !== r.scenario) {
      fail(ToolErrorCode.traceMismatch, `${opts.trace} was made for scenario "${itf.meta.scenario}", not "${r.scenario}"`);
    }
    const rep = replayItf(r.model, itf);
    graph = traceNeighbourhood(r.model, rep.trace, { ...(rep.property ? { property: rep.property } : {}), ...(rep.outcome === 'replayed' ? {} : { status: rep.outcome }) }, gopts);
  } else {
    graph = wholeGraph(r.model, gopts);
    if (!graph) {
      const found = traceToDraw(r.model, ids, opts.maxStates);
      const projected = projectedGraph(r.model, { properties: checked, ...(found ? { trace: found.trace, mark: found.mark } : {}), ...(opts.maxStates ? { maxStates: opts.maxStates } : {}) });
      if (projected.nodes.length <= maxNodes) {
        process.stderr.write(`kubecheck: the state space has more than ${maxNodes} states; drawing it projected: ${projected.states.toLocaleString('en-US')} states in ${projected.nodes.length} groups${found ? `, the ${found.trace.actions.length}-step trace (${found.mark.property} ${found.mark.status}) in bold` : ''}\n`);
        graph = projected;
      } else {
        // The model's view does not group the space enough (no `abstract`): draw around a trace.
        if (!found) {
          fail(ToolErrorCode.graphTooLarge, `scenario ${r.scenario} has more than ${maxNodes} states, too many to lay out even grouped by its view (${projected.nodes.length} groups), and no counterexample or witness to draw around; give --trace FILE or a larger --max-nodes`);
        }
        process.stderr.write(`kubecheck: the state space has more than ${maxNodes} states and its view groups them into ${projected.nodes.length}; drawing the ${found.trace.actions.length}-step trace (${found.mark.property} ${found.mark.status}) and its direct successors\n`);
        graph = traceNeighbourhood(r.model, found.trace, found.mark, gopts);
      }
    }
  }
  if (graph.note) process.stderr.write(`kubecheck: graph capped: ${graph.note}\n`);
  const dot = graphToDot(graph);
  if (format === 'png') {
    await writeFileWhole(opts.output!, (tmp) => dotToPngFile(dot, tmp));
  } else {
    const text = format === 'svg' ? await dotToSvg(dot) : dot;
    if (opts.output) await writeFileWhole(opts.output, (tmp) => writeFileSync(tmp, text));
    else process.stdout.write(text.endsWith('\n') ? text : `${text}\n`);
  }
  if (opts.output) process.stderr.write(`kubecheck: wrote ${graph.nodes.length} ${graph.kind === 'projected' ? 'groups of states' : 'states'} and ${graph.edges.length} steps to ${opts.output}\n`);
  return 0;
}
