/**
 * Properties are named values with stable kebab-case ids. A violation is a discovery (data),
 * never an exception.
 */
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

/** Holds in every reachable state. */
export interface Invariant<S> extends PropertyMeta {
  readonly kind: 'invariant';
  holds(state: S): boolean;
}

/** Holds on every step (before, action, after) the search takes, self-loops included. */
export interface ActionProperty<S> extends PropertyMeta {
  readonly kind: 'action';
  holds(before: S, action: ActionLabel, after: S): boolean;
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
}

/** Any property of a model over states `S`. */
export type Property<S> =
  | Invariant<S>
  | ActionProperty<S>
  | Reachability<S>
  // Observer state types differ per observer; the checker treats them opaquely.
  | Observer<S, unknown>;

/** The kinds of property, as reported. `deadlock` is the checker's own. */
export type PropertyKind = Property<unknown>['kind'] | 'deadlock';

type Meta = Omit<PropertyMeta, 'id' | 'description'>;

/** An invariant: `holds` must be true in every reachable state. */
export function always<S>(id: string, description: string, holds: (s: S) => boolean, meta: Meta = {}): Invariant<S> {
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
  meta: Meta = {},
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
  });
}

const KEBAB = /^[a-z][a-z0-9]*(-[a-z0-9]+)*$/;

/** Whether an id is stable kebab-case (`single-leader`). */
export function isKebabCase(id: string): boolean {
  return KEBAB.test(id);
}
