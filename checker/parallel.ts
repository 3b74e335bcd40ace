/**
 * Breadth-first search on worker threads, level by level, with the results of the one-thread
 * search: the same counts, verdicts and counterexamples.
 *
 * Levels narrower than `parallelLevel()` (1024 states) are searched on the calling thread, as
 * one thread does; the first wider level is dealt out to the workers (its states cloned to them
 * once), and the workers go on from there. The main thread keeps the visited table and the parent
 * links; each worker keeps its share of the frontier (states never travel again, except to even
 * out shares). One step per level:
 *
 *  1. every worker expands its share in id order and returns one record per successor (parent
 *     id, candidate ordinal, fingerprint), plus the first record violating each action property;
 *  2. the main thread merges the records by (parent id, ordinal), which is exactly the order in
 *     which the one-thread search generates them, and inserts the fingerprints in that order: a
 *     state found by several workers gets the id, parent and ordinal the one-thread search gives
 *     it, and ids stay in discovery order;
 *  3. each worker keeps its new states (dropping the copies that lost), checks the state
 *     properties on them (reporting the least id per property), and the shares are evened out;
 *  4. the main thread orders the level's decisions by (parent id, ordinal) and applies them as
 *     the one-thread search would, stopping (halting, the states bound) at the same step and
 *     counting states generated and stored up to that step only.
 *
 * `check` stays synchronous: the main thread waits on a shared counter (`Atomics.wait`) and reads
 * replies with `receiveMessageOnPort`.
 */
import { MessageChannel, receiveMessageOnPort, Worker, type MessagePort } from 'node:worker_threads';
import { CheckerErrorCode, fail, KubecheckError } from './errors.js';
import type { Fingerprint } from './fingerprint.js';
import type { Model } from './model.js';
import type { CheckOptions, ModelFactory } from './options.js';
import { postAndWake, type InitMessage, type MainMessage, type SeedItem, type StepMessage, type StepReply, type WorkerData, type WorkerMessage } from './parallelProtocol.js';
import type { CheckResult, SearchStats } from './result.js';
import { BEYOND_DEPTH, BEYOND_MEMORY, BEYOND_STATES, type Discovery } from './kernel.js';
import { Search, type Frontier } from './searchCore.js';
import { forEachSuccessor } from './successors.js';
import { replayPath } from './trace.js';
import { eachInitialState } from './validateModel.js';

const WORKER_ENTRY = new URL('./parallelWorkerEntry.js', import.meta.url);
/** A worker that has not moved for this long while it owes a reply is taken for dead. */
const WATCHDOG_MS = 120_000;
/** Shares are evened out when the largest exceeds the mean by this fraction (and by 8 states). */
const IMBALANCE = 0.1;

/** One decision of a level, placed in the one-thread search's order by (parent, ordinal, phase). */
export interface LevelEvent {
  readonly parent: number;
  /** Candidate ordinal of the step; for a deadlock, -1 (the state has no step). */
  readonly ordinal: number;
  /** 0: on the step (action property, deadlock); 1: on storing its target (state properties, bounds). */
  readonly phase: 0 | 1;
  readonly kind: 'decide' | 'states' | 'depth';
  readonly property?: string;
  readonly at?: Discovery;
}

/** What the merge of one level's records produced. */
interface Level {
  /** Per worker: indices of its records that are new states, and their ids. */
  readonly newIdx: number[][];
  readonly newIds: number[][];
  /** Merged records, in order: parents and ordinals (for counting up to a step). */
  readonly parents: Int32Array;
  readonly ordinals: Int32Array;
  /** How many records were merged (fewer than all when the states bound stopped the merge). */
  readonly merged: number;
  /** Merged index of each new state, in id order. */
  readonly newPos: number[];
  /** Id of the first new state of the level. */
  readonly base: number;
  readonly events: LevelEvent[];
  readonly statesBound: boolean;
  /** Whether storing a new state would have grown the visited table past the memory bound (the merge stopped there). */
  readonly memoryBound: boolean;
  /** Per worker: the states it expanded and their numbers of successors. */
  readonly expanded: readonly { readonly ids: Int32Array; readonly counts: Int32Array }[];
}

export function compareEvents(a: LevelEvent, b: LevelEvent): number {
  return a.parent - b.parent || a.ordinal - b.ordinal || a.phase - b.phase;
}

