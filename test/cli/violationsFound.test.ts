/**
 * A violation is reported when it is found: a `kubecheck: found: ...` line on stderr at once, and
 * the outputs (`--out`, and stdout when it is a file of its own) rewritten with the violations so
 * far, so that a run killed before the search ends (a CI job's timeout, a cancelled job) still
 * holds them. The run here finds a 25-step violation early and would search for minutes more.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, openSync, closeSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { BIN, ENV, ROOT } from './run.js';

const KCM = `apiVersion: v1
kind: Pod
metadata: {name: kube-controller-manager, namespace: kube-system}
spec:
  containers:
  - name: kube-controller-manager
    command: [kube-controller-manager, --node-monitor-grace-period=10s]
`;

/** Runs check with stdout to `stdoutPath`, sends `signal` once stderr says a violation was found; resolves with stderr and the exit. */
function killedAfterFound(args: readonly string[], stdoutPath: string, signal: NodeJS.Signals): Promise<{ stderr: string; code: number | null; signal: NodeJS.Signals | null }> {
  return new Promise((resolve) => {
    const out = openSync(stdoutPath, 'w');
    const child = spawn(process.execPath, [BIN, ...args], { cwd: ROOT, env: ENV, stdio: ['ignore', out, 'pipe'] });
    closeSync(out);
    let stderr = '';
    let sent = false;
    child.stderr!.setEncoding('utf8').on('data', (d: string) => {
      stderr += d;
      if (!sent && /^kubecheck: found: /m.test(stderr)) {
        sent = true;
        child.kill(signal);
      }
    });
    child.on('close', (code, sig) => resolve({ stderr, code, signal: sig }));
  });
}

describe('violations reported when found', () => {
  it('should print the violation at once and leave it in --out and in a stdout file when the run is killed', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'kubecheck-found-'));
    writeFileSync(join(dir, 'kcm.yaml'), KCM);
    const config = ['check', '--config', join(dir, 'kcm.yaml'), '--set', 'faults.nodeCrash=1', '--set', 'cluster.nodes=4', '--set', 'cluster.zones=2'];
    const [junit, json] = await Promise.all([
      killedAfterFound([...config, '--format', 'junit', '--out', join(dir, 'report')], join(dir, 'junit.xml'), 'SIGTERM'),
      killedAfterFound([...config, '--json'], join(dir, 'result.json'), 'SIGINT'),
    ]);
    for (const run of [junit, json]) {
      expect(run.code === 0 || run.code === 3).toBe(false); // killed, not finished
      expect(run.stderr).toMatch(/^kubecheck: found: healthy-node-not-unknown violated, a counterexample of \d+ steps \(depth \d+, [\d,]+ distinct states, [\d.]+s\); the search goes on for the other properties$/m);
    }
    const xml = readFileSync(join(dir, 'junit.xml'), 'utf8');
    expect(xml).toMatch(/^<\?xml/);
    expect(xml).toMatch(/<testcase classname="[^"]+" name="healthy-node-not-unknown" time="[\d.]+">\s*<failure /);
    expect(xml).toMatch(/<property name="verdict" value="violation"\/>/);
    expect(xml).toMatch(/warning: partial: written when healthy-node-not-unknown was found/);
    expect(xml.trim().endsWith('</testsuites>')).toBe(true);
    const doc = JSON.parse(readFileSync(join(dir, 'result.json'), 'utf8')) as { verdict: string; properties: { id: string; status: string }[] };
    expect(doc.verdict).toBe('violation');
    expect(doc.properties.find((p) => p.id === 'healthy-node-not-unknown')?.status).toBe('violated');
    expect(doc.properties.some((p) => p.status === 'unknown')).toBe(true);
    expect(readdirSync(join(dir, 'report')).sort()).toEqual(['healthy-node-not-unknown.itf.json', 'healthy-node-not-unknown.timeline.txt', 'result.json']);
    const itf = JSON.parse(readFileSync(join(dir, 'report', 'healthy-node-not-unknown.itf.json'), 'utf8')) as { states: unknown[] };
    expect(itf.states.length).toBeGreaterThan(1);
  });
});
