/**
 * Models for the parallel search's tests, built from JSON so that worker threads can rebuild them
 * (`modelFactory`): a finite graph whose states are objects `{ at }`, with invariants, goals,
 * action properties, observers, deadlock and a symmetry all given as data.
 */
import { action, alwaysStep, always, observer, sometimes, type Model, type Property } from '../../checker/index.js';

export interface GraphSpec {
  /** Out-edges of each node, in order (self-loops and parallel edges allowed). */
  readonly edges: readonly (readonly number[])[];
  readonly roots: readonly number[];
  /** Per invariant `avoid-k`: the nodes it forbids. */
  readonly avoid?: readonly (readonly number[])[];
  /** Per goal `reach-k`: the nodes that witness it. */
  readonly reach?: readonly (readonly number[])[];
  /** Per action property `no-step-k`: the forbidden steps [from, to]. */
  readonly noStep?: readonly (readonly (readonly [number, number])[])[];
  /** Per observer `visits-k`: at most `max` visits to `node` along a path (counted up to max + 1). */
  readonly visits?: readonly { readonly node: number; readonly max: number }[];
  readonly deadlock?: boolean;
  /** Symmetry: nodes equal modulo this number are one state for fingerprints. */
  readonly mod?: number;
}

export interface At {
  readonly at: number;
}

export function graphModel(spec: GraphSpec): Model<At> {
  const properties: Property<At>[] = [];
  (spec.avoid ?? []).forEach((bad, k) => properties.push(always(`avoid-${k}`, `never at ${bad.join(', ')}`, (s) => !bad.includes(s.at))));
  (spec.reach ?? []).forEach((good, k) => properties.push(sometimes(`reach-${k}`, `reaches ${good.join(', ')}`, (s) => good.includes(s.at))));
  (spec.noStep ?? []).forEach((steps, k) =>
    properties.push(alwaysStep(`no-step-${k}`, 'no forbidden step', (b, _a, c) => !steps.some(([x, y]) => b.at === x && c.at === y))),
  );
  (spec.visits ?? []).forEach(({ node, max }, k) =>
    properties.push(
      observer<At, number>({
        id: `visits-${k}`,
        description: `at most ${max} visits to ${node}`,
        initial: (s) => (s.at === node ? 1 : 0),
        step: (n, _b, _a, c) => Math.min(n + (c.at === node ? 1 : 0), max + 1),
        holds: (n) => n <= max,
      }),
    ),
  );
  const roots = spec.roots.map((at) => ({ at }));
  const mod = spec.mod;
  return {
    name: `graph(${spec.edges.length})`,
    initialStates: () => roots,
    actions: [action<At, number>({ name: 'go', params: (s) => spec.edges[s.at], apply: (s, t) => (t === s.at ? s : { at: t }) })],
    properties,
    ...(spec.deadlock ? { checkDeadlock: true } : {}),
    ...(mod ? { canonicalize: (s: At): At => ({ at: s.at % mod }) } : {}),
  };
}

/** Not a model: for the test that a bad factory is refused. */
export function notAModel(): unknown {
  return { name: 'something else', actions: [] };
}
