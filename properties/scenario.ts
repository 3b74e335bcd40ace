/**
 * A scenario of the Kubernetes model, resolved and built once, with everything a check of it
 * needs: the config (typed, and as JSON for reports and replay), the model with your extensions
 * attached, the properties checked by default (and those left out, with why), the liveness
 * properties and the config's warnings. The command line, `kubecheck/model` and
 * `kubecheck/testing` all build scenarios with it.
 */
import type { JsonValue, LivenessProperty, Model } from '../checker/index.js';
import { configToObject, configWarnings, extensionProperties, resolveConfig, type ClusterConfig, type ClusterExtension, type ClusterState, type ResolveInput } from '../model/index.js';
import { defaultProperties, kubernetesModel, type LeftOut } from './index.js';
import { ModelErrorCode, modelError, refuseUnknownOptions } from '../model/errors.js';
import { kubernetesLiveness } from './liveness.js';

/** What {@link kubernetesScenario} takes: a config as `--config`/`--set` give it, and your controllers. */
export interface KubernetesScenarioInput extends ResolveInput {
  /**
   * A kubecheck config as a file gives it, parsed (`{ cluster: { nodes: 2 } }`), or the `config`
   * of another scenario; `file` is the same (give one of them).
   */
  readonly config?: unknown;
  /** Your own controllers (and operators), attached to the model with their memory, timers and properties. */
  readonly extensions?: readonly ClusterExtension[];
}

/** A scenario of the Kubernetes model, resolved and built. */
export interface KubernetesScenario {
  readonly scenario: string;
  /** The resolved config, typed (durations in seconds, nodes by index). */
  readonly clusterConfig: ClusterConfig;
  /** The config in its JSON form: what reports and ITF traces save, and `{ file: config }` resolves back. */
  readonly config: JsonValue;
  /** The cluster with every Kubernetes property and the extensions' own attached. */
  readonly model: Model<ClusterState>;
  /** The property ids `kubecheck check` checks for this scenario and config by default (the extensions' included). */
  readonly properties: readonly string[];
  /** Properties the default selection leaves out, each with the reason. */
  readonly leftOut: readonly LeftOut[];
  /** The liveness properties `kubecheck check --liveness` checks (the extensions' included). */
  readonly liveness: readonly LivenessProperty<ClusterState>[];
  /** Config warnings: what Kubernetes accepts but documents as unsafe. */
  readonly warnings: readonly string[];
}

/**
 * Resolves `scenario` with a config (a parsed kubecheck config file and `--set`-style pairs,
 * validated as the command line validates them: a bad field throws a one-line `KubecheckError`)
 * and builds its model with your extensions attached. An extension's property whose id is a
 * built-in one, or another extension's, is refused.
 */
export function kubernetesScenario(scenario: string, input: KubernetesScenarioInput = {}): KubernetesScenario {
  refuseUnknownOptions('kubernetesScenario', input, ['config', 'file', 'set', 'allowUnsafe', 'extensions'], {
    extend: 'add your controllers as extensions: [...] (ClusterExtension, or an operator of kubecheck/operator)',
  });
  const { extensions = [], config, ...resolveInput } = input;
  if (config !== undefined && resolveInput.file !== undefined) modelError(ModelErrorCode.invalidValue, 'kubernetesScenario: give the config as config or as file, not both');
  return scenarioOf(scenario, resolveConfig(scenario, config === undefined ? resolveInput : { ...resolveInput, file: config }), extensions);
}

/** The scenario of a config already resolved (`resolveConfig`), with the extensions attached. */
export function scenarioOf(scenario: string, clusterConfig: ClusterConfig, extensions: readonly ClusterExtension[] = []): KubernetesScenario {
  const config = configToObject(clusterConfig) as JsonValue;
  // The scenario and config travel with the model: reports and traces of any check of it record them.
  const model = { ...kubernetesModel(clusterConfig, extensions.length > 0 ? { extensions } : {}), origin: { scenario, config } };
  const liveness = kubernetesLiveness(clusterConfig);
  // What the extensions promise is checked by default, beside the cluster's own properties, and
  // what they say they cause counts for the default selection.
  const own = extensionProperties(extensions, [...model.properties.map((p) => p.id), ...liveness.map((p) => p.id)]);
  const selection = defaultProperties(scenario, clusterConfig, extensions);
  const properties = [...selection.ids, ...own.properties.map((p) => p.id)];
  return {
    scenario,
    clusterConfig,
    config,
    model: { ...model, properties: [...model.properties, ...own.properties], defaultProperties: properties },
    properties,
    leftOut: selection.leftOut,
    liveness: [...liveness, ...own.liveness],
    warnings: configWarnings(clusterConfig),
  };
}
