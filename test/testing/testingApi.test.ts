import { mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { action, alwaysEventually, check, eventually, type Model } from '../../checker/index.js';
import { counterexampleBrief, expectEventually, expectHolds, expectLivenessViolation, expectNoRandomViolation, expectViolation, kubernetesScenario, seedFromEnvironment } from '../../api/testing.js';
import { kubernetesScenario as ofModel } from '../../api/model.js';
import { nodeName, type ClusterState } from '../../model/index.js';
import { remediationOperator } from '../../examples/remediation-operator/remediationOperator.js';
import { twoPhasePlain } from '../../examples/two-phase-commit/index.js';
import { kubecheckAsync } from '../cli/run.js';

const buggy = () => twoPhasePlain({ rms: 3, bug: 'rm-commits-on-prepared' });

describe('the testing API', () => {
  it('should pass a model whose properties hold and return its figures', async () => {
    const result = await expectHolds(twoPhasePlain({ rms: 3 }));
    expect(result.stats.distinctStates).toBe(288);
  });

  it('should fail with the timeline and the report path, and write the report there', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'kc-api-'));
    const error = await expectHolds(buggy(), { reportDir: dir, scenario: 'two-phase-commit' }).then(() => undefined, (e: Error) => e);
    expect(error).toBeInstanceOf(Error);
    const message = error!.message;
    expect(message).toMatch(/consistent violated \(3 steps, 0s of model time\)/);
    expect(message).toMatch(/T\+0s\s+rm-1\s+prepares and sends Prepared/);
    const reportPath = /full report: (.*report\.md)/.exec(message)?.[1];
    expect(reportPath).toBeDefined();
    expect(readFileSync(reportPath!, 'utf8')).toMatch(/sequenceDiagram/);
    const written = readdirSync(dir);
    expect(written).toHaveLength(1);
    expect(readdirSync(join(dir, written[0]))).toContain('consistent.itf.json');
  });

  it('should stop a long check at a share of the test\'s timeout and say so, never end in a bare "Test timed out"', async () => {
    // Three crashes: far more than 6 s of search on any machine.
    const { model, properties } = await kubernetesScenario('node-failure', { set: { 'faults.nodeCrash': '3' } });
    const dir = mkdtempSync(join(tmpdir(), 'kc-api-'));
    const error = await expectHolds(model, { properties, reportDir: dir, scenario: 'node-failure' }).then(() => undefined, (e: Error) => e);
    expect(error?.message).toMatch(/but the search was stopped after 6s, 60 % of the test's 10s timeout, with [\d,]+ states explored \(give timeLimitSeconds, or raise the test's timeout\) \(verdict incomplete\)/);
    expect(error?.message).toMatch(/full report: /);
    // A bound given wins over the test's.
    const given = await expectViolation(model, 'single-leader', { timeLimitSeconds: 0.5 }).then(() => undefined, (e: Error) => e);
    expect(given?.message).toMatch(/^expected single-leader to be violated in node-failure|^expected single-leader to be violated in kubernetes/);
    expect(given?.message).toMatch(/was not found: the search was stopped by its time bound \(verdict incomplete/);
  }, 10_000);

  it('should record the scenario and config of a kubernetesScenario model in the trace it writes, so replay needs no flags', async () => {
    const { model } = kubernetesScenario('node-failure', { set: { 'kubeControllerManager.nodeMonitorGracePeriod': '4s', 'faults.nodeCrash': '0' } });
    const dir = mkdtempSync(join(tmpdir(), 'kc-api-'));
    const error = await expectHolds(model, { properties: ['healthy-node-not-unknown'], reportDir: dir }).then(() => undefined, (e: Error) => e);
    expect(error?.message).toMatch(/healthy-node-not-unknown/);
    const [folder] = readdirSync(dir);
    const trace = join(dir, folder, 'healthy-node-not-unknown.itf.json');
    const meta = (JSON.parse(readFileSync(trace, 'utf8')) as { '#meta': { scenario?: string; config?: { kubeControllerManager?: { nodeMonitorGracePeriod?: unknown } } } })['#meta'];
    expect(meta.scenario).toBe('node-failure');
    expect(meta.config?.kubeControllerManager?.nodeMonitorGracePeriod).toBe('4s');
    const replayed = await kubecheckAsync(['replay', trace]);
    expect(replayed.code, replayed.stderr).toBe(1);
    expect(replayed.stdout).toMatch(/violation reproduced/);
  }, 60_000);

  it('should say in a failure message why the last state violates a property that explains itself', async () => {
    const { model } = await kubernetesScenario('node-partition', { set: { 'operator.forceDeletePod': '1', 'cluster.terminationGracePeriodSeconds': '1' } });
    const outcome = check(model, { properties: ['statefulset-at-most-one'] }).properties[0];
    const last = outcome.trace!.states.at(-1)!;
    const nodes = last.nodes.flatMap((n, i) => (n.up && n.running.includes('db-0') ? [nodeName(i)] : []));
    const brief = counterexampleBrief(model, outcome.id, outcome.description, outcome.trace!);
    expect(brief[0]).toMatch(/^✗ statefulset-at-most-one violated \(6 steps/);
    expect(brief[1]).toBe(`    why: db-0 runs on ${nodes[0]} and on ${nodes[1]}`);
    // The two-phase commit's property has no explain hook: no line for it.
    const plain = check(buggy()).properties[0];
    expect(counterexampleBrief(buggy(), plain.id, plain.description, plain.trace!)[1]).toMatch(/^ {4}T\+0s/);
  });

  it('should show each violating lasso in an expectEventually failure: its steps, where its cycle starts and the state it stays in', async () => {
    // x counts up to 2, then may go back to 1 (fairly) or stay; `inc` is not fair, so x may stop anywhere.
    const counter: Model<number> = {
      name: 'counter',
      initialStates: () => [0],
      actions: [action<number>({ name: 'inc', enabled: (x) => x < 2, apply: (x) => x + 1 })],
      properties: [],
      describeState: (x) => `x is ${x}`,
    };
    const live = [alwaysEventually<number>('zero', 'x is 0 infinitely often', (x) => x === 0), eventually<number>('two', 'x reaches 2', (x) => x === 2)];
    const dir = mkdtempSync(join(tmpdir(), 'kc-api-'));
    const error = await expectEventually(counter, live, { reportDir: dir }).then(() => undefined, (e: Error) => e);
    const [folder] = readdirSync(dir);
    expect(error?.message).toBe([
      'expected every liveness property of counter to hold under fairness, but zero, two are violated',
      '',
      '✗ zero violated: x is 0 infinitely often',
      '    a behaviour that never gets there: 1 steps, then a cycle of stuttering (nothing fair is left to do) forever',
      '    T+0s  counter  inc',
      '    ── and it stays in this state ──',
      '    state on the cycle:',
      '      x is 1',
      '',
      '✗ two violated: x reaches 2',
      '    a behaviour that never gets there: 0 steps, then a cycle of stuttering (nothing fair is left to do) forever',
      '    ── and it stays in this state ──',
      '    state on the cycle:',
      '      x is 0',
      '',
      `full report: ${join(dir, folder, 'report.md')}, ${join(dir, folder, 'report.html')} (every step with its state changes, the ITF trace for kubecheck replay)`,
    ].join('\n'));
    expect((await expectLivenessViolation(counter, live, 'two')).loop).toBe(0);
  });

  it('should write an expectEventually failure\'s report as a safety assertion does: each lasso\'s timeline and its ITF trace with the loop', async () => {
    // x counts up to 3 and may fall back to 1 at 3; `inc` is fair, `reset` is not.
    const counter: Model<number> = {
      name: 'counter',
      initialStates: () => [0],
      actions: [action<number>({ name: 'inc', enabled: (x) => x < 3, apply: (x) => x + 1, fair: 'weak' }), action<number>({ name: 'reset', enabled: (x) => x === 3, apply: () => 1 })],
      properties: [],
      describeState: (x) => `x is ${x}`,
    };
    const dir = mkdtempSync(join(tmpdir(), 'kc-api-'));
    const live = [alwaysEventually<number>('zero', 'x is 0 infinitely often', (x) => x === 0)];
    const error = await expectEventually(counter, live, { reportDir: dir, scenario: 'counter' }).then(() => undefined, (e: Error) => e);
    const [folder] = readdirSync(dir);
    expect(folder).toMatch(/^counter-/);
    expect(error?.message).toContain(`full report: ${join(dir, folder, 'report.md')}`);
    expect(readdirSync(join(dir, folder)).sort()).toEqual(expect.arrayContaining(['liveness-zero.itf.json', 'report.html', 'report.md', 'result.json']));
    // The lasso as ITF: states from the initial one, the index its cycle goes back to.
    const itf = JSON.parse(readFileSync(join(dir, folder, 'liveness-zero.itf.json'), 'utf8')) as { states: unknown[]; loop: number };
    const lasso = await expectLivenessViolation(counter, live, 'zero');
    expect(itf.loop).toBe(lasso.loop);
    expect(itf.states).toHaveLength(lasso.states.length);
    const report = readFileSync(join(dir, folder, 'report.md'), 'utf8');
    expect(report).toContain('### Liveness counterexample to `zero` (a lasso)');
    expect(report).toContain('── loop starts here');
    // The figures are the search's, as check --liveness reports them: 4 states.
    expect((JSON.parse(readFileSync(join(dir, folder, 'result.json'), 'utf8')) as { stats: { distinctStates: number } }).stats.distinctStates).toBe(4);
  });

  it('should return the shortest counterexample of an expected violation', async () => {
    // Shortest: one RM prepares (a Prepared message exists), another chooses to abort, one
    // commits on the Prepared message: 3 steps; no 2-step path has both a commit and an abort.
    const trace = await expectViolation(buggy(), 'consistent');
    expect(trace.actions.map((a) => a.name)).toEqual(['RMPrepare', 'RMChooseToAbort', 'RMRcvCommitMsg']);
  });

  it('should fail an expected violation that does not happen, saying it holds', async () => {
    const error = await expectViolation(twoPhasePlain({ rms: 3 }), 'consistent').then(() => undefined, (e: Error) => e);
    expect(error?.message).toMatch(/consistent to be violated .* holds on the whole space/);
  });

  it('should print the seed of a random failure and replay it from KUBECHECK_SEED', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'kc-api-'));
    const before = process.env.KUBECHECK_SEED;
    process.env.KUBECHECK_SEED = '1234';
    try {
      expect(seedFromEnvironment()).toBe(1234);
      const first = await expectNoRandomViolation(buggy(), { reportDir: dir }).then(() => '', (e: Error) => e.message);
      const second = await expectNoRandomViolation(buggy(), { reportDir: dir }).then(() => '', (e: Error) => e.message);
      expect(first).toMatch(/seed 1234, path [\d:]+ \(rerun with KUBECHECK_SEED=1234\)/);
      const timeline = (m: string) => m.split('full report')[0];
      expect(timeline(second)).toBe(timeline(first));
    } finally {
      if (before === undefined) delete process.env.KUBECHECK_SEED;
      else process.env.KUBECHECK_SEED = before;
    }
  });
});

