/**
 * Acceptance 3: `leader-failover` with client-go's 15/10/2 s. Leader election is safe when the
 * leader crashes or is cut off, and unsafe when a process stops longer than leaseDuration or
 * clocks run at different rates (client-go: "not tolerant to arbitrary clock skew rate").
 */
import { describe, expect, it } from 'vitest';
import { run, steps } from './helpers.js';

const ONLY = { 'faults.componentCrash': '0', 'faults.controlPlanePartition': '0', 'faults.controlPlanePartitionHeal': '0' };

describe('leader-failover', () => {
  it('should keep single-leader and witness a failover with the scenario defaults (a crash and a partition)', () => {
    const r = run('leader-failover');
    expect(r.config.kubeControllerManager.leaderElection).toEqual({ leaseDuration: 15, renewDeadline: 10, retryPeriod: 2 });
    expect(r.result.verdict).toBe('ok');
    expect(r.status['single-leader']).toBe('holds');
    expect(r.status['leader-failover']).toBe('witnessed');
  });

  it('should keep single-leader when the leader crashes', () => {
    const r = run('leader-failover', { ...ONLY, 'faults.componentCrash': '1' }, ['single-leader', 'leader-failover']);
    expect(r.status).toEqual({ 'single-leader': 'holds', 'leader-failover': 'witnessed' });
  });

  it('should keep single-leader when the leader is partitioned and the partition heals', () => {
    const r = run('leader-failover', { ...ONLY, 'faults.controlPlanePartition': '1', 'faults.controlPlanePartitionHeal': '1' }, ['single-leader', 'leader-failover']);
    expect(r.status).toEqual({ 'single-leader': 'holds', 'leader-failover': 'witnessed' });
  });

  it('should violate single-leader when the leader pauses longer than leaseDuration', () => {
    const r = run('leader-failover', { ...ONLY, 'faults.processPause': '1', 'faults.processPauseDuration': '20s' }, ['single-leader']);
    expect(r.status['single-leader']).toBe('violated');
    const trace = steps(r, 'single-leader');
    // Shortest: pause the leader at once; its follower takes the Lease once 15 s of its own
    // clock have passed since it last saw a renewal; the violation is the tick at 20 s that
    // wakes the old leader still believing it leads. Fewer steps are impossible: the 20 s of
    // ticks and the follower's retries every 2 s in between are all forced (urgent).
    expect(trace[0].name).toBe('process-pause');
    expect(trace[trace.length - 1].name).toBe('tick');
    expect(trace.filter((s) => s.name === 'tick')).toHaveLength(20);
    expect(trace.some((s) => s.summary.includes('acquires'))).toBe(true);
  });

  it('should keep single-leader when the pause is shorter than leaseDuration', () => {
    const r = run('leader-failover', { ...ONLY, 'faults.processPause': '1', 'faults.processPauseDuration': '10s' }, ['single-leader']);
    expect(r.status['single-leader']).toBe('holds');
  });

  it('should violate single-leader with clock-rate drift beyond leaseDuration/renewDeadline (rate 2)', () => {
    const r = run('leader-failover', { ...ONLY, 'faults.controlPlanePartition': '1', 'faults.clockDrift': '1', 'faults.clockDriftRate': '2' }, ['single-leader']);
    expect(r.status['single-leader']).toBe('violated');
    const trace = steps(r, 'single-leader');
    // The leader is cut off and keeps believing for retryPeriod + renewDeadline = 12 s after its
    // last renewal; a follower whose clock runs twice as fast counts its 15 s leaseDuration in
    // 7.5 s and acquires. The last step is that acquisition.
    expect(trace.map((s) => s.name)).toContain('control-plane-partition');
    expect(trace.map((s) => s.name)).toContain('clock-drift');
    expect(trace[trace.length - 1].name).toBe('leader-try-acquire');
    expect(trace[trace.length - 1].summary).toContain('acquires');
  });

  it('should break single-leader already at rate leaseDuration/renewDeadline = 1.5, and hold at 1.2', () => {
    // client-go's doc gives leaseDuration/renewDeadline as the approximate tolerance. The renew
    // loop gives up only retryPeriod + renewDeadline = 12 s after the last success, so the exact
    // limit is leaseDuration / 12 s = 1.25; with 1 s ticks the follower's retries fall on whole
    // seconds, which makes 1.4 still safe here and 1.5 the first rate found unsafe.
    const set = { ...ONLY, 'faults.controlPlanePartition': '1', 'faults.clockDrift': '1' };
    expect(run('leader-failover', { ...set, 'faults.clockDriftRate': '1.2' }, ['single-leader']).status['single-leader']).toBe('holds');
    expect(run('leader-failover', { ...set, 'faults.clockDriftRate': '1.5' }, ['single-leader']).status['single-leader']).toBe('violated');
  });

  it('should explore a config client-go refuses when asked, and show why it is refused', () => {
    // leaseDuration 10 s = renewDeadline: a cut-off leader believes for 12 s after its last
    // renewal while a follower may take over 10 s after it saw that renewal. A partition alone
    // then breaks single-leader.
    const r = run('leader-failover', { ...ONLY, 'faults.controlPlanePartition': '1', 'kubeControllerManager.leaderElection.leaseDuration': '10s' }, ['single-leader']);
    expect(r.config.allowUnsafe).toBe(true);
    expect(r.status['single-leader']).toBe('violated');
    expect(steps(r, 'single-leader').at(-1)?.summary).toContain('acquires');
  });
});
