/**
 * An operator's own properties travel with it: `check --extension` checks what the module
 * declares by default, beside the cluster's properties, and finds the operator's bug there.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { fromItfValue, type ItfValue } from '../../reports/itf.js';
import { kubecheckAsync } from './run.js';

const CONFIG = ['--scenario', 'node-failure', '--config', 'test/cli/fixtures/stale-remediation.yaml', '--set', 'faults.extensionRestart=0'];
const work = mkdtempSync(join(tmpdir(), 'kubecheck-extprops-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

describe('check --extension with the extension\'s own properties', () => {
  it('should find the operator\'s bug in its own property by default, and hold with the fix', async () => {
    const [bug, fix] = await Promise.all([
      kubecheckAsync(['check', ...CONFIG, '--extension', 'examples/remediation-operator/cachedRemediation.ts', '--property', 'remediation-spares-healthy-pods', '--json']),
      kubecheckAsync(['check', ...CONFIG, '--extension', 'examples/remediation-operator/cachedRemediationFixed.ts', '--json']),
    ]);
    expect(bug.code, bug.stderr).toBe(1);
    const b = JSON.parse(bug.stdout) as {
      properties: { id: string; status: string; why?: string }[];
      counterexamples: { property: string; why?: string; timeline: { action: { name: string; param?: string } }[]; itf: { states: ItfValue[] } }[];
    };
    expect(b.properties.find((x) => x.id === 'remediation-spares-healthy-pods')?.status).toBe('violated');
    // Its own cache lags: it deletes db-0, and deletes the recreated db-0 by name again.
    const trace = b.counterexamples.find((c) => c.property === 'remediation-spares-healthy-pods')!;
    const deletes = trace.timeline.filter((t) => t.action.name === 'cached-remediation-force-delete');
    expect(deletes).toHaveLength(2);
    // The property's own explain hook says which pod it wrongly deleted, read here off the state before that delete.
    const pod = deletes[1].action.param!;
    const before = fromItfValue(trace.itf.states[trace.itf.states.length - 2]) as { api: { pods: { name: string; uid?: number; nodeName: number }[] } };
    const victim = before.api.pods.find((p) => p.name === pod)!;
    expect(trace.why).toBe(`it deletes ${pod} (uid ${victim.uid ?? 0}), running on node-${victim.nodeName + 1}, which is Ready`);
    expect(b.properties.find((x) => x.id === 'remediation-spares-healthy-pods')?.why).toBe(trace.why);
    // Checked by default with the fix: listed among the properties without being asked for.
    const f = JSON.parse(fix.stdout) as { properties: { id: string; status: string }[] };
    expect(f.properties.find((x) => x.id === 'remediation-spares-healthy-pods')?.status).toBe('holds');
  }, 180_000);

  it('should refuse a property whose id is a built-in one with a coded line and exit 2', async () => {
    const file = join(work, 'clash.mjs');
    writeFileSync(file, [
      'export default {',
      "  name: 'clash', initial: () => null, actions: [],",
      "  properties: [{ kind: 'invariant', id: 'single-leader', description: 'mine', holds: () => true }],",
      '};',
    ].join('\n'));
    const r = await kubecheckAsync(['check', '--scenario', 'node-failure', '--extension', file]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/^kubecheck: KC107: extension clash declares property single-leader, which is a built-in property/m);
    expect(r.stderr).not.toMatch(/\n\s+at /);
  });

  it('should give a throw from an extension\'s step one coded line naming it, never an uncoded error', async () => {
    const file = join(work, 'boom.mjs');
    writeFileSync(file, [
      'export default {',
      "  name: 'boom', initial: () => 0,",
      "  actions: [{ name: 'boom-act', apply: () => { throw new TypeError('kaboom'); } }],",
      '};',
    ].join('\n'));
    const r = await kubecheckAsync(['check', '--scenario', 'node-failure', '--extension', file]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/^kubecheck: KC110: extension boom: the step boom-act threw: TypeError: kaboom$/m);
    expect(r.stderr).not.toMatch(/unexpected error/);
  });

  it('should name a bad config before it loads an extension (its code never runs on a config that is refused)', async () => {
    const file = join(work, 'loud.mjs');
    writeFileSync(file, "process.stderr.write('extension loaded\\n');\nexport default { name: 'loud', initial: () => 0, actions: [] };\n");
    const r = await kubecheckAsync(['check', '--set', 'kubernetesVersion=9.99', '--extension', file]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/^kubecheck: KC104: kubernetesVersion: "9\.99" is not a Kubernetes release/m);
    expect(r.stderr).not.toMatch(/extension loaded/);
  });

  it('should run timing and diff on a scenario whose extension declares properties', async () => {
    const r = await kubecheckAsync(['diff', '--set', 'faults.nodeCrash=0', '--extension', 'examples/backup-operator/backupOperatorFixed.ts']);
    expect(r.stderr).not.toMatch(/not a Kubernetes scenario/);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/base: ok, head: ok/);
  }, 120_000);
});
