/**
 * Workloads as a list (`cluster.workloads`): any number of ReplicaSets, StatefulSets and
 * DaemonSets with their own names and tolerations. The default list is the ReplicaSet web and
 * the StatefulSet db of the scalar keys; a config with two ReplicaSets and a DaemonSet is checked
 * exhaustively, and its symmetry reduction (pods interchangeable within their ReplicaSet only,
 * DaemonSet pods moving with their node) against brute-force orbit counts.
 */
import { describe, expect, it } from 'vitest';
import { check, successors } from '../../checker/index.js';
import { clusterModel, configToObject, resolveConfig, type ClusterConfig, type ClusterState, type ResolveInput } from '../../model/index.js';
import { stateKey } from '../../model/key.js';
import { candidatePermutations, nodePermutations, permutations, reachable } from './orbits.js';
import { permuteNodesAndPods } from '../../model/symmetry.js';
import { defaultPropertyIds, kubernetesModel } from '../../properties/index.js';

/** Every product of one choice per list. */
function product<T>(lists: readonly (readonly T[])[]): T[][] {
  return lists.reduce<T[][]>((acc, list) => acc.flatMap((a) => list.map((x) => [...a, x])), [[]]);
}

/**
 * The orbit of s: nodes permuted within zones (a DaemonSet's pods renamed with their node), the
 * pods of each ReplicaSet renamed among that ReplicaSet's names only (a slot is no identity, so
 * onto `<name>-0` … `<name>-(m-1)`; every state of an orbit yields the same set), candidates of
 * each election. Restated here from the definition, independently of `canonicalize`.
 */
function orbit(config: ClusterConfig, s: ClusterState): ClusterState[] {
  const nodePerms = nodePermutations(config);
  const perSet = config.cluster.workloads
    .filter((w) => w.kind === 'ReplicaSet')
    .map((w) => {
      const names = new Set<string>();
      const mine = (n: string): boolean => new RegExp(`^${w.name}-\\d+$`).test(n);
      for (const p of s.api.pods) if (p.workload === w.name) names.add(p.name);
      for (const n of s.nodes) for (const r of n.running) if (mine(r)) names.add(r);
      // A slot is no identity: the names in use may be any; each bijection onto <name>-0 … <name>-(m-1).
      const list = [...names];
      return permutations(list.map((_, i) => i)).map((p) => list.map((n, i): [string, string] => [n, `${w.name}-${p[i]}`]));
    });
  const renames = product(perSet).map((pairs) => new Map(pairs.flat()));
  const daemonSets = config.cluster.workloads.filter((w) => w.kind === 'DaemonSet').map((w) => w.name);
  const out: ClusterState[] = [];
  for (const perm of nodePerms) {
    for (const rename of renames) {
      const t = permuteNodesAndPods(s, perm, rename, daemonSets);
      out.push(...candidatePermutations(t));
    }
  }
  return out;
}

/** Short timers where the logic does not depend on them, one candidate per election, four nodes. */
const SMALL = {
  'kubelet.nodeLeaseDurationSeconds': '4',
  'kubeControllerManager.nodeMonitorPeriod': '1s',
  'kubeControllerManager.nodeMonitorGracePeriod': '2s',
  'kubeApiserver.defaultNotReadyTolerationSeconds': '2',
  'kubeApiserver.defaultUnreachableTolerationSeconds': '2',
  'cluster.nodes': '4',
  'cluster.controllerManagerCandidates': '1',
  'cluster.schedulerCandidates': '1',
  // Terminating containers stay in the orbits (their timers move with their node), over 2 s
  // instead of 30 (the orbit count does not depend on the length, the brute force's cost does).
  'cluster.terminationGracePeriodSeconds': '2',
};

/** Two ReplicaSets (web with the admission default, api tolerating unreachable 1 s) and a DaemonSet. */
const TWO_SETS_AND_A_DAEMON = {
  cluster: {
    workloads: [
      { kind: 'ReplicaSet', name: 'web', replicas: 2 },
      { kind: 'ReplicaSet', name: 'api', replicas: 2, tolerations: { unreachable: 1 } },
      { kind: 'DaemonSet', name: 'agent' },
    ],
  },
};

function refusal(f: () => unknown): string {
  try {
    f();
  } catch (e) {
    return (e as Error).message;
  }
  throw new Error('expected a refusal');
}

