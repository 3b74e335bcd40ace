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
import { check, type Model, type Property, type SearchVisitor, type Trace } from '../checker/index.js';
import { pathOf, type GraphEdge, type GraphNode, type StateGraph, type TraceMark } from './graph.js';

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

/** A projected graph, with how many states it groups and whether they are every reachable one. */
export type ProjectedGraph = StateGraph & { readonly states: number; readonly complete: boolean; readonly groups: readonly string[] };

/** The trace to draw over a projected graph, and how it ends. */
export interface ProjectedTrace {
  readonly trace?: Trace<unknown>;
  readonly mark?: TraceMark;
  /** Most action names written on one edge (default 3; the rest counted). */
  readonly maxLabels?: number;
}

/**
 * Groups states and steps as they are seen: `state` for each distinct state, `step` for each step
 * out of one (by the group `state` gave it). Fed by its own exploration (`projectedGraph`) or by a
 * check's ({@link projectionVisitor}), so a report can draw the states its check explored.
 */
export class Projection<S> {
  private readonly groups = new Map<string, { id: number; states: number; initial: boolean; violates: Set<string> }>();
  private readonly records: { id: number; states: number; initial: boolean; violates: Set<string> }[] = [];
  private readonly edges = new Map<string, { from: number; to: number; actions: Map<string, number> }>();
  private readonly invariants: readonly Property<S>[];
  private counted = 0;

  constructor(private readonly model: Model<S>, properties: readonly Property<unknown>[] = []) {
    this.invariants = properties.filter((p) => p.kind === 'invariant') as readonly Property<S>[];
  }

  /** The group of a state (made when new). */
  groupId(s: S, initial = false): number {
    const g = groupOf(this.model, s);
    let rec = this.groups.get(g);
    if (rec === undefined) {
      rec = { id: this.groups.size, states: 0, initial, violates: new Set() };
      this.groups.set(g, rec);
      this.records.push(rec);
    }
    if (initial) rec.initial = true;
    return rec.id;
  }

  /**
   * Counts a distinct state in its group, with the checked invariants it violates (asked again
   * here: a check stops asking an invariant once it is decided, a graph colours every group that
   * holds a violating state); returns the group.
   */
  state(s: S, initial = false, group?: number): number {
    const g = group ?? this.groupId(s, initial);
    const rec = this.records[g];
    rec.states++;
    this.counted++;
    for (const p of this.invariants) if (p.kind === 'invariant' && !p.holds(s)) rec.violates.add(p.id);
    return g;
  }

  /** A step from group `from` to the state `to`: an edge when it changes group. Returns the group of `to`. */
  step(from: number, action: string, to: S): number {
    const h = this.groupId(to);
    if (h !== from) this.edge(from, h, action);
    return h;
  }

  /** A step from group `from` to group `to`: an edge when they differ. */
  link(from: number, action: string, to: number): void {
    if (to !== from) this.edge(from, to, action);
  }

  private edge(from: number, to: number, action: string): void {
    const k = `${from}>${to}`;
    let e = this.edges.get(k);
    if (e === undefined) this.edges.set(k, (e = { from, to, actions: new Map() }));
    e.actions.set(action, (e.actions.get(action) ?? 0) + 1);
  }

  /** The graph: one node per group, one edge per pair, the trace's path bold. */
  graph(complete: boolean, options: ProjectedTrace & { readonly note?: string } = {}): ProjectedGraph {
    const onTraceGroups = new Set<number>();
    const onTraceEdges = new Set<string>();
    // The trace's steps between groups that no explored step joins (drawn for this graph only).
    const edges = new Map(this.edges);
    let lastGroup = -1;
    let path: number[] | undefined;
    if (options.trace) {
      const trace = options.trace;
      const groups = trace.states.map((s) => this.groupId(s as S));
      groups.forEach((g, i) => {
        onTraceGroups.add(g);
        if (i > 0 && groups[i - 1] !== g) {
          const k = `${groups[i - 1]}>${g}`;
          if (!edges.has(k)) edges.set(k, { from: groups[i - 1], to: g, actions: new Map([[trace.actions[i - 1].name, 1]]) });
          onTraceEdges.add(k);
        }
      });
      lastGroup = groups[groups.length - 1];
      path = pathOf(groups);
    }
    const maxLabels = options.maxLabels ?? 3;
    const names = [...this.groups.keys()];
    const nodes: GraphNode[] = this.records.map((r) => {
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
      title: `${this.model.name}: ${this.counted.toLocaleString('en-US')} states in ${this.groups.size} groups${traced}`,
      kind: 'projected',
      nodes,
      edges: graphEdges,
      states: this.counted,
      complete,
      groups: names,
      ...(path === undefined ? {} : { path }),
      ...(options.note === undefined ? {} : { note: options.note }),
    };
  }
}

/**
 * A check's visitor that groups what the check explores (`CheckOptions.visitor`): the report
 * then draws the states the check stored (under its symmetry, the representatives it kept) and
 * the steps between them, at the cost of grouping each stored state once, instead of exploring a
 * second time.
 */
export function projectionVisitor<S>(model: Model<S>, properties: readonly Property<unknown>[] = []): { readonly visitor: SearchVisitor<S>; readonly projection: Projection<S> } {
  const projection = new Projection(model, properties);
  // Each stored state is grouped once; a step joins the groups of the states it was stored as.
  const groupOfId: number[] = [];
  return {
    projection,
    visitor: {
      state: (s, id, initial) => {
        groupOfId[id] = projection.state(s, initial);
      },
      step: (from, action, to, toId) => {
        if (toId >= 0) projection.link(groupOfId[from], action.name, groupOfId[toId]);
        else projection.step(groupOfId[from], action.name, to);
      },
    },
  };
}

/**
 * Groups the reachable space, up to `maxStates` states, explored by the checker's own search
 * (breadth-first, no property: every state) through its visitor; see the module comment.
 */
export function projectedGraph<S>(model: Model<S>, options: ProjectedOptions = {}): ProjectedGraph {
  const maxStates = options.maxStates ?? DEFAULT_PROJECTED_STATES;
  const { visitor, projection } = projectionVisitor(model, options.properties ?? []);
  const explored = check(model, { properties: [], symmetry: options.symmetry === true, maxStates, visitor: visitor as SearchVisitor<unknown> });
  const complete = explored.stoppedBy === undefined;
  return projection.graph(complete, {
    ...(options.trace ? { trace: options.trace } : {}),
    ...(options.mark ? { mark: options.mark } : {}),
    ...(options.maxLabels === undefined ? {} : { maxLabels: options.maxLabels }),
    ...(complete ? {} : { note: `partial: the first ${maxStates.toLocaleString('en-US')} states (raise --max-states)` }),
  });
}
