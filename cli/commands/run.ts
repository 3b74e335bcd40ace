/** `kubecheck check` and `kubecheck simulate`: search, print the outcome, write the reports, exit by verdict. */
import { check, minimizeTrace, simulate, type CheckResult, type Property, type SearchVisitor } from '../../checker/index.js';
import { projectionVisitor } from '../../reports/projected.js';
import { outcomeJson } from '../../reports/json.js';
import { githubAnnotations } from '../../reports/githubAnnotations.js';
import { junitReport } from '../../reports/junit.js';
import { sarifReport } from '../../reports/sarif.js';
import { formatOutcome, runVerdict, type RunInfo } from '../../reports/outcome.js';
import { prepareOut, stageArtifacts, type OutPlan } from '../artifacts.js';
import { runArtifacts } from '../../reports/artifacts.js';
import { fail, ToolErrorCode } from '../../reports/errors.js';
import type { Model } from '../../checker/index.js';
import { modelFactoryOf } from '../modelFactory.js';
import { checkOnCluster } from './cluster.js';
import { CheckerErrorCode } from '../../checker/index.js';
import { checkPropertyIds, configPaths, resolveFromOptions, type ConfigOptions } from '../subjects.js';
import { KUBECHECK_VERSION } from '../version.js';
import { onInterrupt, progressReporter, signalsDelivered, stdoutPalette } from '../terminal.js';

export interface RunOptions extends ConfigOptions {
  readonly property?: string[];
  readonly out?: string;
  readonly force?: boolean;
  readonly json?: boolean;
  /** `check --format`: text (default), json (as --json), junit or sarif. */
  readonly format?: string;
  /** No progress on stderr. */
  readonly quiet?: boolean;
  readonly color?: boolean;
  readonly maxNodes?: number;
  // check
  readonly maxDepth?: number;
  readonly maxStates?: number;
  readonly timeLimit?: number;
  readonly symmetry?: boolean;
  readonly dfs?: boolean;
  readonly workers?: number;
  readonly maxMemory?: number;
  readonly stopAtFirst?: boolean;
  readonly minimize?: boolean;
  // simulate
  readonly runs?: number;
  readonly maxSteps?: number;
  readonly seed?: number;
  readonly replayPath?: string;
  readonly coverage?: boolean;
  readonly liveness?: boolean;
  /** `check --cluster redis://HOST:PORT/RUN`: one search over `expect` worker processes through Redis. */
  readonly cluster?: string;
  readonly expect?: number;
  /** Every step of a counterexample on a line of its own: no quiet stretch folded. */
  readonly unfold?: boolean;
}

