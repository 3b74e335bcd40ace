/**
 * The testing API: kubecheck inside a user's own test runner (vitest, jest, node:test).
 *
 * ```ts
 * import { expectHolds, expectViolation, kubernetesScenario } from 'kubecheck/testing';
 * it('node-failure holds with our timing', async () => {
 *   const { model, properties } = kubernetesScenario('node-failure', { set: { 'kubeControllerManager.nodeMonitorGracePeriod': '40s' } });
 *   await expectHolds(model, { properties });
 * });
 * ```
 *
 * A failure throws an `Error` whose message has the verdict, the timeline of the counterexample
 * and where the full report (Markdown, ITF, DOT, SVG) was written: `$KUBECHECK_REPORT_DIR`, or a
 * fresh folder under the system's temporary directory. Random runs take their seed from
 * `$KUBECHECK_SEED` when set and print it on every failure.
 */
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  check, checkLiveness, type Lasso, type LivenessProperty, simulate, type CheckOptions, type CheckResult, type JsonValue, type Model, type SimulateOptions,
  type SimulationResult, type Trace,
} from '../checker/index.js';
import { formatDuration } from '../checker/duration.js';
import { withLiveness } from '../checker/result.js';
import type { RunInfo } from '../reports/outcome.js';
import { runArtifacts } from '../reports/artifacts.js';
import { failureBrief } from '../reports/brief.js';
import { fail, ToolErrorCode } from '../reports/errors.js';

export { counterexampleBrief, lassoBrief } from '../reports/brief.js';
export { kubernetesScenario } from '../properties/scenario.js';
export type { KubernetesScenario, KubernetesScenarioInput } from '../properties/scenario.js';

/** Where a failing assertion writes its report, and what it says the run was. */
export interface ReportOptions {
  /** Folder for reports; default `$KUBECHECK_REPORT_DIR` or a new temporary folder. */
  readonly reportDir?: string;
  /** Scenario name and config shown in the report and saved in the ITF trace (for replay). */
  readonly scenario?: string;
  readonly config?: JsonValue;
}

function reportFolder(options: ReportOptions): string {
  const root = options.reportDir ?? process.env.KUBECHECK_REPORT_DIR;
  if (root === undefined || root === '') return mkdtempSync(join(tmpdir(), 'kubecheck-'));
  // A fresh sub-folder per failure: nothing already there is overwritten.
  mkdirSync(root, { recursive: true });
  return mkdtempSync(join(root, `${slug(options.scenario ?? 'run')}-`));
}

const slug = (s: string): string => s.replace(/[^a-z0-9-]+/gi, '-').toLowerCase();

/**
 * Writes the report and throws the failure message. `hurried`: the check ran up to a share of
 * the test's timeout, so the report draws no state graph (each explores the model again).
 */
async function failWith<S>(model: Model<S>, result: CheckResult<S>, info: RunInfo, headline: string, options: ReportOptions, hurried = false): Promise<never> {
  const dir = reportFolder(options);
  const files = await runArtifacts(model, result, info, undefined, 200, true, hurried ? 0 : undefined);
  // A fresh folder of its own: nothing is there to replace.
  for (const f of files) writeFileSync(join(dir, f.name), f.content);
  const lines = [headline, ...failureBrief(model, result.properties)];
  if (info.simulation) {
    const { seed, replay } = info.simulation;
    lines.push('', `seed ${seed}${replay ? `, path ${replay}` : ''} (rerun with KUBECHECK_SEED=${seed})`);
  }
  const html = files.some((f) => f.name === 'report.html') ? `, ${join(dir, 'report.html')}` : '';
  lines.push('', `full report: ${join(dir, 'report.md')}${html} (every step with its state changes, the ITF trace for kubecheck replay)`);
  throw new Error(lines.join('\n'));
}

/** The part of a vitest test's timeout a check may take when no time bound is given: the rest writes the report and the message. */
const SHARE_OF_TEST_TIMEOUT = 0.6;

/**
 * The timeout of the vitest test this runs in, in milliseconds, or undefined outside one (the
 * testing API runs without vitest too, so the runner is looked up, not imported).
 */
async function currentTestTimeout(): Promise<number | undefined> {
  const runner = '@vitest/runner';
  try {
    const mod = (await import(runner)) as { getCurrentTest?: () => { readonly timeout?: unknown } | undefined };
    const timeout = mod.getCurrentTest?.()?.timeout;
    return typeof timeout === 'number' && timeout > 0 && Number.isFinite(timeout) ? timeout : undefined;
  } catch {
    return undefined;
  }
}

/**
 * The options with a time bound: the caller's, or, inside a vitest test, a share of its timeout,
 * so a long check ends with its verdict and any counterexample in the failure message instead of
 * vitest's bare "Test timed out" (a check is synchronous: the test's timer cannot stop it).
 */
