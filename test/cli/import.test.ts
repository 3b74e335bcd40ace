/**
 * Reading a cluster's own files (`--config`, `kubecheck import`), `kubecheck timing` and `kubecheck
 * diff`, and `--extension`: the importer on its own (pure), then the command line as users run it.
 */
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseFlags, words } from '../../cli/import/flags.js';
import { importSources, type ImportSource } from '../../cli/import/importer.js';
import { resolveConfig } from '../../model/index.js';
import { parameterSpecs } from '../../model/parameters.js';
import { tolerationOf } from '../../model/config.js';
import { expectOneLine, kubecheckAsync, refusal, type Run } from './run.js';

const objects = (file: string, ...documents: unknown[]): ImportSource => ({ file, type: 'objects', documents });
const flagFile = (file: string, text: string): ImportSource => ({ file, type: 'flags', line: parseFlags(words(text)) });


const node = (name: string, zone: string) => ({ apiVersion: 'v1', kind: 'Node', metadata: { name, labels: { 'topology.kubernetes.io/zone': zone } } });
const deployment = (name: string, spec: Record<string, unknown>) => ({ apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name }, spec });

describe('importing component configurations and flags', () => {
  it('should read every parameter that names a flag or a configuration field, from that one declaration', () => {
    const files: Record<string, string> = { 'kube-controller-manager': 'kcm.flags', 'kube-scheduler': 'kube-scheduler.flags', 'kube-apiserver': 'kube-apiserver.flags', kubelet: 'kubelet.flags' };
    const withFlags = parameterSpecs().filter((s) => s.flag !== undefined);
    const withFields = parameterSpecs().filter((s) => s.configField !== undefined);
    // The flags and fields the importer read before they were declared with their parameters.
    expect(withFlags.map((s) => s.flag)).toEqual(expect.arrayContaining(['--node-monitor-grace-period', '--node-startup-grace-period', '--max-pods', '--default-unreachable-toleration-seconds', '--leader-elect-lease-duration']));
    expect(withFields.map((s) => s.configField)).toEqual(expect.arrayContaining(['maxPods', 'nodeLeaseDurationSeconds', 'shutdownGracePeriod', 'KubeCloudShared.NodeMonitorPeriod', 'NodeLifecycleController.NodeMonitorGracePeriod']));
    for (const s of withFlags) {
      const file = files[s.component];
      const r = importSources([flagFile(file, `${s.flag}=${s.defaultValue}`)]);
      expect(r.origins[s.key], s.key).toBe(`${file}: ${s.flag}`);
    }
    for (const s of withFields) {
      const value = s.type === 'duration' ? s.defaultValue : Number(s.defaultValue);
      const [section, field] = s.configField!.includes('.') ? s.configField!.split('.') : [undefined, s.configField!];
      const doc = s.component === 'kubelet'
        ? { apiVersion: 'kubelet.config.k8s.io/v1beta1', kind: 'KubeletConfiguration', [field]: value }
        : { apiVersion: 'kubecontrollermanager.config.k8s.io/v1alpha1', kind: 'KubeControllerManagerConfiguration', [section!]: { [field]: value } };
      const r = importSources([objects('c.yaml', doc)]);
      expect(r.origins[s.key], s.key).toMatch(new RegExp(`^c\\.yaml: .*${field}$`));
    }
  });

  it('should map KubeletConfiguration, KubeSchedulerConfiguration and KubeControllerManagerConfiguration fields to parameters, and list the rest', () => {
    const r = importSources([
      objects('kubelet.yaml', { apiVersion: 'kubelet.config.k8s.io/v1beta1', kind: 'KubeletConfiguration', nodeLeaseDurationSeconds: 20, maxPods: 50, evictionHard: { 'memory.available': '100Mi' } }),
      objects('sched.yaml', { apiVersion: 'kubescheduler.config.k8s.io/v1', kind: 'KubeSchedulerConfiguration', leaderElection: { leaderElect: true, leaseDuration: '30s', renewDeadline: '20s', resourceName: 'x' } }),
      // Go decodes its untagged fields case-insensitively: both spellings are read.
      objects('kcm.yaml', { apiVersion: 'kubecontrollermanager.config.k8s.io/v1alpha1', kind: 'KubeControllerManagerConfiguration', Generic: { LeaderElection: { LeaseDuration: '20s' } }, kubeCloudShared: { nodeMonitorPeriod: '2s' }, NodeLifecycleController: { NodeMonitorGracePeriod: '1m0s', NodeEvictionRate: 0.5, NodeStartupGracePeriod: '1m' }, HPAController: {} }),
    ]);
    expect(r.config).toEqual({
      kubelet: { nodeLeaseDurationSeconds: 20 },
      cluster: { maxPods: 50 },
      kubeScheduler: { leaderElection: { leaseDuration: '30s', renewDeadline: '20s' } },
      kubeControllerManager: { leaderElection: { leaseDuration: '20s' }, nodeMonitorPeriod: '2s', nodeMonitorGracePeriod: '1m', nodeEvictionRate: 0.5, nodeStartupGracePeriod: '1m' },
    });
    expect(r.origins['kubeControllerManager.nodeMonitorGracePeriod']).toBe('kcm.yaml: NodeLifecycleController.NodeMonitorGracePeriod');
    expect(r.notModelled).toEqual([
      'kubelet.yaml: KubeletConfiguration.evictionHard',
      'sched.yaml: leaderElection.resourceName',
      'kcm.yaml: KubeControllerManagerConfiguration.HPAController',
    ]);
    const config = resolveConfig('node-failure', { file: r.config });
    expect(config.kubeControllerManager.nodeMonitorGracePeriod).toBe(60);
    expect(config.kubeScheduler.leaderElection.leaseDuration).toBe(30);
    expect(config.kubeControllerManager.nodeStartupGracePeriod).toBe(60);
  });

  it('should read flags files of each component: by program, by file name, by their own flags; leader-elect flags need to know whose they are', () => {
    const r = importSources([
      flagFile('cp/kcm-flags.txt', '--node-monitor-grace-period=20s\n--node-startup-grace-period=90s\n--node-monitor-period 2s\n--node-eviction-rate=0.2 --secondary-node-eviction-rate=0.02\n--large-cluster-size-threshold=10\n--unhealthy-zone-threshold=0.6\n--leader-elect-renew-deadline=8s\n--profiling=false'),
      flagFile('a.flags', '/usr/local/bin/kube-apiserver \\\n  --default-unreachable-toleration-seconds=30 \\\n  --default-not-ready-toleration-seconds=40 # comment\n  --etcd-servers=https://e:2379'),
      flagFile('kube-scheduler.args', '- --leader-elect=false\n- --leader-elect-lease-duration=20s'),
      flagFile('mixed', '--node-monitor-period=3s --default-unreachable-toleration-seconds=50'),
    ]);
    expect(r.config).toEqual({
      kubeControllerManager: { nodeMonitorGracePeriod: '20s', nodeStartupGracePeriod: '1m30s', nodeMonitorPeriod: '3s', nodeEvictionRate: 0.2, secondaryNodeEvictionRate: 0.02, largeClusterSizeThreshold: 10, unhealthyZoneThreshold: 0.6, leaderElection: { renewDeadline: '8s' } },
      kubeApiserver: { defaultUnreachableTolerationSeconds: 50, defaultNotReadyTolerationSeconds: 40 },
      cluster: { schedulerCandidates: 1 },
      kubeScheduler: { leaderElection: { leaseDuration: '20s' } },
    });
    expect(r.notModelled).toEqual(['cp/kcm-flags.txt: --profiling (kube-controller-manager)', 'a.flags: --etcd-servers (kube-apiserver)']);
    expect(r.notes.join('\n')).toMatch(/kubeControllerManager.nodeMonitorPeriod: mixed: --node-monitor-period \("3s"\) overrides cp\/kcm-flags.txt: --node-monitor-period \("2s"\)/);
    expect(r.notes.join('\n')).toMatch(/--leader-elect is false: modelled as a single kube-scheduler/);
    expect(refusal(() => importSources([flagFile('flags', '--leader-elect-lease-duration=20s')]))).toMatch(/^KC202: flags: --leader-elect-lease-duration: kube-controller-manager and kube-scheduler both have this flag/);
    expect(refusal(() => importSources([flagFile('kcm.flags', '--node-monitor-grace-period=40')]))).toMatch(/^KC202: kcm.flags: --node-monitor-grace-period: duration "40" has no unit/);
  });

  it('should read the flags of a static Pod of a control-plane component (kubeadm manifests)', () => {
    const pod = { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'kube-controller-manager', namespace: 'kube-system' }, spec: { containers: [{ name: 'kcm', command: ['kube-controller-manager', '--node-monitor-grace-period=30s', '--bind-address=127.0.0.1'] }] } };
    const r = importSources([objects('manifests/kcm.yaml', pod)]);
    expect(r.config).toEqual({ kubeControllerManager: { nodeMonitorGracePeriod: '30s' } });
    expect(r.notModelled).toEqual(['manifests/kcm.yaml (kube-controller-manager command): --bind-address (kube-controller-manager)']);
  });
});

