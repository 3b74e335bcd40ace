/**
 * The model interface every system checked by kubecheck implements, in the spirit of Stateright's
 * `Model`: initial states, guarded actions in a deterministic order, optional symmetry and view,
 * and descriptions for people. The checker imports nothing else; the Kubernetes cluster in
 * `model/` and the two-phase-commit example are both just `Model`s.
 */
import type { Property } from './properties.js';

/** A JSON value: what action parameters and serialised traces are made of. */
export type JsonValue =
  | string
  | number
  | boolean
  | null
  | readonly JsonValue[]
  | { readonly [key: string]: JsonValue };

/** One step's label: plain serialisable data, shared by BFS, random exploration and replay. */
export interface ActionLabel {
  readonly name: string;
  readonly param?: JsonValue;
}

/**
 * A guarded command. `params` enumerates the parameter values in a fixed order (a list, or a
 * function of the state); an action without `params` runs once with `undefined`.
 * `enabled` is checked before `apply`, so `apply` may assume it and never builds a draft for a
 * disabled action. `apply` may still return `undefined` to say "no step" when computing the guard
 * separately would repeat the work.
 *
 * Methods (not function-valued fields) on purpose: that keeps `ActionDef<S, Node>` assignable to
 * `ActionDef<S, JsonValue>` in a list of heterogeneous actions.
 */
export interface ActionDef<S, P extends JsonValue | undefined = undefined> {
  readonly name: string;
  /**
   * Parameter values in a deterministic order. (The function is written as a method's type, so
   * that it is checked bivariantly as methods are: a `Model<number>` fits a `Model<unknown>` list.)
   */
  readonly params?: readonly P[] | StateFunction<S, readonly P[]>;
  /** Guard; defaults to always enabled. */
  enabled?(state: S, param: P): boolean;
  /** Pure transition: returns the successor, or `undefined` for no step. */
  apply(state: S, param: P): S | undefined;
  /**
   * Fairness for liveness checking (`true` or `'weak'`: weak, `'strong'`: strong) and random
   * exploration's weighting. It applies to the action as a whole, TLA+'s `WF_vars(\E p : A(p))`:
   * a step with any parameter takes it.
   */
  readonly fair?: boolean | 'weak' | 'strong';
  /**
   * Fairness per parameter value instead, TLA+'s `\A p : WF_vars(A(p))`: steps whose parameters
   * give the same instance make one fair action, `name(instance)`, each enabled and taken on its
   * own. `fairPer: (p) => p` makes each parameter value fair; with a parameter `[process, choice]`,
   * `fairPer: ([process]) => process` makes each process fair whatever its choice.
   */
  fairPer?(param: P): JsonValue;
  /**
   * A person's description of this action's steps, with the parameter typed as declared (a tuple
   * destructures without a cast). Reports use it before the model's {@link Model.describeStep}.
   */
  describe?(before: S, param: P, after: S): StepDescription;
}

/** A function of a state, with a method's bivariant parameter check (see {@link ActionDef.params}). */
export type StateFunction<S, R> = { bivariant(state: S): R }['bivariant'];

/** Any action of a model, whatever its parameter type. */
export type AnyActionDef<S> = ActionDef<S, JsonValue | undefined>;

