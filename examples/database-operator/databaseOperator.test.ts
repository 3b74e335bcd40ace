/**
 * The database operator's suite: the stale cache that drops a new incarnation's data is found
 * with its shortest trace; the live read before the irreversible step holds on the whole space,
 * also across a restart of the operator.
 */
import { describe, expect, it } from 'vitest';
import { expectHolds, expectViolation, kubernetesScenario } from 'kubecheck/testing';
import { objectOf } from 'kubecheck/operator';
import type { ClusterState } from 'kubecheck/model';
import { timelineSteps } from '../../reports/timeline.js';
import { databaseOperator } from './databaseOperator.js';

const cluster = (checkLive: boolean, restarts = 0) =>
  kubernetesScenario<ClusterState>('node-failure', { set: { 'faults.nodeCrash': '0', 'faults.extensionRestart': String(restarts) }, extensions: [databaseOperator({ checkLive })] });

describe('database operator', () => {
  it('drops the data of a recreated Database when a resync reads the deleted one from its cache', async () => {
    const { model, properties } = await cluster(false);
    expect(properties).toContain('database-data-kept');
    const trace = await expectViolation(model, 'database-data-kept');
    const summaries = timelineSteps(model, trace).map((s) => `${s.actor}: ${s.summary}`);
    expect(summaries).toContain('user: kubectl delete database orders');
    expect(summaries).toContain('user: kubectl apply -f orders.yaml (the Database again, same name)');
    expect(summaries.filter((s) => s === 'database-operator: call drop-data orders: ok')).toHaveLength(2);
    // The second drop comes from a reconcile on the cached, deleted incarnation while a new one is live.
    const stale = summaries.filter((s) => /reconciles orders \(its cache has Database orders at rv-3, being deleted\)/.test(s));
    expect(stale).toHaveLength(2);
    const last = trace.states.at(-1)!;
    expect(objectOf(last, 'Database', 'orders')?.metadata.uid).toBe('uid-2');
    expect(trace.actions.length).toBe(18);
  });

  it('with the live read, never drops a live Database\'s data, also across a restart of the operator', async () => {
    for (const restarts of [0, 1]) {
      const { model, properties } = await cluster(true, restarts);
      await expectHolds(model, { properties });
    }
  });
});
