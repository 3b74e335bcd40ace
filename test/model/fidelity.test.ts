/**
 * Verdicts that agree with Kubernetes where it fails: each former false "ok" now fails with a
 * shortest counterexample, and each failure mechanism has an exhaustive test with its verdict and,
 * where timing matters, both ends of its window. Small timers keep the spaces small where the
 * logic does not depend on the defaults.
 */
import { describe, expect, it } from 'vitest';
import { always, alwaysStep, observer, sometimes as reachable, type Property } from '../../checker/index.js';
import { configWarnings, makeCtx, resolveConfig, type ClusterState } from '../../model/index.js';
import { faultNames } from '../../model/faults.js';
import { FAULT_NAMES } from '../../model/validate.js';
import { defaultProperties, notReadyReplacementBound, replacementBound, runningReplicas } from '../../properties/index.js';
import { replacementWithin } from '../../properties/observers.js';
import { checkWith, run, SMALL_TIMERS, steps } from './helpers.js';

const SMALL = SMALL_TIMERS;
const LEADERS_ONLY = { 'cluster.schedulerCandidates': '1', 'faults.componentCrash': '0' };

/** Checks `properties` (ids of the catalog or extra property values) on a scenario. */
const traceOf = (r: ReturnType<typeof checkWith>, id: string) => r.result.properties.find((p) => p.id === id)!.trace!;
const ticks = (r: ReturnType<typeof checkWith>, id: string): number => traceOf(r, id).actions.filter((a) => a.name === 'tick').length;

