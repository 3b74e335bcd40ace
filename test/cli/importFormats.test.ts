/**
 * The cluster files people have, as their tools write them (fixtures under test/cli/fixtures/):
 * kubeadm's InitConfiguration / ClusterConfiguration / JoinConfiguration (v1beta3 and v1beta4),
 * kind's Cluster, a k3s config.yaml, EKS nodeadm's NodeConfig, a folder of kube-prometheus
 * manifests with custom resources, and workload fields (terminationGracePeriodSeconds,
 * podManagementPolicy). The importer on the files first, then the command line.
 */
import { describe, expect, it } from 'vitest';
import { importSources, type ImportSource, type Imported } from '../../cli/import/importer.js';
import { readSource, readSources } from '../../cli/import/read.js';
import { resolveConfig } from '../../model/index.js';
import { expectOneLine, kubecheckAsync, refusal } from './run.js';

const FIXTURES = 'test/cli/fixtures';
const fixture = (name: string): string => `${FIXTURES}/${name}`;
const read = (...paths: string[]): Imported => importSources(readSources(paths.map(fixture)).sources);
const objects = (file: string, ...documents: unknown[]): ImportSource => ({ file, type: 'objects', documents });


const clusterConfiguration = (apiVersion: string, controllerManager: unknown) => ({ apiVersion, kind: 'ClusterConfiguration', controllerManager });

