/**
 * A worker thread of the parallel breadth-first search (see `parallel.ts` for the protocol). It
 * rebuilds the model from its factory, holds its share of the frontier, expands it in id order
 * and sends back one record per successor: parent id, candidate ordinal and fingerprint (0 for a
 * self-loop). The main thread decides which successors are new; the worker keeps those as its
 * share of the next level, checks the state properties on them, and trades states with the
 * other workers when the shares are uneven.
 */
import { receiveMessageOnPort, workerData, type MessagePort } from 'node:worker_threads';
import { CheckerErrorCode, KubecheckError } from './errors.js';
import { FingerprintTable } from './fingerprintTable.js';
import type { Model } from './model.js';
import { Budget, fingerprintWithObservers, keyFunction, NO_OBSERVERS, PropertySet, stepObservers } from './kernel.js';
import { forEachSuccessor, labelOf } from './successors.js';
import type { BoundReached } from './result.js';
import { StateBytes } from './stateBytes.js';
import { postAndWake, type InitMessage, type MainMessage, type StepMessage, type StepReply, type WorkerData, type WorkerMessage } from './parallelProtocol.js';
import { ensureTypeScriptLoader } from './typescriptLoader.js';

/**
 * A successor kept for the next level, until the main thread says whether it is new, with the
 * bytes held for it on the memory guard.
 */
interface Kept {
  readonly state: unknown;
  readonly observed: readonly unknown[];
  readonly bytes: number;
}

/** A state of this worker's share of the frontier. */
interface Item extends Kept {
  readonly id: number;
}

const data = workerData as WorkerData;
const toMain: MessagePort = data.toMain;

function post(message: WorkerMessage, transfer: ArrayBuffer[] = []): void {
  postAndWake(toMain, data.signal, 0, message, transfer);
}

function beat(): void {
  Atomics.add(data.heartbeat, data.index, 1);
}

function errorMessage(e: unknown): WorkerMessage {
  if (e instanceof KubecheckError) return { type: 'error', code: e.code, message: e.message.replace(/^KC\d+: /, '') };
  const err = e as Error;
  return { type: 'error', message: `${err?.name === 'DataCloneError' ? 'a state cannot be sent between threads (states must be plain data): ' : ''}${String(err?.message ?? e)}`, stack: err?.stack };
}

/** A growable typed array of records. */
class Records {
  parents = new Int32Array(1024);
  ordinals = new Int32Array(1024);
  fps = new BigUint64Array(1024);
  length = 0;

  push(parent: number, ordinal: number, fp: bigint): void {
    if (this.length === this.parents.length) {
      const n = this.length * 2;
      const p = new Int32Array(n);
      p.set(this.parents);
      const o = new Int32Array(n);
      o.set(this.ordinals);
      const f = new BigUint64Array(n);
      f.set(this.fps);
      this.parents = p;
      this.ordinals = o;
      this.fps = f;
    }
    this.parents[this.length] = parent;
    this.ordinals[this.length] = ordinal;
    this.fps[this.length++] = fp;
  }
}

class WorkerSearch {
  private readonly props: PropertySet<unknown>;
  private readonly key: (state: unknown) => unknown;
  /** The main thread's time and memory bounds, from its start. */
  private readonly budget: Budget;

  private frontier: Item[] = [];
  /** Successor states of the last expansion, one per record (null where not kept). */
  private pending: (Kept | null)[] = [];
  /** What a state held here costs in memory (`stateBytes.ts`). */
  private readonly stateBytes = new StateBytes();

  constructor(
    private readonly model: Model<unknown>,
    init: InitMessage,
  ) {
    this.props = new PropertySet(model, init.properties);
    this.key = keyFunction(model, init.symmetry && model.canonicalize !== undefined);
    this.budget = new Budget(init.bounds, init.startedAt - performance.timeOrigin);
  }

  step(m: StepMessage): StepReply {
    beat();
    const decided = new Set(m.decided);
    let stateEvents: number[] | undefined;
    if (m.seed !== undefined) this.frontier = this.arrivedAll(m.seed);
    if (m.commit !== undefined) {
      const { idx, ids } = m.commit;
      // The expanded level and the successors that were not new are let go.
      this.release(this.frontier);
      this.release(this.pending);
      this.frontier = Array.from(ids, (id, i) => ({ ...(this.pending[idx[i]] as Kept), id }));
      for (const x of this.frontier) this.budget.memory.hold(x.bytes, true);
      this.pending = [];
      stateEvents = this.checkStates(this.frontier, decided);
    }
    // Even out the shares: the tail (highest ids) goes, and arrivals are merged in by id.
    for (const { to, count } of m.send ?? []) {
      const items = this.frontier.splice(this.frontier.length - count, count);
      this.release(items);
      postAndWake(data.peers[to] as MessagePort, data.wake, to, items);
    }
    for (const from of m.receive ?? []) this.frontier = mergeById(this.frontier, this.arrivedAll(receiveFrom(from)));
    return { type: 'step', ...(stateEvents ? { stateEvents } : {}), ...(m.expand ? this.expand(m.atDepthLimit, decided) : {}), frontier: this.frontier.length };
  }

