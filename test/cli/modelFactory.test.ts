/**
 * `check --workers`, `--max-memory` and `--stop-at-first` on the command line, and the model
 * factory that lets worker threads rebuild a Kubernetes model from its resolved config.
 */
import { describe, it, expect } from 'vitest';
import { check, type CheckResult } from '../../checker/index.js';
import { kubecheck, kubecheckAsync } from './run.js';
import { MAX_CLUSTER_SIZE, parseSize } from '../../cli/limits.js';
import { modelFactoryOf, modelOfConfig } from '../../cli/modelFactory.js';
import { resolveFromOptions } from '../../cli/subjects.js';

function summary<S>(r: CheckResult<S>) {
  return {
    verdict: r.verdict,
    stats: [r.stats.distinctStates, r.stats.generatedStates, r.stats.depth],
    properties: r.properties.map((p) => [p.id, p.status, p.trace?.path]),
  };
}

describe('a Kubernetes check on two workers', () => {
  it('should rebuild the model from its resolved config (same name, actions and initial state)', async () => {
    const r = await resolveFromOptions({ scenario: 'node-partition', set: { 'operator.forceDeletePod': '1' } });
    const again = await modelOfConfig({ scenario: r.scenario, config: r.config });
    expect(again.name).toBe(r.model.name);
    expect(again.actions.map((a) => a.name)).toEqual(r.model.actions.map((a) => a.name));
    expect(again.initialStates()).toEqual(r.model.initialStates());
  });

  it('should find the same shortest force-delete counterexample and counts as one thread', async () => {
    const r = await resolveFromOptions({ scenario: 'node-partition', set: { 'operator.forceDeletePod': '1' } });
    // Two properties that hold by construction keep the search going after the violation, up to the states bound.
    const options = { properties: ['statefulset-at-most-one', 'single-leader', 'no-double-binding'], maxStates: 2000 };
    const one = check(r.model, options);
    // Levels of 20 states or more go to the workers (by default 1,024: this bounded search would stay on one thread).
    process.env.KUBECHECK_PARALLEL_LEVEL = '20';
    let two: CheckResult<unknown>;
    try {
      two = check(r.model, { ...options, workers: 2, modelFactory: modelFactoryOf(r.scenario, r.config) });
    } finally {
      delete process.env.KUBECHECK_PARALLEL_LEVEL;
    }
    expect(one.verdict).toBe('violation');
    expect(summary(two)).toEqual(summary(one));
    expect(two.properties[0].trace?.actions).toEqual(one.properties[0].trace?.actions);
  });

  it("should check an operator on two workers, each thread importing the module again, with one thread's outcome", async () => {
    const args = ['check', '--scenario', 'node-partition', '--config', 'examples/node-remediation/cluster.yaml', '--extension', 'examples/node-remediation/nodeRemediation.ts', '--max-states', '3000', '--json'];
    // The traces of 155 steps and more pass the synchronous runner's buffer.
    const one = JSON.parse((await kubecheckAsync(args)).stdout);
    const two = JSON.parse((await kubecheckAsync([...args, '--workers', '2'], { env: { KUBECHECK_PARALLEL_LEVEL: '20' } })).stdout);
    expect(one.counterexamples.map((c: { property: string }) => c.property)).toContain('node-remediation-spares-running-pods');
    expect([two.exitCode, two.stats.distinctStates, two.stats.generatedStates, two.properties]).toEqual([one.exitCode, one.stats.distinctStates, one.stats.generatedStates, one.properties]);
    expect(two.counterexamples.map((c: { timeline: unknown }) => c.timeline)).toEqual(one.counterexamples.map((c: { timeline: unknown }) => c.timeline));
  });

  it('should print the same outcome from the command line with --workers 2 as with 1 (--stop-at-first stops early)', () => {
    const args = ['check', '--scenario', 'node-partition', '--set', 'operator.forceDeletePod=1', '--max-states', '2000', '--json'];
    const one = kubecheck(args);
    const handOver = { env: { KUBECHECK_PARALLEL_LEVEL: '20' } };
    const two = kubecheck([...args, '--workers', '2'], handOver);
    expect(one.code).toBe(1);
    expect(two.code).toBe(1);
    const a = JSON.parse(one.stdout);
    const b = JSON.parse(two.stdout);
    expect([b.stats.distinctStates, b.stats.generatedStates, b.properties]).toEqual([a.stats.distinctStates, a.stats.generatedStates, a.properties]);
    expect(b.counterexample.timeline).toEqual(a.counterexample.timeline);
    const first = JSON.parse(kubecheck([...args, '--stop-at-first', '--workers', '2'], handOver).stdout);
    expect(first.properties.some((p: { status: string }) => p.status === 'unknown')).toBe(true);
    expect(a.stats.distinctStates).toBe(2000);
    expect(first.stats.distinctStates).toBeLessThan(1000);
    expect(first.counterexample.timeline).toEqual(a.counterexample.timeline);
  });
});

describe('bounds on the command line', () => {
  it('should refuse a cluster above the size limit at once, before building anything (KC213)', () => {
    // Building the cluster would exhaust memory or the run's 120 s timeout (code -1), not refuse with KC213.
    const r = kubecheck(['check', '--set', 'cluster.nodes=100000000']);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(new RegExp(`^kubecheck: KC213: cluster.nodes \\(100000000\\) is above the limit of ${MAX_CLUSTER_SIZE}`));
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
    expect(kubecheck(['check', '--set', 'cluster.statefulSetReplicas=1000']).stderr).toMatch(/^kubecheck: KC213: cluster.statefulSetReplicas/);
  });

  it('should stop at --max-memory with exit 3 and say how far it got', () => {
    const r = kubecheck(['check', '--scenario', 'two-phase-commit', '--set', 'rms=6', '--max-memory', '1MB']);
    expect(r.code).toBe(3);
    expect(r.stdout).toMatch(/distinct states, [\d,]+ generated, depth \d+/);
    expect(r.stdout).toMatch(/the search stopped at memory limit 0\.95 MiB/);
    expect(r.stdout).toMatch(/incomplete: .*\(exit 3\)/);
  });

  it('should read sizes with their units and refuse bare numbers (KC200)', () => {
    const p = parseSize('--max-memory');
    expect(p('2GiB')).toBe(2 * 2 ** 30);
    expect(p('500MB')).toBe(500e6);
    expect(p('4g')).toBe(4 * 2 ** 30);
    expect(p('1.5 GiB')).toBe(1.5 * 2 ** 30);
    expect(() => p('4096')).toThrow(/KC200: --max-memory: "4096" is not a size with a unit/);
    expect(() => p('0MB')).toThrow(/KC200/);
    expect(() => p('2 parsecs')).toThrow(/KC200/);
    const bad = kubecheck(['check', '--workers', '0']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/^kubecheck: KC200: --workers: "0" must be an integer from 1 to 64/);
  });
});
