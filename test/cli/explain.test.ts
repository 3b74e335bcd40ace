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
    const scheduled = at(/schedules deletion of web-\d in 300s/);
    const evicted = at(/evicts web-\d/);
    const created = at(/replicaset\s+creates web-\d/);
    const bound = at(/kube-scheduler\s+binds web-\d to node-\d/);
    const started = at(/starts web-\d on node-\d/);
    const order = [crash, unknown, noSchedule, noExecute, scheduled, evicted, created, bound, started].map((x) => x.line);
    expect(order).toEqual([...order].sort((a, b) => a - b));
    // Times count from the failure (the crash is T+0s), and the narration says how long before
    // it the node last renewed its Lease: the timeouts run from that renewal. A monitor pass
    // every 5 s sees it 0–4 s later (probeTimestamp) and marks the node Unknown on the pass at
    // probeTimestamp + 50 s grace, so 50 … 54 s after the renewal; the NoSchedule taint follows
    // at once. The NoExecute taint comes on the next pass, exactly one 5 s monitor period later
    // (that pass is the first to observe Unknown), the deletion is scheduled when the taint is
    // observed and carried out 300 s (tolerationSeconds) later.
    expect(crash.time).toBe(0);
    const since = Number(/The failure fell (\d+)s into node-\d's 10s heartbeat cycle/.exec(r.stdout)?.[1]);
    expect(since).toBeGreaterThanOrEqual(0);
    expect(since).toBeLessThan(10);
    expect(unknown.time + since).toBeGreaterThanOrEqual(50);
    expect(unknown.time + since).toBeLessThanOrEqual(54);
    expect(noSchedule.time).toBe(unknown.time);
    expect(noExecute.time - unknown.time).toBe(5);
    expect(scheduled.time).toBe(noExecute.time);
    expect(evicted.time - noExecute.time).toBe(300);
    expect(created.time).toBe(evicted.time);
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
