/**
 * Scheduling constraints (`model/placement.ts`): nodeSelector, required node affinity, required
 * pod (anti-)affinity and DoNotSchedule topology spread constraints, read by `import` from the
 * manifests and filtered by the scheduler as the default profile's plugins do. Each case is a
 * cluster whose node crashes (`node-failure`, defaults: 50 s grace, 300 s toleration), checked
 * exhaustively: a replacement the filters allow nowhere stays Pending, `replacement-within` is
 * violated and `timing` says never; the same cluster without the constraint recovers at 355–359 s.
 */
import { describe, expect, it } from 'vitest';
import { always, check } from '../../checker/index.js';
import { importSources, type ImportSource } from '../../cli/import/importer.js';
import { resolveConfig, type ClusterConfig, type ClusterState } from '../../model/index.js';
import { kubernetesModel } from '../../properties/index.js';
import { measureTiming } from '../../properties/timing.js';
import { parameters } from '../../model/parameters.js';
import { schedulingWarning } from '../../cli/subjects.js';

const objects = (file: string, ...documents: unknown[]): ImportSource => ({ file, type: 'objects', documents });

const node = (name: string, zone: string) => ({ apiVersion: 'v1', kind: 'Node', metadata: { name, labels: { 'kubernetes.io/hostname': name, 'topology.kubernetes.io/zone': zone, 'node.kubernetes.io/instance-type': 'm5.large' } } });

/** A Deployment of `replicas` pods labelled app: <name>, with `spec` added to its pod template's spec. */
const deployment = (name: string, replicas: number, spec: Record<string, unknown> = {}, namespace = 'argocd') => ({
  apiVersion: 'apps/v1',
  kind: 'Deployment',
  metadata: { name, namespace },
  spec: { replicas, selector: { matchLabels: { app: name } }, template: { metadata: { labels: { app: name } }, spec: { containers: [{ name, image: 'haproxy' }], ...spec } } },
});

/** argo-cd's redis-ha haproxy: every replica on its own node. */
const antiAffinity = (app: string) => ({
  affinity: { podAntiAffinity: { requiredDuringSchedulingIgnoredDuringExecution: [{ labelSelector: { matchLabels: { app } }, topologyKey: 'kubernetes.io/hostname' }] } },
});

/** The imported config, resolved for node-failure with only the workloads of the manifests. */
function imported(...docs: unknown[]): { config: ClusterConfig; notModelled: readonly string[]; caveats: readonly string[] } {
  const r = importSources([objects('cluster.yaml', ...docs)]);
  return { config: resolveConfig('node-failure', { file: r.config }), notModelled: r.notModelled, caveats: r.schedulingCaveats ?? [] };
}

function verdicts(config: ClusterConfig) {
  const model = kubernetesModel(config);
  const result = check(model, { properties: ['replacement-within', 'no-schedule-on-unready', 'replicaset-at-most-replicas'] });
  const trace = result.properties.find((p) => p.id === 'replacement-within')?.trace;
  const within = model.properties.find((p) => p.id === 'replacement-within') as { explain?: (s: ClusterState) => string | undefined };
  const why = trace === undefined ? undefined : within.explain?.(trace.states[trace.states.length - 1]);
  return { status: Object.fromEntries(result.properties.map((p) => [p.id, p.status])), states: result.stats.distinctStates, why };
}

/** The timing rows of `workload` as `event: earliest–latest` (null: never). */
function timing(config: ClusterConfig, workload: string): Record<string, string> {
  const t = measureTiming(kubernetesModel(config), config);
  expect(t.complete).toBe(true);
  return Object.fromEntries(t.rows.filter((r) => r.workload === workload).map((r) => [r.event, r.earliest === null ? 'never' : `${r.earliest}-${r.latest}`]));
}

const NODES3 = [node('worker-a', 'zone-a'), node('worker-b', 'zone-a'), node('worker-c', 'zone-a')];

