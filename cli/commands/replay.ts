/**
 * `kubecheck replay TRACE`: rebuilds the model from the scenario and config saved in the trace's
 * `#meta`, re-executes it step by step and confirms what it claims. Exit 1 when the violation is
 * reproduced (it is a violation), 0 when a witness or a plain run replays, 2 when the file is not
 * ITF, was made for another scenario or config than the one given, or no longer replays (the first
 * step that fails is named).
 */
import { inputText, jsonText } from '../../checker/escape.js';
import { printOut } from '../terminal.js';
import { explainViolation, formatAction } from '../../checker/index.js';
import { formatTime } from '../../checker/duration.js';
import { fail, ToolErrorCode } from '../../reports/errors.js';
import { parseItf } from '../../reports/itf.js';
import { checkTraceMeta, configDifference, replayItf, valueAt } from '../../reports/replay.js';
import { formatTimeline, timelineSteps } from '../../reports/timeline.js';
import { readTraceText, refuseForbiddenKeys } from '../input.js';
import { statSync } from 'node:fs';
import { dirname, isAbsolute, relative, resolve } from 'node:path';
import { moduleDigest, type ModuleFileDigest } from '../extensions.js';
import { printErr } from '../terminal.js';
import type { ParsedItf } from '../../reports/itf.js';
import type { ClusterExtension } from '../../model/index.js';
import { allSubjects, resolveFromOptions, resolveWithExtensionPaths, subjectOf, type ConfigOptions, type Resolved } from '../subjects.js';
import { loadModelModule, modelParameters, modelSubject } from '../userModel.js';
import { stdoutPalette } from '../terminal.js';

export interface ReplayOptions extends ConfigOptions {
  readonly json?: boolean;
  readonly color?: boolean;
  readonly quiet?: boolean;
  /** Every step on a line of its own: no quiet stretch folded. */
  readonly unfold?: boolean;
  /** Replay with the extension modules the trace recorded even when their content changed since (a warning). */
  readonly allowChangedExtension?: boolean;
}

/** An extension module as a trace's `#meta.extensionModules` records it (see `ExtensionModuleRecord`). */
interface RecordedModule {
  readonly path: string;
  readonly absolutePath: string;
  readonly relativePath?: string;
  readonly sha256: string;
  readonly files: readonly ModuleFileDigest[];
}

/** More modules than a check would take: not a trace kubecheck wrote. */
const MAX_RECORDED_MODULES = 100;
const DIGEST = /^sha256:[0-9a-f]{64}$/;

/** The modules `#meta.extensionModules` records; KC203 for a field that is not what kubecheck writes. */
function recordedModules(meta: ParsedItf['meta'], file: string): RecordedModule[] {
  const raw = meta.extensionModules;
  if (raw === undefined) return [];
  const bad = (where: string, rule: string): never => fail(ToolErrorCode.notItf, `${inputText(file)}: #meta.extensionModules${where} ${rule}`);
  if (!Array.isArray(raw)) return bad('', 'is not a list');
  if (raw.length > MAX_RECORDED_MODULES) bad('', `lists ${raw.length} modules, more than the ${MAX_RECORDED_MODULES} a trace of kubecheck records`);
  const text = (v: unknown): v is string => typeof v === 'string' && v !== '' && v.length <= 4096 && !v.includes('\0');
  return raw.map((m, i) => {
    if (m === null || typeof m !== 'object' || Array.isArray(m)) return bad(`[${i}]`, 'is not an object');
    const r = m as Record<string, unknown>;
    if (!text(r.path)) bad(`[${i}].path`, 'is not a path');
    if (!text(r.absolutePath) || !isAbsolute(r.absolutePath)) bad(`[${i}].absolutePath`, 'is not an absolute path');
    if (r.relativePath !== undefined && !text(r.relativePath)) bad(`[${i}].relativePath`, 'is not a path');
    if (typeof r.sha256 !== 'string' || !DIGEST.test(r.sha256)) bad(`[${i}].sha256`, 'is not sha256: and 64 hex digits');
    const files = Array.isArray(r.files) ? r.files : [];
    const digests = files.map((f: unknown, j) => {
      const g = f as Record<string, unknown> | null;
      if (g === null || typeof g !== 'object' || !text(g.path) || typeof g.sha256 !== 'string' || !DIGEST.test(g.sha256)) return bad(`[${i}].files[${j}]`, 'is not a path and its sha256');
      return { path: g.path, sha256: g.sha256 };
    });
    return { path: r.path as string, absolutePath: r.absolutePath as string, ...(r.relativePath === undefined ? {} : { relativePath: r.relativePath as string }), sha256: r.sha256 as string, files: digests };
  });
}

