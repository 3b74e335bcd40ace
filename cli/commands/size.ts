/**
 * `kubecheck size`: which settings multiply a check's states, measured by the search itself. For
 * the same scenario, config, extensions and properties as `check`, it searches the check as given
 * (bounded) and, one setting at a time, one less and one more (around smaller values when the
 * check as given does not finish within the bounds of each search), and prints each setting's
 * growth per +1, an estimate of the whole check, and the `--set` values that would bring it under
 * `--max-states` or `--time-limit`. A command of its own rather than a `check` option: it runs
 * many searches and prints no verdict, and none of `check`'s report options (`--out`,
 * `--format`, `--workers`) would mean anything for it, as for `timing` and `diff`.
 */
import { boundsUnder, estimateStates, measureFamily, type Assignment, type BoundReached, type FamilySize, type Measurement, type Model, type SizeEstimate } from '../../checker/index.js';
import { formatDuration } from '../../checker/duration.js';
import { inputText, jsonText } from '../../checker/escape.js';
import { fail, ToolErrorCode } from '../../reports/errors.js';
import { loadExtensions } from '../extensions.js';
import { kubernetesSizing, genericSizing, variedParameters, type SizeParameter, type SizingSubject } from '../sizeParameters.js';
import { checkPropertyIds, configPaths, resolveFromOptions, resolveWithExtensions, subjectOf, type ConfigInput, type ConfigOptions } from '../subjects.js';
import { printErr, printOut, stdoutPalette } from '../terminal.js';
import { withUserCodeBound } from '../userCodeBound.js';

export interface SizeOptions extends ConfigOptions {
  /** The settings to vary (default: those the check uses). */
  readonly vary?: string[];
  readonly property?: string[];
  readonly symmetry?: boolean;
  /** The bound the check should fit in: the suggestion keeps the estimate under it. */
  readonly maxStates?: number;
  readonly timeLimit?: number;
  /** The bounds of each search. */
  readonly probeStates?: number;
  readonly probeTime?: number;
  readonly quiet?: boolean;
  readonly color?: boolean;
}

/** Each search's bounds when none is given. */
export const DEFAULT_PROBE_STATES = 200_000;
export const DEFAULT_PROBE_SECONDS = 30;

const n = (x: number): string => Math.round(x).toLocaleString('en-US');

/** A count as people read it: 5,088, 250,301, 1.23 M, 3.45 G. */
export function roughCount(x: number): string {
  if (x < 1e6) return n(x);
  if (x < 1e9) return `${(x / 1e6).toPrecision(3)} M`;
  if (x < 1e12) return `${(x / 1e9).toPrecision(3)} G`;
  return x.toExponential(1);
}

/** One measurement's count: exact, at least (a bound stopped it), or refused. */
function countOf(m: Measurement): string {
  if (m.refused !== undefined) return 'refused';
  return m.finished ? n(m.distinctStates) : `≥${n(m.distinctStates)}`;
}

function factorText(f: number | undefined, atLeast: boolean): string {
  if (f === undefined) return '?';
  return `${atLeast ? '≥' : ''}×${f < 10 ? f.toFixed(2) : f < 100 ? f.toFixed(1) : n(f)}`;
}

function estimateText(e: SizeEstimate): string {
  if (Number.isNaN(e.distinctStates)) return `no estimate: ${e.missing ?? 'not measured'}`;
  if (e.exact) return `${n(e.distinctStates)} distinct states (measured)`;
  return `${e.atLeast ? 'at least' : 'about'} ${roughCount(e.distinctStates)} distinct states`;
}

/**
 * The `kubecheck size` command line for the run of `opts` (scenario, config, extensions, `--set`,
 * properties and symmetry as given), aiming at the bound that stopped it: what a `check` that
 * stopped incomplete points to.
 */
