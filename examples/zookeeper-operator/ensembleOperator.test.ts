/**
 * The ZooKeeper operator's suite: each of its three bugs (intermediate, unobserved and stale
 * state), flipped alone from the fixed operator, is found with its own shortest trace; the fix
 * holds on the whole space.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { expectHolds, expectViolation, kubernetesScenario } from 'kubecheck/testing';
import { timelineSteps } from '../../reports/timeline.js';
import { ensembleOperator, type EnsembleOptions } from './ensembleOperator.js';

const FIXED: EnsembleOptions = { cleanup: 'every-reconcile', waitForRemovedPods: true, checkLive: true };
const config = parse(readFileSync(new URL('./cluster.yaml', import.meta.url), 'utf8')) as unknown;

const cluster = (options: Partial<EnsembleOptions>, restarts = 0) =>
  kubernetesScenario('node-failure', { config, set: { 'faults.extensionRestart': String(restarts) }, extensions: [ensembleOperator({ ...FIXED, ...options })] });

const summaries = (model: ReturnType<typeof cluster>['model'], trace: Parameters<typeof timelineSteps>[1]) => timelineSteps(model, trace).map((s) => `${s.actor}: ${s.summary}`);

describe('zookeeper operator (claims of a StatefulSet)', () => {
  it('intermediate state: a restart between the scale-down and the claim deletes leaves the claim, and zk-1 rejoins on it', async () => {
    const { model } = cluster({ cleanup: 'with-scale-down' }, 1);
    const trace = await expectViolation(model, 'zookeeper-no-stale-rejoin');
    const steps = summaries(model, trace);
    expect(steps.some((s) => /^zookeeper-operator: patch StatefulSet\/zk: ok/.test(s))).toBe(true);
    // The plan had the claim's delete; the restart came before it was sent.
    expect(steps.some((s) => /plans patch StatefulSet\/zk; delete PersistentVolumeClaim\/data-zk-1/.test(s))).toBe(true);
    expect(steps.some((s) => /^fault: zookeeper-operator restarts/.test(s))).toBe(true);
    expect(steps.some((s) => /^zookeeper-operator: delete PersistentVolumeClaim/.test(s))).toBe(false);
    expect(steps.some((s) => /creates zk-1 with claims data-zk-1 \(kept, node-1\)/.test(s))).toBe(true);
  });

  it('unobserved state: a scale-up written before the removed pod is gone brings zk-1 back on its old claim', async () => {
    const { model } = cluster({ waitForRemovedPods: false });
    const trace = await expectViolation(model, 'zookeeper-no-stale-rejoin');
    const steps = summaries(model, trace);
    expect(steps).toContain('user: kubectl scale zookeepercluster zk --replicas=1');
    expect(steps).toContain('user: kubectl scale zookeepercluster zk --replicas=2');
    expect(steps.some((s) => /^zookeeper-operator: delete PersistentVolumeClaim/.test(s))).toBe(false);
  });

  it("stale state: a cleanup decided on the cache deletes the new member's claim", async () => {
    const { model } = cluster({ checkLive: false });
    const trace = await expectViolation(model, 'zookeeper-member-data-kept');
    const steps = summaries(model, trace);
    expect(steps.some((s) => /delete PersistentVolumeClaim\/data-zk-1: ok/.test(s))).toBe(true);
  });

  // With a restart of the operator too it holds (measured with the command line, docs/operators.md);
  // the suite proves the space without one, which is the slowest of its searches already.
  it('the fix holds on the whole space', async () => {
    const { model, properties } = cluster({});
    await expectHolds(model, { properties });
  });
});
