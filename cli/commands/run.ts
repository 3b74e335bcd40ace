import { hostname } from 'node:os';
/** `kubecheck check` and `kubecheck simulate`: search, print the outcome, write the reports, exit by verdict. */
import { check, MAX_SIMULATE_STEPS, minimizeTrace, simulate, type CheckResult, type FoundViolation, type Progress, type Property, type SearchVisitor, type Trace } from '../../checker/index.js';
import { formatDuration } from '../../checker/duration.js';
import { levelGrowth, roughCount, sizeCommand, type LevelSample } from './size.js';
import { itfOf, outcomeJson } from '../../reports/json.js';
import { formatTimeline } from '../../reports/timeline.js';
import { projectionVisitor } from '../../reports/projected.js';

import { githubAnnotations } from '../../reports/githubAnnotations.js';
import { junitReport } from '../../reports/junit.js';
import { sarifReport } from '../../reports/sarif.js';
import { formatOutcome, runVerdict, type RunInfo } from '../../reports/outcome.js';
import { extensionRecords } from '../extensions.js';
import { prepareOut, refuseFoldersInTheWay, stageArtifacts, type OutPlan } from '../artifacts.js';
import { fstatSync, ftruncateSync, readFileSync, writeSync } from 'node:fs';
import { reportNamesFor, runArtifacts } from '../../reports/artifacts.js';
import { fail, ToolErrorCode } from '../../reports/errors.js';
import type { Model } from '../../checker/index.js';
import { modelFactoryOf } from '../modelFactory.js';
import { checkOnCluster } from './cluster.js';
import { CheckerErrorCode } from '../../checker/index.js';
import { checkPropertyIds, configPaths, resolveFromOptions, type ConfigOptions } from '../subjects.js';
import { KUBECHECK_VERSION } from '../version.js';
import { withUserCodeBound } from '../userCodeBound.js';
import { onInterrupt, printErr, printOut, progressReporter, signalsDelivered, stdoutPalette } from '../terminal.js';
import { inputText, jsonText, terminalText, xmlLogText } from '../../checker/escape.js';

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
  readonly livenessMaxStates?: number;
  /** `check --cluster redis://HOST:PORT/RUN`: one search over `expect` worker processes through Redis. */
  readonly cluster?: string;
  readonly expect?: number;
  /** Every step of a counterexample on a line of its own: no quiet stretch folded. */
  readonly unfold?: boolean;
  /** `check --strict`: refuse (KC217) a cluster whose nodes or zones its files did not give. */
  readonly strict?: boolean;
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

/**
 * One line for each liveness property that holds only vacuously: a leads-to whose premise (its
 * left side, what triggers it) holds in no explored state, so nothing ever put its promise to the
 * test. The checker says whether the premise was reached (`premiseReached`); the words are the command's.
 */
