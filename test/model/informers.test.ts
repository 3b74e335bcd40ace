/**
 * Stale state: informer caches with lag, ReplicaSet expectations, the kube-scheduler's cache,
 * relists from lagging kube-apiserver watch caches, etcd quorum and reads, etcd restores.
 */
import { describe, expect, it } from 'vitest';
import { alwaysStep, check, sometimes, successors, type Model } from '../../checker/index.js';
import { clusterModel, relistSources, resolveConfig, type ClusterExtension, type ClusterState } from '../../model/index.js';
import { kubernetesModel, replacementBound } from '../../properties/index.js';
import { replacementWithin } from '../../properties/observers.js';
import { checkWith, run, SMALL_TIMERS, steps } from './helpers.js';

/** Short timers, and a 1 s termination grace: the caches and restores are the subject, not how long containers take to stop. */
const SMALL = { ...SMALL_TIMERS, 'cluster.terminationGracePeriodSeconds': '1' };
/** Two nodes, one ReplicaSet pod evicted at once (toleration 0) when its node crashes. */
const ONE_POD = { ...SMALL, 'cluster.nodes': '2', 'cluster.replicaSetReplicas': '1', 'cluster.statefulSetReplicas': '0', 'cluster.replicaSetTolerationSeconds': '0' };

describe('informer caches', () => {
  it('should delay a replacement by up to two cache lags, tight to the tick', () => {
    const set = { ...SMALL, 'informers.watchLag': '2s' };
    const config = resolveConfig('node-failure', { set, allowUnsafe: true });
    const bound = replacementBound(config)!;
    // 2 × 1 s monitor period + 2 s grace + 3 s toleration, then the ReplicaSet controller's and
    // the scheduler's caches, 2 s each.
    expect(bound).toBe(7 + 4);
    const within = (b: number, id: string) => ({ ...replacementWithin(config, { unreachable: b }), id });
    const r = checkWith('node-failure', set, ['replacement-within', 'replicaset-at-most-replicas', within(bound - 1, 'within-bound-1'), within(bound - 2, 'within-bound-2')]);
    expect(r.status).toEqual({ 'replacement-within': 'holds', 'replicaset-at-most-replicas': 'holds', 'within-bound-1': 'holds', 'within-bound-2': 'violated' });
    // Without caches the same search is within 7 s: the 4 s are the caches'.
    const stock = resolveConfig('node-failure', { set: SMALL, allowUnsafe: true });
    expect(replacementBound(stock)).toBe(7);
  });

  it('should hold the ReplicaSet at its replicas while watch events come within ExpectationsTimeout', () => {
    // Expired means older than the timeout ("Since > timeout"), seen at the tick after it; a
    // stream at the lag bound delivers first. So a lag up to the timeout plus one tick is safe
    // (checked at a 1 s timeout: at 2 s and a 3 s lag the same boundary is 200,578 states).
    const r = run('node-failure', { ...ONE_POD, 'informers.watchLag': '2s', 'kubeControllerManager.expectationsTimeout': '1s' }, ['replicaset-at-most-replicas', 'replacement-running']);
    expect(r.status).toEqual({ 'replicaset-at-most-replicas': 'holds', 'replacement-running': 'witnessed' });
  });

  it('should over-create once a watch lags past ExpectationsTimeout, then scale down', () => {
    const set = { ...ONE_POD, 'informers.watchLag': '4s', 'kubeControllerManager.expectationsTimeout': '2s' };
    // ...and already at one tick past the safe lag, at the 1 s timeout of the test above.
    expect(run('node-failure', { ...ONE_POD, 'informers.watchLag': '3s', 'kubeControllerManager.expectationsTimeout': '1s' }, ['replicaset-at-most-replicas']).status['replicaset-at-most-replicas']).toBe('violated');
    const r = run('node-failure', set, ['replicaset-at-most-replicas']);
    expect(r.status['replicaset-at-most-replicas']).toBe('violated');
    const path = steps(r, 'replicaset-at-most-replicas');
    const creates = path.flatMap((s, i) => (s.name === 'replicaset-sync' && /creates/.test(s.summary) ? [i] : []));
    expect(creates).toHaveLength(2);
    expect(path.at(-1)!.name).toBe('replicaset-sync');
    // Between the two creations the controller's cache heard nothing, and more than the 2 s
    // timeout passed: its expectation of the first creation expired unmet.
    const between = path.slice(creates[0] + 1, creates[1]);
    expect(between.some((s) => s.name.startsWith('watch-catch-up') && /kube-controller-manager.*web-/.test(`${s.actor} ${s.summary}`))).toBe(false);
    expect(between.filter((s) => s.name === 'tick').length).toBeGreaterThan(2);
    // ...and the controller corrects it: once its cache catches up it deletes the extra pod.
    const corrected = checkWith('node-failure', set, [sometimes<ClusterState>('scaled-down', 'the ReplicaSet controller deletes an extra pod', (s) => s.api.pods.some((p) => p.deletion === 'replicaset'))]);
    expect(corrected.status['scaled-down']).toBe('witnessed');
    expect(run('node-failure', set, ['replicaset-over-creation']).status['replicaset-over-creation']).toBe('witnessed');
  });

  it('should let a scheduler with a stale Node bind onto a node tainted NoSchedule since, and not without caches', () => {
    expect(run('node-failure', ONE_POD, ['no-schedule-on-unready']).status['no-schedule-on-unready']).toBe('holds');
    const r = run('node-failure', { ...ONE_POD, 'informers.watchLag': '3s' }, ['no-schedule-on-unready']);
    expect(r.status['no-schedule-on-unready']).toBe('violated');
    const path = steps(r, 'no-schedule-on-unready');
    expect(path.at(-1)!.summary).toMatch(/binds web-1 to node-1/);
    expect(path.some((s) => /taints node-1 unreachable:NoSchedule/.test(s.summary))).toBe(true);
  });
});

