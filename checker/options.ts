/** Search options and their validation: a bad bound fails at once with a code and a sentence. */
import { CheckerErrorCode, fail } from './errors.js';

/** Progress figures handed to `onProgress` while a search runs. */
export interface Progress {
  readonly distinctStates: number;
  readonly generatedStates: number;
  readonly depth: number;
  readonly queued: number;
  readonly seconds: number;
}

export interface CheckOptions {
  /** `bfs` (default) gives shortest counterexamples; `dfs` uses less memory for its frontier. */
  readonly strategy?: 'bfs' | 'dfs';
  /** Maximum BFS levels, the initial one included. */
  readonly maxDepth?: number;
  /** Maximum distinct states stored. */
  readonly maxStates?: number;
  /** Wall-clock limit in seconds. */
  readonly timeLimitSeconds?: number;
  /** Resident memory limit in MiB. */
  readonly maxMemoryMB?: number;
  /** Check only these property ids (default: all of the model's). */
  readonly properties?: readonly string[];
  /** Use the model's canonicalisation (default: true when the model has one). */
  readonly symmetry?: boolean;
  /** Keep exact encodings beside fingerprints and count collisions (debug; memory heavy). */
  readonly detectCollisions?: boolean;
  /** Stop at the first violation instead of deciding every property. */
  readonly stopAtFirstViolation?: boolean;
  /** Called about every `progressIntervalMs` (default 500) during the search. */
  readonly onProgress?: (progress: Progress) => void;
  readonly progressIntervalMs?: number;
}

/** Validates a bound: a positive finite number (an integer for counts). */
function checkBound(name: string, value: unknown, integer: boolean): void {
  if (value === undefined) return;
  const ok = typeof value === 'number' && Number.isFinite(value) && value > 0 && (!integer || Number.isInteger(value));
  if (!ok) {
    fail(
      CheckerErrorCode.invalidBound,
      `${name} must be a positive ${integer ? 'integer' : 'number'}, got ${typeof value === 'number' ? String(value) : (JSON.stringify(value) ?? String(value))}`,
    );
  }
}

/** Throws a `KubecheckError` (KC003) naming the first bad bound. */
export function validateOptions(options: CheckOptions): void {
  checkBound('maxDepth', options.maxDepth, true);
  checkBound('maxStates', options.maxStates, true);
  checkBound('timeLimitSeconds', options.timeLimitSeconds, false);
  checkBound('maxMemoryMB', options.maxMemoryMB, false);
  checkBound('progressIntervalMs', options.progressIntervalMs, false);
  if (options.strategy !== undefined && options.strategy !== 'bfs' && options.strategy !== 'dfs') {
    fail(CheckerErrorCode.invalidBound, `strategy must be "bfs" or "dfs", got ${JSON.stringify(options.strategy)}`);
  }
}
