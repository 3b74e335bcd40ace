/** Messages between the parallel search (`parallel.ts`) and its worker threads (`parallelWorker.ts`). */
import type { MessagePort } from 'node:worker_threads';
import type { CheckOptions, ModelFactory } from './options.js';
import type { BoundReached } from './result.js';

/** What a worker starts with; it serves one search after another (see {@link InitMessage}). */
export interface WorkerData {
  readonly index: number;
  /** The port to the main thread. */
  readonly toMain: MessagePort;
  /** Ports to the other workers, by worker index (null at its own). */
  readonly peers: readonly (MessagePort | null)[];
  /** Incremented after every message to the main thread, which waits on it. */
  readonly signal: Int32Array<ArrayBufferLike>;
  /** Incremented by each worker while it works; the main thread watches for a worker that died. */
  readonly heartbeat: Int32Array<ArrayBufferLike>;
  /**
   * One slot per worker, incremented after every message to that worker (from the main thread or
   * a peer): during a search a worker waits on its slot and takes messages synchronously, so a
   * level's round trip costs a futex wake, not a turn of its event loop.
   */
  readonly wake: Int32Array<ArrayBufferLike>;
}

/** Starts a search: rebuild the model (answered by `ready`). */
export interface InitMessage {
  readonly type: 'init';
  readonly factory: ModelFactory;
  /** The model the main thread checks: the rebuilt one must have this name and action count. */
  readonly modelName: string;
  readonly actionCount: number;
  readonly properties: readonly string[] | undefined;
  readonly symmetry: boolean;
  /** The check's time and memory bounds, for the worker's own `Budget`. */
  readonly bounds: Pick<CheckOptions, 'timeLimitSeconds' | 'maxMemoryBytes' | 'maxMemoryMB'>;
  /** When the search began: `performance.timeOrigin + performance.now()` on the main thread. */
  readonly startedAt: number;
}

/** Ends a search: drop its states (no answer). */
export interface ResetMessage {
  readonly type: 'reset';
}

/** A state of a worker's share of a level, with its observers' values and its id. */
export interface SeedItem {
  readonly state: unknown;
  readonly observed: readonly unknown[];
  readonly id: number;
}

/** One level's step: take the new states of the last expansion, even out shares, expand. */
export interface StepMessage {
  readonly type: 'step';
  /** The states this worker starts from: its share of the level the main thread hands over, in id order. */
  readonly seed?: readonly SeedItem[];
  /** Which records of the last expansion are new states (record indices, ascending) and their ids. */
  readonly commit?: { readonly idx: Int32Array; readonly ids: Int32Array };
  /** States to hand to other workers: the `count` with the highest ids. */
  readonly send?: readonly { readonly to: number; readonly count: number }[];
  /** Workers whose states to wait for. */
  readonly receive?: readonly number[];
  readonly expand: boolean;
  /** Successors are only fingerprinted, not kept: nothing lies beyond the depth bound. */
  readonly atDepthLimit: boolean;
  /** Property ids already decided (not checked again). */
  readonly decided: readonly string[];
}

export interface StepReply {
  readonly type: 'step';
  /** Per state property (invariants, goals, observers): least id of a committed state deciding it, or -1. */
  readonly stateEvents?: readonly number[];
  /**
   * One record per successor that is not a self-loop and whose fingerprint was not recorded
   * before at this level by this worker, in the order (parent id, ordinal).
   */
  readonly records?: { readonly parents: Int32Array; readonly ordinals: Int32Array; readonly fps: BigUint64Array };
  /** The states expanded (ids, ascending) and how many successors each had, self-loops and duplicates included. */
  readonly expandedIds?: Int32Array;
  readonly counts?: Int32Array;
  /** Per action property: the first step (parent id, ordinal) that violates it, or (-1, -1). */
  readonly actionEvents?: readonly number[];
  /** The first expanded state with no successor (when deadlock is checked), or -1. */
  readonly deadlock?: number;
  /** States expanded (all of the share unless stopped). */
  readonly expanded?: number;
  /** The bound (time or memory) that stopped the expansion part way. */
  readonly stopped?: BoundReached;
  /** States this worker holds after the step. */
  readonly frontier: number;
}

export type MainMessage = InitMessage | StepMessage | ResetMessage;

export type WorkerMessage =
  | StepReply
  | { readonly type: 'ready' }
  | { readonly type: 'error'; readonly code?: string; readonly message: string; readonly stack?: string };

/**
 * Posts `message` on `port` and wakes whoever waits on `slots[i]` for it (a thread that takes its
 * messages synchronously: `Atomics.wait` on the slot, then `receiveMessageOnPort`). The slot is
 * bumped after the message is posted, so a waiter that saw the old value finds the message.
 */
export function postAndWake(port: MessagePort, slots: Int32Array<ArrayBufferLike>, i: number, message: unknown, transfer: ArrayBuffer[] = []): void {
  port.postMessage(message, transfer);
  Atomics.add(slots, i, 1);
  Atomics.notify(slots, i);
}
