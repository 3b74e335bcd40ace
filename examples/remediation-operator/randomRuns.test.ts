/**
 * What a platform team sees in its own suite: random runs find the remediation operator's
 * double-running StatefulSet pod (swarm runs: some leave the partition's repair out), and a
 * failing assertion leads with the fault, the violating step and the final state.
 */
import { describe, expect, it } from 'vitest';
import { simulate } from '../../checker/index.js';
import { expectHolds, expectNoRandomViolation } from '../../api/testing.js';
import { resolveConfig } from '../../model/index.js';
import { kubernetesModel } from '../../properties/index.js';
import { remediationOperator } from './remediationOperator.js';

const model = () => kubernetesModel(resolveConfig('node-partition'), { extensions: [remediationOperator()] });

describe('random runs against the remediation operator', () => {
  it('should find the double-running db-0 that exhaustive search finds, with every seed tried', async () => {
    for (const seed of [1, 2, 12345678901]) {
      const error = await expectNoRandomViolation(model(), { seed, runs: 300, maxSteps: 600, properties: ['statefulset-at-most-one'], scenario: 'node-partition', log: () => {} })
        .then(() => undefined, (e: Error) => e);
      expect(error, `seed ${seed}`).toBeInstanceOf(Error);
      const message = error!.message;
      expect(message).toContain(`seed ${seed}`);
      expect(message).toMatch(/✗ statefulset-at-most-one violated \(\d+ steps/);
      expect(message).toMatch(/fault\s+T\+[\dhms]+\s+fault\s+node-\d is cut off/);
      expect(message).toMatch(/violation\s+T\+[\dhms]+\s+kubelet\/node-\d\s+starts db-0/);
      expect(message).toMatch(/\d+ of \d+ actions taken, \d+ fault steps \(swarm runs\)/);
    }
  });

  it('should miss it with uniform choice, which repairs the partition within seconds', () => {
    const uniform = simulate(model(), { seed: 1, runs: 100, maxSteps: 600, properties: ['statefulset-at-most-one'], swarm: false });
    expect(uniform.verdict).toBe('incomplete');
    const swarm = simulate(model(), { seed: 1, runs: 100, maxSteps: 600, properties: ['statefulset-at-most-one'] });
    expect(swarm.verdict).toBe('violation');
  });

  it('should lead a failing check with the few lines that matter and point to the full report', async () => {
    const error = await expectHolds(model(), { properties: ['statefulset-at-most-one'], scenario: 'node-partition' }).then(() => undefined, (e: Error) => e);
    const lines = error!.message.split('\n');
    expect(lines.length).toBeLessThan(25);
    expect(lines[0]).toMatch(/^expected every property of node-partition to hold/);
    const text = error!.message;
    expect(text).toMatch(/✗ statefulset-at-most-one violated \((\d+) steps, ([\dhms]+) of model time\)/);
    const steps = Number(/violated \((\d+) steps/.exec(text)![1]);
    expect(steps).toBeGreaterThan(100); // the full trace is long; the message is not
    expect(text).toMatch(/fault\s+T\+[\dhms]+\s+fault\s+node-\d is cut off from the control plane/);
    expect(text).toMatch(/… +\d+ other steps \(in the report\)/);
    expect(text).toMatch(/violation\s+T\+[\dhms]+\s+kubelet\/node-\d\s+starts db-0/);
    expect(text).toMatch(/final state:\n {6}node-1 /);
    expect(text).not.toMatch(/renews its Lease/);
    expect(text).toMatch(/full report: \S+report\.md/);
  });
});
