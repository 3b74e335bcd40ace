/**
 * The `--json` object, schema 1: versioned, every counterexample, structured diffs, seeds whole.
 */
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { always, check, type Model } from '../../checker/index.js';
import { twoPhasePlain } from '../../examples/two-phase-commit/index.js';
import { kubecheckAsync } from './run.js';
import { outcomeJson, JSON_SCHEMA_VERSION } from '../../reports/json.js';

describe('--json schema 1', () => {
  it('should carry the schema version and every counterexample with structured changes', () => {
    const buggy = twoPhasePlain({ rms: 3, bug: 'commit-on-any-prepared' });
    const model = { ...buggy, properties: [...buggy.properties, always<(typeof buggy extends Model<infer S> ? S : never)>('never-aborted', 'no resource manager aborts', (s) => !s.rmState.includes('aborted'))] };
    const result = check(model);
    expect(result.properties.filter((p) => p.status === 'violated')).toHaveLength(2);
    const json = outcomeJson(model, result, { command: 'check', scenario: 'two-phase-commit' }) as Record<string, unknown>;
    expect(json.schema).toBe(JSON_SCHEMA_VERSION);
    expect(JSON_SCHEMA_VERSION).toBe(1);
    const violated = result.properties.filter((p) => p.status === 'violated');
    const all = json.counterexamples as { property: string; timeline: { changes: { path: string; keys: unknown[]; op: string; from?: unknown; to?: unknown }[]; fault: boolean }[]; final: { description: string } }[];
    expect(all.map((c) => c.property)).toEqual(violated.map((p) => p.id));
    expect(json.counterexample).toEqual(all[0]);
    const change = all[0].timeline[0].changes[0];
    expect(change).toEqual({ path: 'rmState[0]', keys: ['rmState', 0], op: 'set', before: 'working', after: 'prepared', from: 'working', to: 'prepared' });
    expect(all[0].timeline.every((s) => s.fault === false)).toBe(true);
    expect(all[0].final.description).toContain('committed');
  });

  it('should describe a Kubernetes counterexample with names, faults and what they affect', async () => {
    // A partition, then the node lifecycle controller marks the cut-off node Unknown.
    const r = await kubecheckAsync(['check', '--scenario', 'node-partition', '--property', 'no-node-unknown', '--json']);
    // Nothing on stderr but the line that says the violation was found, when it was.
    expect(r.stderr).toMatch(/^kubecheck: found: no-node-unknown violated, a counterexample of \d+ steps \(depth \d+, [\d,]+ distinct states, [\d.]+s\)\n$/);
    const json = JSON.parse(r.stdout) as { schema: number; counterexamples: { property: string; faultSteps: number; timeline: { fault: boolean; affects?: string[]; changes: { path: string; to?: unknown }[] }[]; final: { state: { nodes: { name: string }[] } } }[] };
    expect(json.schema).toBe(1);
    expect(json.counterexamples.map((c) => c.property)).toEqual(['no-node-unknown']);
    const cx = json.counterexamples[0];
    expect(cx.faultSteps).toBe(cx.timeline.filter((s) => s.fault).length);
    const fault = cx.timeline.find((s) => s.fault)!;
    const node = /^kubelet\/(node-\d)$/.exec(fault.affects?.[0] ?? '')?.[1];
    expect(node).toBeDefined();
    expect(fault.changes).toContainEqual(expect.objectContaining({ path: `nodes[${node}].partitioned`, to: true }));
    const marked = cx.timeline.flatMap((s) => s.changes).find((c) => c.path === `api.nodes[${node}].ready`);
    expect(marked?.to).toBe('Unknown');
    expect(cx.final.state.nodes.map((n) => n.name)).toEqual(['node-1', 'node-2', 'node-3']);
  });

  it('should keep a seed beyond 32 bits whole in the output and in the replay command', async () => {
    const r = await kubecheckAsync(['simulate', '--scenario', 'two-phase-commit', '--set', 'bug=commit-on-any-prepared', '--seed', '12345678901', '--runs', '50', '--json']);
    const json = JSON.parse(r.stdout) as { schema: number; simulation: { seed: number; replayCommand: string } };
    expect(json.schema).toBe(1);
    expect(json.simulation.seed).toBe(12345678901);
    expect(json.simulation.replayCommand).toContain('--seed 12345678901 ');
    const replay = /--replay-path '([\d:]+)'/.exec(json.simulation.replayCommand)![1];
    const again = await kubecheckAsync(['simulate', '--scenario', 'two-phase-commit', '--set', 'bug=commit-on-any-prepared', '--seed', '12345678901', '--runs', '50', '--replay-path', replay, '--json']);
    expect(again.code).toBe(1);
  });
});

describe('the files of --out in the JSON report (docs/command-line.md)', () => {
  it('should list the paths written on stdout, and the names within the folder in its result.json', async () => {
    const cwd = mkdtempSync(join(tmpdir(), 'kubecheck-json-files-'));
    try {
      const r = await kubecheckAsync(['check', '--scenario', 'two-phase-commit', '--set', 'bug=commit-on-any-prepared', '--out', 'results', '--json'], { cwd, timeoutMs: 240_000 });
      expect(r.code, r.stderr).toBe(1);
      const stdout = JSON.parse(r.stdout) as { files: string[] };
      expect(stdout.files.slice(0, 2)).toEqual(['results/report.md', 'results/result.json']);
      const saved = JSON.parse(readFileSync(join(cwd, 'results', 'result.json'), 'utf8')) as { files: string[]; written: Record<string, string> };
      expect(saved.files.slice(0, 2)).toEqual(['report.md', 'result.json']);
      expect(Object.keys(saved.written)).toContain('report.md');
      for (const f of stdout.files) expect(existsSync(join(cwd, f)), f).toBe(true);
    } finally {
      rmSync(cwd, { recursive: true, force: true });
    }
  }, 600_000);
});
