/**
 * Breadth-first search of a state-vector model (`vectorModel.ts`), SPIN's way: no JavaScript
 * object per state. A BFS level is a flat typed array of slots beside one of fingerprint lanes
 * (ids of a level are consecutive, so none is stored; earlier levels are not kept), a successor is
 * written into one scratch vector and undone after, its Zobrist fingerprint is updated slot by
 * slot as the action writes, and the visited set is a table of 2×32-bit keys. Parent id and
 * candidate ordinal per state are kept exactly as the generic search keeps them, so ids, counts,
 * bounds, decisions and counterexamples (rebuilt by replay through the model) are the generic
 * search's.
 *
 * Used by `check` for breadth-first search on one thread with invariants, reachability goals and
 * deadlock; anything else (depth-first, workers, action properties, observers, collision
 * detection) goes through the generic search, which runs vector models too.
 */
import { FingerprintPairTable } from './fingerprintTable.js';
import type { Model } from './model.js';
import type { CheckOptions } from './options.js';
import type { CheckResult, SearchStats } from './result.js';
import { SearchBase } from './searchCore.js';
import { eachInitialState } from './validateModel.js';
import { NO_OBSERVERS, PropertySet } from './kernel.js';
import { VectorBuilder, vectorFingerprint, vectorSpecOf, type CompiledVectorSpec, type VectorState } from './vectorModel.js';

/**
 * The compiled spec when `check(model, options)` can run the state-vector search, else
 * `undefined` (not a vector model, or something only the generic search does was asked for).
 */
export function vectorSearchFor<S>(model: Model<S>, options: CheckOptions): CompiledVectorSpec | undefined {
  const compiled = vectorSpecOf(model);
  if (compiled === undefined || options.engine === 'generic') return undefined;
  if ((options.workers ?? 1) > 1 || (options.strategy ?? 'bfs') !== 'bfs' || options.detectCollisions || options.visitor) return undefined;
  const props = new PropertySet(model, options.properties);
  if (props.actions.length > 0 || props.observers.length > 0) return undefined;
  return compiled;
}

/** What a level stores a slot in: the narrowest array that holds every slot's values. */
type SlotArray = Uint8Array | Uint16Array | Int32Array;

/**
 * One BFS level's states: `width` slots each in `data` (bytes when every slot holds at most 256
 * values, which on TwoPhase n=8 takes 5% less time and 60 MB less memory than Int32), and the
 * two fingerprint lanes each in `fps`.
 */
class LevelArena {
  data: SlotArray;
  fps: Int32Array;
  count = 0;

  constructor(
    private readonly width: number,
    private readonly make: (length: number) => SlotArray,
  ) {
    this.data = make(width * 1024);
    this.fps = new Int32Array(2 * 1024);
  }

  /** Bytes of the arrays. */
  get bytes(): number {
    return this.data.byteLength + this.fps.byteLength;
  }

  /** Bytes the next push allocates (both arrays doubled when full), or 0. */
  get growthBytes(): number {
    return (this.count + 1) * this.width > this.data.length ? 2 * this.bytes : 0;
  }

  push(v: Int32Array, lo: number, hi: number): void {
    const width = this.width;
    let at = this.count * width;
    if (at + width > this.data.length) {
      const grown = this.make(this.data.length * 2);
      grown.set(this.data);
      this.data = grown;
      const fps = new Int32Array(this.fps.length * 2);
      fps.set(this.fps);
      this.fps = fps;
    }
    const data = this.data;
    for (let i = 0; i < width; i++) data[at++] = v[i];
    this.fps[2 * this.count] = lo;
    this.fps[2 * this.count + 1] = hi;
    this.count++;
  }
}

/** The state-vector search; bookkeeping, decisions and results are {@link SearchBase}'s. */
export class VectorSearch extends SearchBase<VectorState, Int32Array> {
  protected readonly engine: SearchStats['engine'] = 'state-vector';
  private readonly checksStates: boolean;
  /** The fingerprint lanes of the state being stored. */
  private readonly fp = new Int32Array(2);
  /** Writes successors into {@link dst}, which holds a copy of {@link src} between steps. */
  private readonly builder: VectorBuilder;
  /** The state being expanded, as actions read it. */
  private readonly src: Int32Array;
  /** The successor being written (a copy of `src` again after each step). */
  private readonly dst: Int32Array;

