/**
 * A kube-controller-manager resumed from a stop-the-world pause (a VM freeze, a long GC): its
 * watches held every Lease renewal made meanwhile, and its node-monitor pass, overdue, can run
 * before the lease informer delivers them (`monitorNodeHealth` reads the lister; nothing fences
 * it). With a pause near the grace period that pass marks every healthy node Unknown. The
 * resumed leader's renew loop first (it steps down or renews) and a short pause mark none.
 */
import { describe, expect, it } from 'vitest';
import { alwaysStep } from '../../checker/index.js';
import { configWarnings, resolveConfig, type ClusterState } from '../../model/index.js';
import { checkWith, SMALL_TIMERS, steps, run } from './helpers.js';

// Renewals every 2 s (so some instants have none: a renewal in the same instant as the pass is
// seen first), a 3 s grace period.
const SET = {
  ...SMALL_TIMERS,
  'kubelet.nodeLeaseDurationSeconds': '8',
  'kubeControllerManager.nodeMonitorGracePeriod': '3s',
  'cluster.nodes': '2',
  'cluster.replicaSetReplicas': '1',
  'cluster.statefulSetReplicas': '0',
  'cluster.controllerManagerCandidates': '1',
  'cluster.schedulerCandidates': '1',
  'faults.nodeCrash': '0',
  'faults.processPause': '1',
};

describe('a stale node-monitor pass after a pause', () => {
  it('should mark healthy nodes Unknown when the paused leader passes before its lease informer catches up', () => {
    const r = run('node-failure', { ...SET, 'faults.processPauseDuration': '4s' }, ['healthy-node-not-unknown']);
    expect(r.status['healthy-node-not-unknown']).toBe('violated');
    const trace = steps(r, 'healthy-node-not-unknown');
    expect(trace.map((s) => s.name)).toContain('process-pause');
    const resume = trace.find((s) => s.name === 'resume-after-pause')!;
    expect(resume.summary).toMatch(/its controllers run before its renew loop/);
    expect(trace.at(-1)!.summary).toMatch(/marks node-1 Ready=Unknown; marks node-2 Ready=Unknown/);
  });

  it('should mark none after a pause shorter than the grace period allows, nor with every renewal delivered', () => {
    // 1 s of pause: the time since the probe stays below the 3 s grace on resume.
    expect(run('node-failure', { ...SET, 'faults.processPauseDuration': '1s' }, ['healthy-node-not-unknown']).status['healthy-node-not-unknown']).toBe('holds');
    // Only a stale pass marks them: with the renewals delivered first (the renew loop ran
    // first), no pass does.
    const r = checkWith('node-failure', { ...SET, 'faults.processPauseDuration': '4s' }, [
      alwaysStep<ClusterState>('only-stale-marks', 'a live node is marked Unknown only by a pass that runs before its informers catch up', (b, a, s) =>
        !(a.name === 'node-monitor' && s.api.nodes.some((o, n) => o?.ready === 'Unknown' && b.api.nodes[n]?.ready !== 'Unknown' && b.nodes[n].up && b.nodes[n].kubeletUp)) || b.candidates[0][0].afterPause === 'stale'),
    ]);
    expect(r.status['only-stale-marks']).toBe('holds');
  });
});

describe('two acting controller-manager leaders and current reads', () => {
  it('should warn that replicaset-at-most-replicas holds by construction where two leaders can act with informers.watchLag 0, and only there', () => {
    const warns = (set: Record<string, string>) => configWarnings(resolveConfig('node-failure', { set })).filter((w) => w.includes('replicaset-at-most-replicas holds by construction'));
    expect(warns({ 'faults.processPause': '1' })).toHaveLength(1);
    expect(warns({ 'faults.sequence': 'process-pause:kube-controller-manager-1' })).toHaveLength(1);
    expect(warns({ 'faults.sequence': 'process-pause:kube-scheduler-1' })).toHaveLength(0);
    expect(warns({ 'faults.processPause': '1', 'informers.watchLag': '1s' })).toHaveLength(0);
    expect(warns({ 'faults.processPause': '1', 'cluster.controllerManagerCandidates': '1' })).toHaveLength(0);
    expect(warns({})).toHaveLength(0);
  });
});
