/**
 * PersistentVolumeClaims of a StatefulSet's volumeClaimTemplates (model/claims.ts): created with
 * the pod, bound where its first pod goes, kept when the pod goes, and a pod may only run where
 * its volume lives (the scheduler's VolumeBinding filter).
 */
import { describe, expect, it } from 'vitest';
import { always, check, sometimes } from '../../checker/index.js';
import { resolveConfig, type ClusterState } from '../../model/index.js';
import { claimsOf } from '../../model/claims.js';
import { kubernetesModel } from '../../properties/index.js';

/** A StatefulSet db of one replica with claim template `data` of `topology`, two nodes, one crash, force deletes allowed. */
function crashed(topology: string | undefined, set: Record<string, string> = {}) {
  const db: Record<string, unknown> = { kind: 'StatefulSet', name: 'db', replicas: 1 };
  if (topology !== undefined) db.volumeClaimTemplates = [{ name: 'data', topology }];
  const config = resolveConfig('node-failure', {
    file: { cluster: { workloads: [db] } },
    set: { 'cluster.nodes': '2', 'faults.nodeCrash': '1', 'operator.forceDeletePod': '1', 'cluster.terminationGracePeriodSeconds': '2', ...set },
    allowUnsafe: true,
  });
  return { config, model: kubernetesModel(config) };
}

const db0 = (s: ClusterState) => s.api.pods.find((p) => p.name === 'db-0');

describe('StatefulSet volumeClaimTemplates', () => {
  it('should start with one claim per template and ordinal, bound where the pod runs', () => {
    const { model } = crashed('node');
    const s = model.initialStates()[0];
    const claims = claimsOf(s);
    expect(claims.map((c) => c.name)).toEqual(['data-db-0']);
    expect(claims[0].bound).toBe(db0(s)!.nodeName);
  });

  it('should keep a pod on a local volume on its node, where without claims it moves', () => {
    // The invariant "db-0 only ever runs on the node it started on": kept by a local volume, broken without one.
    const stays = (topology: string | undefined) => {
      const { model } = crashed(topology);
      const start = model.initialStates()[0];
      const home = db0(start)!.nodeName;
      const p = always<ClusterState>('stays', 'db-0 is bound only to its first node', (s) => {
        const pod = db0(s);
        return pod === undefined || pod.nodeName < 0 || pod.nodeName === home;
      });
      const pending = sometimes<ClusterState>('pending-on-claim', 'db-0 recreated and Pending while its node is down', (s) => {
        const pod = db0(s);
        return pod !== undefined && pod.nodeName < 0 && pod.replacement && !s.nodes[home].up;
      });
      const r = check({ ...model, properties: [...model.properties, p, pending] }, { properties: ['stays', 'pending-on-claim'] });
      // The witness's steps as people read them: the recreated pod keeps its claim where it lives.
      const trace = r.properties.find((x) => x.id === 'pending-on-claim')?.trace;
      const summaries = trace === undefined ? [] : trace.actions.map((a, i) => model.describeStep!(trace.states[i], a, trace.states[i + 1]).summary);
      const status: Record<string, string> = Object.fromEntries(r.properties.map((x) => [x.id, x.status]));
      return { stays: status.stays, pending: status['pending-on-claim'], summaries };
    };
    const local = stays('node');
    expect(local.stays).toBe('holds');
    expect(local.pending).toBe('witnessed');
    expect(local.summaries.some((t) => /^creates db-0 with claims data-db-0 \(kept, node-\d\)/.test(t))).toBe(true);
    expect(stays(undefined).stays).toBe('violated');
    expect(stays('none').stays).toBe('violated');
  });

  it('should refuse claim templates on another kind, an unknown topology and an unknown field', () => {
    const bad = (w: Record<string, unknown>) => () => resolveConfig('node-failure', { file: { cluster: { workloads: [w] } } });
    expect(bad({ kind: 'ReplicaSet', name: 'web', volumeClaimTemplates: ['data'] })).toThrow(/only a StatefulSet/);
    expect(bad({ kind: 'StatefulSet', name: 'db', volumeClaimTemplates: [{ name: 'data', topology: 'rack' }] })).toThrow(/topology: expected node, zone, none/);
    expect(bad({ kind: 'StatefulSet', name: 'db', volumeClaimTemplates: [{ name: 'data', size: '1Gi' }] })).toThrow(/unknown parameter/);
    expect(bad({ kind: 'StatefulSet', name: 'db', persistentVolumeClaimRetentionPolicy: { whenScaled: 'Keep' } })).toThrow(/Retain or Delete/);
    const ok = resolveConfig('node-failure', { file: { cluster: { workloads: [{ kind: 'StatefulSet', name: 'db', volumeClaimTemplates: ['data'] }] } } });
    expect(ok.cluster.workloads[0].volumeClaimTemplates).toEqual([{ name: 'data', topology: 'zone' }]);
  });

  it('should turn node symmetry off for local volumes and keep verdicts equal to the search without symmetry', () => {
    const { model } = crashed('node', { 'cluster.nodes': '3' });
    const ids = ['no-double-binding', 'statefulset-at-most-one', 'replacement-within'];
    const withSym = check(model, { properties: ids });
    const noSym = check(model, { properties: ids, symmetry: false });
    expect(withSym.properties.map((p) => p.status)).toEqual(noSym.properties.map((p) => p.status));
    expect(withSym.stats.distinctStates).toBe(noSym.stats.distinctStates);
  });
});
