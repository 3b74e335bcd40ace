/**
 * The Kubernetes control plane as a subject of the command line: scenarios, parameters and
 * configs from `model/`, properties from `properties/`, each scenario built by `kubernetesScenario`.
 */
import type { ClusterConfig, ClusterExtension } from '../model/index.js';
import { parameters, resolveConfig, scenarios } from '../model/index.js';
import { propertyCatalog } from '../properties/index.js';
import { kubernetesLiveness, livenessFairness } from '../properties/liveness.js';
import { scenarioOf } from '../properties/scenario.js';
import { refuseOversizedConfig } from './limits.js';
import type { ConfigInput, Resolved, Subject, ValidatedConfig } from './subjects.js';

/** The Kubernetes subject's validated config: resolved, its sizes and version refused. */
function validated(scenario: string, input: ConfigInput): ClusterConfig {
  const clusterConfig = resolveConfig(scenario, input);
  refuseOversizedConfig(clusterConfig);
  return clusterConfig;
}

/** The Kubernetes subject. */
export const kubernetesSubject: Subject = {
  name: 'kubernetes',
  scenarios,
  parameters,
  properties: propertyCatalog,
  liveness: kubernetesLiveness(resolveConfig('node-failure')).map((p) => ({ id: p.id, kind: p.kind, description: p.description, fairness: livenessFairness })),
  livenessHeading: 'the components\' work, time and Lease takeover are strongly fair',
  participants: ['kubelet', 'kube-apiserver', 'etcd', 'kube-scheduler', 'kube-controller-manager'],
  validate: (scenario: string, input: ConfigInput): ValidatedConfig => validated(scenario, input),
  resolve(scenario: string, input: ConfigInput, extensions: readonly ClusterExtension[] = [], given?: ValidatedConfig): Resolved {
    // Resolved once; its sizes are refused before the model is built.
    const clusterConfig = (given as ClusterConfig | undefined) ?? validated(scenario, input);
    const built = scenarioOf(scenario, clusterConfig, extensions);
    return {
      scenario,
      config: built.config,
      clusterConfig,
      model: built.model as Resolved['model'],
      defaultProperties: built.properties,
      leftOut: built.leftOut,
      warnings: built.warnings,
      liveness: built.liveness as unknown as Resolved['liveness'],
    };
  },
};
