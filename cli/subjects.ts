/**
 * What the command line checks, and which subject a scenario belongs to, with the config resolved
 * for it from the command line. A subject is a family of scenarios with a config, a model built
 * from it and a catalogue of properties. The Kubernetes control plane is the main subject; the
 * two-phase commit example is a second one, so the commands can be tried (and tested) on a
 * classic protocol with a space of a few hundred states. Commands only talk to this interface.
 */
import type { JsonValue, LivenessProperty, Model, ModelFactory } from '../checker/index.js';
import { fail, KubecheckError, ToolErrorCode } from '../reports/errors.js';
import { inputText } from '../checker/escape.js';
import type { ClusterConfig, ClusterExtension } from '../model/index.js';
import { sameParameterValue } from '../model/resolve.js';
import type { ParameterInfo } from '../model/parameters.js';
import { loadExtensionModules, type LoadedExtensionModule } from './extensions.js';
import { importSources, type Imported } from './import/importer.js';
import { readSources } from './import/read.js';
import { settingLocations } from './import/locate.js';
import type { ConfigSetting } from '../reports/outcome.js';
import { kubernetesSubject } from './kubernetesSubject.js';
import { refuseOversizedInput } from './limits.js';
import { printErr } from './terminal.js';
import { twoPhaseSubject } from './twoPhaseSubject.js';
import { loadModelModule, modelModuleFactory, modelParameters, modelSubject } from './userModel.js';

/** A named starting point. */
export interface ScenarioInfo {
  readonly name: string;
  readonly description: string;
}

/**
 * A parameter settable with `--set key=value` or in a config file, as `list parameters` shows it:
 * the part of the Kubernetes parameter declarations (`model/parameters.ts`) that every subject
 * has (an example's parameters have no Kubernetes name or component).
 */
export type SubjectParameter = Pick<ParameterInfo, 'key' | 'defaultValue' | 'description'> & Partial<Pick<ParameterInfo, 'kubernetesName' | 'component'>>;

/** A property in the catalogue. */
export interface PropertyInfo {
  readonly id: string;
  readonly kind: string;
  readonly description: string;
  readonly source?: string;
}

/** A liveness property in the catalogue: what `check --liveness` checks, and under which fairness. */
export interface LivenessInfo {
  readonly id: string;
  /** `eventually`, `always-eventually` or `leads-to`. */
  readonly kind: string;
  readonly description: string;
  /** Which steps the check assumes eventually happen, and which may never. */
  readonly fairness: string;
}

/** Where a config comes from: a parsed file, `--set` pairs, and the unsafe switch. */
export interface ConfigInput {
  readonly file?: unknown;
  readonly set?: Readonly<Record<string, string>>;
  /** The base under the file and `--set`: the settings the extension modules declare (dotted keys). */
  readonly base?: Readonly<Record<string, JsonValue>>;
  /** Where `base` comes from, for a refusal of one of its keys. */
  readonly baseOrigin?: string;
  readonly allowUnsafe?: boolean;
}

/** A config resolved for one scenario, and the model it gives. */
export interface Resolved<S = unknown> {
  readonly scenario: string;
  /** The config in JSON form; `resolve(scenario, { file: config })` gives it back. */
  readonly config: JsonValue;
  readonly model: Model<S>;
  /** Property ids checked when none is asked for. */
  readonly defaultProperties: readonly string[];
  /** Properties the default selection leaves out, each with the reason. */
  readonly leftOut?: readonly { readonly id: string; readonly reason: string }[];
  /** Config warnings: what Kubernetes accepts but documents as unsafe. */
  readonly warnings?: readonly string[];
  /** Liveness properties `check --liveness` checks on the whole graph (no symmetry). */
  readonly liveness?: readonly LivenessProperty<S>[];
  /** The Kubernetes subject's config, typed (`config` is its JSON form). */
  readonly clusterConfig?: ClusterConfig;
}

/** A config a subject has resolved and validated, in a form only that subject reads, for its `resolve`. */
export type ValidatedConfig = object;