/** A path as messages show it: relative to the working folder when inside it, else absolute. */
function shownPath(abs: string): string {
  const rel = relative(process.cwd(), abs);
  return rel !== '' && !rel.startsWith('..') && !isAbsolute(rel) ? rel : abs;
}

/** Which files of a module differ from the ones recorded, in words. */
function changedFiles(recorded: readonly ModuleFileDigest[], now: readonly ModuleFileDigest[]): string {
  const before = new Map(recorded.map((f) => [f.path, f.sha256]));
  const after = new Map(now.map((f) => [f.path, f.sha256]));
  const words = [
    ...now.filter((f) => before.has(f.path) && before.get(f.path) !== f.sha256).map((f) => `${inputText(f.path)} differs`),
    ...now.filter((f) => !before.has(f.path)).map((f) => `${inputText(f.path)} is imported now`),
    ...recorded.filter((f) => !after.has(f.path)).map((f) => `${inputText(f.path)} is no longer imported`),
  ];
  return words.length === 0 ? 'its files hash differently' : words.slice(0, 5).join(', ') + (words.length > 5 ? `, and ${words.length - 5} more` : '');
}

/**
 * The files of the extension modules a trace recorded, found again: by the path relative to the
 * trace's folder first (a results folder moved or checked out elsewhere with its modules), then
 * by the absolute path. KC201 when neither is a file; KC221 when the module's content hash
 * differs from the recorded one (a warning instead with `--allow-changed-extension`).
 */
