/**
 * A worker of the distributed breadth-first search (see `coordinator.ts` for the level protocol).
 * It is three things at once:
 *  - a holder: its share of the frontier (a contiguous range of ids), expanded in id order, each
 *    successor kept where it was generated until its owner says whether it won;
 *  - an owner: the visited set and parent links of the fingerprints of its shards; for each
 *    fingerprint not seen before it keeps the least (parent id, ordinal) over every record sent
 *    to it, the copy one thread would have found first, and tells that copy's holder;
 *  - a peer: records go in batches with credits (at most {@link CREDITS} unacknowledged frames
 *    per peer), and every exchange ends with the number of items sent to each peer, which the
 *    receiver checks: a lost or duplicated batch is a coded error (KC012), never a count.
 */
import { deserialize, serialize } from 'node:v8';
import { CheckerErrorCode, KubecheckError } from '../errors.js';
import type { Fingerprint } from '../fingerprint.js';
import { FingerprintTable } from '../fingerprintTable.js';
import { GrowableInt32Array } from '../growableArray.js';
import { Budget, fingerprintWithObservers, keyFunction, NO_OBSERVERS, PropertySet, stepObservers } from '../kernel.js';
import type { Model } from '../model.js';
import type { BoundReached } from '../result.js';
import { StateBytes } from '../stateBytes.js';
import { forEachSuccessor, labelOf } from '../successors.js';
import { eachInitialState } from '../validateModel.js';
import { compareKeys, fpOfText, fpText, holderOf, joinFingerprint, ownerOf, REC_WORDS, splitFingerprint, type StepKey } from './protocol.js';
import { Endpoint, type FrameHeader } from './transport.js';

/** Records (or notices) per frame. */
export const BATCH = 4096;
/** Unacknowledged frames a worker may have out to one peer. */
export const CREDITS = 8;
/** The longest a worker computes without letting its event loop run (heartbeats, frames), ms. */
const YIELD_MS = 200;
/** States per frame when shares are evened out. */
const MOVE_BATCH = 256;

/** This process's CPU time so far (user and system), seconds. */
function cpuSeconds(): number {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1e6;
}

/** A state of the holder's share: its observers' values, fingerprint and id. */
interface Item {
  readonly state: unknown;
  readonly observed: readonly unknown[];
  readonly fp: bigint;
  readonly id: number;
}

/** What the coordinator sends first: the search's settings. */
export interface InitHeader extends FrameHeader {
  readonly t: 'init';
  readonly workers: number;
  readonly modelName: string;
  readonly actionCount: number;
  readonly properties?: readonly string[];
  readonly symmetry: boolean;
  readonly maxMemoryBytes?: number;
  readonly maxMemoryMB?: number;
}

/** One exchange (a phase of a level): items and end markers from each peer. */
class Exchange {
  readonly received: number[];
  readonly ends: (number | undefined)[];
  private wake: (() => void) | undefined;

  constructor(
    n: number,
    private readonly self: number,
    readonly name: string,
  ) {
    this.received = new Array<number>(n).fill(0);
    this.ends = new Array<number | undefined>(n).fill(undefined);
  }

  /** Counts `n` items from `from`; throws KC012 when more came than its end said. */
  items(from: number, n: number): void {
    this.received[from] += n;
    this.check(from, false);
  }

  end(from: number, n: number, ordered: boolean): void {
    this.ends[from] = n;
    this.check(from, ordered);
  }

  private check(from: number, ordered: boolean): void {
    const end = this.ends[from];
    const got = this.received[from];
    if (end !== undefined && (got > end || (ordered && got < end))) {
      throw new KubecheckError(CheckerErrorCode.recordsLost, `${this.name}: worker ${from} sent ${end} items to worker ${this.self}, ${got} arrived; the search is abandoned rather than miscounted`);
    }
    if (this.complete()) this.wake?.();
  }

