/**
 * Writes of labels and annotations of the cluster's Pods and Nodes from a reconcile, as
 * remediation and drain operators mark them: merge patch (null removes) or update, read back
 * through the API, kept in the state's key, heard by informers, dropped with the pod's
 * incarnation; the labels the model owns (a pod's `app`, a node's hostname and zone) are refused.
 */
import { describe, expect, it } from 'vitest';
import { always, alwaysStep, sometimes } from '../../checker/index.js';
import { KeyBuffer } from '../../checker/keyBuffer.js';
import { kubernetesScenario } from '../../api/testing.js';
import { objectOf, writeNode, writePodMeta } from '../../model/operator/api.js';
import { operator, type ApiObject, type OperatorMemory, type Write } from '../../model/operator/index.js';
import { IDENTITY_PLAN, stateKey, writeStateKey } from '../../model/key.js';
import { describeState } from '../../model/describe.js';
import type { ClusterState, PodObject } from '../../model/state.js';
import { clusterModel, makeCtx, resolveConfig } from '../../model/index.js';
import { clusterVectorLayout, encodeCluster } from '../../model/vector/layout.js';
import { checkWith, run, statusOf } from './helpers.js';

/** One node, the StatefulSet `db` of one replica alone, no crash. */
const ONE_POD = { 'faults.nodeCrash': '0', 'cluster.nodes': '1', 'cluster.replicaSetReplicas': '0' };
const STATE = 'remediation.example.com/state';

const db0 = (s: ClusterState): PodObject | undefined => s.api.pods.find((p) => p.name === 'db-0');
const memoryOf = (s: ClusterState, name: string): OperatorMemory => (s.extensions![name] as unknown as OperatorMemory[])[0];
/** Applies a write the way `writePodMeta`/`writeNode` answer it: the state, or the refusal. */
const applied = (r: [ClusterState, string] | { readonly refused: string }): [ClusterState, string] => {
  if ('refused' in r) throw new Error(r.refused);
  return r;
};

/** An operator of Pods whose reconcile of db-0 writes `writes(pod)` once. */
const once = (name: string, writes: (pod: ApiObject) => readonly Write[]) =>
  operator<{ done: boolean }>({
    name,
    for: 'Pod',
    memory: { done: false },
    reconcile(request, view) {
      const p = view.get('Pod', request);
      if (request !== 'db-0' || p === undefined || view.memory.done) return {};
      return { writes: writes(p), memory: { done: true } };
    },
  });

async function initial(set: Record<string, string> = ONE_POD, extensions = [once('quiet', () => [])]): Promise<ClusterState> {
  const { model } = await kubernetesScenario('node-failure', { set, extensions });
  return model.initialStates()[0];
}