async function boundedByTest<O extends CheckOptions>(options: O): Promise<{ readonly options: O; readonly fromTest?: number }> {
  if (options.timeLimitSeconds !== undefined) return { options };
  const timeout = await currentTestTimeout();
  if (timeout === undefined) return { options };
  return { options: { ...options, timeLimitSeconds: (timeout / 1000) * SHARE_OF_TEST_TIMEOUT }, fromTest: timeout };
}

/** Why a check stopped short, for the headline of a failure. */
function stoppedWhy<S>(result: CheckResult<S>, fromTest: number | undefined): string {
  const bound = result.stoppedBy?.bound;
  if (bound === 'time' && fromTest !== undefined) {
    return `the search was stopped after ${formatDuration((fromTest / 1000) * SHARE_OF_TEST_TIMEOUT)}, ${Math.round(SHARE_OF_TEST_TIMEOUT * 100)} % of the test's ${formatDuration(fromTest / 1000)} timeout, with ${result.stats.distinctStates.toLocaleString('en-US')} states explored (give timeLimitSeconds, or raise the test's timeout)`;
  }
  return `the search was stopped by its ${bound ?? 'a'} bound`;
}

/** What the run was: the options' scenario and config, else those the model was built from (`kubernetesScenario`'s). */
function runInfo<S>(command: 'check' | 'simulate', model: Model<S>, options: ReportOptions): RunInfo {
  const scenario = options.scenario ?? model.origin?.scenario;
  const config = options.config ?? model.origin?.config;
  return { command, ...(scenario === undefined ? {} : { scenario }), ...(config === undefined ? {} : { config }) };
}

/**
 * Asserts that every property holds on the whole space and every goal is witnessed (verdict `ok`).
 * Returns the result for further assertions (e.g. on `stats`).
 */
export async function expectHolds<S>(model: Model<S>, given: CheckOptions & ReportOptions = {}): Promise<CheckResult<S>> {
  const { options, fromTest } = await boundedByTest(given);
  const result = check(model, options);
  if (result.verdict !== 'ok') {
    const why = result.verdict === 'incomplete' ? stoppedWhy(result, fromTest) : 'a property failed';
    await failWith(model, result, runInfo('check', model, options), `expected every property of ${options.scenario ?? model.name} to hold, but ${why} (verdict ${result.verdict})`, options, fromTest !== undefined);
  }
  return result;
}

/**
 * Asserts that `property` is violated and returns its shortest counterexample, so a test can say
 * how long it is and how it ends.
 */
export async function expectViolation<S>(model: Model<S>, property: string, given: CheckOptions & ReportOptions = {}): Promise<Trace<S>> {
  const { options, fromTest } = await boundedByTest(given);
  const result = check(model, { ...options, properties: [property] });
  const outcome = result.properties.find((p) => p.id === property);
  if (outcome?.status !== 'violated' || !outcome.trace) {
    const status = outcome?.status === 'holds' ? 'holds on the whole space' : result.verdict === 'incomplete' ? `was not found: ${stoppedWhy(result, fromTest)}` : `is ${outcome?.status ?? 'unknown'}`;
    throw new Error(`expected ${property} to be violated in ${options.scenario ?? model.name}, but it ${status} (verdict ${result.verdict}, ${result.stats.distinctStates} states)`);
  }
  return outcome.trace;
}

/** Liveness is checked on the whole graph without symmetry; the liveness checker keeps it whole up to this many states. */
export interface LivenessAssertOptions extends ReportOptions {
  readonly maxStates?: number;
}

/**
 * Asserts that every liveness property holds under the model's fairness (as `check --liveness`
 * checks it); a failure's message shows each violating lasso, where its cycle starts and the
 * state it loops in, and says where the full report was written, as a failing safety assertion
 * does: the Markdown and HTML reports (each lasso's timeline with its state changes, the cycle
 * marked) and each lasso as an ITF trace (`liveness-<id>.itf.json`, with its `loop`) that
 * `kubecheck replay` re-executes. The report's figures are those of the search `check --liveness`
 * runs beside the liveness check (made only on a failure).
 */
export async function expectEventually<S>(model: Model<S>, properties: readonly LivenessProperty<S>[], given: LivenessAssertOptions = {}): Promise<void> {
  const outcomes = checkLiveness(model, properties, given.maxStates === undefined ? {} : { maxStates: given.maxStates });
  const failed = outcomes.filter((o) => o.status === 'violated' && o.lasso !== undefined);
  if (failed.length === 0) return;
  const headline = `expected every liveness property of ${given.scenario ?? model.name} to hold under fairness, but ${failed.map((o) => o.id).join(', ')} ${failed.length === 1 ? 'is' : 'are'} violated`;
  // The run as `check --liveness` reports it: the search's figures, then the liveness outcomes.
  const { options, fromTest } = await boundedByTest<CheckOptions>(given.maxStates === undefined ? {} : { maxStates: given.maxStates });
  const result = withLiveness(check(model, { ...options, properties: [] }), outcomes);
  await failWith(model, result, runInfo('check', model, given), headline, given, fromTest !== undefined);
}