describe('cluster.workloads', () => {
  it('should make the default list the ReplicaSet web and the StatefulSet db of the scalar keys, written back as default', () => {
    const c = resolveConfig('node-failure', { set: { 'cluster.replicaSetReplicas': '3', 'cluster.replicaSetUnreachableTolerationSeconds': '20', 'cluster.statefulSetTolerationSeconds': 'forever', 'cluster.statefulSetNodeName': 'node-2' } });
    expect(c.cluster.workloads).toEqual([
      { kind: 'ReplicaSet', name: 'web', replicas: 3, tolerations: { unreachable: 20, notReady: null }, nodeName: -1 },
      { kind: 'StatefulSet', name: 'db', replicas: 1, tolerations: { unreachable: 'forever', notReady: 'forever' }, nodeName: 1 },
    ]);
    expect((configToObject(c) as { cluster: { workloads: unknown } }).cluster.workloads).toBe('default');
    expect(resolveConfig('leader-failover').cluster.workloads.map((w) => w.replicas)).toEqual([0, 0]);
  });

  it('should read a list from a config file (or --set as JSON), and read configToObject back to an equal config', () => {
    const input: ResolveInput = { file: TWO_SETS_AND_A_DAEMON, set: SMALL };
    const c = resolveConfig('node-failure', input);
    expect(c.cluster.workloads).toEqual([
      { kind: 'ReplicaSet', name: 'web', replicas: 2, tolerations: { unreachable: null, notReady: null }, nodeName: -1 },
      { kind: 'ReplicaSet', name: 'api', replicas: 2, tolerations: { unreachable: 1, notReady: null }, nodeName: -1 },
      { kind: 'DaemonSet', name: 'agent', replicas: 0, tolerations: { unreachable: null, notReady: null }, nodeName: -1 },
    ]);
    expect(resolveConfig('node-failure', { file: JSON.parse(JSON.stringify(configToObject(c))) })).toEqual(c);
    const viaSet = resolveConfig('node-failure', { set: { ...SMALL, 'cluster.workloads': JSON.stringify(TWO_SETS_AND_A_DAEMON.cluster.workloads) } });
    expect(viaSet).toEqual(c);
    // A scenario's own scalar overrides (leader-failover gives web and db no replicas) give way to the list.
    expect(resolveConfig('leader-failover', { file: TWO_SETS_AND_A_DAEMON }).cluster.workloads).toHaveLength(3);
  });

  it('should refuse a list it cannot model in one coded line naming the field', () => {
    const list = (...workloads: unknown[]): ResolveInput => ({ file: { cluster: { workloads } } });
    expect(refusal(() => resolveConfig('node-failure', { ...list({ kind: 'ReplicaSet', name: 'web' }), set: { 'cluster.replicaSetReplicas': '5' } }))).toMatch(/^KC107: cluster.replicaSetReplicas sets the default workload web, which cluster.workloads replaces/);
    expect(refusal(() => resolveConfig('node-failure', list({ kind: 'Deployment', name: 'web' })))).toMatch(/^KC104: cluster.workloads\[0\].kind: expected one of ReplicaSet, StatefulSet, DaemonSet/);
    expect(refusal(() => resolveConfig('node-failure', list({ kind: 'ReplicaSet', name: 'Web_1' })))).toMatch(/^KC104: cluster.workloads\[0\].name: "Web_1" is not a workload name/);
    expect(refusal(() => resolveConfig('node-failure', list({ kind: 'ReplicaSet', name: 'web' }, { kind: 'StatefulSet', name: 'web' })))).toMatch(/^KC107: cluster.workloads: two workloads are named web/);
    expect(refusal(() => resolveConfig('node-failure', list({ kind: 'DaemonSet', name: 'agent' }, { kind: 'ReplicaSet', name: 'agent-node' })))).toMatch(/^KC107: .*agent-node would name its pods like the DaemonSet agent's/);
    expect(refusal(() => resolveConfig('node-failure', list({ kind: 'DaemonSet', name: 'agent', replicas: 2 })))).toMatch(/^KC104: cluster.workloads\[0\]: a DaemonSet runs one pod on each node/);
    expect(refusal(() => resolveConfig('node-failure', list({ kind: 'ReplicaSet', name: 'web', replica: 2 })))).toMatch(/^KC102: unknown parameter "cluster.workloads\[0\].replica"/);
    expect(refusal(() => resolveConfig('node-failure', list({ kind: 'ReplicaSet', name: 'web', nodeName: 'node-9' })))).toMatch(/^KC107: cluster.workloads\[0\].nodeName \(node-9\) names a node that does not exist/);
    expect(refusal(() => resolveConfig('node-failure', list({ kind: 'ReplicaSet', name: 'web', tolerations: { unreachable: -1 } })))).toMatch(/^KC104: cluster.workloads\[0\].tolerations.unreachable \(-1\) must not be negative/);
  });

  it('should start with each ReplicaSet and StatefulSet spread round-robin in list order and a DaemonSet pod on every node', () => {
    const c = resolveConfig('node-failure', { file: TWO_SETS_AND_A_DAEMON, set: SMALL });
    const s = clusterModel(c).initialStates()[0];
    expect(s.api.pods.map((p) => `${p.name}@${p.nodeName}:${p.workload}`)).toEqual([
      'agent-node-1@0:agent', 'agent-node-2@1:agent', 'agent-node-3@2:agent', 'agent-node-4@3:agent',
      'api-0@2:api', 'api-1@3:api', 'web-0@0:web', 'web-1@1:web',
    ]);
    expect(s.api.pods.find((p) => p.name === 'agent-node-1')?.tolerations).toMatchObject({ unreachable: null, notReady: null, outOfService: -1, noSchedule: ['unschedulable:NoSchedule'] });
    expect(s.api.pods.find((p) => p.name === 'api-0')?.tolerations).toEqual({ unreachable: 1, notReady: 2, outOfService: -1, noSchedule: [] });
    expect(s.nodes.map((n) => n.running)).toEqual([['agent-node-1', 'web-0'], ['agent-node-2', 'web-1'], ['agent-node-3', 'api-0'], ['agent-node-4', 'api-1']]);
  });

  it('should check two ReplicaSets and a DaemonSet exhaustively: each ReplicaSet replaced after its own toleration, DaemonSet pods never evicted nor moved', () => {
    const config = resolveConfig('node-failure', { file: TWO_SETS_AND_A_DAEMON, set: SMALL });
    const ids = defaultPropertyIds('node-failure', config);
    expect(ids).toEqual(expect.arrayContaining(['replacement-within', 'replacement-after-toleration', 'replacement-running', 'statefulset-at-most-one']));
    const model = kubernetesModel(config);
    const r = check(model, { properties: ids });
    expect(r.verdict).toBe('ok');
    const desc = model.properties.find((p) => p.id === 'replacement-after-toleration')!.description;
    expect(desc).toBe("no ReplicaSet pod is replaced earlier than its bound after its node's last heartbeat (web 5s, api 4s)");
    const states = reachable(config);
    for (const s of states) {
      for (const p of s.api.pods) {
        if (p.workload !== 'agent') continue;
        expect(p.deletion).toBeNull();
        expect(p.name).toBe(`agent-node-${p.nodeName + 1}`);
      }
    }
    // Each ReplicaSet is replaced on its own: api's replacement exists while web's has not come yet.
    expect(states.some((s) => s.api.pods.some((p) => p.workload === 'api' && p.replacement) && !s.api.pods.some((p) => p.workload === 'web' && p.replacement))).toBe(true);
  });

  it('should recreate a force-deleted DaemonSet pod on its own node, and not on a node tainted unreachable:NoSchedule', () => {
    const config = resolveConfig('node-partition', { file: { cluster: { workloads: [{ kind: 'DaemonSet', name: 'agent' }] } }, set: { ...SMALL, 'cluster.nodes': '2', 'operator.forceDeletePod': '1', 'faults.nodePartitionHeal': '0' } });
    const model = clusterModel(config, { symmetry: false });
    const states = reachable(config);
    let recreated = 0;
    for (const b of states) {
      for (const { state: a } of successors(model, b)) {
        for (const p of a.api.pods) {
          if (b.api.pods.some((q) => q.name === p.name)) continue;
          recreated++;
          expect(p.name).toBe(`agent-node-${p.nodeName + 1}`);
          expect(b.api.nodes[p.nodeName]?.taints.includes('unreachable:NoSchedule')).toBe(false);
        }
      }
    }
    expect(recreated).toBeGreaterThan(0);
    // Deleted while its node is cut off and tainted: not recreated while the taint stays.
    expect(states.some((s) => s.api.pods.length === 1 && s.api.nodes.some((n) => n?.taints.includes('unreachable:NoSchedule')))).toBe(true);
  });

  for (const scenario of ['node-failure', 'node-partition'] as const) {
    it(`should store exactly one state per reachable orbit with two ReplicaSets and a DaemonSet on ${scenario}`, () => {
      const config = resolveConfig(scenario, { file: TWO_SETS_AND_A_DAEMON, set: SMALL });
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
});
