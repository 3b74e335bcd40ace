/**
 * What the coordinator and the workers of a distributed search say to each other, and what both
 * compute the same way: which worker owns a fingerprint, and how a level's ranks are dealt.
 *
 * Coordinator to worker (each answered, with the request's `q`):
 *  - `init` (manifest: model, properties, symmetry, memory bound) → `ready`;
 *  - `seed` (the initial states stored, by index, in id order; the holders' rank ranges) → `seeded`;
 *  - `expand` a level → `expanded` (its counts, first action-property violations, first deadlock,
 *    the holder's number of winning successors, the owner's least unseen key at the depth bound);
 *  - `commit` the level's ranks → `committed` (state-property decisions on the new states, the key
 *    of the state the states bound falls on); the shares are evened out here;
 *  - `count` up to a halting step → `counted`; `link` of a fingerprint → `linked`; `stop`.
 * Worker to worker: `x` frames of items of one exchange (`rec` successor records to their owner,
 * `win` winner notices to their holder, `mov` states moved to even out shares), acknowledged by
 * `a` (the sender's credits), and one `e` per exchange and peer with the number of items sent.
 */

/** Virtual shards: the top 12 bits of a fingerprint. A shard belongs to worker `shard mod n`. */
export const SHARD_BITS = 12;

const FP = new BigUint64Array(1);
const FP32 = new Uint32Array(FP.buffer);

/** The two 32-bit halves of a fingerprint (low first), written to `out` at `at`. */
export function splitFingerprint(fp: bigint, out: Uint32Array, at: number): void {
  FP[0] = fp;
  out[at] = FP32[0];
  out[at + 1] = FP32[1];
}

/** The fingerprint of two 32-bit halves. */
export function joinFingerprint(lo: number, hi: number): bigint {
  FP32[0] = lo;
  FP32[1] = hi;
  return FP[0];
}

/** The worker owning a fingerprint, of `n`. */
export function ownerOf(fp: bigint, n: number): number {
  FP[0] = fp;
  return (FP32[1] >>> (32 - SHARD_BITS)) % n;
}

/** A fingerprint as text (JSON has no 64-bit integers). */
export function fpText(fp: bigint): string {
  return fp.toString(16);
}

export function fpOfText(text: string): bigint {
  return BigInt(`0x${text}`);
}

/** (parent id, candidate ordinal): the order one thread generates a level's successors in. */
export type StepKey = readonly [parent: number, ordinal: number];

export function compareKeys(a: StepKey, b: StepKey): number {
  return a[0] - b[0] || a[1] - b[1];
}

/**
 * The first rank of each worker's share when `total` ranks are dealt evenly in order (and
 * `total` at the end): worker w holds ranks [at[w], at[w+1]).
 */
export function evenRanges(total: number, n: number): number[] {
  return Array.from({ length: n + 1 }, (_, w) => Math.floor((w * total) / n));
}

/**
 * The ranges to even the shares out to, or undefined when the largest share exceeds the mean by
 * at most 10 % (and 8 states): shares stay contiguous ranges of ranks in worker order, so the
 * next level's ranks are a prefix sum of the workers' counts.
 */
export function rebalancedRanges(counts: readonly number[]): number[] | undefined {
  const total = counts.reduce((a, b) => a + b, 0);
  const mean = total / counts.length;
  if (Math.max(...counts) - mean <= Math.max(8, mean * 0.1)) return undefined;
  return evenRanges(total, counts.length);
}

/** The worker whose range of `ranges` holds `rank`. */
export function holderOf(rank: number, ranges: readonly number[]): number {
  let lo = 0;
  let hi = ranges.length - 2;
  while (lo < hi) {
    const mid = (lo + hi + 1) >>> 1;
    if (ranges[mid] <= rank) lo = mid;
    else hi = mid - 1;
  }
  return lo;
}

/** Record layout of a `rec` item (32 bytes): fingerprint, parent's fingerprint, parent id, ordinal, holder's index. */
export const REC_WORDS = 8;
