/**
 * The terminal: colour only when stdout is a terminal, `NO_COLOR` is unset and `--no-color` was not
 * given; progress drawn as a live line when stderr is a terminal, else one plain line every 30 s
 * (a CI log), none with `--quiet`.
 */
import cliProgress from 'cli-progress';
import type { Progress } from '../checker/index.js';
import { palette, type Palette } from '../reports/colors.js';
import { fail, ToolErrorCode } from '../reports/errors.js';
import { terminalText } from '../checker/escape.js';

/**
 * Writes text for people on stdout: a control character that input left in it is escaped and no
 * line starts a CI workflow command ({@link terminalText}); with `colours` on, their sequences pass.
 */
export function printOut(text: string, colours: Palette | boolean = false): void {
  process.stdout.write(terminalText(text, typeof colours === 'boolean' ? colours : colours.isColorSupported));
}

/** Writes text for people on stderr (kubecheck prints no colour there), as {@link printOut}. */
export function printErr(text: string): void {
  process.stderr.write(terminalText(text));
}

/** The palette for stdout. */
export function stdoutPalette(noColor: boolean): Palette {
  const env = process.env.NO_COLOR;
  return palette(!noColor && (env === undefined || env === '') && process.stdout.isTTY === true);
}

/** What reports a search's progress: the callback, how often the checker calls it, and the end. */
export interface ProgressReporter {
  readonly onProgress: (p: Progress) => void;
  /** Milliseconds between two calls (the checker's `progressIntervalMs`). */
  readonly intervalMs: number;
  readonly stop: () => void;
}

/** Milliseconds between two progress lines when stderr is not a terminal (TLC prints one a minute). */
export const LOG_PROGRESS_INTERVAL_MS = 30_000;

/**
 * The interval of progress lines in a log: `KUBECHECK_PROGRESS_INTERVAL` (milliseconds, e.g. 1000)
 * when set, else {@link LOG_PROGRESS_INTERVAL_MS}. A value that is not a positive number is bad
 * input (KC200).
 */
export function logProgressIntervalMs(env: string | undefined = process.env.KUBECHECK_PROGRESS_INTERVAL): number {
  if (env === undefined || env === '') return LOG_PROGRESS_INTERVAL_MS;
  const ms = /^\s*\d+(\.\d+)?\s*$/.test(env) ? Number(env) : Number.NaN;
  if (!(ms > 0) || !Number.isFinite(ms)) fail(ToolErrorCode.badOption, `KUBECHECK_PROGRESS_INTERVAL must be a positive number of milliseconds (e.g. 30000), got "${env}"`);
  return ms;
}

/**
 * One progress line for a log, like TLC's: `kubecheck: progress: 5,088 distinct states, 5,278
 * generated, depth 491, queue 12, 5,032 states/s, 30s elapsed`.
 */
export function progressLine(p: Progress): string {
  const n = (x: number): string => x.toLocaleString('en-US');
  const rate = Math.round(p.distinctStates / Math.max(p.seconds, 1e-3));
  return `kubecheck: progress: ${n(p.distinctStates)} distinct states, ${n(p.generatedStates)} generated, depth ${p.depth}, queue ${n(p.queued)}, ${n(rate)} states/s, ${Math.round(p.seconds)}s elapsed`;
}

/**
 * Progress on stderr, or `undefined` when `quiet`: on a terminal a line redrawn in place (states,
 * depth, queue, rate, elapsed); elsewhere (a CI log, a file) one line every 30 s
 * (`KUBECHECK_PROGRESS_INTERVAL` ms), so a long check shows it is alive without flooding the log.
 */
export function progressReporter(options: { readonly quiet?: boolean } = {}): ProgressReporter | undefined {
  if (options.quiet === true) return undefined;
  if (process.stderr.isTTY !== true) {
    return {
      intervalMs: logProgressIntervalMs(),
      onProgress(p) {
        process.stderr.write(`${progressLine(p)}\n`);
      },
      stop() {},
    };
  }
  const bar = new cliProgress.SingleBar(
    {
      stream: process.stderr,
      format: '  {states} distinct states | {generated} generated | depth {depth} | queue {queued} | {rate} states/s | {elapsed}s',
      hideCursor: false, // Ctrl-C ends the process at once: a hidden cursor would stay hidden
      clearOnComplete: true,
      fps: 5,
    },
    cliProgress.Presets.shades_classic,
  );
  let started = false;
  const n = (x: number): string => x.toLocaleString('en-US');
  return {
    intervalMs: 500,
    onProgress(p) {
      const payload = {
        states: n(p.distinctStates),
        generated: n(p.generatedStates),
        depth: p.depth,
        queued: n(p.queued),
        rate: n(Math.round(p.distinctStates / Math.max(p.seconds, 1e-3))),
        elapsed: p.seconds.toFixed(1),
      };
      if (!started) {
        bar.start(0, 0, payload);
        started = true;
      }
      bar.update(0, payload);
      bar.render(); // the search is synchronous: cli-progress's timer never fires during it
    },
    stop() {
      if (started) bar.stop();
    },
  };
}

/** Exit code after Ctrl-C (128 + SIGINT), as shells report it. */
export const INTERRUPTED_EXIT_CODE = 130;

/**
 * While a step that can wait for the event loop runs (building and writing reports), Ctrl-C
 * (or SIGTERM) prints `kubecheck: ...what` on stderr and exits 130 (143) at once, so nothing
 * partial is written (a
 * temporary folder is removed by its own exit listener). Synchronous steps between awaits of
 * {@link signalsDelivered} take the signal at the next one.
 * A synchronous search cannot be interrupted this way: there Ctrl-C ends the process directly
 * (exit 130), with nothing written. Returns the function that removes the handler.
 */
export function onInterrupt(what: () => string): () => void {
  const handler = (signal: NodeJS.Signals): void => {
    printErr(`kubecheck: ${what()}\n`);
    process.exit(signal === 'SIGTERM' ? TERMINATED_EXIT_CODE : INTERRUPTED_EXIT_CODE);
  };
  // SIGTERM is what a CI runner or an orchestrator sends to cancel a job: the same care as Ctrl-C.
  process.once('SIGINT', handler);
  process.once('SIGTERM', handler);
  return () => {
    process.removeListener('SIGINT', handler);
    process.removeListener('SIGTERM', handler);
  };
}

/** Exit code after SIGTERM (128 + 15) while reports are written, as shells report it. */
export const TERMINATED_EXIT_CODE = 143;

/**
 * Resolves after the event loop has taken in what arrived meanwhile: a signal received during
 * synchronous work is only handled (its listener run) on the loop's next turn, and would be lost
 * if its listener were removed first.
 */
export function signalsDelivered(): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, 0));
}
