/**
 * The `kubecheck` command: parsing, wiring and exit codes, nothing more. Every command returns its
 * exit code (0 holds on the whole space, 1 violation, 2 bad input, 3 incomplete); every error
 * reaches the user as one line `kubecheck: KCxxx: ...` on stderr with exit code 2, a stack trace
 * only with KUBECHECK_DEBUG=1.
 */
import { Command, CommanderError, Option } from 'commander';
import { defaultMaxMemoryBytes, KubecheckError } from '../checker/index.js';
import { ToolErrorCode } from '../reports/errors.js';
import { escapeControls } from '../checker/escape.js';
import { runDiff } from './commands/diff.js';
import { runExplain } from './commands/explain.js';
import { runExplore } from './commands/explore.js';
import { runGraph } from './commands/graph.js';
import { runImport } from './commands/import.js';
import { runList } from './commands/list.js';
import { runReplay } from './commands/replay.js';
import { runSearch } from './commands/run.js';
import { DEFAULT_PROBE_SECONDS, DEFAULT_PROBE_STATES, runSize } from './commands/size.js';
import { runTiming } from './commands/timing.js';
import { INCOMPLETE_CODES, runWorker } from './commands/cluster.js';
import { parseSize, parseWorkers } from './limits.js';
import { collectList, collectPath, collectSet, nonNegativeInt, parseTimeLimit, positiveInt } from './input.js';
import { printErr } from './terminal.js';
import { KUBECHECK_VERSION } from './version.js';

function configOptions(cmd: Command): Command {
  return cmd
    .option('-s, --scenario <name>', 'scenario to check (see kubecheck list); default node-failure')
    .option('-c, --config <file>', 'config file or folder (repeatable): kubecheck YAML/JSON, KubeletConfiguration, KubeSchedulerConfiguration, KubeControllerManagerConfiguration, component flags, Nodes and workload manifests', collectPath)
    .option('--extension <module>', 'a module exporting your own controllers (ClusterExtension or a list; .ts runs as is); repeatable', collectPath)
    .option('--set <key=value>', 'set one cluster or timing parameter, e.g. kubeControllerManager.nodeMonitorGracePeriod=40s (repeatable)', collectSet)
    .option('--allow-unsafe-config', 'accept a config Kubernetes would refuse (to study what it would do)');
}

/** `--model FILE`: the commands that search a model run the user's own in place of a scenario. */
function modelOption(cmd: Command): Command {
  return cmd.option('-m, --model <module>', 'check your own model in place of a scenario: a module exporting a Model or a factory (params) => Model, as its default export or "model" (.ts runs as is); --set key=value gives its parameters');
}

function outputOptions(cmd: Command): Command {
  return cmd
    .option('--json', 'print one JSON object instead of text')
    .option('--no-color', 'no colours (NO_COLOR is honoured too)');
}

function searchOptions(cmd: Command): Command {
  return cmd
    .option('-p, --property <id>', 'check this property (repeatable; default: the scenario\'s)', collectList)
    .option('-o, --out <dir>', 'write report.md, result.json and per counterexample its timeline, ITF trace, DOT and SVG')
    .option('--force', 'let --out overwrite existing files')
    .option('--unfold', 'show every step of a counterexample (terminal, --out reports): no quiet stretch of time passing and routine work folded into one line')
    .addOption(new Option('--max-nodes <n>', 'cap of the graphs written by --out').argParser(positiveInt('--max-nodes')).hideHelp());
}

/** The exit codes, as `kubecheck --help` lists them. */
const EXIT_CODES_HELP = `
Exit codes:
  0    every checked property holds on the whole state space (replay: a witness replays)
  1    a property is violated (replay: the violation is reproduced)
  2    bad input: one line on stderr, kubecheck: KCxxx: ... (a stack trace only with KUBECHECK_DEBUG=1)
  3    incomplete: a bound stopped the search first; simulate without a violation; a --cluster
       check that lost a worker, records or Redis (KC013, KC012, KC015); the time
       limit passed inside an extension's call (KC219)
  130  interrupted (Ctrl-C): the progress line (on a terminal) shows what was explored; the
       violations found before are in --out and a stdout file, whole (files are never half-written)
  143  terminated (SIGTERM) while reports are written: as 130`;

/** What `kubecheck check --help` adds: the CI formats and the environment it reads. */
const CHECK_CI_HELP = `
In CI:
  --format junit   JUnit XML on stdout: one testcase per property, a failure with its counterexample
  --format sarif   SARIF 2.1.0 on stdout (code scanning): a rule per property, a result per violation
  GITHUB_ACTIONS=true   also print ::error / ::warning workflow commands (annotations), on stdout
                        with the text report, on stderr beside a JSON, JUnit or SARIF document
  progress         when stderr is not a terminal, one line every 30s on stderr (--quiet: none);
                   KUBECHECK_PROGRESS_INTERVAL=<ms> changes the interval`;

