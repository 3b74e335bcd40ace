/**
 * State-vector models, the way SPIN represents states: a state is a fixed number of small
 * non-negative integer slots (`Int32Array`), each with a declared number of values. Actions read
 * the vector and write their successor through a {@link VectorWriter}, which keeps a 64-bit
 * Zobrist fingerprint up to date as slots change (two 32-bit lanes of one table of random 64-bit
 * keys per slot and value), so a successor is fingerprinted in a few table reads, without strings
 * or BigInt.
 *
 * `vectorModel(spec)` returns an ordinary {@link Model} over `Int32Array` states, so replay,
 * traces, reports, random exploration, liveness and the command line work on it unchanged;
 * it declares the capability `stateVector` (its compiled layout), and `check` runs the dedicated
 * breadth-first search of `vectorSearch.ts` on it (states in a flat typed-array arena, the
 * visited set in typed arrays), reported as `stats.engine: 'state-vector'`. A copy of the model
 * keeps the capability; `check(m, { engine: 'generic' })` compares the two searches.
 *
 * Initial vectors are listed, or yielded by a function (a generator; {@link vectorProduct} for a
 * TLA+ `Init` that gives each variable a set): the searches take them one at a time as they store
 * them, so a model with hundreds of thousands of initial states never holds them as as many
 * arrays beside what the search stores.
 *
 * Not supported: symmetry reduction (SPIN has none either; a spec that asks for it is refused
 * with KC011).
 */
import { CheckerErrorCode, fail } from './errors.js';
import type { ActionLabel, AnyActionDef, JsonValue, Model, StateVectorLayout, StepDescription } from './model.js';
import type { Property } from './properties.js';

/** Error codes of state-vector models (the KC0xx checker range). */
export const VectorErrorCode = {
  invalidVectorModel: CheckerErrorCode.invalidVectorModel,
  vectorUnsupported: CheckerErrorCode.vectorUnsupported,
} as const;

/** A state of a vector model: slot `i` holds a value in `0 .. slots[i].size - 1`. Never mutated once made. */
export type VectorState = Int32Array;

/** A read-only view of a state vector, as guards, actions and properties see it. */
export interface VectorView {
  readonly [slot: number]: number;
  readonly length: number;
}

/** One slot of the vector: a name for people (decoded states, errors) and its number of values. */
export interface VectorSlot {
  readonly name: string;
  /** The slot holds `0 .. size - 1`. */
  readonly size: number;
}

/**
 * How an action writes its successor: the successor starts as a copy of the state the action
 * reads, and `set` changes one slot (keeping the fingerprint up to date). `get` reads the
 * successor as written so far.
 */
export interface VectorWriter {
  set(slot: number, value: number): void;
  get(slot: number): number;
}

/**
 * A guarded command over a state vector; like {@link ActionDef}, with `apply` writing the
 * successor into `next` instead of returning it. `apply` may return `false` for "no step" (any
 * writes are then discarded). `enabled` and `apply` must not keep `v` or `next`: the search
 * reuses both.
 */
export interface VectorActionDef<P extends JsonValue | undefined = undefined> {
  readonly name: string;
  /** Parameter values in a deterministic order: a list, or a function of the state. */
  readonly params?: readonly P[] | ((v: VectorView) => readonly P[]);
  /**
   * The part of the guard that does not depend on the parameter, evaluated once per state: when
   * it is false no parameter is tried. Defaults to true.
   */
  guard?(v: VectorView): boolean;
  /** Guard for one parameter (after `guard`); defaults to always enabled. */
  enabled?(v: VectorView, param: P): boolean;
  /** Writes the successor of `v` into `next` (which starts equal to `v`). */
  apply(v: VectorView, next: VectorWriter, param: P): boolean | void;
  /** Fairness mark, passed on to the model's action (liveness, random exploration). */
  readonly fair?: boolean | 'weak' | 'strong';
  /** Fairness per parameter instance, passed on to the model's action (see {@link ActionDef.fairPer}). */
  fairPer?(param: P): JsonValue;
}

/** Any vector action, whatever its parameter type. */
export type AnyVectorActionDef = VectorActionDef<JsonValue | undefined>;

/** Declares one vector action with its parameter type checked; the result fits any spec's list. */
export function vectorAction<P extends JsonValue | undefined = undefined>(def: VectorActionDef<P>): AnyVectorActionDef {
  return def as unknown as AnyVectorActionDef;
}

