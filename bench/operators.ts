/**
 * `npm run bench:operators [-- --json] [-- ids...]`: every operator example's checks in one run,
 * each in its own process through the built command line (`node bin/kubecheck.js check ... --json`,
 * what `npx kubecheck check` runs), one after the other so that no two share the machine. For each
 * example: its lines of code (bench/codeLines.ts), then for each check the settings, the exit
 * code and the property a violation names with its trace's length (a lasso as prefix + cycle),
 * the distinct states, the search's seconds and the peak memory. A check whose exit code or
 * property is not the one the example expects is marked and makes the run exit 1. Prints the
 * Markdown table of docs/operators.md ("Per example, measured"), or with --json one object per
 * check. `KUBECHECK_BENCH_TIME_LIMIT` (seconds, default 1800) bounds each check.
 */
import { spawnSync } from 'node:child_process';
import { cpus } from 'node:os';
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { codeLines } from './codeLines.js';

interface Check {
  /** What this check shows, in a few words. */
  readonly what: string;
  readonly file: string;
  readonly args: readonly string[];
  readonly exit: 0 | 1;
  /** With exit 1: the property the first counterexample (or lasso) names. */
  readonly property?: string;
}

interface Example {
  readonly id: string;
  /** The bug, in a few words. */
  readonly bug: string;
  /** The module counted for lines of code. */
  readonly code: string;
  /** Settings every check of the example has. */
  readonly settings: readonly string[];
  readonly checks: readonly Check[];
}

const set = (...kv: string[]): string[] => kv.flatMap((x) => ['--set', x]);
const noCrash = set('faults.nodeCrash=0');
const oneNode = ['--config', 'examples/backup-operator/one-node.yaml'];
const restart = set('faults.extensionRestart=1');

