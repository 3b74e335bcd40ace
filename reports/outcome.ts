/**
 * The one place that formats the outcome of a search for a terminal (as Quint's cliReporting.ts
 * does): each property's status, the counterexamples as timelines, the statistics and the
 * verdict with its exit code. The JSON and Markdown forms (json.ts, markdown.ts) read the same
 * {@link RunInfo}.
 */
import { explainViolation, type ActionLabel, type CheckResult, type JsonValue, type Model, type PropertyOutcome, type PropertyStatus, type Verdict } from '../checker/index.js';
import { plain, type Palette } from './colors.js';
import { formatDuration } from '../checker/duration.js';
import { formatLiveness, livenessOutcomes, searchOutcomes } from './liveness.js';
import { formatTimeline, timelineSteps, traceDuration } from './timeline.js';

/** What the command ran, beside the checker's result. */
/** A parameter the user's files set, and where: the file and, when known, the line (1-based). */
export interface ConfigSetting {
  /** The parameter, e.g. `kubeControllerManager.nodeMonitorGracePeriod`. */
  readonly key: string;
  readonly file: string;
  readonly line?: number;
  /** Where it came from, in words (`kcm.service: --node-monitor-grace-period`). */
  readonly origin: string;
}

/**
 * An extension module a run checked, as its reports record it, so that `replay` finds it again
 * and knows whether it changed: `result.json` and each ITF trace's `#meta` carry it.
 */
export interface ExtensionModuleRecord {
  /** The path as given to `--extension`. */
  readonly path: string;
  readonly absolutePath: string;
  /** Relative to the `--out` folder (where the traces are), when the run wrote one. */
  readonly relativePath?: string;
  /** `sha256:<hex>` over the entry file and the files it imports by relative paths, transitively. */
  readonly sha256: string;
  /** Each file hashed: its path relative to the module's folder and its own `sha256:<hex>`. */
  readonly files: readonly { readonly path: string; readonly sha256: string }[];
  /** The extensions it exports, by name. */
  readonly extensions: readonly string[];
  /** Its `settings` export: the `--set` keys it declares its properties assume. */
  readonly settings?: Readonly<Record<string, JsonValue>>;
}

/** The config as the user gave it: the `--config` files and folders and the `--set` pairs. */
export interface ConfigInputRecord {
  /** The `--config` paths, as given. */
  readonly files: readonly string[];
  readonly set: Readonly<Record<string, string>>;
}

export interface RunInfo {
  readonly command: 'check' | 'simulate';
  /** The `--extension` modules checked, with their paths and content hashes. */
  readonly extensionModules?: readonly ExtensionModuleRecord[];
  /** The `--config` files and `--set` pairs given (`config` is what they resolved to). */
  readonly configInput?: ConfigInputRecord;
  /** When the run started (ISO 8601) and on which host: JUnit's `timestamp` and `hostname`. */
  readonly startedAt?: string;
  readonly hostname?: string;
  /** Seconds into the search at which each violated property was found. */
  readonly decidedAt?: Readonly<Record<string, number>>;
  /** The parameters the user's files set, with their files and lines: where SARIF results and annotations point. */
  readonly settings?: readonly ConfigSetting[];
  readonly scenario?: string;
  /** The config in its JSON form (what replay reads back). */
  readonly config?: JsonValue;
  /** The config was accepted with `--allow-unsafe-config` (replay needs the same switch). */
  readonly allowUnsafeConfig?: boolean;
  /** How the liveness section's heading says which steps are fair (the subject's words), if at all. */
  readonly livenessFairness?: string;
  /** Properties the default selection left out, each with the reason. */
  readonly leftOut?: readonly { readonly id: string; readonly reason: string }[];
  /** Config warnings (what Kubernetes accepts but documents as unsafe). */
  readonly warnings?: readonly string[];
  /**
   * Warnings about the verdicts themselves, one line each, worded by the command (a liveness
   * property that holds only vacuously): the terminal prints them under the liveness section, and
   * JSON joins them to `warnings`.
   */
  readonly verdictWarnings?: readonly string[];
  /** What the cluster's own files hold that the model does not read (each ignored). */
  readonly notModelled?: readonly string[];
  /** Random exploration's seed, runs, steps and fast-check replay path. */
  readonly simulation?: {
    readonly seed: number;
    readonly runs: number;
    readonly steps: number;
    readonly replay?: string;
    readonly replayCommand?: string;
    /** Distinct states the runs visited, and the exhaustive count when it is known. */
    readonly distinct?: number;
    readonly exhaustive?: number;
    /** Action names taken at least once, of the model's; fault steps taken; swarm runs. */
    readonly actionsTaken?: number;
    readonly actions?: number;
    readonly faultSteps?: number;
    readonly swarm?: boolean;
  };
}

