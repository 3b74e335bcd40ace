/**
 * The restarter's suite: counting the deletions it sees never completes once a delete and the
 * recreation reach it as one change (found as a lasso under fairness); comparing the worker's uid
 * with the one it deleted completes on every fair path, on the whole space.
 */
import { describe, expect, it } from 'vitest';
import { expectEventually, expectHolds, expectLivenessViolation, expectViolation, kubernetesScenario } from 'kubecheck/testing';
import { objectOf } from 'kubecheck/operator';
import { timelineSteps } from '../../reports/timeline.js';
import { restartCounter, workerSet } from './restartCounter.js';

/** One node, none of the cluster's own workloads, no fault: the two controllers' interleavings are the space. */
const SMALL = { 'faults.nodeCrash': '0', 'cluster.nodes': '1', 'cluster.replicaSetReplicas': '0', 'cluster.statefulSetReplicas': '0' };
const cluster = (levelTriggered: boolean) =>
  kubernetesScenario('node-failure', { set: SMALL, extensions: [workerSet, restartCounter({ levelTriggered })] });

describe('restart counter', () => {
  it('counting the deletions it sees, waits for good when the delete and the recreation reach it as one change', async () => {
    const { model, liveness } = await cluster(false);
    expect(liveness.map((p) => p.id)).toContain('restart-completed');
    const lasso = await expectLivenessViolation(model, liveness, 'restart-completed');
    // The shortest way into a fair cycle that never completes: 16 steps (worker-set creates db-0
    // and both hear it; the restarter records Restarting and deletes db-0; worker-set hears the
    // DELETE, creates db-0 again and hears that; only then the restarter's informer hears DELETED
    // and ADDED, and its one reconcile sees db-0 back), then time passing with nothing to do.
    expect(lasso.loop).toBe(16);
    // The cycle is time passing until the state repeats (26 ticks before the zone limiters and
    // tolerations were modelled, 13 since; which of them halved it was not isolated).
    expect(lasso.actions.length - lasso.loop).toBe(13);
    // A timeline reads a trace's states and actions (its path only replays it): the prefix's steps.
    const steps = timelineSteps(model, { ...lasso, path: { initial: 0, steps: [] } }).slice(0, lasso.loop);
    const summaries = steps.map((s) => `${s.actor}: ${s.summary}`);
    const heard = (what: string) => summaries.indexOf(`restart-counter: its informer hears ${what} Worker/db-0 (rv-${what === 'DELETED' ? 5 : 6})`);
    expect(summaries).toContain('restart-counter: delete Worker/db-0 (preconditions uid=uid-3): ok');
    expect(summaries.filter((s) => s === 'worker-set: create Worker/db-0: ok')).toHaveLength(2);
    expect(heard('DELETED')).toBeGreaterThan(summaries.lastIndexOf('worker-set: create Worker/db-0: ok'));
    expect(heard('ADDED')).toBe(heard('DELETED') + 1);
    expect(summaries.at(-1)).toBe('restart-counter: reconciles db-restart (its cache has RestartRequest db-restart at rv-4): nothing to write');
    const stuck = lasso.states[lasso.loop];
    expect(objectOf(stuck, 'RestartRequest', 'db-restart')?.status).toEqual({ phase: 'Restarting', restarts: 0 });
    // Every state of the cycle: db-0 is back (uid-4, the one deleted was uid-3), and the request still waits.
    for (const s of lasso.states.slice(lasso.loop)) {
      expect(objectOf(s, 'RestartRequest', 'db-restart')?.status).toEqual({ phase: 'Restarting', restarts: 0 });
      expect(objectOf(s, 'Worker', 'db-0')?.metadata.uid).toBe('uid-4');
    }
  });

  it('counting the deletions it sees, is found stuck by a plain check too: both controllers rest and the request is not done', async () => {
    const { model, properties } = await cluster(false);
    expect(properties).toContain('restart-counter-not-stuck');
    // The lasso's prefix: the state its cycle of ticks starts from.
    const trace = await expectViolation(model, 'restart-counter-not-stuck');
    expect(trace.actions.length).toBe(16);
    expect(objectOf(trace.states.at(-1)!, 'RestartRequest', 'db-restart')?.status).toEqual({ phase: 'Restarting', restarts: 0 });
  });

  it('comparing uids, completes both restarts on every fair path of the whole space', async () => {
    const { model, properties, liveness } = await cluster(true);
    const safety = await expectHolds(model, { properties });
    expect(safety.stats.distinctStates).toBeGreaterThan(5_000);
    await expectEventually(model, liveness);
  });
});
