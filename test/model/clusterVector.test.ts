/**
 * The cluster state as a vector (`model/vector/layout.ts`): decoding an encoded state gives back
 * the state (the same `stateKey`, which holds every field) on reachable states of every stock
 * scenario the layout covers, with the configurations that use the most of the layout (several
 * zones, DaemonSets, terminating containers, scheduled evictions, three candidates per election,
 * a deleted Node object, a drifting clock, a graceful shutdown); encoding the decoded state gives
 * the same vector back; and what the layout cannot hold is refused by name.
 */
import { describe, expect, it } from 'vitest';
import { clusterModel, makeCtx, resolveConfig, scenarios, type ClusterState, type ResolveInput } from '../../model/index.js';
import { stateKey } from '../../model/key.js';
import { clusterVectorLayout, decodeCluster, encodeCluster, VectorRangeError, type ClusterLayout } from '../../model/vector/layout.js';
import { sampleStates } from './sampleStates.js';

const VARIANTS: readonly ResolveInput[] = [
  {},
  { set: { 'cluster.nodes': '5', 'cluster.zones': '2', 'faults.nodeCrash': '1', 'faults.nodePartition': '1', 'faults.nodePartitionHeal': '1' } },
  { set: { 'cluster.nodes': '4', 'cluster.zones': '2', 'faults.nodeCrash': '2', 'faults.containerRuntimeFailure': '1', 'faults.nodeStatusUpdateFailure': '1', 'faults.nodeShutdown': '1' } },
  { set: { 'cluster.controllerManagerCandidates': '3', 'cluster.schedulerCandidates': '3', 'faults.componentCrash': '1', 'faults.processPause': '1', 'faults.clockDrift': '1', 'faults.controlPlanePartition': '1', 'operator.forceDeletePod': '1' } },
  { set: { 'cluster.terminationGracePeriodSeconds': '3', 'operator.forceDeletePod': '2', 'operator.deleteNode': '1', 'operator.cordon': '1', 'operator.outOfServiceTaint': '1', 'faults.kubeletCrash': '1', 'faults.etcdMemberLoss': '1' } },
  {
    file: { cluster: { workloads: [{ kind: 'ReplicaSet', name: 'web', replicas: 2 }, { kind: 'ReplicaSet', name: 'api', replicas: 2, tolerations: { unreachable: 1 } }, { kind: 'DaemonSet', name: 'agent' }] } },
    set: { 'faults.nodeCrash': '2', 'operator.deleteNode': '1' },
  },
];

/** Scenarios whose every configuration uses informer caches, which the layout does not cover. */
const WITH_CACHES = new Set(['stale-informers', 'expectations-timeout']);

const layoutOf = (ctx: ReturnType<typeof makeCtx>, s: ClusterState): ClusterLayout => {
  const L = clusterVectorLayout(ctx, s);
  if ('unsupported' in L) throw new Error(L.unsupported);
  return L;
};

describe('the cluster state as a vector', () => {
  for (const { name } of scenarios) {
    if (WITH_CACHES.has(name)) {
      it(`should say that ${name} is not covered (informer caches)`, () => {
        const config = resolveConfig(name, {});
        const model = clusterModel(config, { symmetry: false });
        const L = clusterVectorLayout(makeCtx(config), model.initialStates()[0]);
        expect(L).toEqual({ unsupported: 'informer caches (informers.watchLag > 0)' });
      });
      continue;
    }
    it(`should decode every encoded reachable state of ${name} to the same state`, () => {
      let compared = 0;
      let terminating = 0;
      let deleted = 0;
      for (const input of VARIANTS) {
        let config;
        try {
          config = resolveConfig(name, input);
        } catch {
          continue; // a variant this scenario refuses
        }
        const ctx = makeCtx(config);
        const model = clusterModel(config, { symmetry: false });
        const L = layoutOf(ctx, model.initialStates()[0]);
        sampleStates(model, { breadthFirst: 100, walks: 4, steps: 250, seed: 5 }, (s) => {
          const v = encodeCluster(L, s);
          expect(v.length).toBe(L.width);
          const back = decodeCluster(L, v);
          expect(stateKey(back)).toBe(stateKey(s));
          expect(Array.from(encodeCluster(L, back))).toEqual(Array.from(v));
          compared++;
          if (s.nodes.some((n) => (n.terminating?.length ?? 0) > 0)) terminating++;
          if (s.api.nodes.some((o) => o === null)) deleted++;
        });
      }
      expect(compared).toBeGreaterThan(500);
      if (name === 'node-failure') {
        expect(terminating).toBeGreaterThan(0);
        expect(deleted).toBeGreaterThan(0);
      }
    });
  }

  it('should refuse by name a pod the layout has no slot for', () => {
    const config = resolveConfig('node-failure', {});
    const ctx = makeCtx(config);
    const s = clusterModel(config, { symmetry: false }).initialStates()[0];
    const L = clusterVectorLayout(ctx, s, { replicaSetSlots: (replicas) => replicas });
    if ('unsupported' in L) throw new Error(L.unsupported);
    const web = s.api.pods.find((p) => p.workload === 'web');
    if (web === undefined) throw new Error('no web pod in node-failure');
    const extra = { ...s, api: { ...s.api, pods: [...s.api.pods, { ...web, name: 'web-9' }].sort((a, b) => (a.name < b.name ? -1 : 1)) } };
    expect(() => encodeCluster(L, extra)).toThrow(VectorRangeError);
    expect(() => encodeCluster(L, extra)).toThrow('pod name web-9 has no slot in the layout');
  });

  it('should refuse users\' controllers and a written scale', () => {
    const config = resolveConfig('node-failure', {});
    const ctx = makeCtx(config);
    const s = clusterModel(config, { symmetry: false }).initialStates()[0];
    expect(clusterVectorLayout(ctx, { ...s, extensions: { mine: 1 } })).toEqual({ unsupported: "users' controllers or operators" });
    const L = layoutOf(ctx, s);
    expect(() => encodeCluster(L, { ...s, api: { ...s.api, scale: { web: { replicas: 1 } } } })).toThrow('a written scale');
  });
});
