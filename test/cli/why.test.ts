/**
 * The why-line on the command line: `check` prints it under the counterexample's header and
 * gives it as `why` in --json, and `replay` of the trace `check --out` wrote says it again where
 * it reproduces the violation. The expected line is read off the counterexample's final state.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { kubecheckAsync } from './run.js';

const work = mkdtempSync(join(tmpdir(), 'kubecheck-why-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

const CHECK = ['check', '--scenario', 'node-partition', '--set', 'operator.forceDeletePod=1', '--set', 'cluster.terminationGracePeriodSeconds=1', '--property', 'statefulset-at-most-one'];

interface Json {
  properties: { id: string; status: string; why?: string }[];
  counterexamples: { property: string; why?: string; final: { state: { nodes: { name: string; up: boolean; running: string[] }[] } } }[];
}

describe('the why-line on the command line', () => {
  it('should be under the header in check\'s text, a why field in --json, and said again by replay', async () => {
    const out = join(work, 'out');
    const [json, text] = await Promise.all([kubecheckAsync([...CHECK, '--json', '--out', out]), kubecheckAsync([...CHECK, '--no-color'])]);
    expect(json.code, json.stderr).toBe(1);
    const j = JSON.parse(json.stdout) as Json;
    const cx = j.counterexamples[0];
    const nodes = cx.final.state.nodes.filter((n) => n.up && n.running.includes('db-0')).map((n) => n.name);
    expect(nodes).toHaveLength(2);
    const why = `db-0 runs on ${nodes[0]} and on ${nodes[1]}`;
    expect(cx.why).toBe(why);
    expect(j.properties).toEqual([expect.objectContaining({ id: 'statefulset-at-most-one', status: 'violated', why })]);

    expect(text.code).toBe(1);
    const lines = text.stdout.split('\n');
    const head = lines.indexOf('✗ statefulset-at-most-one: at most one running copy of each StatefulSet pod identity, counting what really runs on nodes');
    expect(head).toBeGreaterThan(0);
    expect(lines[head + 1]).toBe(`  why: ${why}`);
    expect(lines[head + 2]).toMatch(/^ {2}counterexample: \d+ steps/);

    const trace = join(out, 'statefulset-at-most-one.itf.json');
    const [replayed, replayedJson] = await Promise.all([kubecheckAsync(['replay', trace, '--quiet', '--no-color']), kubecheckAsync(['replay', trace, '--json'])]);
    expect(replayed.code).toBe(1);
    expect(replayed.stdout.trimEnd().split('\n').slice(-2)).toEqual([expect.stringMatching(/^✗ statefulset-at-most-one violated at step \d+ .*violation reproduced \(exit 1\)$/), `  why: ${why}`]);
    expect(JSON.parse(replayedJson.stdout)).toMatchObject({ outcome: 'violated', property: 'statefulset-at-most-one', why });
  }, 120_000);
});
