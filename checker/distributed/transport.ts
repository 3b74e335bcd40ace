/**
 * What a distributed search needs from the network: frames of bytes between numbered endpoints
 * (workers 0..n-1, the coordinator n). The in-process `memory` transport (tests) and the Redis
 * transport (`kubecheck worker`) implement it; the frames are the same for both.
 *
 * A frame is a small JSON header and an optional binary body. {@link Endpoint} numbers the frames
 * it sends and drops a frame it has already taken (a transport may deliver one twice), so the
 * protocol above sees each frame once; whether one was lost is the protocol's count check.
 */
import { CheckerErrorCode, KubecheckError } from '../errors.js';

export interface Transport {
  /** This endpoint's number. */
  readonly self: number;
  /**
   * Whether the frames from one sender arrive in the order they were sent (Redis Streams: one
   * inbox per endpoint). Then a level's end marker arriving before all the records it counts
   * means records were lost; otherwise they may still be on their way.
   */
  readonly ordered: boolean;
  /** Sends a frame (queued; never blocks: flow control is the protocol's credits). */
  send(to: number, frame: Uint8Array): void;
  /** Sets who takes the arriving frames (before any is delivered). */
  listen(take: (from: number, frame: Uint8Array) => void, fault: (error: KubecheckError) => void): void;
  /** Stops delivering and releases what the transport holds. */
  close(): Promise<void>;
}

/** The header every frame carries: its sender's sequence number and its kind. */
export interface FrameHeader {
  /** Sequence number of the frame among those its sender sent (from 1). */
  readonly s?: number;
  readonly t: string;
  readonly [key: string]: unknown;
}

const textEncoder = new TextEncoder();
const textDecoder = new TextDecoder();

/**
 * A frame's bytes: the header's length (4 bytes, little-endian), the header as JSON, padding to 8
 * bytes, then the body; the body starts on an 8-byte boundary so records can be read in place.
 */
export function encodeFrame(header: FrameHeader, body?: Uint8Array): Uint8Array {
  const head = textEncoder.encode(JSON.stringify(header));
  const start = (4 + head.length + 7) & ~7;
  const out = new Uint8Array(start + (body?.length ?? 0));
  new DataView(out.buffer).setUint32(0, head.length, true);
  out.set(head, 4);
  if (body) out.set(body, start);
  return out;
}

/** The header and body of a frame (the body a view into the frame's bytes, copied when misaligned). */
export function decodeFrame(frame: Uint8Array): { header: FrameHeader; body: Uint8Array } {
  const view = new DataView(frame.buffer, frame.byteOffset, frame.byteLength);
  const length = view.getUint32(0, true);
  if (frame.byteLength < 4 + length) throw new KubecheckError(CheckerErrorCode.recordsLost, `a frame of ${frame.byteLength} bytes is cut short`);
  const header = JSON.parse(textDecoder.decode(frame.subarray(4, 4 + length))) as FrameHeader;
  const start = (4 + length + 7) & ~7;
  let body = frame.subarray(start);
  if (body.byteOffset % 8 !== 0) body = body.slice();
  return { header, body };
}

/**
 * One endpoint's side of a transport: numbered frames out, each arriving frame taken once.
 * A sender's numbers count up from 1; what has arrived is kept as a watermark (all numbers up to
 * it) and the set of numbers above it, so the memory this takes stays small.
 */
export class Endpoint {
  private sent = 0;
  private readonly watermark = new Map<number, number>();
  private readonly above = new Map<number, Set<number>>();

  constructor(readonly transport: Transport) {}

  get self(): number {
    return this.transport.self;
  }

  send(to: number, header: FrameHeader, body?: Uint8Array): number {
    const s = ++this.sent;
    this.transport.send(to, encodeFrame({ ...header, s }, body));
    return s;
  }

  /** Takes the frames that arrive, each once (a repeated one is dropped here). */
  listen(take: (from: number, header: FrameHeader, body: Uint8Array) => void, fault: (error: KubecheckError) => void): void {
    this.transport.listen((from, frame) => {
      let decoded: { header: FrameHeader; body: Uint8Array };
      try {
        decoded = decodeFrame(frame);
      } catch (e) {
        fault(e instanceof KubecheckError ? e : new KubecheckError(CheckerErrorCode.recordsLost, `a frame from endpoint ${from} cannot be read: ${(e as Error).message}`));
        return;
      }
      const { s, p } = decoded.header;
      if (!(typeof p === 'number' ? this.firstPart(from, s ?? 0, p) : this.firstTime(from, s ?? 0))) return;
      take(from, decoded.header, decoded.body);
    }, fault);
  }

  /** Parts of a frame a transport cut in two (the memory transport's adversary) are taken once each. */
  private readonly parts = new Set<string>();

  private firstPart(from: number, s: number, p: number): boolean {
    const key = `${from}/${s}/${p}`;
    if (this.parts.has(key)) return false;
    this.parts.add(key);
    return true;
  }

  private firstTime(from: number, s: number): boolean {
    let mark = this.watermark.get(from) ?? 0;
    if (s <= mark) return false;
    let set = this.above.get(from);
    if (set === undefined) this.above.set(from, (set = new Set()));
    if (set.has(s)) return false;
    set.add(s);
    while (set.has(mark + 1)) set.delete(++mark);
    this.watermark.set(from, mark);
    return true;
  }
}