export function vacuityWarnings(result: Pick<CheckResult<unknown>, 'properties'>): string[] {
  return result.properties
    .filter((p) => p.status === 'holds' && p.premiseReached === false)
    .map((p) => `${p.id} holds vacuously: its trigger (the left side of its leads-to) is reached in no explored state, so nothing tested what it promises`);
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
function refuseOnCluster(opts: RunOptions): void {
  const why = opts.model !== undefined ? '--model: workers rebuild the model from a scenario\'s name and config' : opts.liveness ? '--liveness is decided on the whole graph in one process'
    : opts.dfs ? '--dfs: a distributed search is breadth-first'
      : opts.workers !== undefined && opts.workers > 1 ? '--workers: run one worker process per core instead'
        : undefined;
  if (why !== undefined) fail(CheckerErrorCode.distributedUnsupported, `--cluster cannot be combined with ${why}`);
}

/** Runs `check` or `simulate`; returns the exit code. */
export async function runSearch(command: 'check' | 'simulate', given: RunOptions): Promise<number> {
  const format = outputFormatOf(given);
  const opts: RunOptions = format === 'json' ? { ...given, json: true } : given;
  const r = await resolveFromOptions(opts);
  checkPropertyIds(r.subject, opts.property, r.config);
  if (opts.strict && r.defaultedShape.length > 0) {
    fail(ToolErrorCode.clusterNotRead, `--strict: ${r.defaultedShape.join(' and ')} would be the scenario's default, not your cluster's: the files given (${configPaths(opts).join(', ')}) hold no Node objects nor a cluster definition (kind, kops, Cluster API, k3d, eksctl); add them (kubectl get nodes -o yaml) or --set ${r.defaultedShape[0]}=N`);
  }
  const outPlan = checkRunOptions(command, opts, r.model, r.scenario);
  if (command === 'check' && opts.cluster !== undefined) refuseOnCluster(opts);
  const properties = opts.property && opts.property.length > 0 ? opts.property : r.defaultProperties;
  let result: CheckResult<unknown>;
  const samples: LevelSample[] = [];
  let info: RunInfo = {
    command,
    scenario: r.scenario,
    startedAt: new Date().toISOString(),
    hostname: hostname(),
    ...(r.settings.length > 0 ? { settings: r.settings } : {}),
    config: r.config,
    ...(configPaths(opts).length > 0 || Object.keys(opts.set ?? {}).length > 0 ? { configInput: { files: [...configPaths(opts)], set: { ...opts.set } } } : {}),
    ...((r.extensionModules ?? []).length > 0 ? { extensionModules: extensionRecords(r.extensionModules ?? [], opts.out) } : {}),
    ...(opts.allowUnsafeConfig ? { allowUnsafeConfig: true } : {}),
    ...(r.warnings && r.warnings.length > 0 ? { warnings: r.warnings } : {}),
    ...(properties === r.defaultProperties && r.leftOut && r.leftOut.length > 0 ? { leftOut: r.leftOut } : {}),
    ...(opts.liveness && r.subject.livenessHeading !== undefined ? { livenessFairness: r.subject.livenessHeading } : {}),
    ...(r.notModelled.length > 0 ? { notModelled: r.notModelled } : {}),
  };
  if (!opts.json) for (const w of r.warnings ?? []) printErr(`kubecheck: warning: ${inputText(w)}\n`);
  // The report's projected graphs are drawn from the states the check explores (one thread, the
  // generic search: a state-vector model or workers keep their engine, and the report explores).
  const recorder = command === 'check' && outPlan !== undefined && (opts.workers ?? 1) <= 1 && opts.cluster === undefined && r.model.stateVector === undefined
    ? projectionVisitor(r.model, r.model.properties.filter((p) => properties.includes(p.id)) as readonly Property<unknown>[])
    : undefined;
  /** What stdout gets, in the format asked for. */
  const stdoutDocument = (res: CheckResult<unknown>, about: RunInfo, files: readonly string[]): string => {
    if (format === 'junit') return xmlLogText(junitReport(r.model, res, about));
    if (format === 'sarif') return `${jsonText(sarifReport(r.model, res, about, { toolVersion: KUBECHECK_VERSION, configFiles: configPaths(opts) }))}\n`;
    if (opts.json) return `${jsonText({ ...outcomeJson(r.model, res, about, [...files]), ...(r.extensions.length > 0 ? { extensions: r.extensions } : {}) })}\n`;
    const c = stdoutPalette(opts.color === false);
    let text = formatOutcome(r.model, res, about, { colors: c, fold: opts.unfold !== true });
    if (files.length > 0) text += `\n${c.dim(`wrote ${files.length} files to ${opts.out}: ${files.map((w) => w.slice(opts.out!.length).replace(/^[\\/]/, '')).join(', ')}`)}`;
    return terminalText(`${text}\n`, c.isColorSupported);
  };
  /** A search that runs users' code (extensions) runs under the bound on each call and the time limit. */
  const bounded = <T>(search: () => T): T => (r.extensions.length > 0 ? withUserCodeBound(search, opts.timeLimit) : search());
  const stdoutFile = rewritableStdout();
  // Each violation as it is found: a line on stderr, and the outputs rewritten with the violations
  // so far, so that a run killed before the search ends (a CI job's timeout) still holds them.
  const found = new Map<string, Trace<unknown>>();
  const decidedAt: Record<string, number> = Object.create(null) as Record<string, number>;
  const onViolation = (v: FoundViolation): void => {
    found.set(v.property, v.trace);
    decidedAt[v.property] ??= v.stats.seconds;
    const n = v.trace.actions.length;
    const left = properties.length - found.size;
    const soFar = resultSoFar(r.model, properties, found, v);
    const partialInfo: RunInfo = { ...info, warnings: [...(info.warnings ?? []), `partial: written when ${v.property} was found, while the search went on (${v.stats.distinctStates.toLocaleString('en-US')} distinct states); this run was stopped before it ended, so the properties not found violated are undecided`] };
    if (outPlan !== undefined) writePartialOut(r.model, soFar, partialInfo, outPlan);
    stdoutFile.partial(stdoutDocument(soFar, partialInfo, []));
    // The line last: whoever reads it and stops the run finds the violation written.
    process.stderr.write(`${process.stderr.isTTY ? '\r\x1b[K' : ''}kubecheck: found: ${inputText(v.property)} violated, a counterexample of ${n} step${n === 1 ? '' : 's'} (depth ${v.stats.depth}, ${v.stats.distinctStates.toLocaleString('en-US')} distinct states, ${v.stats.seconds.toFixed(1)}s)${opts.stopAtFirst || left <= 0 ? '' : '; the search goes on for the other properties'}\n`);
  };
  if (command === 'check' && opts.liveness && (r.liveness === undefined || r.liveness.length === 0)) {
    fail(ToolErrorCode.badOption, `--liveness: scenario ${r.scenario} has no liveness properties`);
  }
  if (command === 'check') {
    let progress = progressReporter({ quiet: opts.quiet === true });
    // Samples of the search's depth and states, about every second, for the level widths an
    // incomplete check reports; the progress shown is passed on at its own interval.
    const sampleMs = Math.min(progress?.intervalMs ?? 1000, 1000);
    let shownAt = 0;
    const sampling = (p: Progress): void => {
      samples.push({ depth: p.depth, distinctStates: p.distinctStates, seconds: p.seconds });
      if (progress !== undefined && p.seconds * 1000 - shownAt >= progress.intervalMs - sampleMs / 2) {
        shownAt = p.seconds * 1000;
        progress.onProgress(p);
      }
    };
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
        ...(opts.workers === undefined || opts.workers === 1 ? {} : { workers: opts.workers, modelFactory: r.modelFactory ?? modelFactoryOf(r.scenario, r.config, (r.extensionModules ?? []).map((m) => m.absolutePath)) }),
        ...(opts.maxMemory === undefined ? {} : { maxMemoryBytes: opts.maxMemory }),
        ...(opts.stopAtFirst ? { stopAtFirstViolation: true } : {}),
        onViolation,
        onProgress: sampling,
        progressIntervalMs: sampleMs,
        // Liveness: on the whole graph, without symmetry (a lasso on the reduced graph need not be
        // a behaviour), once the search's progress line is gone; its outcomes join the result's.
        ...(opts.liveness && r.liveness !== undefined ? { liveness: r.liveness, onSearchEnd: endProgress, ...(opts.livenessMaxStates === undefined ? {} : { livenessMaxStates: opts.livenessMaxStates }) } : {}),
      };
      // An extension's step or hook that never returns is stopped (KC218), and --time-limit holds over it (KC219).
      result = opts.cluster === undefined ? bounded(() => check(r.model, checkOptions)) : await checkOnCluster(r.model, r.scenario, r.config, checkOptions, { cluster: opts.cluster, expect: opts.expect, quiet: opts.quiet }, (r.extensionModules ?? []).map((m) => ({ absolutePath: m.absolutePath, sha256: m.digest.sha256 })));
    } finally {
      endProgress();
    }
    if (opts.minimize) result = minimized(r.model, result);
    const vacuous = vacuityWarnings(result);
    if (vacuous.length > 0) info = { ...info, verdictWarnings: vacuous };
  } else {
    const sim = simulateOrRefuse(() => bounded(() => simulate(r.model, {
      properties,
      ...(opts.runs === undefined ? {} : { runs: opts.runs }),
      ...(opts.maxSteps === undefined ? {} : { maxSteps: opts.maxSteps }),
      ...(opts.seed === undefined ? {} : { seed: opts.seed }),
      ...(opts.replayPath === undefined ? {} : { replay: opts.replayPath }),
      ...(opts.symmetry === undefined ? {} : { symmetry: opts.symmetry }),
      ...(opts.timeLimit === undefined ? {} : { timeLimitSeconds: opts.timeLimit }),
    })), opts.replayPath);
    result = sim;
    const replay = sim.replay === undefined ? {} : { replay: sim.replay, replayCommand: replayCommand(sim.seed, sim.replay) };
    // The share of the exhaustive count, where it can be known within the time limit.
    let exhaustive: number | undefined;
    if (opts.coverage) {
      // The count `check` reports for the same properties (observers' states are part of it).
      const whole = bounded(() => check(r.model, { properties, timeLimitSeconds: opts.timeLimit ?? 60, ...(opts.symmetry === undefined ? {} : { symmetry: opts.symmetry }) }));
      const decidedEarly = whole.properties.length > 0 && whole.properties.every((p) => p.status === 'violated' || p.status === 'witnessed');
      if (whole.stoppedBy === undefined && !decidedEarly) exhaustive = whole.stats.distinctStates;
    }
    const { actionsTaken, actions, faultSteps, swarm } = sim.coverage;
    info = { ...info, simulation: { seed: sim.seed, runs: sim.runs, steps: sim.steps, distinct: sim.stats.distinctStates, ...(exhaustive === undefined ? {} : { exhaustive }), actionsTaken, actions, faultSteps, swarm, ...replay } };
  }
  if (Object.keys(decidedAt).length > 0) info = { ...info, decidedAt: { ...decidedAt } };
  let written: string[] = [];
  if (outPlan !== undefined) {
    // Ctrl-C while the reports are built and written: say what was explored, and leave the earlier
    // report as it was. A signal is only handled between steps, so each step yields to let one in.
    const done = result;
    let placed = false;
    const stop = onInterrupt(() => placed
      ? `interrupted as the report was put in place; ${outPlan.dir} holds this run's report, whole`
      : `interrupted after the search (${done.stats.distinctStates.toLocaleString('en-US')} distinct states, depth ${done.stats.depth}, verdict ${done.verdict}); ${found.size > 0 ? `nothing more was written: ${outPlan.dir} holds the report of the violations found during the search (partial)` : `nothing was written to ${outPlan.dir}`}`);
    try {
      const files = await runArtifacts(r.model, result, info, r.subject.participants, opts.maxNodes ?? 500, opts.unfold !== true, recorder?.projection);
      await signalsDelivered();
      // The partial report written during the search is this run's own: the final one replaces it.
      const staged = stageArtifacts(found.size > 0 ? { ...outPlan, force: true } : outPlan, files);
      await signalsDelivered(); // a Ctrl-C during the writing ends here: the earlier report stays
      written = staged.commit();
      placed = true;
      await signalsDelivered();
    } finally {
      stop();
    }
  }
  if (format === 'junit' || format === 'sarif') {
    if (written.length > 0) printErr(`kubecheck: wrote ${written.length} files to ${opts.out}: ${written.map((w) => w.slice(opts.out!.length).replace(/^[\\/]/, '')).join(', ')}\n`);
  }
  stdoutFile.final(stdoutDocument(result, info, written));
  if (command === 'check' && inGithubActions()) {
    // With the text report on stdout, as GitHub documents; beside a JSON, JUnit or SARIF document
    // on stderr, which the runner reads for workflow commands too, so stdout stays one document.
    const lines = githubAnnotations(r.model, result, info);
    if (lines.length > 0) (format === 'text' ? process.stdout : process.stderr).write(lines.map((l) => `${l}\n`).join(''));
  }
  // A check a bound stopped: how large it got, how its levels grew, and what shows what drives it.
  if (command === 'check' && result.stoppedBy !== undefined) {
    const s = result.stats;
    const levels = result.strategy === 'bfs' ? `; ${levelGrowth(samples, s)}` : '';
    printErr(`kubecheck: incomplete: ${roughCount(s.distinctStates)} states in ${formatDuration(Math.max(1, Math.round(s.seconds)))}${levels}; \`${sizeCommand(opts, result.stoppedBy, s.distinctStates)}\` shows which settings drive it\n`);
  }
  // The exit code and the printed verdict come from one place (liveness included).
  return runVerdict(result).exitCode;
}

