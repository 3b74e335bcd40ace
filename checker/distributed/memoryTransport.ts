/**
 * The in-process transport: every endpoint of a distributed search in one process, frames passed
 * as bytes through a network with a seeded adversarial scheduler. It delays frames by random
 * numbers of ticks, delivers them out of order, delivers some twice, cuts record frames in two at
 * a record boundary, and (in its lossy mode) drops record frames, which the protocol's per-level
 * counts must catch. With nothing left in flight while the search still waits, it reports the
 * stall: the lost frame, never a wrong count.
 */
import { CheckerErrorCode, KubecheckError } from '../errors.js';
import { decodeFrame, encodeFrame, type Transport } from './transport.js';

export interface MemoryNetworkOptions {
  /** Seed of the scheduler (the same seed, the same schedule). */
  readonly seed?: number;
  /** Largest delay of a frame, in ticks (0: every frame in the next tick). */
  readonly maxDelay?: number;
  /** Deliver frames in the order sent by each sender (as Redis Streams do); default false. */
  readonly ordered?: boolean;
  /** Probability that a frame is delivered twice. */
  readonly duplicate?: number;
  /** Probability that a record frame is cut in two. */
  readonly split?: number;
  /** Probability that a record frame between workers is dropped (the lossy mode). */
  readonly lose?: number;
}

interface InFlight {
  readonly from: number;
  readonly to: number;
  readonly frame: Uint8Array;
  readonly due: number;
  readonly order: number;
}

/** sfc32: a small seeded generator, so a schedule replays from its seed. */
function sfc32(seed: number): () => number {
  let a = 0x9e3779b9;
  let b = 0x243f6a88;
  let c = 0xb7e15162;
  let d = seed >>> 0;
  const next = (): number => {
    a >>>= 0;
    b >>>= 0;
    c >>>= 0;
    d >>>= 0;
    let t = (a + b) | 0;
    a = b ^ (b >>> 9);
    b = (c + (c << 3)) | 0;
    c = (c << 21) | (c >>> 11);
    d = (d + 1) | 0;
    t = (t + d) | 0;
    c = (c + t) | 0;
    return (t >>> 0) / 4294967296;
  };
  for (let i = 0; i < 12; i++) next();
  return next;
}

/** The network of one in-process search: `endpoints` transports, the last one the coordinator's. */
export class MemoryNetwork {
  private readonly random: () => number;
  private readonly inFlight: InFlight[] = [];
  private readonly takers: (((from: number, frame: Uint8Array) => void) | undefined)[];
  private readonly faults: (((error: KubecheckError) => void) | undefined)[];
  private tick = 0;
  private order = 0;
  private scheduled = false;
  private closed = 0;
  /** Frames dropped in the lossy mode (for the tests to know a loss happened). */
  lost = 0;

  readonly transports: Transport[];

  constructor(
    readonly endpoints: number,
    private readonly options: MemoryNetworkOptions = {},
  ) {
    this.random = sfc32(options.seed ?? 1);
    this.takers = new Array(endpoints).fill(undefined);
    this.faults = new Array(endpoints).fill(undefined);
    this.transports = Array.from({ length: endpoints }, (_, self) => this.transport(self));
  }

  private transport(self: number): Transport {
    return {
      self,
      ordered: this.options.ordered === true,
      send: (to, frame) => this.post(self, to, frame.slice()),
      listen: (take, fault) => {
        this.takers[self] = take;
        this.faults[self] = fault;
        this.schedule();
      },
      close: async () => {
        this.takers[self] = undefined;
        this.faults[self] = undefined;
        this.closed++;
      },
    };
  }

  private post(from: number, to: number, frame: Uint8Array): void {
    const o = this.options;
    const r = this.random;
    const parts = (o.split ?? 0) > 0 && r() < (o.split as number) ? splitFrame(frame) : [frame];
    for (const part of parts) {
      const worker = from < this.endpoints - 1 && to < this.endpoints - 1;
      if (worker && (o.lose ?? 0) > 0 && isRecordFrame(part) && r() < (o.lose as number)) {
        this.lost++;
        continue;
      }
      this.enqueue(from, to, part);
      if ((o.duplicate ?? 0) > 0 && r() < (o.duplicate as number)) this.enqueue(from, to, part);
    }
    this.schedule();
  }

  private enqueue(from: number, to: number, frame: Uint8Array): void {
    const delay = Math.floor(this.random() * ((this.options.maxDelay ?? 0) + 1));
    this.inFlight.push({ from, to, frame, due: this.tick + 1 + delay, order: this.order++ });
  }

  private schedule(): void {
    if (this.scheduled || this.closed >= this.endpoints) return;
    this.scheduled = true;
    setImmediate(() => this.run());
  }

  /** One tick: deliver the frames due, in a random order (or each sender's order when ordered). */
  private run(): void {
    this.scheduled = false;
    if (this.closed >= this.endpoints) return;
    if (this.inFlight.length === 0) {
      this.stalled();
      return;
    }
    this.tick++;
    let due = this.inFlight.filter((f) => f.due <= this.tick);
    if (due.length === 0) {
      this.schedule();
      return;
    }
    if (this.options.ordered) {
      // A sender's frames to one receiver stay in order: a frame is due only after its elders.
      const blocked = new Set<string>();
      const ready: InFlight[] = [];
      for (const f of [...this.inFlight].sort((a, b) => a.order - b.order)) {
        const lane = `${f.from}>${f.to}`;
        if (blocked.has(lane)) continue;
        if (f.due <= this.tick) ready.push(f);
        else blocked.add(lane);
      }
      due = ready;
    } else {
      for (let i = due.length - 1; i > 0; i--) {
        const j = Math.floor(this.random() * (i + 1));
        [due[i], due[j]] = [due[j], due[i]];
      }
    }
    const taken = new Set(due);
    const rest = this.inFlight.filter((f) => !taken.has(f));
    this.inFlight.length = 0;
    this.inFlight.push(...rest);
    for (const f of due) this.takers[f.to]?.(f.from, f.frame);
    this.schedule();
  }

  /**
   * Nothing in flight and every endpoint waiting (this is one thread: when a tick runs, no one is
   * in the middle of work). A search that has not finished waits for a frame that was lost.
   */
  private stalled(): void {
    const coordinator = this.endpoints - 1;
    const fault = this.faults[coordinator];
    if (fault === undefined) return;
    fault(new KubecheckError(CheckerErrorCode.recordsLost, `the search stalled: nothing is in flight and it still waits for frames (${this.lost} record frames were lost); no count is given for a search that lost records`));
  }
}

/** Whether a frame carries records between workers (those the lossy mode drops). */
function isRecordFrame(frame: Uint8Array): boolean {
  return typeof decodeFrame(frame).header.rs === 'number';
}

/** A frame of fixed-size records cut in two at a record boundary (other frames are left whole). */
function splitFrame(frame: Uint8Array): Uint8Array[] {
  const { header, body } = decodeFrame(frame);
  const size = header.rs;
  const n = header.n;
  if (typeof size !== 'number' || typeof n !== 'number' || n < 2) return [frame];
  const cut = Math.floor(n / 2);
  return [
    encodeFrame({ ...header, n: cut, p: 1 }, body.subarray(0, cut * size)),
    encodeFrame({ ...header, n: n - cut, p: 2 }, body.subarray(cut * size)),
  ];
}
