/**
 * Kubelet Lease renewals are jittered (component-helpers' lease controller:
 * `JitterUntil(renewInterval, 0.04, sliding)`): a renewal can come up to 1.04 × renewInterval
 * after the previous one. A grace period at the renew interval flaps a healthy node; one quantum
 * above it does not.
 */
import { describe, expect, it } from 'vitest';
import { run, steps } from './helpers.js';

const healthy = (grace: string) => run('node-failure', { 'faults.nodeCrash': '0', 'kubeControllerManager.nodeMonitorGracePeriod': grace }, ['healthy-node-not-unknown']);

describe('kubelet Lease renewal jitter', () => {
  it('should mark a healthy node Unknown when a late renewal passes a grace period equal to the renew interval', () => {
    const r = healthy('10s');
    expect(r.status['healthy-node-not-unknown']).toBe('violated');
    const trace = steps(r, 'healthy-node-not-unknown');
    // No fault at all: a renewal one quantum late is what does it.
    expect(trace.some((x) => x.actor === 'fault' || x.actor === 'operator')).toBe(false);
    expect(trace.some((x) => x.name === 'kubelet-heartbeat' && x.summary.includes('(jitter)'))).toBe(true);
  });

  it('should keep a healthy node Ready with a grace period one quantum above the renew interval', () => {
    expect(healthy('11s').status['healthy-node-not-unknown']).toBe('holds');
  });
});