export interface Subject {
  /** `kubernetes` or an example's name. */
  readonly name: string;
  readonly scenarios: readonly ScenarioInfo[];
  parameters(): readonly SubjectParameter[];
  readonly properties: readonly PropertyInfo[];
  /** Liveness properties (`check --liveness`), if the subject has any. */
  readonly liveness?: readonly LivenessInfo[];
  /** The fairness the liveness check assumes, in a few words for the report's liveness heading. */
  readonly livenessHeading?: string;
  /**
   * Resolves and validates the config alone, before anything else is loaded (users' extensions
   * are code): a KubecheckError names a bad field and its rule. What it returns is handed to
   * {@link resolve}, which then does not resolve the config again.
   */
  validate?(scenario: string, input: ConfigInput): ValidatedConfig;
  /**
   * Throws a KubecheckError naming a bad field and its rule. `extensions` (users' controllers)
   * only the Kubernetes subject takes; `validated` is what its `validate` returned for this input.
   */
  resolve(scenario: string, input: ConfigInput, extensions?: readonly ClusterExtension[], validated?: ValidatedConfig): Resolved;
  /** Participants placed first in sequence diagrams, e.g. kubelet, kube-apiserver, etcd. */
  readonly participants?: readonly string[];
}

/** Every subject: Kubernetes first (its first scenario is the default), then the examples. */
const SUBJECTS: readonly Subject[] = [kubernetesSubject, twoPhaseSubject];

export async function allSubjects(): Promise<readonly Subject[]> {
  return SUBJECTS;
}

/** The subject of `scenario` (default: the first Kubernetes scenario, node-failure). KC209 lists the known ones. */
export async function subjectOf(scenario: string | undefined): Promise<{ subject: Subject; scenario: string }> {
  if (scenario === undefined) return { subject: kubernetesSubject, scenario: kubernetesSubject.scenarios[0].name };
  const owner = SUBJECTS.find((s) => s.scenarios.some((x) => x.name === scenario));
  if (!owner) {
    const known = SUBJECTS.flatMap((s) => s.scenarios.map((x) => x.name));
    fail(ToolErrorCode.unknownScenario, `unknown scenario "${scenario}"; known: ${known.join(', ')}`);
  }
  return { subject: owner, scenario };
}

/** What the config options of a command say. */
export interface ConfigOptions {
  readonly scenario?: string;
  /** Config files and folders: kubecheck's own YAML/JSON, Kubernetes component configs, flags, manifests. */
  readonly config?: string | readonly string[];
  readonly set?: Record<string, string>;
  readonly allowUnsafeConfig?: boolean;
  /** Modules exporting a user's own controllers (`ClusterExtension`s). */
  readonly extension?: readonly string[];
  /** A module exporting a user's own model (a `Model`, or a factory of one from the `--set` pairs): checked in place of a scenario. */
  readonly model?: string;
  /** JSON output: the not-modelled note goes into the JSON, not to stderr. */
  readonly json?: boolean;
}

/** A resolved config, what the files said that the model leaves out, and the extensions attached. */
export interface ResolvedFromOptions extends Resolved {
  readonly subject: Subject;
  /** Fields of the files read that do not change the model, once each. */
  readonly notModelled: readonly string[];
  /** How the files were read: where each parameter came from, names mapped, zones. */
  readonly imported?: Imported;
  /** Names of the extensions attached to the model. */
  readonly extensions: readonly string[];
  /** The `--extension` modules loaded: their paths, content hashes and settings. */
  readonly extensionModules?: readonly LoadedExtensionModule[];
  /**
   * The keys of the cluster's shape (`cluster.nodes`, `cluster.zones`) that its files did not give
   * and that keep the scenario's defaults; each is also a warning (`check --strict` refuses them).
   */
  readonly defaultedShape: readonly string[];
  /** The parameters the config files set, each with its file and line. */
  readonly settings: readonly ConfigSetting[];
  /** How worker threads rebuild the model, when it is not a scenario's (`--model`). */
  readonly modelFactory?: ModelFactory;
}

