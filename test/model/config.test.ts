import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { KubecheckError } from '../../checker/errors.js';
import { configToObject, parameters, resolveConfig, scenarios } from '../../model/index.js';
import { run } from './helpers.js';
import { refusal } from '../cli/run.js';

function codeOf(f: () => unknown): string {
  try {
    f();
  } catch (e) {
    expect(e).toBeInstanceOf(KubecheckError);
    expect((e as Error).message.split('\n')).toHaveLength(1);
    return (e as KubecheckError).code;
  }
  throw new Error('expected a KubecheckError');
}

function messageOf(f: () => unknown): string {
  try {
    f();
  } catch (e) {
    return (e as Error).message;
  }
  throw new Error('expected an error');
}

describe('resolveConfig', () => {
  it('should list the nine stock scenarios, node-failure first', () => {
    expect(scenarios.map((s) => s.name)).toEqual(['node-failure', 'node-partition', 'leader-failover', 'etcd-quorum', 'zone-disruption', 'stale-informers', 'expectations-timeout', 'etcd-restore', 'component-outage']);
  });

  it('should resolve every stock scenario with Kubernetes defaults', () => {
    for (const { name } of scenarios) {
      const c = resolveConfig(name);
      expect(c.kubeControllerManager.leaderElection).toEqual({ leaseDuration: 15, renewDeadline: 10, retryPeriod: 2 });
      expect(c.kubeApiserver.defaultUnreachableTolerationSeconds).toBe(300);
      expect(c.kubelet.nodeLeaseDurationSeconds).toBe(40);
    }
    const nf = resolveConfig('node-failure');
    expect(nf.cluster).toMatchObject({ nodes: 3, zones: 1, replicaSetReplicas: 2, statefulSetReplicas: 1, controllerManagerCandidates: 2, schedulerCandidates: 2 });
    expect(nf.faults.nodeCrash).toBe(1);
  });

  it('should take node-monitor-grace-period from the Kubernetes version unless set', () => {
    expect(resolveConfig('node-failure').kubeControllerManager.nodeMonitorGracePeriod).toBe(50);
    expect(resolveConfig('node-failure', { set: { kubernetesVersion: '1.31' } }).kubeControllerManager.nodeMonitorGracePeriod).toBe(40);
    expect(resolveConfig('node-failure', { set: { kubernetesVersion: 'v1.33.1' } }).kubeControllerManager.nodeMonitorGracePeriod).toBe(50);
    const explicit = resolveConfig('node-failure', { set: { kubernetesVersion: '1.31', 'kubeControllerManager.nodeMonitorGracePeriod': '45s' } });
    expect(explicit.kubeControllerManager.nodeMonitorGracePeriod).toBe(45);
  });

  it('should parse durations as Go writes them', () => {
    const c = resolveConfig('node-failure', { set: { 'kubeControllerManager.nodeMonitorGracePeriod': '1m30s', 'model.tick': '500ms' } });
    expect(c.kubeControllerManager.nodeMonitorGracePeriod).toBe(90);
    expect(c.model.tick).toBe(0.5);
  });

  it('should refuse an unknown scenario, listing the known ones (KC101)', () => {
    expect(codeOf(() => resolveConfig('node-fail'))).toBe('KC101');
    expect(messageOf(() => resolveConfig('node-fail'))).toContain('node-failure, node-partition');
  });

  it('should refuse an unknown parameter and suggest close keys (KC102)', () => {
    const f = (): unknown => resolveConfig('node-failure', { set: { 'kubeControllerManager.nodeMonitorGracePerod': '40s' } });
    expect(codeOf(f)).toBe('KC102');
    expect(messageOf(f)).toContain('kubeControllerManager.nodeMonitorGracePeriod');
    expect(codeOf(() => resolveConfig('node-failure', { file: { cluster: { nodez: 3 } } }))).toBe('KC102');
  });

  it('should refuse unit-less, negative and malformed durations (KC103)', () => {
    expect(messageOf(() => resolveConfig('node-failure', { set: { 'kubeControllerManager.nodeMonitorPeriod': '5' } }))).toMatch(/KC103: kubeControllerManager.nodeMonitorPeriod: duration "5" has no unit/);
    expect(codeOf(() => resolveConfig('node-failure', { set: { 'kubeControllerManager.nodeMonitorPeriod': '-5s' } }))).toBe('KC103');
    expect(codeOf(() => resolveConfig('node-failure', { set: { 'kubeControllerManager.nodeMonitorPeriod': '5 seconds' } }))).toBe('KC103');
    expect(codeOf(() => resolveConfig('node-failure', { file: { kubeControllerManager: { nodeMonitorPeriod: 5 } } }))).toBe('KC103');
  });

  it('should refuse malformed values (KC104)', () => {
    expect(codeOf(() => resolveConfig('node-failure', { set: { 'cluster.nodes': 'three' } }))).toBe('KC104');
    expect(codeOf(() => resolveConfig('node-failure', { set: { 'cluster.nodes': '2.5' } }))).toBe('KC104');
    expect(codeOf(() => resolveConfig('node-failure', { set: { 'cluster.outage': 'etcd' } }))).toBe('KC104');
    expect(codeOf(() => resolveConfig('node-failure', { set: { 'kubeControllerManager.nodeEvictionRate': '-1' } }))).toBe('KC104');
  });

  it('should refuse leaseDuration <= renewDeadline as client-go does (KC105), unless allowUnsafe', () => {
    const set = { 'kubeScheduler.leaderElection.leaseDuration': '10s' };
    expect(messageOf(() => resolveConfig('leader-failover', { set }))).toContain(
      'kubeScheduler.leaderElection: leaseDuration (10s) must be greater than renewDeadline (10s) (client-go NewLeaderElector)',
    );
    expect(codeOf(() => resolveConfig('leader-failover', { set }))).toBe('KC105');
    const unsafe = resolveConfig('leader-failover', { set, allowUnsafe: true });
    expect(unsafe.kubeScheduler.leaderElection.leaseDuration).toBe(10);
    expect(unsafe.allowUnsafe).toBe(true);
  });

  it('should refuse renewDeadline <= 1.2 x retryPeriod as client-go does (KC105)', () => {
    const set = { 'kubeControllerManager.leaderElection.renewDeadline': '12s', 'kubeControllerManager.leaderElection.retryPeriod': '10s' };
    expect(messageOf(() => resolveConfig('leader-failover', { set }))).toContain('renewDeadline (12s) must be greater than 1.2 × retryPeriod (10s)');
    expect(codeOf(() => resolveConfig('leader-failover', { set: { 'kubeControllerManager.leaderElection.retryPeriod': '0s' } }))).toBe('KC105');
  });

  it('should refuse what the discrete model cannot represent exactly (KC106)', () => {
    expect(codeOf(() => resolveConfig('node-failure', { set: { 'kubeControllerManager.nodeMonitorGracePeriod': '1500ms' } }))).toBe('KC106');
    expect(codeOf(() => resolveConfig('node-failure', { set: { 'kubeControllerManager.nodeEvictionRate': '0.3' } }))).toBe('KC106');
    expect(codeOf(() => resolveConfig('node-failure', { set: { 'kubeControllerManager.nodeMonitorPeriod': '0s' } }))).toBe('KC106');
  });

  it('should refuse a senseless cluster shape (KC107)', () => {
    expect(codeOf(() => resolveConfig('node-failure', { set: { 'cluster.zones': '4' } }))).toBe('KC107');
    expect(codeOf(() => resolveConfig('node-failure', { set: { 'faults.nodeCrash': '-1' } }))).toBe('KC107');
    expect(codeOf(() => resolveConfig('node-failure', { set: { 'cluster.etcdMembers': '0' } }))).toBe('KC107');
  });

  it('should word a refusal by a declared bound with the value, the bound and the rule', () => {
    const message = (set: Record<string, string>): string => refusal(() => resolveConfig('node-failure', { set }));
    expect(message({ 'cluster.zones': '4' })).toBe('KC107: cluster.zones (4) must be between 1 and cluster.nodes (3)');
    expect(message({ 'kubelet.shutdownGracePeriodCriticalPods': '5s' })).toBe('KC107: kubelet.shutdownGracePeriodCriticalPods (5s) must not exceed kubelet.shutdownGracePeriod (0s) (KubeletConfiguration validation)');
    expect(message({ 'kubeControllerManager.unhealthyZoneThreshold': '1.5' })).toBe('KC104: kubeControllerManager.unhealthyZoneThreshold (1.5) must be in (0, 1]');
    expect(message({ 'model.tick': '0s' })).toBe('KC106: model.tick (0s) must be positive');
    expect(message({ 'cluster.replicaSetReplicas': '-1' })).toBe('KC107: cluster.replicaSetReplicas (-1) must not be negative (apps/v1 validation)');
    expect(message({ 'faults.nodeCrash': '-1' })).toBe('KC107: faults.nodeCrash (-1) is a budget and must not be negative');
    expect(message({ 'kubelet.nodeLeaseDurationSeconds': '0' })).toMatch(/^KC105: kubelet.nodeLeaseDurationSeconds \(0\) must be greater than 0 \(kubelet config validation\); explore it anyway/);
  });

  it('should refuse a config file that is not an object of sections (KC108)', () => {
    expect(codeOf(() => resolveConfig('node-failure', { file: [1, 2] }))).toBe('KC108');
  });

  it('should apply file then --set, the later winning', () => {
    const c = resolveConfig('node-failure', { file: { cluster: { nodes: 4 } }, set: { 'cluster.nodes': '5' } });
    expect(c.cluster.nodes).toBe(5);
  });

  it('should read configToObject back to an equal config', () => {
    const keys = parameters().map((p) => p.key);
    expect(keys).toContain('kubeControllerManager.nodeMonitorGracePeriod');
    const settings = fc.record({
      scenario: fc.constantFrom(...scenarios.map((s) => s.name)),
      version: fc.constantFrom('1.30', '1.31', '1.32', '1.34'),
      grace: fc.option(fc.integer({ min: 1, max: 120 }), { nil: undefined }),
      nodes: fc.integer({ min: 1, max: 5 }),
      tol: fc.option(fc.integer({ min: 0, max: 600 }), { nil: undefined }),
      unsafe: fc.boolean(),
    });
    fc.assert(
      fc.property(settings, ({ scenario, version, grace, nodes, tol, unsafe }) => {
        // zone-disruption's fault sequence names node-3.
        const set: Record<string, string> = { kubernetesVersion: version, 'cluster.nodes': String(scenario === 'zone-disruption' ? Math.max(3, nodes) : nodes) };
        if (grace !== undefined) set['kubeControllerManager.nodeMonitorGracePeriod'] = `${grace}s`;
        if (tol !== undefined) set['cluster.replicaSetTolerationSeconds'] = String(tol);
        if (unsafe) set['kubeScheduler.leaderElection.leaseDuration'] = '5s';
        const c = resolveConfig(scenario, { set, allowUnsafe: unsafe });
        const back = resolveConfig(scenario, { file: JSON.parse(JSON.stringify(configToObject(c))) });
        expect(back).toEqual(c);
      }),
      { numRuns: 60 },
    );
  });

  it('should describe every parameter with a default that resolves', () => {
    for (const p of parameters()) {
      expect(p.description.length).toBeGreaterThan(0);
      expect(p.component.length).toBeGreaterThan(0);
    }
    expect(parameters().find((p) => p.key === 'kubeControllerManager.nodeMonitorGracePeriod')).toMatchObject({ kubernetesName: '--node-monitor-grace-period', defaultValue: '50s' });
  });

  it('should give defaultNotReadyTolerationSeconds its effect: pods of a node that posts Ready=False are evicted after it', () => {
    // A container runtime failure makes the kubelet post Ready=False: the not-ready taints and
    // tolerations apply, and the unreachable ones do not.
    const small = { 'kubelet.nodeLeaseDurationSeconds': '4', 'kubeControllerManager.nodeMonitorPeriod': '1s', 'kubeControllerManager.nodeMonitorGracePeriod': '2s', 'faults.nodeCrash': '0', 'faults.containerRuntimeFailure': '1' };
    const a = run('node-failure', { ...small, 'kubeApiserver.defaultNotReadyTolerationSeconds': '3' }, ['pod-evicted', 'no-early-eviction']);
    const b = run('node-failure', { ...small, 'kubeApiserver.defaultNotReadyTolerationSeconds': '30' }, ['pod-evicted', 'no-early-eviction']);
    expect(a.status).toEqual({ 'pod-evicted': 'witnessed', 'no-early-eviction': 'holds' });
    expect(b.status).toEqual({ 'pod-evicted': 'witnessed', 'no-early-eviction': 'holds' });
    const duration = (r: typeof a): number => r.result.properties.find((p) => p.id === 'pod-evicted')!.trace!.actions.filter((x) => x.name === 'tick').length;
    expect(duration(b) - duration(a)).toBe(27);
    expect(parameters().find((p) => p.key === 'kubeApiserver.defaultNotReadyTolerationSeconds')!.description).not.toContain('no effect');
  });
});
