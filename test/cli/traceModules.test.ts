/**
 * Traces travel with the module: a check records which extension modules it ran (their paths and
 * a content hash over the entry and its relative imports) and the config given, `replay` finds
 * the modules again without `--extension`, refuses one that changed (KC221) unless
 * `--allow-changed-extension`, and a module's `settings` export is the base of the config.
 */
import { createHash } from 'node:crypto';
import { appendFileSync, cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectOneLine, kubecheckAsync, type Run } from './run.js';

const work = mkdtempSync(join(tmpdir(), 'kubecheck-trace-modules-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

/** A counter that breaks its own property in two steps; its limit lives in a sibling module. */
const COUNTER = [
  "import { LIMIT } from './limit.mjs';",
  'export default {',
  "  name: 'counter',",
  '  initial: () => 0,',
  "  actions: [{ name: 'counter-bump', enabled: (s) => s.extensions.counter < LIMIT,",
  '    apply: (s) => ({ ...s, extensions: { ...s.extensions, counter: s.extensions.counter + 1 } }) }],',
  "  properties: [{ kind: 'invariant', id: 'counter-below-limit', description: 'the counter stays below its limit',",
  '    holds: (s) => s.extensions.counter < LIMIT }],',
  '};',
  '',
].join('\n');
const LIMIT = 'export const LIMIT = 2;\n';
const CHECK = ['check', '--scenario', 'node-failure', '--set', 'faults.nodeCrash=0', '--property', 'counter-below-limit', '--quiet'];
const TRACE = 'counter-below-limit.itf.json';

/** Writes the counter module (with `extra` lines, e.g. a settings export) into `dir`. */
function writeModule(dir: string, extra = ''): string {
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'counter.mjs'), `${extra}${COUNTER}`);
  writeFileSync(join(dir, 'limit.mjs'), LIMIT);
  return join(dir, 'counter.mjs');
}

const hex = (bytes: string | Buffer): string => createHash('sha256').update(bytes).digest('hex');

interface ModuleRecord {
  path: string;
  absolutePath: string;
  relativePath?: string;
  sha256: string;
  files: { path: string; sha256: string }[];
  extensions: string[];
  settings?: Record<string, unknown>;
}

const project = join(work, 'project');
const out = join(project, 'out');
let checked: Run;

beforeAll(async () => {
  writeModule(join(project, 'operator'));
  // The module named relatively, from the project folder, as a user types it.
  checked = await kubecheckAsync([...CHECK, '--extension', 'operator/counter.mjs', '--out', 'out'], { cwd: project });
}, 120_000);

