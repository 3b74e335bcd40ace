/** The command line as a separate process: --json, --out, SVG as XML, replay round trip, PNG, colours. */
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { XMLParser } from 'fast-xml-parser';
import { afterAll, describe, expect, it } from 'vitest';
import { resolveConfig } from '../../model/index.js';
import { kubernetesLiveness, livenessFairness } from '../../properties/liveness.js';
import { kubecheck, kubecheckAsync } from './run.js';

const dir = mkdtempSync(join(tmpdir(), 'kubecheck-cli-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const BUGGY = ['--scenario', 'two-phase-commit', '--set', 'bug=commit-on-any-prepared'];

/** The `<g class="node">` elements of an SVG parsed as XML. */
function svgNodes(svg: string): unknown[] {
  const doc = new XMLParser({ ignoreAttributes: false, isArray: (name) => name === 'g' }).parse(svg) as { svg: { g: { g?: { '@_class'?: string }[] }[] } };
  return (doc.svg.g[0].g ?? []).filter((g) => g['@_class'] === 'node');
}

describe('kubecheck check --json', () => {
  it('should print one object with verdict, per-property status, stats and the counterexample', async () => {
    const [bad, good, partial] = await Promise.all([
      kubecheckAsync(['check', ...BUGGY, '--json']),
      kubecheckAsync(['check', '--scenario', 'two-phase-commit', '--json']),
      kubecheckAsync(['check', '--scenario', 'two-phase-commit', '--max-states', '50', '--json']),
    ]);
    expect(bad.code).toBe(1);
    const j = JSON.parse(bad.stdout);
    expect(j).toMatchObject({ verdict: 'violation', exitCode: 1, command: 'check', scenario: 'two-phase-commit', config: { rms: 3, bug: 'commit-on-any-prepared' } });
    expect(j.properties).toEqual([expect.objectContaining({ id: 'consistent', kind: 'invariant', status: 'violated', steps: 5 })]);
    expect(j.stats).toMatchObject({ distinctStates: 167, generatedStates: 467, depth: 6 });
    expect(j.stoppedBy).toBeNull();
    expect(j.counterexample.property).toBe('consistent');
    expect(j.counterexample.timeline.map((s: { actor: string }) => s.actor)).toEqual(['rm-1', 'tm', 'tm', 'rm-2', 'rm-1']);
    expect(j.counterexample.timeline[0]).toMatchObject({ step: 1, time: 0, action: { name: 'RMPrepare', param: 0 }, summary: 'prepares and sends Prepared' });
    expect(j.counterexample.itf['#meta']).toMatchObject({ format: 'ITF', source: 'kubecheck', scenario: 'two-phase-commit', property: 'consistent' });
    expect(j.counterexample.itf.states).toHaveLength(6);

    expect(good.code).toBe(0);
    expect(JSON.parse(good.stdout)).toMatchObject({ verdict: 'ok', exitCode: 0, counterexample: null, stats: { distinctStates: 288 } });

    expect(partial.code).toBe(3);
    expect(JSON.parse(partial.stdout)).toMatchObject({ verdict: 'incomplete', exitCode: 3, stoppedBy: { bound: 'states', limit: 50 } });
  });
});

describe('kubecheck check --out', () => {
  it('should write the reports, refuse to overwrite them, and overwrite with --force', () => {
    const out = join(dir, 'out');
    const first = kubecheck(['check', ...BUGGY, '--out', out]);
    expect(first.code).toBe(1);
    for (const f of ['report.md', 'result.json', 'consistent.itf.json', 'consistent.timeline.txt', 'consistent.dot', 'consistent.svg']) {
      expect(existsSync(join(out, f)), f).toBe(true);
    }
    const md = readFileSync(join(out, 'report.md'), 'utf8');
    expect(md).toContain('```mermaid\nsequenceDiagram');
    expect(md).toContain('| `consistent` | invariant | ❌ violated |');
    expect(md).toContain('npx kubecheck replay consistent.itf.json');
    expect(svgNodes(readFileSync(join(out, 'consistent.svg'), 'utf8')).length).toBeGreaterThan(6);

    writeFileSync(join(out, 'report.md'), 'mine');
    const again = kubecheck(['check', ...BUGGY, '--out', out]);
    expect(again.code).toBe(2);
    expect(again.stderr.trim()).toMatch(/^kubecheck: KC207: .*out already holds files \(consistent\.dot, .*\); use --force/);
    expect(readFileSync(join(out, 'report.md'), 'utf8')).toBe('mine');

    expect(kubecheck(['check', ...BUGGY, '--out', out, '--force']).code).toBe(1);
    expect(readFileSync(join(out, 'report.md'), 'utf8')).not.toBe('mine');

    // Round trip: the trace written by check replays and confirms the violation.
    const replay = kubecheck(['replay', join(out, 'consistent.itf.json'), '--json']);
    expect(replay.code).toBe(1);
    expect(JSON.parse(replay.stdout)).toMatchObject({ outcome: 'violated', property: 'consistent', steps: 5, at: 5 });
  });
});

describe('kubecheck graph', () => {
  it('should draw a small space whole, one SVG node per state, and a large one around a trace when its view does not group it', async () => {
    const [small, dot, large] = await Promise.all([
      kubecheckAsync(['graph', '--scenario', 'two-phase-commit', '--set', 'rms=2', '--format', 'svg']),
      kubecheckAsync(['graph', '--scenario', 'two-phase-commit', '--set', 'rms=2']),
      kubecheckAsync(['graph', '--scenario', 'two-phase-commit', '--set', 'rms=5', '--set', 'bug=commit-on-any-prepared', '--format', 'svg', '--max-nodes', '100']),
    ]);
    const whole = JSON.parse(kubecheck(['check', '--scenario', 'two-phase-commit', '--set', 'rms=2', '--json']).stdout);
    expect(small.code).toBe(0);
    expect(svgNodes(small.stdout)).toHaveLength(whole.stats.distinctStates);
    expect(dot.stdout).toMatch(/^digraph "kubecheck" \{/);
    expect(dot.stdout).toContain('peripheries = 2'); // the initial state
    expect(large.code).toBe(0);
    expect(large.stderr).toMatch(/its view groups them into [\d,]+; drawing the 5-step trace \(consistent violated\) and its direct successors/);
    expect(large.stdout).toContain('#f8c0c0'); // the violating state, filled red
    expect(svgNodes(large.stdout).length).toBeLessThanOrEqual(100);
  });

  it('should say how to get PNG when the dot program is missing, or write it', () => {
    const png = join(dir, 'g.png');
    const r = kubecheck(['graph', '--scenario', 'two-phase-commit', '--set', 'rms=2', '--output', png], { env: { PATH: '/nonexistent' } });
    expect(r.code).toBe(2);
    expect(r.stderr.trim()).toMatch(/^kubecheck: KC211: PNG needs the Graphviz "dot" program .*apt-get install graphviz/);
  });
});

describe('colours', () => {
  it('should print no escape codes when piped, with NO_COLOR, or with --no-color', () => {
    const forced = kubecheck(['check', ...BUGGY, '--no-color'], { env: { FORCE_COLOR: '1', CI: '1' } });
    expect(forced.stdout).not.toMatch(/\u001b\[/);
  });
});

describe('help and version', () => {
  it('should exit 0 and list the commands', () => {
    const r = kubecheck(['--help']);
    expect(r.code).toBe(0);
    for (const c of ['check', 'simulate', 'replay', 'graph', 'explain', 'list']) expect(r.stdout).toContain(c);
    expect(kubecheck(['--version']).stdout.trim()).toMatch(/^\d+\.\d+\.\d+$/);
  });
});

describe('list properties', () => {
  it('should list the liveness properties check --liveness checks, with their kind and the fairness it assumes, in text and --json', () => {
    const ids = kubernetesLiveness(resolveConfig('node-failure')).map((p) => [p.id, p.kind] as const);
    expect(ids.length).toBeGreaterThan(0);
    const text = kubecheck(['list', 'properties', '--no-color']);
    expect(text.code).toBe(0);
    const section = text.stdout.slice(text.stdout.indexOf('Liveness properties (check --liveness)'));
    expect(section.length).toBeLessThan(text.stdout.length);
    for (const [id, kind] of ids) expect(section).toMatch(new RegExp(`^  ${id} +${kind} `, 'm'));
    expect(section).toContain(`under ${livenessFairness}`);
    const json = JSON.parse(kubecheck(['list', '--json']).stdout) as { subject: string; liveness: { id: string; kind: string; fairness: string }[] }[];
    const k8s = json.find((s) => s.subject === 'kubernetes')!;
    expect(k8s.liveness.map((p) => [p.id, p.kind])).toEqual(ids);
    expect(k8s.liveness.every((p) => p.fairness === livenessFairness)).toBe(true);
    expect(json.find((s) => s.subject === 'two-phase-commit')!.liveness).toEqual([]);
  });
});

describe('simulate', () => {
  it('should print the seed and the replay path of a failure, and replay it from them', () => {
    const r = kubecheck(['simulate', ...BUGGY, '--seed', '7', '--json']);
    expect(r.code).toBe(1);
    const j = JSON.parse(r.stdout);
    expect(j.simulation.seed).toBe(7);
    expect(typeof j.simulation.replay).toBe('string');
    expect(j.counterexample.property).toBe('consistent');
    const again = kubecheck(['simulate', ...BUGGY, '--seed', '7', '--replay-path', j.simulation.replay, '--json']);
    expect(again.code).toBe(1);
    expect(JSON.parse(again.stdout).counterexample.timeline).toEqual(j.counterexample.timeline);
  });
});
