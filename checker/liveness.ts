/**
 * Liveness under fairness over the explored graph: `eventually(Q)`, `always eventually(Q)` and
 * `P leads-to Q`, with weak fairness on the actions a model marks `fair`, as TLC checks them
 * (strongly connected components of the behaviour graph, TLA+ stuttering included).
 *
 * The whole reachable graph is built first (states, and edges labelled by action), so this is for
 * spaces that fit in memory as objects; it does not use symmetry: a property must refuse it
 * rather than be checked on the quotient graph, where TLC's liveness under symmetry is unsound
 * (tlaplus/tlaplus#59).
 *
 * Semantics. Every state may stutter (stay as it is), as in TLA+. A behaviour violates
 * `eventually(Q)` when it never reaches Q; it ends in a cycle of ¬Q states. Fairness is about
 * steps that change the state, as TLA+'s `WF_vars(A)` and `SF_vars(A)` are about `<<A>>_vars`
 * (`A /\ vars' # vars`): a fair action is enabled in a state when it has a step there that leads
 * to another state, and taken only by such a step. A step that leads back to the state it left
 * (the same key: the model's `view` or `plainView`, never symmetry here) is a stuttering step,
 * whatever its action: a busy wait or a controller pass that changes nothing neither enables nor
 * takes its action. (TLC evaluates `vars' # vars` on the whole state; with a `view` that leaves
 * out part of the state, a step that changes only that part stutters here, as it does in TLC's
 * graph of view fingerprints.) Under weak fairness (`fair: true` or `'weak'`) a cycle is
 * admissible only if every such action enabled in all of its states is taken on it; under strong
 * fairness (`fair: 'strong'`) only if every such action enabled in one of its states is taken on
 * it. Stuttering forever at a state s is admissible only if no fair action is enabled at s. In a
 * strongly connected component one cycle can visit every state and edge, so for weak fairness
 * the component test is exact: each weakly fair action is disabled somewhere in it or takes one
 * of its edges. A component that fails a strongly fair action enabled in some of its states but
 * never taken in it may still hold an admissible cycle that avoids those states: they are removed
 * and the rest decomposed again (as TLC and the Emerson-Lei algorithm do). Strong fairness suits
 * an action that other work keeps disabling now and then, such as a step that waits for an
 * instant with no urgent work.
 *
 * - `eventually(Q)`: violated iff an admissible component of the ¬Q subgraph is reachable from an
 *   initial ¬Q state through ¬Q states.
 * - `always eventually(Q)`: violated iff an admissible component of the ¬Q subgraph is reachable.
 * - `eventually always(P)`: violated iff an admissible component of the whole graph holds a ¬P
 *   state (a fair behaviour can meet ¬P again and again; every state is reachable).
 * - `P leads-to Q`: violated iff an admissible ¬Q component is reachable through ¬Q states from a
 *   reachable state where P and ¬Q hold. Its outcome says whether P holds in some reachable state
 *   (`premiseReached`): one that holds without P ever holding holds vacuously.
 *
 * A violation is a lasso: a prefix from an initial state and a cycle that returns to the prefix's
 * last state (`loop` is the index in `states` where the cycle starts).
 */
import { fail, CheckerErrorCode } from './errors.js';
import { formatAction, type ActionLabel, type AnyActionDef, type Model } from './model.js';
import type { CheckOptions, SearchVisitor } from './options.js';
import type { PropertyOutcome } from './result.js';
import { Search } from './searchCore.js';

/** The kinds of liveness property. */
export type LivenessKind = 'eventually' | 'always-eventually' | 'eventually-always' | 'leads-to';

/** A liveness property over states. */
export interface LivenessProperty<S> {
  readonly id: string;
  readonly description: string;
  readonly kind: LivenessKind;
  /** The premise of `leads-to`. */
  readonly p?: (s: S) => boolean;
  readonly q: (s: S) => boolean;
}

/** `eventually(Q)`: every behaviour reaches a Q state. */
export function eventually<S>(id: string, description: string, q: (s: S) => boolean): LivenessProperty<S> {
  return { id, description, kind: 'eventually', q };
}

/** `always eventually(Q)`: every behaviour reaches Q again and again. */
export function alwaysEventually<S>(id: string, description: string, q: (s: S) => boolean): LivenessProperty<S> {
  return { id, description, kind: 'always-eventually', q };
}