describe('kubeadm configuration files', () => {
  it('should read v1beta3 extraArgs maps, kubeletExtraArgs, kubernetesVersion and the embedded KubeletConfiguration', () => {
    const r = read('kubeadm-v1beta3.yaml');
    expect(r.config).toEqual({
      cluster: { maxPods: 90 },
      kubernetesVersion: 'v1.30.4',
      kubeApiserver: { defaultNotReadyTolerationSeconds: 60, defaultUnreachableTolerationSeconds: 60 },
      kubeControllerManager: { nodeMonitorGracePeriod: '20s', nodeMonitorPeriod: '2s' },
      kubeScheduler: { leaderElection: { leaseDuration: '30s' } },
      kubelet: { nodeLeaseDurationSeconds: 20 },
    });
    const file = fixture('kubeadm-v1beta3.yaml');
    expect(r.origins['kubeControllerManager.nodeMonitorGracePeriod']).toBe(`${file} (ClusterConfiguration.controllerManager.extraArgs): --node-monitor-grace-period`);
    expect(r.origins['kubelet.nodeLeaseDurationSeconds']).toBe(`${file}: KubeletConfiguration.nodeLeaseDurationSeconds`);
    expect(r.notModelled).toEqual(expect.arrayContaining([
      `${file}: InitConfiguration.bootstrapTokens`,
      `${file}: InitConfiguration.nodeRegistration.taints`,
      `${file} (InitConfiguration.nodeRegistration.kubeletExtraArgs): --node-labels (kubelet)`,
      `${file} (ClusterConfiguration.apiServer.extraArgs): --enable-admission-plugins (kube-apiserver)`,
      `${file} (ClusterConfiguration.controllerManager.extraArgs): --bind-address (kube-controller-manager)`,
      `${file}: ClusterConfiguration.networking`,
      `${file}: KubeletConfiguration.cgroupDriver`,
      `${file}: KubeProxyConfiguration`,
    ]));
    const config = resolveConfig('node-failure', { file: r.config });
    expect(config.kubeControllerManager.nodeMonitorGracePeriod).toBe(20);
    expect(config.kubeApiserver.defaultUnreachableTolerationSeconds).toBe(60);
    expect(config.kubeScheduler.leaderElection.leaseDuration).toBe(30);
    expect(config.kubelet.nodeLeaseDurationSeconds).toBe(20);
  });

  it('should read v1beta4 extraArgs lists of {name, value}, leader-elect=false included', () => {
    const r = read('kubeadm-v1beta4.yaml');
    expect(r.config).toEqual({
      cluster: { maxPods: 60, schedulerCandidates: 1 },
      kubernetesVersion: 'v1.31.1',
      kubeApiserver: { defaultNotReadyTolerationSeconds: 120, defaultUnreachableTolerationSeconds: 120 },
      kubeControllerManager: { nodeMonitorGracePeriod: '30s', leaderElection: { leaseDuration: '20s', renewDeadline: '15s' } },
      kubelet: { nodeLeaseDurationSeconds: 40, shutdownGracePeriod: '30s' },
    });
    const file = fixture('kubeadm-v1beta4.yaml');
    expect(r.notModelled).toEqual(expect.arrayContaining([
      `${file}: InitConfiguration.timeouts`,
      `${file} (ClusterConfiguration.apiServer.extraArgs): --audit-log-maxage (kube-apiserver)`,
      `${file}: ClusterConfiguration.controllerManager.extraEnvs`,
    ]));
    expect(r.notes.join('\n')).toMatch(/scheduler.extraArgs\): --leader-elect is false: modelled as a single kube-scheduler/);
    const config = resolveConfig('node-failure', { file: r.config });
    expect(config.kubeControllerManager.nodeMonitorGracePeriod).toBe(30);
    expect(config.kubeApiserver.defaultNotReadyTolerationSeconds).toBe(120);
    expect(config.cluster.schedulerCandidates).toBe(1);
  });

  it('should give the same parameters for the same flags in either version, and read a JoinConfiguration', () => {
    const v3 = importSources([objects('a.yaml', clusterConfiguration('kubeadm.k8s.io/v1beta3', { extraArgs: { 'node-monitor-grace-period': '24s', 'node-eviction-rate': '0.2' } }))]);
    const v4 = importSources([objects('a.yaml', clusterConfiguration('kubeadm.k8s.io/v1beta4', { extraArgs: [{ name: 'node-monitor-grace-period', value: '24s' }, { name: 'node-eviction-rate', value: '0.2' }] }))]);
    expect(v4.config).toEqual(v3.config);
    expect(v3.config).toEqual({ kubeControllerManager: { nodeMonitorGracePeriod: '24s', nodeEvictionRate: 0.2 } });
    const join = read('kubeadm-join.yaml');
    expect(join.config).toEqual({ cluster: { maxPods: 50 } });
    expect(join.notModelled).toEqual(expect.arrayContaining([
      `${fixture('kubeadm-join.yaml')}: JoinConfiguration.discovery`,
      `${fixture('kubeadm-join.yaml')} (JoinConfiguration.nodeRegistration.kubeletExtraArgs): --node-status-update-frequency (kubelet)`,
    ]));
  });

  it('should read the kubeadm-config and kubelet-config ConfigMaps kubeadm keeps in kube-system', () => {
    const r = read('kubeadm-configmaps.yaml');
    expect(r.config).toEqual({
      kubeApiserver: { defaultUnreachableTolerationSeconds: 45 },
      kubeControllerManager: { nodeMonitorGracePeriod: '25s' },
      kubernetesVersion: 'v1.31.3',
      kubelet: { nodeLeaseDurationSeconds: 20 },
    });
    expect(r.notModelled).toEqual([
      `${fixture('kubeadm-configmaps.yaml')} (ConfigMap kube-system/kubeadm-config data.ClusterConfiguration): ClusterConfiguration.networking`,
      `${fixture('kubeadm-configmaps.yaml')} (ConfigMap kube-system/kubelet-config data.kubelet): KubeletConfiguration.cgroupDriver`,
    ]);
    expect(resolveConfig('node-failure', { file: r.config }).kubeControllerManager.nodeMonitorGracePeriod).toBe(25);
    // Any other ConfigMap is listed, as before.
    expect(importSources([objects('c.yaml', { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'app', namespace: 'web' }, data: { ClusterConfiguration: 'x' } })]).notModelled).toEqual(['c.yaml: ConfigMap web/app']);
  });

  it('should refuse a malformed kubeadm file in one line naming the field', () => {
    expect(refusal(() => importSources([objects('k.yaml', clusterConfiguration('kubeadm.k8s.io/v1beta4', { extraArgs: [{ value: '20s' }] }))])))
      .toMatch(/^KC202: k.yaml: ClusterConfiguration.controllerManager.extraArgs\[0\]: expected \{name: flag-name, value: ...\}/);
    expect(refusal(() => importSources([objects('k.yaml', clusterConfiguration('kubeadm.k8s.io/v1beta3', { extraArgs: 'node-monitor-grace-period=20s' }))])))
      .toMatch(/^KC202: k.yaml: ClusterConfiguration.controllerManager.extraArgs: expected a map of flag: value \(v1beta3\) or a list of \{name, value\} \(v1beta4\)/);
    expect(refusal(() => importSources([objects('k.yaml', clusterConfiguration('kubeadm.k8s.io/v1beta3', { extraArgs: { 'node-monitor-grace-period': '20' } }))])))
      .toMatch(/^KC202: k.yaml \(ClusterConfiguration.controllerManager.extraArgs\): --node-monitor-grace-period: duration "20" has no unit/);
    expect(refusal(() => importSources([objects('k.yaml', clusterConfiguration('v1', {}))]))).toMatch(/^KC202: k.yaml: ClusterConfiguration: apiVersion: expected kubeadm.k8s.io\/v1beta4 or kubeadm.k8s.io\/v1beta3/);
  });
});

