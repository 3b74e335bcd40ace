/**
 * podManagementPolicy (stateful_set_control.go, `monotonic`): OrderedReady creates ordinal i only
 * once 0 … i-1 are Running and Ready; Parallel creates every missing ordinal without waiting.
 */
import { describe, expect, it } from 'vitest';
import { alwaysStep, check } from '../../checker/index.js';
import { resolveConfig, type ClusterState, type PodManagementPolicy } from '../../model/index.js';
import { kubernetesModel } from '../../properties/index.js';
import { isTerminating } from '../../model/state.js';

/** Whether db-1 is created only while db-0 is Running and Ready (not while its old containers still terminate where it is bound). */
function createdPastUnready(policy: PodManagementPolicy | undefined): string {
  const db: Record<string, unknown> = { kind: 'StatefulSet', name: 'db', replicas: 2 };
  if (policy !== undefined) db.podManagementPolicy = policy;
  const config = resolveConfig('node-failure', {
    file: { cluster: { workloads: [db] } },
    set: { 'faults.nodeCrash': '0', 'operator.forceDeletePod': '2', 'cluster.terminationGracePeriodSeconds': '2', 'cluster.nodes': '2', 'kubeControllerManager.leaderElection.leaseDuration': '15s' },
  });
  const base = kubernetesModel(config);
  const ready0 = (s: ClusterState): boolean => {
    const db0 = s.api.pods.find((p) => p.name === 'db-0');
    if (db0 === undefined || db0.nodeName < 0 || db0.deletion !== null) return false;
    const node = s.nodes[db0.nodeName];
    return node.running.includes('db-0') && !isTerminating(node, 'db-0');
  };
  const has1 = (s: ClusterState): boolean => s.api.pods.some((p) => p.name === 'db-1');
  const ordered = alwaysStep<ClusterState>('ordered', 'db-1 is created only while db-0 is Running and Ready', (b, _a, n) => has1(b) || !has1(n) || ready0(b));
  const r = check({ ...base, properties: [...base.properties, ordered] }, { properties: ['ordered'] });
  return r.properties[0].status;
}

describe('StatefulSet podManagementPolicy', () => {
  it('should wait for lower ordinals under OrderedReady (the default) and not under Parallel', () => {
    expect(createdPastUnready(undefined)).toBe('holds');
    expect(createdPastUnready('OrderedReady')).toBe('holds');
    expect(createdPastUnready('Parallel')).toBe('violated');
  });

  it('should refuse a policy on another kind, or an unknown one', () => {
    expect(() => resolveConfig('node-failure', { file: { cluster: { workloads: [{ kind: 'ReplicaSet', name: 'web', podManagementPolicy: 'Parallel' }] } } })).toThrow(/only a StatefulSet/);
    expect(() => resolveConfig('node-failure', { file: { cluster: { workloads: [{ kind: 'StatefulSet', name: 'db', podManagementPolicy: 'Random' }] } } })).toThrow(/OrderedReady or Parallel/);
  });
});
