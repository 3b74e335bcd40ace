/**
 * The Kubernetes control plane as a subject of the command line: scenarios, parameters and
 * configs from `model/`, properties from `properties/`. Loaded on first use, so `kubecheck list`
 * and the example start fast and a missing model is one clear line (KC214), not a stack trace.
 */
import type { JsonValue, Model } from '../checker/index.js';
import { fail, KubecheckError, ToolErrorCode } from '../reports/errors.js';
import type { ConfigInput, ParameterInfo, PropertyInfo, Resolved, ScenarioInfo, Subject } from './subject.js';

/** The parts of `model/index.ts` and `properties/index.ts` the command line uses. */
interface KubernetesModule {
  readonly scenarios: readonly ScenarioInfo[];
  parameters(): readonly ParameterInfo[];
  resolveConfig(scenario: string, input: ConfigInput): unknown;
  configToObject(config: unknown): unknown;
  clusterModel(config: unknown): Model<unknown>;
}
interface KubernetesProperties {
  readonly propertyCatalog: readonly PropertyInfo[];
  kubernetesModel(config: unknown): Model<unknown>;
  defaultPropertyIds(scenario: string, config: unknown): readonly string[];
}

// Specifiers in variables: the model is written beside the command line and type-checked on its own.
const MODEL = '../model/index.js';
const PROPERTIES = '../properties/index.js';

function missing(e: unknown): boolean {
  return (e as NodeJS.ErrnoException).code === 'ERR_MODULE_NOT_FOUND';
}

/** Without `properties/` (a partial checkout), the model's own properties stand in for the catalogue. */
function modelOnly(m: KubernetesModule): KubernetesProperties {
  const probe = m.clusterModel(m.resolveConfig(m.scenarios[0].name, {}));
  return {
    propertyCatalog: probe.properties.map((q) => ({ id: q.id, kind: q.kind, description: q.description, ...(q.source ? { source: q.source } : {}) })),
    kubernetesModel: (config) => m.clusterModel(config),
    defaultPropertyIds: (_scenario, config) => m.clusterModel(config).properties.map((q) => q.id),
  };
}

async function load(): Promise<{ m: KubernetesModule; p: KubernetesProperties }> {
  let m: KubernetesModule;
  try {
    m = (await import(MODEL)) as KubernetesModule;
  } catch (e) {
    if (missing(e)) fail(ToolErrorCode.modelUnavailable, `the Kubernetes model is not available in this checkout (${(e as Error).message.split('\n')[0]})`);
    throw e;
  }
  try {
    return { m, p: (await import(PROPERTIES)) as KubernetesProperties };
  } catch (e) {
    if (missing(e)) return { m, p: modelOnly(m) };
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
      let config: unknown;
      try {
        config = m.resolveConfig(scenario, input);
      } catch (e) {
        // The model speaks of its API's `allowUnsafe`; on the command line that is a flag.
        if (e instanceof KubecheckError) throw new KubecheckError(e.code, e.message.slice(e.code.length + 2).replace(/pass allowUnsafe/g, 'pass --allow-unsafe-config'));
        throw e;
      }
      return {
        scenario,
        config: m.configToObject(config) as JsonValue,
        model: p.kubernetesModel(config),
        defaultProperties: p.defaultPropertyIds(scenario, config),
      };
    },
  };
}
