/**
 * The Kubernetes control plane as a subject of the command line: scenarios, parameters and
 * configs from `model/`, properties from `properties/`, each scenario built by `kubernetesScenario`.
 */
import type { ClusterExtension } from '../model/index.js';
import { parameters, resolveConfig, scenarios } from '../model/index.js';
import { propertyCatalog } from '../properties/index.js';
import { kubernetesLiveness, livenessFairness } from '../properties/liveness.js';
import { kubernetesScenario } from '../properties/scenario.js';
import type { ConfigInput, Resolved, Subject } from './subjects.js';

/** The Kubernetes subject. */
export const kubernetesSubject: Subject = {
  name: 'kubernetes',
  scenarios,
  parameters,
  properties: propertyCatalog,
  liveness: kubernetesLiveness(resolveConfig('node-failure')).map((p) => ({ id: p.id, kind: p.kind, description: p.description, fairness: livenessFairness })),
  participants: ['kubelet', 'kube-apiserver', 'etcd', 'kube-scheduler', 'kube-controller-manager'],
  resolve(scenario: string, input: ConfigInput, extensions: readonly ClusterExtension[] = []): Resolved {
    const built = kubernetesScenario(scenario, { ...input, extensions });
    return {
      scenario,
      config: built.config,
      model: built.model as Resolved['model'],
      defaultProperties: built.properties,
      leftOut: built.leftOut,
      warnings: built.warnings,
      liveness: built.liveness as unknown as Resolved['liveness'],
    };
  },
};