/** Builds the program; `exit` receives the exit code of the command that ran. */
export function program(exit: (code: number) => void): Command {
  const p = new Command('kubecheck')
    .description('An explicit-state model checker for the Kubernetes control plane')
    .version(KUBECHECK_VERSION, '-V, --version')
    .showSuggestionAfterError(true)
    .exitOverride()
    .configureOutput({ writeErr: () => {}, outputError: () => {} })
    .addHelpText('after', EXIT_CODES_HELP);
  const run = (f: () => Promise<number>) => async () => exit(await f());

  const checkCmd = searchOptions(outputOptions(modelOption(configOptions(p.command('check').description('check every reachable state of a scenario; exit 0 holds, 1 violation, 2 bad input, 3 incomplete, 130 interrupted (Ctrl-C)')))))
    .option('--max-depth <n>', 'stop after this many BFS levels (exit 3 if nothing was violated)', positiveInt('--max-depth'))
    .option('--max-states <n>', 'stop after this many distinct states', positiveInt('--max-states'))
    .option('--time-limit <duration>', 'stop after this wall-clock time, e.g. 30s, 5m', (v) => parseTimeLimit('--time-limit', v))
    .option('--symmetry', 'merge interchangeable nodes and pods (default when the scenario has a symmetry)')
    .option('--no-symmetry', 'explore every state, without symmetry reduction')
    .option('--dfs', 'depth-first search (less memory; counterexamples not the shortest)')
    .option('--workers <n>', 'threads of the breadth-first search (default 1) for levels of 1,024 states or more (narrower ones run on one thread); the results are the same with any number', parseWorkers)
    .option('--max-memory <size>', `stop (exit 3) when the process uses this much memory, e.g. 2GiB, 500MB (default ${Math.round(defaultMaxMemoryBytes() / 2 ** 20)} MiB)`, parseSize('--max-memory'))
    .option('--stop-at-first', 'stop at the first violated property (default: decide every property)')
    .option('--minimize', 'drop the steps of each counterexample that its violation does not need (shortens --dfs traces; breadth-first ones are already shortest)')
    .option('--liveness', 'also check the liveness properties (once faults stop, replicas run, identities run once, Leases are held) on the whole graph under fairness; a violation is a lasso')
    .option('--liveness-max-states <n>', 'most states the liveness graph keeps (default 200,000); past it liveness is not decided (exit 3 unless a safety property fails)', positiveInt('--liveness-max-states'))
    .option('-f, --format <format>', 'what stdout gets: text (default), json (as --json), junit (JUnit XML for CI test reports) or sarif (SARIF 2.1.0 for code scanning)')
    .option('-q, --quiet', 'no progress on stderr (neither the live line on a terminal nor the 30s lines in a log)')
    .option('--strict', 'for CI: exit 2 (KC217) when the --config files do not give the cluster\'s nodes and zones, rather than check the scenario\'s default cluster')
    .option('--cluster <redis-url>', 'one search over worker processes (kubecheck worker) through Redis, e.g. redis://127.0.0.1:6379/run-1 (redis://:PASSWORD@HOST:PORT/RUN); same results as one thread; see docs/distributed.md')
    .option('--expect <n>', 'with --cluster: the number of workers to wait for (default 1)', positiveInt('--expect'))
    .addHelpText('after', CHECK_CI_HELP);
  checkCmd.action(function (this: Command) {
    return run(() => runSearch('check', this.opts()))();
  });

  modelOption(configOptions(p.command('size').description('which settings multiply a check\'s states: bounded searches varying one setting at a time (nodes, zones, replicas, fault budgets...), each one\'s growth per +1, an estimate of the whole check, and the --set values that fit --max-states or --time-limit')))
    .option('--vary <key>', 'a setting to vary (repeatable or comma-separated; default: the counts, budgets and lags the check uses)', collectList)
    .option('-p, --property <id>', 'count as a check of these properties does (repeatable; default: the scenario\'s)', collectList)
    .option('--max-states <n>', 'the bound the check should fit in: suggest the --set values whose estimate stays under it', positiveInt('--max-states'))
    .option('--time-limit <duration>', 'the time the check should fit in (at the measured rate), e.g. 60s', (v) => parseTimeLimit('--time-limit', v))
    .option('--probe-states <n>', `most distinct states of each search (default ${DEFAULT_PROBE_STATES.toLocaleString('en-US')})`, positiveInt('--probe-states'))
    .option('--probe-time <duration>', `time limit of each search (default ${DEFAULT_PROBE_SECONDS}s)`, (v) => parseTimeLimit('--probe-time', v))
    .option('--symmetry', 'merge interchangeable nodes and pods (default when the scenario has a symmetry)')
    .option('--no-symmetry', 'count every state, without symmetry reduction')
    .option('--json', 'print one JSON object instead of text')
    .option('--no-color', 'no colours')
    .option('-q, --quiet', 'no line on stderr per search')
    .action(function (this: Command) {
      return run(() => runSize(this.opts()))();
    });

  p.command('worker').argument('<redis-url>', 'the run to join, as the coordinator was given it: redis://HOST:PORT/RUN')
    .description('serve a distributed check (kubecheck check ... --cluster URL): joins the run, rebuilds the model from its manifest, exits 0 when the search ends, 3 if the coordinator or Redis is lost')
    .option('-q, --quiet', 'no messages on stderr')
    .action(function (this: Command, url: string) {
      return run(() => runWorker(url, this.opts()))();
    });

  const simCmd = searchOptions(outputOptions(modelOption(configOptions(p.command('simulate').description('random runs with shrinking; exit 1 on a violation, 3 when none is found (random runs prove nothing)')))))
    .option('--runs <n>', 'number of random runs (default 100)', positiveInt('--runs'))
    .option('--max-steps <n>', 'steps per run at most (default 200)', positiveInt('--max-steps'))
    .option('--seed <n>', 'seed, printed on every run so a failure replays', nonNegativeInt('--seed'))
    .option('--replay-path <path>', 'with --seed, replay the failing run fast-check reported')
    .option('--coverage', 'also count the whole state space (breadth-first, within --time-limit) to report the share covered')
    .option('--time-limit <duration>', 'start no run after this wall-clock time and cut the one under way, e.g. 30s (exit 3)', (v) => parseTimeLimit('--time-limit', v));
  simCmd.action(function (this: Command) {
    return run(() => runSearch('simulate', this.opts()))();
  });

  outputOptions(modelOption(configOptions(p.command('replay').argument('<trace>', 'ITF trace written by check --out (a .itf.json file)')
    .description('re-execute a saved trace step by step; exit 1 violation reproduced, 0 witness replayed, 2 the trace does not replay'))))
    .option('-q, --quiet', 'print the verdict only, not the timeline')
    .option('--unfold', 'print every step: no quiet stretch of time passing and routine work folded into one line')
    .option('--allow-changed-extension', 'replay on the extension modules the trace recorded even when their content changed since (a warning; without it: KC221, exit 2)')
    .action(function (this: Command, trace: string) {
      return run(() => runReplay(trace, this.opts()))();
    });

  modelOption(configOptions(p.command('graph').description('the state graph as DOT (default), SVG or PNG: whole when small, else projected (states grouped by a view, a counterexample path in bold)')))
    .option('-t, --trace <file>', 'draw the neighbourhood of this ITF trace')
    .option('-f, --format <format>', 'dot | svg | png (default: from --output, else dot)')
    .option('-o, --output <file>', 'write to this file instead of stdout (an existing file only with --force)')
    .option('--force', 'overwrite an existing --output file')
    .option('--max-nodes <n>', 'most states drawn (default 500; Graphviz struggles with thousands)', positiveInt('--max-nodes'))
    .option('--max-states <n>', 'bound of the search for a trace to draw around', positiveInt('--max-states'))
    .option('-p, --property <id>', 'with a large space, draw around this property\'s trace (repeatable)', collectList)
    .option('--symmetry', 'merge symmetric states')
    .option('--projected', 'group the states by a view (per node Ready/Unknown/tainted, per workload running copies): readable at any size (the default when the space is too large to draw whole)')
    .action(function (this: Command) {
      return run(() => runGraph(this.opts()))();
    });

  modelOption(configOptions(p.command('explore').description('walk the state space in a browser: take any enabled step, step back, open the last check\'s counterexamples and witnesses, see the projected graph (a local page, loopback only)')))
    .option('--port <n>', 'port to serve on (default 0: any free one, printed)', nonNegativeInt('--port'))
    .option('--path <path>', 'open this state: the initial state\'s index and candidate ordinals, e.g. 0.4.1 (the page shows each state\'s)')
    .option('-p, --property <id>', 'properties to check and show violations of (repeatable; default: the scenario\'s)', collectList)
    .option('--no-check', 'do not check first (no counterexample or witness to open)')
    .option('--no-graph', 'do not draw the projected state graph')
    .addOption(new Option('--time-limit <duration>', 'bound of the first check (default 60s)').argParser((v) => parseTimeLimit('--time-limit', v)))
    .option('--max-states <n>', 'bound of the first check and of the projected graph (default 200,000 for the graph)', positiveInt('--max-states'))
    .action(function (this: Command) {
      return run(() => runExplore(this.opts()))();
    });

  outputOptions(configOptions(p.command('explain').argument('[scenario]', 'scenario to narrate (default node-failure)')
    .description('narrate one run of a scenario, produced by the model, as a timeline with times from the config')))
    .option('-g, --goal <id>', 'narrate the run to this reachability goal (repeatable)', collectList)
    .option('--changes', 'show the state changes under each step')
    .option('--all-steps', 'show every tick instead of folding them')
    .option('--max-states <n>', 'bound of the search', positiveInt('--max-states'))
    .option('--time-limit <duration>', 'bound of the search, e.g. 30s', (v) => parseTimeLimit('--time-limit', v))
    .action(function (this: Command, scenario: string | undefined) {
      return run(() => runExplain(scenario, this.opts()))();
    });

  outputOptions(configOptions(p.command('timing')
    .description('when, after a node fails, it is marked Unknown, tainted, its pods evicted, replaced and running again: earliest and latest over every path, in seconds after its last heartbeat')))
    .option('--markdown', 'print a Markdown table (for a job summary)')
    .option('--max-states <n>', 'stop after this many distinct states (exit 3)', positiveInt('--max-states'))
    .option('--time-limit <duration>', 'stop after this wall-clock time, e.g. 30s (exit 3)', (v) => parseTimeLimit('--time-limit', v))
    .option('--no-symmetry', 'explore every state, without symmetry reduction')
    .action(function (this: Command) {
      return run(() => runTiming(this.opts()))();
    });

  p.command('diff')
    .description('verdicts and timing of two configs side by side (a pull request that changes timeouts or manifests); exit by the head: 0 holds, 1 violation, 3 incomplete')
    .option('-s, --scenario <name>', 'scenario of both sides (default node-failure, or as the files name it)')
    .option('--base <file>', 'config file or folder of the base (repeatable; default: the defaults)', collectPath)
    .option('--head <file>', 'config file or folder of the head (repeatable)', collectPath)
    .option('--set <key=value>', 'set a parameter on both sides (repeatable)', collectSet)
    .option('--base-set <key=value>', 'set a parameter on the base only (repeatable)', collectSet)
    .option('--head-set <key=value>', 'set a parameter on the head only (repeatable)', collectSet)
    .option('--extension <module>', 'your own controllers, on both sides (repeatable)', collectPath)
    .option('--allow-unsafe-config', 'accept configs Kubernetes would refuse')
    .option('-p, --property <id>', 'check these properties on both sides (repeatable; default: each side\'s own)', collectList)
    .option('--max-states <n>', 'bound of each search (exit 3 when it stops one)', positiveInt('--max-states'))
    .option('--time-limit <duration>', 'bound of each search, e.g. 60s', (v) => parseTimeLimit('--time-limit', v))
    .option('--markdown', 'print Markdown for a job summary')
    .option('--json', 'print JSON')
    .action(function (this: Command) {
      return run(() => runDiff(this.opts()))();
    });

  p.command('import').argument('<files...>', 'files and folders: KubeletConfiguration, KubeSchedulerConfiguration, KubeControllerManagerConfiguration, component flags, Nodes, Deployments, ReplicaSets, StatefulSets, DaemonSets, Lists')
    .description('print the kubecheck config your cluster\'s files amount to (YAML, each key with its source) and what the model leaves out')
    .option('-s, --scenario <name>', 'scenario the config is resolved for (default node-failure)')
    .option('--set <key=value>', 'set one parameter on top of the files (repeatable)', collectSet)
    .option('--allow-unsafe-config', 'accept a config Kubernetes would refuse')
    .option('--all', 'print every parameter of the resolved config, not only those the files set')
    .option('--json', 'print JSON: config, origins, notes, notModelled, resolved')
    .action(function (this: Command, files: string[]) {
      return run(() => runImport(files, this.opts()))();
    });

  p.command('list').argument('[what]', 'scenarios | properties | parameters (default: all)')
    .description('scenarios, properties (id, one line, source) and parameters with defaults and Kubernetes names')
    .option('--json', 'print JSON')
    .option('--no-color', 'no colours')
    .option('--extension <module>', 'also list the properties of your own controllers or operators (repeatable)', collectPath)
    .option('-m, --model <module>', 'list the properties, liveness properties and parameters of your own model (see check --model)')
    .option('--set <key=value>', 'with --model: a parameter of its factory (repeatable)', collectSet)
    .action(function (this: Command, what: string | undefined) {
      return run(async () => {
        if (what !== undefined && !['scenarios', 'properties', 'parameters'].includes(what)) {
          throw new KubecheckError(ToolErrorCode.badOption, `unknown list "${what}"; known: scenarios, properties, parameters`);
        }
        return runList(what, this.opts());
      })();
    });
  return p;
}

