/**
 * Liveness of the cluster once faults stop, on the whole graph without symmetry: replicas run
 * again after a node crash, a Lease is held again after its leader crashes, and a gray failure
 * (status updates failing while the Lease renews, the container runtime dead) leaves a ReplicaSet
 * short forever once a replacement is bound to that node: a lasso.
 */
import { describe, expect, it } from 'vitest';
import { action, alwaysEventually, checkLiveness } from '../../checker/index.js';
import { clusterModel, resolveConfig, type ClusterExtension, type ClusterState } from '../../model/index.js';
import { kubernetesLiveness } from '../../properties/liveness.js';
import { SMALL_TIMERS } from './helpers.js';

const SMALL = SMALL_TIMERS;

function live(scenario: string, set: Record<string, string>) {
  const config = resolveConfig(scenario, { set });
  const model = clusterModel(config, { symmetry: false });
  return Object.fromEntries(checkLiveness(model, kubernetesLiveness(config)).map((o) => [o.id, o]));
}

describe('cluster liveness once faults stop', () => {
  it('should run every replica again after a node crash and keep the Leases held', () => {
    const r = live('node-failure', SMALL);
    expect(r['replicas-eventually-running'].status).toBe('holds');
    expect(r['lease-eventually-held'].status).toBe('holds');
    // The StatefulSet pod of a node lost for good stays Terminating: not recreated (kubernetes#128970, by design).
    const db = r['statefulset-identity-eventually-running'];
    expect(db.status).toBe('violated');
    const last = db.lasso!.states[db.lasso!.loop];
    expect(last.api.pods.find((p) => p.name === 'db-0')?.deletion).toBe('taint-eviction');
  });

  it('should run every StatefulSet identity once again when a partition heals, or keep the old copy while it does not', () => {
    const r = live('node-partition', SMALL);
    expect(r['statefulset-identity-eventually-running'].status).toBe('holds');
    expect(r['replicas-eventually-running'].status).toBe('holds');
  });

  it('should hold a Lease again after its leader crashes', () => {
    const r = live('leader-failover', { 'faults.controlPlanePartition': '0' });
    expect(r['lease-eventually-held'].status).toBe('holds');
    // With a single kube-scheduler a crash leaves its Lease without an acting holder forever.
    const alone = live('leader-failover', { 'faults.controlPlanePartition': '0', 'cluster.schedulerCandidates': '1' });
    expect(alone['lease-eventually-held'].status).toBe('violated');
    expect(alone['lease-eventually-held'].lasso!.actions.map((a) => a.name)).toContain('component-crash');
  });

  it('should find the gray failure as a lasso: the node stays Ready, and a replacement bound there never starts', () => {
    // containerd dies on a node whose status updates fail: its containers run on (so its own
    // replica still runs), but it stays Ready while its kubelet can start nothing, so a
    // replacement the scheduler binds there (after a force delete) never runs.
    const r = live('node-failure', { ...SMALL, 'cluster.nodes': '2', 'faults.nodeCrash': '0', 'cluster.statefulSetReplicas': '0', 'faults.sequence': 'node-status-update-failure:node-1,container-runtime-failure:node-1,force-delete-pod:web-0' });
    const o = r['replicas-eventually-running'];
    expect(o.status).toBe('violated');
    const lasso = o.lasso!;
    const names = lasso.actions.map((a) => a.name);
    // The three steps of the sequence (faults and the force delete) come before the cycle.
    expect(names.filter((n) => n === 'sequence-fault').length).toBe(3);
    // The cycle is time passing and the kubelet renewing: no fault in it, and the node Ready throughout.
    const cycle = names.slice(lasso.loop);
    expect(cycle).toContain('tick');
    expect(cycle.some((n) => n.includes('sequence') || n.includes('failure') || n.includes('crash'))).toBe(false);
    const looped = lasso.states.slice(lasso.loop);
    expect(looped.every((s) => s.api.nodes.every((n) => n!.ready === 'True'))).toBe(true);
    // A pod is bound to the node whose runtime is down, and never runs there.
    expect(looped.every((s) => s.api.pods.some((p) => p.nodeName >= 0 && !s.nodes[p.nodeName].runtimeUp && !s.nodes[p.nodeName].running.includes(p.name)))).toBe(true);
  });

  it('should not lose the replica of a gray node whose runtime died: its containers run on', () => {
    const r = live('node-failure', { ...SMALL, 'faults.nodeCrash': '0', 'faults.containerRuntimeFailure': '1', 'faults.nodeStatusUpdateFailure': '1', 'cluster.statefulSetReplicas': '0' });
    expect(r['replicas-eventually-running'].status).toBe('holds');
  });
});

describe('reconciliation that never settles', () => {
  // A "drain" operator cordons node-1 while a "capacity" operator uncordons every cordoned node.
  const cordoned = (s: ClusterState): boolean => s.api.nodes[0]?.unschedulable === true;
  const setCordon = (s: ClusterState, value: boolean, drained?: boolean): ClusterState => ({
    ...s,
    api: { ...s.api, nodes: s.api.nodes.map((n, i) => (i === 0 && n !== null ? { ...n, unschedulable: value } : n)) },
    ...(drained === undefined ? {} : { extensions: { ...s.extensions, operators: drained } }),
  });
  /** `once`: the drain operator cordons once and is then done (its memory says so). */
  const operators = (once: boolean) => {
    const drainHasWork = (s: ClusterState): boolean => !cordoned(s) && !(once && s.extensions?.operators === true);
    const capacityHasWork = cordoned;
    const extension: ClusterExtension = {
      name: 'operators',
      initial: () => false,
      symmetric: false,
      actions: [
        action<ClusterState>({ name: 'drain-operator-cordons', enabled: drainHasWork, apply: (s) => setCordon(s, true, true), fair: 'strong' }),
        action<ClusterState>({ name: 'capacity-operator-uncordons', enabled: capacityHasWork, apply: (s) => setCordon(s, false), fair: 'strong' }),
      ],
    };
    // Settled (Anvil's eventually stable reconciliation, again and again): neither has work.
    const settled = alwaysEventually<ClusterState>('reconciliation-settles', 'the operators have nothing left to do', (s) => !drainHasWork(s) && !capacityHasWork(s));
    return { extension, settled };
  };
  const config = resolveConfig('node-failure', { set: { ...SMALL, 'faults.nodeCrash': '0', 'cluster.statefulSetReplicas': '0' } });

  it('should find two controllers fighting over spec.unschedulable as a lasso', () => {
    const { extension, settled } = operators(false);
    const [o] = checkLiveness(clusterModel(config, { extensions: [extension] }), [settled]);
    expect(o.status).toBe('violated');
    const cycle = o.lasso!.actions.slice(o.lasso!.loop).map((a) => a.name);
    expect(cycle).toEqual(expect.arrayContaining(['drain-operator-cordons', 'capacity-operator-uncordons']));
  });

  it('should settle when one of them acts only once', () => {
    const { extension, settled } = operators(true);
    expect(checkLiveness(clusterModel(config, { extensions: [extension] }), [settled])[0].status).toBe('holds');
  });
});