describe('importing Nodes and workloads', () => {
  it('should count nodes and zones, place node i in zone i mod zones, and say where the model cannot follow unbalanced zones', () => {
    const r = importSources([objects('nodes.yaml', { apiVersion: 'v1', kind: 'List', items: [node('a1', 'a'), node('a2', 'a'), node('a3', 'a'), node('b1', 'b')] })]);
    expect(r.config).toEqual({ cluster: { nodes: 4, zones: 2 } });
    expect(r.notes).toContain('nodes: a1 → node-1, b1 → node-2, a2 → node-3, a3 → node-4');
    expect(r.notes.join('\n')).toMatch(/the cluster has a: 3, b: 1 nodes; the model places node i in zone i mod 2 \(2 \+ 2\)/);
    const balanced = importSources([objects('n.yaml', node('x', 'z1'), node('y', 'z2'))]);
    expect(balanced.notes.join('\n')).not.toMatch(/balanced where yours are not/);
  });

  it('should make each Deployment, StatefulSet and DaemonSet a workload of its own: replicas, tolerations in full (Kubernetes matches them), nodeName', () => {
    const r = importSources([
      objects('nodes.yaml', node('w1', 'a'), node('w2', 'a'), node('w3', 'a')),
      objects('apps.yaml',
        deployment('frontend', { replicas: 3, template: { spec: { nodeName: 'w2', tolerations: [
          { key: 'node.kubernetes.io/unreachable', operator: 'Exists', effect: 'NoExecute', tolerationSeconds: 60 },
          { key: 'node.kubernetes.io/unreachable', operator: 'Exists', effect: 'NoExecute', tolerationSeconds: 20 },
          { key: 'node.kubernetes.io/not-ready', operator: 'Exists', effect: 'NoExecute' },
          { key: 'dedicated', operator: 'Equal', value: 'gpu', effect: 'NoSchedule' },
        ] } } }),
        { apiVersion: 'apps/v1', kind: 'ReplicaSet', metadata: { name: 'frontend-7d9f', ownerReferences: [{ kind: 'Deployment', name: 'frontend' }] }, spec: { replicas: 3 } },
        deployment('backend', { replicas: 1 }),
        { apiVersion: 'apps/v1', kind: 'StatefulSet', metadata: { name: 'pg' }, spec: { template: { spec: { tolerations: [{ operator: 'Exists' }] } }, podManagementPolicy: 'Parallel' } },
        { apiVersion: 'apps/v1', kind: 'DaemonSet', metadata: { name: 'agent', namespace: 'ops' }, spec: { template: { spec: { tolerations: [{ key: 'node.kubernetes.io/unreachable', operator: 'Exists', effect: 'NoExecute', tolerationSeconds: 5 }] } } } },
      ),
    ]);
    expect(r.config).toEqual({
      cluster: {
        nodes: 3, zones: 1,
        workloads: [
          { kind: 'ReplicaSet', name: 'frontend', replicas: 3, tolerations: [
            { key: 'node.kubernetes.io/unreachable', operator: 'Exists', effect: 'NoExecute', tolerationSeconds: 60 },
            { key: 'node.kubernetes.io/unreachable', operator: 'Exists', effect: 'NoExecute', tolerationSeconds: 20 },
            { key: 'node.kubernetes.io/not-ready', operator: 'Exists', effect: 'NoExecute' },
            { key: 'dedicated', operator: 'Equal', value: 'gpu', effect: 'NoSchedule' },
          ], nodeName: 'node-2' },
          { kind: 'ReplicaSet', name: 'backend', replicas: 1 },
          { kind: 'StatefulSet', name: 'pg', replicas: 1, podManagementPolicy: 'Parallel', tolerations: [{ operator: 'Exists' }] },
          { kind: 'DaemonSet', name: 'agent', tolerations: [{ key: 'node.kubernetes.io/unreachable', operator: 'Exists', effect: 'NoExecute', tolerationSeconds: 5 }] },
        ],
      },
    });
    // spec.podManagementPolicy is modelled (Parallel: no ordinal waits for the one before).
    expect(r.notModelled).toEqual([]);
    expect(r.origins['cluster.workloads.0.tolerations']).toBe('apps.yaml: Deployment frontend: spec.template.spec.tolerations');
    expect(r.notes).toEqual(expect.arrayContaining([
      "Deployment frontend → the model's ReplicaSet frontend (pods frontend-<k>; k is a slot, standing for Kubernetes' <hash>-<random> suffix)",
      "StatefulSet pg → the model's StatefulSet pg (pods pg-<ordinal>)",
      "DaemonSet ops/agent → the model's DaemonSet agent (pods agent-node-<n>, one on each node, standing for agent-<random>; they tolerate unreachable and not-ready forever)",
    ]));
    expect(r.notes.join('\n')).toMatch(/ReplicaSet frontend-7d9f belongs to Deployment frontend/);
    const config = resolveConfig('node-failure', { file: r.config });
    expect(config.cluster.workloads.map((w) => `${w.kind} ${w.name} ${w.replicas} ${w.nodeName}`)).toEqual(['ReplicaSet frontend 3 1', 'ReplicaSet backend 1 -1', 'StatefulSet pg 1 -1', 'DaemonSet agent 0 -1']);
    // The first matching toleration is used (GetMatchingTolerations): 60, not the least 20; Exists without key tolerates out-of-service too.
    expect(tolerationOf(config, 'frontend')).toMatchObject({ unreachable: 60, notReady: null, outOfService: -1 });
    expect(tolerationOf(config, 'pg')).toMatchObject({ unreachable: null, notReady: null, outOfService: null });
    // The DaemonSet controller's own replaces the template's matching one: forever.
    expect(tolerationOf(config, 'agent')).toMatchObject({ unreachable: null, notReady: null });
  });

  it('should name workloads after their objects, renaming where two would share pod names, and turn off default tolerations where admission does', () => {
    const r = importSources([
      flagFile('kube-apiserver.flags', '--disable-admission-plugins=DefaultTolerationSeconds'),
      objects('a.yaml',
        { ...deployment('web', { replicas: 2 }), metadata: { name: 'web', namespace: 'a' } },
        { ...deployment('web', { replicas: 1 }), metadata: { name: 'web', namespace: 'b' } },
        { apiVersion: 'apps/v1', kind: 'StatefulSet', metadata: { name: 'cache.v2' }, spec: { replicas: 2, template: { spec: { tolerations: [{ key: 'node.kubernetes.io/unreachable', operator: 'Exists', effect: 'NoExecute', tolerationSeconds: 10 }] } } } },
        { apiVersion: 'apps/v1', kind: 'DaemonSet', metadata: { name: 'x' }, spec: {} },
        deployment('x-node', {}),
      ),
    ]);
    const list = (r.config.cluster as { workloads: { name: string; tolerations?: unknown }[] }).workloads;
    expect(list.map((w) => w.name)).toEqual(['web', 'web-2', 'cache-v2', 'x', 'x-node-2']);
    expect(list[2].tolerations).toEqual([{ key: 'node.kubernetes.io/unreachable', operator: 'Exists', effect: 'NoExecute', tolerationSeconds: 10 }]);
    expect(list[0].tolerations).toBeUndefined();
    expect(r.config.kubeApiserver).toEqual({ defaultTolerationSecondsAdmission: false });
    const config = resolveConfig('node-failure', { file: r.config });
    expect(config.cluster.workloads.map((w) => w.name)).toEqual(['web', 'web-2', 'cache-v2', 'x', 'x-node-2']);
    expect(tolerationOf(config, 'cache-v2')).toMatchObject({ unreachable: 10, notReady: -1 });
    expect(tolerationOf(config, 'web')).toMatchObject({ unreachable: -1, notReady: -1 });
    // Without workloads among the files, the flag still reaches the default web and db.
    expect(importSources([flagFile('kube-apiserver.flags', '--disable-admission-plugins=DefaultTolerationSeconds')]).config).toEqual({ kubeApiserver: { defaultTolerationSecondsAdmission: false } });
  });

  it('should import only the workloads the objects hold, and default replicas to 1', () => {
    const r = importSources([objects('d.yaml', deployment('only', { template: {} }))]);
    expect(r.config).toEqual({ cluster: { workloads: [{ kind: 'ReplicaSet', name: 'only', replicas: 1 }] } });
  });

  it('should refuse malformed objects and unknown kinds in one line naming the file and field', () => {
    expect(refusal(() => importSources([objects('d.yaml', deployment('web', { replicas: 'two' }))]))).toBe('KC202: d.yaml: Deployment web: spec.replicas: expected a whole number, got "two"');
    expect(refusal(() => importSources([objects('d.yaml', { apiVersion: 'apps/v1', kind: 'Deploymnet', metadata: { name: 'x' } })]))).toMatch(/^KC202: d.yaml: kind: unknown kind "Deploymnet"; did you mean Deployment\?/);
    expect(refusal(() => importSources([objects('d.yaml', { apiVersion: 'v1', metadata: { name: 'x' } })]))).toMatch(/^KC202: d.yaml: kind: missing/);
    expect(refusal(() => importSources([objects('k.yaml', { apiVersion: 'kubelet.config.k8s.io/v1beta1', kind: 'KubeletConfiguration', nodeLeaseDurationSeconds: 'forty' })]))).toMatch(/^KC202: k.yaml: nodeLeaseDurationSeconds: expected a whole number/);
    expect(refusal(() => importSources([objects('s.yaml', { apiVersion: 'v1', kind: 'KubeSchedulerConfiguration' })]))).toMatch(/^KC202: s.yaml: KubeSchedulerConfiguration: apiVersion: expected kubescheduler.config.k8s.io/);
    expect(refusal(() => importSources([objects('n.yaml', node('w1', 'a')), objects('d.yaml', deployment('web', { template: { spec: { nodeName: 'w9' } } }))]))).toMatch(/^KC202: d.yaml: Deployment web: spec.template.spec.nodeName: node "w9" is not among the Node objects given/);
    expect(refusal(() => importSources([objects('d.yaml', deployment('web', { template: { spec: { tolerations: [{ key: 'node.kubernetes.io/unreachable', operator: 'In' }] } } }))]))).toMatch(/^KC202: d.yaml: Deployment web: spec.template.spec.tolerations\[0\].operator: expected Exists or Equal/);
    expect(refusal(() => importSources([objects('d.yaml', deployment('web', { template: { spec: { tolerations: [{ key: 'a', operator: 'Exists', tolerationSeconds: 5 }] } } }))]))).toMatch(/^KC202: d.yaml: Deployment web: spec.template.spec.tolerations\[0\].effect: must be 'NoExecute' when tolerationSeconds is set/);
  });
});