/** The parameters that make the cluster's shape: defaulted, the check is of another cluster than the files'. */
const SHAPE_KEYS: readonly string[] = ['cluster.nodes', 'cluster.zones'];

/** The config files and folders of the options, as a list. */
export function configPaths(opts: ConfigOptions): readonly string[] {
  return opts.config === undefined ? [] : typeof opts.config === 'string' ? [opts.config] : opts.config;
}

/** Reads the config files and folders, whatever their kind, into one kubecheck config. */
export function importFromPaths(paths: readonly string[]): Imported & { readonly skipped: readonly string[]; readonly files: readonly string[] } {
  const { sources, skipped } = readSources(paths);
  return { ...importSources(sources), skipped, files: [...new Set(sources.map((s) => s.file))] };
}

/**
 * `subject.resolve`, with the user's extensions attached to the Kubernetes model; refused for a
 * subject that is not Kubernetes.
 */
export function resolveWithExtensions(subject: Subject, scenario: string, input: ConfigInput, extensions: readonly ClusterExtension[], validated?: ValidatedConfig): Resolved {
  if (extensions.length > 0 && subject.name !== kubernetesSubject.name) fail(ToolErrorCode.badOption, `--extension adds controllers to the Kubernetes model; scenario ${scenario} is not one of its scenarios`);
  return subject.resolve(scenario, input, extensions, validated);
}

/**
 * The config of `input` resolved, validated and its sizes refused before any extension module is
 * loaded (a bad config is named before the user's code runs), then the model built with the
 * extensions the paths name. The modules' `settings` exports are the base of the config, under
 * the file and `--set` (unless `applySettings` is false: a trace's config already holds them).
 */
export async function resolveWithExtensionPaths(
  subject: Subject,
  scenario: string,
  input: ConfigInput,
  paths: readonly string[] | undefined,
  options: { readonly applySettings?: boolean } = {},
): Promise<{ readonly resolved: Resolved; readonly extensions: readonly ClusterExtension[]; readonly modules: readonly LoadedExtensionModule[]; readonly base?: Readonly<Record<string, JsonValue>> }> {
  refuseOversizedInput(subject.name, input);
  const validated = subject.validate?.(scenario, input);
  const { extensions, modules } = paths && paths.length > 0 ? await loadExtensionModules(paths) : { extensions: [], modules: [] };
  const base = options.applySettings === false ? undefined : moduleSettings(subject, scenario, modules, input.set);
  if (base === undefined) return { resolved: resolveWithExtensions(subject, scenario, input, extensions, validated), extensions, modules };
  const withBase: ConfigInput = { ...input, base };
  return { resolved: resolveWithExtensions(subject, scenario, withBase, extensions, subject.validate?.(scenario, withBase)), extensions, modules, base };
}

/**
 * The settings the modules declare, as one base config: each module's validated on its own
 * (a bad key or value is its rule's code, naming the module); KC200 when two modules, or a module
 * and `--set`, give one key different values (the check would otherwise silently choose one).
 */
function moduleSettings(subject: Subject, scenario: string, modules: readonly LoadedExtensionModule[], set: Readonly<Record<string, string>> | undefined): Readonly<Record<string, JsonValue>> | undefined {
  const declaring = modules.filter((m) => m.settings !== undefined && Object.keys(m.settings).length > 0);
  if (declaring.length === 0) return undefined;
  const base: Record<string, JsonValue> = {};
  const from: Record<string, string> = {};
  const show = (v: unknown): string => (typeof v === 'string' ? inputText(v) : shortJson(v));
  for (const m of declaring) {
    try {
      subject.validate?.(scenario, { base: m.settings, baseOrigin: 'its settings export' });
    } catch (e) {
      if (e instanceof KubecheckError) throw new KubecheckError(e.code, `extension ${inputText(m.path)}: ${e.message.replace(/^KC\d+: /, '')}`);
      throw e;
    }
    for (const [key, value] of Object.entries(m.settings!)) {
      if (Object.hasOwn(base, key) && !sameParameterValue(key, base[key], value)) {
        fail(ToolErrorCode.badOption, `extensions ${inputText(from[key])} and ${inputText(m.path)} declare different settings for ${key}: ${show(base[key])} and ${show(value)}; one check cannot assume both`);
      }
      base[key] = value;
      from[key] = m.path;
    }
  }
  for (const [key, value] of Object.entries(set ?? {})) {
    if (Object.hasOwn(base, key) && !sameParameterValue(key, value, base[key])) {
      fail(ToolErrorCode.badOption, `--set ${key}=${inputText(value)} contradicts extension ${inputText(from[key])}, whose settings export gives ${key}: ${show(base[key])} (what its properties assume); drop the --set, or change the module's settings`);
    }
  }
  return base;
}

