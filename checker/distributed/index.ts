/**
 * The distributed breadth-first search's entries: `checkDistributed` on the coordinator,
 * `serveWorker` on each worker, and `checkInMemory` (both in one process over the `memory`
 * transport, adversarial scheduler included) for tests.
 */
import { CheckerErrorCode, fail, type KubecheckError } from '../errors.js';
import type { Model } from '../model.js';
import { validateOptions, type CheckOptions } from '../options.js';
import type { CheckResult } from '../result.js';
import { DistributedSearch, type ClusterOptions } from './coordinator.js';
import { MemoryNetwork, type MemoryNetworkOptions } from './memoryTransport.js';
import { Endpoint, type Transport } from './transport.js';
import { DistributedWorker, type WorkerOptions } from './worker.js';

export type { ClusterOptions } from './coordinator.js';
export type { Transport } from './transport.js';
export type { MemoryNetworkOptions } from './memoryTransport.js';
export type { InitHeader, WorkerOptions } from './worker.js';
export { MemoryNetwork } from './memoryTransport.js';

/**
 * Refuses what a distributed search does not do, with one line (KC016): depth-first search,
 * threads, a visitor, the exact collision check. (Liveness is refused by the callers: it is
 * decided on the whole graph in one process.)
 */
export function validateDistributed(options: CheckOptions): void {
  if (options.strategy === 'dfs') fail(CheckerErrorCode.distributedUnsupported, 'a distributed search is breadth-first; depth-first search runs on one machine');
  if ((options.workers ?? 1) > 1) fail(CheckerErrorCode.distributedUnsupported, 'a distributed search runs one worker per process; threads (workers > 1) are for one machine');
  if (options.visitor) fail(CheckerErrorCode.distributedUnsupported, 'a visitor needs the states in one process; a distributed search keeps them on its workers');
  if (options.detectCollisions) fail(CheckerErrorCode.distributedUnsupported, 'detectCollisions keeps the exact encodings in one process; not in a distributed search');
  validateOptions(options);
}

/**
 * One breadth-first search over the cluster's workers, from the coordinator: the one-thread
 * search's counts, verdicts and counterexamples. The workers are told to stop at the end, and on
 * an error (a worker lost, records lost: a coded error, never a count).
 */
export async function checkDistributed<S>(model: Model<S>, options: CheckOptions, cluster: ClusterOptions, profile?: (search: DistributedProfile) => void): Promise<CheckResult<S>> {
  let search: DistributedSearch<S>;
  try {
    validateDistributed(options);
    if (!Number.isInteger(cluster.workers) || cluster.workers < 1) fail(CheckerErrorCode.invalidBound, `a distributed search needs at least one worker, got ${cluster.workers}`);
    search = new DistributedSearch(model, options, cluster);
  } catch (e) {
    // Refused before it began: the workers waiting for it are let go.
    const endpoint = new Endpoint(cluster.transport);
    for (let w = 0; w < cluster.workers; w++) endpoint.send(w, { t: 'stop' });
    throw e;
  }
  try {
    return await search.search();
  } finally {
    profile?.({ levelWidths: search.levelWidths, levelMs: search.levelMs, workerCpu: search.workerCpu });
  }
}

/** What a distributed search measured of itself: per level, its width and wall time; per worker, its CPU time. */
export interface DistributedProfile {
  readonly levelWidths: readonly number[];
  readonly levelMs: readonly number[];
  readonly workerCpu: readonly number[];
}

/** Serves a coordinator's search until it says stop (or the transport fails). */
export function serveWorker(transport: Transport, options: WorkerOptions): Promise<void> {
  return new DistributedWorker(transport, options).serve();
}

/**
 * The distributed search with `workers` workers in this process, over the memory transport (its
 * scheduler as `network` says). The workers use `model` itself (no factory).
 */
export async function checkInMemory<S>(model: Model<S>, options: CheckOptions, workers: number, network: MemoryNetworkOptions = {}): Promise<CheckResult<S>> {
  const net = new MemoryNetwork(workers + 1, network);
  const served = net.transports.slice(0, workers).map((t) => serveWorker(t, { model: model as Model<unknown> }).catch((e: KubecheckError) => e));
  try {
    return await checkDistributed(model, options, { transport: net.transports[workers], workers });
  } finally {
    await Promise.all(served);
    await Promise.all(net.transports.map((t) => t.close()));
  }
}