describe('the command line on a cluster\'s files', () => {
  const dir = mkdtempSync(join(tmpdir(), 'kubecheck-import-'));
  const file = (name: string, text: string): string => {
    const p = join(dir, name);
    writeFileSync(p, text);
    return p;
  };

  it('should print what import understood, check a folder of files, and refuse bad files in one line', async () => {
    const multi = file('multi.yaml', 'apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: web}\nspec: {replicas: 1}\n---\napiVersion: apps/v1\nkind: StatefulSet\nmetadata: {name: db}\nspec: {replicas: 1}\n');
    const deep = file('deep.yaml', `kind: List\nitems: ${'['.repeat(5000)}${']'.repeat(5000)}\n`);
    const [imp, json, checked, broken, unknown, both, tooDeep] = await Promise.all([
      kubecheckAsync(['import', 'examples/my-cluster']),
      kubecheckAsync(['import', 'examples/my-cluster', '--json']),
      kubecheckAsync(['check', '--config', multi, '--config', 'examples/my-cluster/kube-controller-manager.flags', '--json', '--property', 'unknown-after-grace']),
      kubecheckAsync(['check', '--config', file('broken.yaml', 'kind: Node\nmetadata: [\n')]),
      kubecheckAsync(['import', file('crd.yaml', 'apiVersion: example.com/v1\nkind: Widget\nmetadata: {name: w, namespace: apps}\nspec: {size: 3}\n'), file('mystery.yaml', 'apiVersion: v9\nkind: Gadget\nmetadata: {name: g}\n')]),
      kubecheckAsync(['check', '--config', 'examples/my-cluster', '--property', 'unknown-after-grace']),
      kubecheckAsync(['import', deep]),
    ]);
    expectOneLine(tooDeep, 'KC202', /deep.yaml is not valid YAML: nested too deeply/);
    expect(imp.code).toBe(0);
    expect(imp.stdout).toMatch(/nodeMonitorGracePeriod: 20s # examples\/my-cluster\/kube-controller-manager.flags: --node-monitor-grace-period/);
    expect(imp.stdout).toMatch(/zones: 2 # examples\/my-cluster\/nodes.yaml: topology.kubernetes.io\/zone/);
    expect(imp.stdout).toMatch(/tolerations:\n\s+- key: node.kubernetes.io\/unreachable\n\s+operator: Exists\n\s+effect: NoExecute\n\s+tolerationSeconds: 30\n/);
    expect(imp.stdout).toMatch(/# how it was read:[^\n]*\n(#   [^\n]*\n)*#   DaemonSet monitoring\/node-exporter → the model's DaemonSet node-exporter/);
    expect(imp.stdout).not.toMatch(/#   examples\/my-cluster\/workloads.yaml: DaemonSet/);
    const parsed = JSON.parse(json.stdout) as { config: { kubeControllerManager: Record<string, unknown> }; notModelled: string[]; resolved: { cluster: { nodes: number } } };
    expect(parsed.config.kubeControllerManager.nodeMonitorGracePeriod).toBe('20s');
    expect(parsed.resolved.cluster.nodes).toBe(3);
    expect(parsed.notModelled).toContain('examples/my-cluster/kubelet.yaml: KubeletConfiguration.evictionHard');
    // A multi-document manifest and a flags file together; the note goes into the JSON, not to stderr.
    expect(checked.code).toBe(0);
    const result = JSON.parse(checked.stdout) as { config: { kubeControllerManager: { nodeMonitorGracePeriod: string }; cluster: { workloads: { kind: string; name: string; replicas: number }[] } }; notModelled: string[] };
    expect(result.config.kubeControllerManager.nodeMonitorGracePeriod).toBe('20s');
    expect(result.config.cluster.workloads.map((w) => `${w.kind} ${w.name} ${w.replicas}`)).toEqual(['ReplicaSet web 1', 'StatefulSet db 1']);
    expect(result.notModelled).toEqual(['examples/my-cluster/kube-controller-manager.flags: --controllers (kube-controller-manager)', 'examples/my-cluster/kube-controller-manager.flags: --use-service-account-credentials (kube-controller-manager)']);
    expect(checked.stderr).not.toMatch(/not modelled/);
    expectOneLine(broken, 'KC202', /broken.yaml is not valid YAML: .* at line \d+/);
    // A custom resource is kept for an operator that declares its kind; a kind of no API group, alone in its file, is refused.
    expectOneLine(unknown, 'KC202', /mystery.yaml: kind: unknown kind "Gadget"/);
    expect(both.code).toBe(0);
    expect(both.stderr).toMatch(/^kubecheck: not modelled \(read from your files, but they do not change the model\):\n {2}examples\/my-cluster\/kube-apiserver.flags: --etcd-servers/);
    expect(both.stdout).toMatch(/no node is marked Ready=Unknown earlier than 20s/);
  });

  it('should time node failure handling from the exhaustive search: 50-54, 55-59, 355-359 s by default, 40-44, 45-49, 345-349 s on 1.31', async () => {
    const [current, old, md] = await Promise.all([
      kubecheckAsync(['timing', '--json']),
      kubecheckAsync(['timing', '--json', '--set', 'kubernetesVersion=1.31']),
      kubecheckAsync(['timing', '--markdown', '--set', 'kubeApiserver.defaultUnreachableTolerationSeconds=30']),
    ]);
    type Row = { workload: string; event: string; earliest: number | null; latest: number | null };
    const range = (r: Run, w: string, e: string): [number | null, number | null] => {
      const row = (JSON.parse(r.stdout) as { rows: Row[] }).rows.find((x) => x.workload === w && x.event === e)!;
      return [row.earliest, row.latest];
    };
    expect(current.code).toBe(0);
    expect(JSON.parse(current.stdout).complete).toBe(true);
    expect(range(current, 'web', 'node-unknown')).toEqual([50, 54]);
    expect(range(current, 'web', 'node-noschedule')).toEqual([50, 54]);
    expect(range(current, 'web', 'node-noexecute')).toEqual([55, 59]);
    expect(range(current, 'web', 'pod-evicted')).toEqual([355, 359]);
    expect(range(current, 'web', 'replacement-created')).toEqual([355, 359]);
    expect(range(current, 'web', 'replacement-running')).toEqual([355, 359]);
    expect(range(current, 'db', 'pod-evicted')).toEqual([355, 359]);
    // A StatefulSet pod on a crashed node stays Terminating: its identity is never recreated.
    expect(range(current, 'db', 'replacement-created')).toEqual([null, null]);
    expect(range(old, 'web', 'node-unknown')).toEqual([40, 44]);
    expect(range(old, 'web', 'node-noexecute')).toEqual([45, 49]);
    expect(range(old, 'web', 'replacement-created')).toEqual([345, 349]);
    expect(md.stdout).toMatch(/\| web \(ReplicaSet\) \| replacement created \| 85–89s \|/);
  });

  it('should put two configs side by side with diff, in Markdown for a job summary, exiting by the head', async () => {
    const [md, flap] = await Promise.all([
      kubecheckAsync(['diff', '--head-set', 'kubeApiserver.defaultUnreachableTolerationSeconds=0', '--markdown']),
      kubecheckAsync(['diff', '--head-set', 'kubeControllerManager.nodeMonitorGracePeriod=4s', '--property', 'healthy-node-not-unknown', '--allow-unsafe-config']),
    ]);
    expect(md.code).toBe(0);
    expect(md.stdout).toMatch(/^## kubecheck diff: node-failure/);
    expect(md.stdout).toMatch(/- web replacement created: 355–359s → 55–59s/);
    expect(md.stdout).toMatch(/\| web replacement created \| 355–359s \| \*\*55–59s\*\* \|/);
    expect(flap.code).toBe(1);
    expect(flap.stdout).toMatch(/healthy-node-not-unknown: holds → violated \(\d+ steps\)/);
  });

  it('should load a user\'s controller with --extension, and replay its trace with it or with the module the trace records', async () => {
    const out = join(dir, 'ext');
    const checked = await kubecheckAsync(['check', '--scenario', 'node-partition', '--extension', 'examples/my-operator/myOperator.ts', '--property', 'statefulset-at-most-one', '--out', out]);
    expect(checked.code).toBe(1);
    expect(checked.stdout).toMatch(/fast-failover +deletes db-0 \(node-\d not Ready for more than 30s\)/);
    const trace = join(out, 'statefulset-at-most-one.itf.json');
    // A trace written before modules were recorded: replay says which step it lacks.
    const itf = JSON.parse(readFileSync(trace, 'utf8')) as { '#meta': Record<string, unknown> };
    delete itf['#meta'].extensionModules;
    const unrecorded = join(out, 'unrecorded.itf.json');
    writeFileSync(unrecorded, JSON.stringify(itf));
    const [again, recorded, without, missing] = await Promise.all([
      kubecheckAsync(['replay', trace, '--extension', 'examples/my-operator/myOperator.ts', '--quiet']),
      kubecheckAsync(['replay', trace, '--quiet']),
      kubecheckAsync(['replay', unrecorded, '--quiet']),
      kubecheckAsync(['check', '--extension', 'examples/my-operator/nope.ts']),
    ]);
    for (const r of [again, recorded]) {
      expect(r.code, r.stderr).toBe(1);
      expect(r.stdout).toMatch(/violation reproduced/);
    }
    expectOneLine(without, 'KC205', /takes the step "fast-failover-delete", which the model has no action for; .* replay with the same --extension/);
    expectOneLine(missing, 'KC201', /cannot load extension examples\/my-operator\/nope.ts: no such file/);
  });
});

describe('import has check\'s caps', () => {
  it('should refuse 18,000 Nodes with KC213, as check does, rather than print a config check refuses', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'kubecheck-caps-'));
    const list = join(dir, 'nodes.json');
    writeFileSync(list, JSON.stringify({ apiVersion: 'v1', kind: 'List', items: Array.from({ length: 18_000 }, (_, i) => ({ kind: 'Node', metadata: { name: `n${i}` } })) }));
    const [imported, checked] = await Promise.all([kubecheckAsync(['import', list]), kubecheckAsync(['check', '--config', list])]);
    expect(imported.stdout).toBe('');
    expectOneLine({ ...imported, stderr: imported.stderr.split('\n').filter((l) => /KC\d+/.test(l)).join('\n') }, 'KC213', /cluster.nodes \(18000\) is above the limit of 64/);
    expect(checked.stderr).toMatch(/KC213: cluster.nodes \(18000\) is above the limit of 64/);
  });
});

describe('importing pod priority', () => {
  it("should read a template's priorityClassName (built-in or a PriorityClass among the files) as the pods' priority, and list an unknown class", () => {
    const template = (spec: Record<string, unknown>) => ({ replicas: 1, template: { spec: { containers: [{ name: 'c', image: 'i' }], ...spec } } });
    const r = importSources([
      objects(
        'w.yaml',
        deployment('agent', template({ priorityClassName: 'system-node-critical' })),
        deployment('db', template({ priorityClassName: 'high' })),
        deployment('web', template({ priorityClassName: 'missing' })),
        { apiVersion: 'scheduling.k8s.io/v1', kind: 'PriorityClass', metadata: { name: 'high' }, value: 2_000_000_100 },
      ),
    ]);
    const workloads = (r.config.cluster as { workloads: { name: string; priority?: number }[] }).workloads;
    expect(workloads.map((w) => [w.name, w.priority])).toEqual([['agent', 2_000_001_000], ['db', 2_000_000_100], ['web', undefined]]);
    expect(r.notModelled.some((x) => x.includes('priorityClassName missing'))).toBe(true);
    expect(resolveConfig('node-failure', { set: { 'cluster.workloads': JSON.stringify(workloads) } }).cluster.workloads.map((w) => w.priority)).toEqual([2_000_001_000, 2_000_000_100, undefined]);
  });
});

describe('importing StatefulSet claims', () => {
  const sts = (name: string, spec: Record<string, unknown>) => ({ apiVersion: 'apps/v1', kind: 'StatefulSet', metadata: { name }, spec: { replicas: 1, template: { spec: { containers: [{ name: 'c', image: 'i' }] } }, ...spec } });
  const claim = (name: string, storageClassName?: string) => ({ metadata: { name }, spec: { accessModes: ['ReadWriteOnce'], ...(storageClassName === undefined ? {} : { storageClassName }), resources: { requests: { storage: '1Gi' } } } });
  const storageClass = (name: string, provisioner: string, extra: Record<string, unknown> = {}) => ({ apiVersion: 'storage.k8s.io/v1', kind: 'StorageClass', metadata: { name, ...extra }, provisioner, volumeBindingMode: 'WaitForFirstConsumer' });

  it("should read volumeClaimTemplates with where their volumes live from the StorageClass (given, default, or a known name) and the retention policy", () => {
    const r = importSources([
      objects(
        'db.yaml',
        sts('zk', { volumeClaimTemplates: [claim('data', 'fast-local')], persistentVolumeClaimRetentionPolicy: { whenScaled: 'Delete' } }),
        sts('pg', { volumeClaimTemplates: [claim('pgdata')] }),
        sts('kafka', { volumeClaimTemplates: [claim('logs', 'local-path'), claim('wal', 'mystery')] }),
        storageClass('fast-local', 'kubernetes.io/no-provisioner'),
        storageClass('nfs', 'nfs.csi.k8s.io', { annotations: { 'storageclass.kubernetes.io/is-default-class': 'true' } }),
      ),
    ]);
    const workloads = (r.config.cluster as { workloads: Record<string, unknown>[] }).workloads;
    const by = Object.fromEntries(workloads.map((w) => [w.name, w]));
    expect(by.zk.volumeClaimTemplates).toEqual([{ name: 'data', topology: 'node' }]);
    expect(by.zk.persistentVolumeClaimRetentionPolicy).toEqual({ whenDeleted: 'Retain', whenScaled: 'Delete' });
    expect(by.pg.volumeClaimTemplates).toEqual([{ name: 'pgdata', topology: 'none' }]);
    expect(by.kafka.volumeClaimTemplates).toEqual([{ name: 'logs', topology: 'node' }, { name: 'wal', topology: 'zone' }]);
    expect(r.notes.some((n) => n.includes('StorageClass mystery is not among the files'))).toBe(true);
    // What the importer wrote is a config the model takes.
    const config = resolveConfig('node-failure', { set: { 'cluster.workloads': JSON.stringify(workloads) } });
    expect(config.cluster.workloads.find((w) => w.name === 'zk')?.volumeClaimTemplates).toEqual([{ name: 'data', topology: 'node' }]);
  });

  it('should refuse a retention policy that is not Retain or Delete in one line', () => {
    expect(() => importSources([objects('db.yaml', sts('zk', { persistentVolumeClaimRetentionPolicy: { whenScaled: 'Keep' } }))])).toThrow(/whenScaled: expected Retain or Delete/);
  });
});
