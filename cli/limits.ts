/**
 * Limits on what the command line builds before any search starts. A model's initial state is
 * built in one call, which no search bound can interrupt: `--set cluster.nodes=100000000` would
 * allocate for minutes and then abort on memory. Sizes above these limits are refused at once.
 */
import { configToObject, resolveConfig } from '../model/index.js';
import { fail, ToolErrorCode } from '../reports/errors.js';
import type { ConfigInput } from './subject.js';

/**
 * The most nodes, etcd members, leader-election candidates or replicas of one workload a
 * Kubernetes scenario may have. Far beyond what an exhaustive search can explore (5 nodes with
 * a few faults already take minutes), and small enough that building the model is instant.
 */
export const MAX_CLUSTER_SIZE = 64;

const SIZES = [
  'cluster.nodes',
  'cluster.etcdMembers',
  'cluster.controllerManagerCandidates',
  'cluster.schedulerCandidates',
  'cluster.replicaSetReplicas',
  'cluster.statefulSetReplicas',
] as const;

function at(object: unknown, path: string): unknown {
  let cur = object;
  for (const part of path.split('.')) cur = cur !== null && typeof cur === 'object' ? (cur as Record<string, unknown>)[part] : undefined;
  return cur;
}

/** Refuses (KC213) a Kubernetes config with a count above {@link MAX_CLUSTER_SIZE}, before the model is built. */
export function refuseOversizedCluster(subject: string, scenario: string, input: ConfigInput): void {
  if (subject !== 'kubernetes') return;
  const config = configToObject(resolveConfig(scenario, input));
  const list = at(config, 'cluster.workloads');
  const sizes: [string, unknown][] = SIZES.map((key) => [key, at(config, key)]);
  if (Array.isArray(list)) {
    sizes.push(['cluster.workloads (their number)', list.length]);
    list.forEach((w, i) => sizes.push([`cluster.workloads[${i}].replicas`, at(w, 'replicas')]));
  }
  for (const [key, value] of sizes) {
    if (typeof value === 'number' && value > MAX_CLUSTER_SIZE) {
      fail(ToolErrorCode.badParameterValue, `${key} (${value}) is above the limit of ${MAX_CLUSTER_SIZE} that kubecheck builds a model for; an exhaustive check is out of reach long before (5 nodes with a few faults take minutes)`);
    }
  }
}

const SIZE_UNITS: Record<string, number> = {
  b: 1,
  kb: 1e3, mb: 1e6, gb: 1e9, tb: 1e12,
  k: 2 ** 10, m: 2 ** 20, g: 2 ** 30, t: 2 ** 40,
  kib: 2 ** 10, mib: 2 ** 20, gib: 2 ** 30, tib: 2 ** 40,
};

/** Parses a memory size with its unit (`2GiB`, `500MB`, `4g`) to bytes; refuses a bare number (KC200). */
export function parseSize(name: string): (text: string) => number {
  return (text: string) => {
    const m = /^\s*(\d+(?:\.\d+)?)\s*([a-zA-Z]+)\s*$/.exec(text);
    const unit = m ? SIZE_UNITS[m[2].toLowerCase()] : undefined;
    if (!m || unit === undefined) {
      fail(ToolErrorCode.badOption, `${name}: ${JSON.stringify(text)} is not a size with a unit; write e.g. 2GiB, 500MB, 4g`);
    }
    const bytes = Math.floor(Number(m[1]) * unit);
    if (!(bytes >= 1)) fail(ToolErrorCode.badOption, `${name}: ${JSON.stringify(text)} must be more than 0 bytes`);
    return bytes;
  };
}

/** The most worker threads `--workers` accepts. */
export const MAX_WORKERS = 64;

/** Parses `--workers`: an integer from 1 to {@link MAX_WORKERS} (KC200). */
export function parseWorkers(text: string): number {
  const t = text.trim();
  const n = /^\d+$/.test(t) ? Number(t) : NaN;
  if (!(n >= 1 && n <= MAX_WORKERS)) fail(ToolErrorCode.badOption, `--workers: ${JSON.stringify(text)} must be an integer from 1 to ${MAX_WORKERS}`);
  return n;
}
