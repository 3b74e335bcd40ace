/**
 * How the worker threads of `kubecheck check --workers N` rebuild the model: from the scenario
 * and the resolved config in JSON form (what `--json` prints and `replay` reads back), through
 * the same subject that built it on the main thread. The Kubernetes subject resolves the config
 * with `resolveConfig` and builds the model with `kubernetesModel`; TwoPhase from `rms` and `bug`.
 */
import type { JsonValue, Model, ModelFactory } from '../checker/index.js';
import { subjectOf } from './subjects.js';

export interface ModelOfConfigArgs {
  readonly scenario: string;
  readonly config: JsonValue;
}

/** The model of a resolved config (the export a worker calls). */
export async function modelOfConfig(args: ModelOfConfigArgs): Promise<Model<unknown>> {
  const { subject, scenario } = await subjectOf(args.scenario);
  return subject.resolve(scenario, { file: args.config }).model;
}

/** The factory descriptor for the model of `scenario` with its resolved `config`. */
export function modelFactoryOf(scenario: string, config: JsonValue): ModelFactory {
  return { module: import.meta.url, export: 'modelOfConfig', args: { scenario, config } };
}
