/**
 * The terminal: colour only when stdout is a terminal, `NO_COLOR` is unset and `--no-color` was not
 * given; progress only when stderr is a terminal.
 */
import cliProgress from 'cli-progress';
import type { Progress } from '../checker/index.js';
import { palette, type Palette } from '../reports/colors.js';

/** The palette for stdout. */
export function stdoutPalette(noColor: boolean): Palette {
  const env = process.env.NO_COLOR;
  return palette(!noColor && (env === undefined || env === '') && process.stdout.isTTY === true);
}

/** A progress line on stderr (states, depth, rate, elapsed), or `undefined` when stderr is not a terminal. */
export function progressReporter(enabled = true): { onProgress: (p: Progress) => void; stop: () => void } | undefined {
  if (!enabled || process.stderr.isTTY !== true) return undefined;
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
 * prints `kubecheck: ...what` on stderr and exits 130 at once, so nothing partial is written (a
 * temporary folder is removed by its own exit listener). Synchronous steps between awaits of
 * {@link signalsDelivered} take the signal at the next one.
 * A synchronous search cannot be interrupted this way: there Ctrl-C ends the process directly
 * (exit 130), with nothing written. Returns the function that removes the handler.
 */
export function onInterrupt(what: () => string): () => void {
  const handler = (): void => {
    process.stderr.write(`kubecheck: ${what()}\n`);
    process.exit(INTERRUPTED_EXIT_CODE);
  };
  process.once('SIGINT', handler);
  return () => {
    process.removeListener('SIGINT', handler);
  };
}

/**
 * Resolves after the event loop has taken in what arrived meanwhile: a signal received during
 * synchronous work is only handled (its listener run) on the loop's next turn, and would be lost
 * if its listener were removed first.
 */
export function signalsDelivered(): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, 0));
}
