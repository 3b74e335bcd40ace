/** Shared helpers of the model tests: run a scenario exhaustively, read statuses. */
import { check, type CheckOptions, type CheckResult, type Property } from '../../checker/index.js';
import { resolveConfig, type ClusterConfig, type ClusterState } from '../../model/index.js';
import { defaultPropertyIds, kubernetesModel } from '../../properties/index.js';

export interface Run {
  readonly config: ClusterConfig;
  readonly result: CheckResult<ClusterState>;
  readonly status: Record<string, string>;
}

/** Checks `scenario` with `set` overrides; `properties` defaults to the scenario's defaults. */
export function run(scenario: string, set: Record<string, string> = {}, properties?: readonly string[], options: CheckOptions = {}): Run {
  const config = resolveConfig(scenario, { set, allowUnsafe: true });
  const model = kubernetesModel(config);
  const result = check(model, { properties: properties ?? defaultPropertyIds(scenario, config), ...options });
  const status: Record<string, string> = {};
  for (const p of result.properties) status[p.id] = p.status;
  return { config, result, status };
}

/** Checks `scenario` with `set` for the named properties and extra ones written in the test. */
export function checkWith(scenario: string, set: Record<string, string>, properties: readonly (string | Property<ClusterState>)[], options: CheckOptions = {}) {
  const config = resolveConfig(scenario, { set, allowUnsafe: true });
  const base = kubernetesModel(config);
  const extra = properties.filter((p): p is Property<ClusterState> => typeof p !== 'string');
  const model = { ...base, properties: [...base.properties, ...extra] };
  const ids = properties.map((p) => (typeof p === 'string' ? p : p.id));
  const result = check(model, { properties: ids, ...options });
  const status = Object.fromEntries(result.properties.map((p) => [p.id, p.status]));
  return { config, model, result, status };
}

/** The counterexample of `id` as (action name, summary) pairs, ticks left out. */
export function steps(r: Run, id: string): { name: string; actor: string; summary: string }[] {
  const trace = r.result.properties.find((p) => p.id === id)?.trace;
  if (trace === undefined) return [];
  const model = kubernetesModel(r.config);
  return trace.actions.map((a, i) => ({ name: a.name, ...model.describeStep!(trace.states[i], a, trace.states[i + 1]) }));
}

/** Short timers where the logic does not depend on the defaults: Lease renewed every 1 s, 1 s monitor passes, 2 s grace, 3 s tolerations. */
export const SMALL_TIMERS: Readonly<Record<string, string>> = {
  'kubelet.nodeLeaseDurationSeconds': '4',
  'kubeControllerManager.nodeMonitorPeriod': '1s',
  'kubeControllerManager.nodeMonitorGracePeriod': '2s',
  'kubeApiserver.defaultUnreachableTolerationSeconds': '3',
  'kubeApiserver.defaultNotReadyTolerationSeconds': '3',
};
