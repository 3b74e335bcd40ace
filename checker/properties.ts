/**
 * Properties are named values with stable kebab-case ids. A violation is a discovery (data),
 * never an exception.
 */
import type { LivenessKind } from './liveness.js';
import type { ActionLabel } from './model.js';

/** Where a property's promise comes from: a document, a source file, a paper. */
interface PropertyMeta {
  /** Stable kebab-case id, e.g. `single-leader`. */
  readonly id: string;
  /** One line saying what must hold. */
  readonly description: string;
  /** Where the promise is stated (URL or repository path). */
  readonly source?: string;
}

/**
 * A behaviour up to a violation: `states[0]` is initial, `actions[i]` leads from `states[i]` to
 * `states[i+1]`, and the last state is the one that violates (a checker `Trace` is one).
 */
export interface History<S> {
  readonly states: readonly S[];
  readonly actions: readonly ActionLabel[];
}

/**
 * The `explain` hooks below say why a counterexample's last state violates the property, as one
 * line in the system's own terms (`db-0 runs on node-1 and on node-3`), from the property itself:
 * the reports print it at the head of the counterexample (`why: ...`). They are optional and
 * return `undefined` when there is nothing to say; the search never calls them, so they cost
 * nothing while checking. See {@link explainViolation}.
 */

/** Holds in every reachable state. */
export interface Invariant<S> extends PropertyMeta {
  readonly kind: 'invariant';
  holds(state: S): boolean;
  /** Why `state`, where `holds` is false, violates the invariant (one line); see above. */
  explain?(state: S): string | undefined;
}

/** Holds on every step (before, action, after) the search takes, self-loops included. */
export interface ActionProperty<S> extends PropertyMeta {
  readonly kind: 'action';
  holds(before: S, action: ActionLabel, after: S): boolean;
  /** Why the step, where `holds` is false, violates the property (one line); see above. */
  explain?(before: S, action: ActionLabel, after: S): string | undefined;
}

/** Some reachable state satisfies it; unwitnessed after a complete search is a failure. */
export interface Reachability<S> extends PropertyMeta {
  readonly kind: 'reachable';
  reached(state: S): boolean;
}

/**
 * A small automaton run in lockstep with the model: it carries its own state `O` (a history
 * variable, a timer), updated on every step. Its state is part of the fingerprint, so `O` must be
 * small and, under symmetry, invariant under the model's permutations.
 */
export interface Observer<S, O> extends PropertyMeta {
  readonly kind: 'observer';
  initial(state: S): O;
  step(observed: O, before: S, action: ActionLabel, after: S): O;
  holds(observed: O, state: S): boolean;
  /** A compact encoding of `O` for fingerprints; default: generic encoding. */
  encode?(observed: O): string;
  /**
   * Why the last state of `history` violates the property (one line; see above): `observed` is
   * the observer's state there, and `history` the whole behaviour, since an observer's own state
   * is kept small and what explains a violation may lie in an earlier step (the step that set a
   * latch is the last one).
   */
  explain?(observed: O, history: History<S>): string | undefined;
}

/** Any property of a model over states `S`. */
export type Property<S> =
  | Invariant<S>
  | ActionProperty<S>
  | Reachability<S>
  // Observer state types differ per observer; the checker treats them opaquely.
  | Observer<S, unknown>;

/**
 * The kinds of property, as reported. `deadlock` is the checker's own; the liveness kinds
 * (`eventually`, `always-eventually`, `leads-to`) are those of `liveness.ts`.
 */
export type PropertyKind = Property<unknown>['kind'] | 'deadlock' | LivenessKind;

type Meta = Omit<PropertyMeta, 'id' | 'description'>;

/** What {@link always} takes beside its id, description and predicate: the source and the `explain` hook. */
export interface InvariantMeta<S> extends Meta {
  /** Why a state where the invariant is false violates it, in one line (see {@link Invariant.explain}). */
  readonly explain?: (state: S) => string | undefined;
}

/** What {@link alwaysStep} takes beside its id, description and predicate: the source and the `explain` hook. */
export interface StepMeta<S> extends Meta {
  /** Why a step where the property is false violates it, in one line (see {@link ActionProperty.explain}). */
  readonly explain?: (before: S, action: ActionLabel, after: S) => string | undefined;
}

/** An invariant: `holds` must be true in every reachable state. */
export function always<S>(id: string, description: string, holds: (s: S) => boolean, meta: InvariantMeta<S> = {}): Invariant<S> {
  return { kind: 'invariant', id, description, holds, ...meta };
}

