/**
 * One exhaustive breadth-first search over many workers (processes, machines) that gives the
 * one-thread search's results exactly: the same distinct and generated counts, depth, verdict,
 * bound, property outcomes, state ids and counterexample paths, whatever the number of workers
 * and the order frames arrive in.
 *
 * Level-synchronous, fingerprints travel and states stay (see `worker.ts`):
 *  1. `expand`: each worker expands its share (a contiguous range of ids, in order) and sends one
 *     record per successor (fingerprint, parent's fingerprint, parent id, ordinal, its index) to
 *     the fingerprint's owner (virtual shard of the top 12 bits). The owner keeps, per fingerprint
 *     not visited, the least (parent id, ordinal): the copy one thread finds first. It stores the
 *     winners with their parent links and tells each winning copy's holder. Every exchange ends
 *     with per-peer item counts, checked by the receiver.
 *  2. `commit`: the holders' numbers of winners give each its rank offset (a prefix sum: shares
 *     are contiguous ranges of ids, so a holder's winners, in its own generation order, are a
 *     contiguous run of the level's one-thread order). Ids are `base + rank`, as one thread
 *     assigns them. Holders check state properties on their new states, and the shares are
 *     evened out by moving whole states (about a tenth) between neighbours in rank order.
 *  3. The coordinator orders the level's decisions by (parent id, ordinal, phase) and applies them
 *     as one thread would; where that search halts mid-level (a property decided, the first
 *     violation, the states bound) it asks the workers for the counts up to that step.
 * A counterexample is rebuilt by asking owners for parent links back to an initial state, then
 * replayed here, so every report is the one-thread search's.
 */
import { CheckerErrorCode, fail, KubecheckError } from '../errors.js';
import type { Fingerprint } from '../fingerprint.js';
import { FingerprintTable, type VisitedSet } from '../fingerprintTable.js';
import { fingerprintWithObservers, keyFunction, NO_OBSERVERS, type Discovery } from '../kernel.js';
import type { Model } from '../model.js';
import type { CheckOptions } from '../options.js';
import type { BoundReached, CheckResult, Path, SearchStats } from '../result.js';
import { compareEvents, type LevelEvent as ParallelLevelEvent } from '../parallel.js';
import { SearchBase } from '../searchCore.js';
import { eachInitialState } from '../validateModel.js';
import { compareKeys, evenRanges, fpOfText, holderOf, ownerOf, rebalancedRanges, type StepKey } from './protocol.js';
import { Endpoint, type FrameHeader, type Transport } from './transport.js';
import type { InitHeader } from './worker.js';

/** A visited set that only counts: the fingerprints live with their owners. */
class Tally implements VisitedSet<Fingerprint> {
  size = 0;
  bytes = 0;
  readonly growthBytes = 0;
  readonly room = Infinity;
  has(): boolean {
    return false;
  }
  add(): boolean {
    return true;
  }
}

/** One decision of a level (as the parallel search orders them), with the fingerprint of the state `at.id` for its trace. */
interface LevelEvent extends ParallelLevelEvent {
  readonly fp?: string;
}

/** What the coordinator adds to the manifest (a Redis run: build, scenario, config). */
export interface ClusterOptions {
  readonly transport: Transport;
  readonly workers: number;
  /** More of the manifest every worker is sent with `init` (how to build the model). */
  readonly manifest?: Record<string, unknown>;
}