/**
 * The result of a search still under way, from the violations found so far: those properties
 * violated with the path found, the others undecided (`unknown`), the figures of the last one.
 */
function resultSoFar(model: Model<unknown>, ids: readonly string[], found: ReadonlyMap<string, Trace<unknown>>, last: FoundViolation): CheckResult<unknown> {
  const checked = [
    ...model.properties.filter((p) => ids.includes(p.id)).map((p) => ({ id: p.id, kind: p.kind, description: p.description, ...(p.source === undefined ? {} : { source: p.source }) })),
    ...(found.has('deadlock') ? [{ id: 'deadlock', kind: 'deadlock' as const, description: 'every reachable state has an enabled action' }] : []),
  ];
  return {
    model: model.name,
    strategy: 'bfs',
    verdict: 'violation',
    properties: checked.map((p) => {
      const trace = found.get(p.id);
      return trace === undefined ? { ...p, status: 'unknown' as const } : { ...p, status: 'violated' as const, trace };
    }),
    stats: last.stats,
  };
}

/**
 * Writes the report of the violations found so far to `--out` (its ITF traces, timelines and
 * result.json, the files that need no drawing), replacing the folder whole as the final report
 * does; the final report replaces it in turn.
 */
function writePartialOut(model: Model<unknown>, soFar: CheckResult<unknown>, info: RunInfo, plan: OutPlan): void {
  const files = soFar.properties.flatMap((p) => (p.status === 'violated' && p.trace
    ? [{ name: `${p.id}.itf.json`, content: `${JSON.stringify(itfOf(model, p, info), null, 2)}\n` }, { name: `${p.id}.timeline.txt`, content: `${formatTimeline(model, p.trace)}\n` }]
    : []));
  refuseFoldersInTheWay(plan, reportNamesFor(soFar.properties.filter((p) => p.status === 'violated').map((p) => p.id)));
  const names = files.map((f) => f.name);
  files.push({ name: 'result.json', content: `${JSON.stringify(outcomeJson(model, soFar, info, [...names, 'result.json']), null, 2)}\n` });
  stageArtifacts({ ...plan, force: true }, files).commit();
}