/** A reachability goal: some reachable state must satisfy `reached` (a witness proves non-vacuity). */
export function sometimes<S>(id: string, description: string, reached: (s: S) => boolean, meta: Meta = {}): Reachability<S> {
  return { kind: 'reachable', id, description, reached, ...meta };
}

/** An action property: `holds(before, action, after)` on every step. */
export function alwaysStep<S>(
  id: string,
  description: string,
  holds: (before: S, action: ActionLabel, after: S) => boolean,
  meta: StepMeta<S> = {},
): ActionProperty<S> {
  return { kind: 'action', id, description, holds, ...meta };
}

/** An observer property; see {@link Observer}. */
export function observer<S, O>(def: Omit<Observer<S, O>, 'kind'>): Observer<S, unknown> {
  return { kind: 'observer', ...def } as Observer<S, unknown>;
}

/** Options of {@link boundedResponse}. */
export interface BoundedResponse<S> extends PropertyMeta {
  /** P: the condition that starts the clock. */
  trigger(state: S): boolean;
  /** Q: the condition that must follow. */
  response(state: S): boolean;
  /** Time that passed on a step, in the model's own units (e.g. 1 on a tick, else 0). */
  elapsed(before: S, action: ActionLabel, after: S): number;
  /** The bound T: Q must hold within T units after P first held. */
  within: number;
  /**
   * Why the last state of `history` violates the bound (P held for more than T units without Q),
   * in one line; the observer's timer saturates at T+1, so it is not passed.
   */
  explain?(history: History<S>): string | undefined;
}

/**
 * "P is followed by Q within T": an observer whose state is the time since P held without Q
 * (or `null`). The timer saturates at T+1, so the product space stays finite.
 */
export function boundedResponse<S>(def: BoundedResponse<S>): Observer<S, unknown> {
  const start = (s: S): number | null => (def.trigger(s) && !def.response(s) ? 0 : null);
  return observer<S, number | null>({
    id: def.id,
    description: def.description,
    ...(def.source === undefined ? {} : { source: def.source }),
    initial: start,
    step(t, before, action, after) {
      if (def.response(after)) return null;
      if (t === null) return start(after);
      return Math.min(t + def.elapsed(before, action, after), def.within + 1);
    },
    holds: (t) => t === null || t <= def.within,
    encode: (t) => (t === null ? '-' : String(t)),
    ...(def.explain === undefined ? {} : { explain: (_t: number | null, history: History<S>) => def.explain!(history) }),
  });
}

/**
 * Why the last state of `history` (a counterexample) violates `property`, from the property's
 * `explain` hook: an invariant's is given the last state, an action property's the last step, an
 * observer's its own state there (replayed along the history) and the history. The line is made
 * one line (whitespace runs with a newline become a space) and trimmed. `undefined` when the
 * property has no hook, the hook says nothing, or there is no step to explain (an action
 * property on an empty history, a goal). A hook that throws is reported in the line rather than
 * losing the counterexample to an exception. Reports call this; the search never does.
 */
export function explainViolation<S>(property: Property<S>, history: History<S>): string | undefined {
  let text: string | undefined;
  try {
    text = callExplain(property, history);
  } catch (e) {
    text = `(the explain hook of ${property.id} failed: ${e instanceof Error ? e.message : String(e)})`;
  }
  if (typeof text !== 'string') return undefined;
  const line = text.replace(/\s*\n\s*/g, ' ').trim();
  return line === '' ? undefined : line;
}

function callExplain<S>(property: Property<S>, history: History<S>): string | undefined {
  const { states, actions } = history;
  const last = states.length - 1;
  if (last < 0) return undefined;
  switch (property.kind) {
    case 'invariant':
      return property.explain?.(states[last]);
    case 'action':
      return last === 0 || actions.length < last ? undefined : property.explain?.(states[last - 1], actions[last - 1], states[last]);
    case 'observer': {
      if (property.explain === undefined) return undefined;
      let observed = property.initial(states[0]);
      for (let i = 0; i < last; i++) observed = property.step(observed, states[i], actions[i], states[i + 1]);
      return property.explain(observed, history);
    }
    case 'reachable':
      return undefined;
  }
}

const KEBAB = /^[a-z][a-z0-9]*(-[a-z0-9]+)*$/;

/** Whether an id is stable kebab-case (`single-leader`). */
export function isKebabCase(id: string): boolean {
  return KEBAB.test(id);
}