export class DistributedSearch<S> extends SearchBase<S, Fingerprint> {
  protected readonly engine: SearchStats['engine'] = 'distributed';
  private readonly endpoint: Endpoint;
  private readonly n: number;
  private readonly tally: Tally;
  /** Fingerprints of the states discoveries were made on, by id. */
  private readonly fpOf = new Map<number, bigint>();
  /** The initial states stored: fingerprint to index among the model's initial states. */
  private readonly rootIndex = new Map<bigint, number>();
  private readonly paths = new Map<string, Path>();
  private request = 0;
  private readonly replies = new Map<number, FrameHeader[]>();
  private wait: { q: number; count: number; resolve: (r: FrameHeader[]) => void; reject: (e: Error) => void } | undefined;
  private failure: KubecheckError | undefined;
  private queued = 0;
  /** The level of the deepest state stored (initial states are level 1). */
  private storedLevel = 0;
  /** Violations found, told to `onViolation` once their paths are gathered (they live with the workers). */
  private readonly unannounced: { id: string; at: Discovery }[] = [];
  /** Per level: its number of states (the frontier expanded) and the wall time its rounds took, ms. */
  readonly levelWidths: number[] = [];
  readonly levelMs: number[] = [];
  /** Per worker: its process's CPU time (user and system) at its last answer, seconds. */
  readonly workerCpu: number[] = [];

  constructor(
    model: Model<S>,
    options: CheckOptions,
    private readonly cluster: ClusterOptions,
  ) {
    const tally = new Tally();
    super(model, options, tally);
    this.tally = tally;
    this.n = cluster.workers;
    this.endpoint = new Endpoint(cluster.transport);
  }

  run(): CheckResult<S> {
    return fail(CheckerErrorCode.distributedUnsupported, 'a distributed search is asynchronous: use checkDistributed');
  }

  protected override pathOf(at: Discovery): Path {
    const path = this.paths.get(`${at.id}/${at.ordinal}`);
    if (path === undefined) return fail(CheckerErrorCode.workerFailed, `no path to state ${at.id} was gathered`);
    return path;
  }

  protected override deepestStoredLevel(): number {
    return this.storedLevel;
  }

  protected override announce(id: string, at: Discovery): void {
    this.unannounced.push({ id, at });
  }

  // ---- messages ------------------------------------------------------------------------------

  private listen(): void {
    this.endpoint.listen(
      (from, h) => {
        if (h.t === 'error') {
          this.abort(new KubecheckError((h.code as string) ?? CheckerErrorCode.workerFailed, `worker ${from}: ${h.message as string}`));
          return;
        }
        const q = h.q as number;
        if (this.wait === undefined || q !== this.wait.q) return; // a late answer to an earlier request
        const got = this.replies.get(q) ?? [];
        got[from] = h;
        this.replies.set(q, got);
        if (got.filter((r) => r !== undefined).length === this.wait.count) {
          const w = this.wait;
          this.wait = undefined;
          this.replies.delete(q);
          w.resolve(got);
        }
      },
      (error) => this.abort(error),
    );
  }

  /** Ends the search with `error` (the first one: a worker's, a lost frame, the transport). */
  abort(error: KubecheckError): void {
    this.failure ??= error;
    const w = this.wait;
    this.wait = undefined;
    w?.reject(this.failure);
  }

  /** Sends a request to the given workers (all by default) and waits for each one's answer. */
  private ask(header: Record<string, unknown>, to: readonly number[] = Array.from({ length: this.n }, (_, i) => i)): Promise<FrameHeader[]> {
    if (this.failure) return Promise.reject(this.failure);
    const q = ++this.request;
    const answer = new Promise<FrameHeader[]>((resolve, reject) => (this.wait = { q, count: to.length, resolve, reject }));
    for (const w of to) this.endpoint.send(w, { ...header, q } as unknown as FrameHeader);
    return answer;
  }

  // ---- the search ----------------------------------------------------------------------------

  /** Runs the search on the cluster's workers and tells them to stop, whatever happens. */
  async search(): Promise<CheckResult<S>> {
    this.listen();
    try {
      const init: Omit<InitHeader, 'q'> = {
        ...(this.cluster.manifest ?? {}),
        t: 'init',
        workers: this.n,
        modelName: this.model.name,
        actionCount: this.model.actions.length,
        ...(this.options.properties === undefined ? {} : { properties: this.options.properties }),
        symmetry: this.symmetry,
        ...(this.options.maxMemoryBytes === undefined ? {} : { maxMemoryBytes: this.options.maxMemoryBytes }),
        ...(this.options.maxMemoryMB === undefined ? {} : { maxMemoryMB: this.options.maxMemoryMB }),
      };
      await this.ask(init);
      const roots = this.storeRoots();
      if (!this.halted && roots.length > 0) {
        await this.ask({ t: 'seed', roots, ranges: evenRanges(roots.length, this.n) });
        await this.levels(roots.length);
      }
      for (const at of this.found.values()) await this.gatherPath(at);
      for (const { id, at } of this.unannounced.splice(0)) super.announce(id, at);
      return this.result();
    } finally {
      for (let w = 0; w < this.n; w++) this.endpoint.send(w, { t: 'stop' });
    }
  }