/** `eventually always(P)`, TLA+'s `<>[]P`: every behaviour reaches a point from which P holds for good. */
export function eventuallyAlways<S>(id: string, description: string, p: (s: S) => boolean): LivenessProperty<S> {
  return { id, description, kind: 'eventually-always', q: p };
}

/** `P leads-to Q`: whenever P holds, Q holds then or later. */
export function leadsTo<S>(id: string, description: string, p: (s: S) => boolean, q: (s: S) => boolean): LivenessProperty<S> {
  return { id, description, kind: 'leads-to', p, q };
}

/** The memory bound of the search that builds the graph (the check's, `CheckOptions`). */
export type MemoryBound = Pick<CheckOptions, 'maxMemoryBytes' | 'maxMemoryMB'>;

/** The most states a liveness check keeps as a whole graph by default. */
export const LIVENESS_MAX_STATES = 200_000;

export interface LivenessOptions {
  /** Refuse spaces larger than this (the graph is kept whole); default {@link LIVENESS_MAX_STATES}. */
  readonly maxStates?: number;
  /** Must be false or absent: liveness is not checked on a symmetry-reduced graph. */
  readonly symmetry?: boolean;
}

/** A step of the graph: the state it leads to and its label. */
export interface GraphEdge {
  readonly to: number;
  readonly action: ActionLabel;
  /**
   * The fair action the step is a step of (its name), when its action is fair and the step
   * changes the state; `undefined` for a step of an unfair action and for a stuttering step
   * (one that leads back to the state it left).
   */
  readonly fair: string | undefined;
}

/** The reachable graph: states, their keys and labelled edges (self-loops included). */
export interface StateGraph<S> {
  readonly states: readonly S[];
  readonly edges: readonly (readonly GraphEdge[])[];
  /**
   * Per state, the fair actions enabled there: those with a step that changes the state (TLA+'s
   * ENABLED <<A>>_vars; a step that leads back to the same state does not enable its action).
   */
  readonly fairEnabled: readonly ReadonlySet<string>[];
  readonly initial: readonly number[];
  /** The fair actions under weak fairness that have a step in the graph (names, or `name(instance)` with `fairPer`). */
  readonly fairActions: readonly string[];
  /** The same under strong fairness. */
  readonly strongActions: readonly string[];
}

/**
 * Builds the whole reachable graph of `model` (no symmetry): the checker's own breadth-first
 * search with a visitor that keeps every state and every step (self-loops and duplicates
 * included), so it has the search's fingerprints and memory guard.
 */
export function buildGraph<S>(model: Model<S>, maxStates = LIVENESS_MAX_STATES): StateGraph<S> {
  const g = graphWithin(model, maxStates);
  if (typeof g === 'string') fail(CheckerErrorCode.livenessUnsupported, `liveness: ${g}; liveness keeps the whole graph, so check a smaller configuration`);
  return g;
}

/** {@link buildGraph}, or why it could not be built within `maxStates` (a bound stopped it). */
export function graphWithin<S>(model: Model<S>, maxStates = LIVENESS_MAX_STATES, memory: MemoryBound = {}): StateGraph<S> | string {
  const states: S[] = [];
  const edges: GraphEdge[][] = [];
  const fairEnabled: Set<string>[] = [];
  const initial: number[] = [];
  const defs = new Map<string, AnyActionDef<S>>();
  for (const a of model.actions) if (!defs.has(a.name)) defs.set(a.name, a);
  const weak = new Set<string>();
  const strong = new Set<string>();
  const visitor: SearchVisitor<S> = {
    state: (s, id, root) => {
      states[id] = s;
      edges[id] = [];
      fairEnabled[id] = new Set();
      if (root) initial.push(id);
    },
    step: (from, action, _to, toId) => {
      // A step stored as the state it left stutters (same key: the model's view, no symmetry):
      // it neither enables nor takes its action (TLA+'s fairness is about <<A>>_vars).
      const def = defs.get(action.name);
      const fair = def === undefined || toId === from ? undefined : fairUnit(def, action);
      edges[from].push({ to: toId, action, fair });
      if (fair === undefined) return;
      fairEnabled[from].add(fair);
      (def!.fair === 'strong' ? strong : weak).add(fair);
    },
  };
  const r = new Search(model, { ...memory, properties: [], symmetry: false, maxStates, visitor: visitor as SearchVisitor<unknown> }).run();
  if (r.stoppedBy !== undefined) {
    return r.stoppedBy.bound === 'states' ? `the space has more than ${maxStates.toLocaleString('en-US')} states` : `the ${r.stoppedBy.bound} bound stopped building the graph at ${r.stats.distinctStates.toLocaleString('en-US')} states`;
  }
  return { states, edges, fairEnabled, initial, fairActions: [...weak], strongActions: [...strong] };
}

