import { describe, expect, it } from 'vitest';
import { kubecheckAsync } from './run.js';

/** Seconds of a `T+5m55s` time. */
function seconds(t: string): number {
  const m = /^T\+(?:(\d+)m)?(?:(\d+)s)?$/.exec(t);
  if (!m) throw new Error(`not a time: ${t}`);
  return Number(m[1] ?? 0) * 60 + Number(m[2] ?? 0);
}

describe('kubecheck explain node-failure', () => {
  it('should narrate the documented node-failure sequence with the config times, routine work folded', async () => {
    const r = await kubecheckAsync(['explain', 'node-failure']);
    expect(r.code).toBe(0);
    const lines = r.stdout.split('\n').filter((l) => l.startsWith('T+'));
    const at = (pattern: RegExp): { line: number; time: number } => {
      const i = lines.findIndex((l) => pattern.test(l));
      expect(i, `no line matches ${pattern}`).toBeGreaterThanOrEqual(0);
      return { line: i, time: seconds(lines[i].split(/\s+/)[0]) };
    };
    // reference/node-failure-sequence.txt: heartbeats stop, Unknown, taints, eviction,
    // replacement created, scheduled, started; in that order.
    const crash = at(/node-\d crashes/);
    const unknown = at(/marks node-\d Ready=Unknown/);
    const noSchedule = at(/taints node-\d unreachable:NoSchedule/);
    const noExecute = at(/taints node-\d unreachable:NoExecute/);
    const evicted = at(/evicts web-\d/);
    const created = at(/replicaset\s+creates web-\d/);
    const bound = at(/kube-scheduler\s+binds web-\d to node-\d/);
    const started = at(/starts web-\d on node-\d/);
    const order = [crash, unknown, noSchedule, noExecute, evicted, created, bound, started].map((x) => x.line);
    expect(order).toEqual([...order].sort((a, b) => a - b));
    // Times from the config: the last heartbeat is at T+0 (renewals every 10 s, phase 0), the
    // grace period is 50 s and the monitor period 5 s, so Unknown falls in (50 s, 60 s]; the
    // eviction comes 300 s (tolerationSeconds) after the taint is observed.
    expect(unknown.time).toBeGreaterThan(50);
    expect(unknown.time).toBeLessThanOrEqual(60);
    expect(evicted.time - noExecute.time).toBe(300);
    // Routine renewals and passes that change nothing are folded with the clock.
    expect(r.stdout).not.toMatch(/no change/);
    expect(r.stdout).toMatch(/pass \(\d+ steps, \d+ of routine work\)/);
    expect(lines.length).toBeLessThan(20);
  });

  it('should show every step with --all-steps', async () => {
    const r = await kubecheckAsync(['explain', 'node-failure', '--all-steps']);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/renew their Lease/);
  });
});
