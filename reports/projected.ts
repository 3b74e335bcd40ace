/**
 * The projected state graph: every reachable state grouped by a coarse view of it (the model's
 * `abstract`, e.g. per node Ready/Unknown/tainted and per workload its running copies), one box
 * per group, one edge per pair of groups labelled with the actions that lead from one to the
 * other. Steps inside a group (ticks, renewals, passes that change no view) are not drawn. A
 * space of any size becomes a picture of a few dozen boxes; the 469-step node-failure
 * staircase is a handful of boxes from "all Ready" to "replacement running".
 *
 * A counterexample's path through the groups is drawn bold, its last group marked; groups holding
 * a state that violates a checked invariant are red.
 */
import { fingerprint, successors, type Model, type Property, type Trace } from '../checker/index.js';
import { keyFunction } from '../checker/searchCore.js';
import type { GraphEdge, GraphNode, StateGraph, TraceMark } from './graph.js';

export interface ProjectedOptions {
  /** Most states explored (default 500,000); beyond it the graph says it is partial. */
  readonly maxStates?: number;
  /** Merge symmetric states while exploring (default false: every real state counted in its group). */
  readonly symmetry?: boolean;
  /** The checked properties: only their violations colour groups (default: none). */
  readonly properties?: readonly Property<unknown>[];
  /** A trace to highlight, and how it ends. */
  readonly trace?: Trace<unknown>;
  readonly mark?: TraceMark;
  /** Most action names written on one edge (default 3; the rest counted). */
  readonly maxLabels?: number;
}

export const DEFAULT_PROJECTED_STATES = 500_000;

/** The view a state is grouped by: the model's `abstract`, else its one-line description. */
export function groupOf<S>(model: Model<S>, state: S): string {
  if (model.abstract) return model.abstract(state);
  if (model.describeState) return model.describeState(state).split(' | ').join('\n');
  return JSON.stringify(state);
}

/** Explores the space (breadth-first, up to `maxStates`) and groups it; see the module comment. */
export function projectedGraph<S>(model: Model<S>, options: ProjectedOptions = {}): StateGraph & { readonly states: number; readonly complete: boolean; readonly groups: readonly string[] } {
  const maxStates = options.maxStates ?? DEFAULT_PROJECTED_STATES;
  const key = keyFunction(model, options.symmetry === true && model.canonicalize !== undefined);
  const invariants = (options.properties ?? []).filter((p) => p.kind === 'invariant') as readonly Property<S>[];
  const seen = new Set<bigint>();
  const groups = new Map<string, { id: number; states: number; initial: boolean; violates: Set<string> }>();
  const edges = new Map<string, { from: number; to: number; actions: Map<string, number> }>();
  const groupId = (s: S, initial: boolean): number => {
    const g = groupOf(model, s);
    let rec = groups.get(g);
    if (rec === undefined) {
      rec = { id: groups.size, states: 0, initial, violates: new Set() };
      groups.set(g, rec);
    }
    return rec.id;
  };
  const records = (): { id: number; states: number; initial: boolean; violates: Set<string> }[] => [...groups.values()];
  let frontier: { s: S; g: number }[] = [];
  for (const s of model.initialStates()) {
    const fp = fingerprint(key(s));
    if (seen.has(fp)) continue;
    seen.add(fp);
    frontier.push({ s, g: groupId(s, true) });
  }
  const count = (s: S, g: number): void => {
    const rec = records()[g];
    rec.states++;
    for (const p of invariants) if (p.kind === 'invariant' && !p.holds(s)) rec.violates.add(p.id);
  };
  for (const { s, g } of frontier) count(s, g);
  let complete = true;
  while (frontier.length > 0) {
    const next: { s: S; g: number }[] = [];
    for (const { s, g } of frontier) {
      for (const succ of successors(model, s)) {
        const h = groupId(succ.state, false);
        if (h !== g) {
          const k = `${g}>${h}`;
          let e = edges.get(k);
          if (e === undefined) edges.set(k, (e = { from: g, to: h, actions: new Map() }));
          e.actions.set(succ.action.name, (e.actions.get(succ.action.name) ?? 0) + 1);
        }
        const fp = fingerprint(key(succ.state));
        if (seen.has(fp)) continue;
        if (seen.size >= maxStates) {
          complete = false;
          continue;
        }
        seen.add(fp);
        count(succ.state, h);
        next.push({ s: succ.state, g: h });
      }
    }
    frontier = next;
  }
  // The trace's path through the groups.
  const onTraceGroups = new Set<number>();
  const onTraceEdges = new Set<string>();
  let lastGroup = -1;
  if (options.trace) {
    const path = options.trace.states.map((s) => groupId(s as S, false));
    path.forEach((g, i) => {
      onTraceGroups.add(g);
      if (i > 0 && path[i - 1] !== g) {
        const k = `${path[i - 1]}>${g}`;
        if (!edges.has(k)) edges.set(k, { from: path[i - 1], to: g, actions: new Map([[options.trace!.actions[i - 1].name, 1]]) });
        onTraceEdges.add(k);
      }
    });
    lastGroup = path[path.length - 1];
  }
  const maxLabels = options.maxLabels ?? 3;
  const names = [...groups.keys()];
  const nodes: GraphNode[] = records().map((r) => {
    const violates = [...r.violates];
    if (r.id === lastGroup && options.mark?.status === 'violated' && options.mark.property && !violates.includes(options.mark.property)) violates.push(options.mark.property);
    return {
      id: r.id,
      label: `${names[r.id]}\n(${r.states.toLocaleString('en-US')} state${r.states === 1 ? '' : 's'})`,
      initial: r.initial,
      violates,
      onTrace: onTraceGroups.has(r.id),
      witness: r.id === lastGroup && options.mark?.status === 'witnessed',
      unexpanded: false,
    };
  });
  const graphEdges: GraphEdge[] = [...edges.entries()].map(([k, e]) => {
    const acts = [...e.actions.keys()].sort();
    const label = acts.length > maxLabels ? `${acts.slice(0, maxLabels).join('\n')}\n+${acts.length - maxLabels} more` : acts.join('\n');
    return { from: e.from, to: e.to, label, onTrace: onTraceEdges.has(k), violates: [] };
  });
  const traced = options.trace ? `, the ${options.trace.actions.length}-step trace${options.mark?.property ? ` (${options.mark.property} ${options.mark.status ?? ''})`.trimEnd() : ''} in bold` : '';
  return {
    title: `${model.name}: ${seen.size.toLocaleString('en-US')} states in ${groups.size} groups${traced}`,
    kind: 'projected',
    nodes,
    edges: graphEdges,
    states: seen.size,
    complete,
    /** The group of each node id: `groupOf` of its states. */
    groups: names,
    ...(complete ? {} : { note: `partial: the first ${maxStates.toLocaleString('en-US')} states (raise --max-states)` }),
  };
}