/**
 * stdout, when it is a file of its own (`> report.xml`, not appended to, not shared with
 * stderr): each partial document replaces the one before, so a killed run leaves a whole
 * document there; the final one replaces the last. Elsewhere (a terminal, a pipe) only the final
 * document is written.
 */
function rewritableStdout(): { partial(document: string): void; final(document: string): void } {
  let rewritten = false;
  const own = ((): boolean => {
    try {
      const out = fstatSync(1);
      const err = fstatSync(2);
      if (!out.isFile() || (out.dev === err.dev && out.ino === err.ino)) return false;
      // O_APPEND (octal 02000): each write would go to the end, after the previous document.
      const flags = /^flags:\s*([0-7]+)/m.exec(readFileSync('/proc/self/fdinfo/1', 'utf8'));
      return flags !== null && (parseInt(flags[1], 8) & 0o2000) === 0;
    } catch {
      return false;
    }
  })();
  const replace = (document: string): void => {
    ftruncateSync(1, 0);
    const bytes = Buffer.from(document);
    for (let at = 0; at < bytes.length;) at += writeSync(1, bytes, at, bytes.length - at, at);
  };
  return {
    partial(document) {
      if (!own) return;
      replace(document);
      rewritten = true;
    },
    final(document) {
      if (rewritten) replace(document);
      else process.stdout.write(document);
    },
  };
}