/** A user's controller with an informer and nothing else: what its cache shows is the test's subject. */
const watcher: ClusterExtension = { name: 'watcher', informer: true, initial: () => null, actions: [] };

/** On a restart, no pod the client's cache showed as it is in the API is shown otherwise (older, or missing) by the relist. */
const noTimeTravel = alwaysStep<ClusterState>('no-time-travel', 'a relist never shows a pod older than the client had seen it', (before, a, after) => {
  if (a.name !== 'extension-restart') return true;
  const text = (p: unknown): string => JSON.stringify(p);
  for (const p of after.api.pods) {
    const was = before.informers!.watcher.pods.find((q) => q.name === p.name);
    const now = after.informers!.watcher.pods.find((q) => q.name === p.name);
    if (was !== undefined && text(was) === text(p) && text(now) !== text(p)) return false;
  }
  return true;
});

function watcherModel(set: Record<string, string>): Model<ClusterState> {
  const config = resolveConfig('node-failure', { set: { ...ONE_POD, 'informers.watchLag': '1s', 'faults.extensionRestart': '1', ...set }, allowUnsafe: true });
  const m = kubernetesModel(config, { extensions: [watcher] });
  return { ...m, properties: [...m.properties, noTimeTravel] };
}

describe('relists from kube-apiserver watch caches', () => {
  it('should serve a restarting client an older state from a lagging kube-apiserver (time travel), not with one kube-apiserver', () => {
    const two = check(watcherModel({ 'cluster.apiservers': '2' }), { properties: ['no-time-travel'] });
    expect(two.properties[0].status).toBe('violated');
    const one = check(watcherModel({ 'cluster.apiservers': '1' }), { properties: ['no-time-travel'] });
    expect(one.properties[0].status).toBe('holds');
  });

  it('should serve a LIST from a watch cache without quorum (serializable) but not from etcd (linearizable)', () => {
    const config = resolveConfig('node-failure', { set: { ...ONE_POD, 'informers.watchLag': '1s', 'cluster.apiservers': '2', 'faults.extensionRestart': '1' }, allowUnsafe: true });
    const s0 = clusterModel(config, { extensions: [watcher] }).initialStates()[0];
    expect(relistSources(s0)).toEqual([0, 1]);
    const noQuorum: ClusterState = { ...s0, etcd: [true, false, false] };
    expect(relistSources(noQuorum)).toEqual([0, 1]);
    expect(relistSources({ ...noQuorum, apiservers: [true] })).toEqual([]);
    expect(relistSources({ ...s0, apiservers: [true] })).toEqual([-1]);
  });

  it('should keep caches where they are while etcd has no quorum (watches make no progress)', () => {
    const set = { ...ONE_POD, 'informers.watchLag': '2s', 'faults.etcdMemberLoss': '2' };
    const frozen = sometimes<ClusterState>('cache-frozen', 'a cache stays behind past the lag while etcd has no quorum', (s) =>
      s.etcd.filter(Boolean).length < 2 && Object.values(s.informers ?? {}).some((c) => c.podsBehind >= 2 || c.nodesBehind >= 2),
    );
    expect(checkWith('node-failure', set, [frozen]).status['cache-frozen']).toBe('witnessed');
  });
});