  constructor(
    model: Model<VectorState>,
    options: CheckOptions,
    private readonly compiled: CompiledVectorSpec,
  ) {
    super(model, options, new FingerprintPairTable());
    this.checksStates = this.props.stateProperties.length > 0;
    this.builder = new VectorBuilder(compiled);
    this.src = new Int32Array(compiled.width);
    this.dst = new Int32Array(compiled.width);
  }

  run(): CheckResult<VectorState> {
    this.bfsVectors(eachInitialState(this.model));
    return this.result();
  }

  /**
   * Stores the state `v` whose fingerprint is in {@link fp} (`admit`), checking it when new. A
   * level's arrays grow only when the memory guard says the new ones fit beside the old; else the
   * search stops at the memory bound.
   */
  private storeVector(v: VectorState, parent: number, ordinal: number, atDepthLimit: boolean, next: LevelArena): void {
    const fp = this.fp;
    const id = this.admit(fp, parent, ordinal, atDepthLimit);
    if (id < 0) return;
    if (this.checksStates) this.checkState(v, NO_OBSERVERS, id);
    const growth = next.growthBytes;
    if (growth > 0 && !this.budget.memory.fits(growth, false)) {
      this.stop(this.budget.memoryStop());
      return;
    }
    const before = next.bytes;
    next.push(v, fp[0], fp[1]);
    if (growth > 0) this.hold(next.bytes - before, false);
  }

  private bfsVectors(roots: Iterable<VectorState>): void {
    const c = this.compiled;
    const width = c.width;
    let largest = 0;
    for (let i = 0; i < width; i++) largest = Math.max(largest, c.sizes[i]);
    const make = largest <= 0x100 ? (n: number) => new Uint8Array(n) : largest <= 0x10000 ? (n: number) => new Uint16Array(n) : (n: number) => new Int32Array(n);
    let level = new LevelArena(width, make);
    let next = new LevelArena(width, make);
    this.hold(level.bytes + next.bytes, false);
    const maxDepth = this.options.maxDepth ?? Infinity;

    // Each initial vector is taken as it is stored (none past a bound), straight into the arena.
    let i = 0;
    if (!this.halted) {
      for (const root of roots) {
        this.generated++;
        vectorFingerprint(c, root, this.fp);
        this.storeVector(root, -1, i++, false, next);
        if (this.halted) break;
      }
    }
    this.builder.attach(this.dst);
    while (next.count > 0 && !this.halted) {
      [level, next] = [next, level];
      next.count = 0;
      this.depth++;
      const atDepthLimit = this.depth >= maxDepth;
      const firstId = this.states.size - level.count;
      for (let k = 0; k < level.count && !this.halted; k++) {
        this.tick(level.count - k + next.count);
        this.expandVector(level, k, firstId + k, atDepthLimit, next);
      }
    }
  }

  /**
   * Generates the successors of state `k` of `level` (id `id`) in candidate order; the new ones
   * go to `next`. A method of its own (not a loop body) so that V8 optimises it as a whole.
   */
  private expandVector(level: LevelArena, k: number, id: number, atDepthLimit: boolean, next: LevelArena): void {
    const width = this.compiled.width;
    const actions = this.compiled.actions;
    const builder = this.builder;
    const src = this.src;
    const dst = this.dst;
    const fp = this.fp;
    const data = level.data;
    const base = k * width;
    for (let i = 0; i < width; i++) src[i] = dst[i] = data[base + i];
    const lo0 = level.fps[2 * k];
    const hi0 = level.fps[2 * k + 1];
    let ordinal = 0;
    let produced = 0;
    for (let a = 0; a < actions.length; a++) {
      const ca = actions[a];
      const def = ca.def;
      const list = ca.list ?? (ca.paramsOf as NonNullable<typeof ca.paramsOf>)(src);
      if (def.guard !== undefined && !def.guard(src)) {
        ordinal += list.length;
        continue;
      }
      for (let j = 0; j < list.length; j++) {
        const o = ordinal++;
        const p = list[j];
        if (def.enabled !== undefined && !def.enabled(src, p)) continue;
        if (def.apply(src, builder, p) === false) {
          builder.undo(src);
          continue;
        }
        produced++;
        this.generated++;
        // A step that changes no slot is a self-loop: counted as generated, never looked up.
        if (builder.count !== 0) {
          fp[0] = lo0 ^ builder.lo;
          fp[1] = hi0 ^ builder.hi;
          this.storeVector(dst, id, o, atDepthLimit, next);
          builder.undo(src);
        }
        if (this.halted) return;
      }
    }
    if (produced === 0 && this.props.checkDeadlock && !this.found.has('deadlock')) this.decide('deadlock', { id, ordinal: -1 });
  }
}
