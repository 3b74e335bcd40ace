/**
 * Labels and annotations an operator writes on Pods and Nodes may name what the state compares
 * by identity: a pod incarnation's uid (`db-0-0`) or an operator object's (`uid-1`). A uid a
 * label names is held, so no new incarnation gets it (`freshUid`); and the fingerprint ranks the
 * tokens in labels with the operator's own, so a label naming a live object and one naming a
 * deleted one's old uid are two states.
 */
import { describe, expect, it } from 'vitest';
import { KeyBuffer } from '../../checker/keyBuffer.js';
import { kubernetesScenario } from '../../api/testing.js';
import { applyWrite, objectOf, writeNode, writePodMeta, type Write } from '../../model/operator/api.js';
import { operator, type OperatorMemory } from '../../model/operator/index.js';
import { freshUid } from '../../model/informers.js';
import { IDENTITY_PLAN, stateKey, writeStateKey } from '../../model/key.js';
import type { ClusterState } from '../../model/state.js';

async function initial(): Promise<ClusterState> {
  const quiet = operator({ name: 'writer', for: 'Pod', reconcile: () => ({}) });
  const { model } = await kubernetesScenario('node-failure', { set: { 'faults.nodeCrash': '0', 'cluster.nodes': '1', 'cluster.replicaSetReplicas': '0' }, extensions: [quiet] });
  return model.initialStates()[0];
}
const ok = (r: [ClusterState, string] | { readonly refused: string }): ClusterState => {
  if ('refused' in r) throw new Error(r.refused);
  return r[0];
};
const bytes = (s: ClusterState): string => {
  const w = new KeyBuffer();
  writeStateKey(w, s, IDENTITY_PLAN);
  return Buffer.from(w.bytes()).toString('hex');
};

describe('uids named in written labels and annotations', () => {
  it('a uid a Node annotation names is held: the recreated pod gets another', async () => {
    const s0 = await initial();
    const uid = objectOf(s0, 'Pod', 'db-0')!.metadata.uid;
    const s1 = ok(writeNode(s0, 'node-1', {}, { op: 'patch', annotations: { 'remediation.example.com/evicted': uid } }));
    // db-0 gone and forgotten by the operator's cache: only the annotation still names db-0-0.
    const memories = (s1.extensions!.writer as unknown as OperatorMemory[]).map((m) => ({ ...m, cache: { ...m.cache, Pod: (m.cache.Pod ?? []).filter((o) => o.metadata.name !== 'db-0') } }));
    const s2: ClusterState = { ...s1, api: { ...s1.api, pods: s1.api.pods.filter((p) => p.name !== 'db-0') }, extensions: { ...s1.extensions, writer: memories as never } };
    expect(`db-0-${freshUid(s2, 'db-0')}`).not.toBe(uid);
    // Without the annotation the number is free again.
    const bare = ok(writeNode(s2, 'node-1', {}, { op: 'patch', annotations: { 'remediation.example.com/evicted': null } }));
    expect(`db-0-${freshUid(bare, 'db-0')}`).toBe(uid);
  });

  it("a label naming an operator object's uid tells the live object from its deleted predecessor, in both key paths", async () => {
    const s0 = await initial();
    const apply = (s: ClusterState, writes: readonly Write[]): ClusterState => ({ ...s, custom: writes.reduce((c, w) => applyWrite(c, w)[0], s.custom!) });
    const thing: Write = { op: 'create', object: { kind: 'Thing', metadata: { name: 'x' } } };
    const mark = (s: ClusterState, v: string): ClusterState => ok(writePodMeta(s, 'db-0', { op: 'patch', labels: { 'example.com/owner-uid': v } }));
    const a0 = apply(s0, [thing]);
    const first = objectOf(a0, 'Thing', 'x')!.metadata.uid;
    const live = mark(a0, first); // the label names x
    const stale = mark(apply(s0, [thing, { op: 'delete', kind: 'Thing', name: 'x' }, thing]), first); // x recreated, the label names the old one
    expect(objectOf(stale, 'Thing', 'x')!.metadata.uid).not.toBe(first);
    expect(stateKey(live)).not.toBe(stateKey(stale));
    expect(bytes(live)).not.toBe(bytes(stale));
  });
});
