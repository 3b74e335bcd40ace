/**
 * Vector models whose initial states are given three ways, listed, by a generator function and
 * by `vectorProduct`, the same vectors in the same order; exported as factories of JSON arguments
 * so that worker threads (`modelFactory`) build the same model.
 */
import { always, vectorAction, vectorModel, vectorProduct, type Model, type VectorInitial, type VectorState, type VectorView } from '../../checker/index.js';

/** How a model gives its initial vectors. */
export type InitialForm = 'list' | 'generator' | 'product';

export interface OdometerArgs {
  /** Counter slots after the clock slot. */
  readonly n: number;
  /** Values per slot. */
  readonly k: number;
  readonly form: InitialForm;
  /** Whether the invariant `c1-below-top` is listed (violated first on a path from a later initial state than the first). */
  readonly invariant?: boolean;
}

/** The values `0 .. k - 1`. */
const upTo = (k: number): number[] => Array.from({ length: k }, (_, i) => i);

/**
 * TLA+'s `Init == clock = 0 /\ \A i \in 1..n : c[i] \in 0..k-1 /\ (c[1] + .. + c[n]) % 2 = 0`,
 * `Next == \E i \in 1..n : clock < k - 1 /\ clock' = clock + 1 /\ c' = [c EXCEPT ![i] = (@ + 1) % k]
 *         \/ clock = k - 1 /\ clock' = 0 /\ UNCHANGED c`: many initial states, and levels beyond them.
 */
export function odometerModel(args: OdometerArgs): Model<VectorState> {
  const { n, k, form } = args;
  const even = (v: VectorView): boolean => {
    let sum = 0;
    for (let i = 1; i <= n; i++) sum += v[i];
    return sum % 2 === 0;
  };
  const generate = function* (): Generator<number[]> {
    // One array changed in place: the checker copies each vector as it takes it.
    const v = new Array<number>(n + 1).fill(0);
    for (;;) {
      if (even(v)) yield v;
      let i = n;
      while (i >= 1 && v[i] === k - 1) v[i--] = 0;
      if (i < 1) return;
      v[i]++;
    }
  };
  const initial: VectorInitial =
    form === 'list' ? Array.from(generate(), (v) => [...v]) : form === 'generator' ? generate : vectorProduct([[0], ...Array.from({ length: n }, () => upTo(k))], even);
  return vectorModel({
    name: `odometer(${n}, ${k})`,
    slots: [{ name: 'clock', size: k }, ...Array.from({ length: n }, (_, i) => ({ name: `c${i + 1}`, size: k }))],
    initial,
    actions: [
      vectorAction<number>({
        name: 'tick',
        params: upTo(n).map((i) => i + 1),
        guard: (v) => v[0] < k - 1,
        apply: (v, next, i) => {
          next.set(0, v[0] + 1);
          next.set(i, (v[i] + 1) % k);
        },
      }),
      vectorAction({ name: 'reset', enabled: (v) => v[0] === k - 1, apply: (_v, next) => next.set(0, 0) }),
    ],
    properties: args.invariant
      ? [
          always<VectorState>('c1-below-top', 'c1 is not at its top value once the clock is past half', (v) => 2 * v[0] < k || v[1] !== k - 1),
        ]
      : [],
  });
}

export interface CubeArgs {
  /** Slots. */
  readonly n: number;
  /** Values per slot. */
  readonly k: number;
  readonly form: InitialForm;
}

/**
 * `Init == TypeOK` over `n` slots of `k` values (k^n initial states), `Next == \E i : v[i] < k - 1
 * /\ v' = [v EXCEPT ![i] = @ + 1]`: every successor is an initial state, so the counts are known
 * without a search: k^n distinct, k^n + n (k - 1) k^(n-1) generated, depth 1.
 */
export function cubeModel(args: CubeArgs): Model<VectorState> {
  const { n, k, form } = args;
  const sets = Array.from({ length: n }, () => upTo(k));
  const initial: VectorInitial = form === 'list' ? Array.from(vectorProduct(sets)(), (v) => Array.from(v)) : form === 'product' ? vectorProduct(sets) : () => vectorProduct(sets)();
  return vectorModel({
    name: `cube(${n}, ${k})`,
    slots: sets.map((_, i) => ({ name: `x${i}`, size: k })),
    initial,
    actions: [vectorAction<number>({ name: 'up', params: upTo(n), enabled: (v, i) => v[i] < k - 1, apply: (v, next, i) => next.set(i, v[i] + 1) })],
    properties: [],
  });
}
