/**
 * Bad input, as a new user types it: every failure is one coded line on stderr with exit 2,
 * nothing is half-written or overwritten without --force, and nothing hangs. Each case is one of
 * the findings of a run of generated bad inputs; the commands run as separate processes.
 */
import { spawn } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { action, type Model } from '../../checker/index.js';
import { parseItf, toItf } from '../../reports/itf.js';
import { replayItf } from '../../reports/replay.js';
import { reportNamesFor } from '../../reports/artifacts.js';
import { BIN, kubecheck, kubecheckAsync, ROOT, type Run } from './run.js';

const dir = mkdtempSync(join(tmpdir(), 'kubecheck-bad-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const BUGGY = ['--scenario', 'two-phase-commit', '--set', 'bug=commit-on-any-prepared'];
const REPORT = ['report.md', 'result.json', 'consistent.itf.json', 'consistent.timeline.txt', 'consistent.dot', 'consistent.svg', 'consistent.projected.dot', 'consistent.projected.svg', 'report.html'];

/** Exit 2 and exactly one line on stderr, `kubecheck: <code>: ...`, never a stack trace. */
function expectOneLine(r: Run, code: string, pattern?: RegExp): void {
  const lines = r.stderr.split('\n').filter((l) => l !== '');
  expect({ code: r.code, lines }, r.stderr).toMatchObject({ code: 2, lines: [expect.stringMatching(new RegExp(`^kubecheck: ${code}: `))] });
  if (pattern) expect(lines[0]).toMatch(pattern);
  expect(r.stderr).not.toMatch(/^\s+at /m);
}

function file(name: string, content: string): string {
  const path = join(dir, name);
  writeFileSync(path, content);
  return path;
}

/** Every file under `root` with its content, to show that nothing changed. */
function snapshot(root: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const e of readdirSync(root, { withFileTypes: true, recursive: true })) {
    if (e.isFile()) out[join(e.parentPath, e.name).slice(root.length)] = readFileSync(join(e.parentPath, e.name), 'utf8');
  }
  return out;
}

/** A trace written by check, to edit into bad ones. */
let trace: { '#meta': Record<string, unknown>; vars: string[]; states: Record<string, unknown>[] };
beforeAll(() => {
  const out = join(dir, 'base');
  expect(kubecheck(['check', ...BUGGY, '--out', out]).code).toBe(1);
  trace = JSON.parse(readFileSync(join(out, 'consistent.itf.json'), 'utf8'));
});

function traceFile(name: string, edit: (t: typeof trace) => void): string {
  const t = structuredClone(trace);
  edit(t);
  return file(name, JSON.stringify(t));
}

describe('errors that had no code', () => {
  it('should refuse an --out that is a file, lies under a file, or is empty, before the search', async () => {
    const f = file('plain-file', 'mine');
    const [isFile, underFile, empty] = await Promise.all([
      kubecheckAsync(['check', ...BUGGY, '--out', f]),
      kubecheckAsync(['check', ...BUGGY, '--out', join(f, 'x')]),
      kubecheckAsync(['check', ...BUGGY, '--out', '']),
    ]);
    expectOneLine(isFile, 'KC214', /plain-file is a file, not a folder/);
    expectOneLine(underFile, 'KC214', /plain-file is a file, not a folder/);
    expectOneLine(empty, 'KC200', /--out needs a folder name/);
    expect(readFileSync(f, 'utf8')).toBe('mine');
    for (const r of [isFile, underFile, empty]) expect(r.stdout).toBe(''); // refused before the search printed anything
  });

  it.skipIf(process.getuid?.() === 0)('should refuse a read-only --out folder (KC214), not fail after the search', () => {
    const ro = join(dir, 'read-only');
    mkdirSync(ro);
    chmodSync(ro, 0o555);
    try {
      expectOneLine(kubecheck(['check', ...BUGGY, '--out', join(ro, 'report')]), 'KC214', /permission denied/);
      expect(readdirSync(ro)).toEqual([]);
    } finally {
      chmodSync(ro, 0o755);
    }
  });

  it('should refuse graph --output in a folder that does not exist, and create nothing', () => {
    const target = join(dir, 'nodir', 'g.dot');
    expectOneLine(kubecheck(['graph', '--scenario', 'two-phase-commit', '--set', 'rms=2', '--output', target]), 'KC214', /no such folder/);
    expect(existsSync(join(dir, 'nodir'))).toBe(false);
  });

  it('should refuse a config nested 5,000 levels deep, as JSON and as YAML', async () => {
    const deep = `${'{"a":'.repeat(5000)}1${'}'.repeat(5000)}`;
    const [json, yaml, section] = await Promise.all([
      kubecheckAsync(['check', '--config', file('deep.json', deep)]),
      kubecheckAsync(['check', '--config', file('deep.yaml', deep)]),
      kubecheckAsync(['check', '--config', file('deep-section.json', `{"cluster":${deep}}`)]),
    ]);
    expectOneLine(json, 'KC202', /nested more than 16 levels deep/);
    expectOneLine(yaml, 'KC202', /nested too deeply/);
    expectOneLine(section, 'KC202', /nested more than 16 levels deep/);
  });

  it('should refuse malformed ITF values with KC203, naming the state', async () => {
    const bad = (name: string, value: unknown): string => traceFile(name, (t) => {
      t.states[2].tmState = value;
    });
    const runs = await Promise.all([
      kubecheckAsync(['replay', bad('bigint-abc.itf.json', { '#bigint': 'abc' })]),
      kubecheckAsync(['replay', bad('bigint-long.itf.json', { '#bigint': '9'.repeat(2000) })]),
      kubecheckAsync(['replay', bad('set.itf.json', { '#set': 5 })]),
      kubecheckAsync(['replay', bad('map.itf.json', { '#map': [[1]] })]),
      kubecheckAsync(['replay', bad('tup.itf.json', { '#tup': 'x' })]),
      kubecheckAsync(['replay', traceFile('deep.itf.json', (t) => {
        t.states[1].msgs = JSON.parse(`${'['.repeat(1500)}${']'.repeat(1500)}`);
      })]),
    ]);
    expectOneLine(runs[0], 'KC203', /state 2: \{"#bigint":"abc"\} is not an integer/);
    expectOneLine(runs[1], 'KC203', /state 2: a "#bigint" of 2000 digits/);
    expectOneLine(runs[2], 'KC203', /state 2: .*"#set" must hold a list/);
    expectOneLine(runs[3], 'KC203', /state 2: .*"#map" must hold a list of \[key, value\] pairs/);
    expectOneLine(runs[4], 'KC203', /state 2: .*"#tup" must hold a list/);
    expectOneLine(runs[5], 'KC203', /state 1: values nested more than 1000 levels deep/);
  });

  it('should say a 400-digit #bigint step parameter does not replay (KC205), and one in a state differs', async () => {
    const huge = { '#bigint': '1'.repeat(400) };
    const [param, state] = await Promise.all([
      kubecheckAsync(['replay', traceFile('param-400.itf.json', (t) => {
        (t.states[1]['mbt::nondetPicks'] as { param: { value: unknown } }).param.value = huge;
      })]),
      kubecheckAsync(['replay', traceFile('state-400.itf.json', (t) => {
        t.states[1].tmState = huge;
      })]),
    ]);
    expectOneLine(param, 'KC205', /step 1 \(RMPrepare\) picks \{"#bigint":"1111/);
    expectOneLine(state, 'KC205', /step 1 .* differs from the saved one in "tmState"/);
  });

  it('should refuse a --replay-path that is not a fast-check path', () => {
    expectOneLine(kubecheck(['simulate', ...BUGGY, '--seed', '1', '--replay-path', 'xyz']), 'KC200', /--replay-path must be the path simulate printed/);
  });
});

describe('nothing hangs', () => {
  it.skipIf(!existsSync('/proc/self'))('should refuse --out /proc/x at once (a recursive mkdir looped there)', async () => {
    // A run that loops is ended by the timeout and fails the one-line check.
    expectOneLine(await kubecheckAsync(['check', ...BUGGY, '--out', '/proc/kubecheck-x'], { timeoutMs: 120_000 }), 'KC214', /cannot write --out \/proc\/kubecheck-x/);
  });

  it('should refuse a 500k-key YAML map by its size, and find the duplicate in a 40k-key one in linear time', async () => {
    const keys = (n: number): string => Array.from({ length: n }, (_, i) => `k${i}: ${i}`).join('\n');
    const started = Date.now();
    const [huge, dup] = await Promise.all([
      kubecheckAsync(['check', '--config', file('huge.yaml', keys(500_000))]),
      kubecheckAsync(['check', '--config', file('dup40k.yaml', `${keys(40_000)}\nk7: again\n`)]),
    ]);
    expectOneLine(huge, 'KC201', /huge\.yaml is [\d.]+ MiB, more than the 1\.0 MiB a config file can be/);
    expectOneLine(dup, 'KC202', /duplicate key "k7" at line 40001/);
    expect(Date.now() - started).toBeLessThan(120_000); // a blow-up, not a speed target (the quadratic search took 9.7 s for 40k keys on an idle machine)
  });

  it('should refuse a config that never ends (/dev/zero) instead of reading it', () => {
    if (!existsSync('/dev/zero')) return;
    expectOneLine(kubecheck(['check', '--config', '/dev/zero']), 'KC201', /not a regular file/);
  });

  it('should bound simulate by --time-limit, and refuse a run too long to hold in memory', async () => {
    const [bounded, huge] = await Promise.all([
      kubecheckAsync(['simulate', '--scenario', 'two-phase-commit', '--max-steps', '1000000', '--runs', '1000', '--time-limit', '2s', '--json']),
      kubecheckAsync(['simulate', '--scenario', 'two-phase-commit', '--max-steps', '10000000']),
    ]);
    expect(bounded.code, bounded.stderr).toBe(3);
    const j = JSON.parse(bounded.stdout);
    expect(j.stoppedBy).toEqual({ bound: 'time', limit: 2 });
    expect(j.simulation.runs).toBeLessThan(1000);
    expectOneLine(huge, 'KC200', /--max-steps must be at most 1,000,000/);
  });
});

describe('accepted and wrong, now refused', () => {
  it('should refuse a duration of 400 nines (it became Infinityms)', () => {
    expectOneLine(kubecheck(['check', '--set', `kubeControllerManager.nodeMonitorGracePeriod=${'9'.repeat(400)}s`]), 'KC103', /out of range/);
  });

  it('should refuse kubernetesVersion as a YAML number or not a version, and read a quoted one', async () => {
    const [number, banana, quoted] = await Promise.all([
      kubecheckAsync(['check', '--config', file('v-number.yaml', 'kubernetesVersion: 1.40\n')]),
      kubecheckAsync(['check', '--set', 'kubernetesVersion=banana']),
      kubecheckAsync(['check', '--config', file('v-quoted.yaml', 'kubernetesVersion: "1.40"\n'), '--max-states', '1', '--json']),
    ]);
    expectOneLine(number, 'KC104', /got the number 1\.4; quote the version/);
    expectOneLine(banana, 'KC104', /expected a Kubernetes version such as "1\.32"/);
    expect(quoted.code, quoted.stderr).toBe(3);
    const config = JSON.parse(quoted.stdout).config;
    expect(config.kubernetesVersion).toBe('1.40');
    expect(config.kubeControllerManager.nodeMonitorGracePeriod).toBe('50s'); // 1.4 would have chosen 40s
  });

  it('should refuse duplicate JSON keys, a scenario that is not a name, and counts in hexadecimal or beyond 2^53', async () => {
    const runs = await Promise.all([
      kubecheckAsync(['check', '--config', file('dup.json', '{"cluster": {"nodes": 3,\n "nodes": 4}}')]),
      kubecheckAsync(['check', '--config', file('scenario5.yaml', 'scenario: 5\n')]),
      kubecheckAsync(['check', '--config', file('hex.yaml', 'cluster:\n  nodes: 0x10\n')]),
      kubecheckAsync(['check', '--config', file('big.yaml', 'cluster:\n  nodes: 1e21\n')]),
      kubecheckAsync(['check', '--scenario', 'two-phase-commit', '--max-states', '0x10']),
      kubecheckAsync(['check', '--scenario', 'two-phase-commit', '--max-states', '1e21']),
      kubecheckAsync(['simulate', '--scenario', 'two-phase-commit', '--seed', '0x10']),
    ]);
    expectOneLine(runs[0], 'KC202', /duplicate key "nodes" at line 2/);
    expectOneLine(runs[1], 'KC202', /"scenario" must be a scenario name .* got 5/);
    expectOneLine(runs[2], 'KC202', /0x10 is a hexadecimal number; write numbers in decimal at line 2/);
    expectOneLine(runs[3], 'KC104', /cluster\.nodes: 1e\+21 is too large to count exactly/);
    expectOneLine(runs[4], 'KC200', /--max-states must be a positive integer in decimal, got "0x10"/);
    expectOneLine(runs[5], 'KC200', /--max-states must be at most 9007199254740991, got "1e21"/);
    expectOneLine(runs[6], 'KC200', /--seed must be a non-negative integer in decimal/);
  });

  it('should refuse --property ,, (it fell back to the defaults) and --replay-path without --seed', async () => {
    const [empty, noSeed] = await Promise.all([
      kubecheckAsync(['check', '--scenario', 'two-phase-commit', '--property', ',,']),
      kubecheckAsync(['simulate', '--scenario', 'two-phase-commit', '--replay-path', '1:2']),
    ]);
    expectOneLine(empty, 'KC200', /got ",," \(an empty id\)/);
    expectOneLine(noSeed, 'KC200', /give the --seed it was printed with/);
  });

  it('should refuse --symmetry on a scenario without symmetry (it was ignored)', async () => {
    const [run, graph, caches] = await Promise.all([
      kubecheckAsync(['check', '--scenario', 'two-phase-commit', '--symmetry']),
      kubecheckAsync(['graph', '--scenario', 'two-phase-commit', '--symmetry']),
      // Informer caches turn the cluster's symmetry off (it still keys states as numbers).
      kubecheckAsync(['check', '--scenario', 'expectations-timeout', '--symmetry']),
    ]);
    expectOneLine(run, 'KC200', /two-phase-commit has no symmetry to reduce/);
    expectOneLine(graph, 'KC200', /two-phase-commit has no symmetry to reduce/);
    expectOneLine(caches, 'KC200', /expectations-timeout has no symmetry to reduce/);
  });

  it('should refuse a trace whose #meta.scenario disagrees with its own config', async () => {
    const contradictory = traceFile('contradicts.itf.json', (t) => {
      t['#meta'].config = { ...(t['#meta'].config as object), scenario: 'node-failure' };
    });
    const [replay, graph] = await Promise.all([
      kubecheckAsync(['replay', contradictory]),
      kubecheckAsync(['graph', '--scenario', 'two-phase-commit', '--trace', contradictory]),
    ]);
    expectOneLine(replay, 'KC204', /#meta\.scenario is "two-phase-commit" but its #meta\.config is for "node-failure"/);
    expectOneLine(graph, 'KC204', /contradicts itself/);
  });

  it('should replay a trace that writes a small integer as {"#bigint": "10"} (the ITF ADR allows it)', async () => {
    const picks = traceFile('bigint-param.itf.json', (t) => {
      for (const s of t.states.slice(1)) {
        const p = (s['mbt::nondetPicks'] as { param: { tag: string; value: unknown } }).param;
        if (p.tag === 'Some' && typeof p.value === 'number') p.value = { '#bigint': String(p.value) };
      }
    });
    expect(readFileSync(picks, 'utf8')).toContain('#bigint');
    const r = await kubecheckAsync(['replay', picks, '--json']);
    expect(r.code, r.stderr).toBe(1);
    expect(JSON.parse(r.stdout)).toMatchObject({ outcome: 'violated', property: 'consistent', steps: 5 });
  });

  it('should compare saved states in one form: #bigint equal to a number, sets in any order', () => {
    interface S { readonly n: number; readonly seen: ReadonlySet<number> }
    const model: Model<S> = {
      name: 'counter',
      initialStates: () => [{ n: 0, seen: new Set([0]) }],
      actions: [action<S>({ name: 'inc', enabled: (s) => s.n < 3, apply: (s) => ({ n: s.n + 1, seen: new Set([...s.seen, s.n + 1]) }) })],
      properties: [],
    };
    const states: S[] = [{ n: 0, seen: new Set([0]) }, { n: 1, seen: new Set([0, 1]) }, { n: 2, seen: new Set([0, 1, 2]) }];
    const itf = toItf({ states, actions: [{ name: 'inc' }, { name: 'inc' }], path: { initial: 0, steps: [0, 0] } }) as unknown as typeof trace;
    const edited = structuredClone(itf);
    edited.states[2].n = { '#bigint': '2' };
    edited.states[2].seen = { '#set': [2, { '#bigint': '0' }, 1] };
    expect(replayItf(model, parseItf(JSON.stringify(edited))).trace.states).toHaveLength(3);
    // A different value still differs.
    edited.states[2].n = { '#bigint': '3' };
    expect(() => replayItf(model, parseItf(JSON.stringify(edited)))).toThrow(/KC205: step 2 .* differs from the saved one in "n"/);
  });
});

describe('--out writes the whole report or nothing', () => {
  it('should check an existing --out before the search (it ran the whole search first)', async () => {
    const out = join(dir, 'before-search');
    mkdirSync(out);
    writeFileSync(join(out, 'notes.md'), 'mine');
    // rms=9 takes far longer than the run's timeout to check: only a refusal before the search ends within it.
    const r = await kubecheckAsync(['check', '--scenario', 'two-phase-commit', '--set', 'rms=9', '--out', out], { timeoutMs: 120_000 });
    expectOneLine(r, 'KC207', /before-search already holds files \(notes\.md\); use --force/);
    expect(snapshot(out)).toEqual({ '/notes.md': 'mine' });
  });

  it('should leave the earlier report untouched when one file cannot be replaced, and leave no temporary folder', () => {
    const out = join(dir, 'blocked');
    expect(kubecheck(['check', ...BUGGY, '--out', out]).code).toBe(1);
    // A folder where the new run writes consistent.svg: a rename cannot replace it.
    rmSync(join(out, 'consistent.svg'));
    mkdirSync(join(out, 'consistent.svg'));
    writeFileSync(join(out, 'consistent.svg', 'keep'), 'x');
    writeFileSync(join(out, 'report.md'), 'the earlier report');
    const before = snapshot(out);
    expectOneLine(kubecheck(['check', ...BUGGY, '--out', out, '--force']), 'KC214', /consistent\.svg: a folder is in the way; nothing was written/);
    expect(snapshot(out)).toEqual(before);
    expect(readdirSync(out).filter((f) => f.startsWith('.'))).toEqual([]);
    expect(readdirSync(dir).filter((f) => f.includes('kubecheck-'))).toEqual([]);
  });

  it('should replace every file with --force, a read-only one too, and remove the earlier run\'s files the new one does not write', () => {
    const out = join(dir, 'forced');
    expect(kubecheck(['check', ...BUGGY, '--out', out]).code).toBe(1);
    expect(readdirSync(out).sort()).toEqual([...REPORT].sort());
    // The names a report written during the search checks for folders in the way cover what the final report wrote.
    expect(reportNamesFor(['consistent'])).toEqual(expect.arrayContaining(REPORT));
    writeFileSync(join(out, 'notes.md'), 'mine'); // the user's own file, not the report's
    for (const f of REPORT.filter((x) => x !== 'result.json')) writeFileSync(join(out, f), 'stale');
    chmodSync(join(out, 'consistent.timeline.txt'), 0o444);

    // Same run again: all six replaced (with one read-only, 4 of 6 were written before).
    expect(kubecheck(['check', ...BUGGY, '--out', out, '--force']).code).toBe(1);
    expect(readdirSync(out).sort()).toEqual([...REPORT, 'notes.md'].sort());
    for (const f of REPORT) expect(readFileSync(join(out, f), 'utf8'), f).not.toBe('stale');
    const oldReport = readFileSync(join(out, 'report.md'), 'utf8');

    // A run without violation: the counterexample files of the earlier run go, the user's stay.
    const ok = kubecheck(['check', '--scenario', 'two-phase-commit', '--set', 'rms=2', '--out', out, '--force']);
    expect(ok.code).toBe(0);
    expect(readdirSync(out).sort()).toEqual(['notes.md', 'report.html', 'report.md', 'result.json', 'state-graph.dot', 'state-graph.svg']);
    expect(readFileSync(join(out, 'notes.md'), 'utf8')).toBe('mine');
    expect(readFileSync(join(out, 'report.md'), 'utf8')).not.toBe(oldReport);
    expect(JSON.parse(readFileSync(join(out, 'result.json'), 'utf8'))).toMatchObject({ verdict: 'ok' });
  });
});

describe('--force removes only what kubecheck wrote', () => {
  it('should keep the user\'s files that a result.json kubecheck did not write lists', () => {
    const out = join(dir, 'forged');
    mkdirSync(out);
    writeFileSync(join(out, 'notes.txt'), 'mine');
    writeFileSync(join(out, 'data.csv'), 'a,b\n');
    writeFileSync(join(out, 'plan.md'), 'my plan');
    // As an earlier kubecheck wrote it, and more: the files, and digests that are not the files'.
    writeFileSync(join(out, 'result.json'), JSON.stringify({
      verdict: 'ok', files: [join(out, 'notes.txt'), 'data.csv', 'plan.md', '../outside.txt'],
      written: { 'notes.txt': 'sha256:00', 'data.csv': 'anything', 'plan.md': null, '../outside.txt': 'sha256:00' },
    }));
    expect(kubecheck(['check', ...BUGGY, '--out', out, '--force']).code).toBe(1);
    expect(readFileSync(join(out, 'notes.txt'), 'utf8')).toBe('mine');
    expect(readFileSync(join(out, 'data.csv'), 'utf8')).toBe('a,b\n');
    expect(readFileSync(join(out, 'plan.md'), 'utf8')).toBe('my plan');
    expect(readdirSync(out).sort()).toEqual([...REPORT, 'data.csv', 'notes.txt', 'plan.md'].sort());
  });

  it('should remove an earlier run\'s files it can prove it wrote, and keep one the user changed since', () => {
    const out = join(dir, 'proven');
    expect(kubecheck(['check', ...BUGGY, '--out', out]).code).toBe(1);
    const result = JSON.parse(readFileSync(join(out, 'result.json'), 'utf8')) as { written: Record<string, string> };
    expect(Object.keys(result.written).sort()).toEqual(REPORT.filter((f) => f !== 'result.json').sort());
    writeFileSync(join(out, 'consistent.timeline.txt'), 'annotated by me');
    expect(kubecheck(['check', '--scenario', 'two-phase-commit', '--set', 'rms=2', '--out', out, '--force']).code).toBe(0);
    expect(readdirSync(out).sort()).toEqual(['consistent.timeline.txt', 'report.html', 'report.md', 'result.json', 'state-graph.dot', 'state-graph.svg']);
    expect(readFileSync(join(out, 'consistent.timeline.txt'), 'utf8')).toBe('annotated by me');
  });
});

describe('output and interruption', () => {
  it('should refuse YAML with a warning in one line (the warnings printed more lines after it)', () => {
    expectOneLine(kubecheck(['check', '--config', file('tag.yaml', 'cluster:\n  nodes: !foo 3\n')]), 'KC202', /Unresolved tag: !foo at line 2/);
  });

  it('should end quietly when the reader of stdout stops early (explain --json | head -c100)', async () => {
    const r = await new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) => {
      const child = spawn(process.execPath, [BIN, 'explain', '--json'], { cwd: ROOT, env: { ...process.env, NO_COLOR: '1' } });
      let stdout = '';
      let stderr = '';
      child.stdout.on('data', (d: Buffer) => {
        stdout += d.toString('utf8');
        if (stdout.length >= 100) child.stdout.destroy(); // as head -c100 does
      });
      child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
      child.on('close', (code) => resolve({ code, stdout, stderr }));
    });
    expect(r.stdout.length).toBeGreaterThanOrEqual(100);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
  });

  it('should document exit code 130 for Ctrl-C in --help and the README', () => {
    expect(kubecheck(['--help']).stdout).toMatch(/^\s+130\s+interrupted \(Ctrl-C\)/m);
    expect(readFileSync(join(ROOT, 'README.md'), 'utf8')).toMatch(/\| 130 \| interrupted/);
  });

  it('should exit 130 on Ctrl-C during a search and write no part of --out', async () => {
    const out = join(dir, 'interrupted');
    const child = spawn(process.execPath, [BIN, 'check', '--scenario', 'two-phase-commit', '--set', 'rms=9', '--out', out], { cwd: ROOT, env: { ...process.env, NO_COLOR: '1' } });
    await new Promise((r) => setTimeout(r, 1500));
    child.kill('SIGINT');
    const [code, signal] = await new Promise<[number | null, NodeJS.Signals | null]>((resolve) => child.on('close', (c, s) => resolve([c, s])));
    expect(code === 130 || signal === 'SIGINT').toBe(true);
    expect(existsSync(out)).toBe(false);
    expect(readdirSync(dir).filter((f) => f.includes('interrupted.kubecheck'))).toEqual([]);
  });
});