export const EXAMPLES: readonly Example[] = [
  {
    id: 'backup-operator',
    bug: 'a stale read after a label change calls out twice',
    code: 'examples/backup-operator/backupOperator.ts',
    settings: noCrash,
    checks: [
      { what: 'bug, first violation', file: 'backupOperator.ts', args: ['--stop-at-first'], exit: 1, property: 'backup-operator-external-call-once' },
      { what: 'bug, every property', file: 'backupOperator.ts', args: [], exit: 1, property: 'backup-operator-external-call-once' },
      { what: 'fix', file: 'backupOperatorFixed.ts', args: [], exit: 0 },
      { what: 'fix, a restart of the operator', file: 'backupOperatorFixed.ts', args: restart, exit: 0 },
      { what: 'fix, a restart, --liveness (the claim\'s price)', file: 'backupOperatorFixed.ts', args: [...restart, '--liveness'], exit: 1, property: 'backup-done' },
    ],
  },
  {
    id: 'backup-operator',
    bug: 'the same with its default node crash',
    code: 'examples/backup-operator/backupOperator.ts',
    settings: [],
    checks: [
      { what: 'bug, first violation', file: 'backupOperator.ts', args: ['--stop-at-first'], exit: 1, property: 'backup-operator-external-call-once' },
      { what: 'bug, every property', file: 'backupOperator.ts', args: [], exit: 1, property: 'backup-operator-external-call-once' },
      { what: 'fix', file: 'backupOperatorFixed.ts', args: [], exit: 0 },
    ],
  },
  {
    id: 'backup-operator',
    bug: 'two replicas: a leader paused past its Lease calls out after the other took over',
    code: 'examples/backup-operator/twoReplicas.ts',
    settings: [...oneNode, ...set('faults.operatorPause=1', 'faults.processPauseDuration=5s')],
    checks: [
      { what: 'bug, every property', file: 'twoReplicas.ts', args: [], exit: 1, property: 'backup-operator-external-call-once' },
      { what: 'fix, the call', file: 'twoReplicasFixed.ts', args: ['--property', 'backup-operator-external-call-once'], exit: 0 },
      { what: 'fix, every property (a pause is not fenced)', file: 'twoReplicasFixed.ts', args: [], exit: 1, property: 'backup-operator-single-leader' },
    ],
  },
  {
    id: 'backup-operator',
    bug: 'two replicas, one cut off from the kube-apiserver and healed: the Lease timings decide',
    code: 'examples/backup-operator/twoReplicas.ts',
    settings: [...oneNode, ...set('faults.operatorPartition=1', 'faults.operatorPartitionHeal=1')],
    checks: [
      { what: 'bug, every property (the unanswered Done write)', file: 'twoReplicas.ts', args: [], exit: 1, property: 'backup-operator-external-call-once' },
      { what: 'fix with its own timings, 4 s / 2 s / 1 s', file: 'twoReplicasFixed.ts', args: [], exit: 0 },
      { what: 'fix with a Lease of 3 s (= retry 1 s + renew deadline 2 s)', file: 'twoReplicasTightLease.ts', args: ['--stop-at-first'], exit: 1, property: 'backup-operator-single-leader' },
    ],
  },
  {
    id: 'database-operator',
    bug: 'a deleted Database\'s data dropped again under its new incarnation',
    code: 'examples/database-operator/databaseOperator.ts',
    settings: noCrash,
    checks: [
      { what: 'bug, first violation', file: 'databaseOperator.ts', args: ['--stop-at-first'], exit: 1, property: 'database-data-kept' },
      { what: 'bug, every property', file: 'databaseOperator.ts', args: [], exit: 1, property: 'database-data-kept' },
      { what: 'fix', file: 'databaseOperatorFixed.ts', args: [], exit: 0 },
      { what: 'fix, a restart of the operator', file: 'databaseOperatorFixed.ts', args: restart, exit: 0 },
    ],
  },
  {
    id: 'database-operator',
    bug: 'the same with its default node crash',
    code: 'examples/database-operator/databaseOperator.ts',
    settings: [],
    checks: [
      { what: 'bug, first violation', file: 'databaseOperator.ts', args: ['--stop-at-first'], exit: 1, property: 'database-data-kept' },
      { what: 'bug, every property', file: 'databaseOperator.ts', args: [], exit: 1, property: 'database-data-kept' },
      { what: 'fix', file: 'databaseOperatorFixed.ts', args: [], exit: 0 },
    ],
  },
  {
    id: 'node-remediation',
    bug: 'a cut-off node\'s StatefulSet pod force-deleted',
    code: 'examples/node-remediation/nodeRemediation.ts',
    settings: ['--scenario', 'node-partition', '--config', 'examples/node-remediation/cluster.yaml'],
    checks: [
      { what: 'bug, first violation', file: 'nodeRemediation.ts', args: ['--stop-at-first'], exit: 1, property: 'node-remediation-spares-running-pods' },
      { what: 'bug, the StatefulSet promise', file: 'nodeRemediation.ts', args: ['--property', 'statefulset-at-most-one'], exit: 1, property: 'statefulset-at-most-one' },
      { what: 'fix', file: 'nodeRemediationFixed.ts', args: [], exit: 0 },
    ],
  },
  {
    id: 'node-remediation',
    bug: 'the same with the default timers (10 s Lease renewals, 5 s monitor, 300 s tolerations)',
    code: 'examples/node-remediation/nodeRemediation.ts',
    settings: ['--scenario', 'node-partition', ...set('cluster.nodes=2', 'cluster.replicaSetReplicas=0')],
    checks: [
      { what: 'bug, first violation', file: 'nodeRemediation.ts', args: ['--stop-at-first'], exit: 1, property: 'node-remediation-spares-running-pods' },
      { what: 'bug, the StatefulSet promise', file: 'nodeRemediation.ts', args: ['--property', 'statefulset-at-most-one'], exit: 1, property: 'statefulset-at-most-one' },
    ],
  },
  {
    id: 'remediation-operator',
    bug: 'a plain extension force-deleting the pods of a node NotReady for 60 s (no fixed file: its fix is node-remediation\'s)',
    code: 'examples/remediation-operator/remediationOperator.ts',
    settings: [],
    checks: [
      { what: 'bug on node-partition, first violation', file: 'remediationOperator.ts', args: ['--scenario', 'node-partition', '--stop-at-first'], exit: 1, property: 'remediation-operator-spares-running-pods' },
      { what: 'bug on node-partition, the StatefulSet promise', file: 'remediationOperator.ts', args: ['--scenario', 'node-partition', '--property', 'statefulset-at-most-one'], exit: 1, property: 'statefulset-at-most-one' },
      { what: 'on node-failure its promise and the StatefulSet\'s hold', file: 'remediationOperator.ts', args: ['--scenario', 'node-failure', '--property', 'remediation-operator-spares-running-pods', '--property', 'statefulset-at-most-one'], exit: 0 },
      { what: 'on node-failure, every property: it replaces pods before their toleration, as it means to', file: 'remediationOperator.ts', args: ['--scenario', 'node-failure', '--stop-at-first'], exit: 1, property: 'replacement-after-toleration' },
    ],
  },
  {
    id: 'remediation-operator',
    bug: 'deletes by name from a lagging cache',
    code: 'examples/remediation-operator/cachedRemediation.ts',
    settings: ['--scenario', 'node-failure', '--config', 'test/cli/fixtures/stale-remediation.yaml', ...set('faults.extensionRestart=0')],
    checks: [
      { what: 'bug, its property', file: 'cachedRemediation.ts', args: ['--property', 'remediation-spares-healthy-pods'], exit: 1, property: 'remediation-spares-healthy-pods' },
      { what: 'bug, every property', file: 'cachedRemediation.ts', args: [], exit: 1, property: 'no-schedule-on-unready' },
      { what: 'fix, its property', file: 'cachedRemediationFixed.ts', args: ['--property', 'remediation-spares-healthy-pods'], exit: 0 },
      { what: 'fix, default properties (the scheduler\'s own race on its lagging cache)', file: 'cachedRemediationFixed.ts', args: ['--stop-at-first'], exit: 1, property: 'no-schedule-on-unready' },
    ],
  },
  {
    id: 'zookeeper-operator',
    bug: 'claims of removed members reused, or a member\'s claim deleted (every bug on)',
    code: 'examples/zookeeper-operator/ensembleOperator.ts',
    settings: ['--config', 'examples/zookeeper-operator/cluster.yaml'],
    checks: [
      { what: 'bug, first violation', file: 'ensembleOperator.ts', args: ['--stop-at-first'], exit: 1, property: 'zookeeper-member-data-kept' },
      { what: 'intermediate state alone (its module asks for a restart)', file: 'intermediateState.ts', args: ['--stop-at-first'], exit: 1, property: 'zookeeper-no-stale-rejoin' },
      { what: 'unobserved state alone', file: 'unobservedState.ts', args: ['--stop-at-first'], exit: 1, property: 'zookeeper-no-stale-rejoin' },
      { what: 'stale state alone', file: 'staleState.ts', args: ['--stop-at-first'], exit: 1, property: 'zookeeper-member-data-kept' },
      { what: 'fix', file: 'ensembleOperatorFixed.ts', args: [], exit: 0 },
      { what: 'fix, a restart of the operator', file: 'ensembleOperatorFixed.ts', args: restart, exit: 0 },
    ],
  },
  {
    id: 'restart-counter',
    bug: 'counts the deletions it sees; waits for good when a delete and the recreation coalesce',
    code: 'examples/restart-counter/restartCounter.ts',
    settings: [...noCrash, ...set('cluster.nodes=1', 'cluster.replicaSetReplicas=0', 'cluster.statefulSetReplicas=0')],
    checks: [
      { what: 'bug, first violation', file: 'restartCounter.ts', args: ['--stop-at-first'], exit: 1, property: 'restart-counter-not-stuck' },
      { what: 'bug, every property', file: 'restartCounter.ts', args: [], exit: 1, property: 'restart-counter-not-stuck' },
      { what: 'bug, --liveness', file: 'restartCounter.ts', args: ['--liveness'], exit: 1, property: 'restart-completed' },
      { what: 'fix', file: 'restartCounterFixed.ts', args: [], exit: 0 },
      { what: 'fix, --liveness', file: 'restartCounterFixed.ts', args: ['--liveness'], exit: 0 },
      { what: 'fix, a restart, --liveness', file: 'restartCounterFixed.ts', args: [...restart, '--liveness'], exit: 0 },
    ],
  },
];