  /**
   * States that came from another thread (structured clones), charged whole on the memory guard:
   * with no observers their observed values are the shared empty list again, which a step
   * returning its own state compares with by identity to find a self-loop.
   */
  private arrivedAll(items: readonly Omit<Item, 'bytes'>[]): Item[] {
    // States cloned together share what they shared before: each object is charged once.
    const seen = new Set<object>();
    const watched = this.props.observers.length > 0;
    let held = 0;
    const out = items.map((x): Item => {
      const observed = watched ? x.observed : NO_OBSERVERS;
      const bytes = this.stateBytes.added(x.state, undefined, seen) + (watched ? this.stateBytes.added(observed, undefined, seen) : 0);
      held += bytes;
      return { state: x.state, observed, id: x.id, bytes };
    });
    this.budget.memory.hold(held, true);
    return out;
  }

  /**
   * Holds what a successor kept here costs on the memory guard (what it and its observers'
   * values do not share with the state expanded); returns the bytes. Once that reaches the
   * bound, the expansion stops at its next state (`Budget.expansion`).
   */
  private hold(next: unknown, nextObserved: readonly unknown[], state: unknown, observed: readonly unknown[]): number {
    const bytes = this.stateBytes.estimate(next, state, this.budget.memory) + (nextObserved === observed ? 0 : this.stateBytes.added(nextObserved, observed));
    this.budget.memory.hold(bytes, true);
    return bytes;
  }

  /** Releases the bytes held for states let go. */
  private release(items: readonly (Kept | null)[]): void {
    let bytes = 0;
    for (const x of items) if (x !== null) bytes += x.bytes;
    this.budget.memory.release(bytes);
  }

  /** Per state property (`PropertySet.stateIds`): the least id of `items` where it is decided, or -1. */
  private checkStates(items: readonly Item[], decided: ReadonlySet<string>): number[] {
    const { stateIds } = this.props;
    const events = new Array<number>(stateIds.length).fill(-1);
    const skip = new Set(decided);
    for (const { state, observed, id } of items) {
      for (let j = this.props.decidedOn(state, observed, 0, skip); j >= 0; j = this.props.decidedOn(state, observed, j + 1, skip)) {
        events[j] = id;
        skip.add(stateIds[j]);
      }
    }
    return events;
  }

  private expand(atDepthLimit: boolean, decided: ReadonlySet<string>): Omit<StepReply, 'type' | 'frontier' | 'stateEvents'> {
    const records = new Records();
    const pending: (Kept | null)[] = [];
    // A successor already recorded at this level is not recorded again: the first record of a
    // fingerprint comes first in (parent, ordinal) order, so only it can be a new state.
    const seen = new FingerprintTable(12);
    const expandedIds = new Int32Array(this.frontier.length);
    const counts = new Int32Array(this.frontier.length);
    const aps = this.props.actions;
    const actionEvents = new Array<number>(2 * aps.length).fill(-1);
    const apOpen = aps.map((ap) => !decided.has(ap.id));
    let deadlock = -1;
    const watchDeadlock = this.props.checkDeadlock && !decided.has('deadlock');
    const observers = this.props.observers;
    const hasStepWatchers = aps.length > 0 || observers.length > 0;
    const budget = this.budget;
    let stopped: BoundReached | undefined;
    let expanded = 0;
    for (let i = 0; i < this.frontier.length; i++) {
      stopped = budget.expansion(0, 0, 0, 0);
      if (stopped) break;
      if ((i & 255) === 255) beat();
      const { state, observed, id } = this.frontier[i];
      expanded++;
      const produced = forEachSuccessor(this.model, state, (next, ordinal, def, param) => {
        let nextObserved = NO_OBSERVERS;
        if (hasStepWatchers) {
          const label = labelOf(def, param);
          for (let j = 0; j < aps.length; j++) {
            if (apOpen[j] && actionEvents[2 * j] === -1 && !aps[j].holds(state, label, next)) {
              actionEvents[2 * j] = id;
              actionEvents[2 * j + 1] = ordinal;
            }
          }
          if (observers.length) nextObserved = stepObservers(observers, observed, state, label, next);
        }
        if (next === state && nextObserved === observed) return; // a self-loop: generated, never stored
        const fp = fingerprintWithObservers(this.key(next), observers, nextObserved);
        if (!seen.add(fp)) return;
        records.push(id, ordinal, fp);
        pending.push(atDepthLimit ? null : { state: next, observed: nextObserved, bytes: this.hold(next, nextObserved, state, observed) });
      });
      expandedIds[expanded - 1] = id;
      counts[expanded - 1] = produced;
      if (produced === 0 && watchDeadlock && deadlock === -1) deadlock = id;
    }
    beat();
    stopped ??= budget.overMemory();
    this.pending = pending;
    const n = records.length;
    return {
      records: { parents: records.parents.slice(0, n), ordinals: records.ordinals.slice(0, n), fps: records.fps.slice(0, n) },
      expandedIds: expandedIds.slice(0, expanded),
      counts: counts.slice(0, expanded),
      actionEvents,
      deadlock,
      expanded,
      ...(stopped === undefined ? {} : { stopped }),
    };
  }
}

