/**
 * Small TLA+ specifications whose fair actions have stuttering steps, written as kubecheck models,
 * with the verdicts TLC gives them. In TLA+, `WF_vars(A)` and `SF_vars(A)` are about `<<A>>_vars`,
 * `A /\ vars' # vars` (Specifying Systems, section 8.4): an action whose only steps leave the
 * state unchanged is not enabled, and a stuttering step does not take it. TLC checks fairness so
 * (it expands `WF_vars(A)` to `[]<>(~ENABLED <<A>>_vars) \/ []<><<A>>_vars`, both evaluated on
 * the state graph where a step with `vars' = vars` is a stuttering step). In a kubecheck model a
 * step stutters when it leads to a state with the same key (the model's view, no symmetry).
 */
import { action, type Model } from '../../checker/index.js';

/**
 * A mutual exclusion lock in the shape of Bakery's (tlaplus/Examples
 * specifications/Bakery-Boulangerie/Bakery.tla) busy waits and exit:
 *
 * ```tla
 * VARIABLES lock, pc              vars == <<lock, pc>>    Procs == {1, 2}
 * Init     == lock = FALSE /\ pc = [i \in Procs |-> "ncs"]
 * Try(i)   == pc[i] = "ncs"  /\ pc' = [pc EXCEPT ![i] = "spin"] /\ UNCHANGED lock
 * Spin(i)  == pc[i] = "spin" /\ IF lock THEN UNCHANGED vars                  \* busy wait
 *                                       ELSE lock' = TRUE /\ pc' = [pc EXCEPT ![i] = "cs"]
 * Leave(i) == pc[i] = "cs"   /\ pc' = [pc EXCEPT ![i] = "exit"] /\ UNCHANGED lock
 * Exit(i)  == pc[i] = "exit" /\ \/ UNCHANGED vars                            \* as Bakery's exit: may stay
 *                                \/ lock' = FALSE /\ pc' = [pc EXCEPT ![i] = "ncs"]
 * Proc(i)  == Spin(i) \/ Leave(i) \/ Exit(i)     \* PlusCal's `fair process` with `ncs:-`
 * Spec     == Init /\ [][\E i \in Procs : Try(i) \/ Proc(i)]_vars /\ \A i \in Procs : WF_vars(Proc(i))
 * SSpec    == Init /\ [][\E i \in Procs : Try(i) \/ Proc(i)]_vars /\ \A i \in Procs : SF_vars(Proc(i))
 * DeadlockFree   == (\E i \in Procs : pc[i] = "spin") ~> (\E i \in Procs : pc[i] = "cs")
 * StarvationFree == pc[1] = "spin" ~> pc[1] = "cs"
 * ```
 *
 * TLC: `Spec` satisfies DeadlockFree (a process in `exit` has a step that changes the state, so
 * weak fairness makes it release the lock; a spinning process then has one until someone takes
 * the lock, and whoever takes it is in `cs`). `Spec` violates StarvationFree (process 2 may take
 * the lock each time it is free: process 1's step that changes the state is enabled only now and
 * then); `SSpec` satisfies it (enabled infinitely often, so taken). One fair action per process
 * stands for `\A i : WF_vars(Proc(i))`; the busy wait and the stay in `exit` are steps that
 * return the state unchanged.
 */
export interface Mutex {
  readonly lock: boolean;
  readonly pc: readonly ['ncs' | 'spin' | 'cs' | 'exit', 'ncs' | 'spin' | 'cs' | 'exit'];
}

export function stutteringMutex(fairness: 'weak' | 'strong'): Model<Mutex> {
  const set = (s: Mutex, i: 0 | 1, pc: Mutex['pc'][number], lock = s.lock): Mutex => ({ lock, pc: i === 0 ? [pc, s.pc[1]] : [s.pc[0], pc] });
  const proc = (i: 0 | 1) =>
    action<Mutex, 'step' | 'stay' | 'release'>({
      name: `proc-${i + 1}`,
      params: (s) => (s.pc[i] === 'exit' ? ['stay', 'release'] : ['step']),
      enabled: (s) => s.pc[i] !== 'ncs',
      apply: (s, choice) => {
        switch (s.pc[i]) {
          case 'spin':
            return s.lock ? s : set(s, i, 'cs', true);
          case 'cs':
            return set(s, i, 'exit');
          default:
            return choice === 'stay' ? s : set(s, i, 'ncs', false);
        }
      },
      fair: fairness,
    });
  return {
    name: `stuttering-mutex(${fairness})`,
    initialStates: () => [{ lock: false, pc: ['ncs', 'ncs'] }],
    actions: [
      action<Mutex, 0 | 1>({ name: 'try', params: [0, 1], enabled: (s, i) => s.pc[i] === 'ncs', apply: (s, i) => set(s, i, 'spin') }),
      proc(0),
      proc(1),
    ],
    properties: [],
  };
}

