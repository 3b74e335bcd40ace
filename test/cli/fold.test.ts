/**
 * A long counterexample in the terminal reads like a short one: node-failure's liveness lasso
 * (500 steps) is a few lines, its loop marked where it starts; `--unfold` prints every step, and
 * replay of the lasso's ITF file marks the loop too.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { kubecheckAsync } from './run.js';

/** The lasso's timeline lines (from `initial` to `final`) of a `check --liveness` output. */
function lassoLines(stdout: string): { lines: string[]; loop: number; steps: number } {
  const head = /as a lasso: (\d+) steps, then a cycle of (\d+) steps/.exec(stdout)!;
  const loop = Number(head[1]);
  const steps = loop + Number(head[2]);
  const all = stdout.slice(head.index).split('\n');
  const from = all.findIndex((l) => l.startsWith('initial'));
  const to = all.findIndex((l) => l.startsWith('final'));
  return { lines: all.slice(from + 1, to).filter((l) => !l.startsWith(' ')), loop, steps };
}

describe('folded counterexamples on the command line', () => {
  it('should print a 500-step lasso in a few lines with its loop marked, and every step with --unfold', async () => {
    const out = mkdtempSync(join(tmpdir(), 'kc-fold-'));
    const [folded, unfolded] = await Promise.all([
      kubecheckAsync(['check', '--scenario', 'node-failure', '--liveness', '--out', out, '--force']),
      kubecheckAsync(['check', '--scenario', 'node-failure', '--liveness', '--unfold']),
    ]);
    expect(folded.code).toBe(1);
    const f = lassoLines(folded.stdout);
    expect(f.steps).toBeGreaterThan(400);
    expect(f.lines.length).toBeLessThan(20);
    const mark = `── loop starts here (steps ${f.loop + 1}..${f.steps} repeat) ──`;
    expect(f.lines).toContain(mark);
    expect(f.lines).toContainEqual(expect.stringMatching(/^T\+9s\s+fault\s+node-\d crashes: its containers and kubelet stop$/));
    // The folded ranges and the lines of single steps cover 1..n once, in order; none spans the loop's start.
    let k = 1;
    for (const line of f.lines) {
      if (line === mark) {
        expect(k).toBe(f.loop + 1);
        continue;
      }
      const range = /\((\d+) steps: (\d+)–(\d+)\)$/.exec(line);
      if (range === null) {
        k++;
        continue;
      }
      expect(Number(range[2])).toBe(k);
      k = Number(range[3]) + 1;
    }
    expect(k).toBe(f.steps + 1);

    expect(unfolded.code).toBe(1);
    const u = lassoLines(unfolded.stdout);
    expect(u.lines).toHaveLength(f.steps + 1);
    expect(u.lines[f.loop]).toBe(mark);
    expect(u.lines.filter((l) => /\(\d+ steps: \d+–\d+\)$/.test(l))).toEqual([]);

    // Replaying the lasso marks its loop as check did; --unfold prints every step.
    const file = join(out, 'liveness-statefulset-identity-eventually-running.itf.json');
    const [replay, replayAll] = await Promise.all([kubecheckAsync(['replay', file]), kubecheckAsync(['replay', file, '--unfold'])]);
    expect(replay.stdout).toContain(mark);
    expect(replay.stdout.split('\n').length).toBeLessThan(80);
    expect(replayAll.stdout).toContain(mark);
    expect(replayAll.stdout.split('\n').filter((l) => /^T[+-]/.test(l))).toHaveLength(f.steps);
  });
});
