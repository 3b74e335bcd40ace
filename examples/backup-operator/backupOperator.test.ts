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

  it('finds the same verdicts and the same shortest trace without the uid and resourceVersion renaming', async () => {
    for (const claim of [false, true]) {
      const { model, properties } = await cluster(claim);
      const exact = { ...model, view: (s: unknown) => exactEncoding(s), canonicalize: undefined, canonicalView: undefined };
      const reduced = check(model, { properties, symmetry: false });
      const unreduced = check(exact, { properties, symmetry: false });
      expect(reduced.properties.map((p) => [p.id, p.status, p.trace?.actions.length])).toEqual(unreduced.properties.map((p) => [p.id, p.status, p.trace?.actions.length]));
      expect(reduced.stats.distinctStates).toBeLessThanOrEqual(unreduced.stats.distinctStates);
    }
  });
});