/** What a step means to a person: who acted, what it did, and whom it talked to (for diagrams). */
export interface StepDescription {
  /** The acting component, e.g. `kube-controller-manager/node-lifecycle` or `rm-2`. */
  readonly actor: string;
  /** One line, e.g. `marks node-2 Ready=Unknown`. */
  readonly summary: string;
  /** Components the step sent something to, in order (sequence diagrams draw arrows to them). */
  readonly to?: readonly string[];
  /**
   * Routine periodic work that a narrative may fold away with the passing of time: a heartbeat
   * renewal, a controller pass that changed nothing. Timelines, diagrams and the HTML stepper fold
   * a stretch of such steps and steps that only let time pass (`elapsed` > 0) into one line; a
   * fault ({@link Model.isFault}) and the last step of a trace are never folded. Leave it unset on
   * any step a reader must see.
   */
  readonly routine?: boolean;
  /**
   * What a routine step is, as a short plural phrase (`Lease renewals`, `node-monitor passes`): a
   * folded stretch says `4m50s pass, Lease renewals and node-monitor passes as usual`. Default:
   * the stretch names the actors of its routine steps.
   */
  readonly routineKind?: string;
  /**
   * Components the step changes without sending them anything (the node a fault cuts off, the
   * etcd member that is lost): sequence diagrams give each one a participant and an arrow.
   */
  readonly affects?: readonly string[];
  /**
   * The step is the work of the code under test that the user brought (an operator or controller
   * given as an extension), not of the stock components around it or the clock. Reports always
   * list such a step among a counterexample's steps that matter (unless it is `routine`), however
   * long the trace: in a user's bug it is usually the cause. The Kubernetes model sets it on
   * every step of an extension's actions.
   */
  readonly underTest?: boolean;
}

/**
 * A system to check. `S` must be an immutable value: the checker memoises sub-object hashes by
 * identity, so a state must never be mutated after it is returned.
 */
export interface Model<S> {
  /** A short name used in reports, e.g. `two-phase-commit(3)`. */
  readonly name: string;
  /** Initial states, in a deterministic order. */
  initialStates(): readonly S[];
  /** Actions, in a deterministic order (a trace stores indices into this order). */
  readonly actions: readonly AnyActionDef<S>[];
  /** The properties checked by default. */
  readonly properties: readonly Property<S>[];
  /** Whether a state with no enabled action is a violation (`deadlock`). Default false. */
  readonly checkDeadlock?: boolean;
  /**
   * Symmetry: maps a state to the representative of its orbit. Used only for fingerprinting, so
   * traces stay real paths. Properties must be invariant under the symmetry.
   */
  canonicalize?(state: S): S;
  /**
   * What of a state is fingerprinted. A string is hashed directly (fast, for hand-written compact
   * keys), and so are the bytes of a typed array (faster still: a `KeyBuffer` of numbers, read by
   * the checker at once, so it may be a view of a reused buffer); any other value is encoded
   * generically. Default: the whole state.
   */
  view?(state: S): unknown;
  /**
   * `view(canonicalize(state))` in one pass, for a model that can compute its canonical key
   * without building the canonical state (faster: nothing is allocated for the orbit's
   * representative). Used for fingerprints under symmetry in place of the two steps; it must
   * tell states apart exactly as they do (equal on two states exactly when they are equal), in
   * any form `view` may take (a string, a typed array's bytes). A model without `canonicalize`
   * may give it too: it is then its `view` in a faster form (e.g. numbers where `view` is a
   * readable string), used for every fingerprint, and it must tell states apart as `view` does.
   */
  canonicalView?(state: S): unknown;
  /**
   * `view` in a faster form for fingerprints where no symmetry applies (the search was asked for
   * none, the model has no `canonicalize`, or liveness on the whole graph): it must tell states
   * apart exactly as `view` does. A model with `canonicalize` gives it so that a search without
   * symmetry need not fall back to `view` (a readable string, say). A copy of a model that
   * replaces `view` must replace or drop `plainView` (and `canonicalView`) with it.
   */
  plainView?(state: S): unknown;
  /**
   * Model time that passes on a step, in seconds (e.g. the tick quantum on `tick`, else 0).
   * Reports rebuild absolute time (`T+50s`) along a trace from it; states need not store it.
   */
  elapsed?(before: S, action: ActionLabel, after: S): number;
  /** A person's description of a step; the default names the action and its parameter. */
  describeStep?(before: S, action: ActionLabel, after: S): StepDescription;
  /**
   * A person's one-line description of a state. Parts separated by ` | ` are shown one per line
   * where there is room (the final state of a counterexample).
   */
  describeState?(state: S): string;
  /**
   * The state as a person reads it, for diffs, state viewers and JSON reports: names instead of
   * indices (`nodes[node-3]`, `nodeName: node-1`), the same information otherwise. Default: the
   * state itself. Never fingerprinted.
   */
  present?(state: S): unknown;
  /**
   * Whether a step comes from outside the system under check: a fault or an operator's action.
   * Among traces of the same length, counterexamples with fewer such steps are preferred, and
   * random runs draw their timing on purpose. Default: the step's description has the actor
   * `fault` or `operator` (or one starting `fault/`, `operator/`).
   */
  isFault?(before: S, action: ActionLabel, after: S): boolean;
  /**
   * A coarse summary of a state (e.g. per node Ready/Unknown/tainted, per workload running copies)
   * that groups states into the boxes of a projected state graph. Default: `describeState`.
   */
  abstract?(state: S): string;
  /**
   * The model's states are fixed-width integer vectors with this layout, declared by
   * {@link vectorModel}: `check` then explores it with the state-vector search (breadth-first, one
   * thread, invariants and reachability) and says so in `stats.engine`. A copy of the model keeps
   * the capability; `check(model, { engine: 'generic' })` runs the generic search instead.
   */
  readonly stateVector?: StateVectorLayout;
  /**
   * What the model was built from, as JSON (a scenario's name and its resolved config): reports
   * and ITF traces record it, so `replay` rebuilds the same model without being told. A copy of
   * the model keeps it.
   */
  readonly origin?: ModelOrigin;
  /**
   * The property ids checked when none are named (a scenario's default selection, which leaves out
   * the properties its faults are known to break by design); default: all of `properties`. The
   * testing library's assertions take it, as the command line takes a scenario's.
   */
  readonly defaultProperties?: readonly string[];
}