describe("an operator writing a Pod's labels and annotations", () => {
  it('patches a label, reads it back, and removes it with null (absent again, so the state is as before)', async () => {
    const s0 = await initial();
    const [s1, ok] = applied(writePodMeta(s0, 'db-0', { op: 'patch', labels: { [STATE]: 'evicting' }, annotations: { note: 'x' } }));
    expect(ok).toBe('ok');
    expect(objectOf(s1, 'Pod', 'db-0')!.metadata.labels).toEqual({ app: 'db', [STATE]: 'evicting' });
    expect(objectOf(s1, 'Pod', 'db-0')!.metadata.annotations).toEqual({ note: 'x' });
    // An update of the object as read, one annotation changed, spec as read.
    const read = objectOf(s1, 'Pod', 'db-0')!;
    const [s2] = applied(writePodMeta(s1, 'db-0', { op: 'update', labels: read.metadata.labels, annotations: { note: 'y' } }, read.metadata.uid));
    expect(db0(s2)!.annotations).toEqual({ note: 'y' });
    const [s3] = applied(writePodMeta(s2, 'db-0', { op: 'patch', labels: { [STATE]: null }, annotations: { note: null } }));
    expect(objectOf(s3, 'Pod', 'db-0')!.metadata.labels).toEqual({ app: 'db' });
    expect('labels' in db0(s3)! || 'annotations' in db0(s3)!).toBe(false);
    expect(stateKey(s3)).toBe(stateKey(s0));
    // Another incarnation's uid is a Conflict; a pod not in the API is NotFound.
    expect(applied(writePodMeta(s1, 'db-0', { op: 'update', labels: { app: 'db' } }, 'db-0-7'))[1]).toBe('Conflict');
    expect(applied(writePodMeta(s1, 'db-9', { op: 'patch', labels: { a: 'b' } }))[1]).toBe('NotFound');
    expect(describeState(s1)).toContain(`db-0@node-1 {labels ${STATE}=evicting; annotations note=x}`);
  });

  it('marks a pod and unmarks it with null through reconciles', async () => {
    const unmarker = operator<{ step: number }>({
      name: 'unmarker',
      for: 'Pod',
      memory: { step: 0 },
      reconcile(request, view) {
        const p = view.get('Pod', request);
        if (request !== 'db-0' || p === undefined || view.memory.step === 2) return {};
        const marked = p.metadata.labels?.[STATE] !== undefined;
        if (view.memory.step === 0) return { writes: [{ op: 'patch', kind: 'Pod', name: 'db-0', patch: { labels: { [STATE]: 'evicting' } } }], memory: { step: 1 } };
        return marked ? { writes: [{ op: 'patch', kind: 'Pod', name: 'db-0', patch: { labels: { [STATE]: null } } }], memory: { step: 2 } } : {};
      },
    });
    const { model } = await kubernetesScenario('node-failure', { set: ONE_POD, extensions: [unmarker] });
    const unmarked = sometimes<ClusterState>('unmarked', 'db-0 is unmarked after the operator heard its mark', (s) => (memoryOf(s, 'unmarker').memory as { step: number }).step === 2 && db0(s) !== undefined && !('labels' in db0(s)!) && memoryOf(s, 'unmarker').inflight.length === 0);
    expect(statusOf(checkWith(model, [unmarked]))).toEqual({ unmarked: 'witnessed' });
  });

  it('refuses a change or removal of the app label in one line saying why', async () => {
    const s0 = await initial();
    expect(writePodMeta(s0, 'db-0', { op: 'patch', labels: { app: null } })).toEqual({ refused: expect.stringMatching(/removal of Pod db-0's label app .*orphan/) });
    const bad = once('relabeler', () => [{ op: 'patch', kind: 'Pod', name: 'db-0', patch: { labels: { app: 'other' } } }]);
    const { model } = await kubernetesScenario('node-failure', { set: ONE_POD, extensions: [bad] });
    expect(() => checkWith(model, [])).toThrow(/^[^\n]*operator relabeler: a change of Pod db-0's label app \(db, its workload's selector: Kubernetes would orphan the pod[^\n]*is not modelled[^\n]*$/);
    const spec = once('specwriter', () => [{ op: 'patch', kind: 'Pod', name: 'db-0', patch: { spec: { x: 1 } } }]);
    const other = await kubernetesScenario('node-failure', { set: ONE_POD, extensions: [spec] });
    expect(() => checkWith(other.model, [])).toThrow(/a patch of Pod db-0's spec is not modelled/);
  });

  it('updates the pod as read with a new label through a reconcile, and refuses an update that changes its spec', async () => {
    const updater = once('updater', (p) => [{ op: 'update', object: { ...p, metadata: { ...p.metadata, labels: { ...p.metadata.labels, [STATE]: 'evicting' } } } }]);
    const { model } = await kubernetesScenario('node-failure', { set: ONE_POD, extensions: [updater] });
    const labelled = sometimes<ClusterState>('updated', 'db-0 is labelled by an update', (s) => db0(s)?.labels?.[STATE] === 'evicting');
    expect(statusOf(checkWith(model, [labelled]))).toEqual({ updated: 'witnessed' });
    const respec = once('respec', (p) => [{ op: 'update', object: { ...p, spec: { ...(p.spec as object), hostNetwork: true } } }]);
    const bad = await kubernetesScenario('node-failure', { set: ONE_POD, extensions: [respec] });
    expect(() => checkWith(bad.model, [])).toThrow(/operator respec: an update of Pod db-0's spec is not modelled/);
  });

  it('keys two states apart that differ only in a label, in both key paths', async () => {
    const s0 = await initial();
    const [a] = applied(writePodMeta(s0, 'db-0', { op: 'patch', labels: { x: '1' } }));
    const [b] = applied(writePodMeta(s0, 'db-0', { op: 'patch', labels: { x: '2' } }));
    const [c] = applied(writePodMeta(s0, 'db-0', { op: 'patch', annotations: { x: '1' } }));
    const [d] = applied(writeNode(s0, 'node-1', {}, { op: 'patch', labels: { x: '1' } }));
    const bytes = (s: ClusterState): string => {
      const w = new KeyBuffer();
      writeStateKey(w, s, IDENTITY_PLAN);
      return Buffer.from(w.bytes()).toString('hex');
    };
    const states = [s0, a, b, c, d];
    expect(new Set(states.map(stateKey)).size).toBe(5);
    expect(new Set(states.map(bytes)).size).toBe(5);
  });

  it('gives a recreated pod its template label alone', async () => {
    // Labels db-0, then deletes it (by uid): the StatefulSet controller creates a new db-0.
    const marker = operator<{ step: number }>({
      name: 'marker',
      for: 'Pod',
      memory: { step: 0 },
      reconcile(request, view) {
        const p = view.get('Pod', request);
        if (request !== 'db-0' || p === undefined) return {};
        if (view.memory.step === 0) return { writes: [{ op: 'patch', kind: 'Pod', name: 'db-0', patch: { labels: { [STATE]: 'evicting' }, annotations: { why: 'test' } } }], memory: { step: 1 } };
        if (view.memory.step === 1 && p.metadata.labels?.[STATE] === 'evicting') return { writes: [{ op: 'delete', kind: 'Pod', name: 'db-0', preconditions: { uid: p.metadata.uid }, gracePeriodSeconds: 0 }], memory: { step: 2 } };
        return {};
      },
    });
    const { model } = await kubernetesScenario('node-failure', { set: ONE_POD, extensions: [marker] });
    const fresh = always<ClusterState>('recreated-unlabelled', 'a recreated db-0 carries no label or annotation the operator wrote', (s) => db0(s)?.replacement !== true || (db0(s)!.labels === undefined && db0(s)!.annotations === undefined));
    const recreated = sometimes<ClusterState>('db-0-recreated', 'db-0 is recreated', (s) => db0(s)?.replacement === true);
    const labelled = sometimes<ClusterState>('db-0-labelled', 'db-0 is labelled', (s) => db0(s)?.labels?.[STATE] === 'evicting');
    expect(statusOf(checkWith(model, [fresh, recreated, labelled]))).toEqual({ 'recreated-unlabelled': 'holds', 'db-0-recreated': 'witnessed', 'db-0-labelled': 'witnessed' });
  });

  it("is heard by the informers of the writer and of another operator watching Pods", async () => {
    const labeler = once('labeler', () => [{ op: 'patch', kind: 'Pod', name: 'db-0', patch: { labels: { [STATE]: 'evicting' } } }]);
    /** Remembers whether a reconcile of db-0 saw the label in its cache. */
    const seer = (name: string, writes: readonly Write[]) =>
      operator<{ saw: boolean; wrote: boolean }>({
        name,
        for: 'Pod',
        memory: { saw: false, wrote: false },
        reconcile(request, view) {
          const p = view.get('Pod', request);
          if (request !== 'db-0' || p === undefined) return {};
          const saw = view.memory.saw || p.metadata.labels?.[STATE] === 'evicting';
          return { writes: view.memory.wrote ? [] : writes, memory: { saw, wrote: true } };
        },
      });
    const observer = seer('observer', []);
    const self = seer('self', [{ op: 'patch', kind: 'Pod', name: 'db-0', patch: { labels: { mine: 'yes' } } }]);
    const { model } = await kubernetesScenario('node-failure', { set: ONE_POD, extensions: [labeler, observer] });
    const saw = (who: string) => sometimes<ClusterState>(`${who}-saw`, `${who} reconciles db-0 with the label in its cache`, (s) => (memoryOf(s, who).memory as { saw: boolean }).saw);
    expect(statusOf(checkWith(model, [saw('observer')]))).toEqual({ 'observer-saw': 'witnessed' });
    const own = await kubernetesScenario('node-failure', { set: ONE_POD, extensions: [self] });
    const sawOwn = sometimes<ClusterState>('self-saw', 'self reconciles db-0 again with its own label', (s) => memoryOf(s, 'self').cache.Pod?.some((o) => o.metadata.labels?.mine === 'yes') === true && memoryOf(s, 'self').queue.includes('db-0'));
    expect(statusOf(checkWith(own.model, [sawOwn]))).toEqual({ 'self-saw': 'witnessed' });
  });
});

describe("an operator's own kinds", () => {
  it('remove a label or annotation set to null in a patch, and carry annotations in patches and updates', () => {
    const { store, outcomes } = run([
      { op: 'create', object: { kind: 'Thing', metadata: { name: 't', labels: { a: '1', b: '2' }, annotations: { n: 'x' } } } },
      { op: 'patch', kind: 'Thing', name: 't', patch: { labels: { a: null }, annotations: { n: null, m: 'y' } } },
    ]);
    expect(outcomes).toEqual(['ok', 'ok']);
    const t = store.objects.Thing[0];
    expect([t.metadata.labels, t.metadata.annotations, t.metadata.resourceVersion]).toEqual([{ b: '2' }, { m: 'y' }, 'rv-2']);
    // Removing what is not there changes nothing; removing the last label leaves no labels at all.
    const again = run([{ op: 'patch', kind: 'Thing', name: 't', patch: { labels: { a: null } } }], store);
    expect(again.store.objects.Thing[0].metadata.resourceVersion).toBe('rv-2');
    const bare = run([{ op: 'patch', kind: 'Thing', name: 't', patch: { labels: { b: null } } }, { op: 'update', object: { ...t, metadata: { ...t.metadata, labels: undefined, resourceVersion: 'rv-3', annotations: { m: 'z' } } } }], store);
    expect(bare.outcomes).toEqual(['ok', 'ok']);
    expect(bare.store.objects.Thing[0].metadata).not.toHaveProperty('labels');
    expect(bare.store.objects.Thing[0].metadata.annotations).toEqual({ m: 'z' });
  });
});

describe("an operator writing a Node's labels and annotations", () => {
  it('serves the model labels, writes an annotation and a label that the control plane keeps, and refuses the model labels', async () => {
    const s0 = await initial({ ...ONE_POD, 'cluster.nodes': '2', 'cluster.zones': '2' });
    expect(objectOf(s0, 'Node', 'node-2')!.metadata.labels).toEqual({ 'kubernetes.io/hostname': 'node-2', 'topology.kubernetes.io/zone': 'zone-2' });
    const [s1] = applied(writeNode(s0, 'node-1', {}, { op: 'patch', annotations: { maintenance: 'true' }, labels: { drain: 'yes' } }));
    const read = objectOf(s1, 'Node', 'node-1')!;
    expect(read.metadata.annotations).toEqual({ maintenance: 'true' });
    expect(read.metadata.labels).toEqual({ 'kubernetes.io/hostname': 'node-1', 'topology.kubernetes.io/zone': 'zone-1', drain: 'yes' });
    // An update as read, cordoning too: spec and metadata in one write.
    const [s2] = applied(writeNode(s1, 'node-1', { ...(read.spec as object), unschedulable: true }, { op: 'update', labels: read.metadata.labels, annotations: {} }));
    expect(s2.api.nodes[0]).toEqual({ ...s0.api.nodes[0], unschedulable: true, labels: { drain: 'yes' } });
    expect(writeNode(s0, 'node-1', {}, { op: 'patch', labels: { 'topology.kubernetes.io/zone': 'zone-9' } })).toEqual({ refused: expect.stringMatching(/change of Node node-1's label topology.kubernetes.io\/zone/) });
    expect(writeNode(s0, 'node-1', {}, { op: 'update', labels: {} })).toEqual({ refused: expect.stringMatching(/removal of Node node-1's label kubernetes.io\/hostname/) });
  });

  it('keeps an annotation through the node lifecycle controller and the kubelet rewriting the Node, and refuses a hostname change from a reconcile', async () => {
    const annotate = (label?: Record<string, string>) =>
      operator<{ done: boolean }>({
        name: 'annotator',
        for: 'Node',
        memory: { done: false },
        reconcile(request, view) {
          if (view.memory.done) return {};
          return { writes: [{ op: 'patch', kind: 'Node', name: request, patch: { annotations: { maintenance: 'true' }, ...(label === undefined ? {} : { labels: label }) } }], memory: { done: true } };
        },
      });
    const set = { 'cluster.nodes': '1', 'cluster.replicaSetReplicas': '0', 'cluster.statefulSetReplicas': '0' };
    const { model } = await kubernetesScenario('node-failure', { set, extensions: [annotate()] });
    const kept = alwaysStep<ClusterState>('annotation-kept', 'once written, the annotation stays', (b, _action, a) => b.api.nodes[0]?.annotations === undefined || a.api.nodes[0]?.annotations?.maintenance === 'true');
    const unknown = sometimes<ClusterState>('annotated-unknown', 'the annotated node is marked Unknown', (s) => s.api.nodes[0]?.ready === 'Unknown' && s.api.nodes[0].annotations !== undefined);
    expect(statusOf(checkWith(model, [kept, unknown]))).toEqual({ 'annotation-kept': 'holds', 'annotated-unknown': 'witnessed' });
    const bad = await kubernetesScenario('node-failure', { set, extensions: [annotate({ 'kubernetes.io/hostname': 'elsewhere' })] });
    expect(() => checkWith(bad.model, [])).toThrow(/operator annotator: a change of Node node-1's label kubernetes.io\/hostname \(node-1: the kubelet's[^\n]*is not modelled/);
  });
});

describe('labels the scheduler reads', () => {
  it("serves a pod's template labels and refuses writing them, or a label a selector reads, on Pods and Nodes", async () => {
    const workloads = [
      {
        kind: 'ReplicaSet', name: 'web', replicas: 1, labels: { tier: 'front' }, nodeSelector: { disktype: 'ssd' },
        affinity: {
          nodeAffinity: { requiredDuringSchedulingIgnoredDuringExecution: { nodeSelectorTerms: [{ matchExpressions: [{ key: 'gpu', operator: 'DoesNotExist' }] }] } },
          podAntiAffinity: { requiredDuringSchedulingIgnoredDuringExecution: [{ labelSelector: { matchLabels: { tier: 'front' }, matchExpressions: [{ key: 'role', operator: 'DoesNotExist' }] }, topologyKey: 'kubernetes.io/hostname' }] },
        },
      },
    ];
    const { model } = await kubernetesScenario('node-failure', { file: { cluster: { nodes: 1, workloads, nodeLabels: [{ disktype: 'ssd' }] } }, extensions: [once('quiet', () => [])] });
    const s0 = model.initialStates()[0];
    const web = s0.api.pods[0].name;
    expect(objectOf(s0, 'Pod', web)!.metadata.labels).toEqual({ tier: 'front', app: 'web' });
    expect(objectOf(s0, 'Node', 'node-1')!.metadata.labels).toMatchObject({ disktype: 'ssd', 'kubernetes.io/hostname': 'node-1' });
    expect(writePodMeta(s0, web, { op: 'patch', labels: { tier: 'back' } })).toEqual({ refused: expect.stringMatching(/change of Pod web-\d's label tier \(its template's/) });
    expect(writePodMeta(s0, web, { op: 'patch', labels: { role: 'x' } })).toEqual({ refused: expect.stringMatching(/write of Pod web-\d's label role \(a pod affinity or spread constraint selects on it/) });
    expect(applied(writePodMeta(s0, web, { op: 'patch', labels: { other: 'x' } }))[1]).toBe('ok');
    expect(writeNode(s0, 'node-1', {}, { op: 'patch', labels: { disktype: null } })).toEqual({ refused: expect.stringMatching(/removal of Node node-1's label disktype/) });
    expect(writeNode(s0, 'node-1', {}, { op: 'patch', labels: { gpu: 'yes' } })).toEqual({ refused: expect.stringMatching(/write of Node node-1's label gpu \(the scheduler reads it/) });
    expect(applied(writeNode(s0, 'node-1', {}, { op: 'patch', labels: { pool: 'a' } }))[1]).toBe('ok');
  });
});

describe('the vector layout', () => {
  it('refuses a state with a label or annotation written on a Pod or Node, by name', () => {
    const config = resolveConfig('node-failure', {});
    const s = clusterModel(config, { symmetry: false }).initialStates()[0];
    const L = clusterVectorLayout(makeCtx(config), s);
    if ('unsupported' in L) throw new Error(L.unsupported);
    const pods = s.api.pods.map((p, i) => (i === 0 ? { ...p, labels: { x: '1' } } : p));
    expect(() => encodeCluster(L, { ...s, api: { ...s.api, pods } })).toThrow(`labels or annotations written on pod ${s.api.pods[0].name} are not in the layout`);
    const nodes = s.api.nodes.map((n, i) => (i === 0 && n !== null ? { ...n, annotations: { y: '2' } } : n));
    expect(() => encodeCluster(L, { ...s, api: { ...s.api, nodes } })).toThrow('labels or annotations written on Node node-1 are not in the layout');
  });
});

describe('a property over labels', () => {
  /** Deletes db-0 once it runs, marking it first (`labelFirst`) or after the delete. */
  const evictor = (labelFirst: boolean) =>
    once('evictor', () => {
      const mark: Write = { op: 'patch', kind: 'Pod', name: 'db-0', patch: { labels: { [STATE]: 'evicting' } } };
      const del: Write = { op: 'delete', kind: 'Pod', name: 'db-0' };
      return labelFirst ? [mark, del] : [del, mark];
    });
  const marked = always<ClusterState>('evicted-marked', 'every pod the operator deletes carries remediation.example.com/state=evicting', (s) => s.api.pods.every((p) => p.deletion !== 'operator' || p.labels?.[STATE] === 'evicting'));

  it('fails when the operator deletes before it marks, and holds once it marks first', async () => {
    const bad = await kubernetesScenario('node-failure', { set: ONE_POD, extensions: [evictor(false)] });
    const r = checkWith(bad.model, [marked]);
    expect(statusOf(r)).toEqual({ 'evicted-marked': 'violated' });
    expect(db0(r.properties[0].trace!.states.at(-1)!)).toMatchObject({ deletion: 'operator' });
    const good = await kubernetesScenario('node-failure', { set: ONE_POD, extensions: [evictor(true)] });
    const deleted = sometimes<ClusterState>('evicted', 'the operator deletes db-0', (s) => db0(s)?.deletion === 'operator');
    expect(statusOf(checkWith(good.model, [marked, deleted]))).toEqual({ 'evicted-marked': 'holds', evicted: 'witnessed' });
  });
});
