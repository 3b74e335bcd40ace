/**
 * The memory bound of a search. Two things are watched: the resident set of the whole process
 * (every thread's heap, typed arrays, code) against the bound the user gave, and this thread's
 * JavaScript heap against V8's own limit, which may be lower than the bound and which, when
 * reached, aborts the process (or kills a worker) instead of returning. The search stops before
 * either, with verdict `incomplete`.
 *
 * Readings alone cannot hold the bound: between two of them a search may store a burst of large
 * states. So the search also tells the guard the bytes it stores as it stores them (the visited
 * table and parent links exactly, states by an estimate, `stateBytes.ts`), and the guard stops it
 * before the bytes held plus the resident set at the start, or the bytes stored since the last
 * reading plus that reading, pass the bound; every mebibyte stored brings a new reading.
 */
import { getHeapStatistics } from 'node:v8';
import { isMainThread, resourceLimits } from 'node:worker_threads';
import { defaultMaxMemoryBytes, type CheckOptions } from './options.js';

const MiB = 2 ** 20;

/**
 * Share of V8's old-generation limit at which the search stops. The heap may hold garbage not yet
 * collected when it is read, so this stops a little early rather than late.
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

/** The value of a V8 flag given to this process (`--flag=N` or `--flag N`, on the command line or in NODE_OPTIONS), or undefined. */
function numericFlag(name: string): number | undefined {
  const args = [...(process.env.NODE_OPTIONS ?? '').split(/\s+/), ...process.execArgv];
  let value: number | undefined;
  for (let i = 0; i < args.length; i++) {
    const a = args[i].replace(/_/g, '-');
    if (a === name && i + 1 < args.length) value = Number(args[i + 1]);
    else if (a.startsWith(`${name}=`)) value = Number(a.slice(name.length + 1));
  }
  return value !== undefined && Number.isFinite(value) && value > 0 ? value : undefined;
}

/**
 * The size of this thread's old generation past which V8 aborts (the main thread) or kills the
 * worker: what the heap's objects, the young generation's survivors included, must fit in.
 * `heap_size_limit` is that plus the young generation's reserve (two semi-spaces and as much
 * again for new large objects: 48 MiB with V8's default 16 MiB semi-space), which V8 never lets
 * the old generation use. A worker knows its own limit (`resourceLimits`).
 */
export function oldGenerationLimit(): number {
  if (!isMainThread && resourceLimits.maxOldGenerationSizeMb !== undefined && resourceLimits.maxOldGenerationSizeMb > 0) {
    return resourceLimits.maxOldGenerationSizeMb * MiB;
  }
  const semiSpace = (numericFlag('--max-semi-space-size') ?? 16) * MiB;
  const limit = getHeapStatistics().heap_size_limit;
  return Math.max(limit / 2, limit - 3 * semiSpace);
}

/**
 * The least time between two readings the search asks for (`exceeded`): memory grows between
 * them by what is not stored (garbage, caches), which the readings at every {@link READ_STEP}
 * stored bytes do not see. A reading (`process.memoryUsage()`: resident set and heap) takes a few
 * microseconds (4 µs measured with eight million objects on the heap).
 */
const READ_INTERVAL_MS = 20;
/** Bytes stored between two readings at most: the overshoot a reading's lag can cause is of this order. */
const READ_STEP = MiB;

/** What stopped a search: the resident set read, the bytes held over the start's, or this thread's heap. */
export type MemoryReason = 'rss' | 'held' | 'heap';

/** Watches one thread's heap and the process's resident memory, and the bytes the search holds. */
export class MemoryGuard {
  /** Bytes of this thread's heap at which the search stops ({@link HEAP_STOP_FRACTION} of the old generation's limit). */
  readonly heapStop: number;
  /** The old generation's limit, bytes ({@link oldGenerationLimit}). */
  readonly heapLimit: number;
  /** The resident set when the guard was made (the search's start), bytes. */
  readonly baseline: number;
  /** Peak resident set seen, bytes. */
  peakRss: number;
  /** What was exceeded when {@link tripped} was set. */
  reason: MemoryReason | undefined;
  /** Whether a check found the bound reached: the search stops at its next look. */
  tripped = false;

