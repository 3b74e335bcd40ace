/**
 * Flag files as hosts keep them, read by what they hold rather than by their names: systemd units
 * and drop-ins (kubernetes-the-hard-way's kube-controller-manager.service and kubelet.service,
 * kubeadm's kubelet.service.d/10-kubeadm.conf), the environment files those units read
 * (kubeadm-flags.env, /etc/default/kubelet), and a kops state store copied from its bucket
 * (`config`, `cluster-completed.spec`, `instancegroup/<name>`, files without an extension, beside
 * pki/ and kops-version.txt, which are not read). Fixtures under test/cli/fixtures/systemd and
 * test/cli/fixtures/kops-state, written after each tool's documentation.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { importSources, type Imported } from '../../cli/import/importer.js';
import { readSources } from '../../cli/import/read.js';
import { isEnvironmentFile, isSystemdUnit, unitFlags } from '../../cli/import/systemd.js';
import { resolveConfig } from '../../model/index.js';
import { expectOneLine, kubecheckAsync, refusal } from './run.js';

const FIXTURES = 'test/cli/fixtures';
const fixture = (name: string): string => `${FIXTURES}/${name}`;
const read = (...paths: string[]): Imported => importSources(readSources(paths.map(fixture)).sources);

const scratch = mkdtempSync(join(tmpdir(), 'kubecheck-host-files-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));
const write = (name: string, text: string): string => {
  const path = join(scratch, name);
  writeFileSync(path, text);
  return path;
};

describe('systemd units and drop-ins', () => {
  it('should read the flags of a unit\'s ExecStart with its \\ continuation lines, each flag with its line', () => {
    const r = read('systemd/kube-controller-manager.service');
    expect(r.config).toEqual({ kubeControllerManager: { nodeMonitorGracePeriod: '20s', nodeMonitorPeriod: '2s' } });
    const file = fixture('systemd/kube-controller-manager.service');
    expect(r.origins['kubeControllerManager.nodeMonitorGracePeriod']).toBe(`${file}: --node-monitor-grace-period`);
    expect(r.notModelled).toEqual(expect.arrayContaining([`${file}: --cluster-cidr (kube-controller-manager)`, `${file}: --v (kube-controller-manager)`]));
    const [cmd] = unitFlags(`[Unit]\nDescription=x\n\n[Service]\nExecStart=/usr/local/bin/kube-controller-manager \\\n  --node-monitor-grace-period=20s \\\n  # a comment line inside the command\n  --node-monitor-period 2s\nRestart=always\n`);
    expect(cmd.component).toBe('kube-controller-manager');
    expect(cmd.flags).toEqual([{ name: 'node-monitor-grace-period', value: '20s', line: 6 }, { name: 'node-monitor-period', value: '2s', line: 8 }]);
    const config = resolveConfig('node-failure', { file: r.config });
    expect(config.kubeControllerManager.nodeMonitorGracePeriod).toBe(20);
  });

  it('should read kubeadm\'s 10-kubeadm.conf drop-in: the last ExecStart, its $VARIABLES from Environment=, and name the EnvironmentFile= it cannot see', () => {
    const r = read('systemd/kubelet.service.d/10-kubeadm.conf');
    const file = fixture('systemd/kubelet.service.d/10-kubeadm.conf');
    expect(r.config).toEqual({ cluster: { maxPods: 60 } });
    expect(r.origins['cluster.maxPods']).toBe(`${file}: --max-pods`);
    expect(r.notModelled).toEqual(expect.arrayContaining([`${file}: --bootstrap-kubeconfig (kubelet)`, `${file}: --config (kubelet)`, `${file}: --node-labels (kubelet)`]));
    expect(r.notes).toContain(`${file}: ExecStart uses $KUBELET_KUBEADM_ARGS, set in EnvironmentFile=/var/lib/kubelet/kubeadm-flags.env or EnvironmentFile=/etc/default/kubelet, not among the files given: give that file too to read its flags`);
    // The environment files the drop-in names, given after it: each variable's flags, a later file's winning.
    const all = read('systemd/kubelet.service.d/10-kubeadm.conf', 'systemd/kubeadm-flags.env', 'systemd/default/kubelet');
    expect(all.config).toEqual({ cluster: { maxPods: 50 } });
    expect(all.origins['cluster.maxPods']).toBe(`${fixture('systemd/default/kubelet')}: --max-pods`);
    expect(all.notModelled).toContain(`${fixture('systemd/kubeadm-flags.env')}: --container-runtime-endpoint (kubelet)`);
  });

  it('should expand ${VAR} in a word, take an empty ExecStart= as a reset, read a drop-in without ExecStart, and k3s\' own flags', () => {
    const [cmd] = unitFlags('[Service]\nEnvironment=GRACE=30s "OTHER=--v=2"\nExecStart=/bin/false\nExecStart=\nExecStart=-/usr/bin/kube-controller-manager --node-monitor-grace-period=${GRACE} $OTHER\n');
    expect(cmd.flags).toEqual([{ name: 'node-monitor-grace-period', value: '30s', line: 2 }, { name: 'v', value: '2', line: 2 }]);
    expect(unitFlags('[Service]\nEnvironment="KUBELET_EXTRA_ARGS=--max-pods=70"\n')).toEqual([{ component: 'kubelet', flags: [{ name: 'max-pods', value: '70', line: 2 }], notes: [] }]);
    // A unit's other sections are not the command.
    expect(unitFlags('[Unit]\nExecStart=/usr/bin/kubelet --max-pods=1\n[Service]\nExecStart=/usr/bin/kubelet --max-pods=2\n')[0].flags).toEqual([{ name: 'max-pods', value: '2', line: 4 }]);
    const k3s = write('k3s.service', '[Unit]\nDescription=Lightweight Kubernetes\n[Service]\nType=notify\nExecStart=/usr/local/bin/k3s \\\n    server \\\n    \'--kube-controller-manager-arg=node-monitor-grace-period=16s\' \\\n    --kubelet-arg=max-pods=90\n');
    const r = importSources(readSources([k3s]).sources);
    expect(r.config).toEqual({ kubeControllerManager: { nodeMonitorGracePeriod: '16s' }, cluster: { maxPods: 90 } });
  });

  it('should know units and environment files by content, and refuse a unit of another program in one line', () => {
    expect(isSystemdUnit('[Service]\nExecStart=/usr/bin/kubelet\n')).toBe(true);
    expect(isSystemdUnit('- [Service]\nkind: x\n')).toBe(false);
    expect(isEnvironmentFile('# kubeadm\nKUBELET_KUBEADM_ARGS="--max-pods=3"\n')).toBe(true);
    expect(isEnvironmentFile('KUBELET_KUBEADM_ARGS=\n')).toBe(false);
    expect(isEnvironmentFile('kind: Node\n')).toBe(false);
    const containerd = write('containerd.service', '[Unit]\nDescription=containerd\n[Service]\nExecStart=/usr/local/bin/containerd\n');
    expect(refusal(() => readSources([containerd]))).toMatch(/^KC202: .*containerd.service: its ExecStart runs \/usr\/local\/bin\/containerd, which is not a Kubernetes component kubecheck reads/);
    const stray = write('kcm.service', '[Service]\nExecStart=/usr/bin/kube-controller-manager --node-monitor-grace-period=20s stray\n');
    expect(refusal(() => readSources([stray]))).toMatch(/^KC202: .*kcm.service: "stray" in ExecStart is not a flag$/);
  });
});

describe('a kops state store', () => {
  it('should read config, cluster-completed.spec and instancegroup/ by content, and leave pki/ and kops-version.txt unread', () => {
    const { sources, skipped } = readSources([fixture('kops-state')]);
    expect(sources.map((s) => s.file)).toEqual(['cluster-completed.spec', 'config', 'instancegroup/control-plane-eu-west-1a', 'instancegroup/nodes-eu-west-1a', 'instancegroup/nodes-eu-west-1b'].map((f) => fixture(`kops-state/${f}`)));
    expect(skipped).toEqual([
      `${fixture('kops-state/pki')} (a folder of the kops state store that holds no cluster configuration)`,
      `${fixture('kops-state/kops-version.txt')} (not a file kubecheck reads (Kubernetes objects, flags, a systemd unit or an environment file of flags))`,
    ]);
    const r = importSources(sources);
    expect(r.config).toEqual({
      kubeApiserver: { defaultNotReadyTolerationSeconds: 300, defaultUnreachableTolerationSeconds: 300 },
      kubeControllerManager: { nodeMonitorGracePeriod: '30s' },
      kubelet: { shutdownGracePeriod: '45s', shutdownGracePeriodCriticalPods: '15s' },
      kubernetesVersion: '1.29.3',
      cluster: { nodes: 3, zones: 2 },
    });
    expect(r.defaulted).not.toHaveProperty('cluster.nodes');
  });

  it('should never keep nor print a kops Keyset\'s key material', () => {
    const r = read('kops-state/pki/private/kubernetes-ca/keyset.yaml');
    expect(JSON.stringify(r)).not.toMatch(/privateMaterial|LS0tLS1/);
    expect(r.notModelled).toEqual([`${fixture('kops-state/pki/private/kubernetes-ca/keyset.yaml')}: kops Keyset kubernetes-ca`]);
  });

  it('should check the state store\'s cluster and pass --strict from the command line', async () => {
    const [imp, strict, unit] = await Promise.all([
      kubecheckAsync(['import', fixture('kops-state')], { timeoutMs: 120_000 }),
      kubecheckAsync(['check', '--strict', '--config', fixture('kops-state'), '--property', 'unknown-after-grace'], { timeoutMs: 120_000 }),
      kubecheckAsync(['import', fixture('systemd/kube-controller-manager.service')], { timeoutMs: 120_000 }),
    ]);
    expect(imp.code).toBe(0);
    expect(imp.stdout).toMatch(/nodes: 3 # test\/cli\/fixtures\/kops-state\/instancegroup\/nodes-eu-west-1a/);
    expect(imp.stdout).toMatch(/skipped: test\/cli\/fixtures\/kops-state\/pki \(a folder of the kops state store/);
    expect(strict.code).toBe(0);
    expect(strict.stdout).toMatch(/no node is marked Ready=Unknown earlier than 30s/);
    expect(unit.code).toBe(0);
    expect(unit.stdout).toMatch(/nodeMonitorGracePeriod: 20s # test\/cli\/fixtures\/systemd\/kube-controller-manager.service: --node-monitor-grace-period/);
  }, 300_000);

  it('should refuse a folder holding nothing kubecheck reads in one line', async () => {
    const dir = mkdtempSync(join(scratch, 'empty-'));
    writeFileSync(join(dir, 'VERSION'), '1.2.3\n');
    // Notes beside the cluster's files: prose with colons and rules, not a config.
    writeFileSync(join(dir, 'README'), '# Cluster notes\n\nOwner: platform team\n\n---\n\nSee also: the runbook\n---\n');
    writeFileSync(join(dir, 'NOTES.md'), 'Upgrade: next week\n');
    const r = await kubecheckAsync(['import', dir], { timeoutMs: 120_000 });
    expectOneLine(r, 'KC201', /holds no file kubecheck reads/);
  }, 300_000);
});