describe('false oks removed', () => {
  it('should check single-leader by default when a pause can break it, and find the two leaders', () => {
    const config = resolveConfig('leader-failover', { set: { 'faults.processPause': '1' } });
    expect(defaultProperties('leader-failover', config).ids).toContain('single-leader');
    const r = run('leader-failover', { 'faults.processPause': '1', ...LEADERS_ONLY });
    expect(r.status['single-leader']).toBe('violated');
    const names = steps(r, 'single-leader').map((s) => s.name);
    expect(names).toContain('process-pause');
    // The other candidate takes the Lease over during the pause; the tick that ends the pause
    // makes the old leader act again before its renew loop runs.
    expect(names).toContain('leader-try-acquire');
    expect(names[names.length - 1]).toBe('tick');
  });

  it('should flag healthy nodes marked Unknown with a 4 s grace period, and warn about the config', () => {
    const set = { 'kubeControllerManager.nodeMonitorGracePeriod': '4s', 'faults.nodeCrash': '0' };
    const config = resolveConfig('node-failure', { set });
    expect(defaultProperties('node-failure', config).ids).toContain('healthy-node-not-unknown');
    expect(configWarnings(config).join('\n')).toMatch(/nodeMonitorGracePeriod \(4s\) is not longer than the kubelet's Lease renew interval \(10s\)/);
    const r = run('node-failure', set);
    expect(r.result.verdict).toBe('violation');
    expect(r.status['healthy-node-not-unknown']).toBe('violated');
    const last = steps(r, 'healthy-node-not-unknown').at(-1)!;
    expect(last.summary).toMatch(/marks node-\d Ready=Unknown/);
    expect(configWarnings(resolveConfig('node-failure')).length).toBe(0);
  });

  it('should derive replacement-within for two failures, tight to the tick, with no state of its own', () => {
    for (const set of [{ ...SMALL, 'faults.nodeCrash': '2' }, { ...SMALL, 'faults.nodeCrash': '2', 'cluster.nodes': '4', 'cluster.zones': '2' }]) {
      const config = resolveConfig('node-failure', { set });
      const bound = replacementBound(config)!;
      // 2 × 1 s monitor period + 2 s grace + 3 s toleration + 10 s for the second node in its zone's queue.
      expect(bound).toBe(17);
      // The bound is continuous time; renewals and passes fall on whole seconds here, so the
      // model's worst case is one quantum below it, and reached.
      const within = (b: number, id: string) => ({ ...replacementWithin(config, { unreachable: b }), id });
      const r = checkWith('node-failure', set, ['replacement-within', within(bound - 1, 'within-bound-1'), within(bound - 2, 'within-bound-2')]);
      expect(r.status).toEqual({ 'replacement-within': 'holds', 'within-bound-1': 'holds', 'within-bound-2': 'violated' });
      const plain = checkWith('node-failure', set, ['single-leader']);
      expect(r.result.stats.distinctStates).toBe(plain.result.stats.distinctStates);
    }
  });
});

describe('leader election near its boundaries', () => {
  it('should reach two leaders with 11 s / 10 s / 2 s (the old leader gives up only at +12 s) and warn', () => {
    const set = { ...LEADERS_ONLY, 'kubeControllerManager.leaderElection.leaseDuration': '11s' };
    expect(configWarnings(resolveConfig('leader-failover', { set })).join('\n')).toMatch(/renewDeadline \+ retryPeriod \(12s\).*longer than leaseDuration \(11s\)/);
    const r = checkWith('leader-failover', set, ['single-leader']);
    expect(r.status['single-leader']).toBe('violated');
    // Partitioned right after its renewal at T+0, the leader stops at T+12; the follower that
    // read that renewal at T+0 may try (jitter) at T+11.
    expect(ticks(r, 'single-leader')).toBe(11);
    expect(checkWith('leader-failover', { ...LEADERS_ONLY, 'kubeControllerManager.leaderElection.leaseDuration': '12s' }, ['single-leader']).status['single-leader']).toBe('holds');
  });

  it('should break single-leader at clock-rate skew 1.3 and keep it at 1.2 and 1.25 (limit leaseDuration / (renewDeadline + retryPeriod))', () => {
    const drift = (rate: string) => checkWith('leader-failover', { ...LEADERS_ONLY, 'faults.clockDrift': '1', 'faults.clockDriftRate': rate }, ['single-leader']).status['single-leader'];
    expect(drift('1.3')).toBe('violated');
    expect(drift('1.2')).toBe('holds');
    expect(drift('1.25')).toBe('holds');
    expect(configWarnings(resolveConfig('leader-failover', { set: { 'faults.clockDrift': '1', 'faults.clockDriftRate': '1.3' } })).join('\n')).toMatch(/= 1\.25: two leaders are possible/);
  });

  it("should judge validity by the holder's recorded leaseDurationSeconds, not the challenger's own", () => {
    const set = {
      ...LEADERS_ONLY,
      'kubeControllerManager.leaderElection.leaseDuration': '60s',
      'kubeControllerManager.challengerLeaderElection.leaseDuration': '5s',
      'kubeControllerManager.challengerLeaderElection.renewDeadline': '4s',
    };
    const r = checkWith('leader-failover', set, ['single-leader', 'leader-failover']);
    expect(r.status).toEqual({ 'single-leader': 'holds', 'leader-failover': 'witnessed' });
    // The challenger waits the holder's 60 s after the last renewal it read.
    expect(ticks(r, 'leader-failover')).toBeGreaterThanOrEqual(60);
  });
});

describe('stale actors act', () => {
  /** A kube-controller-manager writes to the API while the Lease names another holder. */
  const staleWrite = alwaysStep<ClusterState>('no-stale-write', 'only the Lease holder writes', (b, a, x) => {
    const p = a.param as string | { manager: string } | undefined;
    const manager = typeof p === 'string' ? p : p?.manager;
    if (manager === undefined || !manager.startsWith('kube-controller-manager-') || b.api.pods === x.api.pods && b.api.nodes === x.api.nodes) return true;
    return b.api.leases[0].holder === Number(manager.slice('kube-controller-manager-'.length)) - 1;
  });

  it('should let a kube-controller-manager resumed after a pause longer than leaseDuration write before its renew loop notices', () => {
    const r = checkWith('node-failure', { ...SMALL, 'faults.processPause': '1' }, [staleWrite, 'single-leader']);
    expect(r.status).toEqual({ 'no-stale-write': 'violated', 'single-leader': 'violated' });
    const names = traceOf(r, 'no-stale-write').actions.map((a) => a.name);
    expect(names).toContain('process-pause');
    expect(traceOf(r, 'no-stale-write').actions).toContainEqual({ name: 'resume-after-pause', param: expect.objectContaining({ first: 'controllers' }) });
  });

  it('should give 409 Conflict to the second of two schedulers binding one pod, and bind it once', () => {
    const conflict = alwaysStep<ClusterState>('no-binding-conflict', 'every binding succeeds', (b, a, x) => {
      if (a.name !== 'bind') return true;
      const assumed = b.candidates[1][Number(String(a.param).slice('kube-scheduler-'.length)) - 1].assumed!;
      return x.api.pods.some((p) => p.name === assumed.pod && p.nodeName === assumed.node && b.api.pods.some((q) => q.name === p.name && q.nodeName < 0));
    });
    const set = { ...SMALL, 'faults.nodeCrash': '0', 'faults.processPause': '1', 'faults.processPauseDuration': '16s', 'operator.forceDeletePod': '1', 'cluster.controllerManagerCandidates': '1', 'cluster.statefulSetReplicas': '0' };
    const r = checkWith('node-failure', set, [conflict, 'no-double-binding']);
    expect(r.status).toEqual({ 'no-binding-conflict': 'violated', 'no-double-binding': 'holds' });
    const trace = traceOf(r, 'no-binding-conflict');
    const last = r.model.describeStep!(trace.states.at(-2)!, trace.actions.at(-1)!, trace.states.at(-1)!);
    expect(last.summary).toMatch(/409 Conflict \(pod web-\d is already assigned to node node-\d\)/);
  });
});

describe('tolerations as Kubernetes has them', () => {
  it('should never evict pods that tolerate unreachable forever (DaemonSet-style), and leave replacement-within out', () => {
    const set = { ...SMALL, 'cluster.replicaSetTolerationSeconds': 'forever', 'cluster.statefulSetTolerationSeconds': 'forever' };
    const config = resolveConfig('node-failure', { set });
    expect(defaultProperties('node-failure', config).leftOut.map((l) => l.id)).toContain('replacement-within');
    expect(run('node-failure', set, ['no-pod-evicted', 'node-marked-unknown']).status).toEqual({ 'no-pod-evicted': 'holds', 'node-marked-unknown': 'witnessed' });
  });

  it('should evict at the NoExecute taint with tolerationSeconds 0, and only then', () => {
    const atTaint = alwaysStep<ClusterState>('evicted-at-taint', 'evictions come with the taint', (b, _a, x) =>
      x.api.pods.every((p) => p.workload !== 'web' || p.deletion !== 'taint-eviction' || b.api.pods.find((q) => q.name === p.name)?.deletion === 'taint-eviction' || b.nodes[p.nodeName].sinceNoExecute === 0),
    );
    const r = checkWith('node-failure', { ...SMALL, 'cluster.replicaSetUnreachableTolerationSeconds': '0' }, [atTaint, 'pod-evicted', 'no-early-eviction']);
    expect(r.status).toEqual({ 'evicted-at-taint': 'holds', 'pod-evicted': 'witnessed', 'no-early-eviction': 'holds' });
  });
});

describe('kubelet faults beyond a crash', () => {
  it('should evict after the not-ready toleration when the runtime fails, within a tight bound from the failure', () => {
    const set = { ...SMALL, 'faults.nodeCrash': '0', 'faults.containerRuntimeFailure': '1' };
    const config = resolveConfig('node-failure', { set });
    const bound = notReadyReplacementBound(config)!;
    // 30 s until the kubelet's runtime state says "down" (maxWaitForContainerRuntime) + renew
    // interval 1 s until Ready=False is posted + 1 s until a pass queues it + 3 s toleration;
    // one quantum less on the model's whole seconds, and reached.
    expect(bound).toBe(35);
    const within = (b: number, id: string) => ({ ...replacementWithin(config, { notReady: b }), id });
    const notReadyTaint = always<ClusterState>('no-not-ready-taint', 'no node is tainted not-ready', (s) => s.api.nodes.every((n) => n === null || !n.taints.includes('not-ready:NoExecute')));
    const r = checkWith('node-failure', set, ['replacement-within', within(bound - 1, 'within-bound-1'), within(bound - 2, 'within-bound-2'), 'pod-evicted', 'no-node-unknown', notReadyTaint]);
    expect(r.status).toEqual({
      'replacement-within': 'holds', 'within-bound-1': 'holds', 'within-bound-2': 'violated', 'pod-evicted': 'witnessed', 'no-node-unknown': 'holds', 'no-not-ready-taint': 'violated',
    });
  });

  it('should have the kubelet know a failed runtime 25-30 s after the failure, both ends reached, and post Ready=False only then', () => {
    const set = { ...SMALL, 'faults.nodeCrash': '0', 'faults.containerRuntimeFailure': '1' };
    // runtimeErrors: the last good check (every 5 s) is 30 s old, so 25 to 30 s after the failure.
    const knowsFrom = (t: number, id: string) =>
      always<ClusterState>(id, `the kubelet knows its runtime is down only ${t}s or more after the failure`, (s) => s.nodes.every((n) => n.runtimeErrors !== true || n.runtimeDownFor >= t));
    // At 30 s it is due before time passes again (a state at 30 s may still wait for it).
    const knowsBy = always<ClusterState>('knows-by-30', 'a live kubelet knows its runtime is down once time passes 30 s after the failure', (s) =>
      s.nodes.every((n) => !n.up || !n.kubeletUp || n.runtimeUp || n.runtimeDownFor <= 30 || n.runtimeErrors === true),
    );
    const unknownAt29 = always<ClusterState>('unknown-at-29', 'the kubelet does not know its runtime is down 29 s after the failure', (s) =>
      s.nodes.every((n) => n.runtimeUp || n.runtimeDownFor !== 29 || n.runtimeErrors !== true),
    );
    const postedFalse = always<ClusterState>('no-early-ready-false', 'no node is Ready=False in the API less than 25 s after its runtime failed', (s) =>
      s.api.nodes.every((o, n) => o === null || o.ready !== 'False' || s.nodes[n].runtimeDownFor >= 25),
    );
    const r = checkWith('node-failure', set, [knowsFrom(25, 'knows-from-25'), knowsFrom(26, 'knows-from-26'), knowsBy, unknownAt29, postedFalse, 'pod-evicted']);
    expect(r.status).toEqual({ 'knows-from-25': 'holds', 'knows-from-26': 'violated', 'knows-by-30': 'holds', 'unknown-at-29': 'violated', 'no-early-ready-false': 'holds', 'pod-evicted': 'witnessed' });
  });

  it('should keep a node Ready indefinitely when its status updates fail while its Lease renews, its pods running on a dead runtime', () => {
    // containerd dies, and the kubelet's Ready=False never lands: the node stays Ready and
    // untainted, nothing is evicted, and its containers run on under their shims, so no replica
    // goes missing (the kubelet could start no new pod there).
    const set = { ...SMALL, 'faults.nodeCrash': '0', 'faults.containerRuntimeFailure': '1', 'faults.nodeStatusUpdateFailure': '1' };
    const config = resolveConfig('node-failure', { set });
    expect(defaultProperties('node-failure', config).ids).toContain('replacement-within');
    const stuck = reachable<ClusterState>('stuck-ready', 'a node Ready with its runtime down and its status updates failing, past the not-ready bound', (s) =>
      s.nodes.some((n, i) => !n.runtimeUp && n.statusStuck && n.runtimeDownFor >= notReadyReplacementBound(config)! && s.api.nodes[i]!.ready === 'True' && n.running.length > 0),
    );
    const r = checkWith('node-failure', set, ['replacement-within', 'no-node-unknown', 'pod-evicted', stuck]);
    expect(r.status).toEqual({ 'replacement-within': 'holds', 'no-node-unknown': 'holds', 'pod-evicted': 'witnessed', 'stuck-ready': 'witnessed' });
  });
});

describe('pods created with spec.nodeName', () => {
  it('should run a replacement with the kube-scheduler down when the template names its node', () => {
    const set = { 'faults.nodeCrash': '0', 'operator.forceDeletePod': '1', 'cluster.replicaSetNodeName': 'node-3', 'cluster.statefulSetReplicas': '0' };
    const pinned = run('component-outage', set, ['replacement-running']);
    expect(pinned.status['replacement-running']).toBe('witnessed');
    const scheduled = run('component-outage', { ...set, 'cluster.replicaSetNodeName': 'none' }, ['replacement-running', 'replacements-stay-pending']);
    expect(scheduled.status).toEqual({ 'replacement-running': 'unwitnessed', 'replacements-stay-pending': 'holds' });
  });
});

describe('recoverable control-plane faults', () => {
  it('should flap healthy nodes on a 40 s kube-apiserver to etcd outage with a 40 s grace period, into disruption mode, and not with 50 s', () => {
    const disruption = sometimes('master-disruption-mode', (s) => s.candidates[0].some((k) => k.ctrl?.disruptionMode === true));
    const set = { 'faults.nodeCrash': '0', 'faults.apiserverEtcdOutage': '1', 'cluster.statefulSetReplicas': '0', 'cluster.replicaSetReplicas': '0' };
    const forty = checkWith('node-failure', { ...set, kubernetesVersion: '1.31' }, ['healthy-node-not-unknown', disruption]);
    expect(forty.status).toEqual({ 'healthy-node-not-unknown': 'violated', 'master-disruption-mode': 'witnessed' });
    const fifty = checkWith('node-failure', set, ['healthy-node-not-unknown', disruption]);
    expect(fifty.status).toEqual({ 'healthy-node-not-unknown': 'holds', 'master-disruption-mode': 'unwitnessed' });
  });

  it('should resume writes once an etcd member is restored, and give every node a fresh grace period', () => {
    const set = { ...SMALL, 'faults.nodeCrash': '0', 'cluster.etcdMembersDownAtStart': '2', 'faults.etcdMemberRestore': '1', 'cluster.statefulSetReplicas': '0' };
    const leaderAgain = sometimes('leader-after-restore', (s) => s.etcd.filter(Boolean).length === 2 && s.api.leases[0].transitioned && s.candidates[0].some((k) => k.leader && k.up));
    const r = checkWith('etcd-quorum', set, ['healthy-node-not-unknown', 'writes-need-quorum', leaderAgain]);
    expect(r.status).toEqual({ 'healthy-node-not-unknown': 'holds', 'writes-need-quorum': 'holds', 'leader-after-restore': 'witnessed' });
  });
});

describe('timing observables on all paths', () => {
  /** The real time between two NoExecute taints in one zone is at least `gap` seconds. */
  const spacing = (gap: number) =>
    observer<ClusterState, number>({
      id: `noexecute-spacing-${gap}`,
      description: `NoExecute taints in one zone at least ${gap}s apart`,
      initial: () => -1,
      step: (since, b, a, x) => {
        if (since === -2) return -2;
        const tainted = x.api.nodes.some((n, i) => n?.taints.includes('unreachable:NoExecute') && !b.api.nodes[i]?.taints.includes('unreachable:NoExecute'));
        if (tainted) return since >= 0 && since < gap ? -2 : 0;
        return a.name === 'tick' && since >= 0 ? Math.min(gap, since + 1) : since;
      },
      holds: (since) => since !== -2,
    });

  it('should space NoExecute taints of one Normal zone by 1 / nodeEvictionRate, exactly', () => {
    const r = checkWith('node-failure', { ...SMALL, 'faults.nodeCrash': '2' }, [spacing(10), spacing(11)]);
    expect(r.status).toEqual({ 'noexecute-spacing-10': 'holds', 'noexecute-spacing-11': 'violated' });
  });

  it('should restart the eviction countdown after a kube-controller-manager failover (kubernetes#108268)', () => {
    /** Seconds from the first NoExecute taint to an eviction stay within `limit`. */
    const evictedWithin = (limit: number) =>
      observer<ClusterState, number>({
        id: `evicted-within-${limit}`,
        description: `evictions within ${limit}s of the NoExecute taint`,
        initial: () => -1,
        step: (since, b, a, x) => {
          if (since === -2) return -2;
          const evicted = x.api.pods.some((p) => p.workload === 'web' && p.deletion === 'taint-eviction' && b.api.pods.find((q) => q.name === p.name)?.deletion !== 'taint-eviction');
          if (evicted && since > limit) return -2;
          if (since < 0 && x.api.nodes.some((n) => n?.taints.includes('unreachable:NoExecute'))) return 0;
          return a.name === 'tick' && since >= 0 ? Math.min(limit + 1, since + 1) : since;
        },
        holds: (since) => since !== -2,
      });
    const steady = checkWith('node-failure', SMALL, [evictedWithin(3), 'no-early-eviction']);
    expect(steady.status).toEqual({ 'evicted-within-3': 'holds', 'no-early-eviction': 'holds' });
    const failover = checkWith('node-failure', { ...SMALL, 'faults.componentCrash': '1' }, [evictedWithin(3), 'no-early-eviction']);
    expect(failover.status).toEqual({ 'evicted-within-3': 'violated', 'no-early-eviction': 'holds' });
    expect(traceOf(failover, 'evicted-within-3').actions.map((a) => a.name)).toContain('component-crash');
  });
});

describe('fault order as data in the scenario', () => {
  it('should stop NoExecute taints once the third of four nodes of a zone is NotReady (zone-disruption)', () => {
    const thirdTainted = always<ClusterState>('node-3-never-tainted', 'node-3 never gets the NoExecute taint', (s) => !s.api.nodes[2]!.taints.includes('unreachable:NoExecute'));
    const r = checkWith('zone-disruption', {}, ['zone-partial-disruption', 'pod-evicted', thirdTainted, 'no-early-eviction']);
    expect(r.status).toEqual({ 'zone-partial-disruption': 'witnessed', 'pod-evicted': 'witnessed', 'node-3-never-tainted': 'holds', 'no-early-eviction': 'holds' });
    // node-2 is tainted 20 s before node-3 tips the zone; failing together with node-3, it never is.
    const secondTainted = always<ClusterState>('node-2-never-tainted', 'node-2 never gets the NoExecute taint', (s) => !s.api.nodes[1]!.taints.includes('unreachable:NoExecute'));
    expect(checkWith('zone-disruption', {}, [secondTainted]).status['node-2-never-tainted']).toBe('violated');
    const together = checkWith('zone-disruption', { 'faults.sequence': 'node-crash:node-1,node-crash:node-2+20s,node-crash:node-3+0s' }, [secondTainted]);
    expect(together.status['node-2-never-tainted']).toBe('holds');
  });

  it('should name only faults the model has, and refuse others in one coded line', () => {
    expect(faultNames(makeCtx(resolveConfig('node-failure'))).sort()).toEqual([...FAULT_NAMES].sort());
    expect(() => resolveConfig('node-failure', { set: { 'faults.sequence': 'node-explodes:node-1' } })).toThrow(/KC\d+.*unknown fault "node-explodes"/);
    expect(() => resolveConfig('node-failure', { set: { 'faults.sequence': 'node-crash:node-9' } })).toThrow(/node-9 names a node that does not exist/);
  });
});

/** A reachability goal named by its id. */
function sometimes(id: string, reached: (s: ClusterState) => boolean): Property<ClusterState> {
  return reachable<ClusterState>(id, id, reached);
}
