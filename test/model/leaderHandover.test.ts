/**
 * A clean handover's time (`leader-handover-within`, `model.jitteredFollowerTries`): after a
 * leading kube-scheduler releases its Lease (ReleaseOnCancel), its standby takes it at its next
 * try, and with the followers' jittered schedule (client-go's `wait.JitterUntil(RetryPeriod,
 * JitterFactor 1.2)`) that try comes at most 2.2 × retryPeriod after the standby's last one,
 * rounded up to the tick: 5s with the defaults. Both ends on every path of the exhaustive search,
 * the bound's violation one second below, and the refusal without the schedule.
 */
import { describe, expect, it } from 'vitest';
import { check, forEachTransition } from '../../checker/index.js';
import { resolveConfig, type ClusterState } from '../../model/index.js';
import { kubernetesModel } from '../../properties/index.js';
import { checkPropertyIds } from '../../cli/subjects.js';

const SET = { 'faults.nodeCrash': '0', 'operator.componentStop': '1', 'model.jitteredFollowerTries': 'true' };

describe('leader-handover-within: a standby takes a released Lease on its jittered schedule', () => {
  const rp = resolveConfig('node-failure').kubeScheduler.leaderElection.retryPeriod;
  const latest = Math.ceil(rp * 2.2);

  it('should hand the kube-scheduler Lease over from 0s to 2.2 × retryPeriod (rounded up to the tick) after a clean stop, on every path', () => {
    const model = kubernetesModel(resolveConfig('node-failure', { set: SET }));
    const times: number[] = [];
    const stats = forEachTransition(model, (before: ClusterState, _a, after: ClusterState) => {
      const b = before.api.leases[1];
      if (b.holder < 0 && b.releasedFor !== undefined && after.api.leases[1].holder >= 0) times.push(b.releasedFor);
    });
    expect(stats.complete).toBe(true);
    expect(Math.min(...times)).toBe(0);
    expect(Math.max(...times)).toBe(latest);
    expect(latest).toBe(5);
  });

  it('should hold at the default bound and be violated one tick below it, with a shortest trace', () => {
    const held = check(kubernetesModel(resolveConfig('node-failure', { set: SET })), { properties: ['leader-handover-within'] });
    expect(held.properties[0].status).toBe('holds');
    const below = check(kubernetesModel(resolveConfig('node-failure', { set: { ...SET, 'model.leaderHandoverBound': `${latest - 1}s` } })), { properties: ['leader-handover-within'] });
    const v = below.properties[0];
    expect(v.status).toBe('violated');
    expect(v.trace?.actions.some((a) => a.name === 'component-stop')).toBe(true);
    expect(v.trace?.states.at(-1)?.api.leases[1].releasedFor).toBe(latest);
  });

  it('should measure nothing with the default abstraction, say so, and be refused there by the command line', () => {
    const config = resolveConfig('node-failure', { set: { 'faults.nodeCrash': '0', 'operator.componentStop': '1' } });
    const property = kubernetesModel(config).properties.find((p) => p.id === 'leader-handover-within')!;
    expect(property.description).toMatch(/needs model\.jitteredFollowerTries=true/);
    const subject = { properties: [{ id: 'leader-handover-within' }] } as unknown as Parameters<typeof checkPropertyIds>[0];
    expect(() => checkPropertyIds(subject, ['leader-handover-within'], { model: { jitteredFollowerTries: false } })).toThrow(/jitteredFollowerTries=true/);
    expect(() => checkPropertyIds(subject, ['leader-handover-within'], { model: { jitteredFollowerTries: true } })).not.toThrow();
  });
});
