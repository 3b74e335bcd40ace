/**
 * Misuse and bad input fail at once with a stable code and one sentence, never a stack trace.
 * Codes are grouped by layer: KC0xx checker, KC1xx model/config, KC2xx command line and reports.
 * Domain outcomes (a property violated, a bound reached) are results, never errors.
 */
export class KubecheckError extends Error {
  readonly code: string;
  constructor(code: string, message: string) {
    // One line, whatever the message quotes (a parser's multi-line error, a user's value).
    super(`${code}: ${message.replace(/\s*[\r\n]+\s*/g, ' ')}`);
    this.name = 'KubecheckError';
    this.code = code;
  }
}

/** Checker error codes; stable once released. */
export const CheckerErrorCode = {
  /** Two properties of one model share an id. */
  duplicatePropertyId: 'KC001',
  /** The model has no initial state. */
  noInitialState: 'KC002',
  /** A bound (depth, states, time, memory) is negative, zero where not allowed, or not a number. */
  invalidBound: 'KC003',
  /** A property id asked for is not one of the model's. */
  unknownProperty: 'KC004',
  /** A property id is not kebab-case. */
  invalidPropertyId: 'KC005',
  /** A replayed path names a step that the model does not have or that is not enabled. */
  pathDoesNotReplay: 'KC006',
  /** Two actions of one model share a name. */
  duplicateActionName: 'KC007',
  /** A worker thread of a parallel search could not rebuild the model, or failed. */
  workerFailed: 'KC008',
  /** Liveness asked for where it cannot be checked soundly (symmetry, a space too large to keep whole). */
  livenessUnsupported: 'KC009',
  /** A state-vector spec is malformed, or an action wrote a value outside its slot's range. */
  invalidVectorModel: 'KC010',
  /** Something a state-vector model cannot do was asked of it (symmetry reduction). */
  vectorUnsupported: 'KC011',
  /**
   * A distributed search lost or duplicated records between workers: the per-level, per-peer
   * counts disagree. The search is abandoned (never a count): re-run it.
   */
  recordsLost: 'KC012',
  /** A worker of a distributed search died, stopped heartbeating or failed; the search is incomplete. */
  workerLost: 'KC013',
  /** A worker of a distributed search runs another build, model or config than the coordinator's run manifest. */
  manifestMismatch: 'KC014',
  /** The coordination plane of a distributed search (Redis) cannot be reached or went away. */
  coordinationLost: 'KC015',
  /** Something a distributed search does not do was asked of it (depth-first, liveness, threads, a visitor). */
  distributedUnsupported: 'KC016',
} as const;

/** Throws a {@link KubecheckError}; a helper so call sites read as one line. */
export function fail(code: string, message: string): never {
  throw new KubecheckError(code, message);
}
