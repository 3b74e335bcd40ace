/**
 * `kubecheck explain` counts from the failure, says where in the heartbeat cycle it fell, and
 * folds routine work that repeats identically.
 */
import { describe, expect, it } from 'vitest';
import { kubecheckAsync } from './run.js';

describe('kubecheck explain', () => {
  it('should count times from the failure and place it in the failed node\'s heartbeat cycle', async () => {
    const r = await kubecheckAsync(['explain', 'node-failure', '--json']);
    expect(r.code).toBe(0);
    const json = JSON.parse(r.stdout) as {
      config: { kubeControllerManager: { nodeMonitorGracePeriod: string; nodeMonitorPeriod: string } };
      failure: { time: number; actor: string; summary: string; heartbeat: { node: string; interval: number; untilNext: number; sinceRenewal: number } };
      goals: { id: string; time: number; sinceFailure: number }[];
    };
    const grace = Number.parseInt(json.config.kubeControllerManager.nodeMonitorGracePeriod, 10);
    const monitor = Number.parseInt(json.config.kubeControllerManager.nodeMonitorPeriod, 10);
    const { failure } = json;
    expect(failure.actor).toBe('fault');
    expect(failure.summary).toMatch(/^node-\d crashes/);
    expect(failure.heartbeat.node).toBe(/^(node-\d)/.exec(failure.summary)![1]);
    expect(failure.heartbeat.sinceRenewal + failure.heartbeat.untilNext).toBe(failure.heartbeat.interval);
    const unknown = json.goals.find((g) => g.id === 'node-marked-unknown')!;
    expect(unknown.sinceFailure).toBe(unknown.time - failure.time);
    // Marked Unknown a grace period after the last renewal (on the next monitor pass), not after the crash.
    const afterRenewal = unknown.sinceFailure + failure.heartbeat.sinceRenewal;
    expect(afterRenewal).toBeGreaterThanOrEqual(grace);
    expect(afterRenewal).toBeLessThan(grace + monitor);

    const text = await kubecheckAsync(['explain', 'node-failure', '--no-color']);
    expect(text.stdout).toContain(`counted from the failure (T+0s: ${failure.summary}, ${failure.time}s into the run)`);
    expect(text.stdout).toContain(`The failure fell ${failure.heartbeat.sinceRenewal}s into ${failure.heartbeat.node}'s ${failure.heartbeat.interval}s heartbeat cycle`);
    expect(text.stdout).toMatch(new RegExp(`\\nT-${failure.time}s +clock`));
    expect(text.stdout).toMatch(/\nT\+0s +fault +node-\d crashes/);
    expect(text.stdout).toContain(`node-marked-unknown  reached at T+${unknown.sinceFailure}s after the failure`);
  });

  it('should fold identical repeated heartbeat blocks into one line', async () => {
    const r = await kubecheckAsync(['explain', 'node-failure', '--all-steps', '--no-color']);
    expect(r.code).toBe(0);
    const lines = r.stdout.split('\n');
    const folds = lines.filter((l) => /…\s+the same (line|\d+ lines) again \d+ times/.test(l));
    expect(folds.length).toBeGreaterThan(0);
    expect(lines.length).toBeLessThan(300); // 470 steps unfolded
    // No two consecutive identical renewal lines remain.
    const renewals = lines.filter((l) => /renew their Lease/.test(l)).map((l) => l.replace(/^T[+-]\S+\s+/, ''));
    expect(renewals.length).toBeLessThan(20);
  });
});
