/**
 * The Kubernetes control plane as a subject of the command line: scenarios, parameters and
 * configs from `model/`, properties from `properties/`.
 */
import type { JsonValue } from '../checker/index.js';
import { configToObject, configWarnings, parameters, resolveConfig, scenarios } from '../model/index.js';
import { defaultProperties, kubernetesModel, propertyCatalog } from '../properties/index.js';
import { kubernetesLiveness, livenessFairness } from '../properties/liveness.js';
import type { ConfigInput, Resolved, Subject } from './subject.js';

/** The Kubernetes subject. */
export const kubernetesSubject: Subject = {
  name: 'kubernetes',
  scenarios,
  parameters,
  properties: propertyCatalog,
  liveness: kubernetesLiveness(resolveConfig('node-failure')).map((p) => ({ id: p.id, kind: p.kind, description: p.description, fairness: livenessFairness })),
  participants: ['kubelet', 'kube-apiserver', 'etcd', 'kube-scheduler', 'kube-controller-manager'],
  resolve(scenario: string, input: ConfigInput): Resolved {
    const config = resolveConfig(scenario, input);
    const selection = defaultProperties(scenario, config);
    return {
      scenario,
      config: configToObject(config) as JsonValue,
      model: kubernetesModel(config) as Resolved['model'],
      defaultProperties: selection.ids,
      leftOut: selection.leftOut,
      warnings: configWarnings(config),
      liveness: kubernetesLiveness(config) as unknown as Resolved['liveness'],
    };
  },
};
