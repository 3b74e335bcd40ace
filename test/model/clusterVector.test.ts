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
import { CANDIDATE, clusterVectorLayout, decodeCluster, encodeCluster, HEALTH, HEALTH_WIDTH, NODE, POD, POD_WIDTH, VectorRangeError, type ClusterLayout } from '../../model/vector/layout.js';
import { canonicalVectorBytes } from '../../model/vector/symmetry.js';
import { canonicalize, canonicalKeyBytes, permuteNodesAndPods } from '../../model/symmetry.js';
import { oneToOne, sampleStates, variantConfigs } from './sampleStates.js';
import { candidatePermutations, nodePermutations, permutations } from './orbits.js';

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

const hex = (b: Uint8Array): string => Buffer.from(b.buffer, b.byteOffset, b.byteLength).toString('hex');

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
      for (const config of variantConfigs(name, VARIANTS)) {
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

  for (const { name } of scenarios) {
    if (WITH_CACHES.has(name)) continue;
    it(`should merge exactly the states canonicalKeyBytes merges on reachable states of ${name}`, () => {
      const same = oneToOne();
      let compared = 0;
      let moved = 0;
      for (const [variant, config] of variantConfigs(name, VARIANTS).entries()) {
        const ctx = makeCtx(config);
        const model = clusterModel(config, { symmetry: false });
        const L = layoutOf(ctx, model.initialStates()[0]);
        sampleStates(model, { breadthFirst: 150, walks: 6, steps: 250, seed: 7 }, (s) => {
          const objectKey = `${variant}|${hex(canonicalKeyBytes(ctx, s))}`;
          const v = encodeCluster(L, s);
          const canonical = canonicalVectorBytes(ctx, L, v);
          const vectorKey = `${variant}|${hex(canonical)}`;
          same(objectKey, vectorKey);
          // The representative is a state of the same orbit.
          const representative = decodeCluster(L, new Float64Array(canonical.buffer.slice(canonical.byteOffset, canonical.byteOffset + canonical.byteLength)));
          expect(stateKey(canonicalize(ctx, representative))).toBe(stateKey(canonicalize(ctx, s)));
          compared++;
          if (hex(canonical) !== hex(new Uint8Array(v.buffer))) moved++;
        });
      }
      expect(compared).toBeGreaterThan(500);
      if (name === 'node-failure' || name === 'leader-failover') expect(moved).toBeGreaterThan(50);
    });
  }

  it('should give every state of an orbit one representative (nodes, ReplicaSet pods, two candidates per election)', () => {
    const config = resolveConfig('node-failure', { set: { 'faults.nodeCrash': '2', 'cluster.controllerManagerCandidates': '2', 'cluster.schedulerCandidates': '2', 'faults.componentCrash': '1', 'operator.forceDeletePod': '1' } });
    const ctx = makeCtx(config);
    const model = clusterModel(config, { symmetry: false });
    const L = layoutOf(ctx, model.initialStates()[0]);
    const nodePerms = nodePermutations(config);
    let images = 0;
    let holderSwapped = 0;
    sampleStates(model, { breadthFirst: 0, walks: 3, steps: 60, seed: 3 }, (s) => {
      const expected = hex(canonicalVectorBytes(ctx, L, encodeCluster(L, s)));
      const webs = [...new Set([...s.api.pods.map((p) => p.name), ...s.nodes.flatMap((n) => n.running)])].filter((n) => n.startsWith('web-'));
      for (const perm of nodePerms) {
        for (const order of permutations(webs.map((_, i) => i))) {
          const t = permuteNodesAndPods(s, perm, new Map(webs.map((n, i) => [n, webs[order[i]]])));
          for (const u of candidatePermutations(t)) {
            expect(hex(canonicalVectorBytes(ctx, L, encodeCluster(L, u)))).toBe(expected);
            images++;
            if (u.api.leases[0].holder === 1) holderSwapped++;
          }
        }
      }
    });
    expect(images).toBeGreaterThan(5000);
    expect(holderSwapped).toBeGreaterThan(1000);
  });

  it('should rename a pod name only a paused manager\'s eviction still holds, as the object model does', () => {
    // A paused kube-controller-manager keeps the eviction it queued for a pod deleted meanwhile:
    // that name is renamed with the others (the renaming stays one-to-one), so a dangling eviction
    // is not merged with one of a pod that exists, and two dangling names are one orbit.
    const config = resolveConfig('node-failure', { set: { 'faults.processPause': '1' } });
    const ctx = makeCtx(config);
    const s0 = clusterModel(config, { symmetry: false }).initialStates()[0];
    const L = layoutOf(ctx, s0);
    const rename = (name: string): string => (name === 'web-0' ? 'web-5' : name);
    const moved: ClusterState = {
      ...s0,
      api: { ...s0.api, pods: s0.api.pods.map((p) => ({ ...p, name: rename(p.name) })).sort((a, b) => (a.name < b.name ? -1 : 1)) },
      nodes: s0.nodes.map((n) => ({ ...n, running: n.running.map(rename).sort() })),
    };
    const withEviction = (pod: string): ClusterState => {
      const [leader, ...others] = moved.candidates[0];
      if (leader.ctrl === null) throw new Error('no leader');
      const paused = { ...leader, paused: 5, ctrl: { ...leader.ctrl, evictions: [{ pod, in: 3 }] } };
      return { ...moved, candidates: [[paused, ...others], moved.candidates[1]] };
    };
    const dangling = withEviction('web-0');
    const danglingElsewhere = withEviction('web-4');
    const existing = withEviction('web-5');
    const objectKey = (s: ClusterState): string => hex(canonicalKeyBytes(ctx, s));
    const vectorKey = (s: ClusterState): string => hex(canonicalVectorBytes(ctx, L, encodeCluster(L, s)));
    for (const key of [objectKey, vectorKey]) {
      expect(key(dangling)).not.toBe(key(existing));
      expect(key(dangling)).toBe(key(danglingElsewhere));
    }
  });

  it('should name each slot where the layout puts it', () => {
    const config = resolveConfig('node-failure', { set: { 'cluster.nodes': '4', 'cluster.zones': '2', 'cluster.controllerManagerCandidates': '2' } });
    const ctx = makeCtx(config);
    const L = layoutOf(ctx, clusterModel(config, { symmetry: false }).initialStates()[0]);
    const P = L.podNames.length;
    const c1 = L.candidateBase[0] + L.candidateWidth[0];
    expect(L.slotNames[L.nodeBase + 3 * L.nodeWidth + NODE.liveFor]).toBe('nodes[3].liveFor');
    expect(L.slotNames[L.podBase + 2 * POD_WIDTH + POD.replacement]).toBe(`pods[${L.podNames[2]}].replacement`);
    expect(L.slotNames[L.containerBase + 3 * P + 1]).toBe(`nodes[3].containers[${L.podNames[1]}]`);
    expect(L.slotNames[c1 + CANDIDATE.hasCtrl]).toBe('candidates[0][1].hasCtrl');
    expect(L.slotNames[c1 + L.ctrl.disruptionMode]).toBe('candidates[0][1].ctrl.disruptionMode');
    expect(L.slotNames[c1 + L.ctrl.health + 3 * HEALTH_WIDTH + HEALTH.observed]).toBe('candidates[0][1].ctrl.nodes[3].observed');
    expect(L.slotNames[c1 + L.ctrl.zones + 3 * 1 + 2]).toBe('candidates[0][1].ctrl.zones[1].tokenIn');
    expect(L.slotNames[c1 + L.ctrl.evictions + P - 1]).toBe(`candidates[0][1].ctrl.evictions[${L.podNames[P - 1]}]`);
    expect(L.slotNames[c1 + L.ctrl.gcMissing + 3]).toBe('candidates[0][1].ctrl.gcMissing[3]');
    expect(L.slotNames[L.candidateBase[1] + CANDIDATE.assumedNode]).toBe('candidates[1][0].assumedNode');
    expect(L.slotNames[L.budgetBase]).toBe(`budget.${L.budgetNames[0]}`);
    expect(L.slotNames[L.sequenceIn]).toBe('sequenceIn');
    expect(L.slotNames.length).toBe(L.width);
  });

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
