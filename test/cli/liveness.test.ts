/** `kubecheck check --liveness`: the liveness properties, their lassos, the exit code and --json. */
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { kubecheck } from './run.js';

const SMALL = ['--set', 'kubelet.nodeLeaseDurationSeconds=4', '--set', 'kubeControllerManager.nodeMonitorPeriod=1s', '--set', 'kubeControllerManager.nodeMonitorGracePeriod=2s', '--set', 'kubeApiserver.defaultUnreachableTolerationSeconds=3'];

describe('kubecheck check --liveness', () => {
  it('should warn in one line, in the text and in result.json, of a leads-to that holds only because its trigger is never reached', () => {
    const out = join(mkdtempSync(join(tmpdir(), 'kubecheck-vacuous-')), 'report');
    const args = ['check', '--liveness', '--set', 'faults.nodeCrash=0', '--set', 'cluster.nodes=1', '--set', 'cluster.replicaSetReplicas=0', '--set', 'cluster.statefulSetReplicas=0', '--set', 'cluster.controllerManagerCandidates=1', '--set', 'cluster.schedulerCandidates=1', '--extension', 'test/cli/fixtures/vacuous-leads-to.ts'];
    const line = 'failed-retried holds vacuously: its trigger (the left side of its leads-to) is reached in no explored state, so nothing tested what it promises';
    const text = kubecheck([...args, '--out', out]);
    expect(text.code).toBe(0);
    expect(text.stdout).toMatch(/✓ failed-retried {2}holds/);
    expect(text.stdout).toMatch(/✓ pending-done {2}holds/);
    // One line, for the vacuous one only.
    expect(text.stdout.split('\n').filter((l) => l.includes('vacuously'))).toEqual([`warning: ${line}`]);
    const result = JSON.parse(readFileSync(join(out, 'result.json'), 'utf8')) as { warnings?: string[]; liveness: { id: string; premiseReached?: boolean }[] };
    expect(result.warnings).toEqual([line]);
    expect(readFileSync(join(out, 'report.md'), 'utf8')).toContain(`> ⚠️ **Warning:** ${line}`);
    // The checker says it of every leads-to (the cluster's own liveness properties are of other kinds).
    expect(result.liveness.filter((l) => l.premiseReached !== undefined).map((l) => [l.id, l.premiseReached])).toEqual([['failed-retried', false], ['pending-done', true]]);
  });


  it('should report each liveness property, a lasso for the StatefulSet identity lost with its node, and exit 1', () => {
    const r = kubecheck(['check', '--scenario', 'node-failure', '--liveness', ...SMALL]);
    expect(r.code).toBe(1);
    expect(r.stdout).toMatch(/✓ replicas-eventually-running {2}holds/);
    expect(r.stdout).toMatch(/✗ statefulset-identity-eventually-running {2}violated/);
    expect(r.stdout).toMatch(/as a lasso: \d+ steps, then a cycle of (\d+ steps|stuttering) back to the state after step \d+, forever/);
    expect(r.stdout).toContain('liveness: 1 property violated (exit 1)');
  });

  it('should keep the safety result and exit 3 when the liveness graph is past its bound', () => {
    const r = kubecheck(['check', '--scenario', 'node-partition', '--liveness', '--liveness-max-states', '100', '--json', ...SMALL]);
    expect(r.code).toBe(3);
    const out = JSON.parse(r.stdout) as { verdict: string; properties: { status: string }[]; liveness: { status: string; reason: string }[] };
    expect(out.verdict).toBe('incomplete');
    expect(out.properties.every((p) => p.status !== 'unknown')).toBe(true);
    expect(out.liveness.map((l) => l.status)).toEqual(['unknown', 'unknown', 'unknown']);
    expect(out.liveness[0].reason).toContain('more than 100 states');
    const text = kubecheck(['check', '--scenario', 'node-partition', '--liveness', '--liveness-max-states', '100', ...SMALL]);
    expect(text.stdout).toContain('liveness: 3 properties not decided: the space has more than 100 states');
  });

  it('should give the lassos in --json with their loop index', () => {
    const r = kubecheck(['check', '--scenario', 'node-partition', '--liveness', '--json', ...SMALL]);
    expect(r.code).toBe(0);
    const out = JSON.parse(r.stdout) as { liveness: { id: string; status: string }[] };
    expect(out.liveness.map((l) => [l.id, l.status])).toEqual([
      ['replicas-eventually-running', 'holds'],
      ['statefulset-identity-eventually-running', 'holds'],
      ['lease-eventually-held', 'holds'],
    ]);
    const crashed = JSON.parse(kubecheck(['check', '--scenario', 'node-failure', '--liveness', '--json', ...SMALL]).stdout) as { liveness: { id: string; lasso?: { loop: number; length: number } }[] };
    const lasso = crashed.liveness.find((l) => l.id === 'statefulset-identity-eventually-running')!.lasso!;
    expect(lasso.loop).toBeGreaterThan(0);
    expect(lasso.loop).toBeLessThanOrEqual(lasso.length);
  });

  it('should give one verdict and exit code in --json, result.json, report.md and the exit status when a liveness property is violated', () => {
    const out = join(mkdtempSync(join(tmpdir(), 'kubecheck-live-')), 'report');
    const r = kubecheck(['check', '--scenario', 'node-failure', '--liveness', '--json', '--out', out, ...SMALL]);
    const json = JSON.parse(r.stdout) as { verdict: string; exitCode: number; liveness: { id: string; status: string }[] };
    expect(json.liveness.find((l) => l.id === 'statefulset-identity-eventually-running')?.status).toBe('violated');
    expect({ verdict: json.verdict, exitCode: json.exitCode, code: r.code }).toEqual({ verdict: 'violation', exitCode: 1, code: 1 });
    const result = JSON.parse(readFileSync(join(out, 'result.json'), 'utf8')) as { verdict: string; exitCode: number; liveness: unknown[] };
    expect({ verdict: result.verdict, exitCode: result.exitCode }).toEqual({ verdict: 'violation', exitCode: 1 });
    expect(result.liveness).toHaveLength(3);
    expect(readFileSync(join(out, 'report.md'), 'utf8')).toMatch(/: violation\n\nModel `kubernetes[^`]*`; exit code 1\./);
    const text = kubecheck(['check', '--scenario', 'node-failure', '--liveness', ...SMALL]);
    expect(text.stdout).not.toMatch(/\(exit 0\)/);
    expect(text.stdout).toMatch(/a liveness property is violated \(exit 1, see below\)/);
  });

  it('should write each lasso as an ITF trace with its loop index, which replay reproduces, and refuse one whose cycle does not close', () => {
    const out = join(mkdtempSync(join(tmpdir(), 'kubecheck-live-')), 'report');
    expect(kubecheck(['check', '--scenario', 'node-failure', '--liveness', '--out', out, ...SMALL]).code).toBe(1);
    const file = join(out, 'liveness-statefulset-identity-eventually-running.itf.json');
    const trace = JSON.parse(readFileSync(file, 'utf8')) as { loop: number; states: unknown[] };
    expect(trace.loop).toBeGreaterThan(0);
    const html = readFileSync(join(out, 'report.html'), 'utf8');
    expect(html).toContain('Liveness counterexample (lasso) to <code>statefulset-identity-eventually-running</code>');
    expect(html).toContain(`The cycle starts after step ${trace.loop}`);
    expect((html.match(/<li data-step="\d+" class="cycle">/g) ?? []).length).toBe(trace.states.length - 1 - trace.loop);
    const replay = kubecheck(['replay', '--quiet', file]);
    expect(replay.code).toBe(1);
    expect(replay.stdout).toMatch(/statefulset-identity-eventually-running violated/);
    const broken = join(out, '..', 'broken.itf.json');
    writeFileSync(broken, JSON.stringify({ ...trace, loop: 1 }));
    const bad = kubecheck(['replay', broken]);
    expect(bad.code).toBe(2);
    expect(bad.stderr.trim().split('\n')).toEqual([expect.stringMatching(/^kubecheck: KC206: .*no cycle closes there/)]);
  });
});