/**
 * What a reader of any report must see beside the verdict, one line each: the config warnings,
 * the properties the default selection left out (with why), and what of the cluster's files the
 * model does not read. Markdown, HTML and the terminal print them; JSON carries them as fields.
 */
export function runNotes(info: RunInfo): { readonly warnings: readonly string[]; readonly leftOut: readonly string[]; readonly notModelled: readonly string[] } {
  return {
    warnings: info.warnings ?? [],
    leftOut: (info.leftOut ?? []).map((l) => `${l.id}: ${l.reason}`),
    notModelled: info.notModelled ?? [],
  };
}

/** Exit codes: 0 every checked property holds on the whole space, 1 a violation, 3 incomplete (2 is bad input). */
export function exitCodeOf(verdict: Verdict): 0 | 1 | 3 {
  return verdict === 'ok' ? 0 : verdict === 'violation' ? 1 : 3;
}

/**
 * The verdict of a whole run and its exit code (a liveness property that fails made the result's
 * verdict a violation). The terminal, `--json`, JUnit, SARIF and result.json all read it.
 */
export function runVerdict<S>(result: Pick<CheckResult<S>, 'verdict'>): { readonly verdict: Verdict; readonly exitCode: 0 | 1 | 3 } {
  return { verdict: result.verdict, exitCode: exitCodeOf(result.verdict) };
}

/**
 * Why a counterexample's last state violates its property, in one line, from the property's own
 * `explain` hook (the model's property of that id); undefined for a property without one, and for
 * an outcome that is not a violation with a trace. Every report opens a counterexample with it.
 */
export function violationWhy<S>(model: Pick<Model<S>, 'properties'>, outcome: PropertyOutcome<S>): string | undefined {
  if (outcome.status !== 'violated' || outcome.trace === undefined) return undefined;
  const property = model.properties.find((p) => p.id === outcome.id);
  return property === undefined ? undefined : explainViolation(property, outcome.trace);
}

const MARK: Record<PropertyStatus, string> = { holds: '✓', witnessed: '✓', violated: '✗', unwitnessed: '✗', unknown: '?' };

function colourStatus(c: Palette, status: PropertyStatus, text: string): string {
  if (status === 'violated' || status === 'unwitnessed') return c.red(text);
  if (status === 'unknown') return c.yellow(text);
  return c.green(text);
}

/** One line per property: mark, id, status, description. */
export function formatProperties<S>(properties: readonly PropertyOutcome<S>[], c: Palette = plain): string {
  const idWidth = Math.max(0, ...properties.map((p) => p.id.length));
  const stWidth = Math.max(0, ...properties.map((p) => p.status.length));
  return properties
    .map((p) => `  ${colourStatus(c, p.status, MARK[p.status])} ${p.id.padEnd(idWidth)}  ${colourStatus(c, p.status, p.status.padEnd(stWidth))}  ${c.dim(p.description)}`)
    .join('\n');
}

/** `1,234 distinct states, 5,678 generated, depth 12, 0.4s (3,085 states/s), 95 MiB` (peak resident memory, binary units as --max-memory reports them). */
export function formatStats<S>(result: CheckResult<S>): string {
  const s = result.stats;
  const n = (x: number): string => x.toLocaleString('en-US');
  return `${n(s.distinctStates)} distinct states, ${n(s.generatedStates)} generated, depth ${s.depth}, ${s.seconds.toFixed(2)}s (${n(Math.round(s.statesPerSecond))} states/s), ${Math.round(s.peakMemoryMB)} MiB`;
}

/** Why a search is incomplete, in words. */
export function formatStop<S>(result: CheckResult<S>): string | undefined {
  const b = result.stoppedBy;
  if (!b) return undefined;
  const what = { depth: `--max-depth ${b.limit}`, states: `--max-states ${b.limit}`, time: `--time-limit ${formatDuration(b.limit)}`, memory: `memory limit ${b.limit} MiB` }[b.bound];
  return `the search stopped at ${what} before the state space was exhausted`;
}

/**
 * The verdict line, e.g. `violation: 1 property violated (exit 1)`; with liveness properties the
 * line of the search, whose exit code a liveness violation decides (said below it).
 */