/** The command line that replays a random failure: this one, with its seed and fast-check path. */
function replayCommand(seed: number, path: string): string {
  const args = process.argv.slice(2);
  const kept: string[] = [];
  for (let i = 0; i < args.length; i++) {
    if (args[i] === '--seed' || args[i] === '--replay-path' || args[i] === '--out' || args[i] === '-o') i++;
    else if (!/^--(seed|replay-path|out)=/.test(args[i]) && args[i] !== '--force') kept.push(/[\s'"$]/.test(args[i]) ? `'${args[i]}'` : args[i]);
  }
  return `kubecheck ${kept.join(' ')} --seed ${seed} --replay-path '${path}'`;
}

/** The result with each counterexample minimised (see `minimizeTrace`). */
function minimized<S>(model: Model<S>, result: CheckResult<S>): CheckResult<S> {
  return { ...result, properties: result.properties.map((p) => (p.status === 'violated' && p.trace ? { ...p, trace: minimizeTrace(model, p.id, p.trace) } : p)) };
}

/** What `check --format` can print on stdout. */
export const OUTPUT_FORMATS = ['text', 'json', 'junit', 'sarif'] as const;
export type OutputFormat = (typeof OUTPUT_FORMATS)[number];

/** The output format of the options; an unknown one, or one that contradicts `--json`, is bad input (KC200). */
export function outputFormatOf(opts: Pick<RunOptions, 'format' | 'json'>): OutputFormat {
  if (opts.format === undefined) return opts.json ? 'json' : 'text';
  const f = opts.format;
  if (!(OUTPUT_FORMATS as readonly string[]).includes(f)) fail(ToolErrorCode.badOption, `--format must be one of ${OUTPUT_FORMATS.join(', ')}, got "${f}"`);
  if (opts.json && f !== 'json') fail(ToolErrorCode.badOption, `--json and --format ${f} ask for two outputs on stdout; give one of them`);
  return f as OutputFormat;
}

/** Whether the workflow commands of GitHub Actions are wanted: GitHub sets GITHUB_ACTIONS=true in every job. */
function inGithubActions(): boolean {
  return process.env.GITHUB_ACTIONS === 'true';
}

/** The longest random run: fast-check holds a run's choices in memory while it runs and shrinks it. */
const MAX_SIMULATE_STEPS = 1_000_000;

/** Runs a simulation; a `--replay-path` that fast-check cannot follow is bad input (KC200), not a crash. */
function simulateOrRefuse<T>(run: () => T, replayPath: string | undefined): T {
  try {
    return run();
  } catch (e) {
    if (replayPath !== undefined && /replay/i.test(String((e as Error)?.message))) {
      fail(ToolErrorCode.badOption, `--replay-path ${replayPath} does not replay with this seed and these options (${String((e as Error).message).split('\n')[0]})`);
    }
    throw e;
  }
}

/**
 * Refuses options that would be ignored or could only fail after the search: `--symmetry` on a
 * model without one, `--replay-path` without its `--seed` or not a fast-check path, and an `--out`
 * that exists (without `--force`) or cannot be written. Returns the plan for `--out`.
 */
function checkRunOptions(command: 'check' | 'simulate', opts: RunOptions, model: Model<unknown>, scenario: string): OutPlan | undefined {
  if (opts.symmetry === true && model.canonicalize === undefined) {
    fail(ToolErrorCode.badOption, `scenario ${scenario} has no symmetry to reduce; drop --symmetry`);
  }
  if (command === 'simulate' && opts.maxSteps !== undefined && opts.maxSteps > MAX_SIMULATE_STEPS) {
    fail(ToolErrorCode.badOption, `--max-steps must be at most ${MAX_SIMULATE_STEPS.toLocaleString('en-US')}, got ${opts.maxSteps}: each run's choices are held in memory (ten million take gigabytes); for deep behaviours use check`);
  }
  if (command === 'simulate' && opts.replayPath !== undefined) {
    if (opts.seed === undefined) fail(ToolErrorCode.badOption, '--replay-path replays a failure of one seed: give the --seed it was printed with');
    if (!/^\d+(:\d+)*$/.test(opts.replayPath)) fail(ToolErrorCode.badOption, `--replay-path must be the path simulate printed (numbers separated by ':', e.g. 21:6:0), got "${opts.replayPath}"`);
  }
  return opts.out === undefined ? undefined : prepareOut(opts.out, opts.force === true);
}

/** What a search over worker processes does not do, refused in one line (KC016) before it starts, as TLC does. */
function refuseOnCluster(opts: RunOptions, extended: boolean): void {
  const why = opts.liveness ? '--liveness is decided on the whole graph in one process'
    : opts.dfs ? '--dfs: a distributed search is breadth-first'
      : opts.workers !== undefined && opts.workers > 1 ? '--workers: run one worker process per core instead'
        : extended ? '--extension: workers rebuild the model from its config, which holds no extension' : undefined;
  if (why !== undefined) fail(CheckerErrorCode.distributedUnsupported, `--cluster cannot be combined with ${why}`);
}

/** Runs `check` or `simulate`; returns the exit code. */
export async function runSearch(command: 'check' | 'simulate', given: RunOptions): Promise<number> {
  const format = outputFormatOf(given);
  const opts: RunOptions = format === 'json' ? { ...given, json: true } : given;
  const r = await resolveFromOptions(opts);
  checkPropertyIds(r.subject, opts.property);
  const outPlan = checkRunOptions(command, opts, r.model, r.scenario);
  if (opts.workers !== undefined && opts.workers > 1 && r.extensions.length > 0) {
    fail(ToolErrorCode.badOption, '--workers rebuilds the model in each thread from its config, which holds no --extension; run extended models on one worker');
  }
  if (command === 'check' && opts.cluster !== undefined) refuseOnCluster(opts, r.extensions.length > 0);
  const properties = opts.property && opts.property.length > 0 ? opts.property : r.defaultProperties;
  let result: CheckResult<unknown>;
  let info: RunInfo = {
    command,
    scenario: r.scenario,
    config: r.config,
    ...(opts.allowUnsafeConfig ? { allowUnsafeConfig: true } : {}),
    ...(r.warnings && r.warnings.length > 0 ? { warnings: r.warnings } : {}),
    ...(properties === r.defaultProperties && r.leftOut && r.leftOut.length > 0 ? { leftOut: r.leftOut } : {}),
    ...(opts.liveness && r.subject.livenessHeading !== undefined ? { livenessFairness: r.subject.livenessHeading } : {}),
    ...(r.notModelled.length > 0 ? { notModelled: r.notModelled } : {}),
  };
  if (!opts.json) for (const w of r.warnings ?? []) process.stderr.write(`kubecheck: warning: ${w}\n`);
  // The report's projected graphs are drawn from the states the check explores (one thread, the
  // generic search: a state-vector model or workers keep their engine, and the report explores).
  const recorder = command === 'check' && outPlan !== undefined && (opts.workers ?? 1) <= 1 && opts.cluster === undefined && r.model.stateVector === undefined
    ? projectionVisitor(r.model, r.model.properties.filter((p) => properties.includes(p.id)) as readonly Property<unknown>[])
    : undefined;
  if (command === 'check' && opts.liveness && (r.liveness === undefined || r.liveness.length === 0)) {
    fail(ToolErrorCode.badOption, `--liveness: scenario ${r.scenario} has no liveness properties`);
  }
  if (command === 'check') {
    let progress = progressReporter({ quiet: opts.quiet === true });
    const endProgress = (): void => {
      progress?.stop();
      progress = undefined;
    };
    try {
      const checkOptions = {
        properties,
        ...(recorder === undefined ? {} : { visitor: recorder.visitor as SearchVisitor<unknown> }),
        ...(opts.maxDepth === undefined ? {} : { maxDepth: opts.maxDepth }),
        ...(opts.maxStates === undefined ? {} : { maxStates: opts.maxStates }),
        ...(opts.timeLimit === undefined ? {} : { timeLimitSeconds: opts.timeLimit }),
        ...(opts.symmetry === undefined ? {} : { symmetry: opts.symmetry }),
        ...(opts.dfs ? { strategy: 'dfs' as const } : {}),
        ...(opts.workers === undefined || opts.workers === 1 ? {} : { workers: opts.workers, modelFactory: modelFactoryOf(r.scenario, r.config) }),
        ...(opts.maxMemory === undefined ? {} : { maxMemoryBytes: opts.maxMemory }),
        ...(opts.stopAtFirst ? { stopAtFirstViolation: true } : {}),
        ...(progress ? { onProgress: progress.onProgress, progressIntervalMs: progress.intervalMs } : {}),
        // Liveness: on the whole graph, without symmetry (a lasso on the reduced graph need not be
        // a behaviour), once the search's progress line is gone; its outcomes join the result's.
        ...(opts.liveness && r.liveness !== undefined ? { liveness: r.liveness, onSearchEnd: endProgress } : {}),
      };
      result = opts.cluster === undefined ? check(r.model, checkOptions) : await checkOnCluster(r.model, r.scenario, r.config, checkOptions, { cluster: opts.cluster, expect: opts.expect, quiet: opts.quiet });
    } finally {
      endProgress();
    }
    if (opts.minimize) result = minimized(r.model, result);
  } else {
    const sim = simulateOrRefuse(() => simulate(r.model, {
      properties,
      ...(opts.runs === undefined ? {} : { runs: opts.runs }),
      ...(opts.maxSteps === undefined ? {} : { maxSteps: opts.maxSteps }),
      ...(opts.seed === undefined ? {} : { seed: opts.seed }),
      ...(opts.replayPath === undefined ? {} : { replay: opts.replayPath }),
      ...(opts.symmetry === undefined ? {} : { symmetry: opts.symmetry }),
      ...(opts.timeLimit === undefined ? {} : { timeLimitSeconds: opts.timeLimit }),
    }), opts.replayPath);
    result = sim;
    const replay = sim.replay === undefined ? {} : { replay: sim.replay, replayCommand: replayCommand(sim.seed, sim.replay) };
    // The share of the exhaustive count, where it can be known within the time limit.
    let exhaustive: number | undefined;
    if (opts.coverage) {
      // The count `check` reports for the same properties (observers' states are part of it).
      const whole = check(r.model, { properties, timeLimitSeconds: opts.timeLimit ?? 60, ...(opts.symmetry === undefined ? {} : { symmetry: opts.symmetry }) });
      const decidedEarly = whole.properties.length > 0 && whole.properties.every((p) => p.status === 'violated' || p.status === 'witnessed');
      if (whole.stoppedBy === undefined && !decidedEarly) exhaustive = whole.stats.distinctStates;
    }
    const { actionsTaken, actions, faultSteps, swarm } = sim.coverage;
    info = { ...info, simulation: { seed: sim.seed, runs: sim.runs, steps: sim.steps, distinct: sim.stats.distinctStates, ...(exhaustive === undefined ? {} : { exhaustive }), actionsTaken, actions, faultSteps, swarm, ...replay } };
  }
  let written: string[] = [];
  if (outPlan !== undefined) {
    // Ctrl-C while the reports are built and written: say what was explored, and leave the earlier
    // report as it was. A signal is only handled between steps, so each step yields to let one in.
    const done = result;
    let placed = false;
    const stop = onInterrupt(() => placed
      ? `interrupted as the report was put in place; ${outPlan.dir} holds this run's report, whole`
      : `interrupted after the search (${done.stats.distinctStates.toLocaleString('en-US')} distinct states, depth ${done.stats.depth}, verdict ${done.verdict}); nothing was written to ${outPlan.dir}`);
    try {
      const files = await runArtifacts(r.model, result, info, r.subject.participants, opts.maxNodes ?? 500, opts.unfold !== true, recorder?.projection);
      await signalsDelivered();
      const staged = stageArtifacts(outPlan, files);
      await signalsDelivered(); // a Ctrl-C during the writing ends here: the earlier report stays
      written = staged.commit();
      placed = true;
      await signalsDelivered();
    } finally {
      stop();
    }
  }
  if (format === 'junit' || format === 'sarif') {
    const document = format === 'junit'
      ? junitReport(r.model, result, info)
      : `${JSON.stringify(sarifReport(r.model, result, info, { toolVersion: KUBECHECK_VERSION, configFiles: configPaths(opts) }), null, 2)}\n`;
    process.stdout.write(document);
    if (written.length > 0) process.stderr.write(`kubecheck: wrote ${written.length} files to ${opts.out}: ${written.map((w) => w.slice(opts.out!.length).replace(/^[\\/]/, '')).join(', ')}\n`);
  } else if (opts.json) {
    const imported = r.extensions.length > 0 ? { extensions: r.extensions } : {};
    process.stdout.write(`${JSON.stringify({ ...outcomeJson(r.model, result, info, written), ...imported }, null, 2)}\n`);
  } else {
    const c = stdoutPalette(opts.color === false);
    let text = formatOutcome(r.model, result, info, { colors: c, fold: opts.unfold !== true });
    if (written.length > 0) text += `\n${c.dim(`wrote ${written.length} files to ${opts.out}: ${written.map((w) => w.slice(opts.out!.length).replace(/^[\\/]/, '')).join(', ')}`)}`;
    process.stdout.write(`${text}\n`);
  }
  if (command === 'check' && inGithubActions()) {
    // With the text report on stdout, as GitHub documents; beside a JSON, JUnit or SARIF document
    // on stderr, which the runner reads for workflow commands too, so stdout stays one document.
    const lines = githubAnnotations(r.model, result, info);
    if (lines.length > 0) (format === 'text' ? process.stdout : process.stderr).write(lines.map((l) => `${l}\n`).join(''));
  }
  // The exit code and the printed verdict come from one place (liveness included).
  return runVerdict(result).exitCode;
}
