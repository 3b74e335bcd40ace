/**
 * The suite a platform team would keep beside its remediation operator: the stock cluster keeps
 * StatefulSet at-most-one under a partition; with the operator it does not.
 */
import { describe, expect, it } from 'vitest';
import { check } from '../../checker/index.js';
import { expectHolds, expectViolation, kubernetesScenario } from '../../api/testing.js';
import { resolveConfig } from '../../model/index.js';
import { kubernetesModel } from '../../properties/index.js';
import { timelineSteps } from '../../reports/timeline.js';
import { remediationOperator } from './remediationOperator.js';

const config = resolveConfig('node-partition');

describe('remediation operator (force-deletes pods of nodes NotReady > 60 s)', () => {
  it('should leave the stock cluster at-most-one under a partition', async () => {
    await expectHolds(kubernetesModel(config), { properties: ['statefulset-at-most-one'], scenario: 'node-partition' });
  });

  it('should break statefulset-at-most-one under a partition, 61 s after the node is seen NotReady', async () => {
    const model = kubernetesModel(config, { extensions: [remediationOperator()] });
    const trace = await expectViolation(model, 'statefulset-at-most-one', { scenario: 'node-partition' });
    const steps = timelineSteps(model, trace);
    const names = trace.actions.map((a) => a.name);
    // The path: a partition cuts the node running db-0 off (it keeps running), the node lifecycle
    // controller marks it Unknown, the operator force-deletes db-0, the StatefulSet controller
    // recreates the identity, the scheduler binds it elsewhere and a kubelet starts it: two db-0
    // containers run.
    expect(names).toContain('node-partition');
    const order = ['node-partition', 'remediation-force-delete', 'statefulset-sync', 'schedule', 'bind', 'kubelet-sync'].map((n) => names.lastIndexOf(n));
    expect(order).toEqual([...order].sort((a, b) => a - b));
    expect(names[names.length - 1]).toBe('kubelet-sync');
    const unknown = steps.find((s) => /marks node-\d Ready=Unknown/.test(s.summary))!;
    const forced = steps.find((s) => s.action.name === 'remediation-force-delete')!;
    expect(forced.summary).toMatch(/force-deletes db-0 \(node-\d NotReady for more than 60s\)/);
    // The operator counts whole ticks from the first one after it sees the node NotReady, and
    // acts once its count exceeds 60: 61 s after the mark.
    expect(forced.seconds - unknown.seconds).toBe(61);
    // Each tick says how its memory moved, in its words (describeMemory): the count that leads to the delete.
    const counted = steps.filter((s) => s.action.name === 'tick' && s.seconds >= unknown.seconds).map((s) => s.summary.split('; ')[1]);
    expect(counted[0]).toMatch(/^remediation-operator: every node Ready → node-\d NotReady for 1s$/);
    expect(counted.at(-1)).toMatch(/^remediation-operator: node-\d NotReady for 60s → node-\d NotReady for more than 60s$/);
    expect(counted).toHaveLength(61);
    const last = trace.states[trace.states.length - 1];
    const running = last.nodes.filter((n) => n.running.includes('db-0')).length;
    expect(running).toBe(2);
  });

  it('should break its own promise first: the force delete of a pod the cut-off node still runs', async () => {
    // kubernetesScenario (as `check --extension`) checks the extension's own properties with the cluster's.
    const { model, properties } = await kubernetesScenario('node-partition', { extensions: [remediationOperator()] });
    expect(properties).toContain('remediation-operator-spares-running-pods');
    const trace = await expectViolation(model, 'remediation-operator-spares-running-pods', { scenario: 'node-partition' });
    // 61 s after the node is marked Unknown it force-deletes the first pod bound there, still running.
    expect(trace.actions.at(-1)!.name).toBe('remediation-force-delete');
    expect(trace.actions.length).toBe(149);
  });

  it('should keep at-most-one when the NotReady node has really crashed (node-failure)', async () => {
    // The same operator is safe when the node is down: its containers stopped with it, so the
    // recreated db-0 is the only copy. What breaks at-most-one is acting on NotReady alone.
    const { model } = await kubernetesScenario('node-failure', { extensions: [remediationOperator()] });
    await expectHolds(model, { properties: ['statefulset-at-most-one', 'remediation-operator-spares-running-pods', 'statefulset-recreated'], scenario: 'node-failure' });
    // ...and it does what it is for: the stock cluster never recreates a StatefulSet pod of a
    // crashed node (the old object stays Terminating), the operator's cluster does.
    const stock = check(kubernetesModel(resolveConfig('node-failure')), { properties: ['statefulset-recreated'] });
    expect(stock.properties[0].status).toBe('unwitnessed');
  });
});