function mergeById(a: Item[], b: Item[]): Item[] {
  const out: Item[] = [];
  let i = 0;
  let j = 0;
  while (i < a.length || j < b.length) {
    if (j >= b.length || (i < a.length && a[i].id < b[j].id)) out.push(a[i++]);
    else out.push(b[j++]);
  }
  return out;
}

/**
 * The next message on `port`, waiting on this worker's wake slot until one comes (the main thread
 * and the peers bump it after each message they post here). The timeout only bounds how long a
 * terminated worker takes to notice.
 */
function receiveSync(port: MessagePort): unknown {
  for (;;) {
    const seen = Atomics.load(data.wake, data.index);
    const got = receiveMessageOnPort(port);
    if (got !== undefined) return got.message;
    Atomics.wait(data.wake, data.index, seen, 250);
  }
}

/** The states another worker sends to even out the shares. */
function receiveFrom(from: number): Item[] {
  return receiveSync(data.peers[from] as MessagePort) as Item[];
}

async function build(init: InitMessage): Promise<WorkerSearch> {
  const { factory } = init;
  await ensureTypeScriptLoader(factory.module);
  const mod = (await import(factory.module)) as Record<string, unknown>;
  const make = mod[factory.export];
  if (typeof make !== 'function') throw new KubecheckError(CheckerErrorCode.workerFailed, `module ${factory.module} has no exported function ${factory.export}`);
  const model = (await (make as (args: unknown) => unknown)(factory.args)) as Model<unknown>;
  if (model === null || typeof model !== 'object' || model.name !== init.modelName || model.actions?.length !== init.actionCount) {
    throw new KubecheckError(
      CheckerErrorCode.workerFailed,
      `modelFactory ${factory.export} built ${model && typeof model === 'object' ? `model ${JSON.stringify(model.name)} with ${model.actions?.length} actions` : 'no model'}, not the model checked (${JSON.stringify(init.modelName)} with ${init.actionCount} actions)`,
    );
  }
  return new WorkerSearch(model, init);
}

function reply(m: StepMessage, search: WorkerSearch): void {
  const r = search.step(m);
  const transfer = r.records ? [r.records.parents.buffer, r.records.ordinals.buffer, r.records.fps.buffer] : [];
  if (r.expandedIds && r.counts) transfer.push(r.expandedIds.buffer, r.counts.buffer);
  post(r, transfer as ArrayBuffer[]);
}

/**
 * One search, synchronously: takes the main thread's messages as they come until `reset`, which
 * hands the thread back to its event loop (idle between searches, where it may be terminated or
 * given the next `init`). Returns a message that is not a step (`init` or `reset`).
 */
function serve(search: WorkerSearch): MainMessage {
  for (;;) {
    const m = receiveSync(toMain) as MainMessage;
    if (m.type !== 'step') return m;
    try {
      reply(m, search);
    } catch (e) {
      post(errorMessage(e));
    }
  }
}

// Between searches the thread waits in its event loop for `init` (building a model may load
// modules, which is asynchronous); during a search it serves steps synchronously (`serve`).
toMain.on('message', (first: MainMessage) => {
  void (async () => {
    let m: MainMessage | undefined = first;
    while (m !== undefined && m.type === 'init') {
      let search: WorkerSearch;
      try {
        search = await build(m);
      } catch (e) {
        post(errorMessage(e));
        return;
      }
      post({ type: 'ready' });
      m = serve(search);
    }
    if (m?.type === 'step') post(errorMessage(new Error('step before init')));
  })();
});