/** Asserts that liveness property `id` (one of `properties`) is violated, and returns its lasso. */
export async function expectLivenessViolation<S>(model: Model<S>, properties: readonly LivenessProperty<S>[], id: string, options: LivenessAssertOptions = {}): Promise<Lasso<S>> {
  const property = properties.find((p) => p.id === id);
  if (property === undefined) fail(ToolErrorCode.badOption, `no liveness property ${id} (there are: ${properties.map((p) => p.id).join(', ') || 'none'})`);
  const [outcome] = checkLiveness(model, [property], options.maxStates === undefined ? {} : { maxStates: options.maxStates });
  if (outcome.status !== 'violated' || outcome.lasso === undefined) throw new Error(`expected ${id} to be violated in ${options.scenario ?? model.name}, but it holds under fairness on the whole graph`);
  return outcome.lasso;
}

/** The seed of random runs: `$KUBECHECK_SEED` when set, else a fresh one (always reported). */
export function seedFromEnvironment(): number | undefined {
  const raw = process.env.KUBECHECK_SEED;
  if (raw === undefined || raw === '') return undefined;
  const seed = Number(raw);
  if (!Number.isInteger(seed)) throw new Error(`KUBECHECK_SEED must be an integer, got "${raw}"`);
  return seed;
}

/**
 * Random runs (fast-check) that must find no violation, of `properties` (default: the model's
 * `defaultProperties`, a scenario's own selection, as `check` takes it; else every property). On
 * failure the message has the seed, the fast-check path, the minimal trace's timeline and the
 * report's path.
 */
export async function expectNoRandomViolation<S>(model: Model<S>, given: SimulateOptions & ReportOptions & CoverageOptions = {}): Promise<SimulationResult<S> & { readonly covered: string }> {
  // The scenario's own properties unless others are named, as `check` and `simulate` take them.
  const options = given.properties === undefined && model.defaultProperties !== undefined ? { ...given, properties: model.defaultProperties } : given;
  const seed = options.seed ?? seedFromEnvironment();
  const result = simulate(model, { ...options, ...(seed === undefined ? {} : { seed }) });
  const exhaustive = options.exhaustive === true ? exhaustiveCount(model, options) : undefined;
  const covered = coverageLine(result, exhaustive);
  if (result.verdict === 'violation') {
    const info: RunInfo = {
      ...runInfo('simulate', model, options),
      simulation: { seed: result.seed, runs: result.runs, steps: result.steps, ...(result.replay ? { replay: result.replay } : {}) },
    };
    await failWith(model, result, info, `random exploration of ${options.scenario ?? model.name} found a violation (${covered})`, options);
  }
  (options.log ?? ((line: string) => console.log(line)))(`kubecheck: no violation in random runs of ${options.scenario ?? model.name}: ${covered}`);
  return { ...result, covered };
}

/** What {@link expectNoRandomViolation} says about its coverage, and where. */
export interface CoverageOptions {
  /**
   * Also count the whole space (breadth-first, the figure `kubecheck check` prints) to give the
   * share covered; only for spaces that can be exhausted.
   */
  readonly exhaustive?: boolean;
  /** Where the coverage line goes (default: the console, which the test runner shows). */
  readonly log?: (line: string) => void;
}

/** The number of distinct states `check` reports for the same model and properties, or undefined if bounded. */
function exhaustiveCount<S>(model: Model<S>, options: SimulateOptions): number | undefined {
  const whole = check(model, {
    ...(options.properties ? { properties: options.properties } : {}),
    ...(options.symmetry === undefined ? {} : { symmetry: options.symmetry }),
    ...(options.timeLimitSeconds === undefined ? {} : { timeLimitSeconds: options.timeLimitSeconds }),
  });
  const decidedEarly = whole.properties.length > 0 && whole.properties.every((p) => p.status === 'violated' || p.status === 'witnessed');
  return whole.stoppedBy === undefined && !decidedEarly ? whole.stats.distinctStates : undefined;
}

/** `300 runs, 41,000 steps (seed 7): 1,548 distinct states (6.0% of the 26,055 check counts), 14 of 43 actions, 35 fault steps`. */
export function coverageLine<S>(result: SimulationResult<S>, exhaustive?: number): string {
  const n = (x: number): string => x.toLocaleString('en-US');
  const c = result.coverage;
  const share = exhaustive ? ` (${((100 * c.distinctStates) / exhaustive).toFixed(1)}% of the ${n(exhaustive)} that check counts)` : '';
  const faults = c.swarm ? `, ${n(c.faultSteps)} fault steps (swarm runs)` : '';
  return `${n(result.runs)} runs, ${n(result.steps)} steps (seed ${result.seed}): ${n(c.distinctStates)} distinct states${share}, ${c.actionsTaken} of ${c.actions} actions taken${faults}`;
}