function shortJson(v: unknown): string {
  const text = JSON.stringify(v) ?? String(v);
  return text.length <= 60 ? text : `${text.slice(0, 57)}...`;
}

/**
 * Resolves scenario and config from the options. The config files (repeatable; a folder means
 * its files) may be kubecheck's own or Kubernetes' (see `import/`); one of kubecheck's may name
 * its scenario (`scenario: node-partition`). What the files say that the model leaves out is
 * printed once on stderr (not with --json).
 */
export async function resolveFromOptions(opts: ConfigOptions): Promise<ResolvedFromOptions> {
  if (opts.model !== undefined) return resolveModelModule(opts.model, opts);
  const paths = configPaths(opts);
  const imported = paths.length === 0 ? undefined : importFromPaths(paths);
  const named = imported?.scenario;
  if (opts.scenario && named && named !== opts.scenario) {
    fail(ToolErrorCode.badOption, `--scenario ${opts.scenario} disagrees with "scenario: ${named}" in ${paths.join(', ')}`);
  }
  const { subject, scenario } = await subjectOf(opts.scenario ?? named);
  const input = {
    ...(imported === undefined ? {} : { file: imported.config }),
    ...(opts.set ? { set: opts.set } : {}),
    ...(opts.allowUnsafeConfig ? { allowUnsafe: true } : {}),
  };
  const { resolved, extensions, modules, base } = await resolveWithExtensionPaths(subject, scenario, input, opts.extension);
  const notModelled = imported === undefined ? [] : [...imported.notModelled, ...imported.skipped.map((f) => `skipped: ${f}`)];
  if (notModelled.length > 0 && !opts.json) printErr(formatNotModelled(notModelled));
  // What the cluster's files left to the scenario's defaults (unless --set gives it), once each:
  // the cluster's shape (its nodes and zones) as a warning every report carries, the workloads as a note.
  const defaulted = Object.entries(imported?.defaulted ?? {}).filter(([key]) => opts.set?.[key] === undefined && base?.[key] === undefined);
  const shape = [...new Set(defaulted.filter(([key]) => SHAPE_KEYS.includes(key)).map(([, n]) => n))];
  if (!opts.json) for (const note of new Set(defaulted.filter(([key]) => !SHAPE_KEYS.includes(key)).map(([, n]) => n))) printErr(`kubecheck: ${inputText(note)}\n`);
  // The extensions' own properties join the catalogue: --property, list and reports know them by id.
  const catalogue = extensionCatalogue(extensions);
  const own = [...catalogue.properties, ...catalogue.liveness];
  const withOwn: Subject = own.length === 0 ? subject : { ...subject, properties: [...subject.properties, ...own] };
  const warnings = [...(resolved.warnings ?? []), ...shape, ...schedulingWarning(imported?.schedulingCaveats ?? [])];
  const settings = imported === undefined ? [] : settingLocations(imported, imported.files);
  return { ...resolved, ...(warnings.length > 0 ? { warnings } : {}), subject: withOwn, notModelled, settings, defaultedShape: defaulted.filter(([key]) => SHAPE_KEYS.includes(key)).map(([key]) => key), ...(imported === undefined ? {} : { imported }), extensions: extensions.map((e) => e.name), extensionModules: modules };
}

/**
 * The warning every verdict carries when the files say something of scheduling the model leaves
 * out: where (and whether) the scheduler places a pod then rests on an abstraction.
 */