describe('kubernetesScenario of kubecheck/testing', () => {
  it('should be the one kubecheck/model exports, attach extensions, and refuse a scenario that is not Kubernetes', async () => {
    const { model } = await kubernetesScenario('node-partition', { extensions: [remediationOperator()] });
    const trace = await expectViolation(model, 'statefulset-at-most-one');
    expect(trace.actions.some((a) => a.name.startsWith('remediation'))).toBe(true);
    expect(kubernetesScenario).toBe(ofModel);
    expect(() => kubernetesScenario('two-phase-commit')).toThrow(/KC\d+: unknown scenario "two-phase-commit"/);
  }, 60_000);
});

describe('expectNoRandomViolation takes the scenario\'s own properties', () => {
  it('should check node-partition\'s default selection, as check does, unless properties are named', async () => {
    const { model, properties } = kubernetesScenario('node-partition');
    expect(properties).not.toContain('no-node-unknown'); // a partition marks a node Unknown by design
    const log: string[] = [];
    const ok = await expectNoRandomViolation(model, { runs: 30, maxSteps: 120, seed: 7, log: (l) => log.push(l) });
    expect(ok.verdict).not.toBe('violation');
    expect(ok.properties.map((p) => p.id).sort()).toEqual([...properties].sort());
    // Named, they are the ones checked.
    const named = await expectNoRandomViolation(model, { runs: 2, maxSteps: 20, seed: 7, properties: ['no-node-unknown'], log: () => {}, reportDir: mkdtempSync(join(tmpdir(), 'kc-random-')) }).catch(() => undefined);
    if (named !== undefined) expect(named.properties.map((p) => p.id)).toEqual(['no-node-unknown']);
  });
});
