/**
 * Each example operator as a new user meets it: `kubecheck check --extension <buggy>.ts` with the
 * settings docs/operators.md gives it and the default properties exits 1 naming the operator's
 * own property with the shortest trace's length the page gives; `--extension <fixed>.ts` exits 0,
 * or holds within the bound the page states. The figures of the page's table are these runs'.
 */
import { describe, expect, it } from 'vitest';
import { kubecheckAsync, type Run } from '../cli/run.js';

const E = 'examples';
const NO_CRASH = ['--set', 'faults.nodeCrash=0'];
const ONE_NODE = ['--config', `${E}/backup-operator/one-node.yaml`];
const TWO = [...ONE_NODE, '--set', 'faults.operatorPause=1', '--set', 'faults.processPauseDuration=5s'];
const TWO_CUT = [...ONE_NODE, '--set', 'faults.operatorPartition=1', '--set', 'faults.operatorPartitionHeal=1'];
const PARTITION = ['--scenario', 'node-partition', '--config', `${E}/node-remediation/cluster.yaml`];
const STALE = ['--scenario', 'node-failure', '--config', 'test/cli/fixtures/stale-remediation.yaml', '--set', 'faults.extensionRestart=0'];
const RESTARTS = [...NO_CRASH, '--set', 'cluster.nodes=1', '--set', 'cluster.replicaSetReplicas=0', '--set', 'cluster.statefulSetReplicas=0'];

interface Report {
  readonly exitCode: number;
  readonly properties: readonly { readonly id: string; readonly status: string }[];
  readonly counterexamples: readonly { readonly property: string; readonly steps: number }[];
}

/** Two runs at a time (two cores). */
const lane: Promise<unknown>[] = [Promise.resolve(), Promise.resolve()];
let next = 0;
function check(args: readonly string[]): Promise<Report> {
  const i = next++ % 2;
  const run = lane[i].then(() => kubecheckAsync(['check', ...args, '--json'], { timeoutMs: 170_000 }));
  lane[i] = run.catch(() => undefined);
  return run.then((r: Run) => {
    if (r.stdout.trim() === '') throw new Error(`kubecheck ${args.join(' ')}: exit ${r.code}, ${r.stderr}`);
    return JSON.parse(r.stdout) as Report;
  });
}

const violated = (r: Report): Record<string, number> => Object.fromEntries(r.counterexamples.map((c) => [c.property, c.steps]));
const status = (r: Report, id: string): string | undefined => r.properties.find((p) => p.id === id)?.status;

// Started at once (two at a time); each test awaits its own.
const runs = {
  backup: check([...NO_CRASH, '--extension', `${E}/backup-operator/backupOperator.ts`]),
  backupFixed: check([...NO_CRASH, '--extension', `${E}/backup-operator/backupOperatorFixed.ts`]),
  two: check([...TWO, '--extension', `${E}/backup-operator/twoReplicas.ts`]),
  twoFixed: check([...TWO, '--extension', `${E}/backup-operator/twoReplicasFixed.ts`]),
  twoCut: check([...TWO_CUT, '--extension', `${E}/backup-operator/twoReplicasFixed.ts`]),
  twoCutTight: check([...TWO_CUT, '--extension', `${E}/backup-operator/twoReplicasTightLease.ts`, '--stop-at-first']),
  database: check([...NO_CRASH, '--extension', `${E}/database-operator/databaseOperator.ts`]),
  databaseFixed: check([...NO_CRASH, '--extension', `${E}/database-operator/databaseOperatorFixed.ts`]),
  node: check([...PARTITION, '--extension', `${E}/node-remediation/nodeRemediation.ts`, '--stop-at-first']),
  nodeFixed: check([...PARTITION, '--extension', `${E}/node-remediation/nodeRemediationFixed.ts`]),
  remediation: check(['--scenario', 'node-partition', '--extension', `${E}/remediation-operator/remediationOperator.ts`, '--stop-at-first']),
  cached: check([...STALE, '--extension', `${E}/remediation-operator/cachedRemediation.ts`]),
  cachedFixed: check([...STALE, '--extension', `${E}/remediation-operator/cachedRemediationFixed.ts`]),
  restarts: check([...RESTARTS, '--extension', `${E}/restart-counter/restartCounter.ts`]),
  restartsFixed: check([...RESTARTS, '--extension', `${E}/restart-counter/restartCounterFixed.ts`]),
};

describe('the example operators on the command line, with their default properties', { timeout: 400_000 }, () => {
  it('backup-operator: the stale read in 7 steps; the claim holds on the whole space', async () => {
    expect([(await runs.backup).exitCode, violated(await runs.backup)]).toEqual([1, { 'backup-operator-external-call-once': 7 }]);
    expect((await runs.backupFixed).exitCode).toBe(0);
  });

  it('two replicas paused past the Lease: two leaders and the second backup in 23 steps; the claim holds on the whole space, the second leader does not', async () => {
    expect([(await runs.two).exitCode, violated(await runs.two)]).toEqual([1, { 'backup-operator-external-call-once': 23, 'backup-operator-single-leader': 23 }]);
    const fixed = await runs.twoFixed;
    expect([fixed.exitCode, violated(fixed), status(fixed, 'backup-operator-external-call-once')]).toEqual([1, { 'backup-operator-single-leader': 23 }, 'holds']);
  });

  it('two replicas cut off and healed: their own Lease timings (4/2/1) keep one leader on the whole space; 3/2/1 gives two in 17 steps', async () => {
    expect((await runs.twoCut).exitCode).toBe(0);
    expect([(await runs.twoCutTight).exitCode, violated(await runs.twoCutTight)]).toEqual([1, { 'backup-operator-single-leader': 17 }]);
  });

  it('database-operator: the new incarnation\'s data dropped in 18 steps; the live read holds on the whole space', async () => {
    expect([(await runs.database).exitCode, violated(await runs.database)]).toEqual([1, { 'database-data-kept': 18 }]);
    expect((await runs.databaseFixed).exitCode).toBe(0);
  });

  it('node-remediation: its own promise broken at the force delete, 155 steps; the graceful delete holds on the whole space', async () => {
    expect([(await runs.node).exitCode, violated(await runs.node)]).toEqual([1, { 'node-remediation-spares-running-pods': 155 }]);
    expect((await runs.nodeFixed).exitCode).toBe(0);
  });

  it('remediation-operator: its own promise broken at the force delete, 149 steps', async () => {
    expect([(await runs.remediation).exitCode, violated(await runs.remediation)]).toEqual([1, { 'remediation-operator-spares-running-pods': 149 }]);
  });

  it('cached remediation: its own promise in 17 steps; the uid precondition keeps it, and only the scheduler\'s race is left', async () => {
    const bug = await runs.cached;
    expect([bug.exitCode, violated(bug)]).toEqual([1, { 'no-schedule-on-unready': 15, 'remediation-spares-healthy-pods': 17 }]);
    const fixed = await runs.cachedFixed;
    expect([fixed.exitCode, violated(fixed), status(fixed, 'remediation-spares-healthy-pods')]).toEqual([1, { 'no-schedule-on-unready': 15 }, 'holds']);
  });

  it('restart-counter: stuck in 16 steps without --liveness; the level-triggered fix holds on the whole space', async () => {
    expect([(await runs.restarts).exitCode, violated(await runs.restarts)]).toEqual([1, { 'restart-counter-not-stuck': 16 }]);
    expect((await runs.restartsFixed).exitCode).toBe(0);
  });
});
