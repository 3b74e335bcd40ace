/**
 * `kubecheck size`: which settings multiply a check's states. Its counts are the ones a plain
 * `check` computes at the same values (run beside it here, not written down), the setting that
 * truly multiplies comes first, a check a bound stopped points to it, and bad input is one line.
 */
import { describe, expect, it } from 'vitest';
import { splitArgs } from './literate.js';
import { kubecheckAsync, type Run } from './run.js';

interface SizePoint { readonly value: number; readonly distinctStates: number; readonly finished: boolean }
interface SizeJson {
  readonly command: string;
  readonly target: { readonly distinctStates: number; readonly finished: boolean };
  readonly parameters: readonly { readonly key: string; readonly target: number; readonly factor: number | null; readonly points: readonly SizePoint[] }[];
  readonly estimate: { readonly distinctStates: number | null; readonly exact: boolean };
  readonly fit: { readonly set: Readonly<Record<string, number>>; readonly estimate: number } | null;
}

const distinct = (r: Run): number => (JSON.parse(r.stdout) as { stats: { distinctStates: number } }).stats.distinctStates;

/** Exit 2 and exactly one line on stderr, `kubecheck: <code>: ...`, never a stack trace. */
function expectOneLine(r: Run, code: string, pattern: RegExp): void {
  const lines = r.stderr.split('\n').filter((l) => l !== '');
  expect({ code: r.code, lines }, r.stderr).toMatchObject({ code: 2, lines: [expect.stringMatching(new RegExp(`^kubecheck: ${code}: `))] });
  expect(lines[0]).toMatch(pattern);
  expect(r.stderr).not.toMatch(/^\s+at /m);
}