  complete(): boolean {
    for (let p = 0; p < this.ends.length; p++) if (p !== this.self && this.ends[p] !== this.received[p]) return false;
    return true;
  }

  done(): Promise<void> {
    return this.complete() ? Promise.resolve() : new Promise((resolve) => (this.wake = resolve));
  }
}

/** A level's owner side: the candidates (fingerprints unseen before the level) and their best copy. */
class Candidates {
  readonly table = new FingerprintTable(10);
  readonly parents: number[] = [];
  readonly ordinals: number[] = [];
  readonly holders: number[] = [];
  readonly indices: number[] = [];
  readonly parentLo: number[] = [];
  readonly parentHi: number[] = [];
  readonly fps: bigint[] = [];

  offer(fp: bigint, parent: number, ordinal: number, holder: number, index: number, plo: number, phi: number): void {
    const c = this.table.get(fp as Fingerprint);
    if (c < 0) {
      this.table.add(fp as Fingerprint);
      this.parents.push(parent);
      this.ordinals.push(ordinal);
      this.holders.push(holder);
      this.indices.push(index);
      this.parentLo.push(plo);
      this.parentHi.push(phi);
      this.fps.push(fp);
    } else if (parent < this.parents[c] || (parent === this.parents[c] && ordinal < this.ordinals[c])) {
      this.parents[c] = parent;
      this.ordinals[c] = ordinal;
      this.holders[c] = holder;
      this.indices[c] = index;
      this.parentLo[c] = plo;
      this.parentHi[c] = phi;
    }
  }
}

/** What a worker keeps of one level while it is under way. */
class Level {
  readonly candidates = new Candidates();
  /** Holder side: indices of this worker's successors that won. */
  readonly won: number[] = [];
  readonly exchanges = new Map<string, Exchange>();
  /** States moved here to even out the shares. */
  readonly moved: Item[] = [];
}

export interface WorkerOptions {
  /** The model, when the worker runs in the coordinator's process; else `build` makes it from the manifest. */
  readonly model?: Model<unknown>;
  readonly build?: (init: InitHeader) => Promise<Model<unknown>>;
}

export class DistributedWorker {
  private readonly endpoint: Endpoint;
  private n = 0;
  private coordinator = 0;
  private model!: Model<unknown>;
  private props!: PropertySet<unknown>;
  private key!: (state: unknown) => unknown;
  private init!: InitHeader;

  /** Owner side: fingerprints of the owned shards, with their parent links by local index. */
  private readonly visited = new FingerprintTable();
  private readonly linkLo = new GrowableInt32Array();
  private readonly linkHi = new GrowableInt32Array();
  private readonly linkOrdinal = new GrowableInt32Array();

  /** Holder side: the share of the frontier, in id order. */
  private held: Item[] = [];
  /** The last level expanded: its states, their numbers of successors, and the winners' keys in rank order. */
  private expanded: { items: Item[]; counts: Int32Array } = { items: [], counts: new Int32Array(0) };
  private winnerKeys: { parents: number[]; ordinals: number[] } = { parents: [], ordinals: [] };
  /** Successors of the level being expanded, by index: state, observed values, key and fingerprint. */
  private pending: { states: unknown[]; observed: (readonly unknown[])[]; parents: number[]; ordinals: number[]; fps: bigint[] } = { states: [], observed: [], parents: [], ordinals: [], fps: [] };

  /** What a successor kept here costs in memory (`stateBytes.ts`), held on the level's memory guard. */
  private readonly stateBytes = new StateBytes();

  private readonly levels = new Map<number, Level>();
  private readonly outstanding = new Map<number, Set<number>>();
  private readonly creditWaiters = new Map<number, () => void>();
  private finished!: () => void;
  private failed!: (e: Error) => void;
  /** Requests are served one at a time, in the order they came. */
  private queue: Promise<void> = Promise.resolve();

  constructor(
    transport: import('./transport.js').Transport,
    private readonly options: WorkerOptions,
  ) {
    this.endpoint = new Endpoint(transport);
  }

