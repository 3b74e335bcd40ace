/** `kubecheck check` and `kubecheck simulate`: search, print the outcome, write the reports, exit by verdict. */
import { check, simulate, type CheckResult } from '../../checker/index.js';
import { outcomeJson } from '../../reports/json.js';
import { exitCodeOf, formatOutcome, type RunInfo } from '../../reports/outcome.js';
import { runArtifacts, writeArtifacts } from '../artifacts.js';
import { checkPropertyIds, resolveFromOptions, type ConfigOptions } from '../subjects.js';
import { progressReporter, stdoutPalette } from '../terminal.js';

export interface RunOptions extends ConfigOptions {
  readonly property?: string[];
  readonly out?: string;
  readonly force?: boolean;
  readonly json?: boolean;
  readonly color?: boolean;
  readonly maxNodes?: number;
  // check
  readonly maxDepth?: number;
  readonly maxStates?: number;
  readonly timeLimit?: number;
  readonly symmetry?: boolean;
  readonly dfs?: boolean;
  // simulate
  readonly runs?: number;
  readonly maxSteps?: number;
  readonly seed?: number;
  readonly replayPath?: string;
  readonly coverage?: boolean;
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

/** Runs `check` or `simulate`; returns the exit code. */
export async function runSearch(command: 'check' | 'simulate', opts: RunOptions): Promise<number> {
  const r = await resolveFromOptions(opts);
  checkPropertyIds(r.subject, opts.property);
  const properties = opts.property && opts.property.length > 0 ? opts.property : r.defaultProperties;
  let result: CheckResult<unknown>;
  let info: RunInfo = { command, scenario: r.scenario, config: r.config, ...(opts.allowUnsafeConfig ? { allowUnsafeConfig: true } : {}) };
  if (command === 'check') {
    const progress = progressReporter();
    try {
      result = check(r.model, {
        properties,
        ...(opts.maxDepth === undefined ? {} : { maxDepth: opts.maxDepth }),
        ...(opts.maxStates === undefined ? {} : { maxStates: opts.maxStates }),
        ...(opts.timeLimit === undefined ? {} : { timeLimitSeconds: opts.timeLimit }),
        ...(opts.symmetry === undefined ? {} : { symmetry: opts.symmetry }),
        ...(opts.dfs ? { strategy: 'dfs' as const } : {}),
        ...(progress ? { onProgress: progress.onProgress } : {}),
      });
    } finally {
      progress?.stop();
    }
  } else {
    const sim = simulate(r.model, {
      properties,
      ...(opts.runs === undefined ? {} : { runs: opts.runs }),
      ...(opts.maxSteps === undefined ? {} : { maxSteps: opts.maxSteps }),
      ...(opts.seed === undefined ? {} : { seed: opts.seed }),
      ...(opts.replayPath === undefined ? {} : { replay: opts.replayPath }),
      ...(opts.symmetry === undefined ? {} : { symmetry: opts.symmetry }),
    });
    result = sim;
    const replay = sim.replay === undefined ? {} : { replay: sim.replay, replayCommand: replayCommand(sim.seed, sim.replay) };
    // The share of the exhaustive count, where it can be known within the time limit.
    let exhaustive: number | undefined;
    if (opts.coverage) {
      const whole = check(r.model, { properties: [], timeLimitSeconds: opts.timeLimit ?? 60, ...(opts.symmetry === undefined ? {} : { symmetry: opts.symmetry }) });
      if (whole.stoppedBy === undefined) exhaustive = whole.stats.distinctStates;
    }
    info = { ...info, simulation: { seed: sim.seed, runs: sim.runs, steps: sim.steps, distinct: sim.stats.distinctStates, ...(exhaustive === undefined ? {} : { exhaustive }), ...replay } };
  }
  let written: string[] = [];
  if (opts.out !== undefined) {
    const files = await runArtifacts(r.model, result, info, r.subject.participants, opts.maxNodes ?? 500);
    written = writeArtifacts(opts.out, files, opts.force === true);
  }
  if (opts.json) {
    process.stdout.write(`${JSON.stringify(outcomeJson(r.model, result, info, written), null, 2)}\n`);
  } else {
    const c = stdoutPalette(opts.color === false);
    let text = formatOutcome(r.model, result, info, { colors: c });
    if (written.length > 0) text += `\n${c.dim(`wrote ${written.length} files to ${opts.out}: ${written.map((w) => w.slice(opts.out!.length).replace(/^[\\/]/, '')).join(', ')}`)}`;
    process.stdout.write(`${text}\n`);
  }
  return exitCodeOf(result.verdict);
}
