/**
 * An operator's replicas elect their leader as client-go's leaderelection does: a leader that
 * cannot renew stops leading retryPeriod + renewDeadline after its last renewal (the renew loop's
 * poll times out, OnStoppedLeading, controller-runtime exits), before time passes; a paused one
 * does not run, and when it resumes its controllers may act before its renew loop notices. So the
 * single-leader property holds under a partition exactly when leaseDuration > retryPeriod +
 * renewDeadline, and a pause breaks it whatever the timings (leader election is no fencing).
 */
import { describe, expect, it } from 'vitest';
import { check } from '../../checker/index.js';
import { kubernetesScenario } from '../../api/testing.js';
import { timelineSteps } from '../../reports/timeline.js';
import { backupOperator } from '../../examples/backup-operator/backupOperator.js';
import { SMALL_TIMERS } from '../model/helpers.js';

type Timings = { leaseDurationSeconds: number; renewDeadlineSeconds: number; retryPeriodSeconds: number };
// One node, no workloads and small node timers: the operator's replicas and their Lease are what
// is searched (about 16 s each on a loaded 2-core machine; with the default timers and workloads,
// minutes).
const ONE_NODE = {
  ...SMALL_TIMERS,
  'faults.nodeCrash': '0',
  'cluster.nodes': '1',
  'cluster.controllerManagerCandidates': '1',
  'cluster.schedulerCandidates': '1',
  'cluster.replicaSetReplicas': '0',
  'cluster.statefulSetReplicas': '0',
};
const replicas = (claim: boolean, leaderElection: Timings, faults: Record<string, string>) =>
  kubernetesScenario('node-failure', { set: { ...ONE_NODE, ...faults }, extensions: [backupOperator({ claim, replicas: 2, label: false, leaderElection })] });
const statusOf = (r: ReturnType<typeof check>, id: string) => r.properties.find((p) => p.id === id)?.status;

describe("an operator's leader election", () => {
  it('under a partition alone, a leader cut off stops leading in time when leaseDuration > retryPeriod + renewDeadline: one leader on the whole space', async () => {
    const { model, properties } = await replicas(true, { leaseDurationSeconds: 4, renewDeadlineSeconds: 2, retryPeriodSeconds: 1 }, { 'faults.operatorPartition': '1' });
    const r = check(model, { properties });
    expect(r.stoppedBy).toBeUndefined();
    expect(statusOf(r, 'backup-operator-single-leader')).toBe('holds');
    expect(statusOf(r, 'backup-operator-external-call-once')).toBe('holds');
  });

  it('under a partition alone, two leaders when leaseDuration is only retryPeriod + renewDeadline', async () => {
    const { model, properties } = await replicas(true, { leaseDurationSeconds: 3, renewDeadlineSeconds: 2, retryPeriodSeconds: 1 }, { 'faults.operatorPartition': '1' });
    const r = check(model, { properties: ['backup-operator-single-leader'] });
    expect(statusOf(r, 'backup-operator-single-leader')).toBe('violated');
    const trace = r.properties[0].trace!;
    expect(trace.actions.map((a) => a.name)).toContain('backup-operator-partition');
    expect(trace.actions.map((a) => a.name)).not.toContain('backup-operator-pause');
  });

  it('a paused leader does not stop; resumed past its Lease its controllers may run beside the new leader, whose fix (the claim) still holds', async () => {
    const timings = { leaseDurationSeconds: 4, renewDeadlineSeconds: 2, retryPeriodSeconds: 1 };
    const { model } = await replicas(true, timings, { 'faults.operatorPause': '1', 'faults.processPauseDuration': '5s' });
    const r = check(model, { properties: ['backup-operator-single-leader', 'backup-operator-external-call-once'] });
    expect(r.stoppedBy).toBeUndefined();
    expect(statusOf(r, 'backup-operator-single-leader')).toBe('violated');
    expect(statusOf(r, 'backup-operator-external-call-once')).toBe('holds');
    const steps = timelineSteps(model, r.properties.find((p) => p.id === 'backup-operator-single-leader')!.trace!).map((s) => s.summary);
    expect(steps).toContain('resumes; its controllers run before its renew loop notices its renew deadline has passed (leader election is no fencing)');
  });
});