  get self(): number {
    return this.endpoint.self;
  }

  /** Serves the coordinator until it says stop; rejects on a transport fault. */
  serve(): Promise<void> {
    return new Promise<void>((resolve, reject) => {
      this.finished = resolve;
      this.failed = reject;
      this.endpoint.listen(
        (from, header, body) => {
          try {
            this.take(from, header, body);
          } catch (e) {
            this.report(e);
          }
        },
        (error) => reject(error),
      );
    });
  }

  private report(e: unknown): void {
    const err = e as Error;
    const code = e instanceof KubecheckError ? e.code : CheckerErrorCode.workerFailed;
    const message = e instanceof KubecheckError ? err.message.replace(/^KC\d+: /, '') : String(err?.message ?? e);
    if (this.n === 0) {
      this.failed(e instanceof Error ? e : new Error(message));
      return;
    }
    this.endpoint.send(this.coordinator, { t: 'error', code, message, ...(process.env.KUBECHECK_DEBUG === '1' ? { stack: err?.stack } : {}) });
  }

  private take(from: number, h: FrameHeader, body: Uint8Array): void {
    switch (h.t) {
      case 'x':
        this.items(from, h, body);
        return;
      case 'e':
        this.exchange(h.lv as number, h.ph as string).end(from, h.n as number, this.endpoint.transport.ordered);
        return;
      case 'a':
        this.acknowledged(from, h.ack as number);
        return;
      case 'stop':
        this.finished();
        return;
      default:
        // Requests of the coordinator, one after the other.
        this.queue = this.queue.then(() => this.request(from, h)).catch((e) => this.report(e));
    }
  }

  private async request(from: number, h: FrameHeader): Promise<void> {
    const reply = (r: Record<string, unknown>): void => {
      this.endpoint.send(from, { ...r, q: h.q } as unknown as FrameHeader);
    };
    switch (h.t) {
      case 'init':
        this.coordinator = from;
        reply({ t: 'ready', ...(await this.start(h as InitHeader)) });
        return;
      case 'seed':
        this.seed(h.roots as number[], h.ranges as number[]);
        reply({ t: 'seeded' });
        return;
      case 'expand':
        reply({ t: 'expanded', ...(await this.expand(h.lv as number, h.dl as boolean, h.decided as string[], h.timeLeft as number | null)) });
        return;
      case 'commit':
        reply({ t: 'committed', ...(await this.commit(h)) });
        return;
      case 'count':
        reply({ t: 'counted', ...this.count(h.parent as number, h.ordinal as number, h.limit as number, (h.offsets as number[])[this.self]) });
        return;
      case 'link':
        reply({ t: 'linked', ...this.link(fpOfText(h.fp as string)) });
        return;
      default:
        throw new KubecheckError(CheckerErrorCode.workerFailed, `unknown request ${JSON.stringify(h.t)}`);
    }
  }

  // ---- setting up ----------------------------------------------------------------------------

  private async start(init: InitHeader): Promise<Record<string, unknown>> {
    this.init = init;
    this.n = init.workers;
    const model = this.options.model ?? (await (this.options.build as NonNullable<WorkerOptions['build']>)(init));
    if (model.name !== init.modelName || model.actions.length !== init.actionCount) {
      throw new KubecheckError(CheckerErrorCode.manifestMismatch, `worker ${this.self} built model ${JSON.stringify(model.name)} with ${model.actions.length} actions, not the model checked (${JSON.stringify(init.modelName)} with ${init.actionCount} actions)`);
    }
    this.model = model;
    this.props = new PropertySet(model, init.properties);
    this.key = keyFunction(model, init.symmetry && model.canonicalize !== undefined);
    return {};
  }

