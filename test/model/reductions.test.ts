/**
 * The model's exact reductions (`ModelReductions`, model/context.ts) against the model as
 * written: on every small stock scenario and on variants chosen to reach what each reduction
 * reasons about (grace periods around the renew interval, where `healthy-node-not-unknown` is
 * violated or only just holds; pauses, drifting clocks, restores and runtime failures, which turn
 * parts of the `liveFor` reduction off; expectations that expire), every property has the same
 * verdict and the same shortest counterexample or witness length, and the reduced model has no
 * more states. The counts the reductions take off are pinned where they are large, so a change
 * that quietly stops them applying fails here too.
 */
import { describe, expect, it } from 'vitest';
import { check, type CheckResult } from '../../checker/index.js';
import { resolveConfig, type ClusterState } from '../../model/index.js';
import { defaultProperties, kubernetesModel } from '../../properties/index.js';

interface Case {
  readonly scenario: string;
  readonly set?: Readonly<Record<string, string>>;
  /** Compared up to this depth where the whole space is too large for a unit test (both searches stop at it). */
  readonly maxDepth?: number;
}

const GRACE = 'kubeControllerManager.nodeMonitorGracePeriod';
const ONE_NODE = { 'cluster.nodes': '1', 'cluster.statefulSetReplicas': '0', 'cluster.replicaSetReplicas': '1' };
const CASES: readonly Case[] = [
  { scenario: 'node-failure' },
  { scenario: 'node-partition' },
  { scenario: 'leader-failover' },
  { scenario: 'zone-disruption' },
  { scenario: 'stale-informers' },
  { scenario: 'etcd-restore' },
  // healthy-node-not-unknown violated (grace below the renew interval) and just held (late renewals explored).
  { scenario: 'node-partition', set: { ...ONE_NODE, [GRACE]: '8s' } },
  { scenario: 'node-partition', set: { ...ONE_NODE, [GRACE]: '12s' } },
  { scenario: 'node-failure', set: { ...ONE_NODE, [GRACE]: '16s', 'faults.nodeRestart': '1', 'faults.kubeletCrash': '1', 'faults.kubeletRestart': '1' } },
  // What turns the Unknown half of the liveFor reduction off, or speeds a manager's clock.
  { scenario: 'node-partition', set: { ...ONE_NODE, 'operator.etcdRestore': '1' } },
  { scenario: 'node-partition', set: { ...ONE_NODE, 'faults.nodeShutdown': '1' } },
  { scenario: 'node-partition', set: { ...ONE_NODE, 'faults.processPause': '1' }, maxDepth: 38 },
  { scenario: 'node-partition', set: { ...ONE_NODE, 'faults.clockDrift': '1', 'faults.clockDriftRate': '1.5' }, maxDepth: 90 },
  { scenario: 'node-partition', set: { ...ONE_NODE, 'faults.containerRuntimeFailure': '1', 'faults.containerRuntimeRecovery': '1' }, maxDepth: 60 },
  { scenario: 'node-partition', set: { ...ONE_NODE, 'operator.deleteNode': '1' }, maxDepth: 90 },
  { scenario: 'leader-failover', set: { 'faults.nodePartition': '1', 'faults.nodePartitionHeal': '1' }, maxDepth: 38 },
  // Expectations that expire before the caches catch up; the extra pod of an expired expectation.
  { scenario: 'stale-informers', set: { 'kubeControllerManager.expectationsTimeout': '3s' } },
  { scenario: 'expectations-timeout', set: { 'cluster.maxPods': '2', 'informers.watchLag': '6s', 'kubeControllerManager.expectationsTimeout': '3s' } },
];

const label = (c: Case): string => `${c.scenario}${c.set ? ` ${Object.entries(c.set).map(([k, v]) => `${k}=${v}`).join(' ')}` : ''}${c.maxDepth ? ` (to depth ${c.maxDepth})` : ''}`;

/** Every property's verdict with the length of its counterexample or witness. */
function outcomes(r: CheckResult<ClusterState>): Record<string, string> {
  return Object.fromEntries(r.properties.map((p) => [p.id, `${p.status}${p.trace ? ` in ${p.trace.actions.length} steps` : ''}`]));
}

/** The scenario's default properties and `healthy-node-not-unknown` (the reader of `liveFor`), every one searched to its first violation. */
function run(c: Case, reductions: boolean): CheckResult<ClusterState> {
  const config = resolveConfig(c.scenario, { set: c.set ?? {} });
  const properties = [...new Set([...defaultProperties(c.scenario, config).ids, 'healthy-node-not-unknown'])];
  return check(kubernetesModel(config, { reductions }), { properties, stopAtFirstViolation: false, maxStates: 300_000, ...(c.maxDepth === undefined ? {} : { maxDepth: c.maxDepth }) });
}

describe('exact reductions', () => {
  for (const c of CASES) {
    it(`should keep every verdict and shortest trace of ${label(c)}`, () => {
      const reduced = run(c, true);
      const plain = run(c, false);
      expect(reduced.stoppedBy?.bound).toBe(c.maxDepth === undefined ? undefined : 'depth');
      expect(plain.stoppedBy?.bound).toBe(c.maxDepth === undefined ? undefined : 'depth');
      expect(outcomes(reduced)).toEqual(outcomes(plain));
      expect(reduced.verdict).toBe(plain.verdict);
      expect(reduced.stats.distinctStates).toBeLessThanOrEqual(plain.stats.distinctStates);
    });
  }

  it('should take off most of the states of node-partition and stale-informers', () => {
    for (const scenario of ['node-partition', 'stale-informers']) {
      const reduced = run({ scenario }, true).stats.distinctStates;
      const plain = run({ scenario }, false).stats.distinctStates;
      expect(reduced * 2, `${scenario}: ${reduced} of ${plain}`).toBeLessThan(plain);
    }
  });

  it('should turn off with the config key model.reductions=false, as with the library option', () => {
    // The config carries the switch to everything that rebuilds the model from it (workers, replay).
    const config = resolveConfig('node-partition', { set: { 'model.reductions': 'false' } });
    expect(config.model.reductions).toBe(false);
    const fromConfig = check(kubernetesModel(config), { properties: defaultProperties('node-partition', config).ids });
    expect(fromConfig.stats.distinctStates).toBe(run({ scenario: 'node-partition' }, false).stats.distinctStates);
    expect(fromConfig.stats.distinctStates).toBeGreaterThan(run({ scenario: 'node-partition' }, true).stats.distinctStates);
    expect(resolveConfig('node-partition', {}).model.reductions).toBe(true);
  });

  it('should find the violations the variants are there for', () => {
    // Without a violation among the cases, the comparison above would not reach a counterexample.
    expect(outcomes(run(CASES[6], true))['healthy-node-not-unknown']).toMatch(/^violated in \d+ steps$/);
    expect(outcomes(run(CASES[CASES.length - 1], true))['replicaset-over-creation']).toMatch(/^witnessed in \d+ steps$/);
  });
});
