/**
 * `--model FILE`: a user's own model, any system, run by every command that searches a model
 * (check, simulate, replay, graph, explore, list). The module (TypeScript runs through tsx, as
 * `--extension` does) exports a `Model` as its default export or as `model`, or a factory
 * `(params) => Model` there, which receives the `--set key=value` pairs. It may also export
 * `liveness` (liveness properties, or a function of the parameters giving them) and `parameters`
 * (the keys its factory reads, each with a default and a description: `--set` then refuses any
 * other key and `list parameters` shows them).
 *
 * A run of a model records its name as the scenario and its parameters as the config, so that an
 * ITF trace of it replays with `replay --model FILE`, and a trace of another model is refused.
 */
import { isAbsolute, resolve as resolvePath } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { JsonValue, LivenessProperty, Model, ModelFactory } from '../checker/index.js';
import { ensureTypeScriptLoader } from '../checker/typescriptLoader.js';
import { fail, ToolErrorCode } from '../reports/errors.js';
import { describeThrown, checkLocalImports, importBounded, MAX_EXTENSION_BYTES } from './extensions.js';
import { checkRegularFile } from './input.js';
import type { LivenessInfo, PropertyInfo, Resolved, Subject, SubjectParameter } from './subjects.js';

/** The parameters of a model factory: the `--set key=value` pairs, as given. */
export type ModelParameters = Readonly<Record<string, string>>;

/** A module's model, as it exports it: a model, or a factory of one from its parameters. */
type Exported = Model<unknown> | ((params: ModelParameters) => Model<unknown> | Promise<Model<unknown>>);

/** A `--model` module, loaded. */
export interface LoadedModelModule {
  /** The path as the user gave it (messages). */
  readonly path: string;
  /** Its file URL (workers import it again). */
  readonly href: string;
  readonly exported: Exported;
  /** The parameters it declares, if it does (`export const parameters = [...]`). */
  readonly parameters?: readonly SubjectParameter[];
  readonly liveness?: readonly LivenessProperty<unknown>[] | ((params: ModelParameters) => readonly LivenessProperty<unknown>[]);
}

/** Whether a value has the shape of a {@link Model}: a name, initial states, actions and properties. */
export function isModel(v: unknown): v is Model<unknown> {
  if (v === null || typeof v !== 'object') return false;
  const m = v as Record<string, unknown>;
  return typeof m.name === 'string' && typeof m.initialStates === 'function' && Array.isArray(m.actions) && Array.isArray(m.properties);
}

/** A module's model or factory: its default export when that is one, else its `model` export. */
function exportedOf(module: Readonly<Record<string, unknown>>): unknown {
  return module.default !== undefined && (isModel(module.default) || typeof module.default === 'function') ? module.default : module.model;
}

/** What a module exports, in a few words, for a refusal. */
function exportsOf(module: Readonly<Record<string, unknown>>): string {
  return Object.keys(module).map((k) => `${k} (${typeof module[k]})`).join(', ') || 'none';
}

/** The declared parameters, checked: a list of `{ key, defaultValue, description }`. */
function declaredParameters(path: string, v: unknown): readonly SubjectParameter[] | undefined {
  if (v === undefined) return undefined;
  const ok = Array.isArray(v) && v.every((p) => p !== null && typeof p === 'object' && typeof (p as SubjectParameter).key === 'string'
    && typeof (p as SubjectParameter).defaultValue === 'string' && typeof (p as SubjectParameter).description === 'string');
  if (!ok) fail(ToolErrorCode.badModel, `model ${path} exports parameters that are not a list of { key, defaultValue, description } (strings)`);
  return (v as SubjectParameter[]).map((p) => ({ key: p.key, defaultValue: p.defaultValue, description: p.description }));
}

/**
 * Loads a `--model` module: KC201 when the file cannot be read, KC220 when it throws, ends the
 * process, does not finish loading in time or exports no model nor factory.
 */
export async function loadModelModule(path: string): Promise<LoadedModelModule> {
  const abs = isAbsolute(path) ? path : resolvePath(process.cwd(), path);
  checkRegularFile(path, 'model', MAX_EXTENSION_BYTES, 'load');
  checkLocalImports(abs, path, 'model');
  const href = pathToFileURL(abs).href;
  await ensureTypeScriptLoader(href);
  const module = await importBounded(path, href, { noun: 'model', code: ToolErrorCode.badModel });
  let exported: unknown;
  let liveness: unknown;
  let parameters: unknown;
  try {
    exported = exportedOf(module);
    liveness = module.liveness;
    parameters = module.parameters;
  } catch (e) {
    return fail(ToolErrorCode.badModel, `model ${path} failed while its exports were read: ${describeThrown(e)}`);
  }
  if (!isModel(exported) && typeof exported !== 'function') {
    fail(ToolErrorCode.badModel, `model ${path} exports no Model (an object with name, initialStates, actions and properties) nor a factory (params) => Model, as its default export or as "model"; exports: ${exportsOf(module)}`);
  }
  if (liveness !== undefined && !Array.isArray(liveness) && typeof liveness !== 'function') {
    fail(ToolErrorCode.badModel, `model ${path} exports liveness that is neither a list of liveness properties nor a function of the parameters giving one`);
  }
  const declared = declaredParameters(path, parameters);
  return {
    path,
    href,
    exported: exported as Exported,
    ...(declared === undefined ? {} : { parameters: declared }),
    ...(liveness === undefined ? {} : { liveness: liveness as LoadedModelModule['liveness'] }),
  };
}