  /** The initial states stored (indices, in id order): owners record theirs, holders keep their range. */
  private seed(roots: readonly number[], ranges: readonly number[]): void {
    const observers = this.props.observers;
    this.held = [];
    // `roots` rise: one walk over the initial states, taking each as it comes, finds them all.
    let id = 0;
    let index = 0;
    if (roots.length > 0) {
      for (const state of eachInitialState(this.model)) {
        if (index++ !== roots[id]) continue;
        const observed = observers.length ? observers.map((ob) => ob.initial(state)) : NO_OBSERVERS;
        const fp = fingerprintWithObservers(this.key(state), observers, observed);
        if (ownerOf(fp, this.n) === this.self) this.insert(fp, 0, 0, roots[id]);
        if (id >= ranges[this.self] && id < ranges[this.self + 1]) this.held.push({ state, observed, fp, id });
        if (++id === roots.length) break;
      }
    }
    if (id < roots.length) throw new KubecheckError(CheckerErrorCode.manifestMismatch, `worker ${this.self} built a model with ${index} initial states; the coordinator stored initial state ${roots[id]}`);
  }

  private insert(fp: bigint, plo: number, phi: number, ordinal: number): void {
    if (!this.visited.add(fp as Fingerprint)) return;
    this.linkLo.push(plo);
    this.linkHi.push(phi);
    this.linkOrdinal.push(ordinal);
  }

  // ---- exchanges -----------------------------------------------------------------------------

  private level(lv: number): Level {
    let l = this.levels.get(lv);
    if (l === undefined) this.levels.set(lv, (l = new Level()));
    return l;
  }

  private exchange(lv: number, ph: string): Exchange {
    const l = this.level(lv);
    let x = l.exchanges.get(ph);
    if (x === undefined) l.exchanges.set(ph, (x = new Exchange(this.n, this.self, `level ${lv}, ${ph === 'rec' ? 'successor records' : ph === 'win' ? 'winner notices' : 'states moved'}`)));
    return x;
  }

  /** Sends a frame of items to a peer, waiting first for a credit. */
  private async sendItems(to: number, lv: number, ph: string, n: number, body: Uint8Array, rs?: number): Promise<void> {
    let out = this.outstanding.get(to);
    if (out === undefined) this.outstanding.set(to, (out = new Set()));
    while (out.size >= CREDITS) await new Promise<void>((resolve) => this.creditWaiters.set(to, resolve));
    const s = this.endpoint.send(to, { t: 'x', lv, ph, n, ...(rs === undefined ? {} : { rs }) }, body);
    out.add(s);
  }

  private acknowledged(from: number, s: number): void {
    this.outstanding.get(from)?.delete(s);
    const wake = this.creditWaiters.get(from);
    if (wake !== undefined) {
      this.creditWaiters.delete(from);
      wake();
    }
  }

  private endExchange(lv: number, ph: string, sent: readonly number[]): void {
    for (let p = 0; p < this.n; p++) if (p !== this.self) this.endpoint.send(p, { t: 'e', lv, ph, n: sent[p] });
  }

  private items(from: number, h: FrameHeader, body: Uint8Array): void {
    const lv = h.lv as number;
    const n = h.n as number;
    const ph = h.ph as string;
    this.endpoint.send(from, { t: 'a', ack: h.s as number });
    if (ph === 'rec') {
      const words = new Uint32Array(body.buffer, body.byteOffset, n * REC_WORDS);
      const cands = this.level(lv).candidates;
      for (let i = 0; i < n; i++) {
        const w = i * REC_WORDS;
        const fp = joinFingerprint(words[w], words[w + 1]);
        if (!this.visited.has(fp as Fingerprint)) cands.offer(fp, words[w + 4], words[w + 5], from, words[w + 6], words[w + 2], words[w + 3]);
      }
    } else if (ph === 'win') {
      const won = this.level(lv).won;
      const idx = new Uint32Array(body.buffer, body.byteOffset, n);
      for (let i = 0; i < n; i++) won.push(idx[i]);
    } else {
      const moved = this.level(lv).moved;
      for (const [id, lo, hi, state, observed] of deserialize(body) as [number, number, number, unknown, unknown[]][]) {
        moved.push({ state, observed: this.props.observers.length === 0 ? NO_OBSERVERS : observed, fp: joinFingerprint(lo, hi), id });
      }
    }
    this.exchange(lv, ph).items(from, n);
  }

