/**
 * Random walks (fast-check) through every scenario, faults and operator actions enabled: every
 * transition keeps the state well-formed, describes itself, and time passes only on ticks.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { check, successors } from '../../checker/index.js';
import { kubernetesModel } from '../../properties/index.js';
import { clusterModel, configToObject, resolveConfig, scenarios, type ClusterConfig, type ClusterExtension, type ClusterState } from '../../model/index.js';

const ALL_FAULTS = {
  'faults.nodeCrash': '1', 'faults.nodeRestart': '1', 'faults.kubeletCrash': '1', 'faults.kubeletRestart': '1',
  'faults.nodePartition': '1', 'faults.nodePartitionHeal': '1', 'faults.componentCrash': '1', 'faults.componentRestart': '1',
  'faults.controlPlanePartition': '1', 'faults.controlPlanePartitionHeal': '1', 'faults.etcdMemberLoss': '1', 'faults.apiserverLoss': '1',
  'faults.processPause': '1', 'faults.clockDrift': '1', 'operator.forceDeletePod': '1', 'operator.deleteNode': '1',
  'operator.outOfServiceTaint': '1', 'operator.cordon': '1',
};

function wellFormed(config: ClusterConfig, s: ClusterState): string | undefined {
  const names = s.api.pods.map((p) => p.name);
  if (names.join() !== [...names].sort().join() || new Set(names).size !== names.length) return 'pods not sorted/unique';
  for (const p of s.api.pods) if (p.nodeName >= config.cluster.nodes) return `pod ${p.name} bound to a missing node index`;
  for (const n of s.nodes) {
    if (n.running.join() !== [...n.running].sort().join() || new Set(n.running).size !== n.running.length) return 'running not sorted/unique';
    if (!n.up && n.running.length) return 'a down node runs containers';
    if (n.heartbeatIn < 0 || n.sinceHeartbeat < 0) return 'negative node timer';
  }
  for (const v of Object.values(s.budget)) if (v < 0) return 'negative budget';
  for (const list of s.candidates) {
    for (const k of list) {
      if (k.retryIn < 0 || k.paused < 0 || k.observedAge < 0) return 'negative candidate timer';
      if (!k.up && k.leader) return 'a crashed process believes it leads';
      if (k.ctrl !== null && !k.leader) return 'a follower runs controllers';
      if (k.ctrl?.evictions.some((x) => x.in < 0)) return 'negative eviction countdown';
    }
  }
  for (const n of s.api.nodes) if (n !== null && n.taints.join() !== [...n.taints].sort().join()) return 'taints not sorted';
  if (JSON.stringify(s) !== JSON.stringify(JSON.parse(JSON.stringify(s)))) return 'not JSON-serialisable';
  return undefined;
}

describe('random walks', () => {
  for (const { name } of scenarios) {
    it(`should keep ${name} states well-formed on every transition`, () => {
      const config = resolveConfig(name, { set: ALL_FAULTS });
      const model = clusterModel(config);
      fc.assert(
        fc.property(fc.array(fc.nat(), { minLength: 50, maxLength: 400, size: 'max' }), fc.nat(), (choices, init) => {
          const starts = model.initialStates();
          let s = starts[init % starts.length];
          for (const c of choices) {
            const next = successors(model, s);
            if (next.length === 0) break;
            const step = next[c % next.length];
            const d = model.describeStep!(s, step.action, step.state);
            expect(d.actor.length).toBeGreaterThan(0);
            expect(d.summary.length).toBeGreaterThan(0);
            expect(model.elapsed!(s, step.action, step.state)).toBe(step.action.name === 'tick' ? config.model.tick : 0);
            const problem = wellFormed(config, step.state);
            expect(problem, `${step.action.name}: ${problem}`).toBeUndefined();
            s = step.state;
          }
          expect(model.describeState!(s).length).toBeGreaterThan(0);
        }),
        { numRuns: 40 },
      );
    });
  }

  it('should keep the configuration of every scenario serialisable for trace files', () => {
    for (const { name } of scenarios) {
      const c = resolveConfig(name);
      expect(resolveConfig(name, { file: configToObject(c) })).toEqual(c);
    }
  });

  it('should accept a user controller as an extension (a remediation operator)', () => {
    // Force-deletes pods on a node marked Unknown: a user's controller written as a pure action.
    const config = resolveConfig('node-partition');
    const remediation: ClusterExtension = {
      name: 'remediation',
      initial: () => 0,
      symmetric: true,
      actions: [
        {
          name: 'remediate',
          params: (s: ClusterState) => s.api.pods.map((p) => p.name),
          enabled: (s: ClusterState, pod: unknown) => {
            const p = s.api.pods.find((q) => q.name === pod);
            return p !== undefined && p.nodeName >= 0 && s.api.nodes[p.nodeName]?.ready === 'Unknown';
          },
          apply: (s: ClusterState, pod: unknown) => ({ ...s, api: { ...s.api, pods: s.api.pods.filter((q) => q.name !== pod) } }),
        },
      ],
    };
    const model = clusterModel(config, { extensions: [remediation] });
    expect(model.actions.map((a) => a.name)).toContain('remediate');
    // ...and with the Kubernetes properties it breaks StatefulSet at-most-one on a partition.
    const withProps = kubernetesModel(config, { extensions: [remediation] });
    const r = check(withProps, { properties: ['statefulset-at-most-one'] });
    expect(r.properties[0].status).toBe('violated');
    expect(r.properties[0].trace!.actions.slice(-4).map((a) => a.name)).toEqual(['statefulset-sync', 'schedule', 'bind', 'kubelet-sync']);
    expect(r.properties[0].trace!.actions.map((a) => a.name)).toContain('remediate');
  });
});