/**
 * The fair action a step of `def` is a step of, or undefined when `def` is not fair: the action's
 * name, or with `fairPer` the name and the parameter's instance, `name(instance)` (TLA+'s
 * `\A p : WF_vars(A(p))`, one fair action per instance).
 */
export function fairUnit<S>(def: AnyActionDef<S>, label: ActionLabel): string | undefined {
  if (def.fair !== true && def.fair !== 'weak' && def.fair !== 'strong') return undefined;
  if (def.fairPer === undefined) return def.name;
  return formatAction({ name: def.name, param: def.fairPer(label.param) });
}

/** Strongly connected components of the subgraph of `inside` states (Tarjan, iterative). */
export function components<S>(g: StateGraph<S>, inside: (i: number) => boolean): number[][] {
  const n = g.states.length;
  const index = new Int32Array(n).fill(-1);
  const low = new Int32Array(n);
  const onStack = new Uint8Array(n);
  const stack: number[] = [];
  const out: number[][] = [];
  let counter = 0;
  for (let root = 0; root < n; root++) {
    if (!inside(root) || index[root] >= 0) continue;
    const work: { v: number; e: number }[] = [{ v: root, e: 0 }];
    index[root] = low[root] = counter++;
    stack.push(root);
    onStack[root] = 1;
    while (work.length > 0) {
      const top = work[work.length - 1];
      const list = g.edges[top.v];
      if (top.e < list.length) {
        const w = list[top.e++].to;
        if (!inside(w)) continue;
        if (index[w] < 0) {
          index[w] = low[w] = counter++;
          stack.push(w);
          onStack[w] = 1;
          work.push({ v: w, e: 0 });
        } else if (onStack[w]) low[top.v] = Math.min(low[top.v], index[w]);
        continue;
      }
      work.pop();
      if (work.length > 0) low[work[work.length - 1].v] = Math.min(low[work[work.length - 1].v], low[top.v]);
      if (low[top.v] === index[top.v]) {
        const c: number[] = [];
        let w: number;
        do {
          w = stack.pop()!;
          onStack[w] = 0;
          c.push(w);
        } while (w !== top.v);
        out.push(c.sort((a, b) => a - b));
      }
    }
  }
  return out;
}

/**
 * Whether component `c` (of the subgraph `inside`) carries a fair behaviour as a whole: every
 * weakly fair action is disabled in one of its states or takes one of its edges (a step that
 * changes the state), and every strongly fair action enabled in one of its states takes one. Stuttering makes
 * every component, a single state included, a cycle.
 */
export function admissible<S>(g: StateGraph<S>, c: readonly number[], inside: (i: number) => boolean): boolean {
  return weaklyFair(g, c, inside) && strongFailures(g, c, inside).length === 0;
}

/** Whether fair action `a` has a step that changes the state between two states of `c`. */
const takenIn = <S>(g: StateGraph<S>, c: readonly number[], members: ReadonlySet<number>, inside: (i: number) => boolean, a: string): boolean =>
  c.some((i) => g.edges[i].some((e) => e.fair === a && members.has(e.to) && inside(e.to)));

function weaklyFair<S>(g: StateGraph<S>, c: readonly number[], inside: (i: number) => boolean): boolean {
  const members = new Set(c);
  for (const a of g.fairActions) {
    if (c.some((i) => !g.fairEnabled[i].has(a))) continue;
    if (!takenIn(g, c, members, inside, a)) return false;
  }
  return true;
}