/** A message with every word longer than a path can be (a 100,000-character option, key or name) cut short. */
function shortWords(message: string): string {
  return message.replace(/[^\s"',;:()]{4097,}/g, (w) => `${w.slice(0, 60)}... (${w.length.toLocaleString('en-US')} characters)`);
}

/** One line for any error; exit code 2 (0 for --help and --version). */
export function reportError(e: unknown): number {
  if (e instanceof CommanderError) {
    if (e.code === 'commander.helpDisplayed' || e.code === 'commander.version' || e.code === 'commander.help') return 0;
    const message = e.message.replace(/^error: /, '').replace(/\n+/g, ' ').trim();
    printErr(`kubecheck: ${ToolErrorCode.badOption}: ${shortWords(message)} (see kubecheck --help)\n`);
    return 2;
  }
  if (e instanceof KubecheckError) {
    // One line: a newline or control character in the message came from input (a key, a value).
    printErr(`kubecheck: ${shortWords(escapeControls(e.message.trimEnd()))}\n`);
    if (process.env.KUBECHECK_DEBUG === '1') process.stderr.write(`${e.stack}\n`);
    // A distributed search that lost a worker, records or Redis is incomplete, not bad input; so
    // is a check whose time limit passed inside an extension's call.
    return INCOMPLETE_CODES.includes(e.code) || e.code === ToolErrorCode.timeLimitInUserCode ? 3 : 2;
  }
  const err = e as Error;
  printErr(`kubecheck: unexpected error: ${String(err?.message ?? e).split('\n')[0]} (set KUBECHECK_DEBUG=1 for the stack trace)\n`);
  if (process.env.KUBECHECK_DEBUG === '1') process.stderr.write(`${err?.stack}\n`);
  return 2;
}

/** Runs the command line on `argv` (process.argv form); resolves to the exit code. */
export async function main(argv: readonly string[]): Promise<number> {
  let code = 0;
  try {
    const p = program((c) => {
      code = c;
    });
    if (argv.length <= 2) {
      p.outputHelp();
      return 0;
    }
    await p.parseAsync(argv as string[]);
    return code;
  } catch (e) {
    return reportError(e);
  }
}

/**
 * A reader that stops early (`kubecheck explain --json | head -c100`) closes the pipe: the rest of
 * the output has nowhere to go, which is not an error of ours. Exit quietly with the code earned.
 */
function quietOnClosedPipe(stream: NodeJS.WriteStream): void {
  stream.on('error', (e: NodeJS.ErrnoException) => {
    if (e.code === 'EPIPE') {
      finished = true; // the reader went away: the code earned so far stands
      process.exit(typeof process.exitCode === 'number' ? process.exitCode : 0);
    }
    throw e;
  });
}

/**
 * A check never ends 0 without having finished: a `process.exit(0)` by an extension's code (in an
 * action, a timer) ends the process before the command returns, so its exit is made 2, with a line.
 * After the command has returned, the code it earned stands: an extension's timer that calls
 * `process.exit(0)` later cannot turn a violation or an error into a success.
 */
let finished = false;
let earned: number | undefined;
function guardExit(): void {
  process.on('exit', (code) => {
    if (finished) {
      if (earned !== undefined && code !== earned) process.exitCode = earned;
      return;
    }
    if (code !== 0) return;
    process.stderr.write(`kubecheck: ${ToolErrorCode.extensionFailed}: the process was ended (process.exit) before the command finished, by an extension's code; nothing was checked to the end\n`);
    process.exitCode = 2;
  });
}

const isEntry = process.argv[1] !== undefined && /cli[\\/]main\.ts$/.test(process.argv[1]);
if (isEntry || (globalThis as { __kubecheckBin?: boolean }).__kubecheckBin) {
  quietOnClosedPipe(process.stdout);
  quietOnClosedPipe(process.stderr);
  guardExit();
  earned = await main(process.argv);
  process.exitCode = earned;
  finished = true;
  // What an extension left running (a timer, a module still loading) must not keep the process.
  setTimeout(() => process.exit(), 2000).unref();
}
