/**
 * The memory bound of a search. Two things are watched: the resident set of the whole process
 * (every thread's heap, typed arrays, code) against the bound the user gave, and this thread's
 * JavaScript heap against V8's own limit, which may be lower than the bound and which, when
 * reached, aborts the process (or kills a worker) instead of returning. The search stops before
 * either, with verdict `incomplete`.
 */
import { getHeapStatistics } from 'node:v8';
import { defaultMaxMemoryBytes, type CheckOptions } from './options.js';

const MiB = 2 ** 20;

/**
 * Share of V8's heap limit at which the search stops. The heap may hold garbage not yet collected
 * when it is read, so this stops a little early rather than late.
 */
export const HEAP_STOP_FRACTION = 0.85;

/** The bound in bytes and the figure reported in `stoppedBy.limit` (MiB, as the reports print it). */
export function memoryBound(options: CheckOptions): { bytes: number; reportMiB: number } {
  const fromMiB = options.maxMemoryMB === undefined ? Infinity : options.maxMemoryMB * MiB;
  const given = Math.min(fromMiB, options.maxMemoryBytes ?? Infinity);
  if (given === Infinity) {
    const bytes = defaultMaxMemoryBytes();
    return { bytes, reportMiB: Math.round(bytes / MiB) };
  }
  // A bound given in MiB is reported as given (e.g. 1, not 0.99...).
  return { bytes: given, reportMiB: given === fromMiB ? (options.maxMemoryMB as number) : Math.round((given / MiB) * 100) / 100 };
}

/** The least time between two reads of memory: less than the time a search takes to allocate a few MiB. */
const READ_INTERVAL_MS = 20;
/**
 * The least time between two reads of the resident set: a read takes about half a millisecond
 * in a searching process (a tenth of a percent of the time at this interval, two percent at the
 * heap's), and what grows outside the heap (the visited table) grows by doubling, at moments.
 */
const RSS_INTERVAL_MS = 250;

/** Watches one thread's heap and the process's resident memory. */
export class MemoryGuard {
  private readonly heapStop: number;
  /** Peak resident set seen, bytes. */
  peakRss = process.memoryUsage.rss();
  /** What was exceeded at the last {@link exceeded} that returned true. */
  reason: 'rss' | 'heap' | undefined;

  constructor(readonly bytes: number) {
    this.heapStop = getHeapStatistics().heap_size_limit * HEAP_STOP_FRACTION;
  }

  /** When memory, and the resident set, were last read (`performance.now()`). */
  private lastRead = -Infinity;
  private lastRssRead = -Infinity;

  /**
   * Whether the process is over the bound or this thread's heap near V8's limit. The heap is read
   * at most once per {@link READ_INTERVAL_MS} (a parallel search asks once per level per thread),
   * the resident set once per {@link RSS_INTERVAL_MS}; in between the answer is no.
   */
  exceeded(): boolean {
    const now = performance.now();
    if (now - this.lastRead < READ_INTERVAL_MS) return false;
    this.lastRead = now;
    if (now - this.lastRssRead >= RSS_INTERVAL_MS) {
      this.lastRssRead = now;
      const rss = process.memoryUsage.rss();
      if (rss > this.peakRss) this.peakRss = rss;
      if (rss > this.bytes) {
        this.reason = 'rss';
        return true;
      }
    }
    if (getHeapStatistics().used_heap_size > this.heapStop) {
      this.reason = 'heap';
      return true;
    }
    return false;
  }

  /** Updates the peak only. */
  sample(): void {
    const rss = process.memoryUsage.rss();
    if (rss > this.peakRss) this.peakRss = rss;
  }
}