/** What one check gave. */
export interface Measured {
  readonly example: string;
  readonly what: string;
  readonly command: string;
  readonly exit: number;
  readonly property?: string;
  /** The trace's steps, or a lasso's `prefix + cycle`. */
  readonly trace?: string;
  readonly distinct?: number;
  readonly seconds?: number;
  readonly peakMiB?: number;
  readonly stoppedBy?: string;
  /** The process's wall-clock seconds: loading the module, the search, --liveness's own search of the graph, the report. */
  readonly wall: number;
  /** The expectation it failed, if any. */
  readonly unexpected?: string;
}

interface CheckJson {
  readonly exitCode: number;
  readonly stats?: { readonly distinctStates: number; readonly seconds: number; readonly peakMemoryMB: number };
  readonly stoppedBy?: string | null;
  readonly counterexamples?: readonly { readonly property: string; readonly steps: number }[];
  readonly liveness?: readonly { readonly id: string; readonly status: string; readonly lasso?: { readonly loop: number; readonly actions: readonly unknown[] } }[];
}

const root = fileURLToPath(new URL(import.meta.url.endsWith('.ts') ? '..' : '../..', import.meta.url));

function run(e: Example, c: Check, limitSeconds: number): Measured {
  const file = `examples/${e.id}/${c.file}`;
  const args = ['check', ...e.settings, ...c.args, '--extension', file];
  const command = `kubecheck ${args.join(' ')}`;
  const started = process.hrtime.bigint();
  const r = spawnSync(process.execPath, ['--max-old-space-size=8192', 'bin/kubecheck.js', ...args, '--json', '-q', '--time-limit', `${limitSeconds}s`, '--max-memory', '6GiB'], { cwd: root, encoding: 'utf8', maxBuffer: 1 << 30 });
  const wall = Number(process.hrtime.bigint() - started) / 1e9;
  let j: CheckJson | undefined;
  try {
    j = JSON.parse(r.stdout) as CheckJson;
  } catch {
    return { example: e.id, what: c.what, command, exit: r.status ?? -1, wall, unexpected: `no JSON result (exit ${r.status}): ${r.stderr.trim().split('\n').pop() ?? ''}` };
  }
  // The expected property's counterexample or lasso if there is one, else the first found.
  const lasso = j.liveness?.find((l) => l.status === 'violated' && (c.property === undefined || l.id === c.property)) ?? j.liveness?.find((l) => l.status === 'violated');
  const first = j.counterexamples?.find((x) => x.property === c.property) ?? (lasso !== undefined && lasso.id === c.property ? undefined : j.counterexamples?.[0]);
  const property = first?.property ?? lasso?.id;
  const trace = first !== undefined ? `${first.steps}` : lasso?.lasso !== undefined ? `${lasso.lasso.loop} + ${lasso.lasso.actions.length - lasso.lasso.loop}` : undefined;
  const problems: string[] = [];
  if (j.exitCode !== c.exit) problems.push(`exit ${j.exitCode}, expected ${c.exit}`);
  if (c.property !== undefined && property !== c.property) problems.push(`violated ${property ?? 'nothing'}, expected ${c.property}`);
  return {
    example: e.id,
    what: c.what,
    command,
    exit: j.exitCode,
    ...(property === undefined ? {} : { property }),
    ...(trace === undefined ? {} : { trace }),
    ...(j.stats === undefined ? {} : { distinct: j.stats.distinctStates, seconds: j.stats.seconds, peakMiB: Math.round(j.stats.peakMemoryMB) }),
    wall,
    ...(j.stoppedBy ? { stoppedBy: j.stoppedBy } : {}),
    ...(problems.length ? { unexpected: problems.join('; ') } : {}),
  };
}

