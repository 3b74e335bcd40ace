/**
 * Zone states of the node lifecycle controller: when every zone is in FullDisruption the
 * controller enters "master disruption mode", removes the NoExecute taints and evicts nothing
 * until a node is Ready again (node_lifecycle_controller.go, handleDisruption).
 */
import { describe, expect, it } from 'vitest';
import { alwaysStep, check, sometimes } from '../../checker/index.js';
import { resolveConfig, type ClusterState } from '../../model/index.js';
import { kubernetesModel } from '../../properties/index.js';
import { checkWith, SMALL_TIMERS } from './helpers.js';

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

  // handleDisruption ranges over the zones of the Node objects listed: a zone whose last Node
  // object is deleted drops out, so the zones left can all be in FullDisruption. Both of its tests
  // (all are, all were) range over the listed zones: the mode is entered when a listed zone turns
  // Full with the others Full or gone, not when the last healthy zone goes while the rest were Full.
  const twoZones = (deleteNode: string) => {
    const mode = (s: ClusterState): boolean => s.candidates[0].some((k) => k.ctrl?.disruptionMode === true);
    return checkWith(
      'node-failure',
      { ...SMALL_TIMERS, 'cluster.nodes': '2', 'cluster.zones': '2', 'cluster.replicaSetReplicas': '1', 'cluster.statefulSetReplicas': '0', 'faults.nodeCrash': '1', 'operator.deleteNode': deleteNode },
      [
        sometimes<ClusterState>('disruption-mode', 'master disruption mode is entered', mode),
        alwaysStep<ClusterState>('no-taint-in-disruption-mode', 'no NoExecute taint is added in master disruption mode', (b, a) => !(mode(b) && a.name === 'node-noexecute-taint')),
        alwaysStep<ClusterState>('enters-only-on-a-zone-turning-full', 'master disruption mode is entered only on a pass where a listed zone turns Full', (b, a, s) => {
          if (a.name !== 'node-monitor' || mode(b) || !mode(s)) return true;
          const before = b.candidates[0].find((k) => k.ctrl !== null)!.ctrl!;
          const listed = (z: number) => b.api.nodes.some((o, n) => o !== null && n % 2 === z);
          return before.zones.some((zone, z) => listed(z) && zone.state !== 'FullDisruption');
        }),
        sometimes<ClusterState>('untainted-in-mode', 'a crashed node loses its NoExecute taint in disruption mode', (s) => mode(s) && s.nodes.some((n, i) => !n.up && s.api.nodes[i] !== null && !s.api.nodes[i]!.taints.includes('unreachable:NoExecute'))),
      ],
    );
  };

  it('should enter master disruption mode when a zone turns Full while the other zone has lost its last Node object, and only then', () => {
    const { result, status } = twoZones('1');
    expect(status).toEqual({ 'disruption-mode': 'witnessed', 'no-taint-in-disruption-mode': 'holds', 'enters-only-on-a-zone-turning-full': 'holds', 'untainted-in-mode': 'witnessed' });
    // The witness: node-2's Node object is deleted, and node-1 crashes and is marked Unknown.
    const trace = result.properties.find((p) => p.id === 'disruption-mode')!.trace!;
    const names = trace.actions.map((a) => a.name);
    expect(names).toContain('delete-node');
    expect(names).toContain('node-crash');
  });

  it('should not enter it with one zone fully disrupted while another has a Node object', () => {
    const { status } = twoZones('0');
    expect(status['disruption-mode']).toBe('unwitnessed');
  });
});
