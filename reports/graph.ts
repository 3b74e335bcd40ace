/**
 * State graphs: the whole reachable graph of a small model, or the neighbourhood of a trace (the
 * states on it and their direct successors) for a large one. Nodes are states identified by the
 * model's view (and canonical form when symmetry is on); edges are steps labelled with the model's
 * description of each (`kubelet/node-1: starts db-0 on node-1`), never a parameter's JSON.
 * The graph is capped (default 500 nodes), because Graphviz cannot lay out thousands of nodes;
 * a capped graph says so in its `note`.
 */
import {
  check, fingerprint, formatAction, successors, type ActionLabel, type Model, type Property, type SearchVisitor, type Trace,
} from '../checker/index.js';
import { stepLabel } from './timeline.js';

export interface GraphNode {
  readonly id: number;
  readonly label: string;
  readonly initial: boolean;
  /** Ids of the invariants this state violates (and the violated property at a trace's end). */
  readonly violates: readonly string[];
  readonly onTrace: boolean;
  /** A goal's witness state at the end of the trace. */
  readonly witness: boolean;
  /** Successors not drawn (neighbourhood graphs and capped graphs). */
  readonly unexpanded: boolean;
}

export interface GraphEdge {
  readonly from: number;
  readonly to: number;
  readonly label: string;
  readonly onTrace: boolean;
  /** Ids of the action properties this step violates. */
  readonly violates: readonly string[];
}

export interface StateGraph {
  readonly title: string;
  readonly nodes: readonly GraphNode[];
  readonly edges: readonly GraphEdge[];
  /**
   * `whole`: every reachable state; `neighbourhood`: a trace and its direct successors;
   * `projected`: every reachable state grouped by a view (see projected.ts).
   */
  readonly kind: 'whole' | 'neighbourhood' | 'projected';
  /** Set when the cap cut the graph: says what was left out. */
  readonly note?: string;
  /**
   * A drawn trace's nodes in the order it visits them (a node repeated at once is listed once),
   * from its first state to its last: what a page scrolls into view.
   */
  readonly path?: readonly number[];
}

/** A trace's nodes in order, each run of one node listed once. */
export function pathOf(nodes: readonly number[]): number[] {
  return nodes.filter((n, i) => i === 0 || nodes[i - 1] !== n);
}

export interface GraphOptions {
  /** Most nodes drawn (default 500). */
  readonly maxNodes?: number;
  /** Most edges drawn (default 4 × maxNodes). */
  readonly maxEdges?: number;
  /** Merge symmetric states through the model's canonical form (default false: real states). */
  readonly symmetry?: boolean;
  /** Properties whose violations colour states and edges: pass the checked ones (default: the model's). */
  readonly properties?: readonly Property<unknown>[];
}

export const DEFAULT_MAX_NODES = 500;

/** Builds nodes and edges, identifying states by fingerprint. */
class Builder<S> {
  readonly nodes: GraphNode[] = [];
  readonly edges: GraphEdge[] = [];
  readonly states: S[] = [];
  private readonly ids = new Map<bigint, number>();
  private readonly edgeKeys = new Set<string>();
  private readonly invariants: Property<S>[];
  private readonly stepProps: Property<S>[];
  constructor(private readonly model: Model<S>, private readonly options: GraphOptions) {
    const props = (options.properties as readonly Property<S>[] | undefined) ?? model.properties;
    this.invariants = props.filter((p) => p.kind === 'invariant');
    this.stepProps = props.filter((p) => p.kind === 'action');
  }
  key(s: S): bigint {
    const c = this.options.symmetry && this.model.canonicalize ? this.model.canonicalize(s) : s;
    return fingerprint(this.model.view ? this.model.view(c) : c);
  }
  find(s: S): number | undefined {
    return this.ids.get(this.key(s));
  }
  add(s: S, initial: boolean): number {
    const k = this.key(s);
    const known = this.ids.get(k);
    if (known !== undefined) return known;
    return this.push(s, initial, k);
  }
  /** A node for a state known to be new (the checker's search found it so). */
  push(s: S, initial: boolean, k: bigint = this.key(s)): number {
    const id = this.nodes.length;
    this.ids.set(k, id);
    this.states.push(s);
    const violates = this.invariants.flatMap((p) => (p.kind === 'invariant' && !p.holds(s) ? [p.id] : []));
    this.nodes.push({ id, label: stateLabel(this.model, s, id), initial, violates, onTrace: false, witness: false, unexpanded: false });
    return id;
  }
  /** An edge for the step `action` from node `from` to node `to`, between the real states `before` and `after`. */
  edge(from: number, to: number, action: ActionLabel, onTrace: boolean, before: S = this.states[from], after: S = this.states[to]): void {
    const key = `${from}>${to}>${formatAction(action)}`;
    if (this.edgeKeys.has(key)) return;
    this.edgeKeys.add(key);
    const label = stepLabel(this.model, before, action, after);
    const violates = this.stepProps.flatMap((p) => (p.kind === 'action' && !p.holds(before, action, after) ? [p.id] : []));
    this.edges.push({ from, to, label, onTrace, violates });
  }
  patch(id: number, change: Partial<GraphNode>): void {
    this.nodes[id] = { ...this.nodes[id], ...change };
  }
}

