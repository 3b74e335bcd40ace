import { describe, expect, it } from 'vitest';
import { kubecheckAsync } from './run.js';

describe('kubecheck simulate --coverage', () => {
  it('should report the distinct states visited as a share of the exhaustive count', async () => {
    const r = await kubecheckAsync(['simulate', '--scenario', 'two-phase-commit', '--seed', '1', '--runs', '300', '--coverage']);
    expect(r.code).toBe(3); // no violation in random runs: incomplete, never "holds"
    const m = /coverage: ([\d,]+) distinct states visited \(([\d.]+)% of the 288 reachable states\)/.exec(r.stdout);
    expect(m, r.stdout).not.toBeNull();
    const visited = Number(m![1].replace(/,/g, ''));
    expect(visited).toBeGreaterThan(0);
    expect(visited).toBeLessThanOrEqual(288); // TLC's count for TwoPhase n=3
    expect(Number(m![2])).toBeCloseTo((100 * visited) / 288, 1);
  });
});
