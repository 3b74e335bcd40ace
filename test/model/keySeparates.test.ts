/**
 * `stateKey` (model/key.ts) is written by hand, field by field: a field added to the state and
 * left out of the key would merge states silently. Against the generic exact encoding of the
 * whole state (every field, at every depth), on reachable states of every stock scenario: two
 * states with one key must have one exact encoding, so the key separates every pair the generic
 * encoding separates.
 */
import { describe, expect, it } from 'vitest';
import { exactEncoding } from '../../checker/fingerprint.js';
import { clusterModel, scenarios, type ClusterState, type ResolveInput } from '../../model/index.js';
import { stateKey } from '../../model/key.js';
import { sampleStates, variantConfigs } from './sampleStates.js';

const VARIANTS: readonly ResolveInput[] = [
  {},
  { set: { 'cluster.nodes': '4', 'cluster.zones': '2', 'faults.nodeCrash': '2', 'faults.nodePartition': '1', 'faults.nodePartitionHeal': '1', 'faults.containerRuntimeFailure': '1', 'faults.nodeStatusUpdateFailure': '1' } },
  { set: { 'cluster.controllerManagerCandidates': '3', 'faults.componentCrash': '1', 'faults.processPause': '1', 'faults.clockDrift': '1', 'faults.controlPlanePartition': '1', 'operator.forceDeletePod': '1' } },
  { set: { 'cluster.terminationGracePeriodSeconds': '3', 'operator.forceDeletePod': '2', 'operator.deleteNode': '1', 'operator.cordon': '1', 'operator.outOfServiceTaint': '1', 'faults.kubeletCrash': '1', 'faults.etcdMemberLoss': '1' } },
];

/** The whole state, every field (the generic encoder sorts object keys; absent and undefined are one). */
const exact = (s: ClusterState): string => exactEncoding(s);

describe('stateKey', () => {
  for (const { name } of scenarios) {
    it(`should separate every pair of reachable states of ${name} that the generic encoding separates`, () => {
      const byKey = new Map<string, string>();
      let states = 0;
      const record = (s: ClusterState): void => {
        const key = stateKey(s);
        const whole = exact(s);
        const prior = byKey.get(key);
        if (prior === undefined) byKey.set(key, whole);
        else expect(whole, `two states share the key ${key}`).toBe(prior);
        states++;
      };
      for (const config of variantConfigs(name, VARIANTS)) {
        const model = clusterModel(config, { symmetry: false });
        sampleStates(model, { breadthFirst: 0, walks: 8, steps: 250, seed: 11, walkStart: true }, record);
      }
      expect(states).toBeGreaterThan(1000);
      // Walks revisit states: the comparison above ran on keys met more than once.
      expect(byKey.size).toBeLessThan(states);
    });
  }
});
