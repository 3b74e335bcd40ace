/**
 * How the worker threads of `kubecheck check --workers N` rebuild the model: from the scenario
 * and the resolved config in JSON form (what `--json` prints and `replay` reads back), through
 * the same subject that built it on the main thread. The Kubernetes subject resolves the config
 * with `resolveConfig` and builds the model with `kubernetesModel`; TwoPhase from `rms` and `bug`.
 */
import type { JsonValue, Model, ModelFactory } from '../checker/index.js';
import { loadExtensions } from './extensions.js';
import { resolveWithExtensions, subjectOf } from './subjects.js';

export interface ModelOfConfigArgs {
  readonly scenario: string;
  readonly config: JsonValue;
  /** The users' extension modules, by absolute path, loaded again in each thread (a thread shares no code objects). */
  readonly extensions?: readonly string[];
}

/** The model of a resolved config (the export a worker calls), with the extensions of the modules named. */
export async function modelOfConfig(args: ModelOfConfigArgs): Promise<Model<unknown>> {
  const { subject, scenario } = await subjectOf(args.scenario);
  if (args.extensions === undefined || args.extensions.length === 0) return subject.resolve(scenario, { file: args.config }).model;
  return resolveWithExtensions(subject, scenario, { file: args.config }, await loadExtensions(args.extensions)).model;
}

/** The factory descriptor for the model of `scenario` with its resolved `config` and the extension modules at `extensions` (absolute paths). */
export function modelFactoryOf(scenario: string, config: JsonValue, extensions: readonly string[] = []): ModelFactory {
  return { module: import.meta.url, export: 'modelOfConfig', args: { scenario, config, ...(extensions.length === 0 ? {} : { extensions: [...extensions] }) } };
}