describe('traces and configs travel with the module', () => {
  it('should record each module (paths, sha256 over the entry and its relative imports) and the config given in result.json, the ITF #meta and report.md', () => {
    expect(checked.code, checked.stderr).toBe(1);
    const entry = readFileSync(join(project, 'operator', 'counter.mjs'));
    const sibling = readFileSync(join(project, 'operator', 'limit.mjs'));
    const files = [{ path: 'counter.mjs', sha256: `sha256:${hex(entry)}` }, { path: 'limit.mjs', sha256: `sha256:${hex(sibling)}` }];
    const expected: ModuleRecord = {
      path: 'operator/counter.mjs',
      absolutePath: join(project, 'operator', 'counter.mjs'),
      relativePath: '../operator/counter.mjs',
      sha256: `sha256:${hex(files.map((f) => `${f.path}\0${f.sha256}\n`).join(''))}`,
      files,
      extensions: ['counter'],
    };
    const result = JSON.parse(readFileSync(join(out, 'result.json'), 'utf8')) as { extensionModules: ModuleRecord[]; configInput: unknown; config: { faults: { nodeCrash: number } } };
    expect(result.extensionModules).toEqual([expected]);
    expect(result.configInput).toEqual({ files: [], set: { 'faults.nodeCrash': '0' } });
    expect(result.config.faults.nodeCrash).toBe(0);
    const meta = (JSON.parse(readFileSync(join(out, TRACE), 'utf8')) as { '#meta': { extensionModules: ModuleRecord[]; configInput: unknown } })['#meta'];
    expect(meta.extensionModules).toEqual([expected]);
    expect(meta.configInput).toEqual(result.configInput);
    const report = readFileSync(join(out, 'report.md'), 'utf8');
    expect(report).toContain(`| \`operator/counter.mjs\` | counter | \`../operator/counter.mjs\` | \`${expected.absolutePath}\` | \`${expected.sha256}\` (2 files) |`);
    expect(report).toContain('Config given: `--set faults.nodeCrash=0`');
    expect(report).toContain(`re-execute it with \`npx kubecheck replay ${TRACE}\``);
  });

  it('should hash a module differently when only a file it imports changes', async () => {
    const dir = join(work, 'sibling');
    writeModule(dir);
    appendFileSync(join(dir, 'limit.mjs'), '// a comment\n');
    const r = await kubecheckAsync([...CHECK, '--extension', join(dir, 'counter.mjs'), '--json']);
    expect(r.code, r.stderr).toBe(1);
    const [m] = (JSON.parse(r.stdout) as { extensionModules: ModuleRecord[] }).extensionModules;
    const result = JSON.parse(readFileSync(join(out, 'result.json'), 'utf8')) as { extensionModules: ModuleRecord[] };
    expect(m.files[0]).toEqual(result.extensionModules[0].files[0]);
    expect(m.files[1].sha256).not.toBe(result.extensionModules[0].files[1].sha256);
    expect(m.sha256).not.toBe(result.extensionModules[0].sha256);
    expect(m.relativePath).toBeUndefined(); // no --out: nothing to be relative to
  }, 60_000);

  it('should replay the trace without --extension, from any folder, as the report says, and reproduce the violation', async () => {
    const [fromOut, fromElsewhere] = await Promise.all([
      kubecheckAsync(['replay', TRACE, '--quiet'], { cwd: out }),
      kubecheckAsync(['replay', join(out, TRACE), '--quiet'], { cwd: work }),
    ]);
    for (const r of [fromOut, fromElsewhere]) {
      expect(r.code, r.stderr).toBe(1);
      expect(r.stderr).toBe('');
      expect(r.stdout).toMatch(/✗ counter-below-limit violated at step 2 \(T\+0s, after counter-bump\): violation reproduced \(exit 1\)/);
    }
  }, 60_000);

  it('should find a moved results folder\'s module by its relative path first, and refuse it with KC221 when a file it imports changed', async () => {
    const moved = join(work, 'moved');
    cpSync(project, moved, { recursive: true });
    // The module at the recorded absolute path is unchanged: a refusal shows the relative one was read.
    appendFileSync(join(moved, 'operator', 'limit.mjs'), '// edited after the check\n');
    const r = await kubecheckAsync(['replay', join(moved, 'out', TRACE), '--quiet'], { cwd: work });
    expectOneLine(r, 'KC221', /extension module moved\/operator\/counter\.mjs changed since .*counter-below-limit\.itf\.json was made: limit\.mjs differs .*--allow-changed-extension/);
    const allowed = await kubecheckAsync(['replay', join(moved, 'out', TRACE), '--quiet', '--allow-changed-extension'], { cwd: work });
    expect(allowed.code, allowed.stderr).toBe(1);
    expect(allowed.stderr).toMatch(/^kubecheck: warning: extension module moved\/operator\/counter\.mjs changed since .* limit\.mjs differs .*replaying on the module as it is now \(--allow-changed-extension\)\n$/);
    expect(allowed.stdout).toMatch(/violation reproduced \(exit 1\)/);
  }, 60_000);

  it('should replay a TypeScript operator\'s trace with no .ts file on the command line (the example of docs/operators.md)', async () => {
    const results = join(work, 'backup');
    const made = await kubecheckAsync(['check', '--set', 'faults.nodeCrash=0', '--extension', 'examples/backup-operator/backupOperator.ts', '--property', 'backup-operator-external-call-once', '--quiet', '--out', results]);
    expect(made.code, made.stderr).toBe(1);
    const r = await kubecheckAsync(['replay', 'backup-operator-external-call-once.itf.json', '--quiet'], { cwd: results });
    expect(r.code, r.stderr).toBe(1);
    expect(r.stdout).toMatch(/✗ backup-operator-external-call-once violated at step 7 .*violation reproduced \(exit 1\)/);
  }, 120_000);

  it('should say which module it cannot find, in one line', async () => {
    const lost = join(work, 'lost');
    mkdirSync(lost);
    const itf = JSON.parse(readFileSync(join(out, TRACE), 'utf8')) as { '#meta': { extensionModules: ModuleRecord[] } };
    const [m] = itf['#meta'].extensionModules;
    itf['#meta'].extensionModules = [{ ...m, absolutePath: join(work, 'nowhere', 'counter.mjs') }];
    writeFileSync(join(lost, TRACE), JSON.stringify(itf));
    const r = await kubecheckAsync(['replay', join(lost, TRACE)]);
    expectOneLine(r, 'KC201', /was made with extension module operator\/counter\.mjs, found neither at \.\.\/operator\/counter\.mjs from the trace's folder nor at .*nowhere.*; give it with --extension FILE/);
  }, 60_000);

  it('should refuse a trace whose recorded modules are not what kubecheck writes (KC203), in one line', async () => {
    const edited = join(work, 'edited');
    mkdirSync(edited);
    const itf = JSON.parse(readFileSync(join(out, TRACE), 'utf8')) as { '#meta': Record<string, unknown> };
    itf['#meta'].extensionModules = [{ path: 'x.mjs', absolutePath: 'relative/x.mjs', sha256: 'sha256:00' }];
    writeFileSync(join(edited, TRACE), JSON.stringify(itf));
    const r = await kubecheckAsync(['replay', join(edited, TRACE)]);
    expectOneLine(r, 'KC203', /#meta\.extensionModules\[0\]\.absolutePath is not an absolute path/);
  }, 60_000);

  it('should apply a module\'s settings export as the base config, and accept a --set that agrees', async () => {
    const module = writeModule(join(work, 'settings'), "export const settings = { 'cluster.nodes': 2, 'kubeControllerManager.nodeMonitorGracePeriod': '50s' };\n");
    const [alone, agreeing, agreeingDuration] = await Promise.all([
      kubecheckAsync([...CHECK, '--extension', module, '--json']),
      kubecheckAsync([...CHECK, '--extension', module, '--set', 'cluster.nodes=2', '--json']),
      kubecheckAsync([...CHECK, '--extension', module, '--set', 'kubeControllerManager.nodeMonitorGracePeriod=50s', '--json']),
    ]);
    for (const r of [alone, agreeing, agreeingDuration]) {
      expect(r.code, r.stderr).toBe(1);
      const j = JSON.parse(r.stdout) as { config: { cluster: { nodes: number }; kubeControllerManager: { nodeMonitorGracePeriod: string } }; extensionModules: ModuleRecord[] };
      expect(j.config.cluster.nodes).toBe(2);
      expect(j.config.kubeControllerManager.nodeMonitorGracePeriod).toBe('50s');
      expect(j.extensionModules[0].settings).toEqual({ 'cluster.nodes': 2, 'kubeControllerManager.nodeMonitorGracePeriod': '50s' });
    }
  }, 120_000);

  it('should replay a trace of a module with settings, and take a --set given to replay on them as check did', async () => {
    const module = writeModule(join(work, 'replay-settings', 'operator'), "export const settings = { 'cluster.nodes': 2 };\n");
    const results = join(work, 'replay-settings', 'out');
    const made = await kubecheckAsync([...CHECK, '--extension', module, '--out', results]);
    expect(made.code, made.stderr).toBe(1);
    const [plain, agreeing, contradicting] = await Promise.all([
      kubecheckAsync(['replay', join(results, TRACE), '--quiet']),
      kubecheckAsync(['replay', join(results, TRACE), '--quiet', '--set', 'faults.nodeCrash=0']),
      kubecheckAsync(['replay', join(results, TRACE), '--quiet', '--set', 'faults.nodeCrash=1']),
    ]);
    for (const r of [plain, agreeing]) {
      expect(r.code, r.stderr).toBe(1);
      expect(r.stdout).toMatch(/violation reproduced \(exit 1\)/);
    }
    expectOneLine(contradicting, 'KC204', /was made for another config: faults\.nodeCrash is 0 in the trace, 1 here/);
  }, 120_000);

  it('should refuse a --set that contradicts a module\'s settings, and a bad key or value in them, in one coded line', async () => {
    const good = writeModule(join(work, 'clash'), "export const settings = { 'cluster.nodes': 2 };\n");
    const badKey = writeModule(join(work, 'bad-key'), "export const settings = { 'cluster.nodez': 2 };\n");
    const badValue = writeModule(join(work, 'bad-value'), "export const settings = { 'kubeControllerManager.nodeMonitorGracePeriod': 50 };\n");
    const [clash, key, value] = await Promise.all([
      kubecheckAsync([...CHECK, '--extension', good, '--set', 'cluster.nodes=3']),
      kubecheckAsync([...CHECK, '--extension', badKey]),
      kubecheckAsync([...CHECK, '--extension', badValue]),
    ]);
    expectOneLine(clash, 'KC200', /--set cluster\.nodes=3 contradicts extension .*clash\/counter\.mjs, whose settings export gives cluster\.nodes: 2/);
    expectOneLine(key, 'KC102', /extension .*bad-key\/counter\.mjs: unknown parameter "cluster\.nodez" \(its settings export\); did you mean cluster\.nodes\b/);
    expectOneLine(value, 'KC103', /extension .*bad-value\/counter\.mjs: kubeControllerManager\.nodeMonitorGracePeriod: duration 50 has no unit/);
  }, 120_000);
});
