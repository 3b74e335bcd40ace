/**
 * `--model FILE`: a user's own model run by the command line. The two-phase-commit example as a
 * module (examples/two-phase-commit/model.ts) gives TLC's published counts through `check`, on
 * two workers and depth-first; its seeded bug is found, written as an ITF trace that
 * `replay --model` reproduces, and a trace of another model or scenario is refused with a code.
 * A module that cannot be a model is refused with one coded line and exit 2.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { exploreSession } from '../../cli/commands/explore.js';
import { expectOneLine, kubecheckAsync, ROOT } from './run.js';

const MODEL = join(ROOT, 'examples', 'two-phase-commit', 'model.ts');
const work = mkdtempSync(join(tmpdir(), 'kubecheck-model-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

interface Stats { distinctStates: number; generatedStates: number; depth: number }
const statsOf = (stdout: string): [number, number, number] => {
  const s = (JSON.parse(stdout) as { stats: Stats }).stats;
  return [s.distinctStates, s.generatedStates, s.depth];
};

describe('check --model on the two-phase-commit example', () => {
  it('should give TLC\'s published counts (n=3: 288/1,146/11; n=5: 8,832/58,146/17), on two workers too', async () => {
    const [three, five, two, dfs] = await Promise.all([
      kubecheckAsync(['check', '--model', MODEL, '--json']),
      kubecheckAsync(['check', '--model', MODEL, '--set', 'rms=5', '--json']),
      kubecheckAsync(['check', '--model', MODEL, '--set', 'rms=5', '--workers', '2', '--json'], { env: { KUBECHECK_PARALLEL_LEVEL: '20' } }),
      kubecheckAsync(['check', '--model', MODEL, '--dfs', '--json']),
    ]);
    expect(three.code, three.stderr).toBe(0);
    expect(statsOf(three.stdout)).toEqual([288, 1146, 11]);
    expect(JSON.parse(three.stdout).verdict).toBe('ok');
    expect(five.code, five.stderr).toBe(0);
    expect(statsOf(five.stdout)).toEqual([8832, 58146, 17]);
    expect(two.code, two.stderr).toBe(0);
    expect(statsOf(two.stdout)).toEqual([8832, 58146, 17]);
    expect(JSON.parse(two.stdout).model).toBe('two-phase-commit(5)');
    expect(dfs.code, dfs.stderr).toBe(0);
    expect(statsOf(dfs.stdout)[0]).toBe(288);
  }, 120_000);

  it('should give the orbit count under symmetry (314 at n=5)', async () => {
    const r = await kubecheckAsync(['check', '--model', MODEL, '--set', 'rms=5', '--set', 'symmetry=true', '--json']);
    expect(r.code, r.stderr).toBe(0);
    expect(statsOf(r.stdout)[0]).toBe(314);
  }, 60_000);

  it('should find the seeded bug (exit 1), write its ITF trace, and replay --model should reproduce it', async () => {
    const out = join(work, 'out');
    const found = await kubecheckAsync(['check', '--model', MODEL, '--set', 'bug=commit-on-any-prepared', '--property', 'consistent', '--out', out, '--json']);
    expect(found.code, found.stderr).toBe(1);
    const trace = join(out, 'consistent.itf.json');
    const itf = JSON.parse(readFileSync(trace, 'utf8')) as { '#meta': { scenario: string; config: Record<string, string> } };
    expect(itf['#meta'].scenario).toBe('two-phase-commit(3) with bug commit-on-any-prepared');
    expect(itf['#meta'].config).toEqual({ rms: '3', bug: 'commit-on-any-prepared', symmetry: 'false' });
    const [replayed, withoutModel, otherParams, otherModel] = await Promise.all([
      kubecheckAsync(['replay', '--model', MODEL, trace, '--json']),
      kubecheckAsync(['replay', trace]),
      kubecheckAsync(['replay', '--model', MODEL, '--set', 'bug=none', trace]),
      kubecheckAsync(['replay', '--model', MODEL, join(ROOT, 'test', 'cli', 'fixtures', 'two-phase-commit.itf.json')]),
    ]);
    expect(replayed.code, replayed.stderr).toBe(1);
    expect(JSON.parse(replayed.stdout)).toMatchObject({ outcome: 'violated', property: 'consistent', steps: 5 });
    expectOneLine(withoutModel, 'KC204', /not one of kubecheck's scenarios; a trace of your own model replays with --model/);
    expectOneLine(otherParams, 'KC204', /bug is "commit-on-any-prepared" in the trace, "none" here/);
    expectOneLine(otherModel, 'KC204', /scenario "two-phase-commit", not with --model/);
  }, 120_000);

  it('should replay a trace of one model only on that model: another module with the same parameters is refused', async () => {
    const out = join(work, 'counter-out');
    const counter = join(work, 'counter.ts');
    writeFileSync(counter, [
      `import { action, always, type Model } from ${JSON.stringify(join(ROOT, 'checker', 'index.ts'))};`,
      'export const model: Model<number> = {',
      "  name: 'counter',",
      '  initialStates: () => [0],',
      "  actions: [action<number>({ name: 'inc', enabled: (x) => x < 3, apply: (x) => x + 1 })],",
      "  properties: [always<number>('small', 'x stays below 3', (x) => x < 3)],",
      '};',
    ].join('\n'));
    const found = await kubecheckAsync(['check', '--model', counter, '--out', out]);
    expect(found.code, found.stderr).toBe(1);
    const [own, other, set] = await Promise.all([
      kubecheckAsync(['replay', '--model', counter, join(out, 'small.itf.json'), '-q']),
      kubecheckAsync(['replay', '--model', MODEL, join(out, 'small.itf.json')]),
      kubecheckAsync(['check', '--model', counter, '--set', 'n=2']),
    ]);
    expect(own.code, own.stderr).toBe(1);
    expect(own.stdout).toMatch(/small violated at step 3/);
    expectOneLine(other, 'KC204', /was made for model "counter", not "two-phase-commit\(3\)"/);
    expectOneLine(set, 'KC212', /exports a Model, not a factory/);
  }, 120_000);

  it('should run simulate, graph and list on the model', async () => {
    const [sim, graph, list] = await Promise.all([
      kubecheckAsync(['simulate', '--model', MODEL, '--set', 'bug=commit-on-any-prepared', '--seed', '1']),
      kubecheckAsync(['graph', '--model', MODEL, '--set', 'rms=1']),
      kubecheckAsync(['list', 'parameters', '--model', MODEL, '--json']),
    ]);
    expect(sim.code, sim.stderr).toBe(1);
    expect(sim.stdout).toMatch(/consistent/);
    expect(graph.code, graph.stderr).toBe(0);
    expect(graph.stdout).toMatch(/^digraph/);
    expect(graph.stdout).toMatch(/two-phase-commit\(1\)/);
    expect(list.code, list.stderr).toBe(0);
    const [subject] = JSON.parse(list.stdout) as { subject: string; properties: { id: string }[]; parameters: { key: string }[] }[];
    expect(subject.properties.map((p) => p.id)).toEqual(['consistent']);
    expect(subject.parameters.map((p) => p.key)).toEqual(['rms', 'bug', 'symmetry']);
  }, 120_000);
});

describe('explore --model', () => {
  it('should open the model\'s counterexample and reopen with the same --model', async () => {
    const session = await exploreSession({ model: MODEL, set: { bug: 'commit-on-any-prepared' }, graph: false });
    expect(session.title).toBe('two-phase-commit(3) with bug commit-on-any-prepared');
    expect(session.traces.map((t) => t.property)).toEqual(['consistent']);
    expect(session.reopenCommand).toBe(`kubecheck explore --model ${MODEL} --set bug=commit-on-any-prepared`);
  }, 60_000);
});

describe('a module that is not a model', () => {
  it('should be refused with one coded line and exit 2', async () => {
    writeFileSync(join(work, 'none.ts'), 'export const x = 1;\n');
    writeFileSync(join(work, 'throws.ts'), 'throw new Error("boom");\n');
    writeFileSync(join(work, 'nothing.ts'), 'export default function make() { return { name: 1 }; }\n');
    const [none, throws, nothing, missing, badParam, unknownParam, withScenario] = await Promise.all([
      kubecheckAsync(['check', '--model', './none.ts'], { cwd: work }),
      kubecheckAsync(['check', '--model', './throws.ts'], { cwd: work }),
      kubecheckAsync(['check', '--model', './nothing.ts'], { cwd: work }),
      kubecheckAsync(['check', '--model', './no-such.ts'], { cwd: work }),
      kubecheckAsync(['check', '--model', MODEL, '--set', 'rms=x']),
      kubecheckAsync(['check', '--model', MODEL, '--set', 'nodes=3']),
      kubecheckAsync(['check', '--model', MODEL, '--scenario', 'node-failure']),
    ]);
    expectOneLine(none, 'KC220', /exports no Model .* nor a factory .*; exports: x \(number\)/);
    expectOneLine(throws, 'KC220', /model \.\/throws\.ts failed while loading: boom/);
    expectOneLine(nothing, 'KC220', /returned no Model/);
    expectOneLine(missing, 'KC201', /cannot load model \.\/no-such\.ts/);
    expectOneLine(badParam, 'KC220', /rms must be an integer from 1 to 9, got "x"/);
    expectOneLine(unknownParam, 'KC212', /unknown parameter "nodes" .*; known: rms, bug, symmetry/);
    expectOneLine(withScenario, 'KC200', /--scenario does not apply/);
  }, 120_000);
});
