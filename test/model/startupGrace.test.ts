/**
 * New nodes and --node-startup-grace-period (node_lifecycle_controller.go `tryUpdateNodeHealth`):
 * a Node object without a Ready condition (made without status; its kubelet never posted one) is
 * probed from its creation and marked Unknown (NodeStatusNeverUpdated) once the startup grace
 * period has passed; until then it counts as not ready in its zone and calls for no NoSchedule
 * taint, so the not-ready:NoSchedule taint the TaintNodesByCondition admission put on it goes and
 * the scheduler may bind pods to it. Small timers where the logic does not depend on the defaults.
 */
import { describe, expect, it } from 'vitest';
import { always, alwaysStep, sometimes } from '../../checker/index.js';
import { resolveConfig, type ClusterState } from '../../model/index.js';
import { defaultPropertyIds, kubernetesModel } from '../../properties/index.js';
import { measureTiming } from '../../properties/timing.js';
import { checkWith, SMALL_TIMERS } from './helpers.js';

const STARTUP = 5;
const SET = {
  ...SMALL_TIMERS,
  'kubeControllerManager.nodeStartupGracePeriod': `${STARTUP}s`,
  'cluster.nodes': '2',
  'cluster.newNodes': '1',
  'cluster.replicaSetReplicas': '1',
  'cluster.statefulSetReplicas': '0',
  'faults.nodeCrash': '0',
};
const NEW = 1; // node-2

/** A step that marks the new node Unknown, `since` seconds after it was made. */
const markedAt = (since: (t: number) => boolean) => (b: ClusterState, a: { name: string }, s: ClusterState): boolean =>
  a.name === 'node-monitor' && b.api.nodes[NEW]?.ready === 'None' && s.api.nodes[NEW]?.ready === 'Unknown' && since(b.nodes[NEW].sinceHeartbeat);

describe('new nodes and the startup grace period', () => {
  it('should mark a new node whose kubelet never starts Unknown exactly at the startup grace period, and one that starts in time never', () => {
    const r = checkWith('node-failure', SET, [
      'unknown-after-grace',
      'healthy-node-not-unknown',
      sometimes<ClusterState>('new-node-unknown', 'the new node is marked Unknown', (s) => s.api.nodes[NEW]?.ready === 'Unknown'),
      sometimes<ClusterState>('new-node-ready', 'the new node posts Ready=True', (s) => s.api.nodes[NEW]?.ready === 'True'),
      // The two ends of the window: not before the startup grace period (unknown-after-grace and
      // this), and no later than the pass at it (a leader runs a pass every second here).
      alwaysStep<ClusterState>('not-before', 'never marked before the startup grace period', (b, a, s) => !markedAt((t) => t < STARTUP)(b, a, s)),
      // Violated = reached: some pass marks it exactly at the startup grace period.
      alwaysStep<ClusterState>('marked-at-grace', 'never marked exactly at the startup grace period', (b, a, s) => !markedAt((t) => t === STARTUP)(b, a, s)),
      always<ClusterState>('not-after', 'no new node without status past its startup grace period', (s) => s.api.nodes[NEW]?.ready !== 'None' || s.nodes[NEW].sinceHeartbeat <= STARTUP),
    ]);
    expect(r.status).toEqual({
      'unknown-after-grace': 'holds',
      'healthy-node-not-unknown': 'holds',
      'new-node-unknown': 'witnessed',
      'new-node-ready': 'witnessed',
      'not-before': 'holds',
      'marked-at-grace': 'violated',
      'not-after': 'holds',
    });
  });

  it('should let the scheduler bind a replacement to a new node that has no status yet, whose taint the controller removed', () => {
    const r = checkWith('node-failure', { ...SET, 'operator.forceDeletePod': '1' }, [
      sometimes<ClusterState>('bound-to-new-node', 'a pod is bound to the new node before it posts status', (s) => s.api.nodes[NEW]?.ready === 'None' && s.api.pods.some((p) => p.nodeName === NEW)),
      always<ClusterState>('untainted-without-status', 'a node without status carries no NoSchedule condition taint once a pass has run', (s) => s.api.nodes[NEW]?.ready !== 'None' || s.nodes[NEW].sinceHeartbeat === 0 || s.api.nodes[NEW]!.taints.length === 0),
    ]);
    expect(r.status).toEqual({ 'bound-to-new-node': 'witnessed', 'untainted-without-status': 'holds' });
  });

  it('should read the flag, refuse more new nodes than nodes, and start the pods Pending when every node is new', () => {
    expect(resolveConfig('node-failure').kubeControllerManager.nodeStartupGracePeriod).toBe(60);
    expect(() => resolveConfig('node-failure', { set: { 'cluster.newNodes': '4' } })).toThrow(/cluster.newNodes \(4\) must be between 0 and cluster.nodes \(3\)/);
    const all = checkWith('node-failure', { ...SET, 'cluster.newNodes': '2' }, [
      sometimes<ClusterState>('web-0-runs', 'web-0 runs once a kubelet started', (s) => s.nodes.some((n) => n.running.includes('web-0'))),
    ]);
    expect(all.status).toEqual({ 'web-0-runs': 'witnessed' });
    // The pods of a cluster whose every node is new start Pending.
    for (const s of all.model.initialStates()) expect(s.api.pods.map((p) => p.nodeName)).toEqual([-1]);
    expect(defaultPropertyIds('node-failure', resolveConfig('node-failure', { set: { 'cluster.newNodes': '1' } }))).toContain('unknown-after-grace');
  });
});

describe('timing of a node that never posted status', () => {
  it('should give the marked-Unknown row of a new node at the startup grace period, both ends', () => {
    // db-0 is bound to the new node (a StatefulSet pod: evicted, it stays Terminating and is not
    // recreated, where a ReplicaSet pod pinned there would be replaced without end); passes every
    // 2 s, so the pass at or after the startup grace comes 0-1 s late.
    const set = { ...SET, 'cluster.replicaSetReplicas': '0', 'cluster.statefulSetReplicas': '1', 'cluster.statefulSetNodeName': 'node-2', 'kubeControllerManager.nodeMonitorPeriod': '2s' };
    const config = resolveConfig('node-failure', { set, allowUnsafe: true });
    const table = measureTiming(kubernetesModel(config), config);
    expect(table.complete).toBe(true);
    const row = table.rows.find((r) => r.workload === 'db' && r.event === 'node-unknown')!;
    expect([row.earliest, row.latest]).toEqual([STARTUP, STARTUP + 1]);
  });
});