  // ---- one level -----------------------------------------------------------------------------

  /** Expands the share, sends each successor's record to its owner, then settles the level's winners. */
  private async expand(lv: number, atDepthLimit: boolean, decidedList: readonly string[], timeLeft: number | null): Promise<Record<string, unknown>> {
    const n = this.n;
    const self = this.self;
    const decided = new Set(decidedList);
    const level = this.level(lv);
    const cands = level.candidates;
    const budget = new Budget({ ...(timeLeft === null ? {} : { timeLimitSeconds: Math.max(timeLeft, 1e-9) }), maxMemoryBytes: this.init.maxMemoryBytes, maxMemoryMB: this.init.maxMemoryMB });
    const items = this.held;
    const counts = new Int32Array(items.length);
    const pending: typeof this.pending = { states: [], observed: [], parents: [], ordinals: [], fps: [] };
    const batches = Array.from({ length: n }, () => new Uint32Array(BATCH * REC_WORDS + 64 * REC_WORDS));
    const fill = new Array<number>(n).fill(0);
    const sent = new Array<number>(n).fill(0);
    const flush = async (p: number): Promise<void> => {
      const k = fill[p];
      if (k === 0) return;
      const body = new Uint8Array(batches[p].buffer, 0, k * REC_WORDS * 4).slice();
      fill[p] = 0;
      sent[p] += k;
      await this.sendItems(p, lv, 'rec', k, body, REC_WORDS * 4);
    };
    const seen = new FingerprintTable(12);
    const aps = this.props.actions;
    const actions: (readonly [number, number, string] | null)[] = aps.map(() => null);
    const open = aps.map((ap) => !decided.has(ap.id));
    const watchDeadlock = this.props.checkDeadlock && !decided.has('deadlock');
    let deadlock: readonly [number, string] | null = null;
    const observers = this.props.observers;
    const watchSteps = aps.length > 0 || observers.length > 0;
    const parentFp = new Uint32Array(2);
    let stopped: BoundReached | undefined;
    let generated = 0;
    let done = 0;
    let yielded = performance.now();
    for (let i = 0; i < items.length; i++) {
      // The event loop gets a turn now and then, so heartbeats and acknowledgements go out
      // during a wide level (a worker that never yields would be taken for dead).
      if ((i & 255) === 255 && performance.now() - yielded > YIELD_MS) {
        await new Promise<void>((resolve) => setImmediate(resolve));
        yielded = performance.now();
      }
      stopped = budget.expansion(0, 0, 0, 0);
      if (stopped) break;
      const { state, observed, id, fp: pfp } = items[i];
      splitFingerprint(pfp, parentFp, 0);
      const produced = forEachSuccessor(this.model, state, (next, ordinal, def, param) => {
        let nextObserved = NO_OBSERVERS;
        if (watchSteps) {
          const label = labelOf(def, param);
          for (let j = 0; j < aps.length; j++) {
            if (open[j] && actions[j] === null && !aps[j].holds(state, label, next)) actions[j] = [id, ordinal, fpText(pfp)];
          }
          if (observers.length) nextObserved = stepObservers(observers, observed, state, label, next);
        }
        if (next === state && nextObserved === observed) return; // a self-loop: generated, never stored
        const fp = fingerprintWithObservers(this.key(next), observers, nextObserved);
        // Only a fingerprint's first record here can win: later ones come after it in (parent, ordinal) order.
        if (!seen.add(fp)) return;
        const index = pending.fps.length;
        pending.states.push(atDepthLimit ? null : next);
        // The successors kept this level are held on its guard: a burst of large ones stops the
        // expansion at the next state (`Budget.expansion`), not at the next reading.
        if (!atDepthLimit) budget.memory.hold(this.stateBytes.estimate(next, state, budget.memory) + (nextObserved === observed ? 0 : this.stateBytes.added(nextObserved, observed)), true);
        pending.observed.push(nextObserved);
        pending.parents.push(id);
        pending.ordinals.push(ordinal);
        pending.fps.push(fp);
        const owner = ownerOf(fp, n);
        if (owner === self) {
          if (!this.visited.has(fp)) cands.offer(fp, id, ordinal, self, index, parentFp[0], parentFp[1]);
          return;
        }
        const b = batches[owner];
        const w = fill[owner]++ * REC_WORDS;
        splitFingerprint(fp, b, w);
        b[w + 2] = parentFp[0];
        b[w + 3] = parentFp[1];
        b[w + 4] = id;
        b[w + 5] = ordinal;
        b[w + 6] = index;
      });
      counts[i] = produced;
      generated += produced;
      done++;
      if (produced === 0 && watchDeadlock && deadlock === null) deadlock = [id, fpText(pfp)];
      for (let p = 0; p < n; p++) if (fill[p] >= BATCH) await flush(p);
    }
    stopped ??= budget.overMemory();
    for (let p = 0; p < n; p++) if (p !== self) await flush(p);
    this.endExchange(lv, 'rec', sent);
    this.pending = pending;
    this.expanded = { items: items.slice(0, done), counts: counts.slice(0, done) };

    // Owner: every record of the level is in; the least copy of each unseen fingerprint wins.
    await this.exchange(lv, 'rec').done();
    let depthKey: StepKey | null = null;
    const notices: number[][] = Array.from({ length: n }, () => []);
    for (let c = 0; c < cands.fps.length; c++) {
      const key: StepKey = [cands.parents[c], cands.ordinals[c]];
      if (atDepthLimit) {
        if (depthKey === null || compareKeys(key, depthKey) < 0) depthKey = key;
        continue;
      }
      this.insert(cands.fps[c], cands.parentLo[c], cands.parentHi[c], cands.ordinals[c]);
      notices[cands.holders[c]].push(cands.indices[c]);
    }
    for (const i of notices[self]) level.won.push(i);
    const noticesSent = notices.map((list) => list.length);
    for (let p = 0; p < n; p++) {
      if (p === self) continue;
      for (let k = 0; k < notices[p].length; k += BATCH) {
        const part = Uint32Array.from(notices[p].slice(k, k + BATCH));
        await this.sendItems(p, lv, 'win', part.length, new Uint8Array(part.buffer), 4);
      }
    }
    this.endExchange(lv, 'win', noticesSent);

    // Holder: every notice is in; the winners, in index order, are in (parent, ordinal) order.
    await this.exchange(lv, 'win').done();
    level.won.sort((a, b) => a - b);
    return {
      generated,
      actions,
      deadlock,
      ...(stopped === undefined ? {} : { stopped }),
      winners: level.won.length,
      depthKey,
      bytes: this.visited.bytes + this.linkLo.bytes + this.linkHi.bytes + this.linkOrdinal.bytes,
      cpu: cpuSeconds(),
    };
  }