export function schedulingWarning(caveats: readonly string[]): string[] {
  if (caveats.length === 0) return [];
  const shown = caveats.slice(0, 5).join('; ');
  const more = caveats.length > 5 ? `; and ${caveats.length - 5} more (listed as not modelled)` : '';
  return [`scheduling: not modelled: ${shown}${more}. The scheduler here places pods without them, so every verdict that depends on where or whether a pod is scheduled (replacement-within, replacement-after-toleration, the timing of replacements) may differ from your cluster's`];
}

/**
 * `--model FILE`: the user's model with the `--set` pairs as its factory's parameters. The options
 * that shape a Kubernetes scenario mean nothing to it and are refused (KC200), not ignored.
 */
async function resolveModelModule(path: string, opts: ConfigOptions): Promise<ResolvedFromOptions> {
  const clash = opts.scenario !== undefined ? '--scenario' : configPaths(opts).length > 0 ? '--config' : (opts.extension ?? []).length > 0 ? '--extension' : opts.allowUnsafeConfig ? '--allow-unsafe-config' : undefined;
  if (clash !== undefined) fail(ToolErrorCode.badOption, `--model ${path} is checked in place of a Kubernetes scenario: ${clash} does not apply to it (give the model's parameters with --set key=value)`);
  const loaded = await loadModelModule(path);
  const params = modelParameters(loaded, opts.set);
  const subject = await modelSubject(loaded, params);
  return { ...subject.resolved, subject, notModelled: [], extensions: [], defaultedShape: [], settings: [], modelFactory: modelModuleFactory(loaded, params) };
}

/** The not-modelled note as printed on stderr. */
export function formatNotModelled(notModelled: readonly string[]): string {
  return `kubecheck: not modelled (read from your files, but they do not change the model):\n${notModelled.map((n) => `  ${inputText(n)}\n`).join('')}`;
}

/**
 * Checks the ids asked for against the subject's catalogue; KC210 lists the known ones. With the
 * Kubernetes config (`config`, JSON form), KC200 for `leader-handover-within` without
 * `model.jitteredFollowerTries`: the default abstraction measures no handover, so its verdict
 * would say nothing.
 */
export function checkPropertyIds(subject: Subject, ids: readonly string[] | undefined, config?: JsonValue): void {
  for (const id of ids ?? []) {
    if (id === 'deadlock') continue;
    if (!subject.properties.some((p) => p.id === id)) {
      fail(ToolErrorCode.unknownProperty, `unknown property "${id}"; known: ${subject.properties.map((p) => p.id).join(', ')}`);
    }
  }
  const field = (v: JsonValue | undefined, key: string): JsonValue | undefined => (v !== null && typeof v === 'object' && !Array.isArray(v) ? (v as Readonly<Record<string, JsonValue>>)[key] : undefined);
  const jittered = field(field(config, 'model'), 'jitteredFollowerTries');
  if ((ids ?? []).includes('leader-handover-within') && jittered === false) {
    fail(
      ToolErrorCode.badOption,
      'leader-handover-within bounds the wait for a standby\'s next try, which the model abstracts away by default (a follower may take a released Lease at any instant, so no handover is measured and the verdict would say nothing): add --set model.jitteredFollowerTries=true (each follower then tries on its own client-go JitterUntil schedule; more states)',
    );
  }
}

/** The extensions' own properties as catalogue entries (safety and reachability; liveness), optionally naming the extension. */
export function extensionCatalogue(extensions: readonly ClusterExtension[], named = false): { readonly properties: PropertyInfo[]; readonly liveness: PropertyInfo[] } {
  const of = (e: ClusterExtension, description: string): string => (named ? `${description} (${e.name})` : description);
  return {
    properties: extensions.flatMap((e) => (e.properties ?? []).map((p) => ({ id: p.id, kind: p.kind as string, description: of(e, p.description), ...(p.source === undefined ? {} : { source: p.source }) }))),
    liveness: extensions.flatMap((e) => (e.liveness ?? []).map((p) => ({ id: p.id, kind: p.kind as string, description: of(e, p.description) }))),
  };
}
