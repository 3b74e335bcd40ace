/**
 * TwoPhase (tlaplus/Examples, specifications/transaction_commit/TwoPhase.tla): the two-phase
 * commit protocol with a transaction manager (TM) and resource managers (RMs), messages kept in a
 * set that only grows. Written twice, with plain immutable objects (`plain.ts`) and with immer
 * (`immer.ts`); both must give TLC's published counts.
 */
import { always, type Property, type StepDescription } from '../../checker/index.js';

export type RmState = 'working' | 'prepared' | 'committed' | 'aborted';
export type TmState = 'init' | 'committed' | 'aborted';

/** The spec's variables. Sets of RMs are arrays of flags indexed by RM number. */
export interface TwoPhaseState {
  readonly rmState: readonly RmState[];
  readonly tmState: TmState;
  readonly tmPrepared: readonly boolean[];
  /** The message set: `Prepared(rm)` per RM, and `Commit` / `Abort`. */
  readonly msgs: { readonly prepared: readonly boolean[]; readonly commit: boolean; readonly abort: boolean };
}

/**
 * Seeded bugs the checker must find. `commit-on-any-prepared`: the TM commits as soon as one RM is
 * prepared. `rm-commits-on-prepared`: an RM commits on seeing any Prepared message.
 */
export type TwoPhaseBug = 'commit-on-any-prepared' | 'rm-commits-on-prepared';

export interface TwoPhaseOptions {
  /** Number of resource managers. */
  readonly rms: number;
  readonly bug?: TwoPhaseBug;
  /** Treat RMs as interchangeable (symmetry reduction). */
  readonly symmetry?: boolean;
}

export function initialState(n: number): TwoPhaseState {
  const none = Array.from({ length: n }, () => false);
  return {
    rmState: Array.from({ length: n }, () => 'working' as const),
    tmState: 'init',
    tmPrepared: none,
    msgs: { prepared: none, commit: false, abort: false },
  };
}

/** TCConsistent: no RM has committed while another has aborted. */
export const consistent: Property<TwoPhaseState> = always<TwoPhaseState>(
  'consistent',
  'no resource manager is committed while another is aborted',
  (s) => !(s.rmState.includes('committed') && s.rmState.includes('aborted')),
  { source: 'tlaplus/Examples:specifications/transaction_commit/TCommit.tla (TCConsistent)' },
);

const CODE: Record<RmState | TmState, string> = { working: 'w', prepared: 'p', committed: 'c', aborted: 'a', init: 'i' };

const RM_CODE: Record<RmState, number> = { working: 0, prepared: 1, committed: 2, aborted: 3 };
const TM_CODE: Record<TmState, number> = { init: 0, committed: 1, aborted: 2 };
const keyCodes: number[] = [];

/**
 * A compact key, one character per RM (its state, whether the TM has its vote, whether its
 * Prepared message was sent) after one for the TM and the Commit / Abort messages.
 */
export function compactKey(s: TwoPhaseState): string {
  const n = s.rmState.length;
  if (keyCodes.length !== n + 1) keyCodes.length = n + 1;
  keyCodes[0] = 48 + TM_CODE[s.tmState] * 4 + (s.msgs.commit ? 2 : 0) + (s.msgs.abort ? 1 : 0);
  for (let i = 0; i < n; i++) {
    keyCodes[i + 1] = 48 + RM_CODE[s.rmState[i]] * 4 + (s.tmPrepared[i] ? 2 : 0) + (s.msgs.prepared[i] ? 1 : 0);
  }
  return String.fromCharCode.apply(null, keyCodes);
}

/**
 * The orbit representative under permutations of the RMs: each RM's full signature (its state,
 * whether the TM has its vote, whether its Prepared message was sent), sorted.
 */
export function canonicalize(s: TwoPhaseState): TwoPhaseState {
  const order = s.rmState.map((_, i) => i);
  const sig = order.map((i) => CODE[s.rmState[i]] + (s.tmPrepared[i] ? '1' : '0') + (s.msgs.prepared[i] ? '1' : '0'));
  order.sort((a, b) => (sig[a] < sig[b] ? -1 : sig[a] > sig[b] ? 1 : 0));
  return {
    rmState: order.map((i) => s.rmState[i]),
    tmState: s.tmState,
    tmPrepared: order.map((i) => s.tmPrepared[i]),
    msgs: { prepared: order.map((i) => s.msgs.prepared[i]), commit: s.msgs.commit, abort: s.msgs.abort },
  };
}

export const ACTION_NAMES = [
  'TMRcvPrepared',
  'TMCommit',
  'TMAbort',
  'RMPrepare',
  'RMChooseToAbort',
  'RMRcvCommitMsg',
  'RMRcvAbortMsg',
] as const;

/** Who acts in each step and whom it messages, for timelines and sequence diagrams. */
export function describeStep(action: { name: string; param?: unknown }): StepDescription {
  const rm = typeof action.param === 'number' ? `rm-${action.param + 1}` : '';
  switch (action.name) {
    case 'TMRcvPrepared': return { actor: 'tm', summary: `receives Prepared from ${rm}` };
    case 'TMCommit': return { actor: 'tm', summary: 'commits and sends Commit', to: ['rms'] };
    case 'TMAbort': return { actor: 'tm', summary: 'aborts and sends Abort', to: ['rms'] };
    case 'RMPrepare': return { actor: rm, summary: 'prepares and sends Prepared', to: ['tm'] };
    case 'RMChooseToAbort': return { actor: rm, summary: 'chooses to abort' };
    case 'RMRcvCommitMsg': return { actor: rm, summary: 'receives Commit, commits' };
    case 'RMRcvAbortMsg': return { actor: rm, summary: 'receives Abort, aborts' };
    default: return { actor: rm || 'tm', summary: action.name };
  }
}

export function describeState(s: TwoPhaseState): string {
  const rms = s.rmState.map((r, i) => `rm-${i + 1}=${r}${s.tmPrepared[i] ? '*' : ''}`).join(' ');
  const msgs = [...s.msgs.prepared.flatMap((p, i) => (p ? [`Prepared(rm-${i + 1})`] : [])), ...(s.msgs.commit ? ['Commit'] : []), ...(s.msgs.abort ? ['Abort'] : [])];
  return `tm=${s.tmState} ${rms} msgs={${msgs.join(', ')}}`;
}

export function rmIndices(n: number): readonly number[] {
  return Array.from({ length: n }, (_, i) => i);
}
