/**
 * The node-remediation operator's suite: an operator of the cluster's own Pods and Nodes. Its
 * force delete breaks StatefulSet at-most-one under a partition, found with the shortest trace;
 * the graceful delete holds on every path up to a depth well past that trace. And the rules of
 * stock kinds: only deletes of Pods are writes, reads are declared, symmetry steps aside.
 */
import { describe, expect, it } from 'vitest';
import { check } from 'kubecheck';
import { expectViolation, kubernetesScenario } from 'kubecheck/testing';
import { operator } from 'kubecheck/operator';
import type { ClusterState } from 'kubecheck/model';
import { timelineSteps } from '../../reports/timeline.js';
import { nodeRemediation } from './nodeRemediation.js';

// Two nodes and the StatefulSet alone: the smallest cluster the bug needs.
const SMALL = { 'cluster.nodes': '2', 'cluster.replicaSetReplicas': '0' };
const cluster = (force: boolean) => kubernetesScenario('node-partition', { set: SMALL, extensions: [nodeRemediation({ force })] });

describe('node-remediation operator', () => {
  it('force-deletes the pod of a cut-off node, and the StatefulSet runs its identity twice', async () => {
    const { model } = await cluster(true);
    const trace = await expectViolation(model, 'statefulset-at-most-one');
    const summaries = timelineSteps(model, trace).map((s) => `${s.actor}: ${s.summary}`);
    expect(summaries).toContain('node-remediation: delete Pod/db-0 (preconditions uid=db-0-0) (--grace-period=0 --force): ok');
    expect(summaries.some((s) => /^node-remediation: its Node informer catches up/.test(s))).toBe(true);
    expect(summaries.some((s) => /node-\d is cut off from the control plane/.test(s))).toBe(true);
    const last = trace.states.at(-1)!;
    expect(last.nodes.filter((n) => n.running.includes('db-0'))).toHaveLength(2);
    expect(trace.actions.length).toBe(74);
  });

  it('breaks its own promise at the force delete itself: db-0 still runs on the cut-off node', async () => {
    const { model, properties } = await cluster(true);
    expect(properties).toContain('node-remediation-spares-running-pods');
    const trace = await expectViolation(model, 'node-remediation-spares-running-pods');
    expect(trace.actions.length).toBe(70);
    expect(trace.actions.at(-1)!.name).toBe('node-remediation-write');
  });

  it('deleting gracefully, leaves the pod Terminating on a cut-off node: at-most-one holds past the depth of the bug', async () => {
    const { model } = await cluster(false);
    const r = check(model, { properties: ['statefulset-at-most-one', 'node-remediation-spares-running-pods'], maxDepth: 85 });
    expect(r.verdict).not.toBe('violation');
    expect(r.stats.distinctStates).toBeGreaterThan(20_000);
    expect(r.stats.depth).toBe(85);
  });

  it('reads the cluster\'s Pods and Nodes it watches, deletes Pods and nothing else, and turns symmetry off', async () => {
    const reads = operator({ name: 'reads', for: 'Node', reconcile: (_n, view) => (view.reader.list('Pod'), {}) });
    const { model } = await kubernetesScenario('node-failure', { extensions: [reads] });
    expect(() => check(model, { maxStates: 500 })).toThrow(/reads Pods; list Pod in watches/);
    const creates = operator({ name: 'creates', for: 'Node', reconcile: (n) => ({ writes: [{ op: 'create', object: { kind: 'Pod', metadata: { name: `x-${n}` } } }] }) });
    const c = await kubernetesScenario('node-failure', { extensions: [creates] });
    expect(() => check(c.model, { maxStates: 500 })).toThrow(/a create of a Pod is not modelled/);
    expect(() => operator({ name: 'own', for: 'Backup', objects: [{ kind: 'Pod', metadata: { name: 'p' } }], reconcile: () => ({}) })).toThrow(/come from the scenario/);
    expect(nodeRemediation({ force: true }).symmetric).toBe(false);
  });
});
