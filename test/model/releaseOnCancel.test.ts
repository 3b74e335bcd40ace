/**
 * A clean shutdown of a leader (`component-stop`, SIGTERM in a rolling upgrade): kube-scheduler
 * sets client-go's ReleaseOnCancel, so its Lease is released on the way out (empty holder,
 * leaseDurationSeconds 1) and the standby acquires on its next try, within one retry period;
 * kube-controller-manager does not, so its standby waits for the lease to expire, as after a
 * crash. Both ends: the earliest takeover after the stop, on every path of the exhaustive search.
 */
import { describe, expect, it } from 'vitest';
import { check, sometimes, type Trace } from '../../checker/index.js';
import { resolveConfig, type ClusterState } from '../../model/index.js';
import { kubernetesModel } from '../../properties/index.js';

/** Seconds from the stop (or crash) step to the end of a witness trace. */
function secondsAfter(model: ReturnType<typeof kubernetesModel>, trace: Trace<ClusterState>): number {
  // The sequence's timed step (its fault named in the parameter).
  const at = trace.actions.findIndex((a) => a.name === 'sequence-fault-due');
  expect(at, 'the trace has the sequence step').toBeGreaterThanOrEqual(0);
  let t = 0;
  for (let i = at + 1; i < trace.actions.length; i++) t += model.elapsed?.(trace.states[i], trace.actions[i], trace.states[i + 1]) ?? 0;
  return t;
}

/** The earliest a standby of election `e` leads after `step` stops or crashes candidate 1 (breadth-first: fewest steps, every step a tick or forced work). */
function takeover(e: 0 | 1, step: 'component-stop' | 'component-crash'): number {
  const target = e === 0 ? 'kube-controller-manager-1' : 'kube-scheduler-1';
  const config = resolveConfig('leader-failover', {
    set: { 'faults.componentCrash': '0', 'faults.controlPlanePartition': '0', 'cluster.controllerManagerCandidates': '2', 'cluster.schedulerCandidates': '2', 'faults.sequence': `${step}:${target}+4s` },
  });
  const base = kubernetesModel(config);
  const goal = sometimes<ClusterState>('standby-leads', 'the standby leads', (s) => s.candidates[e][1].leader);
  const model = { ...base, properties: [...base.properties, goal] };
  const r = check(model, { properties: ['standby-leads', 'single-leader'] });
  expect(r.properties.find((p) => p.id === 'single-leader')?.status).toBe('holds');
  const witness = r.properties.find((p) => p.id === 'standby-leads');
  expect(witness?.status).toBe('witnessed');
  return secondsAfter(model, witness!.trace!);
}

describe('component-stop: a clean shutdown releases the Lease where the component sets ReleaseOnCancel', () => {
  const le = resolveConfig('leader-failover').kubeScheduler.leaderElection;

  it('should let the kube-scheduler standby lead within one retry period of a clean stop, and only after the lease expires after a crash', () => {
    // The standby's next try after it reads the released record: the model takes the earliest (any instant).
    const stopped = takeover(1, 'component-stop');
    expect(stopped).toBeLessThanOrEqual(le.retryPeriod);
    const crashed = takeover(1, 'component-crash');
    expect(crashed).toBeGreaterThanOrEqual(le.leaseDuration - le.retryPeriod);
  });

  it('should make the kube-controller-manager standby wait for the lease to expire after a clean stop (no ReleaseOnCancel)', () => {
    const kcm = resolveConfig('leader-failover').kubeControllerManager.leaderElection;
    expect(takeover(0, 'component-stop')).toBeGreaterThanOrEqual(kcm.leaseDuration - kcm.retryPeriod);
  });
});