/** A node's label: `#id` and the model's description of the state, wrapped to about 40 columns. */
export function stateLabel<S>(model: Model<S>, s: S, id: number): string {
  const text = model.describeState ? model.describeState(s) : JSON.stringify(s);
  const words = text.split(/\s+/);
  const lines: string[] = [];
  let line = '';
  for (const w of words) {
    if (line && line.length + w.length + 1 > 40) {
      lines.push(line);
      line = w;
    } else line = line ? `${line} ${w}` : w;
  }
  if (line) lines.push(line);
  if (lines.length > 8) lines.splice(8, lines.length - 8, '…');
  return [`#${id}`, ...lines].join('\n');
}

/**
 * The whole reachable graph, or `undefined` when it has more than `maxNodes` states (then draw a
 * trace's neighbourhood instead).
 */
export function wholeGraph<S>(model: Model<S>, options: GraphOptions = {}): StateGraph | undefined {
  const maxNodes = options.maxNodes ?? DEFAULT_MAX_NODES;
  const maxEdges = options.maxEdges ?? 4 * maxNodes;
  const b = new Builder(model, options);
  // The checker's own search (no property: every state), its ids are the nodes' ids.
  const visitor: SearchVisitor<S> = {
    state: (s, _id, initial) => {
      b.push(s, initial);
    },
    step: (from, action, to, toId) => {
      if (toId >= 0) b.edge(from, toId, action, false, b.states[from], to);
    },
  };
  const explored = check(model, { properties: [], symmetry: options.symmetry === true && model.canonicalize !== undefined, maxStates: maxNodes, visitor: visitor as SearchVisitor<unknown> });
  if (explored.stoppedBy !== undefined) return undefined;
  const cut = b.edges.length > maxEdges;
  return {
    title: model.name,
    kind: 'whole',
    nodes: b.nodes,
    edges: cut ? b.edges.slice(0, maxEdges) : b.edges,
    ...(cut ? { note: `${b.edges.length - maxEdges} of ${b.edges.length} edges left out (cap ${maxEdges})` } : {}),
  };
}

/** How a trace ends, to mark its last state. */
export interface TraceMark {
  readonly property?: string;
  readonly status?: 'violated' | 'witnessed';
}

/**
 * The states on `trace` and their direct successors, the trace's steps drawn bold. When the
 * successors would pass `maxNodes`, those beyond the cap are left out and `note` says how many.
 */
export function traceNeighbourhood<S>(model: Model<S>, trace: Trace<S>, mark: TraceMark = {}, options: GraphOptions = {}): StateGraph {
  const maxNodes = options.maxNodes ?? DEFAULT_MAX_NODES;
  const b = new Builder(model, options);
  const onTrace = trace.states.map((s, i) => b.add(s, i === 0 && trace.path.initial >= 0));
  for (let i = 0; i < trace.actions.length; i++) b.edge(onTrace[i], onTrace[i + 1], trace.actions[i], true, trace.states[i], trace.states[i + 1]);
  let left = 0;
  for (let i = 0; i < trace.states.length; i++) {
    for (const next of successors(model, trace.states[i])) {
      let to = b.find(next.state);
      if (to === undefined) {
        if (b.nodes.length >= maxNodes) {
          left++;
          continue;
        }
        to = b.add(next.state, false);
        b.patch(to, { unexpanded: true });
      }
      b.edge(onTrace[i], to, next.action, false, trace.states[i], next.state);
    }
  }
  for (const id of onTrace) b.patch(id, { onTrace: true, unexpanded: false });
  const last = onTrace[onTrace.length - 1];
  if (mark.status === 'violated' && mark.property && !b.nodes[last].violates.includes(mark.property)) {
    b.patch(last, { violates: [...b.nodes[last].violates, mark.property] });
  }
  if (mark.status === 'witnessed') b.patch(last, { witness: true });
  return {
    title: `${model.name}: ${trace.actions.length}-step trace${mark.property ? ` (${mark.property} ${mark.status})` : ''} and its direct successors`,
    kind: 'neighbourhood',
    nodes: b.nodes,
    edges: b.edges,
    path: pathOf(onTrace),
    ...(left > 0 ? { note: `${left} successor states left out (cap ${maxNodes} nodes)` } : {}),
  };
}
