/**
 * Counter toys for the checker's tests: a bounded counter (`x` in 0..max with inc/dec and an
 * optional self-loop), an up-only counter that deadlocks at `max`, and a ticking counter whose
 * `tick` passes time, for bounded-response observers.
 */
import { action, type Model, type Property } from '../../checker/index.js';

export interface CounterOptions {
  readonly max: number;
  /** Add a `stay` action that is always enabled and leaves the state as it is (a self-loop). */
  readonly stay?: boolean;
  /** Add `dec` (default true); without it the counter only goes up and deadlocks at `max`. */
  readonly dec?: boolean;
  readonly properties?: readonly Property<number>[];
  readonly checkDeadlock?: boolean;
}

/**
 * `x` in 0..max. With inc and dec only: max+1 distinct states; generated = 1 initial + max inc
 * steps (from 0..max-1) + max dec steps (from 1..max) = 2*max + 1; BFS levels = max + 1
 * (x = k is first reached on level k+1). A `stay` self-loop adds max+1 generated states.
 */
export function counter(options: CounterOptions): Model<number> {
  const { max } = options;
  return {
    name: `counter(${max})`,
    initialStates: () => [0],
    actions: [
      action<number>({ name: 'inc', enabled: (x) => x < max, apply: (x) => x + 1 }),
      ...(options.dec === false ? [] : [action<number>({ name: 'dec', enabled: (x) => x > 0, apply: (x) => x - 1 })]),
      ...(options.stay ? [action<number>({ name: 'stay', apply: (x) => x })] : []),
    ],
    properties: options.properties ?? [],
    ...(options.checkDeadlock === undefined ? {} : { checkDeadlock: options.checkDeadlock }),
  };
}

/** A counter with a clock: `age` counts ticks since `x` left 0, and time cannot pass beyond `deadline`. */
export interface TickState {
  readonly x: number;
  readonly age: number;
}

/**
 * `inc` (x < max), `reset` (x > 0, back to 0), and `tick` (one time unit). While x > 0 each tick
 * ages the state; `tick` is disabled once `age` reaches `deadline`, which forces a reset (or an
 * inc) before more time passes. So "x > 0 is followed by x == 0 within T" holds iff deadline <= T.
 * While x == 0, `tick` is a self-loop.
 */
export function tickingCounter(options: { max: number; deadline: number; properties?: readonly Property<TickState>[] }): Model<TickState> {
  const { max, deadline } = options;
  return {
    name: `ticking-counter(${max}, ${deadline})`,
    initialStates: () => [{ x: 0, age: 0 }],
    actions: [
      action<TickState>({ name: 'inc', enabled: (s) => s.x < max, apply: (s) => ({ x: s.x + 1, age: s.age }) }),
      action<TickState>({ name: 'reset', enabled: (s) => s.x > 0, apply: () => ({ x: 0, age: 0 }) }),
      action<TickState>({
        name: 'tick',
        enabled: (s) => s.x === 0 || s.age < deadline,
        apply: (s) => (s.x === 0 ? s : { x: s.x, age: s.age + 1 }),
      }),
    ],
    properties: options.properties ?? [],
    elapsed: (_b, a) => (a.name === 'tick' ? 1 : 0),
  };
}