/** A model's provenance: the scenario and config it was built from. */
export interface ModelOrigin {
  readonly scenario?: string;
  readonly config?: JsonValue;
}

/** The compiled layout of a state-vector model (see `vectorModel.ts`); opaque to other code. */
export interface StateVectorLayout {
  /** Slots per state. */
  readonly width: number;
}

/** Whether `actor` names an outside event by the default convention of {@link Model.isFault}. */
export function isFaultActor(actor: string): boolean {
  return actor === 'fault' || actor === 'operator' || actor.startsWith('fault/') || actor.startsWith('operator/');
}

/**
 * The model's fault test: its `isFault`, else the default convention on the step's actor, else
 * `undefined` when the model describes no steps (nothing can be told apart).
 */
export function faultTest<S>(model: Model<S>): ((before: S, action: ActionLabel, after: S) => boolean) | undefined {
  if (model.isFault) return (b, a, x) => (model.isFault as (b: S, a: ActionLabel, x: S) => boolean)(b, a, x);
  if (!describesSteps(model)) return undefined;
  return (b, a, x) => {
    const d = describeStepOf(model, b, a, x);
    return d !== undefined && isFaultActor(d.actor);
  };
}

/** Whether the model describes its steps: its `describeStep`, or an action's own `describe`. */
export function describesSteps<S>(model: Model<S>): boolean {
  return model.describeStep !== undefined || model.actions.some((a) => a.describe !== undefined);
}

/**
 * A step's description: its action's own `describe` (with the step's parameter), else the model's
 * `describeStep`, else `undefined`.
 */
export function describeStepOf<S>(model: Model<S>, before: S, action: ActionLabel, after: S): StepDescription | undefined {
  const own = model.actions.find((a) => a.name === action.name);
  if (own?.describe) return own.describe(before, action.param, after);
  return model.describeStep?.(before, action, after);
}

/** Declares one action with its parameter type checked; the result fits any model's list. */
export function action<S, P extends JsonValue | undefined = undefined>(
  def: ActionDef<S, P>,
): AnyActionDef<S> {
  return def as unknown as AnyActionDef<S>;
}

/** Formats an action label as `name(param)` for people and logs. */
export function formatAction(label: ActionLabel): string {
  if (label.param === undefined) return label.name;
  const p = typeof label.param === 'string' ? label.param : JSON.stringify(label.param);
  return `${label.name}(${p})`;
}