/** The strongly fair actions enabled somewhere in `c` and never taken inside it. */
function strongFailures<S>(g: StateGraph<S>, c: readonly number[], inside: (i: number) => boolean): string[] {
  const members = new Set(c);
  return g.strongActions.filter((a) => c.some((i) => g.fairEnabled[i].has(a)) && !takenIn(g, c, members, inside, a));
}

/**
 * The admissible components of the subgraph `inside`: components fair as a whole, and inside a
 * component that fails a strongly fair action, those of what remains once the states enabling it
 * are removed (recursively).
 */
export function fairComponents<S>(g: StateGraph<S>, inside: (i: number) => boolean): number[][] {
  const out: number[][] = [];
  for (const c of components(g, inside)) {
    const failing = strongFailures(g, c, inside);
    if (failing.length === 0) {
      if (weaklyFair(g, c, inside)) out.push(c);
      continue;
    }
    const members = new Set(c.filter((i) => !failing.some((a) => g.fairEnabled[i].has(a))));
    if (members.size === 0) continue;
    out.push(...fairComponents(g, (i) => members.has(i) && inside(i)));
  }
  return out;
}

/** Breadth-first path inside `allowed` from any of `from` to a state of `to` (state ids and the steps between them). */
function pathTo<S>(g: StateGraph<S>, from: readonly number[], to: ReadonlySet<number>, allowed: (i: number) => boolean): { ids: number[]; steps: GraphEdge[] } | undefined {
  const parent = new Map<number, { prev: number; edge: GraphEdge } | null>();
  const queue: number[] = [];
  for (const f of from) if (allowed(f) && !parent.has(f)) {
    parent.set(f, null);
    queue.push(f);
  }
  for (let h = 0; h < queue.length; h++) {
    const v = queue[h];
    if (to.has(v)) {
      const ids = [v];
      const steps: GraphEdge[] = [];
      for (let p = parent.get(v); p; p = parent.get(p.prev)) {
        ids.unshift(p.prev);
        steps.unshift(p.edge);
      }
      return { ids, steps };
    }
    for (const e of g.edges[v]) {
      if (!allowed(e.to) || parent.has(e.to)) continue;
      parent.set(e.to, { prev: v, edge: e });
      queue.push(e.to);
    }
  }
  return undefined;
}

/**
 * A fair cycle in component `c` from `entry` back to it: it takes a step that changes the state of
 * every fair action the component must take (weak ones enabled in all its states, strong ones
 * enabled in one), and passes through a state where each other weakly fair action is disabled
 * unless it takes it anyway. A cycle with no step is stuttering at `entry` forever.
 */
function cycleIn<S>(g: StateGraph<S>, c: readonly number[], entry: number): { ids: number[]; steps: GraphEdge[] } {
  const members = new Set(c);
  const inC = (i: number): boolean => members.has(i);
  const needed = [...g.fairActions.filter((a) => c.every((i) => g.fairEnabled[i].has(a))), ...g.strongActions.filter((a) => c.some((i) => g.fairEnabled[i].has(a)))];
  const ids = [entry];
  const steps: GraphEdge[] = [];
  let at = entry;
  const walk = (targets: ReadonlySet<number>): void => {
    const w = pathTo(g, [at], targets, inC)!;
    ids.push(...w.ids.slice(1));
    steps.push(...w.steps);
    at = w.ids[w.ids.length - 1];
  };
  for (const a of needed) {
    // Walk to a state with a step of `a` inside c that changes the state, take it.
    walk(new Set(c.filter((i) => g.edges[i].some((e) => e.fair === a && members.has(e.to)))));
    const edge = g.edges[at].find((e) => e.fair === a && members.has(e.to))!;
    ids.push(edge.to);
    steps.push(edge);
    at = edge.to;
  }
  // A weakly fair action enabled all along the cycle so far and not taken: pass through a state
  // of c that disables it (one exists, or it would be needed). More states only disable more.
  for (const a of g.fairActions) {
    if (steps.some((e) => e.fair === a) || ids.some((i) => !g.fairEnabled[i].has(a))) continue;
    walk(new Set(c.filter((i) => !g.fairEnabled[i].has(a))));
  }
  if (at !== entry) walk(new Set([entry]));
  return { ids, steps };
}

/**
 * Checks liveness properties on the whole reachable graph of `model`: one outcome per property, of
 * its kind, `holds` or `violated` with a lasso.
 */