/**
 * A model's initial vectors, each `slots.length` long: a list, or a function that yields them (a
 * generator function), in a deterministic order. The function is called again each time the
 * initial states are needed (a search, a trace replayed, each worker of a distributed run), and
 * must yield the same vectors in the same order every time; each call returns a new iterator.
 * A vector is copied as it is taken, so a generator may yield one array it changes in place.
 */
export type VectorInitial = readonly ArrayLike<number>[] | (() => Iterable<ArrayLike<number>>);

/** A state-vector model. */
export interface VectorSpec {
  /** A short name used in reports. */
  readonly name: string;
  /** The slots, in vector order; the vector's width is their number. */
  readonly slots: readonly VectorSlot[];
  /**
   * Initial vectors, in a deterministic order: listed, or yielded by a function as the search
   * takes them (see {@link VectorInitial}). A listed vector out of range is refused (KC010) by
   * `vectorModel`, a yielded one when it is yielded.
   */
  readonly initial: VectorInitial;
  /** Actions, in a deterministic order (a trace stores candidate ordinals over them). */
  readonly actions: readonly AnyVectorActionDef[];
  /**
   * Properties over vectors. Invariants and reachability goals are checked by the state-vector
   * search (on a scratch vector they must not keep); with action properties or observers selected
   * `check` uses the generic search.
   */
  readonly properties: readonly Property<VectorState>[];
  /** Whether a state with no enabled action is a violation (`deadlock`). Default false. */
  readonly checkDeadlock?: boolean;
  /** The state as a person reads it (reports, diffs, JSON); default: `{ slotName: value }`. */
  decode?(v: VectorView): unknown;
  /** A person's description of a step (see {@link Model.describeStep}). */
  describeStep?(before: VectorState, action: ActionLabel, after: VectorState): StepDescription;
  /** A person's one-line description of a state; default: the decoded state as JSON. */
  describeState?(v: VectorState): string;
  /** Whether a step is a fault or an operator's action (see {@link Model.isFault}). */
  isFault?(before: VectorState, action: ActionLabel, after: VectorState): boolean;
}

/** A vector action with its parameter list resolved, as the searches run it. */
export interface CompiledVectorAction {
  readonly def: AnyVectorActionDef;
  /** The fixed parameter list, or `undefined` when the params are a function of the state. */
  readonly list: readonly (JsonValue | undefined)[] | undefined;
  /** The params function, when there is one. */
  readonly paramsOf: ((v: VectorView) => readonly (JsonValue | undefined)[]) | undefined;
}

/** A spec checked and prepared for search: widths, ranges and Zobrist keys. */
export interface CompiledVectorSpec extends StateVectorLayout {
  readonly spec: VectorSpec;
  readonly width: number;
  /** `sizes[i]`: number of values of slot `i`. */
  readonly sizes: Int32Array;
  /** `offsets[i]`: index of slot `i`'s value 0 in the Zobrist lanes. */
  readonly offsets: Int32Array;
  /** Zobrist keys, low and high 32-bit lanes of one random 64-bit key per (slot, value). */
  readonly zobristLo: Int32Array;
  readonly zobristHi: Int32Array;
  /** The initial vectors one at a time, each a fresh array, made (and checked) as they are taken. */
  initialVectors(): Generator<VectorState, void, undefined>;
  /**
   * All the initial vectors in a list: the model's `initialStates`. A search that finds this
   * function as its model's `initialStates` takes them from {@link initialVectors} instead.
   */
  initialList(): VectorState[];
  readonly actions: readonly CompiledVectorAction[];
}

/** Most Zobrist keys (sum of slot sizes) a spec may declare: 2^24, 128 MiB of keys. */
const MAX_KEYS = 1 << 24;

/**
 * sfc32 (Chris Doty-Humphrey's small fast counting generator): 32 random bits per call. Two
 * calls make one 64-bit Zobrist key; the keys are random numbers, not a hash function, so the
 * fingerprint is a proper 64-bit Zobrist hash. Fixed seed: fingerprints are reproducible.
 */
function sfc32(a: number, b: number, c: number, d: number): () => number {
  return () => {
    const t = (((a + b) | 0) + d) | 0;
    d = (d + 1) | 0;
    a = b ^ (b >>> 9);
    b = (c + (c << 3)) | 0;
    c = (c << 21) | (c >>> 11);
    c = (c + t) | 0;
    return t;
  };
}

