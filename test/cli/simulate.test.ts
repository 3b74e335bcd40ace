import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { kubecheckAsync, ROOT } from './run.js';

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

describe('the seeds docs/testing-in-ci.md reports', () => {
  it('should find node-partition\'s 6-step force-delete violation with seeds 1 to 8, after the runs the page gives', async () => {
    const runs = await Promise.all([1, 2, 3, 4, 5, 6, 7, 8].map((seed) => kubecheckAsync(['simulate', '--scenario', 'node-partition', '--set', 'operator.forceDeletePod=1', '--property', 'statefulset-at-most-one', '--runs', '50', '--seed', String(seed), '--json'], { timeoutMs: 400_000 })));
    const found = runs.map((r) => {
      expect(r.code, r.stderr).toBe(1);
      const j = JSON.parse(r.stdout) as { simulation: { runs: number }; counterexamples: { property: string; steps: number }[] };
      expect(j.counterexamples.map((c) => [c.property, c.steps])).toEqual([['statefulset-at-most-one', 6]]);
      return j.simulation.runs;
    });
    const page = readFileSync(join(ROOT, 'docs/testing-in-ci.md'), 'utf8').replace(/\s+/g, ' ');
    expect(page).toContain(`seeds 1 to 8 each found the 6-step violation, after ${found.slice(0, -1).join(', ')} and ${found[found.length - 1]} runs`);
  }, 600_000);
});