export function sizeCommand(opts: ConfigOptions & { readonly property?: readonly string[]; readonly symmetry?: boolean }, stopped: BoundReached | undefined, distinctStates: number): string {
  const q = (s: string): string => (/^[\w@%+=:,./-]+$/.test(s) ? s : `'${s.replace(/'/g, `'\\''`)}'`);
  const args = ['kubecheck', 'size'];
  if (opts.model !== undefined) args.push('--model', q(opts.model));
  if (opts.scenario !== undefined) args.push('--scenario', q(opts.scenario));
  for (const c of configPaths(opts)) args.push('--config', q(c));
  for (const e of opts.extension ?? []) args.push('--extension', q(e));
  for (const [k, v] of Object.entries(opts.set ?? {})) args.push('--set', q(`${k}=${v}`));
  if (opts.allowUnsafeConfig) args.push('--allow-unsafe-config');
  for (const p of opts.property ?? []) args.push('--property', q(p));
  if (opts.symmetry === false) args.push('--no-symmetry');
  if (stopped?.bound === 'states') args.push('--max-states', String(stopped.limit));
  else if (stopped?.bound === 'time') args.push('--time-limit', formatDuration(stopped.limit));
  else if (stopped?.bound === 'memory' && distinctStates > 0) args.push('--max-states', String(distinctStates));
  return args.join(' ');
}

/** How each search of the family is built: the subject's config at the varied values. */
async function familyOf(opts: SizeOptions): Promise<{ sizing: SizingSubject; build: (values: Assignment) => Promise<Model<unknown>>; allKeys: readonly string[] }> {
  const r = await resolveFromOptions(opts);
  if (opts.model !== undefined) {
    const input: ConfigInput = { ...(opts.set ? { set: opts.set } : {}) };
    const sizing = genericSizing(r.subject.parameters(), r.config, input);
    const build = async (values: Assignment): Promise<Model<unknown>> => (await resolveFromOptions({ model: opts.model, set: { ...sizing.inputAt(values).set }, json: true })).model;
    return { sizing, build, allKeys: r.subject.parameters().map((p) => p.key) };
  }
  const { subject } = await subjectOf(r.scenario);
  const input: ConfigInput = {
    ...(r.imported === undefined ? {} : { file: r.imported.config }),
    ...(opts.set ? { set: opts.set } : {}),
    ...(opts.allowUnsafeConfig ? { allowUnsafe: true } : {}),
  };
  const extensions = opts.extension && opts.extension.length > 0 ? await loadExtensions(opts.extension) : [];
  const sizing = r.clusterConfig !== undefined ? kubernetesSizing(r.clusterConfig, input) : genericSizing(subject.parameters(), r.config, input);
  const build = async (values: Assignment): Promise<Model<unknown>> => resolveWithExtensions(subject, r.scenario, sizing.inputAt(values), extensions).model;
  return { sizing, build, allKeys: subject.parameters().map((p) => p.key) };
}

/** Runs `kubecheck size`; returns the exit code: 0 measured, 3 when even the smallest values searched did not finish. */
export async function runSize(opts: SizeOptions): Promise<number> {
  const probeStates = opts.probeStates ?? DEFAULT_PROBE_STATES;
  const probeSeconds = opts.probeTime ?? DEFAULT_PROBE_SECONDS;
  const r = await resolveFromOptions(opts);
  checkPropertyIds(r.subject, opts.property, r.config);
  if (opts.symmetry === true && r.model.canonicalize === undefined) fail(ToolErrorCode.badOption, `scenario ${r.scenario} has no symmetry to reduce; drop --symmetry`);
  // As check prints them: what Kubernetes accepts but documents as unsafe, and a defaulted shape.
  if (!opts.json) for (const w of r.warnings ?? []) printErr(`kubecheck: warning: ${inputText(w)}\n`);
  const { sizing, build, allKeys } = await familyOf({ ...opts, json: true });
  const varied = variedParameters(sizing, opts.vary, allKeys);
  if (varied.length === 0) fail(ToolErrorCode.badOption, `nothing to vary: the check uses no count, budget or lag above its least value; name settings with --vary (e.g. --vary ${sizing.parameters[0]?.key ?? 'KEY'})`);
  const properties = opts.property && opts.property.length > 0 ? opts.property : r.defaultProperties;
  const bounded = r.extensions.length > 0 ? <T>(search: () => T): T => withUserCodeBound(search, probeSeconds) : undefined;
  const size = await measureFamily(varied, {
    build,
    search: { properties, ...(opts.symmetry === undefined ? {} : { symmetry: opts.symmetry }) },
    maxStates: probeStates,
    timeLimitSeconds: probeSeconds,
    ...(bounded === undefined ? {} : { run: bounded }),
    onMeasured: opts.quiet ? undefined : (m) => printErr(`kubecheck: size: ${valuesText(sizing, m.values, varied)}: ${m.refused !== undefined ? `refused (${m.refused})` : `${countOf(m)} states, depth ${m.depth}, ${m.seconds.toFixed(1)}s`}\n`),
  });
  const estimate = estimateStates(size);
  const rate = size.statesPerSecond;
  const limitStates = Math.min(opts.maxStates ?? Infinity, opts.timeLimit !== undefined && rate !== undefined ? rate * opts.timeLimit : Infinity);
  const fit = Number.isFinite(limitStates) ? boundsUnder(size, limitStates) : undefined;
  const changed = fit === undefined ? [] : varied.filter((p) => fit.values[p.key] !== p.target);
  const code = size.base.finished ? 0 : 3;
  if (opts.json) {
    printOut(`${jsonText({
      schema: 1,
      command: 'size',
      scenario: r.scenario,
      model: r.model.name,
      config: r.config,
      probe: { maxStates: probeStates, timeLimitSeconds: probeSeconds },
      target: measurementJson(size.target),
      base: measurementJson(size.base),
      parameters: size.parameters.map((p) => ({
        key: p.key,
        unit: unitOf(varied, p.key),
        target: p.target,
        floor: p.floor,
        base: p.base,
        factor: p.factor ?? null,
        factorAtLeast: p.factorAtLeast,
        downFactor: p.downFactor ?? null,
        points: p.points.map((m) => ({ value: m.values[p.key], ...measurementJson(m) })),
      })),
      estimate: { ...estimate, distinctStates: Number.isNaN(estimate.distinctStates) ? null : estimate.distinctStates },
      statesPerSecond: rate ?? null,
      limit: Number.isFinite(limitStates) ? { maxStates: opts.maxStates ?? null, timeLimitSeconds: opts.timeLimit ?? null, states: Math.round(limitStates) } : null,
      fit: fit === undefined ? null : { set: Object.fromEntries(changed.map((p) => [p.key, fit.values[p.key]])), estimate: fit.estimate.distinctStates, exact: fit.estimate.exact },
      searches: size.searches,
      seconds: size.seconds,
      exitCode: code,
    })}\n`);
    return code;
  }
  printOut(formatSize(r.scenario, r.model.name, size, sizing, varied, { probeStates, probeSeconds, estimate, limitStates, fit, changed, opts }), stdoutPalette(opts.color === false));
  return code;
}

function unitOf(varied: readonly SizeParameter[], key: string): SizeParameter['unit'] {
  return varied.find((q) => q.key === key)?.unit ?? 'count';
}

function measurementJson(m: Measurement): Record<string, unknown> {
  return {
    values: m.values,
    distinctStates: m.distinctStates,
    generatedStates: m.generatedStates,
    depth: m.depth,
    seconds: m.seconds,
    finished: m.finished,
    stoppedBy: m.stoppedBy ?? null,
    ...(m.refused === undefined ? {} : { refused: m.refused }),
  };
}

/** `--set` pairs for the values that differ from the check's (or all of them). */
function valuesText(sizing: SizingSubject, values: Assignment, varied: readonly SizeParameter[], onlyChanged = true): string {
  const pairs = varied.filter((p) => !onlyChanged || values[p.key] !== p.target).map((p) => sizing.written(p.key, values[p.key]));
  return pairs.length === 0 ? 'the check as given' : pairs.join(' ');
}

interface SizeText {
  readonly probeStates: number;
  readonly probeSeconds: number;
  readonly estimate: SizeEstimate;
  readonly limitStates: number;
  readonly fit: ReturnType<typeof boundsUnder>;
  readonly changed: readonly SizeParameter[];
  readonly opts: SizeOptions;
}

function formatSize(scenario: string, model: string, size: FamilySize, sizing: SizingSubject, varied: readonly SizeParameter[], t: SizeText): string {
  const lines: string[] = [];
  lines.push(`size ${scenario}  (${model}): distinct states as check counts them, one setting varied at a time (each search at most ${n(t.probeStates)} states, ${formatDuration(t.probeSeconds)})`);
  const tg = size.target;
  lines.push(tg.finished
    ? `the check as given: ${n(tg.distinctStates)} distinct states, depth ${tg.depth}, ${tg.seconds.toFixed(2)}s: finished`
    : `the check as given: more than ${n(tg.distinctStates)} distinct states (depth ${tg.depth} reached in ${tg.seconds.toFixed(1)}s); measured around smaller values instead`);
  if (size.base !== tg) {
    lines.push(`base: ${valuesText(sizing, size.base.values, varied)}: ${countOf(size.base)} distinct states, depth ${size.base.depth}${size.base.finished ? '' : ', did not finish either: raise --probe-states and --probe-time, or size a smaller check (--set)'}`);
  }
  lines.push('');
  const rows = size.parameters.map((p) => [
    inputText(p.key),
    unitOf(varied, p.key) === 'seconds' ? `${p.target}s` : String(p.target),
    p.points.map((m) => `${m.values[p.key]}: ${countOf(m)}`).join(' · '),
    p.downFactor === undefined ? '' : factorText(p.downFactor, false),
    factorText(p.factor, p.factorAtLeast),
  ]);
  const head = ['setting', 'check', 'states at each value (the others at the base)', 'to base', 'per +1'];
  const width = head.map((h, i) => Math.max(h.length, ...rows.map((row) => row[i].length)));
  const row = (cells: readonly string[]): string => `  ${cells.map((c, i) => (i === cells.length - 1 ? c : c.padEnd(width[i]))).join('  ')}`;
  lines.push(row(head));
  for (const r of rows) lines.push(row(r));
  lines.push('');
  lines.push(`estimate for the check as given: ${estimateText(t.estimate)}${t.estimate.exact || Number.isNaN(t.estimate.distinctStates) ? '' : ' (the base\'s count times each setting\'s growth per +1; how settings interact is not measured)'}`);
  if (t.estimate.atLeast && size.base.finished) lines.push('  (≥: a search one above the base stopped at --probe-states or --probe-time; raise them for a figure)');
  if (size.statesPerSecond !== undefined && !t.estimate.exact && !Number.isNaN(t.estimate.distinctStates)) {
    lines.push(`  time: ${t.estimate.atLeast ? 'at least ' : 'about '}${formatDuration(Math.max(1, Math.round(t.estimate.distinctStates / size.statesPerSecond)))} at ${n(size.statesPerSecond)} states/s (the largest finished search's rate)`);
  }
  const bound = [t.opts.maxStates === undefined ? undefined : `--max-states ${n(t.opts.maxStates)}`, t.opts.timeLimit === undefined ? undefined : `--time-limit ${formatDuration(t.opts.timeLimit)}`].filter((x) => x !== undefined).join(' and ');
  if (!Number.isFinite(t.limitStates)) {
    if (t.opts.timeLimit !== undefined) lines.push('no search finished, so no rate to turn --time-limit into states; give --max-states');
    else lines.push('give --max-states N or --time-limit D for the settings under which the check fits in it');
  } else if (t.fit === undefined) {
    lines.push(`to fit ${bound} (${roughCount(t.limitStates)} states): no values of the varied settings down to their least are estimated to; vary others with --vary`);
  } else if (t.changed.length === 0) {
    lines.push(`fits ${bound} (${roughCount(t.limitStates)} states) as given`);
  } else {
    lines.push(`to fit ${bound} (${roughCount(t.limitStates)} states): ${t.changed.map((p) => `--set ${sizing.written(p.key, t.fit!.values[p.key])}`).join(' ')} (${estimateText(t.fit.estimate)})`);
  }
  lines.push(`${size.searches} searches, ${size.seconds.toFixed(1)}s`);
  return `${lines.join('\n')}\n`;
}

/** A progress sample of a search: how deep it was and how many states it held. */
export interface LevelSample {
  readonly depth: number;
  readonly distinctStates: number;
  readonly seconds: number;
}

/**
 * How wide a breadth-first search's levels were, from the progress samples it already took: the
 * states per level up to the depth reached half-way through its time, and from there to the end;
 * with no sample half-way (a short search), the average over all its levels.
 */
export function levelGrowth(samples: readonly LevelSample[], end: LevelSample): string {
  const mid = samples.find((s) => s.seconds >= end.seconds / 2 && s.depth > 1 && s.depth < end.depth && s.distinctStates < end.distinctStates);
  if (mid === undefined) return `${n(end.distinctStates / Math.max(1, end.depth))} states a level over ${end.depth} levels`;
  const early = mid.distinctStates / mid.depth;
  const late = (end.distinctStates - mid.distinctStates) / (end.depth - mid.depth);
  return `levels of ${n(early)} states on average to depth ${mid.depth}, ${n(late)} from there to depth ${end.depth}${late > early * 1.5 ? ` (×${(late / early).toFixed(1)} wider)` : ''}`;
}