export function formatVerdict<S>(result: CheckResult<S>, c: Palette = plain): string {
  const whole = runVerdict(result);
  const search = result.searchVerdict ?? result.verdict;
  if (whole.verdict !== search) {
    const holds = search === 'ok' ? 'ok: every checked property holds on the whole state space' : 'incomplete: no safety violation found';
    const liveness = whole.verdict === 'violation' ? 'a liveness property is violated' : 'liveness not decided';
    return c.yellow(`${holds}; ${liveness} (exit ${whole.exitCode}, see below)`);
  }
  const code = whole.exitCode;
  const searched = searchOutcomes(result);
  const failed = searched.filter((p) => p.status === 'violated' || p.status === 'unwitnessed').length;
  const unknown = searched.filter((p) => p.status === 'unknown').length;
  switch (search) {
    case 'ok':
      return c.green(`ok: every checked property holds on the whole state space (exit ${code})`);
    case 'violation':
      return c.red(`violation: ${failed} ${failed === 1 ? 'property' : 'properties'} failed (exit ${code})`);
    case 'incomplete':
      return c.yellow(`incomplete: no violation found, ${unknown} ${unknown === 1 ? 'property' : 'properties'} undecided (exit ${code})`);
  }
}

export interface FormatOptions {
  readonly colors?: Palette;
  /** Counterexamples printed in full (default 3); the rest are listed. */
  readonly maxTraces?: number;
  /** Fold quiet stretches of the timelines (default true); false prints every step (`--unfold`). */
  readonly fold?: boolean;
}

/**
 * The whole terminal report of `check` or `simulate`: the search's properties, their
 * counterexamples, the statistics and the verdict, then the liveness properties in a section of
 * their own (decided on the whole graph after the search), each violation's lasso as a timeline.
 */
export function formatOutcome<S>(model: Model<S>, result: CheckResult<S>, info: RunInfo, options: FormatOptions = {}): string {
  const c = options.colors ?? plain;
  const out: string[] = [];
  const searched = searchOutcomes(result);
  out.push(c.bold(`${info.command} ${info.scenario ?? model.name}`) + (info.scenario ? c.dim(`  (${model.name})`) : ''));
  out.push(formatProperties(searched, c));
  for (const l of info.leftOut ?? []) out.push(c.dim(`  - ${l.id}  not checked: ${l.reason}`));
  const violated = searched.filter((p) => p.status === 'violated' && p.trace);
  const max = options.maxTraces ?? 3;
  for (const p of violated.slice(0, max)) {
    const trace = p.trace!;
    const steps = timelineSteps(model, trace);
    out.push('');
    out.push(c.red(`✗ ${p.id}: ${p.description}`));
    const why = violationWhy(model, p);
    if (why !== undefined) out.push(`  why: ${why}`);
    out.push(c.dim(`  counterexample: ${trace.actions.length} steps, ${formatDuration(traceDuration(steps))} of model time`));
    out.push(formatTimeline(model, trace, { colors: c, fold: options.fold !== false }));
  }
  if (violated.length > max) out.push(c.dim(`… and ${violated.length - max} more counterexamples (use --out DIR to write them all)`));
  for (const p of searched.filter((q) => q.status === 'unwitnessed')) {
    out.push('', c.red(`✗ ${p.id}: goal never reached on the whole state space: the scenario may be vacuous`));
  }
  if (info.simulation) {
    const s = info.simulation;
    out.push('', `seed ${s.seed}, ${s.runs} runs, ${s.steps.toLocaleString('en-US')} steps`);
    if (s.distinct !== undefined) {
      const share = s.exhaustive ? ` (${((100 * s.distinct) / s.exhaustive).toFixed(1)}% of the ${s.exhaustive.toLocaleString('en-US')} reachable states)` : '';
      const actions = s.actions ? `; ${s.actionsTaken ?? 0} of ${s.actions} actions taken` : '';
      const faults = s.swarm ? `, ${(s.faultSteps ?? 0).toLocaleString('en-US')} fault steps (swarm runs)` : '';
      out.push(`coverage: ${s.distinct.toLocaleString('en-US')} distinct states visited${share}${actions}${faults}`);
    }
    if (s.replay !== undefined) out.push(`replay this failure: ${s.replayCommand ?? `--seed ${s.seed} --replay-path '${s.replay}'`}`);
  }
  out.push('');
  out.push(c.dim(formatStats(result)));
  const stop = formatStop(result);
  if (stop) out.push(c.yellow(stop));
  out.push(formatVerdict(result, c));
  const liveness = livenessOutcomes(result);
  if (liveness.length > 0) out.push('', formatLiveness(model, liveness, c, options.fold !== false, info.livenessFairness));
  for (const w of info.verdictWarnings ?? []) out.push(c.yellow(`warning: ${w}`));
  return out.join('\n');
}
