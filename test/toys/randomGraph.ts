/**
 * The random-graph models of test/checker/randomGraphs.test.ts, built from JSON so that worker
 * threads can rebuild them (`modelFactory`). States are node numbers; one action `go` whose
 * parameters are the node's out-edges, in order (self-loops and parallel edges included). The
 * same graph is also written as a state vector of one slot holding the node, so the state-vector
 * search and the generic one explore the very same graph.
 */
import { action, always, vectorAction, vectorModel, type Model, type VectorState } from '../../checker/index.js';

export interface RandomGraph {
  /** Out-edges of each node, in order. */
  readonly edges: readonly (readonly number[])[];
  readonly roots: readonly number[];
  /** The node the invariant `avoid-target` forbids (and liveness tests wait for). */
  readonly target: number;
  /** Check `avoid-target` (default: no property). */
  readonly invariant?: boolean;
  /** Steps u → v with `(5u + 3v + faultSalt) % 3 === 0` are faults; absent: no fault test. */
  readonly faultSalt?: number;
  /** Mark `go` weakly fair (liveness). */
  readonly fair?: boolean;
}

/** Whether the step `from → to` is a fault of `g` (by the fault test the models declare). */
export function isFaultStep(g: RandomGraph, from: number, to: number): boolean {
  return g.faultSalt !== undefined && (5 * from + 3 * to + g.faultSalt) % 3 === 0;
}

/** The graph as a model over node numbers. */
export function randomGraphModel(g: RandomGraph): Model<number> {
  return {
    name: 'random-graph',
    initialStates: () => g.roots,
    actions: [action<number, number>({ name: 'go', params: (s) => g.edges[s], apply: (_s, t) => t, ...(g.fair ? { fair: true } : {}) })],
    properties: g.invariant ? [always('avoid-target', 'the target node is never reached', (s) => s !== g.target)] : [],
    ...(g.faultSalt === undefined ? {} : { isFault: (before: number, _a: unknown, after: number) => isFaultStep(g, before, after) }),
  };
}

/** The graph as a state-vector model: one slot, `node`, holding the node number. */
export function randomGraphVectorModel(g: RandomGraph): Model<VectorState> {
  return vectorModel({
    name: 'random-graph-vector',
    slots: [{ name: 'node', size: g.edges.length }],
    initial: g.roots.map((r) => [r]),
    actions: [
      vectorAction<number>({ name: 'go', params: (v) => g.edges[v[0]], apply: (_v, next, t) => next.set(0, t), ...(g.fair ? { fair: true } : {}) }),
    ],
    properties: g.invariant ? [always<VectorState>('avoid-target', 'the target node is never reached', (v) => v[0] !== g.target)] : [],
    ...(g.faultSalt === undefined ? {} : { isFault: (before: VectorState, _a: unknown, after: VectorState) => isFaultStep(g, before[0], after[0]) }),
  });
}
