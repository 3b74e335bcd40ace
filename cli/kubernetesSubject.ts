/**
 * The Kubernetes control plane as a subject of the command line: scenarios, parameters and
 * configs from `model/`, properties from `properties/`. Loaded on first use, so `kubecheck list`
 * and the example start fast and a missing model is one clear line (KC214), not a stack trace.
 */
import type { JsonValue, Model } from '../checker/index.js';
import { fail, ToolErrorCode } from '../reports/errors.js';
import type { ConfigInput, ParameterInfo, PropertyInfo, Resolved, ScenarioInfo, Subject } from './subject.js';

/** The parts of `model/index.ts` and `properties/index.ts` the command line uses. */
interface KubernetesModule {
  readonly scenarios: readonly ScenarioInfo[];
  parameters(): readonly ParameterInfo[];
  resolveConfig(scenario: string, input: ConfigInput): unknown;
  configToObject(config: unknown): unknown;
}
interface KubernetesProperties {
  readonly propertyCatalog: readonly PropertyInfo[];
  kubernetesModel(config: unknown): Model<unknown>;
  defaultPropertyIds(scenario: string, config: unknown): readonly string[];
}

// Specifiers in variables: the model is written beside the command line and type-checked on its own.
const MODEL = '../model/index.js';
const PROPERTIES = '../properties/index.js';

async function load(): Promise<{ m: KubernetesModule; p: KubernetesProperties }> {
  try {
    const [m, p] = await Promise.all([import(MODEL) as Promise<KubernetesModule>, import(PROPERTIES) as Promise<KubernetesProperties>]);
    return { m, p };
  } catch (e) {
    const err = e as NodeJS.ErrnoException;
    if (err.code === 'ERR_MODULE_NOT_FOUND') fail(ToolErrorCode.modelUnavailable, `the Kubernetes model is not available in this checkout (${err.message.split('\n')[0]})`);
    throw e;
  }
}

/** Loads the Kubernetes subject. */
export async function kubernetesSubject(): Promise<Subject> {
  const { m, p } = await load();
  return {
    name: 'kubernetes',
    scenarios: m.scenarios,
    parameters: () => m.parameters(),
    properties: p.propertyCatalog,
    participants: ['kubelet', 'kube-apiserver', 'etcd', 'kube-scheduler', 'kube-controller-manager'],
    resolve(scenario: string, input: ConfigInput): Resolved {
      const config = m.resolveConfig(scenario, input);
      return {
        scenario,
        config: m.configToObject(config) as JsonValue,
        model: p.kubernetesModel(config),
        defaultProperties: p.defaultPropertyIds(scenario, config),
      };
    },
  };
}
