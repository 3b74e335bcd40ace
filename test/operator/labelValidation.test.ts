/**
 * Labels and annotations pass the kube-apiserver's ObjectMeta validation (apimachinery
 * ValidateLabels / ValidateAnnotations) on every create, update and patch, the operator's own
 * kinds and the cluster's Pods and Nodes alike: a key that is not a qualified name, a value that
 * is not a label value, or annotations above 256 KiB get 422 Invalid and change nothing.
 */
import { describe, expect, it } from 'vitest';
import { kubernetesScenario } from '../../api/testing.js';
import { applyWrite, EMPTY_STORE, invalidMetadata, objectOf, writeNode, writePodMeta } from '../../model/operator/api.js';
import { operator } from '../../model/operator/index.js';
import { sometimes } from '../../checker/index.js';
import { checkWith, statusOf } from './helpers.js';
import type { ClusterState } from '../../model/state.js';

describe('label and annotation validation', () => {
  it('accepts qualified names and label values, and names what it refuses', () => {
    expect(invalidMetadata({ app: 'db', 'remediation.example.com/state': 'evicting', 'a_b.c-d': '' }, { 'Example.com/Note': 'any text: spaces, / and all' })).toBeUndefined();
    expect(invalidMetadata({ 'bad key': 'x' }, undefined)).toMatch(/label key "bad key"/);
    expect(invalidMetadata({ '-x': 'y' }, undefined)).toMatch(/label key/);
    expect(invalidMetadata({ 'Upper.Case/x': 'y' }, undefined)).toMatch(/label key/); // a prefix is a lowercase DNS subdomain
    expect(invalidMetadata({ [`${'a'.repeat(64)}`]: 'y' }, undefined)).toMatch(/label key/);
    expect(invalidMetadata({ a: 'has space' }, undefined)).toMatch(/label value/);
    expect(invalidMetadata({ a: 'v'.repeat(64) }, undefined)).toMatch(/label value/);
    expect(invalidMetadata(undefined, { 'a/b/c': '' })).toMatch(/annotation key/);
    expect(invalidMetadata(undefined, { big: 'x'.repeat(256 * 1024) })).toMatch(/256 KiB/);
  });

  it("refuses an invalid label on the operator's own objects at create, update and patch", () => {
    const meta = { name: 'nightly', labels: { team: 'db' } };
    const [s1, created] = applyWrite(EMPTY_STORE, { op: 'create', object: { kind: 'Backup', metadata: meta, spec: {} } });
    expect(created).toBe('ok');
    expect(applyWrite(EMPTY_STORE, { op: 'create', object: { kind: 'Backup', metadata: { name: 'x', labels: { team: 'data base' } }, spec: {} } })).toEqual([EMPTY_STORE, 'Invalid']);
    expect(applyWrite(s1, { op: 'patch', kind: 'Backup', name: 'nightly', patch: { labels: { 'not/a/key': 'x' } } })).toEqual([s1, 'Invalid']);
    const cur = s1.objects.Backup![0];
    expect(applyWrite(s1, { op: 'update', object: { ...cur, metadata: { ...cur.metadata, annotations: { '': 'x' } } } })).toEqual([s1, 'Invalid']);
    expect(applyWrite(s1, { op: 'patch', kind: 'Backup', name: 'nightly', patch: { labels: { team: 'storage' } } })[1]).toBe('ok');
  });

  it("refuses an invalid label or annotation on the cluster's Pods and Nodes, changing nothing", async () => {
    const { model } = await kubernetesScenario('node-failure', {
      set: { 'faults.nodeCrash': '0', 'cluster.nodes': '1', 'cluster.replicaSetReplicas': '0' },
      extensions: [operator({ name: 'quiet', for: 'Pod', reconcile: () => ({}) })],
    });
    const s0: ClusterState = model.initialStates()[0];
    expect(writePodMeta(s0, 'db-0', { op: 'patch', labels: { state: 'two words' } })).toEqual([s0, 'Invalid']);
    expect(writeNode(s0, 'node-1', {}, { op: 'patch', annotations: { 'a/b/c': 'x' } })).toEqual([s0, 'Invalid']);
    const [s1, ok] = writePodMeta(s0, 'db-0', { op: 'patch', labels: { state: 'evicting' } }) as [ClusterState, string];
    expect([ok, s1.api.pods.find((p) => p.name === 'db-0')!.labels]).toEqual(['ok', { state: 'evicting' }]);
  });

  it('an update of a Node replaces its spec: a spec left out uncordons it, as a PUT does', async () => {
    const { model } = await kubernetesScenario('node-failure', {
      set: { 'faults.nodeCrash': '0', 'cluster.nodes': '1', 'cluster.replicaSetReplicas': '0' },
      extensions: [operator({ name: 'quiet', for: 'Node', reconcile: () => ({}) })],
    });
    const s0: ClusterState = model.initialStates()[0];
    const [cordoned] = writeNode(s0, 'node-1', { unschedulable: true }, { op: 'patch' }) as [ClusterState, string];
    expect(cordoned.api.nodes[0]!.unschedulable).toBe(true);
    // An update carrying only the annotation (its labels as read, no spec): the cordon goes too.
    const [updated, ok] = writeNode(cordoned, 'node-1', {}, { op: 'update', labels: objectOf(cordoned, 'Node', 'node-1')!.metadata.labels, annotations: { note: 'x' } }) as [ClusterState, string];
    expect([ok, updated.api.nodes[0]!.unschedulable, updated.api.nodes[0]!.annotations]).toEqual(['ok', false, { note: 'x' }]);
    // A patch without a spec keeps it.
    const [patched] = writeNode(cordoned, 'node-1', {}, { op: 'patch', annotations: { note: 'x' } }) as [ClusterState, string];
    expect(patched.api.nodes[0]!.unschedulable).toBe(true);
  });

  it('an update of a Pod sent on a copy read before a change gets 409 Conflict: the change is not lost', async () => {
    // One reconcile: a merge patch of label a, then an update of the pod as read before it, adding b.
    const stale = operator<{ done: boolean }>({
      name: 'stale',
      for: 'Pod',
      memory: { done: false },
      reconcile(request, view) {
        const p = view.get('Pod', request);
        if (request !== 'db-0' || p === undefined || view.memory.done) return {};
        return {
          writes: [
            { op: 'patch', kind: 'Pod', name: 'db-0', patch: { labels: { a: '1' } } },
            { op: 'update', object: { ...p, metadata: { ...p.metadata, labels: { ...p.metadata.labels, b: '1' } } } },
          ],
          memory: { done: true },
          ignore: ['Conflict'],
        };
      },
    });
    const { model } = await kubernetesScenario('node-failure', { set: { 'faults.nodeCrash': '0', 'cluster.nodes': '1', 'cluster.replicaSetReplicas': '0' }, extensions: [stale] });
    const labelsOf = (s: ClusterState) => s.api.pods.find((q) => q.name === 'db-0')?.labels;
    const r = checkWith(model, [
      sometimes<ClusterState>('a-lost', 'db-0 has b and not a', (s) => labelsOf(s)?.b === '1' && labelsOf(s)?.a === undefined),
      sometimes<ClusterState>('a-kept', 'db-0 has a', (s) => labelsOf(s)?.a === '1'),
    ]);
    expect(statusOf(r)['a-lost']).toBe('unwitnessed');
    expect(statusOf(r)['a-kept']).toBe('witnessed');
    // The served resourceVersion follows what a reader sees: a label write changes it.
    const s0 = model.initialStates()[0];
    const [s1] = writePodMeta(s0, 'db-0', { op: 'patch', labels: { a: '1' } }) as [ClusterState, string];
    expect(objectOf(s1, 'Pod', 'db-0')!.metadata.resourceVersion).not.toBe(objectOf(s0, 'Pod', 'db-0')!.metadata.resourceVersion);
  });
});
