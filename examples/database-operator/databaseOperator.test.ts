/**
 * The database operator's suite: the stale cache that drops a new incarnation's data is found
 * with its shortest trace; the live read before the irreversible step holds on the whole space,
 * also across a restart of the operator.
 */
import { describe, expect, it } from 'vitest';
import { alwaysStep, check } from 'kubecheck';
import { expectHolds, expectViolation, kubernetesScenario } from 'kubecheck/testing';
import { objectOf, type OperatorMemory } from 'kubecheck/operator';
import type { ClusterState } from 'kubecheck/model';
import { timelineSteps } from '../../reports/timeline.js';
import { databaseOperator } from './databaseOperator.js';

/** The operator's cache shows orders being deleted (so its reconcile reads it live). */
const cachedBeingDeleted = (s: ClusterState): boolean => {
  const [replica] = (s.extensions?.['database-operator'] ?? []) as unknown as readonly OperatorMemory[];
  return replica?.cache.Database?.find((o) => o.metadata.name === 'orders')?.metadata.deletionTimestamp !== undefined;
};

const cluster = (checkLive: boolean, restarts = 0) =>
  kubernetesScenario('node-failure', { set: { 'faults.nodeCrash': '0', 'faults.extensionRestart': String(restarts) }, extensions: [databaseOperator({ checkLive })] });

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

  it('with the live read cut off, fails the reconcile and retries it, and still never drops a live Database\'s data', async () => {
    const { model, properties } = await kubernetesScenario('node-failure', {
      set: { 'faults.nodeCrash': '0', 'faults.operatorPartition': '1', 'faults.operatorPartitionHeal': '1' },
      extensions: [databaseOperator({ checkLive: true })],
    });
    await expectHolds(model, { properties });
    // Reached: a reconcile of the replica while it is cut off, which its live read fails.
    const cutOff = alwaysStep<ClusterState>('no-reconcile-cut-off', 'no reconcile runs while the operator is cut off', (b, a) => !(a.name === 'database-operator-reconcile' && b.custom?.partitioned?.includes('database-operator') === true && cachedBeingDeleted(b)));
    const r = check({ ...model, properties: [...model.properties, cutOff] }, { properties: ['no-reconcile-cut-off'] });
    const trace = r.properties[0].trace!;
    expect(timelineSteps(model, trace).at(-1)!.summary).toMatch(/^reconciles orders \(.*\): its live read gets no answer \(cut off from the kube-apiserver\), so the reconcile fails and orders is queued again$/);
  });

  it('runs on the Databases of the cluster\'s own manifests (cluster.objects), which replace its example of the same name', async () => {
    const objects = [
      { kind: 'Database', metadata: { name: 'orders' }, spec: { size: '20Gi' } },
      { kind: 'Database', metadata: { name: 'billing', labels: { team: 'pay' } }, spec: { size: '5Gi' } },
      { kind: 'Alertmanager', metadata: { name: 'main' }, spec: {} },
    ];
    const { model } = await kubernetesScenario('node-failure', { set: { 'faults.nodeCrash': '0', 'cluster.objects': JSON.stringify(objects) }, extensions: [databaseOperator({ checkLive: true })] });
    const [initial] = model.initialStates();
    expect(objectOf(initial, 'Database', 'orders')?.spec).toEqual({ size: '20Gi' });
    expect(objectOf(initial, 'Database', 'billing')?.metadata.labels).toEqual({ team: 'pay' });
    // A kind it does not declare is not its business.
    expect(objectOf(initial, 'Alertmanager', 'main')).toBeUndefined();
  });

  it('with the live read, never drops a live Database\'s data, also across a restart of the operator', async () => {
    for (const restarts of [0, 1]) {
      const { model, properties } = await cluster(true, restarts);
      await expectHolds(model, { properties });
    }
  });
});
