/**
 * The caps on what kubecheck builds a Kubernetes model for, in one place for every way in: the
 * command line (`--set`, a config file, a trace's #meta.config) and the library
 * (`resolveConfig`, `kubernetesScenario`, `kubecheck/testing`), which refuse with the same codes.
 * A model's initial state is built in one call, which no search bound can interrupt:
 * `cluster.nodes: 1e9` would allocate for minutes and then abort the process on memory. Sizes
 * above these caps are refused at once (KC213), before anything is built.
 */
import type { ClusterConfig } from './config.js';
import { ModelErrorCode, modelError } from './errors.js';
import { MAX_COUNT, parameterSpecs, parameterValue } from './parameters.js';
import { fail, ToolErrorCode } from '../reports/errors.js';

/**
 * The most nodes, etcd members, kube-apiserver instances, leader-election candidates or replicas
 * of one workload a Kubernetes scenario may have, and the largest fault budget: the bound every
 * count parameter declares (`max` in model/parameters.ts).
 */
export const MAX_CLUSTER_SIZE = MAX_COUNT;

/** The count parameters and their bounds, as the parameter declarations give them. */
export function countBounds(): readonly { readonly key: string; readonly max: number }[] {
  return parameterSpecs().flatMap((s) => (s.type === 'integer' && s.max !== null ? [{ key: s.key, max: s.max }] : []));
}

function at(object: unknown, path: string): unknown {
  let cur = object;
  for (const part of path.split('.')) cur = cur !== null && typeof cur === 'object' && Object.hasOwn(cur, part) ? (cur as Record<string, unknown>)[part] : undefined;
  return cur;
}

/**
 * Refuses (KC213) a Kubernetes config with a count above its declared bound (every count
 * parameter, the number of workloads and each one's replicas), before the model is built, and
 * (KC104) a kubernetesVersion that is no 1.x release: the values as given here, before they are
 * resolved, and the resolved config in {@link refuseOversizedConfig} (`resolveConfig` calls both,
 * whoever calls it).
 */
export function refuseOversizedInput(input: { readonly file?: unknown; readonly set?: Readonly<Record<string, unknown>> }): void {
  // The values as given first, so that no other rule (nor the work it does) comes before the bound.
  for (const { key, max } of countBounds()) {
    for (const raw of [at(input.file, key), input.set !== undefined && Object.hasOwn(input.set, key) ? input.set[key] : undefined]) {
      const n = typeof raw === 'number' ? raw : typeof raw === 'string' && /^\s*\d+\s*$/.test(raw) ? Number(raw) : undefined;
      if (n !== undefined && Number.isSafeInteger(n) && n > max) tooLarge(key, raw, max); // not a count at all: its own rule speaks
    }
  }
  // A list of workloads too long is refused before each entry is read (reading them is quadratic).
  const given = at(input.file, 'cluster.workloads');
  if (Array.isArray(given) && given.length > MAX_COUNT) tooLarge('cluster.workloads (their number)', given.length, MAX_COUNT);
}

/** The resolved config's sizes against their bounds (KC213) and its kubernetesVersion (KC104): see {@link refuseOversizedInput}. */
export function refuseOversizedConfig(resolved: ClusterConfig): void {
  // The model's version-dependent defaults are those of Kubernetes 1.x; "9.99" is no release of it.
  const version = /^v?(\d+)\.(\d+)/.exec(resolved.kubernetesVersion);
  if (version !== null && Number(version[1]) !== 1) {
    modelError(ModelErrorCode.invalidValue, `kubernetesVersion: "${resolved.kubernetesVersion.slice(0, 30)}" is not a Kubernetes release kubecheck models; give a 1.x version such as "1.32"`);
  }
  // The counts first: the default workloads' replicas are the scalar keys', named as such.
  const sizes: [string, unknown, number][] = countBounds().map(({ key, max }) => [key, parameterValue(resolved, key), max]);
  const list = resolved.cluster.workloads;
  sizes.push(['cluster.workloads (their number)', list.length, MAX_COUNT]);
  list.forEach((w, i) => sizes.push([`cluster.workloads[${i}].replicas`, w.replicas, MAX_COUNT]));
  for (const [key, value, max] of sizes) if (typeof value === 'number' && value > max) tooLarge(key, value, max);
}

function tooLarge(key: string, value: unknown, max: number): never {
  const shown = typeof value === 'string' ? value.trim() : String(value);
  return fail(ToolErrorCode.badParameterValue, `${key} (${shown.length > 30 ? `${shown.slice(0, 27)}...` : shown}) is above the limit of ${max} that kubecheck builds a model for; an exhaustive check is out of reach long before (5 nodes with a few faults take minutes)`);
}
