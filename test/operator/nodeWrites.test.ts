/**
 * Writes of Nodes from a reconcile: cordon and uncordon (spec.unschedulable, as kubectl cordon
 * patches it) and the out-of-service taint, as node-remediation operators write them; anything
 * else written to a Node is refused in one line.
 */
import { describe, expect, it } from 'vitest';
import { check, sometimes } from '../../checker/index.js';
import { kubernetesScenario } from '../../api/testing.js';
import { operator, type Write } from '../../model/operator/index.js';
import type { ClusterState } from '../../model/state.js';
import { timelineSteps } from '../../reports/timeline.js';
import { checkWith } from './helpers.js';

/** Writes `write(node)` once to every Node its cache shows NotReady or Unknown. */
const remediator = (write: (node: string) => Write, watches: readonly string[] = ['Node']) =>
  operator({
    name: 'remediator',
    for: 'Remediation',
    watches: watches.map((kind) => ({ kind, map: () => ['r'] })),
    objects: [{ kind: 'Remediation', metadata: { name: 'r' }, spec: {} }],
    memory: [] as string[],
    reconcile(_request, view) {
      const done = view.memory as string[];
      const sick = view.list('Node').filter((n) => (n.status as { conditions: { type: string; status: string }[] }).conditions.some((c) => c.type === 'Ready' && c.status !== 'True')).map((n) => n.metadata.name).filter((n) => !done.includes(n));
      return sick.length === 0 ? {} : { writes: sick.map(write), memory: [...done, ...sick] };
    },
  });

const scenario = (write: (node: string) => Write, watches?: readonly string[]) =>
  kubernetesScenario('node-failure', { set: { 'cluster.nodes': '2', 'cluster.statefulSetReplicas': '0' }, extensions: [remediator(write, watches)] });

describe('an operator writing Nodes', () => {
  it('cordons a failed node, and the node lifecycle controller taints it unschedulable', () => {
    const { model } = scenario((node) => ({ op: 'patch', kind: 'Node', name: node, patch: { spec: { unschedulable: true } } }));
    const cordoned = sometimes<ClusterState>('cordoned', 'a node is cordoned and tainted unschedulable', (s) => s.api.nodes.some((n) => n?.unschedulable === true && n.taints.includes('unschedulable:NoSchedule')));
    const r = checkWith(model, [cordoned]);
    expect(r.properties[0].status).toBe('witnessed');
    const steps = timelineSteps(model, r.properties[0].trace!).map((s) => `${s.actor}: ${s.summary}`);
    expect(steps.some((s) => /^remediator: patch Node\/node-\d: ok$/.test(s))).toBe(true);
  });

  it('taints a failed node out of service', () => {
    const { model } = scenario((node) => ({ op: 'patch', kind: 'Node', name: node, patch: { spec: { taints: [{ key: 'node.kubernetes.io/unreachable', effect: 'NoSchedule' }, { key: 'node.kubernetes.io/out-of-service', effect: 'NoExecute' }] } } }));
    const tainted = sometimes<ClusterState>('out-of-service', 'a node carries the out-of-service taint', (s) => s.api.nodes.some((n) => n?.taints.includes('out-of-service:NoExecute') === true));
    const r = check({ ...model, properties: [...model.properties, tainted] }, { properties: ['out-of-service'] });
    expect(r.properties[0].status).toBe('witnessed');
  });

  it('refuses other writes of a Node in one line', () => {
    const label = scenario((node) => ({ op: 'patch', kind: 'Node', name: node, patch: { spec: { podCIDR: '10.0.0.0/24' } } }));
    expect(() => check(label.model, { maxStates: 5000 })).toThrow(/spec\.podCIDR is not modelled/);
    const other = scenario((node) => ({ op: 'patch', kind: 'Node', name: node, patch: { spec: { taints: [] } } }));
    expect(() => check(other.model, { maxStates: 5000 })).toThrow(/taints other than node\.kubernetes\.io\/out-of-service/);
  });
});
