/**
 * The fused numeric canonical key (`canonicalKeyBytes`, what the checker fingerprints under
 * symmetry) against the two-step form it replaces, `stateKey(canonicalize(s))`: the two tell
 * states apart alike (a one-to-one map between their values) on the first states of every stock
 * scenario's breadth-first search and along seeded random walks deep into each, with the
 * configurations that give symmetry the most to do (several zones, DaemonSets, replacements,
 * terminating containers, three candidates per election, scheduled evictions).
 */
import { describe, expect, it } from 'vitest';
import { clusterModel, makeCtx, scenarios, type ClusterState, type ResolveInput } from '../../model/index.js';
import { stateKey } from '../../model/key.js';
import { canonicalize, canonicalKeyBytes } from '../../model/symmetry.js';
import { oneToOne, sampleStates, variantConfigs } from './sampleStates.js';

const VARIANTS: readonly ResolveInput[] = [
  {},
  { set: { 'cluster.nodes': '4', 'cluster.zones': '2', 'faults.nodeCrash': '2', 'faults.nodePartition': '1', 'faults.nodePartitionHeal': '1' } },
  { set: { 'cluster.controllerManagerCandidates': '3', 'cluster.schedulerCandidates': '3', 'faults.componentCrash': '1', 'faults.processPause': '1', 'operator.forceDeletePod': '1' } },
  { set: { 'cluster.terminationGracePeriodSeconds': '3', 'operator.forceDeletePod': '2', 'operator.deleteNode': '1', 'faults.kubeletCrash': '1', 'faults.containerRuntimeFailure': '1' } },
  {
    file: { cluster: { workloads: [{ kind: 'ReplicaSet', name: 'web', replicas: 2 }, { kind: 'ReplicaSet', name: 'api', replicas: 2, tolerations: { unreachable: 1 } }, { kind: 'DaemonSet', name: 'agent' }] } },
    set: { 'faults.nodeCrash': '2', 'operator.deleteNode': '1' },
  },
];

const hex = (b: Uint8Array): string => Buffer.from(b).toString('hex');

describe('canonicalKeyBytes', () => {
  for (const { name } of scenarios) {
    it(`should separate exactly the states stateKey(canonicalize(s)) separates on reachable states of ${name}`, () => {
      let compared = 0;
      const same1to1 = oneToOne();
      let moved = 0;
      for (const config of variantConfigs(name, VARIANTS)) {
        const ctx = makeCtx(config);
        const model = clusterModel(config, { symmetry: false });
        const same = (s: ClusterState): void => {
          const two = `${name}|${stateKey(canonicalize(ctx, s))}`;
          const bytes = `${name}|${hex(canonicalKeyBytes(ctx, s))}`;
          same1to1(two, bytes);
          compared++;
          if (two !== `${name}|${stateKey(s)}`) moved++;
        };
        sampleStates(model, { breadthFirst: 150, walks: 6, steps: 250, seed: 7 }, same);
      }
      expect(compared).toBeGreaterThan(500);
      // The comparison is worth something only where the canonical form differs from the state.
      if (name === 'node-failure') expect(moved).toBeGreaterThan(100);
    });
  }
});
