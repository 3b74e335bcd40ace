/** TwoPhase with plain immutable objects and spreads, and a compact fingerprint view. */
import { action, type Model } from '../../checker/index.js';
import {
  canonicalize, compactKey, consistent, describeState, describeStep, initialState, rmIndices,
  type RmState, type TwoPhaseOptions, type TwoPhaseState,
} from './common.js';

function setAt<T>(xs: readonly T[], i: number, v: T): readonly T[] {
  const out = xs.slice();
  out[i] = v;
  return out;
}

/** Sets one RM's state; returns `s` itself when it already has it (a self-loop, as immer does). */
const setRm = (s: TwoPhaseState, rm: number, v: RmState): TwoPhaseState =>
  s.rmState[rm] === v ? s : { ...s, rmState: setAt(s.rmState, rm, v) };

export function twoPhasePlain(options: TwoPhaseOptions): Model<TwoPhaseState> {
  const { rms: n, bug } = options;
  const rms = rmIndices(n);
  return {
    name: `two-phase-commit(${n})${bug ? ` with bug ${bug}` : ''}`,
    initialStates: () => [initialState(n)],
    actions: [
      action<TwoPhaseState, number>({
        name: 'TMRcvPrepared',
        params: rms,
        enabled: (s, rm) => s.tmState === 'init' && s.msgs.prepared[rm],
        apply: (s, rm) => ({ ...s, tmPrepared: setAt(s.tmPrepared, rm, true) }),
      }),
      action<TwoPhaseState>({
        name: 'TMCommit',
        enabled: (s) => s.tmState === 'init' && (bug === 'commit-on-any-prepared' ? s.tmPrepared.includes(true) : !s.tmPrepared.includes(false)),
        apply: (s) => ({ ...s, tmState: 'committed', msgs: { ...s.msgs, commit: true } }),
      }),
      action<TwoPhaseState>({
        name: 'TMAbort',
        enabled: (s) => s.tmState === 'init',
        apply: (s) => ({ ...s, tmState: 'aborted', msgs: { ...s.msgs, abort: true } }),
      }),
      action<TwoPhaseState, number>({
        name: 'RMPrepare',
        params: rms,
        enabled: (s, rm) => s.rmState[rm] === 'working',
        apply: (s, rm) => ({ ...s, rmState: setAt(s.rmState, rm, 'prepared'), msgs: { ...s.msgs, prepared: setAt(s.msgs.prepared, rm, true) } }),
      }),
      action<TwoPhaseState, number>({
        name: 'RMChooseToAbort',
        params: rms,
        enabled: (s, rm) => s.rmState[rm] === 'working',
        apply: (s, rm) => setRm(s, rm, 'aborted'),
      }),
      action<TwoPhaseState, number>({
        name: 'RMRcvCommitMsg',
        params: rms,
        enabled: (s) => s.msgs.commit || (bug === 'rm-commits-on-prepared' && s.msgs.prepared.includes(true)),
        apply: (s, rm) => setRm(s, rm, 'committed'),
      }),
      action<TwoPhaseState, number>({
        name: 'RMRcvAbortMsg',
        params: rms,
        enabled: (s) => s.msgs.abort,
        apply: (s, rm) => setRm(s, rm, 'aborted'),
      }),
    ],
    properties: [consistent],
    ...(options.symmetry ? { canonicalize } : {}),
    view: compactKey,
    describeStep: (_b, a) => describeStep(a),
    describeState,
  };
}