describe('etcd restore', () => {
  it('should leave phantom pods running after a restore, with a shortest trace ending in the restore', () => {
    const r = run('etcd-restore', {}, ['no-phantom-pods']);
    expect(r.status['no-phantom-pods']).toBe('violated');
    const path = steps(r, 'no-phantom-pods').filter((s) => s.name !== 'tick');
    expect(path.at(-1)!.name).toBe('etcd-restore');
    // What the restore rolls back: the replacement the ReplicaSet made and the kubelet started.
    expect(path.some((s) => s.name === 'kubelet-sync' && /starts web-2/.test(s.summary))).toBe(true);
    const last = r.result.properties[0].trace!.states.at(-1)!;
    expect(last.api.pods.map((p) => p.name)).not.toContain('web-2');
    expect(last.nodes.some((n) => n.running.includes('web-2') && n.podWatchStuck === true)).toBe(true);
  });

  it('should stop a phantom container once its kubelet restarts and relists', () => {
    const r = run('etcd-restore', {}, ['no-phantom-pods'], { stopAtFirstViolation: true });
    // From the violation on, a kubelet may crash and restart (budgets given to the steps here, not
    // to the search: a model whose config grants them lists those faults).
    const model = kubernetesModel({ ...r.config, faults: { ...r.config.faults, kubeletCrash: 1, kubeletRestart: 1 } });
    const last = r.result.properties[0].trace!.states.at(-1)!;
    let s: ClusterState = { ...last, budget: { ...last.budget, kubeletCrash: 1, kubeletRestart: 1 } };
    const n = s.nodes.findIndex((x) => x.running.includes('web-2'));
    const step = (name: string, param = `node-${n + 1}`): void => {
      // The urgent work due first runs before (only the first due urgent action is enabled).
      for (let i = 0; i < 20 && !successors(model, s).some((x) => x.action.name === name); i++) s = successors(model, s)[0].state;
      const next = successors(model, s).find((x) => x.action.name === name && (x.action.param === undefined || x.action.param === param));
      expect(next, name).toBeDefined();
      s = next!.state;
    };
    step('kubelet-crash');
    step('kubelet-restart');
    expect(s.nodes[n].podWatchStuck).toBeUndefined();
    // The relisted kubelet finds no pod object for web-2 and sends SIGTERM; its containers run
    // until they exit or the grace period ends.
    step('kubelet-sync');
    expect(s.nodes[n].terminating?.map((t) => t.pod)).toContain('web-2');
    step('container-exit', `web-2@node-${n + 1}`);
    expect(s.nodes[n].running).not.toContain('web-2');
  });

  it('should hold no-phantom-pods without a restore, force deletes and Node deletions included', () => {
    expect(run('node-partition', { ...SMALL, 'operator.forceDeletePod': '1' }, ['no-phantom-pods']).status['no-phantom-pods']).toBe('holds');
    expect(run('node-failure', { ...SMALL, 'operator.deleteNode': '1' }, ['no-phantom-pods']).status['no-phantom-pods']).toBe('holds');
    expect(run('node-failure', { ...SMALL, 'faults.nodeCrash': '0', 'faults.kubeletCrash': '1', 'operator.forceDeletePod': '1' }, ['no-phantom-pods']).status['no-phantom-pods']).toBe('holds');
  });
});
