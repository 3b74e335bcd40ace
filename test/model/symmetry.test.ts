/**
 * Symmetry reduction against the unreduced search: same verdicts, fewer states, and on small
 * configurations exactly one stored state per reachable orbit (orbits computed by brute force
 * over every permutation of nodes, ReplicaSet pods and candidates).
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { check, successors } from '../../checker/index.js';
import { clusterModel, makeCtx, resolveConfig, type ClusterConfig, type ClusterState } from '../../model/index.js';
import { stateKey } from '../../model/key.js';
import { candidatePermutations, nodePermutations, permutations, reachable } from './orbits.js';
import { canonicalize, permuteNodesAndPods } from '../../model/symmetry.js';
import { run } from './helpers.js';

/** Every state of the orbit of s (nodes within zones, web pods, candidates of each election). */
function orbit(config: ClusterConfig, s: ClusterState): ClusterState[] {
  const nodePerms = nodePermutations(config);
  const webs = new Set<string>();
  for (const p of s.api.pods) if (p.workload === 'web') webs.add(p.name);
  for (const n of s.nodes) for (const r of n.running) if (r.startsWith('web-')) webs.add(r);
  // ReplicaSet pod names are slots, not identities: any one-to-one renaming onto web-0 … web-(k-1)
  // (a name can be free while a later one is still used, e.g. once a terminating pod is gone).
  const names = [...webs];
  const renames = permutations(names.map((_, i) => i)).map((p) => new Map(names.map((n, i) => [n, `web-${p[i]}`])));
  const out: ClusterState[] = [];
  for (const perm of nodePerms) {
    for (const rename of renames) {
      const t = permuteNodesAndPods(s, perm, rename);
      out.push(...candidatePermutations(t));
    }
  }
  return out;
}

const SMALL = {
  'kubelet.nodeLeaseDurationSeconds': '4',
  'kubeControllerManager.nodeMonitorPeriod': '1s',
  'kubeControllerManager.nodeMonitorGracePeriod': '2s',
  'cluster.replicaSetTolerationSeconds': '2',
  'cluster.statefulSetTolerationSeconds': '2',
  'kubeApiserver.defaultNotReadyTolerationSeconds': '2',
  'kubeApiserver.defaultUnreachableTolerationSeconds': '2',
};

describe('symmetry', () => {
  it('should give the same verdicts with fewer states on node-failure and leader-failover', () => {
    // leader-failover with 3 candidates: with 2, the leader and its one follower are never in
    // interchangeable roles (the Lease's transition count only grows), so nothing is reduced.
    for (const [scenario, set] of [['node-failure', {}], ['leader-failover', { 'cluster.controllerManagerCandidates': '3', 'cluster.schedulerCandidates': '1' }]] as const) {
      const withSym = run(scenario, set, undefined, { symmetry: true });
      const without = run(scenario, set, undefined, { symmetry: false });
      expect(withSym.status).toEqual(without.status);
      expect(withSym.result.verdict).toBe(without.result.verdict);
      expect(withSym.result.stats.distinctStates).toBeLessThan(without.result.stats.distinctStates);
    }
  });

  it('should give the same counterexample length with and without symmetry', () => {
    const set = { 'operator.forceDeletePod': '1' };
    const a = run('node-partition', set, ['statefulset-at-most-one'], { symmetry: true });
    const b = run('node-partition', set, ['statefulset-at-most-one'], { symmetry: false });
    expect(a.status['statefulset-at-most-one']).toBe('violated');
    expect(a.result.properties[0].trace?.actions.length).toBe(b.result.properties[0].trace?.actions.length);
  });

  for (const [name, scenario, set] of [
    ['a small node-failure (3 nodes, short timers)', 'node-failure', SMALL],
    ['a small leader-failover (3 candidates, crash and restart)', 'leader-failover', { 'cluster.controllerManagerCandidates': '3', 'faults.componentRestart': '1', 'faults.controlPlanePartition': '0' }],
    ['two zones with a partition and a cordon', 'node-partition', { ...SMALL, 'cluster.nodes': '4', 'cluster.zones': '2', 'cluster.replicaSetReplicas': '4', 'cluster.statefulSetReplicas': '0', 'cluster.controllerManagerCandidates': '1', 'cluster.schedulerCandidates': '1', 'faults.nodePartitionHeal': '0', 'operator.cordon': '1' }],
    // Pods of the healed node terminate (SIGTERM, exit or SIGKILL): their timers move with their node.
    ['a healed partition whose evicted pods terminate', 'node-partition', { ...SMALL, 'cluster.replicaSetReplicas': '2', 'cluster.statefulSetReplicas': '0', 'cluster.controllerManagerCandidates': '1', 'cluster.schedulerCandidates': '1', 'faults.nodePartitionHeal': '1', 'cluster.terminationGracePeriodSeconds': '2' }],
    // New nodes (no status, kubelet not started) are interchangeable with each other, not with started ones.
    ['new nodes beside a started one', 'node-failure', { ...SMALL, 'cluster.newNodes': '2', 'kubeControllerManager.nodeStartupGracePeriod': '4s', 'cluster.replicaSetReplicas': '1', 'cluster.statefulSetReplicas': '0', 'cluster.controllerManagerCandidates': '1', 'cluster.schedulerCandidates': '1' }],
  ] as const) {
    it(`should store exactly one state per reachable orbit on ${name}`, () => {
      const config = resolveConfig(scenario, { set });
      const states = reachable(config);
      const orbits = new Set<string>();
      for (const s of states) {
        let min: string | undefined;
        for (const t of orbit(config, s)) {
          const k = stateKey(t);
          if (min === undefined || k < min) min = k;
        }
        orbits.add(min!);
      }
      const reduced = check(clusterModel(config), { symmetry: true });
      expect(reduced.verdict).toBe('ok');
      expect(reduced.stats.distinctStates).toBe(orbits.size);
      expect(orbits.size).toBeLessThan(states.length);
    });
  }

  it('should map every permutation of a reachable state to the same representative', () => {
    const config = resolveConfig('node-partition', { set: { ...SMALL, 'operator.forceDeletePod': '1' } });
    const ctx = makeCtx(config);
    const model = clusterModel(config, { symmetry: false });
    fc.assert(
      fc.property(fc.array(fc.nat(), { maxLength: 80 }), fc.nat(), (choices, pick) => {
        let s = model.initialStates()[0];
        for (const c of choices) {
          const next = successors(model, s);
          if (next.length === 0) break;
          s = next[c % next.length].state;
        }
        const all = orbit(config, s);
        const t = all[pick % all.length];
        expect(stateKey(canonicalize(ctx, t))).toBe(stateKey(canonicalize(ctx, s)));
      }),
      { numRuns: 150 },
    );
  });
});
