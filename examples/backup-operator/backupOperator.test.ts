/**
 * The backup operator's suite, as its authors would write it with `kubecheck/testing`: the bug is
 * found with its shortest trace, the fix holds on the whole space, and the fix's price (a restart
 * between claim and call leaves the Backup Running) shows as a liveness lasso.
 */
import { describe, expect, it } from 'vitest';
import { check, exactEncoding } from 'kubecheck';
import { expectEventually, expectHolds, expectLivenessViolation, expectViolation, kubernetesScenario } from 'kubecheck/testing';
import { timelineSteps } from '../../reports/timeline.js';
import { backupOperator } from './backupOperator.js';
import { timings } from './twoReplicas.js';

/** The default cluster, no node fault: the operator's own interleavings are the space. */
const cluster = (claim: boolean, restarts = 0) =>
  kubernetesScenario('node-failure', { set: { 'faults.nodeCrash': '0', 'faults.extensionRestart': String(restarts) }, extensions: [backupOperator({ claim })] });

describe('backup operator', () => {
  it('takes a second backup when a label change requeues it before its cache shows Done', async () => {
    const { model, properties } = await cluster(false);
    expect(properties).toContain('backup-operator-external-call-once');
    const trace = await expectViolation(model, 'backup-operator-external-call-once');
    const summaries = timelineSteps(model, trace).map((s) => `${s.actor}: ${s.summary}`);
    // Shortest: reconcile, call, the user's label, the informer hears the label (not Done), the
    // stale reconcile, the second call. The status write may come before or after the label.
    expect(trace.actions.length).toBe(7);
    expect(summaries.filter((s) => /calls? take-backup nightly: ok/.test(s))).toHaveLength(2);
    expect(summaries).toContain('user: kubectl label backup nightly team=db');
    expect(summaries.some((s) => /reconciles nightly \(its cache has Backup nightly at rv-2\)/.test(s))).toBe(true);
  });

  it('with the claim, never takes two, also across a restart of the operator', async () => {
    for (const restarts of [0, 1]) {
      const { model, properties } = await cluster(true, restarts);
      await expectHolds(model, { properties });
    }
  });

  it('with the claim, every Backup is eventually Done when the operator does not restart', async () => {
    const { model, liveness } = await cluster(true);
    expect(liveness.map((p) => p.id)).toContain('backup-done');
    await expectEventually(model, liveness);
  });

  it('with the claim, a restart between the claim and the call leaves the Backup Running for good', async () => {
    const { model, liveness } = await cluster(true, 1);
    const lasso = await expectLivenessViolation(model, liveness, 'backup-done');
    const before = lasso.actions.slice(0, lasso.loop).map((a) => a.name);
    expect(before).toContain('backup-operator-restart');
    await expect(expectEventually(model, liveness)).rejects.toThrow(/backup-done violated[\s\S]*loop starts here/);
  });

  it('takes the backup again when the answer to its Done write is lost; with the claim it never does, but a lost claim answer leaves the Backup Running', async () => {
    const lost = (claim: boolean) =>
      kubernetesScenario('node-failure', { set: { 'faults.nodeCrash': '0', 'faults.operatorLostAnswer': '1' }, extensions: [backupOperator({ claim, label: false })] });
    const bug = await lost(false);
    const trace = await expectViolation(bug.model, 'backup-operator-external-call-once');
    const summaries = timelineSteps(bug.model, trace).map((s) => s.summary);
    expect(summaries.some((s) => /^patchStatus Backup\/nightly from backup-operator reaches the kube-apiserver \(ok\), but the answer is lost/.test(s))).toBe(true);
    const fixed = await lost(true);
    await expectHolds(fixed.model, { properties: fixed.properties });
    const lasso = await expectLivenessViolation(fixed.model, fixed.liveness, 'backup-done');
    expect(lasso.actions.slice(0, lasso.loop).map((a) => a.name)).toContain('backup-operator-lost-answer');
  });

  it('finds the same verdicts and the same shortest trace without the uid and resourceVersion renaming', async () => {
    for (const claim of [false, true]) {
      const { model, properties } = await cluster(claim);
      const exact: typeof model = { ...model, view: (s: unknown) => exactEncoding(s), canonicalize: undefined, canonicalView: undefined, plainView: undefined };
      const reduced = check(model, { properties, symmetry: false });
      const unreduced = check(exact, { properties, symmetry: false });
      expect(reduced.properties.map((p) => [p.id, p.status, p.trace?.actions.length])).toEqual(unreduced.properties.map((p) => [p.id, p.status, p.trace?.actions.length]));
      expect(reduced.stats.distinctStates).toBeLessThanOrEqual(unreduced.stats.distinctStates);
    }
  });

  it('calls out again when its status write finds it cut off from the kube-apiserver and it retries; the claim stops that', async () => {
    const cut = (claim: boolean) => kubernetesScenario('node-failure', { set: { 'faults.nodeCrash': '0', 'faults.operatorPartition': '1' }, extensions: [backupOperator({ claim, label: false })] });
    const buggy = await cut(false);
    const trace = await expectViolation(buggy.model, 'backup-operator-external-call-once');
    const summaries = timelineSteps(buggy.model, trace).map((s) => s.summary);
    expect(summaries).toContain('backup-operator is cut off from the kube-apiserver (keeps running)');
    expect(summaries.some((s) => /^patchStatus Backup\/nightly: no answer \(cut off from the kube-apiserver\), so the reconcile of nightly fails and nightly is queued again$/.test(s))).toBe(true);
    const fixed = await cut(true);
    await expectHolds(fixed.model, { properties: fixed.properties });
  });

  describe('as two replicas with leader election', () => {
    /** The settings of one-node.yaml and a 5 s pause: the operator's replicas are the space. */
    const replicas = (claim: boolean) =>
      kubernetesScenario('node-failure', {
        set: {
          'faults.nodeCrash': '0', 'faults.operatorPause': '1', 'faults.processPauseDuration': '5s',
          'cluster.nodes': '1', 'cluster.replicaSetReplicas': '0', 'cluster.statefulSetReplicas': '0', 'cluster.controllerManagerCandidates': '1', 'cluster.schedulerCandidates': '1',
          'kubelet.nodeLeaseDurationSeconds': '4', 'kubeControllerManager.nodeMonitorPeriod': '1s',
        },
        extensions: [backupOperator({ claim, replicas: 2, label: false, leaderElection: timings })],
      });

    it('lets a leader paused past its Lease run beside the new one, and both take the backup', async () => {
      const { model, properties } = await replicas(false);
      expect(properties).toEqual(expect.arrayContaining(['backup-operator-single-leader', 'backup-operator-external-call-once']));
      const both = await expectViolation(model, 'backup-operator-single-leader', { stopAtFirstViolation: true });
      const names = both.actions.map((a) => a.name);
      expect(names).toContain('backup-operator-pause');
      const twice = await expectViolation(model, 'backup-operator-external-call-once', { stopAtFirstViolation: true });
      const steps = timelineSteps(model, twice);
      // Shortest: the leader calls out and is paused before it writes Done; the Lease expires for the
      // other replica, which takes it, reconciles from its cache (no Done) and calls out again.
      const calls = steps.filter((s) => s.summary === 'call take-backup nightly: ok');
      expect(calls).toHaveLength(2);
      expect(calls[0].actor).not.toBe(calls[1].actor);
      expect(steps.some((s) => s.actor === 'fault' && s.summary === `${calls[0].actor} is paused (stop-the-world) for 5s`)).toBe(true);
      expect(steps.some((s) => s.actor === calls[1].actor && s.summary === `takes backup-operator-leader from ${calls[0].actor} (unchanged for 4s) and starts its controller`)).toBe(true);
    });

    it('with the claim, no second backup on the whole space, though both replicas still act as leader at once', async () => {
      const { model } = await replicas(true);
      // Leader election is not fencing: two replicas still run their controllers at once.
      await expectViolation(model, 'backup-operator-single-leader', { stopAtFirstViolation: true });
      const whole = check(model, { properties: ['backup-operator-external-call-once'] });
      expect([whole.stoppedBy, whole.properties[0].status]).toEqual([undefined, 'holds']);
    });
  });
});