/** Writes the successor of one state; the searches and the model's `apply` share this class. */
export class VectorBuilder implements VectorWriter {
  /** The vector being written. */
  vec: Int32Array;
  /** XOR of the fingerprint's change so far, low and high lanes. */
  lo = 0;
  hi = 0;
  /** Slots written since {@link attach}, each once, in `log[0 .. count - 1]`. */
  readonly log: Int32Array;
  count = 0;
  private readonly written: Uint8Array;
  private readonly sizes: Int32Array;
  private readonly offsets: Int32Array;
  private readonly zLo: Int32Array;
  private readonly zHi: Int32Array;

  constructor(private readonly compiled: CompiledVectorSpec) {
    this.sizes = compiled.sizes;
    this.offsets = compiled.offsets;
    this.zLo = compiled.zobristLo;
    this.zHi = compiled.zobristHi;
    this.vec = new Int32Array(compiled.width);
    this.log = new Int32Array(compiled.width);
    this.written = new Uint8Array(compiled.width);
  }

  /** Starts a successor written into `vec` (which holds the source state's values). */
  attach(vec: Int32Array): void {
    this.vec = vec;
    this.clear();
  }

  /** Forgets the writes (the caller has restored or kept the vector). */
  clear(): void {
    for (let i = 0; i < this.count; i++) this.written[this.log[i]] = 0;
    this.count = 0;
    this.lo = 0;
    this.hi = 0;
  }

  /** Restores the written slots from `source` and forgets the writes. */
  undo(source: Int32Array): void {
    const vec = this.vec;
    for (let i = 0; i < this.count; i++) {
      const s = this.log[i];
      vec[s] = source[s];
      this.written[s] = 0;
    }
    this.count = 0;
    this.lo = 0;
    this.hi = 0;
  }

  set(slot: number, value: number): void {
    const vec = this.vec;
    const old = vec[slot];
    if (old === value) return;
    if (!(value >= 0 && value < this.sizes[slot])) this.outOfRange(slot, value);
    const base = this.offsets[slot];
    this.lo ^= this.zLo[base + old] ^ this.zLo[base + value];
    this.hi ^= this.zHi[base + old] ^ this.zHi[base + value];
    vec[slot] = value;
    if (this.written[slot] === 0) {
      this.written[slot] = 1;
      this.log[this.count++] = slot;
    }
  }

  get(slot: number): number {
    return this.vec[slot];
  }

  private outOfRange(slot: number, value: number): never {
    const s = this.compiled.spec.slots[slot];
    if (s === undefined) fail(VectorErrorCode.invalidVectorModel, `model ${this.compiled.spec.name} wrote slot ${slot}, past its ${this.compiled.width} slots`);
    fail(VectorErrorCode.invalidVectorModel, `model ${this.compiled.spec.name} wrote ${value} to slot ${s.name}, which holds 0..${s.size - 1}`);
  }
}

/** The Zobrist fingerprint of a whole vector, low and high lanes, into `out[0]`, `out[1]`. */
export function vectorFingerprint(c: CompiledVectorSpec, v: VectorView, out: Int32Array): void {
  let lo = 0;
  let hi = 0;
  for (let i = 0; i < c.width; i++) {
    const k = c.offsets[i] + v[i];
    lo ^= c.zobristLo[k];
    hi ^= c.zobristHi[k];
  }
  out[0] = lo;
  out[1] = hi;
}

function checkVector(spec: VectorSpec, v: ArrayLike<number>, what: string): VectorState {
  if (v === null || typeof v !== 'object' || typeof v.length !== 'number') fail(VectorErrorCode.invalidVectorModel, `model ${spec.name}: ${what} is ${v === null ? 'null' : typeof v}, not an array of slot values`);
  if (v.length !== spec.slots.length) fail(VectorErrorCode.invalidVectorModel, `model ${spec.name}: ${what} has ${v.length} slots, the spec declares ${spec.slots.length}`);
  for (let i = 0; i < v.length; i++) {
    const x = v[i];
    if (!(Number.isInteger(x) && x >= 0 && x < spec.slots[i].size)) {
      fail(VectorErrorCode.invalidVectorModel, `model ${spec.name}: ${what} has ${x} in slot ${spec.slots[i].name}, which holds 0..${spec.slots[i].size - 1}`);
    }
  }
  return Int32Array.from(v);
}