  /** The initial states, as one thread stores them; returns the indices of those stored, in id order. */
  private storeRoots(): number[] {
    const observers = this.props.observers;
    const key = keyFunction(this.model, this.symmetry);
    const table = new FingerprintTable(8);
    const stored: number[] = [];
    // Each initial state is taken as it is stored, none once the search halts.
    let i = 0;
    if (!this.halted) {
      for (const s of eachInitialState(this.model)) {
        const index = i++;
        this.generated++;
        const observed = observers.length ? observers.map((ob) => ob.initial(s)) : NO_OBSERVERS;
        const fp = fingerprintWithObservers(key(s), observers, observed);
        if (stored.length >= this.budget.maxStates) {
          if (!table.has(fp)) this.stop({ bound: 'states', limit: this.budget.maxStates });
        } else if (table.add(fp)) {
          const id = stored.length;
          stored.push(index);
          this.fpOf.set(id, fp);
          this.rootIndex.set(fp, index);
          this.checkState(s, observed, id);
        }
        if (this.halted) break;
      }
    }
    this.tally.size = stored.length;
    if (stored.length > 0) this.storedLevel = 1;
    return stored;
  }

  /** The levels from the initial states on, until none is new or the search halts. */
  private async levels(rootCount: number): Promise<void> {
    const maxDepth = this.options.maxDepth ?? Infinity;
    const limitOf = (distinct: number): number => (this.budget.maxStates === Infinity ? -1 : this.budget.maxStates - distinct);
    let frontier = rootCount;
    while (frontier > 0 && !this.halted) {
      this.depth++;
      const lv = this.depth;
      const atDepthLimit = this.depth >= maxDepth;
      const base = this.tally.size;
      this.queued = frontier;
      const began = performance.now();
      const timeLeft = this.options.timeLimitSeconds === undefined ? null : this.options.timeLimitSeconds - this.budget.seconds();
      const expanded = await this.ask({ t: 'expand', lv, dl: atDepthLimit, decided: [...this.found.keys()], timeLeft });
      const events: LevelEvent[] = [];
      this.stepEvents(expanded, events);
      const counts = expanded.map((r) => r.winners as number);
      const offsets = [0];
      for (const c of counts) offsets.push(offsets[offsets.length - 1] + c);
      const total = offsets[this.n];
      const limit = limitOf(base);
      const cut = limit >= 0 && total > limit;
      const reached = (expanded.find((r) => r.stopped !== undefined)?.stopped as BoundReached | undefined) ?? this.budget.overMemory();
      const expandNext = !cut && reached === undefined && total > 0;
      const ranges = expandNext ? rebalancedRanges(counts) ?? null : null;
      const committed = await this.ask({ t: 'commit', lv, base, limit, offsets, ranges, decided: [...this.found.keys()] });
      committed.forEach((r) => {
        (r.stateEvents as ([number, number, number, string] | null)[]).forEach((e, j) => {
          if (e !== null) events.push({ parent: e[1], ordinal: e[2], phase: 1, kind: 'decide', property: this.props.stateIds[j], at: { id: e[0], ordinal: -1 }, fp: e[3] });
        });
      });
      if (cut) {
        const key = committed[holderOf(limit, offsets)].boundKey as StepKey;
        events.push({ parent: key[0], ordinal: key[1], phase: 1, kind: 'states' });
      }
      const halt = this.apply(events);
      if (halt === undefined) {
        for (const r of expanded) this.generated += r.generated as number;
        this.tally.size = base + (cut ? limit : total);
      } else {
        const counted = await this.ask({ t: 'count', parent: halt.parent, ordinal: halt.ordinal, limit, offsets });
        for (const r of counted) this.generated += r.generated as number;
        this.tally.size = base + counted.reduce((a, r) => a + (r.distinct as number), 0);
      }
      if (this.tally.size > base) this.storedLevel = lv + 1;
      this.tally.bytes = expanded.reduce((a, r) => a + (r.bytes as number), 0);
      expanded.forEach((r, w) => (this.workerCpu[w] = r.cpu as number));
      this.levelWidths.push(frontier);
      this.levelMs.push(performance.now() - began);
      if (reached !== undefined) this.stop(reached);
      this.budget.progress(performance.now(), this.queued, this.tally.size, this.generated, this.depth);
      if (!expandNext) break;
      frontier = total;
    }
    this.distinctOverride = this.tally.size;
  }

