/**
 * TwoPhase written with immer: each transition is a `produce` recipe, guards are checked before
 * `produce` so no draft is built for a disabled action. Fingerprints use the compact key by
 * default, or with `genericFingerprint` the checker's generic encoder (hashes memoised per
 * unchanged sub-object), which is what models without a hand-written key get.
 */
import { produce } from 'immer';
import { action, type Model } from '../../checker/index.js';
import {
  canonicalize, compactKey, consistent, describeState, describeStep, initialState, rmIndices,
  type TwoPhaseOptions, type TwoPhaseState,
} from './common.js';

export function twoPhaseImmer(options: TwoPhaseOptions & { readonly genericFingerprint?: boolean }): Model<TwoPhaseState> {
  const { rms: n, bug } = options;
  const rms = rmIndices(n);
  return {
    name: `two-phase-commit(${n}, immer)${bug ? ` with bug ${bug}` : ''}`,
    initialStates: () => [initialState(n)],
    actions: [
      action<TwoPhaseState, number>({
        name: 'TMRcvPrepared',
        params: rms,
        enabled: (s, rm) => s.tmState === 'init' && s.msgs.prepared[rm],
        apply: (s, rm) => produce(s, (d) => { d.tmPrepared[rm] = true; }),
      }),
      action<TwoPhaseState>({
        name: 'TMCommit',
        enabled: (s) => s.tmState === 'init' && (bug === 'commit-on-any-prepared' ? s.tmPrepared.includes(true) : !s.tmPrepared.includes(false)),
        apply: (s) => produce(s, (d) => { d.tmState = 'committed'; d.msgs.commit = true; }),
      }),
      action<TwoPhaseState>({
        name: 'TMAbort',
        enabled: (s) => s.tmState === 'init',
        apply: (s) => produce(s, (d) => { d.tmState = 'aborted'; d.msgs.abort = true; }),
      }),
      action<TwoPhaseState, number>({
        name: 'RMPrepare',
        params: rms,
        enabled: (s, rm) => s.rmState[rm] === 'working',
        apply: (s, rm) => produce(s, (d) => { d.rmState[rm] = 'prepared'; d.msgs.prepared[rm] = true; }),
      }),
      action<TwoPhaseState, number>({
        name: 'RMChooseToAbort',
        params: rms,
        enabled: (s, rm) => s.rmState[rm] === 'working',
        apply: (s, rm) => produce(s, (d) => { d.rmState[rm] = 'aborted'; }),
      }),
      action<TwoPhaseState, number>({
        name: 'RMRcvCommitMsg',
        params: rms,
        enabled: (s) => s.msgs.commit || (bug === 'rm-commits-on-prepared' && s.msgs.prepared.includes(true)),
        apply: (s, rm) => produce(s, (d) => { d.rmState[rm] = 'committed'; }),
      }),
      action<TwoPhaseState, number>({
        name: 'RMRcvAbortMsg',
        params: rms,
        enabled: (s) => s.msgs.abort,
        apply: (s, rm) => produce(s, (d) => { d.rmState[rm] = 'aborted'; }),
      }),
    ],
    properties: [consistent],
    ...(options.symmetry ? { canonicalize } : {}),
    ...(options.genericFingerprint ? {} : { view: compactKey }),
    describeStep: (_b, a) => describeStep(a),
    describeState,
  };
}