/**
 * The parameters a run passes to the factory: the declared ones' defaults under the `--set` pairs.
 * A key the module does not declare (when it declares its parameters) is KC212; `--set` on a
 * module that exports a model rather than a factory is KC212 too (it takes none).
 */
export function modelParameters(loaded: LoadedModelModule, set: ModelParameters | undefined): ModelParameters {
  const given = Object.entries(set ?? {});
  if (typeof loaded.exported !== 'function') {
    if (given.length > 0) fail(ToolErrorCode.unknownParameter, `--set ${given[0][0]}: model ${loaded.path} exports a Model, not a factory (params) => Model, so it takes no parameters`);
    return {};
  }
  const out: Record<string, string> = {};
  for (const p of loaded.parameters ?? []) out[p.key] = p.defaultValue;
  for (const [k, v] of given) {
    if (loaded.parameters !== undefined && !loaded.parameters.some((p) => p.key === k)) {
      fail(ToolErrorCode.unknownParameter, `unknown parameter "${k}" of model ${loaded.path}; known: ${loaded.parameters.map((p) => p.key).join(', ') || '(none)'}`);
    }
    out[k] = v;
  }
  return out;
}

/** The model of a loaded module with these parameters; KC220 when its factory throws or returns no model. */
export async function buildModel(loaded: LoadedModelModule, params: ModelParameters): Promise<Model<unknown>> {
  if (typeof loaded.exported !== 'function') return loaded.exported;
  let built: unknown;
  try {
    built = await loaded.exported({ ...params });
  } catch (e) {
    // The factory's own refusal of a parameter reads best as it wrote it.
    const coded = /^KC\d{3}: /.test(String((e as Error | undefined)?.message ?? ''));
    return fail(ToolErrorCode.badModel, `the factory of model ${loaded.path} failed${coded ? '' : ` with ${JSON.stringify(params)}`}: ${describeThrown(e)}`);
  }
  if (!isModel(built)) fail(ToolErrorCode.badModel, `the factory of model ${loaded.path} returned no Model (an object with name, initialStates, actions and properties) but ${built === null ? 'null' : typeof built}`);
  return built;
}

/** The liveness properties of a loaded module with these parameters. */
function livenessOf(loaded: LoadedModelModule, params: ModelParameters): readonly LivenessProperty<unknown>[] {
  const l = loaded.liveness;
  if (l === undefined) return [];
  let list: unknown;
  try {
    list = typeof l === 'function' ? l({ ...params }) : l;
  } catch (e) {
    return fail(ToolErrorCode.badModel, `the liveness of model ${loaded.path} failed: ${describeThrown(e)}`);
  }
  if (!Array.isArray(list) || !list.every((p) => p !== null && typeof p === 'object' && typeof p.id === 'string' && typeof p.q === 'function')) {
    fail(ToolErrorCode.badModel, `model ${loaded.path} exports liveness that is not a list of liveness properties (eventually, alwaysEventually, eventuallyAlways, leadsTo)`);
  }
  return list as LivenessProperty<unknown>[];
}

/** The words the reports use for a user model's fairness. */
const FAIRNESS = 'the fairness its actions declare (fair, fairPer)';

/** A user model as a subject of the command line: one scenario, the model's name. */
export interface ModelSubject extends Subject {
  readonly resolved: Resolved;
}

/**
 * A loaded module with these parameters, as the command line's commands see a scenario: the
 * model's name is the scenario, its parameters the config, its properties the catalogue (every
 * one checked by default, or its `defaultProperties`).
 */
export async function modelSubject(loaded: LoadedModelModule, params: ModelParameters): Promise<ModelSubject> {
  const model = await buildModel(loaded, params);
  const liveness = livenessOf(loaded, params);
  const properties: PropertyInfo[] = model.properties.map((p) => ({ id: p.id, kind: p.kind, description: p.description, ...(p.source === undefined ? {} : { source: p.source }) }));
  const livenessInfo: LivenessInfo[] = liveness.map((p) => ({ id: p.id, kind: p.kind, description: p.description, fairness: FAIRNESS }));
  const config: JsonValue = { ...params };
  const defaults = model.defaultProperties ?? model.properties.map((p) => p.id);
  const resolved: Resolved = {
    scenario: model.name,
    config,
    model: { ...model, origin: { scenario: model.name, config } },
    defaultProperties: model.checkDeadlock && model.defaultProperties === undefined ? [...defaults, 'deadlock'] : defaults,
    ...(liveness.length > 0 ? { liveness } : {}),
  };
  return {
    name: 'model',
    scenarios: [{ name: model.name, description: `your model (${loaded.path})` }],
    parameters: () => loaded.parameters ?? [],
    properties,
    ...(livenessInfo.length > 0 ? { liveness: livenessInfo, livenessHeading: FAIRNESS } : {}),
    resolve: () => resolved,
    resolved,
  };
}

/** What a worker thread rebuilds a user model from: the module's URL and the run's parameters. */
export interface ModelOfModuleArgs {
  readonly module: string;
  readonly params: ModelParameters;
}

/** The model of a user's module (the export a worker calls). */
export async function modelOfModule(args: ModelOfModuleArgs): Promise<Model<unknown>> {
  await ensureTypeScriptLoader(args.module);
  const module = (await import(args.module)) as Record<string, unknown>;
  return buildModel({ path: args.module, href: args.module, exported: exportedOf(module) as Exported }, args.params);
}

/** The factory descriptor for a user's model with these parameters (`check --model --workers N`). */
export function modelModuleFactory(loaded: LoadedModelModule, params: ModelParameters): ModelFactory {
  return { module: import.meta.url, export: 'modelOfModule', args: { module: loaded.href, params: { ...params } } };
}