describe('kind cluster configs', () => {
  it('should make the worker nodes the model\'s nodes, with their zones, and read kubeadmConfigPatches as kubeadm documents', () => {
    const r = read('kind-cluster.yaml');
    const file = fixture('kind-cluster.yaml');
    expect(r.config).toEqual({
      kubeControllerManager: { nodeMonitorGracePeriod: '16s' },
      kubeApiserver: { defaultUnreachableTolerationSeconds: 30 },
      kubelet: { nodeLeaseDurationSeconds: 20 },
      cluster: { nodes: 3, zones: 2 },
    });
    expect(r.origins['cluster.nodes']).toBe(`${file}: 3 worker nodes of kind cluster "staging"`);
    expect(r.origins['kubeControllerManager.nodeMonitorGracePeriod']).toBe(`${file} (kubeadmConfigPatches[0]) (ClusterConfiguration.controllerManager.extraArgs): --node-monitor-grace-period`);
    expect(r.notes).toContain('nodes: staging-worker → node-1, staging-worker2 → node-2, staging-worker3 → node-3');
    expect(r.notes.join('\n')).toMatch(/kind cluster "staging": 3 worker nodes \(the model's nodes\) and 1 control-plane node, which kind taints NoSchedule/);
    expect(r.notModelled).toEqual(expect.arrayContaining([
      `${file} (Cluster.nodes[0].kubeadmConfigPatches[0]) (InitConfiguration.nodeRegistration.kubeletExtraArgs): --node-labels (kubelet)`,
      `${file}: Cluster.nodes[0].extraPortMappings`,
      `${file}: Cluster.nodes[3].labels (tier)`,
      `${file}: Cluster.networking`,
      `${file}: Cluster.featureGates`,
    ]));
    expect(r.defaulted).toEqual({ 'cluster.workloads': expect.stringMatching(/^defaulted: the files hold no Deployment/) });
    const config = resolveConfig('node-failure', { file: r.config });
    expect(config.cluster.nodes).toBe(3);
    expect(config.cluster.zones).toBe(2);
    expect(config.kubeControllerManager.nodeMonitorGracePeriod).toBe(16);
  });

  it('should run pods on the control-plane nodes of a cluster without workers, as kind does', () => {
    const r = read('kind-single.yaml');
    expect(r.config).toEqual({ cluster: { nodes: 1, zones: 1 } });
    expect(r.notes).toContain('nodes: kind-control-plane → node-1');
    expect(r.notes.join('\n')).toMatch(/has no worker nodes: kind removes the control-plane taint/);
    const two = importSources([objects('k.yaml', { apiVersion: 'kind.x-k8s.io/v1alpha4', kind: 'Cluster', nodes: [{ role: 'control-plane' }, { role: 'control-plane' }] })]);
    expect(two.config).toEqual({ cluster: { nodes: 2, zones: 1 } });
    expect(two.notes).toContain('nodes: kind-control-plane → node-1, kind-control-plane2 → node-2');
  });

  it('should let Node objects, when given, be the nodes, and refuse a malformed kind config in one line', () => {
    const node = (name: string) => ({ apiVersion: 'v1', kind: 'Node', metadata: { name } });
    const r = importSources([...readSources([fixture('kind-cluster.yaml')]).sources, objects('nodes.yaml', node('staging-worker'), node('staging-worker2'))]);
    expect((r.config.cluster as Record<string, unknown>).nodes).toBe(2);
    expect(r.notes).toContain("nodes: the Node objects given are the model's nodes; the kind cluster's nodes are not counted again");
    const kind = (o: Record<string, unknown>) => objects('kind.yaml', { kind: 'Cluster', apiVersion: 'kind.x-k8s.io/v1alpha4', ...o });
    expect(refusal(() => importSources([kind({ nodes: [{ role: 'master' }] })]))).toBe('KC202: kind.yaml: Cluster.nodes[0].role: expected control-plane or worker, got "master"');
    expect(refusal(() => importSources([kind({ nodes: [{ role: 'worker' }] })]))).toMatch(/^KC202: kind.yaml: Cluster.nodes: a kind cluster needs at least one node with role: control-plane/);
    expect(refusal(() => importSources([kind({ kubeadmConfigPatches: [{ kind: 'ClusterConfiguration' }] })]))).toMatch(/^KC202: kind.yaml: kubeadmConfigPatches\[0\]: expected a string holding a kubeadm document/);
    expect(refusal(() => importSources([kind({ kubeadmConfigPatches: ['kind: ClusterConfiguration\ncontrollerManager: [\n'] })]))).toMatch(/^KC202: kind.yaml \(kubeadmConfigPatches\[0\]\) is not valid YAML: .* at line \d+/);
  });
});

describe('k3s config.yaml', () => {
  it('should read the components\' args (lists or one string, with or without dashes) and list the other keys', () => {
    expect(readSource(fixture('k3s-config.yaml')).type).toBe('k3s');
    const r = read('k3s-config.yaml');
    const file = fixture('k3s-config.yaml');
    expect(r.config).toEqual({
      kubeControllerManager: { nodeMonitorGracePeriod: '20s', nodeMonitorPeriod: '2s' },
      kubeApiserver: { defaultNotReadyTolerationSeconds: 30, defaultUnreachableTolerationSeconds: 30 },
      kubeScheduler: { leaderElection: { leaseDuration: '25s' } },
      cluster: { maxPods: 250 },
    });
    expect(r.origins['kubeControllerManager.nodeMonitorGracePeriod']).toBe(`${file} (kube-controller-manager-arg): --node-monitor-grace-period`);
    expect(r.notModelled).toEqual([
      `${file}: write-kubeconfig-mode (k3s)`,
      `${file}: tls-san (k3s)`,
      `${file}: node-label (k3s)`,
      `${file}: cluster-init (k3s)`,
      `${file} (kube-controller-manager-arg): --terminated-pod-gc-threshold (kube-controller-manager)`,
      `${file} (kubelet-arg): --node-status-update-frequency (kubelet)`,
    ]);
    expect(resolveConfig('node-failure', { file: r.config }).kubeControllerManager.nodeMonitorGracePeriod).toBe(20);
  });

  it('should append with a key ending in + (config.yaml.d drop-ins), and refuse an arg that is not name=value', () => {
    const k3s = (file: string, value: Record<string, unknown>): ImportSource => ({ file, type: 'k3s', value });
    const r = importSources([k3s('config.yaml', { 'kube-controller-manager-arg': ['node-monitor-grace-period=20s'] }), k3s('config.yaml.d/10-grace.yaml', { 'kube-controller-manager-arg+': ['node-monitor-grace-period=30s'] })]);
    expect(r.config).toEqual({ kubeControllerManager: { nodeMonitorGracePeriod: '30s' } });
    expect(refusal(() => importSources([k3s('c.yaml', { 'kubelet-arg': ['=250'] })]))).toBe('KC202: c.yaml: kubelet-arg[0]: expected "name=value", got "=250"');
    expect(refusal(() => importSources([k3s('c.yaml', { 'kubelet-arg': { 'max-pods': 250 } })]))).toMatch(/^KC202: c.yaml: kubelet-arg: expected a list of "name=value" strings/);
  });
});

describe('EKS nodeadm NodeConfig', () => {
  it('should read spec.kubelet.config as KubeletConfiguration fields and spec.kubelet.flags as kubelet flags', () => {
    const r = read('nodeadm-nodeconfig.yaml');
    const file = fixture('nodeadm-nodeconfig.yaml');
    expect(r.config).toEqual({ cluster: { maxPods: 58 }, kubelet: { nodeLeaseDurationSeconds: 20, shutdownGracePeriod: '30s' } });
    expect(r.origins['kubelet.shutdownGracePeriod']).toBe(`${file}: NodeConfig.spec.kubelet.config.shutdownGracePeriod`);
    expect(r.origins['cluster.maxPods']).toBe(`${file}: NodeConfig.spec.kubelet.config.maxPods`);
    expect(r.notModelled).toEqual([
      `${file}: NodeConfig.spec.cluster`,
      `${file}: NodeConfig.spec.kubelet.config.featureGates`,
      `${file} (NodeConfig.spec.kubelet.flags): --node-labels (kubelet)`,
      `${file} (NodeConfig.spec.kubelet.flags): --register-with-taints (kubelet)`,
    ]);
    const flags = importSources([objects('n.yaml', { apiVersion: 'node.eks.aws/v1alpha1', kind: 'NodeConfig', spec: { kubelet: { flags: ['--max-pods=30'] } } })]);
    expect(flags.config).toEqual({ cluster: { maxPods: 30 } });
    expect(refusal(() => importSources([objects('n.yaml', { apiVersion: 'node.eks.aws/v1alpha1', kind: 'NodeConfig', spec: { kubelet: { flags: '--max-pods=30' } } })]))).toMatch(/^KC202: n.yaml: spec.kubelet.flags: expected a list of "--flag=value" strings/);
    expect(refusal(() => importSources([objects('n.yaml', { apiVersion: 'node.eks.aws/v1alpha1', kind: 'NodeConfig', spec: { kubelet: { config: { maxPods: 'many' } } } })]))).toMatch(/^KC202: n.yaml: spec.kubelet.config.maxPods: expected a whole number/);
  });
});

describe('manifests with kinds the model does not know', () => {
  it('should read a kube-prometheus folder, listing each custom resource and unknown kind as not modelled', () => {
    const r = read('kube-prometheus');
    const dir = fixture('kube-prometheus');
    expect(r.notModelled).toEqual(expect.arrayContaining([
      `${dir}/alertmanager-alertmanager.yaml: Alertmanager monitoring/main (monitoring.coreos.com/v1: custom resource, kept in cluster.objects)`,
      `${dir}/alertmanager-serviceMonitor.yaml: ServiceMonitor monitoring/alertmanager-main (monitoring.coreos.com/v1: custom resource, kept in cluster.objects)`,
      `${dir}/kustomization.yaml: Kustomization (kustomize.config.k8s.io/v1beta1: a kind the model does not know)`,
      `${dir}/blackboxExporter-configuration.yaml: ConfigMap monitoring/blackbox-exporter-configuration`,
    ]));
    expect((r.config.cluster as { workloads: { kind: string; name: string }[] }).workloads.map((w) => `${w.kind} ${w.name}`)).toEqual(['ReplicaSet blackbox-exporter', 'DaemonSet node-exporter']);
  });

  it('should read a file holding unknown kinds beside known ones, refuse one holding nothing kubecheck reads, and refuse typos of Kubernetes\' own kinds', () => {
    const cr = { apiVersion: 'cert-manager.io/v1', kind: 'Certificate', metadata: { name: 'tls', namespace: 'web' } };
    const r = importSources([objects('app.yaml', cr, { apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'web' }, spec: { replicas: 2 } })]);
    expect(r.notModelled).toEqual(['app.yaml: Certificate web/tls (cert-manager.io/v1: custom resource, kept in cluster.objects)']);
    // A custom resource named on its own is kept for an operator that declares its kind, with its namespace.
    const alone = importSources(readSources([fixture('kube-prometheus/alertmanager-alertmanager.yaml')]).sources);
    expect((alone.config.cluster as { objects: { kind: string; metadata: { name: string; namespace?: string } }[] }).objects.map((o) => `${o.kind}/${o.metadata.namespace}/${o.metadata.name}`)).toEqual(['Alertmanager/monitoring/main']);
    expect(resolveConfig('node-failure', { file: alone.config }).cluster.objects[0].metadata).toMatchObject({ name: 'main', namespace: 'monitoring' });
    expect(alone.notes.join('\n')).toMatch(/cluster.objects: 1 custom resource kept/);
    // More than the model takes: the first 256 are kept, and the output says so.
    const many = importSources([objects('many.yaml', ...Array.from({ length: 300 }, (_, i) => ({ apiVersion: 'example.com/v1', kind: 'Widget', metadata: { name: `w-${i}` } })))]);
    expect((many.config.cluster as { objects: unknown[] }).objects).toHaveLength(256);
    expect(many.notes.join('\n')).toMatch(/300 custom resources found, the first 256 kept/);
    expect(resolveConfig('node-failure', { file: many.config }).cluster.objects).toHaveLength(256);
    expect(refusal(() => importSources([objects('x.yaml', { apiVersion: 'v9', kind: 'Gadget', metadata: { name: 'g' } })]))).toMatch(/^KC202: x.yaml: kind: unknown kind "Gadget"; kubecheck reads KubeletConfiguration, .*kubeadm's InitConfiguration/);
    // In a folder too: the API server itself would refuse an apps/v1 Deploymnet.
    const typo: ImportSource = { file: 'd/x.yaml', type: 'objects', documents: [{ apiVersion: 'apps/v1', kind: 'Deploymnet', metadata: { name: 'x' } }], inFolder: true };
    expect(refusal(() => importSources([typo]))).toMatch(/^KC202: d\/x.yaml: kind: unknown kind "Deploymnet"; did you mean Deployment\?/);
    // A custom resource whose name starts like a known kind is not a typo.
    const monitor: ImportSource = { file: 'd/sm.yaml', type: 'objects', documents: [{ apiVersion: 'monitoring.coreos.com/v1', kind: 'ServiceMonitor', metadata: { name: 'x' } }], inFolder: true };
    expect(importSources([monitor]).notModelled).toEqual(['d/sm.yaml: ServiceMonitor x (monitoring.coreos.com/v1: custom resource, kept in cluster.objects)']);
  });
});

describe('workload fields and defaults', () => {
  it('should map terminationGracePeriodSeconds and a StatefulSet\'s podManagementPolicy to the workload', () => {
    const r = read('workloads-termination.yaml');
    expect((r.config.cluster as Record<string, unknown>).workloads).toEqual([
      { kind: 'StatefulSet', name: 'kafka', replicas: 3, podManagementPolicy: 'Parallel', terminationGracePeriodSeconds: 120 },
      { kind: 'ReplicaSet', name: 'api', replicas: 2, terminationGracePeriodSeconds: 10 },
    ]);
    expect(r.origins['cluster.workloads.0.terminationGracePeriodSeconds']).toBe(`${fixture('workloads-termination.yaml')}: StatefulSet streaming/kafka: spec.template.spec.terminationGracePeriodSeconds`);
    expect(r.notModelled).toEqual([]);
    const config = resolveConfig('node-failure', { file: r.config });
    expect(config.cluster.workloads.map((w) => [w.name, w.terminationGracePeriodSeconds, w.podManagementPolicy])).toEqual([['kafka', 120, 'Parallel'], ['api', 10, undefined]]);
    const sts = (spec: Record<string, unknown>) => objects('s.yaml', { apiVersion: 'apps/v1', kind: 'StatefulSet', metadata: { name: 'db' }, spec });
    expect(refusal(() => importSources([sts({ podManagementPolicy: 'parallel' })]))).toBe('KC202: s.yaml: StatefulSet db: spec.podManagementPolicy: expected OrderedReady or Parallel, got "parallel"');
    expect(refusal(() => importSources([sts({ template: { spec: { terminationGracePeriodSeconds: '30s' } } })]))).toMatch(/^KC202: s.yaml: StatefulSet db: spec.template.spec.terminationGracePeriodSeconds: expected a whole number/);
  });

  it('should say when the nodes, zones or workloads are the scenario\'s defaults because the files did not say', () => {
    const flagsOnly = read('k3s-config.yaml');
    expect(Object.keys(flagsOnly.defaulted)).toEqual(['cluster.nodes', 'cluster.zones', 'cluster.workloads']);
    expect(flagsOnly.notes).toEqual(expect.arrayContaining([
      "defaulted: the files hold no Node objects (kubectl get nodes -o yaml) nor a cluster definition (kind, kops, Cluster API, k3d, eksctl), so cluster.nodes and cluster.zones are the scenario's default (kubecheck list parameters)",
      "defaulted: the files hold no Deployment, ReplicaSet, StatefulSet or DaemonSet, so the scenario's own workloads are checked",
    ]));
    expect(read('../../../examples/my-cluster').defaulted).toEqual({});
    expect(Object.keys(read('workloads-termination.yaml').defaulted)).toEqual(['cluster.nodes', 'cluster.zones']);
    // kubecheck's own configs say what they mean: nothing is noted as defaulted.
    expect(importSources([{ file: 'k.yaml', type: 'kubecheck', value: { kubeControllerManager: { nodeMonitorGracePeriod: '20s' } } }]).defaulted).toEqual({});
    // A kubecheck config beside the cluster's files can give what they leave out.
    const both = importSources([...readSources([fixture('k3s-config.yaml')]).sources, { file: 'k.yaml', type: 'kubecheck', value: { cluster: { nodes: 5 } } }]);
    expect(Object.keys(both.defaulted)).toEqual(['cluster.zones', 'cluster.workloads']);
  });
});

describe('the command line on these files', () => {
  it('should import and check them, say what was defaulted, list unknown kinds, and refuse bad ones in one line', async () => {
    const [imp, checked, k3s, alone, badKind] = await Promise.all([
      kubecheckAsync(['import', fixture('kubeadm-v1beta4.yaml')]),
      kubecheckAsync(['check', '--config', fixture('kube-prometheus'), '--config', fixture('kind-cluster.yaml'), '--property', 'unknown-after-grace']),
      kubecheckAsync(['check', '--config', fixture('k3s-config.yaml'), '--property', 'unknown-after-grace']),
      kubecheckAsync(['check', '--config', fixture('kube-prometheus/alertmanager-serviceMonitor.yaml')]),
      kubecheckAsync(['import', fixture('kind-cluster.yaml'), fixture('bad-kind-role.yaml')]),
    ]);
    expect(imp.code).toBe(0);
    expect(imp.stdout).toMatch(/nodeMonitorGracePeriod: 30s # test\/cli\/fixtures\/kubeadm-v1beta4.yaml \(ClusterConfiguration.controllerManager.extraArgs\): --node-monitor-grace-period/);
    expect(imp.stdout).toMatch(/#   defaulted: the files hold no Node objects .* so cluster.nodes and cluster.zones are the scenario's default/);
    expect(checked.code).toBe(0);
    expect(checked.stdout).toMatch(/no node is marked Ready=Unknown earlier than 16s/);
    expect(checked.stderr).toMatch(/ {2}test\/cli\/fixtures\/kube-prometheus\/alertmanager-alertmanager.yaml: Alertmanager monitoring\/main \(monitoring.coreos.com\/v1: custom resource, kept in cluster.objects\)/);
    expect(checked.stderr).not.toMatch(/defaulted/);
    expect(k3s.code).toBe(0);
    expect(k3s.stdout).toMatch(/no node is marked Ready=Unknown earlier than 20s/);
    expect(k3s.stderr).toMatch(/^kubecheck: warning: defaulted: the files hold no Node objects .* so cluster.nodes and cluster.zones are the scenario's default/m);
    expect(k3s.stderr).toMatch(/^kubecheck: defaulted: the files hold no Deployment, ReplicaSet, StatefulSet or DaemonSet, so the scenario's own workloads are checked$/m);
    // A custom resource alone in its file is kept for an operator that declares its kind.
    expect(alone.code).toBe(0);
    expect(alone.stderr).toMatch(/ServiceMonitor monitoring\/alertmanager-main \(monitoring.coreos.com\/v1: custom resource, kept in cluster.objects\)/);
    expectOneLine(badKind, 'KC202', /bad-kind-role.yaml: Cluster.nodes\[1\].role: expected control-plane or worker, got "master"/);
  });
});

/**
 * Cluster definitions, written after their tools' documentation (test/cli/fixtures/clusters/):
 * kops Cluster and InstanceGroups, Cluster API Cluster, KubeadmControlPlane, MachineDeployments
 * and KubeadmConfigTemplate, a k3d Simple config, an eksctl ClusterConfig. Each was taken for
 * custom resources, and checked on the scenario's three default nodes.
 */
describe('cluster definitions', () => {
  const cluster = (name: string): Imported => read(`clusters/${name}`);

  it('should read a kops Cluster and its InstanceGroups: Node groups minSize over their subnets\' zones, kubelet and kube-controller-manager fields', () => {
    const r = cluster('kops-cluster.yaml');
    expect(r.config).toEqual({
      kubernetesVersion: '1.29.3',
      kubelet: { shutdownGracePeriod: '30s', shutdownGracePeriodCriticalPods: '10s' },
      kubeControllerManager: { nodeMonitorGracePeriod: '40s', nodeMonitorPeriod: '5s', leaderElection: { leaseDuration: '20s' } },
      kubeApiserver: { defaultNotReadyTolerationSeconds: 120, defaultUnreachableTolerationSeconds: 120 },
      cluster: { nodes: 4, zones: 2 },
    });
    expect(Object.keys(r.defaulted)).toEqual(['cluster.workloads']);
    const file = fixture('clusters/kops-cluster.yaml');
    expect(r.notModelled).toEqual(expect.arrayContaining([`${file}: Cluster.spec.kubeControllerManager.podEvictionTimeout`, `${file}: Cluster.spec.kubelet.anonymousAuth`]));
    expect(r.notes.join('\n')).toMatch(/InstanceGroup control-plane-us-east-1a \(role Master\) runs no workload pods/);
    const config = resolveConfig('node-failure', { file: r.config });
    expect(config.kubelet.shutdownGracePeriod).toBe(30);
    expect(config.cluster.nodes).toBe(4);
    // Without the Cluster, a subnet is taken as its own zone, and kops' default minSize is 2.
    const ig = importSources([objects('ig.yaml', { apiVersion: 'kops.k8s.io/v1alpha2', kind: 'InstanceGroup', metadata: { name: 'nodes' }, spec: { role: 'Node', subnets: ['a', 'b', 'c'] } })]);
    expect(ig.config).toEqual({ cluster: { nodes: 2, zones: 2 } });
  });

  it('should read Cluster API objects: MachineDeployment replicas and failure domains, kubeadm extraArgs inside KubeadmControlPlane and KubeadmConfigTemplate', () => {
    const r = cluster('capi-cluster.yaml');
    expect(r.config).toEqual({ kubernetesVersion: 'v1.30.0', kubeControllerManager: { nodeMonitorGracePeriod: '20s' }, cluster: { nodes: 3, zones: 2 } });
    const file = fixture('clusters/capi-cluster.yaml');
    expect(r.origins['kubeControllerManager.nodeMonitorGracePeriod']).toBe(`${file} (KubeadmControlPlane capi-quickstart-control-plane) (ClusterConfiguration.controllerManager.extraArgs): --node-monitor-grace-period`);
    expect(r.notModelled).toEqual(expect.arrayContaining([`${file} (KubeadmConfigTemplate capi-quickstart-md-0) (JoinConfiguration.nodeRegistration.kubeletExtraArgs): --node-status-update-frequency (kubelet)`]));
    // A ClusterClass-based Cluster: its topology's machine deployments.
    const topology = importSources([objects('c.yaml', { apiVersion: 'cluster.x-k8s.io/v1beta1', kind: 'Cluster', metadata: { name: 'c' }, spec: { topology: { class: 'quick-start', version: 'v1.31.0', controlPlane: { replicas: 1 }, workers: { machineDeployments: [{ class: 'default-worker', name: 'md-0', replicas: 5, failureDomain: 'fd1' }] } } } })]);
    expect(topology.config).toEqual({ kubernetesVersion: 'v1.31.0', cluster: { nodes: 5, zones: 1 } });
  });

  it('should read a k3d Simple config: servers and agents, the image\'s release, --kube-controller-manager-arg and --kubelet-arg', () => {
    const r = cluster('k3d-simple.yaml');
    expect(r.config).toEqual({ kubernetesVersion: '1.30.4', kubeControllerManager: { nodeMonitorGracePeriod: '16s' }, cluster: { maxPods: 50, nodes: 4, zones: 1 } });
  });

  it('should read an eksctl ClusterConfig: desiredCapacity (else minSize) per node group over its availability zones, kubeletExtraConfig', () => {
    const r = cluster('eksctl-cluster.yaml');
    expect(r.config).toEqual({ kubernetesVersion: '1.30', kubelet: { shutdownGracePeriod: '45s', shutdownGracePeriodCriticalPods: '15s' }, cluster: { nodes: 4, zones: 2 } });
    const file = fixture('clusters/eksctl-cluster.yaml');
    expect(r.notModelled).toEqual(expect.arrayContaining([`${file}: ClusterConfig.nodeGroups[0].kubeletExtraConfig.kubeReserved`]));
  });

  it('should refuse more nodes than the model takes before listing them (KC213), and a malformed group (KC202)', () => {
    const huge = objects('ig.yaml', { apiVersion: 'kops.k8s.io/v1alpha2', kind: 'InstanceGroup', metadata: { name: 'nodes' }, spec: { role: 'Node', minSize: 1_000_000_000 } });
    expect(refusal(() => importSources([huge]))).toMatch(/^KC213: cluster.nodes \(1000000000, with 1000000000 from ig.yaml: kops InstanceGroup nodes\) is above the limit of 64/);
    const eks = objects('e.yaml', { apiVersion: 'eksctl.io/v1alpha5', kind: 'ClusterConfig', metadata: { name: 'x' }, nodeGroups: [{ name: 'ng', desiredCapacity: 'three' }] });
    expect(refusal(() => importSources([eks]))).toMatch(/^KC202: e.yaml: ClusterConfig.nodeGroups\[0\].desiredCapacity: expected a whole number/);
  });
});

describe('check on cluster definitions, and --strict', () => {
  it('should check the cluster a definition describes, warn in every format when the shape is defaulted, and refuse it with --strict', async () => {
    const kubelet = fixture('kubeadm-join.yaml');
    const [kops, junit, sarif, json, annotations, strict, strictOk] = await Promise.all([
      kubecheckAsync(['check', '--config', fixture('clusters/kops-cluster.yaml'), '--max-states', '300', '-q', '--json']),
      kubecheckAsync(['check', '--config', kubelet, '--max-states', '300', '-q', '--format', 'junit']),
      kubecheckAsync(['check', '--config', kubelet, '--max-states', '300', '-q', '--format', 'sarif']),
      kubecheckAsync(['check', '--config', kubelet, '--max-states', '300', '-q', '--json']),
      kubecheckAsync(['check', '--config', kubelet, '--max-states', '300', '-q'], { env: { GITHUB_ACTIONS: 'true' } }),
      kubecheckAsync(['check', '--config', kubelet, '--strict']),
      kubecheckAsync(['check', '--config', fixture('clusters/eksctl-cluster.yaml'), '--strict', '--max-states', '300', '-q', '--json']),
    ]);
    const shape = /defaulted: the files hold no Node objects .* so cluster.nodes and cluster.zones are the scenario's default/;
    expect(JSON.parse(kops.stdout).config.cluster.nodes).toBe(4);
    expect(JSON.parse(kops.stdout).warnings ?? []).not.toEqual(expect.arrayContaining([expect.stringMatching(shape)]));
    expect(junit.stdout).toMatch(new RegExp(`<system-out>warning: ${shape.source}`));
    expect(JSON.parse(sarif.stdout).runs[0].invocations[0].toolExecutionNotifications.map((n: { message: { text: string } }) => n.message.text)).toEqual(expect.arrayContaining([expect.stringMatching(shape)]));
    expect(JSON.parse(json.stdout).warnings).toEqual(expect.arrayContaining([expect.stringMatching(shape)]));
    expect(annotations.stdout).toMatch(new RegExp(`^::warning title=.*::${shape.source}`, 'm'));
    expect(annotations.stderr).toMatch(new RegExp(`^kubecheck: warning: ${shape.source}`, 'm'));
    expectOneLine({ ...strict, stderr: strict.stderr.split('\n').filter((l) => /KC\d+/.test(l)).join('\n') }, 'KC217', /--strict: cluster.nodes and cluster.zones would be the scenario's default/);
    expect(strict.stdout).toBe('');
    expect(strictOk.code).toBe(3);
    expect(JSON.parse(strictOk.stdout).config.cluster.nodes).toBe(4);
  });
});