  /**
   * The level's ranks: this worker's winners are ranks `offsets[self]`.., ids from `base`. Checks
   * the state properties on the new states below the states bound, and evens out the shares.
   */
  private async commit(h: FrameHeader): Promise<Record<string, unknown>> {
    const lv = h.lv as number;
    const base = h.base as number;
    const limit = h.limit as number; // -1: no states bound
    const offsets = h.offsets as number[];
    const ranges = h.ranges as number[] | null;
    const level = this.level(lv);
    const won = level.won;
    const { states, observed, parents, ordinals, fps } = this.pending;
    const stateIds = this.props.stateIds;
    const events: (readonly [number, number, number, string] | null)[] = stateIds.map(() => null);
    const skip = new Set(h.decided as string[]);
    const next: Item[] = [];
    const keys = { parents: [] as number[], ordinals: [] as number[] };
    let boundKey: StepKey | null = null;
    for (let k = 0; k < won.length; k++) {
      const rank = offsets[this.self] + k;
      const i = won[k];
      keys.parents.push(parents[i]);
      keys.ordinals.push(ordinals[i]);
      if (limit >= 0 && rank >= limit) {
        if (rank === limit) boundKey = [parents[i], ordinals[i]];
        continue;
      }
      const item: Item = { state: states[i], observed: observed[i], fp: fps[i], id: base + rank };
      for (let j = this.props.decidedOn(item.state, item.observed, 0, skip); j >= 0; j = this.props.decidedOn(item.state, item.observed, j + 1, skip)) {
        events[j] = [item.id, parents[i], ordinals[i], fpText(item.fp)];
        skip.add(stateIds[j]);
      }
      next.push(item);
    }
    this.winnerKeys = keys;
    this.pending = { states: [], observed: [], parents: [], ordinals: [], fps: [] };
    this.held = ranges === null ? next : await this.even(lv, base, next, ranges);
    this.levels.delete(lv);
    return { stateEvents: events, boundKey };
  }