describe('required pod anti-affinity (redis-ha haproxy: three replicas, three nodes)', () => {
  it('should import the anti-affinity, the pod labels and the node labels it reads', () => {
    const { config, notModelled, caveats } = imported(...NODES3, deployment('argocd-redis-ha-haproxy', 3, antiAffinity('argocd-redis-ha-haproxy')));
    const w = config.cluster.workloads[0];
    expect(w).toMatchObject({ kind: 'ReplicaSet', replicas: 3, namespace: 'argocd', labels: { app: 'argocd-redis-ha-haproxy' } });
    expect(w.affinity?.podAntiAffinity?.requiredDuringSchedulingIgnoredDuringExecution).toEqual([{ labelSelector: { matchLabels: { app: 'argocd-redis-ha-haproxy' } }, topologyKey: 'kubernetes.io/hostname' }]);
    // The hostname and zone of each node; the instance type no constraint reads is left out.
    expect(config.cluster.nodeLabels).toEqual(['worker-a', 'worker-b', 'worker-c'].map((h) => ({ 'kubernetes.io/hostname': h, 'topology.kubernetes.io/zone': 'zone-a' })));
    expect(notModelled.filter((n) => /affinity/.test(n))).toEqual([]);
    expect(caveats).toEqual([]);
  });

  it('should find the replacement unschedulable: replacement-within violated, timing never; without the anti-affinity it comes at 355–359 s', () => {
    const { config } = imported(...NODES3, deployment('haproxy', 3, antiAffinity('haproxy')));
    const v = verdicts(config);
    // Exhaustive: 2,528 distinct states (the same manifests without the constraint: 2,543).
    expect(v.states).toBe(2_528);
    expect(v.status).toEqual({ 'replacement-within': 'violated', 'no-schedule-on-unready': 'holds', 'replicaset-at-most-replicas': 'holds' });
    expect(v.why).toMatch(/haproxy has 2 of 3 replicas serving .*; haproxy-\d is Pending: no node passes the scheduler's filters/);
    expect(timing(config, 'haproxy')).toEqual({
      'node-unknown': '50-54',
      'node-noschedule': '50-54',
      'node-noexecute': '55-59',
      'pod-evicted': '355-359',
      'replacement-created': '355-359',
      'replacement-running': 'never',
    });
    const free = imported(...NODES3, deployment('haproxy', 3)).config;
    // No selector is read: neither pod labels, namespaces nor node labels are kept.
    expect(free.cluster.workloads[0].labels).toBeUndefined();
    expect(free.cluster.nodeLabels).toEqual([]);
    const u = verdicts(free);
    expect(u.states).toBe(2_543);
    expect(u.status['replacement-within']).toBe('holds');
    expect(timing(free, 'haproxy')['replacement-running']).toBe('355-359');
  });

  it('should count a pod Terminating on the dead node: with zone as the topology key its zone stays closed until the object is gone', () => {
    // Two zones of two nodes, two replicas one per zone (anti-affinity on the zone). The pod of
    // the crashed node stays Terminating (its kubelet never confirms), and the scheduler's
    // snapshot holds it, so the other node of its zone is refused too: never. On hostname, the
    // free node of that zone takes the replacement at 355–359 s.
    const nodes = [node('a1', 'zone-a'), node('b1', 'zone-b'), node('a2', 'zone-a'), node('b2', 'zone-b')];
    const zone = { affinity: { podAntiAffinity: { requiredDuringSchedulingIgnoredDuringExecution: [{ labelSelector: { matchLabels: { app: 'web' } }, topologyKey: 'topology.kubernetes.io/zone' }] } } };
    const byZone = imported(...nodes, deployment('web', 2, zone)).config;
    expect(verdicts(byZone).status['replacement-within']).toBe('violated');
    // Symmetry (nodes of a zone interchangeable) keeps the verdict and the states' meaning.
    const plain = check(kubernetesModel(byZone), { properties: ['replacement-within'], symmetry: false });
    expect(plain.properties[0].status).toBe('violated');
    expect(timing(byZone, 'web')['replacement-running']).toBe('never');
    const byHost = imported(...nodes, deployment('web', 2, antiAffinity('web'))).config;
    expect(verdicts(byHost).status['replacement-within']).toBe('holds');
    expect(timing(byHost, 'web')['replacement-running']).toBe('355-359');
  });
});

describe('nodeSelector and required node affinity', () => {
  const nodes = [node('a1', 'zone-a'), node('b1', 'zone-b'), node('c1', 'zone-c')];

  it('should never replace a pod pinned to a zone whose only node died', () => {
    const { config } = imported(...nodes, deployment('web', 1, { nodeSelector: { 'topology.kubernetes.io/zone': 'zone-a' } }));
    expect(config.cluster.workloads[0].nodeSelector).toEqual({ 'topology.kubernetes.io/zone': 'zone-a' });
    expect(verdicts(config).status['replacement-within']).toBe('violated');
    expect(timing(config, 'web')['replacement-running']).toBe('never');
  });

  it('should replace it at 355–359 s on the other node an In term allows', () => {
    const affinity = { affinity: { nodeAffinity: { requiredDuringSchedulingIgnoredDuringExecution: { nodeSelectorTerms: [{ matchExpressions: [{ key: 'topology.kubernetes.io/zone', operator: 'In', values: ['zone-a', 'zone-b'] }] }] } } } };
    const { config } = imported(...nodes, deployment('web', 1, affinity));
    expect(config.cluster.workloads[0].affinity?.nodeAffinity).toEqual(affinity.affinity.nodeAffinity);
    expect(verdicts(config).status['replacement-within']).toBe('holds');
    expect(timing(config, 'web')['replacement-running']).toBe('355-359');
  });
});

describe('topology spread constraints (DoNotSchedule)', () => {
  const spread = (maxSkew: number) => ({ topologySpreadConstraints: [{ maxSkew, topologyKey: 'topology.kubernetes.io/zone', whenUnsatisfiable: 'DoNotSchedule', labelSelector: { matchLabels: { app: 'web' } } }] });

  it('should refuse the other zone at maxSkew 1 when the crashed zone has no other node (its count 0 still counts)', () => {
    // Two zones, one node each, two replicas. The crashed node's zone is still a domain (taints
    // are ignored: nodeTaintsPolicy Ignore) with 0 pods (the Terminating one is not counted), so
    // the other zone's 1 + 1 − 0 exceeds maxSkew 1; at maxSkew 2 it is allowed.
    const nodes = [node('a1', 'zone-a'), node('b1', 'zone-b')];
    const tight = imported(...nodes, deployment('web', 2, spread(1))).config;
    expect(verdicts(tight).status['replacement-within']).toBe('violated');
    expect(timing(tight, 'web')['replacement-running']).toBe('never');
    const loose = imported(...nodes, deployment('web', 2, spread(2))).config;
    expect(loose.cluster.workloads[0].topologySpreadConstraints).toEqual(spread(2).topologySpreadConstraints);
    expect(verdicts(loose).status['replacement-within']).toBe('holds');
    expect(timing(loose, 'web')['replacement-running']).toBe('355-359');
  });

  it('should note ScheduleAnyway as a score and leave it out', () => {
    const r = importSources([objects('c.yaml', node('a1', 'zone-a'), deployment('web', 2, { topologySpreadConstraints: [{ maxSkew: 1, topologyKey: 'topology.kubernetes.io/zone', whenUnsatisfiable: 'ScheduleAnyway', labelSelector: { matchLabels: { app: 'web' } } }] }))]);
    expect(JSON.stringify(r.config)).not.toContain('topologySpreadConstraints');
    expect(r.notes.some((n) => n.includes('ScheduleAnyway, a score'))).toBe(true);
    expect(r.schedulingCaveats).toBeUndefined();
  });
});

describe('what the model cannot express', () => {
  it('should list a namespaceSelector term and a selector of no workload as not modelled, and say so as a scheduling caveat', () => {
    const odd = {
      affinity: {
        podAntiAffinity: {
          requiredDuringSchedulingIgnoredDuringExecution: [
            { labelSelector: { matchLabels: { app: 'web' } }, topologyKey: 'kubernetes.io/hostname', namespaceSelector: {} },
            { labelSelector: { matchLabels: { app: 'cache' } }, topologyKey: 'kubernetes.io/hostname' },
          ],
        },
      },
    };
    const r = importSources([objects('c.yaml', ...NODES3, deployment('web', 2, odd))]);
    expect(r.notModelled.some((n) => n.includes('namespaceSelector (the term is not modelled)'))).toBe(true);
    expect(r.notModelled.some((n) => n.includes('selects the pods of no workload read'))).toBe(true);
    expect(r.schedulingCaveats).toHaveLength(2);
  });
});

describe('parameters and warnings', () => {
  it('should list cluster.nodeLabels with its Kubernetes name and name the workloads\' constraints under theirs', () => {
    const list = parameters();
    expect(list.find((p) => p.key === 'cluster.nodeLabels')).toMatchObject({ kubernetesName: 'metadata.labels', defaultValue: 'none' });
    const workloads = list.find((p) => p.key === 'cluster.workloads')!.description;
    for (const name of ['spec.template.spec.nodeSelector', 'spec.template.spec.affinity', 'spec.template.spec.topologySpreadConstraints', 'spec.template.metadata.labels', 'metadata.namespace']) expect(workloads).toContain(name);
  });

  it('should read a config file\'s constraints back as written, and refuse what the model cannot express', () => {
    const w = { kind: 'ReplicaSet', name: 'web', replicas: 2, labels: { app: 'web' }, ...antiAffinity('web') };
    const config = resolveConfig('node-failure', { file: { cluster: { workloads: [w], nodeLabels: [{ disktype: 'ssd' }] } } });
    expect(config.cluster.workloads[0].affinity).toEqual(antiAffinity('web').affinity);
    expect(config.cluster.nodeLabels).toEqual([{ disktype: 'ssd' }]);
    const selector = { ...w, affinity: { podAntiAffinity: { requiredDuringSchedulingIgnoredDuringExecution: [{ labelSelector: { matchLabels: { app: 'web' } }, topologyKey: 'kubernetes.io/hostname', namespaceSelector: {} }] } } };
    expect(() => resolveConfig('node-failure', { file: { cluster: { workloads: [selector] } } })).toThrow(/namespaceSelector: not a field the model reads/);
    expect(() => resolveConfig('node-failure', { file: { cluster: { nodeLabels: [{}, {}, {}, {}] } } })).toThrow(/4 label maps for 3 nodes/);
  });

  it('should make every verdict say which scheduling constraints it leaves out', () => {
    expect(schedulingWarning([])).toEqual([]);
    const [w] = schedulingWarning(['Deployment argocd/web: spec.template.spec.priorityClassName']);
    expect(w).toMatch(/^scheduling: not modelled: Deployment argocd\/web: spec.template.spec.priorityClassName\. .*replacement-within/);
  });
});

describe('a DaemonSet\'s node affinity', () => {
  it('should run its pods only on the nodes its nodeSelector allows, and create none on the others', async () => {
    const { initialStates } = await import('../../model/initial.js');
    const { makeCtx } = await import('../../model/context.js');
    const config = resolveConfig('node-failure', { file: { cluster: { nodeLabels: [{ disktype: 'ssd' }, { disktype: 'hdd' }, { disktype: 'ssd' }], workloads: [{ kind: 'DaemonSet', name: 'agent', nodeSelector: { disktype: 'ssd' } }, { kind: 'ReplicaSet', name: 'web', replicas: 1 }] } } });
    const [s] = initialStates(makeCtx(config));
    expect(s.api.pods.filter((p) => p.workload === 'agent').map((p) => [p.name, p.nodeName])).toEqual([['agent-node-1', 0], ['agent-node-3', 2]]);
    // No state ever has an agent pod on node-2, through the node crash and the controller's syncs.
    const never = always<ClusterState>('no-agent-on-node-2', 'no agent pod on node-2', (t) => !t.api.pods.some((p) => p.workload === 'agent' && p.nodeName === 1));
    const base = kubernetesModel(config);
    const result = check({ ...base, properties: [...base.properties, never] }, { properties: ['no-agent-on-node-2'] });
    expect(result.properties[0].status).toBe('holds');
  });
});