  /** The decisions on steps: action properties, deadlocks, and the first unseen state beyond the depth bound. */
  private stepEvents(expanded: readonly FrameHeader[], events: LevelEvent[]): void {
    let depthKey: StepKey | undefined;
    for (const r of expanded) {
      (r.actions as ([number, number, string] | null)[]).forEach((a, j) => {
        if (a !== null) events.push({ parent: a[0], ordinal: a[1], phase: 0, kind: 'decide', property: this.props.actions[j].id, at: { id: a[0], ordinal: a[1] }, fp: a[2] });
      });
      const d = r.deadlock as [number, string] | null;
      if (d !== null) events.push({ parent: d[0], ordinal: -1, phase: 0, kind: 'decide', property: 'deadlock', at: { id: d[0], ordinal: -1 }, fp: d[1] });
      const k = r.depthKey as StepKey | null;
      if (k !== null && (depthKey === undefined || compareKeys(k, depthKey) < 0)) depthKey = k;
    }
    if (depthKey !== undefined) events.push({ parent: depthKey[0], ordinal: depthKey[1], phase: 1, kind: 'depth' });
  }

  /** Applies a level's decisions in the one-thread order; returns the step the search halted at, if it did. */
  private apply(events: LevelEvent[]): LevelEvent | undefined {
    events.sort(compareEvents);
    let halt: LevelEvent | undefined;
    for (const e of events) {
      if (halt !== undefined && (e.parent > halt.parent || (e.parent === halt.parent && e.ordinal > halt.ordinal))) break;
      if (e.kind === 'decide') {
        const at = e.at as Discovery;
        if (!this.found.has(e.property as string) && e.fp !== undefined) this.fpOf.set(at.id, fpOfText(e.fp));
        this.decide(e.property as string, at);
      } else if (e.kind === 'states') this.stop({ bound: 'states', limit: this.budget.maxStates });
      else this.stoppedBy ??= { bound: 'depth', limit: this.options.maxDepth ?? 0 };
      if (this.halted && halt === undefined) halt = e;
    }
    return halt;
  }

  /** The path to a discovery: parent links asked of each state's owner back to an initial state. */
  private async gatherPath(at: Discovery): Promise<void> {
    let fp = this.fpOf.get(at.id);
    if (fp === undefined) fail(CheckerErrorCode.workerFailed, `the fingerprint of state ${at.id} was not reported`);
    const steps: number[] = [];
    while (!this.rootIndex.has(fp)) {
      const owner = ownerOf(fp, this.n);
      const [link] = (await this.ask({ t: 'link', fp: fp.toString(16) }, [owner])).filter((r) => r !== undefined);
      steps.push(link.ordinal as number);
      fp = fpOfText(link.parent as string);
    }
    steps.reverse();
    if (at.ordinal >= 0) steps.push(at.ordinal);
    this.paths.set(`${at.id}/${at.ordinal}`, { initial: this.rootIndex.get(fp) as number, steps });
  }
}