/**
 * A fair action that may stutter:
 *
 * ```tla
 * VARIABLE x
 * Init == x = 0
 * Inc  == x < 2 /\ \E d \in {0, 1} : x' = x + d
 * Spec == Init /\ [][Inc]_x /\ WF_x(Inc)
 * Reach == <>(x = 2)
 * ```
 *
 * TLC: Spec satisfies Reach. While x < 2, `<<Inc>>_x` is enabled (d = 1), so weak fairness
 * forbids staying at x forever, whether by stuttering or by Inc's own step with d = 0.
 */
export function stutteringCounter(): Model<number> {
  return {
    name: 'stuttering-counter',
    initialStates: () => [0],
    actions: [action<number, 0 | 1>({ name: 'inc', params: [0, 1], enabled: (x) => x < 2, apply: (x, d) => x + d, fair: true })],
    properties: [],
  };
}

/**
 * Weak fairness that holds vacuously, on an action whose every step stutters:
 *
 * ```tla
 * VARIABLES x, polls
 * Init == x = 0 /\ polls = 0
 * Poll == UNCHANGED <<x, polls>>        \* a controller pass that finds nothing to do
 * Go   == x = 0 /\ x' = 1 /\ UNCHANGED polls
 * Spec == Init /\ [][Poll \/ Go]_<<x, polls>> /\ WF_<<x, polls>>(Poll)
 * Done == <>(x = 1)
 * ```
 *
 * TLC: Spec violates Done, with the behaviour that stutters at the initial state (TLC prints
 * "Stuttering" as the cycle): `<<Poll>>_vars` is never enabled, so `WF(Poll)` holds of every
 * behaviour and forces nothing, and Go is not fair. The same spec with `WF(Go)` satisfies Done.
 */
export function vacuousFairness(goFair: boolean): Model<{ readonly x: number; readonly polls: number }> {
  type S = { readonly x: number; readonly polls: number };
  return {
    name: 'vacuous-fairness',
    initialStates: () => [{ x: 0, polls: 0 }],
    actions: [
      action<S>({ name: 'poll', apply: (s) => ({ ...s }), fair: true }),
      action<S>({ name: 'go', enabled: (s) => s.x === 0, apply: (s) => ({ ...s, x: 1 }), fair: goFair }),
    ],
    properties: [],
  };
}

/**
 * Strong fairness on an action that stutters in some states:
 *
 * ```tla
 * VARIABLES x, y
 * Init == x = 0 /\ y = FALSE
 * Flip == x' = 1 - x /\ UNCHANGED y
 * Set  == IF x = 0 THEN y' = TRUE /\ UNCHANGED x ELSE UNCHANGED <<x, y>>
 * WSpec == Init /\ [][Flip \/ Set]_<<x, y>> /\ WF_<<x, y>>(Flip) /\ WF_<<x, y>>(Set)
 * SSpec == Init /\ [][Flip \/ Set]_<<x, y>> /\ WF_<<x, y>>(Flip) /\ SF_<<x, y>>(Set)
 * Eventually == <>y
 * ```
 *
 * TLC: WSpec violates Eventually (Flip forever: `<<Set>>_vars` is enabled only at x = 0, not
 * continuously); SSpec satisfies it (enabled infinitely often, so taken). Set's step at x = 1
 * stutters, and takes nothing.
 */
export function strongStutter(setFairness: 'weak' | 'strong'): Model<{ readonly x: number; readonly y: boolean }> {
  type S = { readonly x: number; readonly y: boolean };
  return {
    name: `strong-stutter(${setFairness})`,
    initialStates: () => [{ x: 0, y: false }],
    actions: [
      action<S>({ name: 'flip', apply: (s) => ({ ...s, x: 1 - s.x }), fair: true }),
      action<S>({ name: 'set', apply: (s) => (s.x === 0 ? { ...s, y: true } : s), fair: setFairness }),
    ],
    properties: [],
  };
}
