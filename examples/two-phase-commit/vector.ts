/**
 * TwoPhase as a state vector (SPIN's representation, `checker/vectorModel.ts`): one slot for the
 * TM's state, one each for the Commit and Abort messages, then per RM its state, whether the TM
 * has its vote, and whether its Prepared message was sent. Same actions in the same order, same
 * guards and seeded bugs as `plain.ts`, so the same counts and the same counterexamples; checked
 * by the state-vector search. No symmetry (refused, KC011).
 */
import { always, fail, vectorAction, VectorErrorCode, vectorModel, type Model, type Property, type VectorSlot, type VectorState, type VectorView } from '../../checker/index.js';
import { describeState, describeStep, rmIndices, type RmState, type TmState, type TwoPhaseOptions, type TwoPhaseState } from './common.js';

const RM_STATES: readonly RmState[] = ['working', 'prepared', 'committed', 'aborted'];
const TM_STATES: readonly TmState[] = ['init', 'committed', 'aborted'];
const WORKING = 0;
const PREPARED = 1;
const COMMITTED = 2;
const ABORTED = 3;
const TM_INIT = 0;
const TM_COMMITTED = 1;
const TM_ABORTED = 2;

/** Where each variable lives in the vector of a TwoPhase with `n` RMs. */
export interface TwoPhaseLayout {
  readonly tmState: number;
  readonly msgCommit: number;
  readonly msgAbort: number;
  /** `rmState + rm` is RM `rm`'s state (0 working, 1 prepared, 2 committed, 3 aborted). */
  readonly rmState: number;
  /** `tmPrepared + rm` is 1 when the TM has RM `rm`'s vote. */
  readonly tmPrepared: number;
  /** `msgPrepared + rm` is 1 when RM `rm`'s Prepared message was sent. */
  readonly msgPrepared: number;
  readonly slots: readonly VectorSlot[];
}

export function twoPhaseLayout(n: number): TwoPhaseLayout {
  const slots: VectorSlot[] = [
    { name: 'tmState', size: 3 },
    { name: 'msgs.commit', size: 2 },
    { name: 'msgs.abort', size: 2 },
    ...rmIndices(n).map((i) => ({ name: `rmState[${i}]`, size: 4 })),
    ...rmIndices(n).map((i) => ({ name: `tmPrepared[${i}]`, size: 2 })),
    ...rmIndices(n).map((i) => ({ name: `msgs.prepared[${i}]`, size: 2 })),
  ];
  return { tmState: 0, msgCommit: 1, msgAbort: 2, rmState: 3, tmPrepared: 3 + n, msgPrepared: 3 + 2 * n, slots };
}

/** The vector as the spec's variables, for people (reports, diffs, descriptions). */
export function decodeTwoPhase(n: number, v: VectorView): TwoPhaseState {
  const l = twoPhaseLayout(n);
  const rms = rmIndices(n);
  return {
    rmState: rms.map((i) => RM_STATES[v[l.rmState + i]]),
    tmState: TM_STATES[v[l.tmState]],
    tmPrepared: rms.map((i) => v[l.tmPrepared + i] === 1),
    msgs: { prepared: rms.map((i) => v[l.msgPrepared + i] === 1), commit: v[l.msgCommit] === 1, abort: v[l.msgAbort] === 1 },
  };
}

/** TCConsistent on the vector: no RM has committed while another has aborted. */
export function consistentVector(n: number): Property<VectorState> {
  const first = twoPhaseLayout(n).rmState;
  return always<VectorState>(
    'consistent',
    'no resource manager is committed while another is aborted',
    (v) => {
      let committed = false;
      let aborted = false;
      for (let i = first; i < first + n; i++) {
        if (v[i] === COMMITTED) committed = true;
        else if (v[i] === ABORTED) aborted = true;
      }
      return !(committed && aborted);
    },
    { source: 'tlaplus/Examples:specifications/transaction_commit/TCommit.tla (TCConsistent)' },
  );
}

export function twoPhaseVector(options: TwoPhaseOptions): Model<VectorState> {
  const { rms: n, bug } = options;
  if (options.symmetry) fail(VectorErrorCode.vectorUnsupported, 'the state-vector TwoPhase has no symmetry reduction; use twoPhasePlain or twoPhaseImmer with symmetry');
  const l = twoPhaseLayout(n);
  const { tmState: TM, msgCommit: COMMIT, msgAbort: ABORT, rmState: RM, tmPrepared: TMP, msgPrepared: MSGP } = l;
  const rms = rmIndices(n);
  /** Whether any (all) of the `n` slots from `first` equal 1. */
  const any = (v: VectorView, first: number): boolean => {
    for (let i = first; i < first + n; i++) if (v[i] === 1) return true;
    return false;
  };
  const all = (v: VectorView, first: number): boolean => {
    for (let i = first; i < first + n; i++) if (v[i] !== 1) return false;
    return true;
  };
  const initial = l.slots.map(() => 0);
  return vectorModel({
    name: `two-phase-commit(${n}, vector)${bug ? ` with bug ${bug}` : ''}`,
    slots: l.slots,
    initial: [initial],
    actions: [
      vectorAction<number>({
        name: 'TMRcvPrepared',
        params: rms,
        guard: (v) => v[TM] === TM_INIT,
        enabled: (v, rm) => v[MSGP + rm] === 1,
        apply: (_v, next, rm) => next.set(TMP + rm, 1),
      }),
      vectorAction({
        name: 'TMCommit',
        enabled: (v) => v[TM] === TM_INIT && (bug === 'commit-on-any-prepared' ? any(v, TMP) : all(v, TMP)),
        apply: (_v, next) => {
          next.set(TM, TM_COMMITTED);
          next.set(COMMIT, 1);
        },
      }),
      vectorAction({
        name: 'TMAbort',
        enabled: (v) => v[TM] === TM_INIT,
        apply: (_v, next) => {
          next.set(TM, TM_ABORTED);
          next.set(ABORT, 1);
        },
      }),
      vectorAction<number>({
        name: 'RMPrepare',
        params: rms,
        enabled: (v, rm) => v[RM + rm] === WORKING,
        apply: (_v, next, rm) => {
          next.set(RM + rm, PREPARED);
          next.set(MSGP + rm, 1);
        },
      }),
      vectorAction<number>({
        name: 'RMChooseToAbort',
        params: rms,
        enabled: (v, rm) => v[RM + rm] === WORKING,
        apply: (_v, next, rm) => next.set(RM + rm, ABORTED),
      }),
      vectorAction<number>({
        name: 'RMRcvCommitMsg',
        params: rms,
        guard: (v) => v[COMMIT] === 1 || (bug === 'rm-commits-on-prepared' && any(v, MSGP)),
        apply: (_v, next, rm) => next.set(RM + rm, COMMITTED),
      }),
      vectorAction<number>({
        name: 'RMRcvAbortMsg',
        params: rms,
        guard: (v) => v[ABORT] === 1,
        apply: (_v, next, rm) => next.set(RM + rm, ABORTED),
      }),
    ],
    properties: [consistentVector(n)],
    decode: (v) => decodeTwoPhase(n, v),
    describeStep: (_b, a) => describeStep(a),
    describeState: (v) => describeState(decodeTwoPhase(n, v)),
  });
}