  /** Sends the held states outside this worker's new range to their holders, and takes its own. */
  private async even(lv: number, base: number, items: Item[], ranges: readonly number[]): Promise<Item[]> {
    const n = this.n;
    const out: [number, number, number, unknown, readonly unknown[]][][] = Array.from({ length: n }, () => []);
    const kept: Item[] = [];
    const words = new Uint32Array(2);
    for (const item of items) {
      const to = holderOf(item.id - base, ranges);
      if (to === this.self) {
        kept.push(item);
        continue;
      }
      splitFingerprint(item.fp, words, 0);
      out[to].push([item.id, words[0], words[1], item.state, this.props.observers.length === 0 ? [] : item.observed]);
    }
    for (let p = 0; p < n; p++) {
      for (let k = 0; k < out[p].length; k += MOVE_BATCH) {
        const part = out[p].slice(k, k + MOVE_BATCH);
        const bytes = serialize(part);
        await this.sendItems(p, lv, 'mov', part.length, new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength));
      }
    }
    this.endExchange(lv, 'mov', out.map((o) => o.length));
    await this.exchange(lv, 'mov').done();
    return [...kept, ...this.level(lv).moved].sort((a, b) => a.id - b.id);
  }

  /**
   * Counts up to the step where one thread halts: the successors this worker generated out of
   * states before `parent` (and out of `parent` up to `ordinal`), and its new states up to that
   * step and below the states bound.
   */
  private count(parent: number, ordinal: number, limit: number, offset: number): Record<string, unknown> {
    const { items, counts } = this.expanded;
    let generated = 0;
    for (let i = 0; i < items.length && items[i].id <= parent; i++) {
      if (items[i].id < parent) generated += counts[i];
      else if (ordinal >= 0) {
        forEachSuccessor(this.model, items[i].state, (_next, o) => {
          if (o <= ordinal) generated++;
          return o >= ordinal;
        });
      }
    }
    const { parents, ordinals } = this.winnerKeys;
    let distinct = 0;
    for (let k = 0; k < parents.length; k++) {
      if (limit >= 0 && offset + k >= limit) break;
      if (compareKeys([parents[k], ordinals[k]], [parent, ordinal]) > 0) break;
      distinct++;
    }
    return { generated, distinct };
  }

  /** The parent link of an owned fingerprint. */
  private link(fp: bigint): Record<string, unknown> {
    const i = this.visited.get(fp as Fingerprint);
    if (i < 0) throw new KubecheckError(CheckerErrorCode.workerFailed, `worker ${this.self} owns no state with fingerprint ${fpText(fp)}`);
    return { parent: fpText(joinFingerprint(this.linkLo.at(i), this.linkHi.at(i))), ordinal: this.linkOrdinal.at(i) };
  }
}