/** Checks a spec and prepares its Zobrist keys (KC010 on a malformed spec, KC011 on symmetry). */
export function compileVectorSpec(spec: VectorSpec): CompiledVectorSpec {
  const loose = spec as VectorSpec & { canonicalize?: unknown; symmetry?: unknown };
  if (loose.canonicalize !== undefined || loose.symmetry !== undefined) {
    fail(VectorErrorCode.vectorUnsupported, `model ${spec.name}: state-vector models have no symmetry reduction (SPIN has none either); write the model as a plain Model to use canonicalize`);
  }
  const width = spec.slots.length;
  if (width === 0) fail(VectorErrorCode.invalidVectorModel, `model ${spec.name} declares no slots`);
  const sizes = new Int32Array(width);
  const offsets = new Int32Array(width);
  let total = 0;
  for (let i = 0; i < width; i++) {
    const { name, size } = spec.slots[i];
    if (!(Number.isInteger(size) && size >= 1)) fail(VectorErrorCode.invalidVectorModel, `model ${spec.name}: slot ${name} has size ${size}; a size is a positive integer`);
    sizes[i] = size;
    offsets[i] = total;
    total += size;
    if (total > MAX_KEYS) fail(VectorErrorCode.invalidVectorModel, `model ${spec.name}: the slots hold more than ${MAX_KEYS} values in all`);
  }
  const next = sfc32(0x9e3779b9, 0x243f6a88, 0xb7e15162, 0x6a09e667);
  for (let i = 0; i < 16; i++) next();
  const zobristLo = new Int32Array(total);
  const zobristHi = new Int32Array(total);
  for (let k = 0; k < total; k++) {
    zobristLo[k] = next();
    zobristHi[k] = next();
  }
  const { initialVectors, initialList } = compileInitial(spec);
  const actions = spec.actions.map((def): CompiledVectorAction => {
    const ps = def.params;
    if (ps === undefined) return { def, list: [undefined], paramsOf: undefined };
    if (typeof ps === 'function') return { def, list: undefined, paramsOf: ps };
    return { def, list: ps, paramsOf: undefined };
  });
  return { spec, width, sizes, offsets, zobristLo, zobristHi, initialVectors, initialList, actions };
}

/**
 * The initial vectors of a spec: a list is checked at once (KC010) and copied as it is taken; a
 * function's vectors are checked and copied one at a time as they are yielded.
 */
function compileInitial(spec: VectorSpec): Pick<CompiledVectorSpec, 'initialVectors' | 'initialList'> {
  const source = spec.initial as unknown;
  let initialVectors: () => Generator<VectorState, void, undefined>;
  if (Array.isArray(source)) {
    const listed = (source as readonly ArrayLike<number>[]).map((v, i) => checkVector(spec, v, `initial vector ${i}`));
    initialVectors = function* () {
      for (const v of listed) yield new Int32Array(v);
    };
  } else if (typeof source === 'function') {
    const make = source as () => Iterable<ArrayLike<number>>;
    // A generator object handed out twice would be empty the second time (a replay, a worker).
    const handedOut = new WeakSet<object>();
    initialVectors = function* () {
      const it = make();
      if (it === null || typeof it !== 'object' || typeof (it as Partial<Iterable<unknown>>)[Symbol.iterator] !== 'function') {
        fail(VectorErrorCode.invalidVectorModel, `model ${spec.name}: initial() returned ${it === null ? 'null' : typeof it}, not an iterable of vectors`);
      }
      if (typeof (it as Partial<Iterator<unknown>>).next === 'function') {
        if (handedOut.has(it)) fail(VectorErrorCode.invalidVectorModel, `model ${spec.name}: initial() returned the same iterator twice; it is called each time the initial states are needed and must start over (a generator function does)`);
        handedOut.add(it);
      }
      let i = 0;
      for (const v of it) yield checkVector(spec, v, `initial vector ${i++}`);
    };
  } else {
    fail(VectorErrorCode.invalidVectorModel, `model ${spec.name}: initial is ${source === null ? 'null' : typeof source}; it lists the initial vectors or is a function that yields them`);
  }
  return { initialVectors, initialList: () => Array.from(initialVectors()) };
}

/**
 * The initial vectors of a TLA+ `Init` that gives each variable a set, as
 * `x \in 0..2 /\ y = 0` is `vectorProduct([[0, 1, 2], [0]])`: every vector whose slot `i` holds
 * one of `values[i]`, those `where` accepts (shown a scratch vector it must not keep), in order
 * with the last slot varying fastest. For
 * {@link VectorSpec.initial}: the vectors are made one at a time, as the search takes them.
 */