export function checkLiveness<S>(model: Model<S>, properties: readonly LivenessProperty<S>[], options: LivenessOptions = {}): PropertyOutcome<S>[] {
  if (options.symmetry === true) {
    fail(CheckerErrorCode.livenessUnsupported, 'liveness is not checked with symmetry: a lasso in the reduced graph need not be a behaviour (the unsoundness of tlaplus/tlaplus#59); check without symmetry');
  }
  return decide(buildGraph(model, options.maxStates), properties);
}

/**
 * {@link checkLiveness}, but a graph larger than `maxStates` leaves each property `unknown`, with
 * the reason, instead of failing: what `check` does after its search, so that the search's result
 * is kept and the verdict says what was left undecided.
 */
export function livenessWithin<S>(model: Model<S>, properties: readonly LivenessProperty<S>[], maxStates = LIVENESS_MAX_STATES, memory: MemoryBound = {}): PropertyOutcome<S>[] {
  if (properties.length === 0) return [];
  const g = graphWithin(model, maxStates, memory);
  if (typeof g !== 'string') return decide(g, properties);
  const reason = `not decided: ${g} (liveness keeps the whole graph)`;
  return properties.map((p) => ({ id: p.id, kind: p.kind, description: p.description, status: 'unknown' as const, reason }));
}

function decide<S>(g: StateGraph<S>, properties: readonly LivenessProperty<S>[]): PropertyOutcome<S>[] {
  let everywhere: number[][] | undefined;
  return properties.map((prop) => {
    const notQ = (i: number): boolean => !prop.q(g.states[i]);
    if (prop.kind === 'eventually-always') {
      // A fair behaviour that meets ¬P again and again: a fair component of the whole graph (all
      // of it is reachable) with a ¬P state, entered at that state.
      everywhere ??= fairComponents(g, () => true);
      const component = everywhere.find((c) => c.some(notQ));
      const outcome = { id: prop.id, kind: prop.kind, description: prop.description };
      if (component === undefined) return { ...outcome, status: 'holds' as const };
      const entry = component.find(notQ)!;
      const lead = pathTo(g, g.initial, new Set([entry]), () => true)!;
      const cycle = cycleIn(g, component, entry);
      const ids = [...lead.ids, ...cycle.ids.slice(1)];
      const actions = [...lead.steps, ...cycle.steps].map((e) => e.action);
      return { ...outcome, status: 'violated' as const, lasso: { states: ids.map((i) => g.states[i]), actions, loop: lead.ids.length - 1 } };
    }
    const starts =
      prop.kind === 'eventually'
        ? g.initial.filter(notQ)
        : prop.kind === 'leads-to'
          ? g.states.flatMap((s, i) => (prop.p!(s) && notQ(i) ? [i] : []))
          : g.states.flatMap((_s, i) => (notQ(i) ? [i] : []));
    const bad = fairComponents(g, notQ);
    const targets = new Set(bad.flatMap((c) => c));
    const reach = pathTo(g, starts, targets, notQ);
    // Whether a leads-to was ever triggered: a `holds` of one never triggered is vacuous, which callers may say.
    const premise = prop.kind === 'leads-to' ? { premiseReached: g.states.some((s) => prop.p!(s)) } : {};
    const outcome = { id: prop.id, kind: prop.kind, description: prop.description, ...premise };
    if (reach === undefined) return { ...outcome, status: 'holds' as const };
    // The prefix from an initial state to the start of the ¬Q run, then the run, then the cycle.
    const first = reach.ids[0];
    const lead = prop.kind === 'eventually' ? { ids: [first], steps: [] } : pathTo(g, g.initial, new Set([first]), () => true)!;
    const entry = reach.ids[reach.ids.length - 1];
    const component = bad.find((c) => c.includes(entry))!;
    const cycle = cycleIn(g, component, entry);
    const ids = [...lead.ids, ...reach.ids.slice(1), ...cycle.ids.slice(1)];
    const actions = [...lead.steps, ...reach.steps, ...cycle.steps].map((e) => e.action);
    const loop = lead.ids.length - 1 + reach.ids.length - 1;
    return { ...outcome, status: 'violated' as const, lasso: { states: ids.map((i) => g.states[i]), actions, loop } };
  });
}