function locateRecordedModules(file: string, recorded: readonly RecordedModule[], allowChanged: boolean): string[] {
  const folder = dirname(resolve(file));
  return recorded.map((r) => {
    const candidates = [...(r.relativePath === undefined ? [] : [resolve(folder, r.relativePath)]), r.absolutePath];
    const found = candidates.find((c) => {
      try {
        return statSync(c).isFile();
      } catch {
        return false;
      }
    });
    if (found === undefined) {
      fail(ToolErrorCode.unreadableFile, `${inputText(file)} was made with extension module ${inputText(r.path)}, found neither ${r.relativePath === undefined ? '' : `at ${inputText(r.relativePath)} from the trace's folder nor `}at ${inputText(r.absolutePath)}; give it with --extension FILE`);
    }
    const shown = shownPath(found);
    const now = moduleDigest(found, shown);
    if (now.sha256 !== r.sha256) {
      const what = `extension module ${inputText(shown)} changed since ${inputText(file)} was made: ${changedFiles(r.files, now.files)} (sha256 recorded ${r.sha256.slice(7, 19)}…, now ${now.sha256.slice(7, 19)}…)`;
      if (!allowChanged) fail(ToolErrorCode.extensionChanged, `${what}; check it again, or replay the trace on the module as it is now with --allow-changed-extension`);
      printErr(`kubecheck: warning: ${what}; replaying on the module as it is now (--allow-changed-extension)\n`);
    }
    return shown;
  });
}

type Rebuilt = { readonly rebuilt: Resolved; readonly extensions: readonly ClusterExtension[]; readonly scenario: string };

/** The scenario's model the trace's `#meta` names, with its saved config (and the options', which must agree). */
async function scenarioOfTrace(file: string, meta: ParsedItf['meta'], saved: string | undefined, opts: ReplayOptions): Promise<Rebuilt> {
  if (saved === undefined && opts.scenario === undefined) {
    fail(ToolErrorCode.traceMismatch, `${file} names no scenario in its #meta (it was not written by kubecheck); give --scenario to replay it anyway`);
  }
  if (saved !== undefined && opts.scenario !== undefined && saved !== opts.scenario) {
    fail(ToolErrorCode.traceMismatch, `${file} was made for scenario "${saved}", not "${opts.scenario}"`);
  }
  const scenario = (opts.scenario ?? saved)!;
  const known = (await allSubjects()).some((s) => s.scenarios.some((x) => x.name === scenario));
  if (!known && opts.scenario === undefined) {
    fail(ToolErrorCode.traceMismatch, `${file} was made for "${inputText(scenario)}", which is not one of kubecheck's scenarios; a trace of your own model replays with --model FILE`);
  }
  const { subject } = await subjectOf(scenario);
  const unsafe = meta.allowUnsafeConfig === true || opts.allowUnsafeConfig === true;
  refuseForbiddenKeys(meta.config, `${file}: #meta.config`, { parameterKeys: true });
  const savedInput = { ...(meta.config === undefined ? {} : { file: meta.config }), ...(unsafe ? { allowUnsafe: true } : {}) };
  // The modules the trace records, unless --extension names others: found again and refused when changed.
  const recorded = recordedModules(meta, file);
  const paths = (opts.extension ?? []).length > 0 || recorded.length === 0 ? opts.extension : locateRecordedModules(file, recorded, opts.allowChangedExtension === true);
  // The trace's config already holds the modules' settings: they are not applied again.
  const { resolved: rebuilt, extensions } = await resolveWithExtensionPaths(subject, scenario, savedInput, paths, { applySettings: false });
  if (opts.config !== undefined || opts.set !== undefined) {
    // The config asked for as check would resolve it, on the modules' settings (the trace's config holds them).
    const asked = await resolveFromOptions({ ...opts, scenario, extension: paths ?? [] });
    const diff = configDifference(rebuilt.config, asked.config);
    if (diff !== undefined) {
      const show = (v: unknown): string => JSON.stringify(valueAt(v, diff)) ?? 'unset';
      fail(ToolErrorCode.traceMismatch, `${file} was made for another config: ${diff} is ${show(rebuilt.config)} in the trace, ${show(asked.config)} here`);
    }
  }
  return { rebuilt, extensions, scenario };
}

/**
 * The user's model (`replay --model FILE`) built with the parameters the trace's `#meta` saved
 * (and the `--set` pairs given, which must agree); a trace of a scenario or of another model is
 * refused (KC204).
 */
async function modelOfTrace(file: string, meta: ParsedItf['meta'], saved: string | undefined, opts: ReplayOptions): Promise<Rebuilt> {
  const clash = opts.scenario !== undefined ? '--scenario' : opts.config !== undefined ? '--config' : (opts.extension ?? []).length > 0 ? '--extension' : undefined;
  if (clash !== undefined) fail(ToolErrorCode.badOption, `--model ${opts.model} is replayed in place of a Kubernetes scenario: ${clash} does not apply to it`);
  const config = meta.config ?? {};
  const params = typeof config === 'object' && config !== null && !Array.isArray(config) && Object.values(config).every((v) => typeof v === 'string') ? (config as Record<string, string>) : undefined;
  const builtIn = saved !== undefined && (await allSubjects()).some((s) => s.scenarios.some((x) => x.name === saved));
  if (params === undefined || builtIn) {
    fail(ToolErrorCode.traceMismatch, `${file} was made for ${saved === undefined ? 'another model' : `scenario "${inputText(saved)}"`}, not with --model (its #meta.config is ${builtIn ? 'a scenario\'s config' : 'not the parameters of a model'}); replay it without --model`);
  }
  refuseForbiddenKeys(params, `${file}: #meta.config`, { parameterKeys: true });
  const loaded = await loadModelModule(opts.model!);
  if (typeof loaded.exported !== 'function' && Object.keys(params).length > 0) {
    fail(ToolErrorCode.traceMismatch, `${file} was made with the parameters ${JSON.stringify(params)}, but model ${opts.model} exports a Model, not a factory, and takes none`);
  }
  if (opts.set !== undefined) {
    const asked = modelParameters(loaded, opts.set);
    const diff = configDifference(params, asked);
    if (diff !== undefined) {
      const show = (v: unknown): string => JSON.stringify(valueAt(v, diff)) ?? 'unset';
      fail(ToolErrorCode.traceMismatch, `${file} was made with other parameters: ${diff} is ${show(params)} in the trace, ${show(asked)} here`);
    }
  }
  // A module that declares its parameters gets their defaults for what the trace does not say (a trace of another model says none).
  const foreignKey = Object.keys(params).find((k) => loaded.parameters !== undefined && !loaded.parameters.some((p) => p.key === k));
  if (foreignKey !== undefined) fail(ToolErrorCode.traceMismatch, `${file} was made with the parameter "${inputText(foreignKey)}", which model ${opts.model} does not have`);
  const defaults = Object.fromEntries((loaded.parameters ?? []).map((p) => [p.key, p.defaultValue]));
  const subject = await modelSubject(loaded, typeof loaded.exported === 'function' ? { ...defaults, ...params } : params);
  const name = subject.resolved.model.name;
  const made = saved ?? (typeof meta.model === 'string' ? meta.model : undefined);
  if (made !== undefined && made !== name) {
    fail(ToolErrorCode.traceMismatch, `${file} was made for model "${inputText(made)}", not "${inputText(name)}" (the model of ${opts.model} with these parameters)`);
  }
  return { rebuilt: subject.resolved, extensions: [], scenario: name };
}

export async function runReplay(file: string, opts: ReplayOptions): Promise<number> {
  const itf = parseItf(readTraceText(file));
  const meta = itf.meta;
  checkTraceMeta(meta, file);
  const saved = typeof meta.scenario === 'string' ? meta.scenario : undefined;
  const { rebuilt, extensions, scenario } = opts.model !== undefined ? await modelOfTrace(file, meta, saved, opts) : await scenarioOfTrace(file, meta, saved, opts);
  const known = new Set(rebuilt.model.actions.map((a) => a.name));
  const foreign = itf.labels.find((l) => !known.has(l.name));
  if (foreign !== undefined || (extensions.length === 0 && itf.states[0] !== undefined && 'extensions' in itf.states[0])) {
    const what = foreign === undefined ? 'was made on a model with extensions (its states hold their memory)' : `takes the step "${foreign.name}", which the model has no action for`;
    fail(ToolErrorCode.traceDiverges, `${file} ${what}; if it comes from your own controller, replay with the same --extension it was checked with`);
  }
  const report = replayItf(rebuilt.model, itf, rebuilt.liveness ?? []);
  const steps = report.trace.actions.length;
  const at = report.at ?? steps;
  const time = timelineSteps(rebuilt.model, report.trace).slice(0, at).reduce((t, s) => t + s.elapsed, 0);
  const code = report.outcome === 'violated' ? 1 : 0;
  // Why the state the violation is reproduced at violates the property (its explain hook), as check says it.
  const property = report.outcome === 'violated' ? rebuilt.model.properties.find((p) => p.id === report.property) : undefined;
  const why = property === undefined ? undefined : explainViolation(property, { states: report.trace.states.slice(0, at + 1), actions: report.trace.actions.slice(0, at) });
  if (opts.json) {
    process.stdout.write(`${jsonText({
      outcome: report.outcome,
      exitCode: code,
      scenario,
      property: report.property ?? null,
      steps,
      at: report.at ?? null,
      ...(why === undefined ? {} : { why }),
      time,
      lastAction: steps > 0 ? report.trace.actions[steps - 1] : null,
    })}\n`);
    return code;
  }
  const c = stdoutPalette(opts.color === false);
  const out: string[] = [];
  if (!opts.quiet) out.push(formatTimeline(rebuilt.model, report.trace, { colors: c, fold: opts.unfold !== true, ...(itf.loop === undefined ? {} : { loop: itf.loop }) }), '');
  out.push(`replayed ${steps} steps of ${inputText(file)} on scenario ${scenario}: every step is enabled and reaches the saved state`);
  if (report.outcome === 'violated') {
    out.push(c.red(`✗ ${report.property} violated at step ${at} (${formatTime(time)}${at > 0 ? `, after ${formatAction(report.trace.actions[at - 1])}` : ''}): violation reproduced (exit 1)`));
    if (why !== undefined) out.push(`  why: ${why}`);
  } else if (report.outcome === 'witnessed') out.push(c.green(`✓ ${report.property} reached at step ${at} (${formatTime(time)}): witness reproduced (exit 0)`));
  else out.push(c.green('✓ the trace replays (exit 0)'));
  printOut(`${out.join('\n')}\n`, c);
  return code;
}