export function vectorProduct(values: readonly (readonly number[])[], where?: (v: VectorView) => boolean): () => Generator<Int32Array, void, undefined> {
  const sets = values.map((vs) => [...vs]);
  return function* () {
    const width = sets.length;
    if (width === 0 || sets.some((vs) => vs.length === 0)) return;
    const at = new Int32Array(width);
    const v = new Int32Array(width);
    for (let i = 0; i < width; i++) v[i] = sets[i][0];
    for (;;) {
      if (where === undefined || where(v)) yield new Int32Array(v);
      let i = width - 1;
      while (i >= 0 && at[i] === sets[i].length - 1) {
        at[i] = 0;
        v[i] = sets[i][0];
        i--;
      }
      if (i < 0) return;
      at[i]++;
      v[i] = sets[i][at[i]];
    }
  };
}

/**
 * The compiled spec a model declares as its `stateVector` capability (made by {@link vectorModel},
 * kept by a copy), or `undefined`: `check` may run the state-vector search exactly when this is defined.
 */
export function vectorSpecOf(model: { readonly stateVector?: StateVectorLayout }): CompiledVectorSpec | undefined {
  const layout = model.stateVector;
  return layout !== undefined && isCompiled(layout) ? layout : undefined;
}

const isCompiled = (layout: StateVectorLayout): layout is CompiledVectorSpec => 'zobristLo' in layout && 'actions' in layout;

/** The default decoding: `{ slotName: value }` in slot order. */
function decodeByName(spec: VectorSpec, v: VectorView): Record<string, number> {
  const out: Record<string, number> = {};
  for (let i = 0; i < spec.slots.length; i++) out[spec.slots[i].name] = v[i];
  return out;
}

/**
 * The model of a state-vector spec: an ordinary {@link Model} over `Int32Array` states (each
 * successor a fresh array, a step that changes nothing returns its own state), which `check`
 * explores with the state-vector search.
 */
export function vectorModel(spec: VectorSpec): Model<VectorState> {
  const compiled = compileVectorSpec(spec);
  const builder = new VectorBuilder(compiled);
  // fromCharCode.apply takes the slots as arguments: only for small values and widths.
  const small = compiled.width <= 4096 && Array.from(compiled.sizes).every((s) => s <= 0x10000);
  const decode = (v: VectorView): unknown => (spec.decode ? spec.decode(v) : decodeByName(spec, v));
  const actions = compiled.actions.map(({ def, paramsOf }): AnyActionDef<VectorState> => {
    const adapted: AnyActionDef<VectorState> = {
      name: def.name,
      ...(def.params === undefined ? {} : { params: paramsOf ? (s: VectorState) => paramsOf(s) : (def.params as readonly JsonValue[]) }),
      ...(def.enabled || def.guard ? { enabled: (s: VectorState, p: JsonValue | undefined) => (!def.guard || def.guard(s)) && (!def.enabled || def.enabled(s, p)) } : {}),
      apply(s: VectorState, p: JsonValue | undefined): VectorState | undefined {
        const out = new Int32Array(s);
        builder.attach(out);
        if (def.apply(s, builder, p) === false) return undefined;
        let changed = false;
        for (let i = 0; i < builder.count; i++) if (out[builder.log[i]] !== s[builder.log[i]]) changed = true;
        builder.clear();
        return changed ? out : s;
      },
      ...(def.fair === undefined ? {} : { fair: def.fair }),
      ...(def.fairPer === undefined ? {} : { fairPer: (p: JsonValue | undefined) => (def.fairPer as (q: JsonValue | undefined) => JsonValue)(p) }),
    };
    return adapted;
  });
  const model: Model<VectorState> = {
    name: spec.name,
    // The searches take the vectors one at a time from compiled.initialVectors (eachInitialState).
    initialStates: compiled.initialList,
    actions,
    properties: spec.properties,
    ...(spec.checkDeadlock === undefined ? {} : { checkDeadlock: spec.checkDeadlock }),
    // The generic search fingerprints this string: one character per slot when slots are small.
    view: small ? (v) => String.fromCharCode.apply(null, v as unknown as number[]) : (v) => v.join(','),
    present: decode,
    describeState: spec.describeState ? (v) => (spec.describeState as (v: VectorState) => string)(v) : (v) => JSON.stringify(decode(v)),
    ...(spec.describeStep ? { describeStep: (b: VectorState, a: ActionLabel, x: VectorState) => (spec.describeStep as NonNullable<VectorSpec['describeStep']>)(b, a, x) } : {}),
    ...(spec.isFault ? { isFault: (b: VectorState, a: ActionLabel, x: VectorState) => (spec.isFault as NonNullable<VectorSpec['isFault']>)(b, a, x) } : {}),
    stateVector: compiled,
  };
  return model;
}