describe('kubecheck size', () => {
  it('should name the node-crash budget as what multiplies node-failure, with the counts check computes at each value', async () => {
    const [size, text, ...checks] = await Promise.all([
      // Bounded by states alone: a loaded machine must not stop the two-crash search by time.
      kubecheckAsync(['size', '--json', '-q', '--probe-time', '10m']),
      kubecheckAsync(['size', '--vary', 'faults.nodeCrash', '--max-states', '1000', '-q', '--probe-time', '10m']),
      ...[0, 1, 2].map((c) => kubecheckAsync(['check', '--set', `faults.nodeCrash=${c}`, '--json', '-q'])),
    ]);
    expect(size.code, size.stderr).toBe(0);
    const j = JSON.parse(size.stdout) as SizeJson;
    expect(j.command).toBe('size');
    // node-failure as given finishes: it is measured, not estimated.
    expect(j.target).toMatchObject({ finished: true, distinctStates: distinct(checks[1]) });
    expect(j.estimate).toMatchObject({ exact: true, distinctStates: distinct(checks[1]) });
    // The budget of node crashes multiplies most, and its counts are check's at 0, 1 and 2 crashes.
    const crash = j.parameters[0];
    expect(crash.key).toBe('faults.nodeCrash');
    expect(crash.points.map((p) => [p.value, p.distinctStates, p.finished])).toEqual([0, 1, 2].map((c) => [c, distinct(checks[c]), true]));
    expect(distinct(checks[0])).toBeLessThan(distinct(checks[1]));
    expect(distinct(checks[1])).toBeLessThan(distinct(checks[2]));
    expect(crash.factor).toBeCloseTo(distinct(checks[2]) / distinct(checks[1]), 6);
    // Every other setting the default check uses grows it less.
    for (const p of j.parameters.slice(1)) expect(p.factor ?? 0).toBeLessThan(crash.factor!);
    expect(j.parameters.map((p) => p.key)).toEqual(expect.arrayContaining(['cluster.nodes', 'cluster.replicaSetReplicas', 'cluster.statefulSetReplicas']));

    // In text: the row and the values that fit 1,000 states (none crashing: as check counts it).
    expect(text.code, text.stderr).toBe(0);
    const n = (x: number): string => x.toLocaleString('en-US');
    expect(text.stdout).toMatch(new RegExp(`^  faults\\.nodeCrash +1 +0: ${n(distinct(checks[0]))} · 1: ${n(distinct(checks[1]))} · 2: ${n(distinct(checks[2]))} +×\\d+\\.\\d +×\\d+\\.\\d$`, 'm'));
    expect(text.stdout).toMatch(new RegExp(`^to fit --max-states 1,000 \\(1,000 states\\): --set faults\\.nodeCrash=0 \\(${n(distinct(checks[0]))} distinct states \\(measured\\)\\)$`, 'm'));
  });

  it('should size a check that does not finish around smaller values, and estimate it above what the bound let through', async () => {
    const args = ['--scenario', 'two-phase-commit', '--set', 'rms=6'];
    const [size, small] = await Promise.all([
      kubecheckAsync(['size', ...args, '--probe-states', '2000', '--probe-time', '10m', '--max-states', '5000', '--json', '-q']),
      kubecheckAsync(['check', '--scenario', 'two-phase-commit', '--set', 'rms=1', '--json', '-q']),
    ]);
    expect(size.code, size.stderr).toBe(0);
    const j = JSON.parse(size.stdout) as SizeJson;
    expect(j.target.finished).toBe(false);
    const rms = j.parameters.find((p) => p.key === 'rms')!;
    // Measured around rms = 1 (its least value + 1): the count there is check's.
    expect(rms.points.find((p) => p.value === 1)).toMatchObject({ distinctStates: distinct(small), finished: true });
    expect(j.estimate.distinctStates).toBeGreaterThan(2000);
    expect(j.fit?.set.rms).toBeLessThan(6);
  });

  it('should point a check a bound stopped to the size command of the same settings, which runs', async () => {
    const args = ['check', '--scenario', 'two-phase-commit', '--set', 'rms=5', '--max-states', '300', '-q'];
    const [stopped, whole] = await Promise.all([kubecheckAsync(args), kubecheckAsync(['check', '--scenario', 'two-phase-commit', '--set', 'rms=4', '-q'])]);
    expect(stopped.code).toBe(3);
    const line = stopped.stderr.split('\n').filter((l) => l.startsWith('kubecheck: incomplete: '));
    expect(line).toEqual([expect.stringMatching(/^kubecheck: incomplete: 300 states in \d+s; (levels of [\d,]+ states on average|[\d,]+ states a level over \d+ levels).*; `kubecheck size --scenario two-phase-commit --set rms=5 --max-states 300` shows which settings drive it$/)]);
    // The command it names runs, and says what fits the bound that stopped the check.
    const command = /`kubecheck (size [^`]*)`/.exec(line[0])![1];
    const sized = await kubecheckAsync([...splitArgs(command), '-q', '--probe-time', '10m']);
    expect(sized.code, sized.stderr).toBe(0);
    expect(sized.stdout).toMatch(/^  rms +5 +4: [\d,]+ · 5: [\d,]+ · 6: [\d,]+ +×\d/m);
    expect(sized.stdout).toMatch(/^to fit --max-states 300 \(300 states\): --set rms=\d/m);
    // A check that finishes says nothing of it.
    expect(whole.code).toBe(0);
    expect(whole.stderr).not.toMatch(/kubecheck size/);
  });

  it('should refuse bad input in one line, exit 2', async () => {
    const runs = await Promise.all([
      kubecheckAsync(['size', '--vary', 'cluster.nodez']),
      kubecheckAsync(['size', '--vary', 'kubernetesVersion']),
      kubecheckAsync(['size', '--max-states', '-5']),
      kubecheckAsync(['size', '--probe-states', '0']),
      kubecheckAsync(['size', '--probe-time', '-3s']),
      kubecheckAsync(['size', '--set', 'faults.nodeCrash=-1']),
      kubecheckAsync(['size', '--scenario', 'two-phase-commit', '--vary', 'bug']),
    ]);
    expectOneLine(runs[0], 'KC212', /unknown parameter cluster\.nodez \(--vary\); the settings this check uses: .*faults\.nodeCrash/);
    expectOneLine(runs[1], 'KC200', /--vary kubernetesVersion: not a count nor a duration/);
    expectOneLine(runs[2], 'KC200', /--max-states/);
    expectOneLine(runs[3], 'KC200', /--probe-states/);
    expectOneLine(runs[4], 'KC200', /--probe-time must not be negative/);
    expectOneLine(runs[5], 'KC107', /faults\.nodeCrash/);
    expectOneLine(runs[6], 'KC200', /--vary bug: not a count nor a duration/);
  });
});
