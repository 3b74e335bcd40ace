/**
 * A bound on the time a user's code (an extension's step, guard or hook, an operator's reconcile,
 * a property) may run in one call, and on the time limit while such a call runs.
 *
 * A search is synchronous: a `for (;;) {}` in a reconcile never gives the event loop a turn, so
 * neither a timer nor `--time-limit` (read between expansions) nor a signal listener can stop it.
 * What can: V8 ends a running script from another thread when the script was started with
 * `breakOnSigint` and the process receives SIGINT. So the search runs as one `vm` call with
 * `breakOnSigint`, and a watchdog thread reads, every quarter second, the counters user code keeps
 * (`userCodeClock`, in shared memory: two integer writes a call): when one call has run longer
 * than the bound, or is still running past the time limit, the watchdog says why in shared memory
 * and sends the process SIGINT. The search is ended where it stands, and the call is named in one
 * coded line. A Ctrl-C of the user's during the search ends the process as it always did (130).
 *
 * Nothing runs between the checks: the search's own speed is unchanged (one `vm` call for the
 * whole search, one thread asleep beside it).
 */
import vm from 'node:vm';
import { Worker } from 'node:worker_threads';
import { userCodeClock } from '../model/operator/userCode.js';
import { fail, ToolErrorCode } from '../reports/errors.js';

/**
 * How long one call into an extension may run (seconds) before the check ends with KC218:
 * `KUBECHECK_HOOK_TIMEOUT` when set, else 30 s, a thousand times what a reconcile takes.
 */
export function hookTimeLimitSeconds(): number {
  const env = Number(process.env.KUBECHECK_HOOK_TIMEOUT);
  return Number.isFinite(env) && env > 0 ? env : 30;
}

/** How long past `--time-limit` a call under way may still return before the check ends with KC219. */
export const TIME_LIMIT_GRACE_SECONDS = 2;

/** Why the watchdog interrupted the search (`shared[2]`). */
const HOOK_BOUND = 1;
const TIME_LIMIT = 2;

/**
 * The watchdog (plain JavaScript, evaluated in its thread). `shared`: [0] the calls' sequence,
 * [1] calls under way, [2] why it fired, [3] how long the call had run (ms).
 */
const WATCHDOG = `
const { workerData } = require('node:worker_threads');
const { shared, hookMs, deadline } = workerData;
let seq = -1;
let since = Date.now();
const timer = setInterval(() => {
  const now = Date.now();
  const s = Atomics.load(shared, 0);
  if (s !== seq || Atomics.load(shared, 1) <= 0) { seq = s; since = now; return; }
  const why = now - since >= hookMs ? ${HOOK_BOUND} : deadline !== undefined && now >= deadline ? ${TIME_LIMIT} : 0;
  if (why === 0) return;
  Atomics.store(shared, 3, now - since);
  Atomics.store(shared, 2, why);
  clearInterval(timer);
  process.kill(process.pid, 'SIGINT');
}, 250);
`;

const context = vm.createContext({ run: undefined as (() => unknown) | undefined });
const script = new vm.Script('run()', { filename: 'kubecheck-search' });

/**
 * Runs `search` with every call into user code bounded: KC218 (exit 2) when one call runs longer
 * than {@link hookTimeLimitSeconds}: a step or hook that does not return is a defect of the
 * module, and running again would end the same way. KC219 (exit 3) when `timeLimitSeconds` has
 * passed and a call still runs {@link TIME_LIMIT_GRACE_SECONDS} later: the time bound stopped the
 * check, as `--time-limit` does, so the result is incomplete; the call may only be slow. Either
 * way nothing is reported as checked (the violations found before are in `--out` already).
 */
export function withUserCodeBound<T>(search: () => T, timeLimitSeconds?: number): T {
  const hookSeconds = hookTimeLimitSeconds();
  const shared = new Int32Array(new SharedArrayBuffer(16));
  const plain = userCodeClock.calls;
  userCodeClock.calls = shared;
  const started = Date.now();
  const deadline = timeLimitSeconds === undefined ? undefined : started + (timeLimitSeconds + TIME_LIMIT_GRACE_SECONDS) * 1000;
  const watchdog = new Worker(WATCHDOG, { eval: true, workerData: { shared, hookMs: hookSeconds * 1000, deadline } });
  watchdog.unref();
  // The watchdog's signal may land just after the search returned: that one is not the user's.
  let owed = false;
  const late = (): void => {
    if (owed) {
      owed = false;
      return;
    }
    process.off('SIGINT', late);
    process.kill(process.pid, 'SIGINT');
  };
  process.on('SIGINT', late);
  let interrupted = false;
  try {
    context.run = search;
    return script.runInContext(context, { breakOnSigint: true }) as T;
  } catch (e) {
    if ((e as { code?: unknown } | null)?.code !== 'ERR_SCRIPT_EXECUTION_INTERRUPTED') throw e;
    interrupted = true;
    const why = Atomics.load(shared, 2);
    if (why === 0) {
      // The user's Ctrl-C: end as the process always did on one (exit 130).
      process.off('SIGINT', late);
      process.kill(process.pid, 'SIGINT');
      process.exit(130);
    }
    const where = userCodeClock.where ?? "an extension's code";
    const ran = (Atomics.load(shared, 3) / 1000).toFixed(0);
    if (why === TIME_LIMIT) {
      return fail(ToolErrorCode.timeLimitInUserCode, `the time limit of ${timeLimitSeconds} s passed while ${where} ran (for ${ran} s, still running ${TIME_LIMIT_GRACE_SECONDS} s after the limit); the check was stopped there and is incomplete: no property is decided`);
    }
    return fail(ToolErrorCode.userCodeHung, `${where} did not return within ${hookSeconds} s (an endless loop, or a wait that never ends?); the check was stopped there, nothing was checked to the end. KUBECHECK_HOOK_TIMEOUT=<seconds> changes the bound`);
  } finally {
    context.run = undefined;
    userCodeClock.calls = plain;
    userCodeClock.where = undefined;
    void watchdog.terminate();
    if (!interrupted && Atomics.load(shared, 2) !== 0) owed = true;
    else process.off('SIGINT', late);
  }
}
