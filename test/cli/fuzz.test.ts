/**
 * Fuzzing the command line as a user would misuse it: fast-check generates command lines, config
 * files and ITF traces (valid, nearly valid and corrupt), runs each as a separate process in a
 * fresh folder holding files of the user's, and asserts the contract of every run:
 * - the exit code is 0, 1, 2 or 3, and no stack trace or "unexpected error" appears;
 * - exit 2 prints exactly one line on stderr, `kubecheck: KCxxx: ...`;
 * - no file changes unless asked: only under an --out/--output named on the command line, files
 *   already there only with --force, nothing at all on exit 2, no temporary file left behind;
 * - the run ends within a time bound;
 * - writers of one --out folder side by side, signalled (SIGINT, SIGTERM, SIGKILL) at any moment
 *   of their search or writing, leave one run's report whole (or set aside for the next run).
 * The seed is fixed and the count small, so the suite stays fast and a failure replays.
 */
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, normalize } from 'node:path';
import fc from 'fast-check';
import { stringify as toYaml } from 'yaml';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BIN, kubecheck } from './run.js';

const SEED = 20_251;
const PROPERTY_RUNS = 12;
const CASES_PER_RUN = 3; // run side by side
const TIME_BOUND_MS = 45_000;

const root = mkdtempSync(join(tmpdir(), 'kubecheck-fuzz-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

/** A trace check wrote, the base the ITF files are made from. */
let baseTrace: Record<string, unknown>;
beforeAll(() => {
  const out = join(root, 'base');
  expect(kubecheck(['check', '--scenario', 'two-phase-commit', '--set', 'bug=commit-on-any-prepared', '--out', out]).code).toBe(1);
  baseTrace = JSON.parse(readFileSync(join(out, 'consistent.itf.json'), 'utf8'));
});

// ---------- what is generated ----------

const option = (name: string, ...values: fc.Arbitrary<string>[]): fc.Arbitrary<readonly string[]> =>
  fc.oneof(...values).map((v) => [name, v]);
const pick = (...values: string[]): fc.Arbitrary<string> => fc.constantFrom(...values);
const junk = fc.string({ maxLength: 12 });

/** Keys that reach JavaScript's own objects, and the options a config once reached through them. */
const PROTO_KEYS = ['__proto__', 'constructor', 'prototype'] as const;
const OPTION_VALUES: readonly Record<string, unknown>[] = [{ allowUnsafe: true }, { force: true }, { maxStates: 5 }, { json: true }];
/** Count parameters (bounded at 64) and how far above the bound a value goes. */
const COUNT_KEYS = ['cluster.nodes', 'cluster.apiservers', 'cluster.etcdMembers', 'cluster.zones', 'cluster.controllerManagerCandidates', 'cluster.replicaSetReplicas', 'faults.nodeCrash', 'operator.deleteNode'];
const oversized: fc.Arbitrary<string> = fc.tuple(fc.constantFrom(...COUNT_KEYS), fc.integer({ min: 65, max: 1_000_000_000 })).map(([k, n]) => `${k}=${n}`);
/** A key far longer than any parameter's ("did you mean" once took minutes on one). */
const hugeKey: fc.Arbitrary<string> = fc.integer({ min: 201, max: 1_000_000 }).map((n) => 'k'.repeat(n));
/** As {@link hugeKey}, within what one argument of a command line can be (128 KiB on Linux). */
const hugeArgKey: fc.Arbitrary<string> = fc.integer({ min: 201, max: 100_000 }).map((n) => 's'.repeat(n));

const token: fc.Arbitrary<readonly string[]> = fc.oneof(
  option('--scenario', pick('two-phase-commit', 'node-failure', 'node-partition', 'no-such', '')),
  option('--config', pick('c.yaml', 'c.json', 'missing.yaml', '.', 'keep.txt')),
  option('--set', pick('rms=2', 'rms=0', 'rms=0x2', 'bug=commit-on-any-prepared', 'bug=nope', 'cluster.nodes=2', 'cluster.nodes=1e21', 'kubernetesVersion=banana', 'kubernetesVersion=1.31', 'kubernetesVersion=9.99', 'kubeControllerManager.nodeMonitorGracePeriod=40s', 'kubeControllerManager.nodeMonitorGracePeriod=-1s', '=', 'x', '__proto__.maxStates=5', 'constructor.prototype.force=true'), junk, oversized, hugeArgKey.map((k) => `${k}=1`)),
  option('--config', pick('fifo', 'zero.yaml')),
  option('--extension', pick('fifo', 'zero.mjs')),
  option('--property', pick('consistent', ',,', 'no-such', 'single-leader', 'deadlock')),
  option('--max-states', pick('1', '50', '0', '-1', '0x10', '1e21', 'many')),
  option('--max-depth', pick('1', '5', '0', '1.5')),
  option('--time-limit', pick('1s', '0s', '-5s', '30', `${'9'.repeat(400)}s`, 'soon')),
  option('--out', pick('out', 'existing', 'empty', 'keep.txt', '', 'keep.txt/x', 'deep/er/out')),
  option('--output', pick('g.dot', 'g.svg', 'keep.txt', 'nodir/g.dot', 'existing', 'g.txt')),
  option('--trace', pick('t.itf.json', 'missing.itf.json', 'c.yaml')),
  option('--runs', pick('1', '5', '0', 'x')),
  option('--max-steps', pick('1', '20', '10000000', '-3')),
  option('--seed', pick('1', '42', '0x10', '-1')),
  option('--replay-path', pick('1:2', '0', 'xyz')),
  option('--goal', pick('node-marked-unknown', 'no-such', ',')),
  option('--format', pick('dot', 'svg', 'pdf')),
  fc.constantFrom(['--force'], ['--json'], ['--symmetry'], ['--no-symmetry'], ['--dfs'], ['--quiet'], ['--changes'], ['--allow-unsafe-config'], ['--no-color']),
  junk.map((j) => [j]),
);

/**
 * Bounds placed first, so every run is short whatever else is generated (a later generated value
 * replaces them: the vocabulary's valid values are small, its invalid ones refused at once).
 */
const SAFE: Readonly<Record<string, readonly string[]>> = {
  check: ['--max-states', '3000'],
  graph: ['--max-states', '3000', '--max-nodes', '100'],
  explain: ['--max-states', '3000'],
  simulate: ['--runs', '3', '--max-steps', '50'],
};

const command: fc.Arbitrary<readonly string[]> = fc.oneof(
  fc.constantFrom(['check'], ['simulate'], ['graph'], ['explain'], ['list'], ['replay', 't.itf.json'], ['replay', 'c.yaml'], ['list', 'nothing'], ['replay', 'fifo'], ['replay', 'zero.itf.json']),
  junk.map((j) => [j]),
);

/** Config values: right, nearly right and wrong, for both subjects. */
const configObject: fc.Arbitrary<Record<string, unknown>> = fc.record(
  {
    scenario: fc.constantFrom<unknown>('two-phase-commit', 'node-failure', 5, null),
    rms: fc.constantFrom<unknown>(1, 2, 3, 0, 'x', 2.5),
    bug: fc.constantFrom<unknown>('none', 'commit-on-any-prepared', 'nope'),
    kubernetesVersion: fc.constantFrom<unknown>('1.31', '1.40', 1.4, 'banana'),
    cluster: fc.record({ nodes: fc.constantFrom<unknown>(1, 2, 3, 0, -1, 1e21, '3') }, { requiredKeys: [] }),
    kubeControllerManager: fc.record({ nodeMonitorGracePeriod: fc.constantFrom<unknown>('40s', '-5s', 40, `${'9'.repeat(400)}s`) }, { requiredKeys: [] }),
    faults: fc.record({ nodeCrash: fc.constantFrom<unknown>(0, 1, -1) }, { requiredKeys: [] }),
    unknownKey: fc.jsonValue({ maxDepth: 2 }),
  },
  { requiredKeys: [] },
);

/** A config holding a prototype key at the top or in a section, as JSON or YAML. */
const protoConfig: fc.Arbitrary<string> = fc.tuple(fc.constantFrom(...PROTO_KEYS), fc.constantFrom(...OPTION_VALUES), fc.constantFrom('', 'cluster', 'faults'), fc.boolean())
  .map(([key, value, section, json]) => {
    const inner = `{${JSON.stringify(key)}: ${JSON.stringify(value)}}`;
    const text = section === '' ? inner : `{${JSON.stringify(section)}: ${inner}}`;
    return json ? text : toYaml(JSON.parse(text));
  });

const configText: fc.Arbitrary<string> = fc.oneof(
  configObject.map((o) => JSON.stringify(o)),
  protoConfig,
  hugeKey.map((k) => JSON.stringify({ [k]: 1 })),
  oversized.map((kv) => { const [k, v] = kv.split('='); const [section, name] = k.split('.'); return toYaml({ [section]: { [name]: Number(v) } }); }),
  fc.constantFrom('cluster: !!set {nodes}\n', 'cluster:\n  nodes: 2\n...\nrms: 3\n', 'kubeControllerManager:\n  nodeEvictionRate: .inf\n', 'kubernetesVersion: "9.99"\n'),
  configObject.map((o) => toYaml(o)),
  fc.constantFrom('a: 1\na: 2\n', '{"rms": 2, "rms": 3}', 'cluster:\n  nodes: 0x10\n', 'rms: !foo 2\n', '- 1\n- 2\n', '', 'rms: [', `${'{"a":'.repeat(3000)}1${'}'.repeat(3000)}`),
  fc.string({ maxLength: 60 }),
);

type Trace = { '#meta'?: Record<string, unknown>; vars: unknown; states: Record<string, unknown>[] };

/** Edits that make a trace wrong in one way; several may apply. */
const traceEdit: fc.Arbitrary<(t: Trace) => void> = fc.oneof(
  fc.tuple(fc.nat(), fc.constantFrom('tmState', 'rmState', 'msgs', 'mbt::actionTaken', 'nope'), fc.oneof(
    fc.jsonValue({ maxDepth: 2 }),
    fc.string().map((s) => ({ '#bigint': s })),
    fc.constantFrom<unknown>({ '#bigint': '10' }, { '#bigint': '1'.repeat(400) }, { '#set': 5 }, { '#map': [[1]] }, { '#tup': 'x' }, { '#unserializable': 3 }),
  )).map(([i, key, value]) => (t: Trace) => {
    if (Array.isArray(t.states) && t.states.length > 0) t.states[i % t.states.length][key] = value;
  }),
  fc.constantFrom<(t: Trace) => void>(
    (t) => { t['#meta'] = { ...t['#meta'], scenario: 'node-failure' }; },
    (t) => { t['#meta'] = { ...t['#meta'], config: { rms: 2 } }; },
    (t) => { t['#meta'] = { ...t['#meta'], config: { rms: 3, scenario: 'node-failure' } }; },
    (t) => { t['#meta'] = { ...t['#meta'], initial: -1 }; },
    (t) => { t['#meta'] = { ...t['#meta'], property: 7 }; },
    (t) => { delete t['#meta']; },
    (t) => { t.states = []; },
    (t) => { t.vars = 'x'; },
    (t) => { t.states = t.states.slice(0, -1); },
    (t) => { t.states = [...t.states].reverse(); },
  ),
);

const itfText: fc.Arbitrary<(base: Record<string, unknown>) => string> = fc.tuple(fc.array(traceEdit, { maxLength: 3 }), fc.option(fc.nat(), { nil: undefined }))
  .map(([edits, cut]) => (base) => {
    const t = structuredClone(base) as Trace;
    for (const e of edits) e(t);
    const text = JSON.stringify(t);
    return cut === undefined ? text : text.slice(0, cut % (text.length + 1)); // a corrupt, cut-off file
  });

interface Case {
  readonly args: readonly string[];
  readonly config: string;
  readonly itf: (base: Record<string, unknown>) => string;
}

const caseArb: fc.Arbitrary<Case> = fc.record({ command, tokens: fc.array(token, { maxLength: 5 }), config: configText, itf: itfText })
  .map(({ command: c, tokens, config, itf }) => ({ args: [...c, ...(Object.hasOwn(SAFE, c[0]) ? SAFE[c[0]] : []), ...tokens.flat()], config, itf }));

// ---------- running one case ----------

/** Every file and folder under `dir`, relative, with the content of files. */
function snapshot(dir: string): Map<string, string> {
  const out = new Map<string, string>();
  for (const e of readdirSync(dir, { withFileTypes: true, recursive: true })) {
    const rel = join(e.parentPath, e.name).slice(dir.length + 1);
    out.set(rel, e.isFile() ? readFileSync(join(dir, rel), 'utf8') : e.isDirectory() ? '<folder>' : '<special>');
  }
  return out;
}

/** The values given to an option (all of them: the lenient reading of a repeated option). */
function valuesOf(args: readonly string[], name: string): string[] {
  return args.flatMap((a, i) => (a === name && i + 1 < args.length ? [normalize(args[i + 1])] : []));
}

let counter = 0;

async function runCase(c: Case): Promise<void> {
  const work = join(root, `case-${counter++}`);
  mkdirSync(work);
  writeFileSync(join(work, 'keep.txt'), 'the user\'s file');
  mkdirSync(join(work, 'existing'));
  writeFileSync(join(work, 'existing', 'notes.md'), 'the user\'s notes');
  mkdirSync(join(work, 'empty'));
  writeFileSync(join(work, 'c.yaml'), c.config);
  writeFileSync(join(work, 'c.json'), c.config);
  writeFileSync(join(work, 't.itf.json'), c.itf(baseTrace));
  // Special files: a FIFO (an open() on it blocks) and links to /dev/zero (it never ends).
  spawnSync('mkfifo', [join(work, 'fifo')]);
  for (const name of ['zero.yaml', 'zero.mjs', 'zero.itf.json']) if (existsSync('/dev/zero')) symlinkSync('/dev/zero', join(work, name));
  const before = snapshot(work);

  const started = Date.now();
  const r = await new Promise<{ code: number | null; signal: string | null; stdout: string; stderr: string }>((resolve) => {
    const child = spawn(process.execPath, [BIN, ...c.args], { cwd: work, env: { ...process.env, NO_COLOR: '1', KUBECHECK_DEBUG: undefined }, stdio: ['ignore', 'pipe', 'pipe'], timeout: TIME_BOUND_MS });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (d: string) => (stdout += d));
    child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
    child.on('close', (code, signal) => resolve({ code, signal, stdout, stderr }));
  });
  const ms = Date.now() - started;
  const what = `kubecheck ${c.args.map((a) => JSON.stringify(a)).join(' ')}\nconfig: ${JSON.stringify(c.config.slice(0, 200))}\nexit ${r.code} (${r.signal ?? 'no signal'}) after ${ms} ms\nstderr: ${r.stderr.slice(0, 600)}`;

  expect(r.signal, what).toBeNull(); // not killed by the time bound
  expect([0, 1, 2, 3], what).toContain(r.code);
  expect(r.stderr, what).not.toMatch(/^\s+at |unexpected error/m);
  if (r.code === 2) {
    const lines = r.stderr.split('\n').filter((l) => l !== '');
    expect(lines, what).toHaveLength(1);
    expect(lines[0], what).toMatch(/^kubecheck: KC\d{3}: /);
  }

  // No file changed unless asked.
  const after = snapshot(work);
  const targets = [...valuesOf(c.args, '--out'), ...valuesOf(c.args, '-o'), ...valuesOf(c.args, '--output')];
  const under = (p: string): boolean => targets.some((t) => t !== '.' && (p === t || p.startsWith(`${t}/`)));
  const force = c.args.includes('--force');
  for (const [path, content] of before) {
    if (after.get(path) === content) continue;
    expect(r.code !== 2 && force && under(path), `${path} changed or went\n${what}`).toBe(true);
  }
  for (const path of after.keys()) {
    if (before.has(path)) continue;
    expect(r.code !== 2 && under(path), `${path} appeared\n${what}`).toBe(true);
    expect(path, `a temporary file was left\n${what}`).not.toMatch(/kubecheck-/);
  }
  rmSync(work, { recursive: true, force: true });
}

/** One hostile input of a class, and the code its refusal must carry. */
interface Hostile {
  readonly args: readonly string[];
  readonly files: Readonly<Record<string, string>>;
  readonly code: string;
}

const hostile: fc.Arbitrary<Hostile> = fc.oneof(
  // JSON text as c.json or c.yaml (YAML reads JSON too), YAML text as c.yaml.
  protoConfig.chain((text) => fc.constantFrom(...(text.startsWith('{') ? ['c.json', 'c.yaml'] : ['c.yaml'])).map((name) => ({ args: ['check', '--config', name], files: { [name]: text }, code: 'KC109' }))),
  fc.constantFrom(...PROTO_KEYS).map((k) => ({ args: ['check', '--set', `${k}.maxStates=5`], files: {}, code: 'KC109' })),
  hugeKey.map((k) => ({ args: ['check', '--config', 'c.json'], files: { 'c.json': JSON.stringify({ [k]: 1 }) }, code: 'KC102' })),
  hugeArgKey.map((k) => ({ args: ['check', '--set', `${k}=1`], files: {}, code: 'KC102' })),
  oversized.map((kv) => ({ args: ['check', '--set', kv], files: {}, code: 'KC213' })),
  fc.constantFrom(['check', '--config', 'fifo'], ['replay', 'fifo'], ['check', '--extension', 'fifo'], ['check', '--extension', 'zero.mjs'], ['replay', 'zero.itf.json']).map((args) => ({ args, files: {}, code: 'KC201' })),
);

async function runHostile(h: Hostile): Promise<void> {
  const work = join(root, `hostile-${counter++}`);
  mkdirSync(work);
  for (const [name, text] of Object.entries(h.files)) writeFileSync(join(work, name), text);
  spawnSync('mkfifo', [join(work, 'fifo')]);
  for (const name of ['zero.mjs', 'zero.itf.json']) if (existsSync('/dev/zero')) symlinkSync('/dev/zero', join(work, name));
  const r = await new Promise<{ code: number | null; stderr: string }>((resolve) => {
    const child = spawn(process.execPath, [BIN, ...h.args], { cwd: work, env: { ...process.env, NO_COLOR: '1', KUBECHECK_DEBUG: undefined }, stdio: ['ignore', 'ignore', 'pipe'], timeout: 30_000 });
    let stderr = '';
    child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
    child.on('close', (code) => resolve({ code, stderr }));
  });
  const what = `kubecheck ${h.args.map((a) => JSON.stringify(a.length > 80 ? `${a.slice(0, 60)}...(${a.length})` : a)).join(' ')}\nstderr: ${r.stderr.slice(0, 400)}`;
  expect(r.code, what).toBe(2);
  expect(r.stderr.split('\n').filter((l) => l !== ''), what).toEqual([expect.stringMatching(new RegExp(`^kubecheck: ${h.code}: `))]);
  rmSync(work, { recursive: true, force: true });
}

// ---------- signals during writes, concurrent writers ----------

/** One writer of a report: its model size (so reports of different writers differ) and the signal it gets, if any, after a delay. */
interface Writer {
  readonly rms: 2 | 3 | 4;
  readonly signal: 'none' | 'SIGINT' | 'SIGTERM' | 'SIGKILL';
  readonly afterMs: number;
}
const writer: fc.Arbitrary<Writer> = fc.record({
  rms: fc.constantFrom<2 | 3 | 4>(2, 3, 4),
  signal: fc.constantFrom<Writer['signal']>('none', 'SIGINT', 'SIGTERM', 'SIGKILL'),
  afterMs: fc.integer({ min: 0, max: 900 }),
});

/**
 * A report folder holds one run's report, whole: its result.json and report.md tell of the same
 * search, every file it names is there. A run killed during its search leaves the report of the
 * violations it had found (result.json says partial, and names its traces; no report.md).
 */
function expectWhole(out: string, what: string): void {
  const result = JSON.parse(readFileSync(join(out, 'result.json'), 'utf8')) as { stats: { distinctStates: number }; files?: string[]; warnings?: string[] };
  const partial = (result.warnings ?? []).some((w) => w.startsWith('partial: written when'));
  if (!partial) {
    const md = readFileSync(join(out, 'report.md'), 'utf8');
    expect(md, `${what}: report.md and result.json of different runs`).toContain(`${result.stats.distinctStates.toLocaleString('en-US')} distinct states`);
  } else expect(existsSync(join(out, 'report.md')), `${what}: a partial report beside a whole one's report.md`).toBe(false);
  for (const f of result.files ?? []) expect(existsSync(f) || existsSync(join(out, f.split(/[\\/]/).pop() ?? f)), `${what}: ${f} missing`).toBe(true);
}

let writes = 0;

/** Writers side by side into one --out folder, some signalled while they search or write; the folder is never a mix. */
async function runWriters(ws: readonly Writer[]): Promise<void> {
  const work = join(root, `writers-${writes++}`);
  mkdirSync(work);
  const out = join(work, 'report');
  const runs = ws.map(
    (w) =>
      new Promise<{ code: number | null; signal: NodeJS.Signals | null; stderr: string; w: Writer }>((resolve) => {
        const child = spawn(process.execPath, [BIN, 'check', '--scenario', 'two-phase-commit', '--set', `rms=${w.rms}`, '--set', 'bug=commit-on-any-prepared', '--out', out, '--force'], { cwd: work, env: { ...process.env, NO_COLOR: '1' } });
        let stderr = '';
        child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
        const timer = w.signal === 'none' ? undefined : setTimeout(() => child.kill(w.signal as NodeJS.Signals), w.afterMs);
        child.on('close', (code, signal) => {
          clearTimeout(timer);
          resolve({ code, signal, stderr, w });
        });
      }),
  );
  const done = await Promise.all(runs);
  const what = JSON.stringify(ws);
  for (const r of done) {
    // A signal before the handlers are installed (while modules load) ends the process by the signal itself.
    const ok = r.code === 1 || r.code === 130 || r.code === 143 || (r.code === null && r.signal !== null && ['SIGINT', 'SIGTERM', 'SIGKILL'].includes(r.signal));
    expect(ok, `${what}: exit ${r.code} (${r.signal}): ${r.stderr.slice(0, 400)}`).toBe(true);
    expect(r.stderr, what).not.toMatch(/^\s+at |unexpected error/m);
  }
  // Right after: the folder is one run's report, whole, or (a run killed between its two renames) set aside for the next run to put back.
  if (existsSync(out)) expectWhole(out, what);
  else if (!done.some((r) => r.signal === 'SIGKILL' || r.signal === 'SIGTERM')) expect.fail(`${what}: the folder is gone though no run was killed`);
  // The next run puts back what a killed run left and replaces it, whole, leaving nothing beside.
  const next = kubecheck(['check', '--scenario', 'two-phase-commit', '--set', 'rms=2', '--set', 'bug=commit-on-any-prepared', '--out', out, '--force'], { cwd: work });
  expect(next.code, next.stderr).toBe(1);
  expectWhole(out, `${what}, then one more run`);
  expect(readdirSync(work).filter((f) => f.includes('kubecheck-')), what).toEqual([]);
  expect(readdirSync(out).filter((f) => f.includes('kubecheck-')), what).toEqual([]);
}

describe('fuzzing the command line', () => {
  it('should never leave a report folder mixed or lost, whatever writers run side by side and whatever signal reaches them', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(writer, { minLength: 2, maxLength: 3 }), async (ws) => {
        await runWriters(ws);
      }),
      { seed: SEED, numRuns: 6, endOnFailure: true },
    );
  }, 300_000);

  it.skipIf(spawnSync('mkfifo', ['--version']).status !== 0)('should refuse each class of hostile input (prototype keys, huge keys, oversized counts, special files) with its code, at once', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(hostile, { minLength: CASES_PER_RUN, maxLength: CASES_PER_RUN }), async (cases) => {
        await Promise.all(cases.map(runHostile));
      }),
      { seed: SEED, numRuns: 8, endOnFailure: true },
    );
  }, 300_000);

  it('should exit 0-3, say bad input in one coded line, change no file unless asked, and end in time', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(caseArb, { minLength: CASES_PER_RUN, maxLength: CASES_PER_RUN }), async (cases) => {
        await Promise.all(cases.map(runCase));
      }),
      { seed: SEED, numRuns: PROPERTY_RUNS, endOnFailure: true },
    );
  }, 600_000);
});