  /** Bytes the search holds by its own account ({@link hold}, {@link release}). */
  private held = 0;
  /** The last readings: resident set and this thread's used heap, bytes. */
  private lastRss: number;
  private lastHeap = 0;
  /** Bytes held since the last reading (any, and those on this thread's heap). */
  private sinceRead = 0;
  private heapSinceRead = 0;
  /** When memory was last read (`performance.now()`). */
  private lastRead = -Infinity;

  constructor(readonly bytes: number) {
    this.heapLimit = oldGenerationLimit();
    this.heapStop = this.heapLimit * HEAP_STOP_FRACTION;
    this.baseline = process.memoryUsage.rss();
    this.lastRss = this.peakRss = this.baseline;
    this.read(performance.now());
  }

  /** Bytes the search holds by its own account. */
  get heldBytes(): number {
    return this.held;
  }

  /**
   * Whether the process is over the bound or this thread's heap near V8's limit. Memory is read
   * at most once per {@link READ_INTERVAL_MS} (and at every {@link READ_STEP} bytes held); in
   * between, the last readings and the bytes held since answer.
   */
  exceeded(): boolean {
    if (this.tripped) return true;
    const now = performance.now();
    if (now - this.lastRead >= READ_INTERVAL_MS) this.read(now);
    return this.over(0, 0);
  }

  /**
   * Accounts `n` bytes the search now holds (`heap`: on this thread's JavaScript heap; typed
   * arrays' contents are not); whether the bound is reached (then {@link tripped} is set).
   */
  hold(n: number, heap: boolean): boolean {
    this.held += n;
    this.sinceRead += n;
    if (heap) this.heapSinceRead += n;
    if (this.sinceRead >= READ_STEP) this.read(performance.now());
    return this.over(0, 0);
  }

  /** Accounts `n` bytes the search no longer holds (they are freed at the next collection). */
  release(n: number): void {
    this.held -= n;
  }

  /** Whether `n` more bytes (an array about to be allocated) fit under the bound; trips it when not. */
  fits(n: number, heap: boolean): boolean {
    return !this.over(n, heap ? n : 0);
  }

  /**
   * Bytes that may still be held before the bound (`heap`: on this thread's heap, whose limit
   * counts too), by the estimates {@link over} checks; nothing is tripped.
   */
  room(heap: boolean): number {
    const left = Math.min(this.bytes - this.lastRss - this.sinceRead, this.bytes - this.baseline - this.held);
    return heap ? Math.min(left, this.heapStop - this.lastHeap - this.heapSinceRead) : left;
  }

  /** Updates the peak only. */
  sample(): void {
    const rss = process.memoryUsage.rss();
    if (rss > this.peakRss) this.peakRss = rss;
  }

  private read(now: number): void {
    this.lastRead = now;
    const { rss, heapUsed } = process.memoryUsage();
    if (rss > this.peakRss) this.peakRss = rss;
    this.lastRss = rss;
    this.lastHeap = heapUsed;
    this.sinceRead = 0;
    this.heapSinceRead = 0;
  }

  /**
   * Whether `extra` more bytes (`heapExtra` of them on the heap) would pass a bound: the resident
   * set at the start plus the bytes held, the last reading plus the bytes held since, or the used
   * heap (its young generation included: what survives there is moved to the old one) plus the
   * heap bytes held since against {@link heapStop}.
   */
  private over(extra: number, heapExtra: number): boolean {
    let reason: MemoryReason | undefined;
    if (this.lastHeap + this.heapSinceRead + heapExtra > this.heapStop) reason = 'heap';
    else if (this.lastRss + this.sinceRead + extra > this.bytes) reason = 'rss';
    else if (this.baseline + this.held + extra > this.bytes) reason = 'held';
    if (reason === undefined) return false;
    this.reason = reason;
    this.tripped = true;
    return true;
  }
}
