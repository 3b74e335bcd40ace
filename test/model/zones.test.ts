/**
 * Zone states of the node lifecycle controller: when every zone is in FullDisruption the
 * controller enters "master disruption mode", removes the NoExecute taints and evicts nothing
 * until a node is Ready again (node_lifecycle_controller.go, handleDisruption).
 */
import { describe, expect, it } from 'vitest';
import { alwaysStep, check, sometimes } from '../../checker/index.js';
import { resolveConfig, type ClusterState } from '../../model/index.js';
import { kubernetesModel } from '../../properties/index.js';

describe('zone disruption', () => {
  it('should enter master disruption mode when every node is cut off, and evict nothing while in it', () => {
    const config = resolveConfig('node-partition', {
      // Short timers keep the space small; the zone logic does not depend on them.
      set: {
        'kubelet.nodeLeaseDurationSeconds': '4',
        'kubeControllerManager.nodeMonitorPeriod': '1s',
        'kubeControllerManager.nodeMonitorGracePeriod': '3s',
        'kubeApiserver.defaultUnreachableTolerationSeconds': '5',
        'kubeApiserver.defaultNotReadyTolerationSeconds': '5',
        'cluster.nodes': '2', 'cluster.replicaSetReplicas': '1', 'cluster.statefulSetReplicas': '0', 'faults.nodePartition': '2', 'faults.nodePartitionHeal': '1' },
    });
    const mode = (s: ClusterState): boolean => s.candidates[0].some((k) => k.ctrl?.disruptionMode === true);
    const model = {
      ...kubernetesModel(config),
      properties: [
        sometimes<ClusterState>('disruption-mode', 'master disruption mode is entered', mode),
        sometimes<ClusterState>('disruption-mode-left', 'a node is Ready again after disruption mode', (s) => !mode(s) && s.api.nodes.some((n) => n?.ready === 'Unknown')),
        alwaysStep<ClusterState>('no-eviction-in-disruption-mode', 'nothing is evicted in master disruption mode', (b, a) => !(mode(b) && a.name === 'taint-eviction-delete')),
        alwaysStep<ClusterState>('no-taint-in-disruption-mode', 'no NoExecute taint is added in master disruption mode', (b, a) => !(mode(b) && a.name === 'node-noexecute-taint')),
      ],
    };
    const r = check(model);
    expect(r.verdict).toBe('ok');
    expect(Object.fromEntries(r.properties.map((p) => [p.id, p.status]))).toEqual({
      'disruption-mode': 'witnessed',
      'disruption-mode-left': 'witnessed',
      'no-eviction-in-disruption-mode': 'holds',
      'no-taint-in-disruption-mode': 'holds',
    });
  });
});