const num = (n: number): string => n.toLocaleString('en-US');
const secs = (s: number): string => (s < 10 ? s.toFixed(2) : s < 100 ? s.toFixed(1) : s.toFixed(0));

function main(): void {
  const argv = process.argv.slice(2);
  const json = argv.includes('--json');
  const only = argv.filter((a) => !a.startsWith('--'));
  const limit = Number(process.env.KUBECHECK_BENCH_TIME_LIMIT ?? 1800);
  const chosen = EXAMPLES.filter((e) => only.length === 0 || only.includes(e.id));
  if (!json) {
    console.log(`machine: ${cpus().length} × ${cpus()[0]?.model ?? 'cpu'}, Node ${process.version}, one thread; ${new Date().toISOString().slice(0, 10)}`);
    console.log('');
    console.log('| example: bug, settings | check | verdict | states | time | memory |');
    console.log('| --- | --- | --- | --- | --- | --- |');
  }
  let failed = 0;
  for (const e of chosen) {
    const lines = codeLines(e.code);
    const loc = `${lines.total - lines.properties - lines.descriptions} lines${lines.properties ? ` + ${lines.properties} for its properties` : ''}${lines.descriptions ? ` + ${lines.descriptions} describing its objects` : ''}`;
    if (!json) console.log(`| **${e.id}** (${loc}): ${e.bug}${e.settings.length ? `; \`${e.settings.join(' ')}\`` : ''} | | | | | |`);
    for (const c of e.checks) {
      const m = run(e, c, limit);
      if (m.unexpected !== undefined) failed++;
      if (json) console.log(JSON.stringify({ ...m, code: lines }));
      else {
        const verdict = m.exit === 0 ? 'proven (exit 0)' : m.exit === 1 ? `\`${m.property}\`, ${m.trace} steps${m.trace?.includes('+') ? ' (a lasso)' : ''}` : `exit ${m.exit}${m.stoppedBy ? ` (${m.stoppedBy})` : ''}`;
        const time = m.seconds === undefined ? '' : c.args.includes('--liveness') ? `${secs(m.wall)} s in all` : `${secs(m.seconds)} s`;
        console.log(`| | ${c.what}: \`${[c.file, ...c.args].join(' ')}\` | ${verdict}${m.unexpected ? ` ✗ ${m.unexpected}` : ''} | ${m.distinct === undefined ? '' : num(m.distinct)} | ${time} | ${m.peakMiB === undefined ? '' : `${m.peakMiB} MiB`} |`);
      }
    }
  }
  if (failed) console.error(`${failed} checks did not give what their example expects`);
  process.exitCode = failed ? 1 : 0;
}

// Run as a script, not when a test imports the list.
if (resolve(process.argv[1] ?? '').replace(/\.[jt]s$/, '') === fileURLToPath(import.meta.url).replace(/\.[jt]s$/, '')) main();
