/**
 * `kubecheck/model`: everything a user needs to check a Kubernetes cluster of their own and to
 * add controllers of their own, with no deep import.
 *
 * ```ts
 * import { action, canWrite, kubernetesScenario, type ClusterExtension, type ClusterState } from 'kubecheck/model';
 * const myOperator: ClusterExtension = { name: 'my-operator', initial: () => 0, actions: [...] };
 * const { model, properties } = kubernetesScenario('node-partition', { extensions: [myOperator] });
 * ```
 */
import type { LivenessProperty, Model } from '../checker/index.js';
import { extensionProperties, resolveConfig, type ClusterConfig, type ClusterExtension, type ClusterState, type ResolveInput } from '../model/index.js';
import { defaultProperties, kubernetesModel } from '../properties/index.js';
import { kubernetesLiveness } from '../properties/liveness.js';

export * from '../model/index.js';
export { action, check, forEachTransition } from '../checker/index.js';
export type { ActionDef, ActionLabel, AnyActionDef, CheckOptions, CheckResult, JsonValue, Model, Property, StepDescription, Trace } from '../checker/index.js';
export { defaultProperties, kubernetesModel, kubernetesProperties, propertyCatalog } from '../properties/index.js';
export type { DefaultSelection, LeftOut, PropertyInfo } from '../properties/index.js';
export { measureTiming, TIMING_EVENTS } from '../properties/timing.js';
export type { TimingEventId, TimingRow, TimingTable } from '../properties/timing.js';

/** What {@link kubernetesScenario} takes: a config as `--config`/`--set` give it, and your controllers. */
export interface KubernetesScenarioInput extends ResolveInput {
  /** Your own controllers, attached to the model with their memory and timers. */
  readonly extensions?: readonly ClusterExtension[];
}

/** A scenario of the Kubernetes model, resolved and built. */
export interface KubernetesScenario {
  readonly scenario: string;
  readonly config: ClusterConfig;
  /** The cluster with every Kubernetes property and the extensions attached. */
  readonly model: Model<ClusterState>;
  /** The property ids `kubecheck check` checks for this scenario and config by default (the extensions' included). */
  readonly properties: readonly string[];
  /** The liveness properties `kubecheck check --liveness` checks (the extensions' included). */
  readonly liveness: readonly LivenessProperty<ClusterState>[];
}

/**
 * Resolves `scenario` with a config (a parsed kubecheck config file and `--set`-style pairs,
 * validated as the command line validates them: a bad field throws a one-line `KubecheckError`)
 * and builds its model with your extensions attached.
 */
export function kubernetesScenario(scenario: string, input: KubernetesScenarioInput = {}): KubernetesScenario {
  const { extensions, ...resolveInput } = input;
  const config = resolveConfig(scenario, resolveInput);
  const model = kubernetesModel(config, { ...(extensions && extensions.length > 0 ? { extensions } : {}) });
  // What the extensions promise is checked by default, beside the cluster's own properties.
  const own = extensionProperties(extensions ?? [], [...model.properties.map((p) => p.id), ...kubernetesLiveness(config).map((p) => p.id)]);
  return {
    scenario,
    config,
    model: { ...model, properties: [...model.properties, ...own.properties] },
    properties: [...defaultProperties(scenario, config, extensions ?? []).ids, ...own.properties.map((p) => p.id)],
    liveness: [...kubernetesLiveness(config), ...own.liveness],
  };
}
