/**
 * The suite of the remediation operator written on an informer cache: deleting by name lets a
 * stale view delete a live pod; expectations stop its own cache's lag but not a restart that
 * lists from a lagging kube-apiserver ("time travel"); a uid precondition stops both.
 */
import { describe, expect, it } from 'vitest';
import { check, type Model } from '../../checker/index.js';
import { resolveConfig, type ClusterState } from '../../model/index.js';
import { kubernetesModel } from '../../properties/index.js';
import { timelineSteps } from '../../reports/timeline.js';
import { cachedRemediationOperator, remediationSparesHealthyPods, type CachedRemediationOptions } from './cachedRemediation.js';

/** A crashed node, a StatefulSet pod on it, two kube-apiservers, caches up to 1 s behind; short timers keep the space small. */
function model(options: CachedRemediationOptions, restarts = 1): Model<ClusterState> {
  const config = resolveConfig('node-failure', {
    set: {
      'cluster.nodes': '2',
      'cluster.replicaSetReplicas': '0',
      'cluster.apiservers': '2',
      'cluster.controllerManagerCandidates': '1',
      'cluster.schedulerCandidates': '1',
      'cluster.statefulSetTolerationSeconds': '0',
      'cluster.replicaSetTolerationSeconds': '0',
      'kubelet.nodeLeaseDurationSeconds': '4',
      'kubeControllerManager.nodeMonitorPeriod': '1s',
      'kubeControllerManager.nodeMonitorGracePeriod': '2s',
      'informers.watchLag': '1s',
      'faults.extensionRestart': String(restarts),
    },
  });
  const m = kubernetesModel(config, { extensions: [cachedRemediationOperator(options)] });
  return { ...m, properties: [...m.properties, remediationSparesHealthyPods] };
}

const PROPS = ['remediation-spares-healthy-pods', 'statefulset-at-most-one'];

describe('remediation operator on an informer cache', () => {
  it('should delete the recreated db-0 on a healthy node when it deletes by name from its lagging cache', () => {
    const m = model({ deleteBy: 'name' });
    const r = check(m, { properties: PROPS, stopAtFirstViolation: true });
    const p = r.properties.find((x) => x.id === 'remediation-spares-healthy-pods')!;
    expect(p.status).toBe('violated');
    const steps = timelineSteps(m, p.trace!);
    const names = p.trace!.actions.map((a) => a.name);
    // Its own cache lags: it deletes db-0, the StatefulSet controller recreates it (uid 1) on the
    // other node, and the operator, still seeing uid 0 on the NotReady node, deletes "db-0" again.
    expect(names.filter((n) => n === 'cached-remediation-force-delete')).toHaveLength(2);
    expect(names).not.toContain('extension-restart');
    expect(steps[steps.length - 1].summary).toMatch(/force-deletes db-0 by name \(its cache: uid 0 on node-1, NotReady\); the API's db-0 is uid 1 on node-2/);
  });

  it('should still delete it after a restart that lists from a lagging kube-apiserver, with expectations', () => {
    const m = model({ deleteBy: 'name', expectations: true });
    const r = check(m, { properties: PROPS, stopAtFirstViolation: true });
    const p = r.properties.find((x) => x.id === 'remediation-spares-healthy-pods')!;
    expect(p.status).toBe('violated');
    const steps = timelineSteps(m, p.trace!);
    const restart = steps.find((s) => s.action.name === 'extension-restart')!;
    // The time travel: the relist is served by kube-apiserver-2's watch cache, behind the API.
    expect(restart.summary).toMatch(/cached-remediation restarts and lists .* resourceVersion="0" from kube-apiserver-\d \(its watch cache lags the API.*the list goes back in time\)/);
    const deletes = steps.filter((s) => s.action.name === 'cached-remediation-force-delete');
    expect(deletes).toHaveLength(2);
    expect(steps.indexOf(deletes[0])).toBeLessThan(steps.indexOf(restart));
    expect(steps.indexOf(restart)).toBeLessThan(steps.indexOf(deletes[1]));
  });

  it('should spare healthy pods with expectations when it never restarts', () => {
    const r = check(model({ deleteBy: 'name', expectations: true }, 0), { properties: PROPS });
    expect(r.verdict).toBe('ok');
  });

  it('should spare healthy pods on every path when it deletes with a uid precondition', () => {
    const r = check(model({ deleteBy: 'uid' }, 0), { properties: PROPS });
    expect(r.verdict).toBe('ok');
    expect(r.stats.distinctStates).toBeGreaterThan(1_000);
    // With a restart from a lagging kube-apiserver too: no violation in the first 200,000 states
    // (the whole space, with pods and Nodes lagging apart in five caches, takes minutes).
    const bounded = check(model({ deleteBy: 'uid' }), { properties: PROPS, maxStates: 200_000 });
    expect(bounded.properties.every((p) => p.status !== 'violated')).toBe(true);
  });
});