/** How many of the indices 0..n-1 satisfy `before`, which holds of a prefix of them (binary search). */
function prefixLength(n: number, before: (i: number) => boolean): number {
  let lo = 0;
  let hi = n;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (before(mid)) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** The transfers that even out shares: from the largest to the smallest, until within the slack. */
export function balancePlan(counts: readonly number[]): { from: number; to: number; count: number }[] {
  const total = counts.reduce((a, b) => a + b, 0);
  const w = counts.length;
  const mean = total / w;
  const slack = Math.max(8, mean * IMBALANCE);
  if (Math.max(...counts) - mean <= slack) return [];
  const target = counts.map((_, i) => Math.floor(total / w) + (i < total % w ? 1 : 0));
  const surplus = counts.map((c, i) => c - target[i]);
  const plan: { from: number; to: number; count: number }[] = [];
  for (let from = 0; from < w; from++) {
    for (let to = 0; to < w && surplus[from] > 0; to++) {
      if (surplus[to] >= 0) continue;
      const count = Math.min(surplus[from], -surplus[to]);
      plan.push({ from, to, count });
      surplus[from] -= count;
      surplus[to] += count;
    }
  }
  return plan;
}

/**
 * A set of workers with their ports. Kept after a search for the next one with as many workers
 * (starting a worker and loading the model's modules costs about half a second); the threads
 * are unref'd, so idle ones never keep the process alive.
 */
interface Group {
  readonly key: string;
  readonly workers: Worker[];
  readonly ports: MessagePort[];
  readonly signal: Int32Array<ArrayBufferLike>;
  readonly heartbeat: Int32Array<ArrayBufferLike>;
  readonly wake: Int32Array<ArrayBufferLike>;
}

/** Posts a message to worker i and wakes it (it waits on its `wake` slot during a search). */
function postTo(group: Group, i: number, message: MainMessage, transfer: ArrayBuffer[] = []): void {
  postAndWake(group.ports[i], group.wake, i, message, transfer);
}

const idle: Group[] = [];

function startGroup(n: number, heapMiB: number): Group {
  const signal = new Int32Array(new SharedArrayBuffer(4));
  const heartbeat = new Int32Array(new SharedArrayBuffer(4 * n));
  const wake = new Int32Array(new SharedArrayBuffer(4 * n));
  const peers: (MessagePort | null)[][] = Array.from({ length: n }, () => new Array<MessagePort | null>(n).fill(null));
  for (let a = 0; a < n; a++) {
    for (let b = a + 1; b < n; b++) {
      const { port1, port2 } = new MessageChannel();
      peers[a][b] = port1;
      peers[b][a] = port2;
    }
  }
  const workers: Worker[] = [];
  const ports: MessagePort[] = [];
  for (let i = 0; i < n; i++) {
    const { port1, port2 } = new MessageChannel();
    const data: WorkerData = { index: i, toMain: port2, peers: peers[i], signal, heartbeat, wake };
    const transfer = [port2, ...peers[i].filter((p): p is MessagePort => p !== null)];
    // A worker's heap may grow to the memory bound; the resident-memory check stops the search first.
    const worker = new Worker(WORKER_ENTRY, { workerData: data, transferList: transfer, resourceLimits: { maxOldGenerationSizeMb: heapMiB } });
    worker.unref();
    // Errors reach the main thread as messages; these events could only fire after `check` returns.
    worker.on('error', () => {});
    workers.push(worker);
    ports.push(port1);
  }
  return { key: `${n}/${heapMiB}`, workers, ports, signal, heartbeat, wake };
}

/**
 * Resident memory a worker adds when it starts, bytes: its isolate, and the checker and the model
 * loaded in it (about 41 MiB measured from sources through tsx, less compiled).
 */
const WORKER_START_BYTES = 48 * 2 ** 20;

/** Whether a group of `n` workers for this bound is idle (started by an earlier search). */
function groupIdle(n: number, heapMiB: number): boolean {
  return idle.some((g) => g.key === `${n}/${heapMiB}`);
}

function acquireGroup(n: number, heapMiB: number): Group {
  const key = `${n}/${heapMiB}`;
  const k = idle.findIndex((g) => g.key === key);
  if (k >= 0) return idle.splice(k, 1)[0];
  // Idle workers of another size or bound are let go: one set at a time.
  for (const g of idle.splice(0)) for (const w of g.workers) void w.terminate();
  return startGroup(n, heapMiB);
}

/**
 * The fewest states a level must hold for the workers to expand it: narrower levels are searched
 * on the calling thread. Below about a thousand states a level's round trip, merge and wait for
 * the slower worker cost more than two threads save (the two-crash node-failure check, whose
 * levels hold at most 652 states, ran at 0.9–1.0× on two workers); five nodes in two zones and
 * node-partition with a force delete have most of their states in wider levels.
 * `KUBECHECK_PARALLEL_LEVEL` sets it (the tests set 1 or a few, to hand over early).
 */
function parallelLevel(): number {
  const n = Number(process.env.KUBECHECK_PARALLEL_LEVEL);
  return Number.isInteger(n) && n >= 1 ? n : 1024;
}

export class ParallelSearch<S> extends Search<S> {
  /** `parallel` once workers take a level; `generic` for a search whose levels all stayed on the calling thread. */
  protected override engine: SearchStats['engine'] = 'parallel';
  private readonly workerCount: number;
  private readonly factory: ModelFactory;
  /** The workers of this search (set by `run` before any message). */
  private group!: Group;
  private readonly actionIds: string[];
  private queued = 0;

  constructor(model: Model<S>, options: CheckOptions) {
    super(model, options);
    this.workerCount = options.workers as number;
    this.factory = options.modelFactory as ModelFactory;
    this.actionIds = this.props.actions.map((p) => p.id);
  }

  /**
   * Levels narrower than `parallelLevel()` states are searched on this thread, as one thread
   * would (a level's round trip and its wait for the slower worker cost more than such a level
   * does); at the first wider one the workers start, each given its share of that level's states,
   * and go on level by level. A search that never meets a wide level starts no worker.
   */
  override run(): CheckResult<S> {
    const threshold = parallelLevel();
    const heapMiB = Math.max(64, Math.ceil(this.budget.memory.bytes / 2 ** 20));
    const frontier = this.bfs(eachInitialState(this.model), (size, bytes) => size >= threshold && this.workersFit(bytes, heapMiB));
    if (frontier === undefined || this.halted) {
      this.engine = 'generic';
      return this.result();
    }
    const group = acquireGroup(this.workerCount, heapMiB);
    this.group = group;
    let healthy = false;
    try {
      this.init();
      this.search(frontier);
      healthy = true;
    } finally {
      if (healthy) {
        for (let i = 0; i < group.ports.length; i++) postTo(group, i, { type: 'reset' });
        idle.push(group);
      } else {
        for (const w of group.workers) void w.terminate();
      }
    }
    return this.result();
  }

  /**
   * Whether the workers can take a level holding `bytes` under the memory bound: those to start
   * ({@link WORKER_START_BYTES} each, none when an idle group is there) and the level's copies on
   * the way to them (serialized, then rebuilt in the workers), beside what this thread holds. A
   * level that cannot is searched on this thread, as narrow ones are.
   */
  private workersFit(bytes: number, heapMiB: number): boolean {
    const start = groupIdle(this.workerCount, heapMiB) ? 0 : this.workerCount * WORKER_START_BYTES;
    return start + 2 * bytes <= this.budget.memory.room(false);
  }

  // ---- workers ------------------------------------------------------------------------------

  private init(): void {
    const { timeLimitSeconds, maxMemoryBytes, maxMemoryMB } = this.options;
    const init: InitMessage = {
      type: 'init',
      factory: this.factory,
      modelName: this.model.name,
      actionCount: this.model.actions.length,
      properties: this.options.properties,
      symmetry: this.symmetry,
      bounds: { timeLimitSeconds, maxMemoryBytes, maxMemoryMB },
      startedAt: performance.timeOrigin + this.budget.started,
    };
    for (let i = 0; i < this.workerCount; i++) postTo(this.group, i, init);
    for (const r of this.collect()) if (r.type !== 'ready') fail(CheckerErrorCode.workerFailed, `unexpected answer ${r.type} to init`);
  }

  /** Waits for one message from every worker; a worker's error becomes a KubecheckError. */
  private collect(): WorkerMessage[] {
    const n = this.workerCount;
    const replies = new Array<WorkerMessage | undefined>(n);
    let missing = n;
    const { ports, signal, heartbeat } = this.group;
    const beats = Array.from(heartbeat);
    const lastMove = new Array<number>(n).fill(performance.now());
    for (;;) {
      const seen = Atomics.load(signal, 0);
      for (let i = 0; i < n; i++) {
        if (replies[i] !== undefined) continue;
        const got = receiveMessageOnPort(ports[i]);
        if (got === undefined) continue;
        const m = got.message as WorkerMessage;
        if (m.type === 'error') {
          const msg = `worker ${i + 1}: ${m.message}`;
          if (process.env.KUBECHECK_DEBUG === '1' && m.stack) process.stderr.write(`${m.stack}\n`);
          if (m.code) throw new KubecheckError(m.code, msg);
          fail(CheckerErrorCode.workerFailed, msg);
        }
        replies[i] = m;
        missing--;
      }
      if (missing === 0) return replies as WorkerMessage[];
      const interval = this.options.progressIntervalMs ?? 500;
      Atomics.wait(signal, 0, seen, Math.min(interval, 1000));
      const now = performance.now();
      this.budget.progress(now, this.queued, this.states.size, this.generated, this.depth);
      for (let i = 0; i < n; i++) {
        const b = Atomics.load(heartbeat, i);
        if (b !== beats[i]) {
          beats[i] = b;
          lastMove[i] = now;
        } else if (replies[i] === undefined && now - lastMove[i] > WATCHDOG_MS) {
          fail(CheckerErrorCode.workerFailed, `worker ${i + 1} stopped responding (it may have run out of memory); try a lower --max-memory`);
        }
      }
    }
  }

  private send(messages: StepMessage[]): StepReply[] {
    for (let i = 0; i < this.workerCount; i++) {
      const m = messages[i];
      postTo(this.group, i, m, m.commit ? [m.commit.idx.buffer, m.commit.ids.buffer] as ArrayBuffer[] : []);
    }
    return this.collect() as StepReply[];
  }

  // ---- levels -------------------------------------------------------------------------------

  /** The search from `frontier` (a level stored and checked, not yet expanded) on the workers. */
  private search(frontier: Frontier<S>): void {
    const n = this.workerCount;
    const maxDepth = this.options.maxDepth ?? Infinity;
    // Shares in id order, dealt in turn: each ascending, as a worker expands its share.
    const seeds: SeedItem[][] = Array.from({ length: n }, () => []);
    frontier.ids.forEach((id, k) => seeds[k % n].push({ state: frontier.states[k], observed: frontier.observed[k], id }));
    this.depth++;
    let atDepthLimit = this.depth >= maxDepth;
    let replies = this.send(seeds.map((seed) => ({ type: 'step', seed, expand: true, atDepthLimit, decided: [...this.found.keys()] })));
    // The level is the workers' now (each holds its share's bytes).
    this.budget.memory.release(frontier.bytes);
    for (;;) {
      const level = this.merge(replies, atDepthLimit);
      const stopped = replies.find((r) => r.stopped !== undefined)?.stopped;
      const newCount = level.newPos.length;
      const reached = stopped ?? (level.memoryBound ? this.budget.memoryStop() : this.budget.overMemory());
      const expandNext = !level.statesBound && reached === undefined && newCount > 0;
      const nextAtLimit = this.depth + 1 >= maxDepth;
      const counts = level.newIds.map((ids) => ids.length);
      const plan = expandNext ? balancePlan(counts) : [];
      this.queued = newCount;
      const messages: StepMessage[] = level.newIdx.map((idx, i) => ({
        type: 'step',
        commit: { idx: Int32Array.from(idx), ids: Int32Array.from(level.newIds[i]) },
        send: plan.filter((t) => t.from === i).map((t) => ({ to: t.to, count: t.count })),
        receive: plan.filter((t) => t.to === i).map((t) => t.from),
        expand: expandNext,
        atDepthLimit: nextAtLimit,
        decided: [...this.found.keys()],
      }));
      const next = this.send(messages);
      this.finish(level, next);
      if (reached !== undefined) this.stop(reached);
      if (this.halted || !expandNext) return;
      this.depth++;
      atDepthLimit = nextAtLimit;
      replies = next;
    }
  }

  /** Merges the records of one expansion in the one-thread order and inserts the new states. */
  private merge(replies: readonly StepReply[], atDepthLimit: boolean): Level {
    const n = replies.length;
    const recs = replies.map((r) => r.records ?? { parents: new Int32Array(0), ordinals: new Int32Array(0), fps: new BigUint64Array(0) });
    const total = recs.reduce((a, r) => a + r.parents.length, 0);
    const parents = new Int32Array(total);
    const ordinals = new Int32Array(total);
    const cursor = new Array<number>(n).fill(0);
    const newIdx: number[][] = Array.from({ length: n }, () => []);
    const newIds: number[][] = Array.from({ length: n }, () => []);
    const newPos: number[] = [];
    const events: LevelEvent[] = [];
    const base = this.states.size;
    let statesBound = false;
    let memoryBound = false;
    let depthSeen = false;
    let m = 0;
    for (; m < total; m++) {
      // The worker whose next record comes first in (parent, ordinal) order.
      let w = -1;
      for (let k = 0; k < n; k++) {
        const c = cursor[k];
        if (c >= recs[k].parents.length) continue;
        if (w === -1) {
          w = k;
          continue;
        }
        const cw = cursor[w];
        const dp = recs[k].parents[c] - recs[w].parents[cw];
        if (dp < 0 || (dp === 0 && recs[k].ordinals[c] < recs[w].ordinals[cw])) w = k;
      }
      const i = cursor[w]++;
      const parent = recs[w].parents[i];
      const ordinal = recs[w].ordinals[i];
      parents[m] = parent;
      ordinals[m] = ordinal;
      const fp = recs[w].fps[i];
      if (fp === 0n) continue; // a self-loop
      const id = this.states.store(fp as Fingerprint, parent, ordinal, atDepthLimit);
      if (id === BEYOND_DEPTH) {
        if (!depthSeen) events.push({ parent, ordinal, phase: 1, kind: 'depth' });
        depthSeen = true;
      } else if (id === BEYOND_STATES) {
        events.push({ parent, ordinal, phase: 1, kind: 'states' });
        statesBound = true;
        m++;
        break;
      } else if (id === BEYOND_MEMORY) {
        memoryBound = true;
        break;
      }
      if (id < 0) continue;
      newIdx[w].push(i);
      newIds[w].push(id);
      newPos.push(m);
    }
    // Decisions on steps: action properties and deadlocks, as the workers saw them.
    replies.forEach((r) => {
      const ae = r.actionEvents ?? [];
      for (let j = 0; 2 * j < ae.length; j++) {
        const parent = ae[2 * j];
        const ordinal = ae[2 * j + 1];
        if (parent >= 0) events.push({ parent, ordinal, phase: 0, kind: 'decide', property: this.actionIds[j], at: { id: parent, ordinal } });
      }
      if (r.deadlock !== undefined && r.deadlock >= 0) {
        events.push({ parent: r.deadlock, ordinal: -1, phase: 0, kind: 'decide', property: 'deadlock', at: { id: r.deadlock, ordinal: -1 } });
      }
    });
    const expanded = replies.map((r) => ({ ids: r.expandedIds ?? new Int32Array(0), counts: r.counts ?? new Int32Array(0) }));
    return { newIdx, newIds, parents, ordinals, merged: m, newPos, base, events, statesBound, memoryBound, expanded };
  }

  /**
   * Applies one level's decisions in the one-thread order, and counts the states generated and
   * stored up to the step where that search would have halted (or the whole level).
   */
  private finish(level: Level, commit: readonly StepReply[]): void {
    const events = [...level.events];
    commit.forEach((r) => {
      (r.stateEvents ?? []).forEach((id, j) => {
        if (id < 0) return;
        events.push({ parent: this.states.parents.at(id), ordinal: this.states.ordinals.at(id), phase: 1, kind: 'decide', property: this.props.stateIds[j], at: { id, ordinal: -1 } });
      });
    });
    events.sort(compareEvents);
    let halt: LevelEvent | undefined;
    for (const e of events) {
      if (halt !== undefined && (e.parent > halt.parent || (e.parent === halt.parent && e.ordinal > halt.ordinal))) break;
      if (e.kind === 'decide') this.decide(e.property as string, e.at as Discovery);
      else if (e.kind === 'states') this.stop({ bound: 'states', limit: this.budget.maxStates });
      else this.stoppedBy ??= { bound: 'depth', limit: this.options.maxDepth ?? 0 };
      if (this.halted && halt === undefined) halt = e;
    }
    if (halt === undefined) {
      for (const e of level.expanded) for (let i = 0; i < e.counts.length; i++) this.generated += e.counts[i];
      return;
    }
    // Counts up to and including the halting step (for a deadlock, the steps of earlier states):
    // all successors of the states before it, and those of its own state up to its ordinal.
    for (const e of level.expanded) {
      for (let i = 0; i < e.ids.length && e.ids[i] < halt.parent; i++) this.generated += e.counts[i];
    }
    if (halt.ordinal >= 0) {
      const state = replayPath(this.model, this.states.pathTo({ id: halt.parent, ordinal: -1 })).states.at(-1) as S;
      forEachSuccessor(this.model, state, (_next, ordinal) => {
        if (ordinal <= halt.ordinal) this.generated++;
        return ordinal >= halt.ordinal;
      });
    }
    const { parents, ordinals, newPos } = level;
    const upTo = prefixLength(level.merged, (i) => parents[i] < halt.parent || (parents[i] === halt.parent && ordinals[i] <= halt.ordinal));
    this.distinctOverride = level.base + prefixLength(newPos.length, (i) => newPos[i] <= upTo - 1);
  }
}