describe('fuzzing the explorer\'s Host and Origin, and the library\'s caps', () => {
  const PORT = 43_117;
  const own = [`127.0.0.1:${PORT}`, `localhost:${PORT}`, `[::1]:${PORT}`];
  const hostile = fc.oneof(
    fc.string({ maxLength: 40 }),
    fc.domain().map((d) => `${d}:${PORT}`),
    fc.tuple(fc.constantFrom(...own), fc.constantFrom('.evil.example', '@evil.example', ' x', ':1', '/')).map(([h, tail]) => h + tail),
    fc.integer({ min: 0, max: 65_535 }).filter((p) => p !== PORT).map((p) => `127.0.0.1:${p}`),
  ).filter((h) => !own.includes(h.trim().toLowerCase()));

  it('should refuse every Host but its own, and every Origin but its own', async () => {
    const { refuseForeign } = await import('../../cli/explorer.js');
    fc.assert(fc.property(hostile, fc.option(fc.string({ maxLength: 30 })), (host, origin) => {
      expect(refuseForeign({ host, ...(origin === null ? {} : { origin }) }, PORT)?.status).toBe(421);
    }), { seed: SEED, numRuns: 300 });
    fc.assert(fc.property(fc.constantFrom(...own), fc.oneof(fc.webUrl(), fc.string({ maxLength: 30 })), (host, origin) => {
      const o = origin.trim();
      const ownOrigin = /^http:\/\//i.test(o) && own.includes(o.slice(7).toLowerCase());
      expect(refuseForeign({ host, origin }, PORT)?.status).toBe(ownOrigin ? undefined : 403);
    }), { seed: SEED, numRuns: 300 });
  });

  it('should refuse library counts above their bounds with KC213, and never abort', async () => {
    const { kubernetesScenario } = await import('../../api/testing.js');
    fc.assert(fc.property(fc.constantFrom(...COUNT_KEYS), fc.integer({ min: 65, max: 1_000_000_000 }), fc.boolean(), (key, n, asSet) => {
      const [section, name] = key.split('.');
      const input = asSet ? { set: { [key]: String(n) } } : { config: { [section]: { [name]: n } } };
      expect(() => kubernetesScenario('node-failure', input)).toThrow(/^KC213: /);
    }), { seed: SEED, numRuns: 40 });
  });
});
