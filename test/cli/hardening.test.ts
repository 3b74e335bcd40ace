/**
 * Hostile and careless input that once changed an option, hung the command, aborted the process
 * or left a mixed report. Every case is refused with one coded line and exit 2 (or, for writes and
 * signals, leaves the earlier report whole); the commands run as separate processes, as users run
 * them.
 */
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, lstatSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, renameSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { importSources } from '../../cli/import/importer.js';
import { collectSet, readConfigFile } from '../../cli/input.js';
import { countBounds, MAX_CLUSTER_SIZE, refuseOversizedConfig, refuseOversizedInput } from '../../cli/limits.js';
import { parameterSpecs } from '../../model/parameters.js';
import { resolveConfig } from '../../model/resolve.js';
import { BIN, kubecheckAsync, ROOT, type Run } from './run.js';

const dir = mkdtempSync(join(tmpdir(), 'kubecheck-hard-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Exit 2 and exactly one line on stderr, `kubecheck: <code>: ...`, never a stack trace. */
export function expectOneLine(r: Run, code: string, pattern?: RegExp): void {
  const lines = r.stderr.split('\n').filter((l) => l !== '');
  expect({ code: r.code, lines }, r.stderr).toMatchObject({ code: 2, lines: [expect.stringMatching(new RegExp(`^kubecheck: ${code}: `))] });
  if (pattern) expect(lines[0]).toMatch(pattern);
  expect(r.stderr).not.toMatch(/^\s+at |unexpected error/m);
}

function file(name: string, content: string): string {
  const path = join(dir, name);
  writeFileSync(path, content);
  return path;
}

const TWO_PHASE = ['--scenario', 'two-phase-commit'];

describe('prototype keys in user data (KC109)', () => {
  /** What each option would do if a config could reach it. */
  const OPTIONS: readonly Record<string, unknown>[] = [{ allowUnsafe: true }, { force: true }, { maxStates: 5 }, { json: true }];

  it('should refuse __proto__, constructor and prototype in YAML and JSON configs, and change no option', async () => {
    const out = join(dir, 'existing-out');
    mkdirSync(out);
    writeFileSync(join(out, 'notes.md'), 'mine');
    const cases: { path: string; key: string }[] = [];
    OPTIONS.forEach((o, i) => {
      cases.push({ path: file(`proto-${i}.json`, JSON.stringify({ ['__proto__']: o })), key: '__proto__' });
      cases.push({ path: file(`proto-${i}.yaml`, `__proto__:\n  ${Object.keys(o)[0]}: ${String(Object.values(o)[0])}\n`), key: '__proto__' });
      cases.push({ path: file(`ctor-${i}.yaml`, `constructor:\n  prototype:\n    ${Object.keys(o)[0]}: ${String(Object.values(o)[0])}\n`), key: 'constructor' });
      cases.push({ path: file(`nested-${i}.json`, JSON.stringify({ cluster: { prototype: o } })), key: 'prototype' });
    });
    // Unsafe leader election (KC105 without allowUnsafe), and an --out that holds a file (KC207 without --force).
    const runs = await Promise.all(cases.map((c) => kubecheckAsync(['check', '--config', c.path, '--set', 'kubeControllerManager.leaderElection.renewDeadline=20s', '--out', out])));
    runs.forEach((r, i) => {
      expectOneLine(r, 'KC109', new RegExp(`the key "${cases[i].key}".* is refused`));
      expect(r.stdout).toBe('');
    });
    expect(readFileSync(join(out, 'notes.md'), 'utf8')).toBe('mine');
  }, 120_000);

  it('should refuse them in --set, in a trace\'s #meta.config, in Kubernetes files and in flags files', async () => {
    const trace = JSON.parse(readFileSync(join(ROOT, 'test/cli/fixtures/two-phase-commit.itf.json'), 'utf8')) as { '#meta': { config: Record<string, unknown> } };
    const withProto = { ...trace, '#meta': { ...trace['#meta'], config: { ...trace['#meta'].config } } };
    Object.defineProperty(withProto['#meta'].config, '__proto__', { value: { allowUnsafe: true, maxStates: 5 }, enumerable: true });
    const meta = file('proto.itf.json', JSON.stringify(withProto));
    const escaped = file('escaped.itf.json', readFileSync(meta, 'utf8').replace('"__proto__"', '"\\u005f_proto__"'));
    const kubelet = file('kubelet-proto.yaml', 'apiVersion: kubelet.config.k8s.io/v1beta1\nkind: KubeletConfiguration\n__proto__:\n  json: true\n');
    const manifest = file('deploy-proto.json', JSON.stringify({ apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'web', constructor: { prototype: { force: true } } }, spec: { replicas: 2 } }));
    const flags = file('kcm-proto.flags', 'kube-controller-manager --__proto__=1 --node-monitor-grace-period=40s\n');
    const ctorFlag = file('kcm-ctor.flags', 'kube-controller-manager --constructor=1\n');
    const runs = await Promise.all([
      kubecheckAsync(['check', ...TWO_PHASE, '--set', '__proto__.maxStates=5']),
      kubecheckAsync(['check', ...TWO_PHASE, '--set', 'constructor.prototype.json=true']),
      kubecheckAsync(['replay', meta]),
      kubecheckAsync(['replay', escaped]),
      kubecheckAsync(['graph', ...TWO_PHASE, '--trace', meta]),
      kubecheckAsync(['check', '--config', kubelet]),
      kubecheckAsync(['import', manifest]),
      kubecheckAsync(['import', flags]),
      kubecheckAsync(['check', '--config', ctorFlag]),
    ]);
    expect(readFileSync(meta, 'utf8')).toContain('"__proto__":{"allowUnsafe":true');
    expectOneLine(runs[0], 'KC109', /--set: the key "__proto__" \(at __proto__\.maxStates\)/);
    expectOneLine(runs[1], 'KC109', /--set: the key "constructor"/);
    for (const r of runs.slice(2, 5)) expectOneLine(r, 'KC109', /the key "__proto__" \(at #meta\.config\.__proto__\)/);
    expectOneLine(runs[5], 'KC109', /kubelet-proto\.yaml: the key "__proto__"/);
    expectOneLine(runs[6], 'KC109', /deploy-proto\.json: the key "constructor" \(at metadata\.constructor\)/);
    expectOneLine(runs[7], 'KC109', /kcm-proto\.flags: the key "__proto__" \(at --__proto__\)/);
    expectOneLine(runs[8], 'KC109', /kcm-ctor\.flags: the key "constructor"/);
  }, 120_000);

  it('should leave Object.prototype untouched whatever the reader is given', () => {
    const probe = {} as Record<string, unknown>;
    expect(() => readConfigFile(file('in-process.json', '{"__proto__": {"polluted": true}}'))).toThrow(/KC109/);
    expect(() => collectSet('__proto__.polluted=1')).toThrow(/KC109/);
    // A source that slipped past the reader (an own "__proto__" key, as JSON.parse makes it).
    const value = JSON.parse('{"__proto__": {"polluted": true}}') as Record<string, unknown>;
    expect(() => importSources([{ file: 'x.json', type: 'kubecheck', value }])).toThrow(/KC109/);
    const nested = JSON.parse('{"cluster": {"constructor": {"prototype": {"polluted": true}}}}') as Record<string, unknown>;
    expect(() => importSources([{ file: 'y.json', type: 'kubecheck', value: nested }])).toThrow(/KC109/);
    expect(probe.polluted).toBeUndefined();
    expect(Object.prototype).not.toHaveProperty('polluted');
    // --set pairs live in a record without a prototype.
    expect(Object.getPrototypeOf(collectSet('rms=2'))).toBeNull();
    expect(existsSync(dir)).toBe(true);
  });
});

describe('special files are refused before they are opened (KC201)', () => {
  const hasMkfifo = spawnSync('mkfifo', ['--version']).status === 0;

  it.skipIf(!hasMkfifo)('should refuse an extension that imports a FIFO by a relative path, directly or through another module, before loading it', async () => {
    const ext = join(dir, 'ext-imports-fifo');
    mkdirSync(join(ext, 'lib'), { recursive: true });
    expect(spawnSync('mkfifo', [join(ext, 'lib', 'data.mjs')]).status).toBe(0);
    writeFileSync(join(ext, 'direct.mjs'), "import './lib/data.mjs';\nexport default { name: 'x', initial: () => 0, actions: [] };\n");
    writeFileSync(join(ext, 'lib', 'helper.ts'), "export { value } from './data.mjs';\n");
    writeFileSync(join(ext, 'through.ts'), "import { value } from './lib/helper.js';\nexport default { name: 'x', initial: () => value, actions: [] };\n");
    const [direct, through] = await Promise.all([
      kubecheckAsync(['check', '--extension', join(ext, 'direct.mjs')], { timeoutMs: 120_000 }),
      kubecheckAsync(['check', '--extension', join(ext, 'through.ts')], { timeoutMs: 120_000 }),
    ]);
    expectOneLine(direct, 'KC201', /cannot load \.\/lib\/data\.mjs, imported by extension .*direct\.mjs: not a regular file but a named pipe \(FIFO\)/);
    expectOneLine(through, 'KC201', /cannot load \.\/data\.mjs, imported by lib\/helper\.ts: not a regular file but a named pipe \(FIFO\)/);
  }, 300_000);

  it.skipIf(!hasMkfifo)('should refuse a FIFO as --config, trace, --extension or import file, without hanging', async () => {
    const fifo = join(dir, 'pipe');
    expect(spawnSync('mkfifo', [fifo]).status).toBe(0);
    const folder = join(dir, 'with-fifo');
    mkdirSync(folder);
    writeFileSync(join(folder, 'c.yaml'), 'rms: 2\n');
    expect(spawnSync('mkfifo', [join(folder, 'z.yaml')]).status).toBe(0);
    // A process that hangs on the FIFO is ended by its timeout and fails the one-line checks below.
    const runs = await Promise.all([
      kubecheckAsync(['check', '--config', fifo], { timeoutMs: 120_000 }),
      kubecheckAsync(['replay', fifo], { timeoutMs: 120_000 }),
      kubecheckAsync(['graph', ...TWO_PHASE, '--trace', fifo], { timeoutMs: 120_000 }),
      kubecheckAsync(['check', '--extension', fifo], { timeoutMs: 120_000 }),
      kubecheckAsync(['import', fifo], { timeoutMs: 120_000 }),
      kubecheckAsync(['check', ...TWO_PHASE, '--config', folder, '--max-states', '5', '--json'], { timeoutMs: 120_000 }),
    ]);
    expectOneLine(runs[0], 'KC201', /cannot read config file .*pipe: not a regular file but a named pipe \(FIFO\)/);
    expectOneLine(runs[1], 'KC201', /cannot read trace file .*pipe: not a regular file but a named pipe/);
    expectOneLine(runs[2], 'KC201', /cannot read trace file .*pipe: not a regular file but a named pipe/);
    expectOneLine(runs[3], 'KC201', /cannot load extension .*pipe: not a regular file but a named pipe/);
    expectOneLine(runs[4], 'KC201', /cannot read config file .*pipe: not a regular file/);
    // In a folder, a FIFO is one of the files skipped (listed), not read.
    expect(runs[5].code, runs[5].stderr).toBe(3);
    expect(JSON.parse(runs[5].stdout).notModelled).toEqual([expect.stringMatching(/^skipped: .*z\.yaml \(not a regular file\)$/)]);
  }, 300_000);

  it.skipIf(!existsSync('/dev/zero'))('should refuse an extension or a trace that is a symbolic link to /dev/zero, and a file larger than its bound', async () => {
    const zeroTs = join(dir, 'zero.ts');
    symlinkSync('/dev/zero', zeroTs);
    const zeroTrace = join(dir, 'zero.itf.json');
    symlinkSync('/dev/zero', zeroTrace);
    const big = file('big.yaml', `# ${'x'.repeat(1024 * 1024)}\nrms: 2\n`);
    const runs = await Promise.all([
      kubecheckAsync(['check', '--extension', zeroTs], { timeoutMs: 120_000 }),
      kubecheckAsync(['replay', zeroTrace], { timeoutMs: 120_000 }),
      kubecheckAsync(['check', ...TWO_PHASE, '--config', big], { timeoutMs: 120_000 }),
    ]);
    expectOneLine(runs[0], 'KC201', /cannot load extension .*zero\.ts: not a regular file but a character device/);
    expectOneLine(runs[1], 'KC201', /cannot read trace file .*zero\.itf\.json: not a regular file but a character device/);
    expectOneLine(runs[2], 'KC201', /big\.yaml is 1\.0 MiB, more than the 1\.0 MiB a config file can be/);
  }, 300_000);
});

describe('every count has its bound from the parameter declarations (KC213)', () => {
  it('should refuse each count parameter one above its bound, accept all of them at their bounds, and cap no other integer', () => {
    const bounds = countBounds();
    const integers = parameterSpecs().filter((s) => s.type === 'integer');
    // A new integer parameter declares its bound (or null) where it is declared: the type needs it.
    // Only seconds, thresholds and a capacity (what the model compares with, never builds) are uncapped.
    const uncapped = integers.filter((s) => s.max === null).map((s) => s.key);
    for (const key of uncapped) expect(key).toMatch(/(Seconds|Threshold)$|^cluster\.maxPods$/);
    expect(uncapped).toContain('cluster.maxPods');
    expect(bounds.length).toBe(integers.length - uncapped.length);
    for (const key of ['cluster.nodes', 'cluster.apiservers', 'cluster.etcdMembers', 'cluster.zones', 'faults.nodeCrash', 'operator.deleteNode']) expect(bounds.map((b) => b.key)).toContain(key);
    // Every count at its bound at once (so that no other rule, such as zones at most nodes, speaks first).
    const atBounds = Object.fromEntries(bounds.map(({ key, max }) => [key, String(max)]));
    // As the command line does: the values given, then the config they resolve to.
    const refuse = (scenario: string, input: { set: Record<string, string>; allowUnsafe: boolean }): void => {
      refuseOversizedInput('kubernetes', input);
      refuseOversizedConfig(resolveConfig(scenario, input));
    };
    expect(() => refuse('node-failure', { set: atBounds, allowUnsafe: true })).not.toThrow();
    for (const { key, max } of bounds) {
      expect(max).toBe(MAX_CLUSTER_SIZE);
      let error: unknown;
      try {
        refuse('node-failure', { set: { ...atBounds, [key]: String(max + 1) }, allowUnsafe: true });
      } catch (e) {
        error = e;
      }
      expect(String(error), key).toMatch(new RegExp(`^KubecheckError: KC213: ${key.replace(/\./g, '\\.')} \\(${max + 1}\\) is above the limit of ${max}`));
    }
  });

  it('should keep the README\'s promise "never with a heap-out-of-memory abort": refuse cluster.apiservers=100000000 at once from --set, a config file and a trace\'s #meta.config', async () => {
    const config = file('apiservers.yaml', 'cluster:\n  apiservers: 100000000\n');
    const trace = file('apiservers.itf.json', JSON.stringify({ '#meta': { scenario: 'node-failure', config: { cluster: { apiservers: 100000000 } } }, vars: [], states: [{}] }));
    const runs = await Promise.all([
      kubecheckAsync(['check', '--set', 'cluster.apiservers=100000000'], { timeoutMs: 200_000 }),
      kubecheckAsync(['check', '--config', config], { timeoutMs: 200_000 }),
      kubecheckAsync(['replay', trace], { timeoutMs: 200_000 }),
      kubecheckAsync(['check', '--set', 'faults.nodeCrash=1000000'], { timeoutMs: 200_000 }),
    ]);
    for (const r of runs.slice(0, 3)) expectOneLine(r, 'KC213', /cluster\.apiservers \(100000000\) is above the limit of 64/);
    expectOneLine(runs[3], 'KC213', /faults\.nodeCrash \(1000000\) is above the limit of 64/);
  }, 90_000);
});

describe('"did you mean" costs nothing for a huge key (KC102)', () => {
  it('should refuse a 1,000,000-character key of a config file, a 100,000-character --set key and a huge #meta.config key at once', async () => {
    const huge = 'k'.repeat(1_000_000);
    const config = file('huge-key.json', JSON.stringify({ [huge]: 1 }));
    const section = file('huge-section-key.yaml', `cluster:\n  ? ${huge}\n  : 1\n`); // an explicit key: YAML's implicit ones end at 1024 characters
    const trace = file('huge-key.itf.json', JSON.stringify({ '#meta': { scenario: 'node-failure', config: { [huge]: 1 } }, vars: [], states: [{}] }));
    const started = Date.now();
    const runs = await Promise.all([
      kubecheckAsync(['check', '--config', config], { timeoutMs: 200_000 }),
      kubecheckAsync(['check', '--config', section], { timeoutMs: 200_000 }),
      kubecheckAsync(['check', '--set', `${'s'.repeat(100_000)}=1`], { timeoutMs: 200_000 }),
      kubecheckAsync(['replay', trace], { timeoutMs: 200_000 }),
      kubecheckAsync(['check', '--scenario', 'x'.repeat(100_000)], { timeoutMs: 200_000 }),
    ]);
    expect(Date.now() - started).toBeLessThan(180_000); // 240 s and 50 s before on an idle machine, 2 s since
    expectOneLine(runs[0], 'KC102', /unknown parameter "kkk+\.\.\. \(1,000,000 characters\)" \(.*huge-key\.json\): no parameter is longer than 200 characters/);
    expectOneLine(runs[1], 'KC102', /unknown parameter "cluster\.kkk+\.\.\. \(1,000,008 characters\)"/);
    expectOneLine(runs[2], 'KC102', /unknown parameter "sss+\.\.\. \(100,000 characters\)" \(--set\)/);
    expectOneLine(runs[3], 'KC102', /#meta\.config\): no parameter is longer/);
    expectOneLine(runs[4], 'KC209', /unknown scenario "xxx+\.\.\. \(100,000 characters\)"; known: node-failure/);
    for (const r of runs) expect(r.stderr.length).toBeLessThan(2000);
  }, 90_000);
});

const BUGGY = ['--scenario', 'two-phase-commit', '--set', 'bug=commit-on-any-prepared'];

/** Every file under `root` with its content and inode (hard links keep it), to show what changed. */
function snapshot(root: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const e of readdirSync(root, { withFileTypes: true, recursive: true })) {
    const path = join(e.parentPath, e.name);
    out[path.slice(root.length)] = e.isFile() ? readFileSync(path, 'utf8') : '<folder>';
  }
  return out;
}

/** The pid of a process that has ended (no process has it now). */
function deadPid(): number {
  const r = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))'], { encoding: 'utf8' });
  return Number(r.stdout);
}

describe('--out is refused before the search when it cannot be written (KC214)', () => {
  it('should refuse a dangling or looping symbolic link and an over-long name at once, naming the problem', async () => {
    const dangling = join(dir, 'dangling');
    symlinkSync(join(dir, 'nowhere', 'x'), dangling);
    const loopA = join(dir, 'loop-a');
    symlinkSync(join(dir, 'loop-b'), loopA);
    symlinkSync(loopA, join(dir, 'loop-b'));
    // rms=9 takes far longer than the bound below to check: only a refusal before the search fits in it.
    const SLOW = ['check', '--scenario', 'two-phase-commit', '--set', 'rms=9'];
    const runs = await Promise.all([
      kubecheckAsync([...SLOW, '--out', dangling], { timeoutMs: 120_000 }),
      kubecheckAsync([...SLOW, '--out', join(dangling, 'sub')], { timeoutMs: 120_000 }),
      kubecheckAsync([...SLOW, '--out', loopA], { timeoutMs: 120_000 }),
      kubecheckAsync([...SLOW, '--out', join(loopA, 'sub')], { timeoutMs: 120_000 }),
      kubecheckAsync([...SLOW, '--out', join(dir, 'n'.repeat(300))], { timeoutMs: 120_000 }),
      kubecheckAsync([...SLOW, '--out', join(dir, 'n'.repeat(240))], { timeoutMs: 120_000 }),
    ]);
    expectOneLine(runs[0], 'KC214', /dangling is a symbolic link to .*nowhere\/x, which does not exist/);
    expectOneLine(runs[1], 'KC214', /dangling is a symbolic link to .*nowhere\/x, which does not exist/);
    expectOneLine(runs[2], 'KC214', /loop-a is a symbolic link in a loop of links/);
    expectOneLine(runs[3], 'KC214', /a loop of symbolic links/);
    expectOneLine(runs[4], 'KC214', /is 300 bytes, more than the 200 a report folder's name can be/);
    expectOneLine(runs[5], 'KC214', /is 240 bytes, more than the 200/);
    for (const r of runs) {
      expect(r.stdout).toBe('');
      expect(r.stderr).not.toMatch(/a part of the path is a file/);
    }
  }, 300_000);
});

describe('--out DIR --force replaces the report folder as a whole', () => {
  it('should replace the folder by renames, keep the user\'s files (the same inode), follow a link to the folder, and remove what killed runs left', async () => {
    const out = join(dir, 'whole');
    expect((await kubecheckAsync(['check', ...BUGGY, '--out', out])).code).toBe(1);
    writeFileSync(join(out, 'notes.md'), 'mine');
    const notes = statSync(join(out, 'notes.md')).ino;
    const folder = statSync(out).ino;
    // Left by runs that were killed: an old version's temporary folder inside, a half-written one beside.
    mkdirSync(join(out, '.kubecheck-Ab12Cd'));
    writeFileSync(join(out, '.kubecheck-Ab12Cd', 'report.md'), 'half');
    const dead = deadPid();
    mkdirSync(join(dir, `.whole.kubecheck-${dead}-new-Xy34Zw`));
    const link = join(dir, 'whole-link');
    symlinkSync(out, link);
    const r = await kubecheckAsync(['check', '--scenario', 'two-phase-commit', '--set', 'rms=2', '--out', link, '--force']);
    expect(r.code, r.stderr).toBe(0);
    expect(statSync(out).ino).not.toBe(folder); // a new folder took the place of the earlier one
    expect(lstatSync(link).isSymbolicLink()).toBe(true);
    expect(readdirSync(out).sort()).toEqual(['notes.md', 'report.html', 'report.md', 'result.json', 'state-graph.dot', 'state-graph.svg']);
    expect(statSync(join(out, 'notes.md')).ino).toBe(notes);
    expect(readdirSync(dir).filter((f) => f.includes('kubecheck-'))).toEqual([]);
  }, 300_000);

  // Renaming an immutable file fails (EPERM): a way to make a replacement fail halfway. Needs root and chattr.
  const canPin = spawnSync('sh', ['-c', `f=${dir}/pin-probe; touch $f && chattr +i $f && chattr -i $f`]).status === 0;
  it.skipIf(!canPin)('should leave the earlier report whole when replacing it file by file fails halfway (a folder of the user\'s inside), and put back what a killed run set aside', async () => {
    const out = join(dir, 'in-place');
    expect((await kubecheckAsync(['check', ...BUGGY, '--out', out])).code).toBe(1);
    // A folder of the user's: the report folder cannot be moved as a whole, so files are replaced one by one.
    mkdirSync(join(out, 'mine'));
    writeFileSync(join(out, 'mine', 'notes.md'), 'mine');
    const before = snapshot(out);
    const pinned = join(out, readdirSync(out).filter((f) => f !== 'mine' && f !== 'result.json').sort()[0]);
    spawnSync('chattr', ['+i', pinned]);
    let r: Run;
    try {
      r = await kubecheckAsync(['check', '--scenario', 'two-phase-commit', '--set', 'rms=2', '--out', out, '--force']);
    } finally {
      spawnSync('chattr', ['-i', pinned]);
    }
    expectOneLine(r, 'KC214', /nothing was written, the earlier report is as it was/);
    expect(snapshot(out)).toEqual(before);
    // A run killed after setting the earlier files aside: the next run puts them back first (then replaces them, with --force).
    const aside = join(out, `.kubecheck-${deadPid()}-old-Ab12Cd`);
    mkdirSync(aside);
    renameSync(join(out, 'result.json'), join(aside, 'result.json'));
    const refused = await kubecheckAsync(['check', '--scenario', 'two-phase-commit', '--set', 'rms=2', '--out', out]);
    expect(refused.code).toBe(2);
    expect(snapshot(out)).toEqual(before);
    const ok = await kubecheckAsync(['check', '--scenario', 'two-phase-commit', '--set', 'rms=2', '--out', out, '--force']);
    expect(ok.code, ok.stderr).toBe(0);
    expect(readFileSync(join(out, 'result.json'), 'utf8')).toMatch(/"verdict": ?"ok"/);
    expect(readFileSync(join(out, 'mine', 'notes.md'), 'utf8')).toBe('mine');
    expect(readdirSync(out).filter((f) => f.includes('kubecheck-'))).toEqual([]);
  }, 90_000);

  it('should put back an earlier report that a killed run had moved aside, and then refuse to overwrite it without --force', async () => {
    const out = join(dir, 'restored');
    expect((await kubecheckAsync(['check', ...BUGGY, '--out', out])).code).toBe(1);
    const before = snapshot(out);
    const aside = join(dir, `.restored.kubecheck-${deadPid()}-old-Qw12Er`);
    mkdirSync(aside);
    renameSync(out, join(aside, 'report')); // killed between its two renames
    const r = await kubecheckAsync(['check', ...BUGGY, '--out', out]);
    expectOneLine(r, 'KC207', /restored already holds files/);
    expect(snapshot(out)).toEqual(before);
    expect(existsSync(aside)).toBe(false);
  }, 300_000);

  it('should keep the README\'s promise "files are never half-written": exit 130 on Ctrl-C (143 on SIGTERM) while the reports are written, the report of the violations found during the search intact or the new one whole, never mixed', async () => {
    const out = join(dir, 'interrupted');
    expect((await kubecheckAsync(['check', ...BUGGY, '--out', out])).code).toBe(1);
    // The earlier run's files as it wrote them (an edited one would be the user's, and kept).
    expect(readdirSync(out)).toContain('report.md');
    const outcomes: string[] = [];
    // Ctrl-C (or SIGTERM, as a CI runner cancels) as soon as the new report's temporary folder appears beside the folder: it is being written.
    // The violation found during the search was written first (before its "found" line): that partial report is what an interruption leaves.
    for (const [sig, exit] of [['SIGINT', 130], ['SIGINT', 130], ['SIGINT', 130], ['SIGTERM', 143], ['SIGTERM', 143]] as const) {
      const child = spawn(process.execPath, [BIN, 'check', ...BUGGY, '--out', out, '--force'], { cwd: ROOT, env: { ...process.env, NO_COLOR: '1' } });
      let stderr = '';
      let partial: Record<string, string> | undefined;
      child.stderr.setEncoding('utf8').on('data', (d: string) => {
        stderr += d;
        if (partial === undefined && /^kubecheck: found: consistent violated/m.test(stderr)) partial = snapshot(out);
      });
      const closed = new Promise<[number | null, NodeJS.Signals | null]>((res) => child.on('close', (c, sig) => res([c, sig])));
      let sent = false;
      const watch = setInterval(() => {
        if (!sent && partial !== undefined && readdirSync(dir).some((f) => f.startsWith('.interrupted.kubecheck-'))) {
          sent = true;
          child.kill(sig);
        }
      }, 1);
      const [code, signal] = await closed;
      clearInterval(watch);
      if (!sent) continue; // the run ended before the final report's folder was seen
      expect({ code, signal }, stderr).toEqual({ code: exit, signal: null });
      const now = snapshot(out);
      expect(Object.keys(partial!)).toContain('/result.json');
      expect(partial!['/report.md']).toBeUndefined(); // the earlier run's report.md, gone with the earlier report the partial one replaced
      if (/nothing more was written/.test(stderr)) expect(now).toEqual(partial);
      else {
        expect(stderr).toMatch(/holds this run's report, whole/);
        expect(now['/report.md']).toBeDefined();
      }
      outcomes.push(/nothing more was written/.test(stderr) ? 'partial kept' : 'new whole');
      expect(readdirSync(dir).filter((f) => f.includes('kubecheck-'))).toEqual([]);
    }
    expect(outcomes.length).toBeGreaterThan(0);
  }, 120_000);
});

describe('an extension cannot hang, end or crash the check (KC215)', () => {
  const ext = (name: string, text: string): string => file(name, text);

  it('should bound loading, refuse process.exit during and after loading, and code every kind of throw', async () => {
    const env = { KUBECHECK_EXTENSION_TIMEOUT: '2' };
    const throws = ['null', 'undefined', "Symbol('s')", '42', "'a string'", '{ get message() { throw 1; } }', 'new Proxy({}, { get() { throw 1; }, getPrototypeOf() { throw 2; } })', 'Object.create(null)', "new TypeError('boom')", "new Error('a\\nb')"];
    const cases: [string, RegExp][] = [
      [ext('tla.mjs', 'await new Promise(() => {});\nexport default {};\n'), /did not finish loading within 2 s/],
      [ext('tla-timer.mjs', 'setInterval(() => {}, 1000);\nawait new Promise(() => {});\nexport default {};\n'), /did not finish loading within 2 s/],
      [ext('exit0.mjs', 'process.exit(0);\nexport default {};\n'), /called process\.exit\(0\) while loading/],
      [ext('exit-initial.mjs', 'export default { name: "x", initial: () => { process.exit(0); }, actions: [] };\n'), /the process was ended \(process\.exit\) before the command finished/],
      [ext('syntax.mjs', 'export default {\n'), /failed while loading: SyntaxError/],
      ...throws.map((t, i): [string, RegExp] => [ext(`throw-${i}.mjs`, `throw ${t};\n`), /failed while loading: /]),
    ];
    // A load that hangs is ended by the process timeout and fails the one-line check.
    const runs = await Promise.all(cases.map(([path]) => kubecheckAsync(['check', '--extension', path, '--max-states', '10'], { env, timeoutMs: 120_000 })));
    runs.forEach((r, i) => {
      expectOneLine(r, 'KC215', cases[i][1]);
      expect(r.stdout).toBe('');
    });
    expect(runs[5].stderr).toMatch(/threw null/);
    expect(runs[7].stderr).toMatch(/threw Symbol\(s\)/);
    expect(runs[13].stderr).toMatch(/TypeError: boom/);
  }, 90_000);

  it('should load a .ts extension as an ES module in a project whose package.json has no "type": "module", top-level await and imports of kubecheck included', async () => {
    // A user's project: kubecheck installed in node_modules, a package.json without "type".
    const project = join(dir, 'commonjs-project');
    mkdirSync(join(project, 'node_modules'), { recursive: true });
    writeFileSync(join(project, 'package.json'), '{ "name": "my-operators", "version": "1.0.0" }\n');
    symlinkSync(ROOT, join(project, 'node_modules', 'kubecheck'));
    const operator = readFileSync(join(ROOT, 'examples/backup-operator/backupOperator.ts'), 'utf8');
    writeFileSync(join(project, 'myop.ts'), operator);
    writeFileSync(join(project, 'tla.ts'), 'await Promise.resolve(1);\nexport default { name: "tla", initial: () => 0, actions: [], symmetric: true };\n');
    writeFileSync(join(project, 'cjs.ts'), 'const fs = require("fs");\nmodule.exports = { name: "cjs", initial: () => 0, actions: [] };\n');
    const [mine, tla, cjs] = await Promise.all([
      kubecheckAsync(['check', '--set', 'faults.nodeCrash=0', '--extension', './myop.ts', '-q'], { cwd: project }),
      kubecheckAsync(['check', '--extension', './tla.ts', '--max-states', '5'], { cwd: project }),
      kubecheckAsync(['check', '--extension', './cjs.ts'], { cwd: project }),
    ]);
    // The operator's own property is checked and found violated, as from the repository.
    expect(mine.code, mine.stderr).toBe(1);
    expect(mine.stdout).toMatch(/backup-operator-external-call-once\s+violated/);
    expect(tla.code, tla.stderr).toBe(3);
    expectOneLine(cjs, 'KC215', /require is not defined in ES module scope.*loads as an ES module: write it with import and export$/);
  }, 90_000);

  it('should load a multi-file TypeScript operator in a project npm init made ("type": "commonjs"), its sibling imported by its .js name', async () => {
    const project = join(dir, 'npm-init-project');
    mkdirSync(join(project, 'node_modules'), { recursive: true });
    writeFileSync(join(project, 'package.json'), '{ "name": "my-operators", "version": "1.0.0", "main": "index.js", "type": "commonjs" }\n');
    symlinkSync(ROOT, join(project, 'node_modules', 'kubecheck'));
    writeFileSync(join(project, 'backup.ts'), readFileSync(join(ROOT, 'examples/backup-operator/backupOperator.ts'), 'utf8'));
    writeFileSync(join(project, 'main.ts'), "import { backupOperator } from './backup.js';\nexport default backupOperator({ claim: false });\n");
    const r = await kubecheckAsync(['check', '--set', 'faults.nodeCrash=0', '--extension', './main.ts', '-q'], { cwd: project });
    expect(r.stderr).not.toMatch(/KC215|\n\s+at /);
    expect(r.code, r.stderr).toBe(1);
    expect(r.stdout).toMatch(/backup-operator-external-call-once\s+violated/);
  }, 300_000);

  it('should keep the exit code the check earned when an extension calls process.exit(0) from a timer after the command returned', async () => {
    // The check violates healthy-node-not-unknown (a 4 s grace period); the extension's timer fires while the process winds down.
    const later = ext('exit-later.mjs', 'setTimeout(() => process.exit(0), 10);\nexport default { name: "later", initial: () => 0, actions: [], symmetric: true };\n');
    const [violation, refused] = await Promise.all([
      kubecheckAsync(['check', '--extension', later, '--set', 'kubeControllerManager.nodeMonitorGracePeriod=4s', '--property', 'healthy-node-not-unknown', '-q']),
      kubecheckAsync(['check', '--extension', later, '--property', 'no-such-property']),
    ]);
    expect(violation.code, violation.stderr).toBe(1);
    expect(violation.stdout).toMatch(/violation/);
    expect(refused.code, refused.stderr).toBe(2);
  }, 300_000);
});

describe('accepted silently before, now refused with a code', () => {
  it('should refuse !!set, text after a ... end marker, kubernetesVersion 9.99, .inf and .nan, and an alias as a key', async () => {
    const runs = await Promise.all([
      kubecheckAsync(['check', '--config', file('set.yaml', 'cluster: !!set {nodes, zones}\n')]),
      kubecheckAsync(['check', '--config', file('omap.yaml', 'faults: !!omap [nodeCrash: 1]\n')]),
      kubecheckAsync(['check', '--config', file('after-end.yaml', 'cluster:\n  nodes: 2\n...\ncluster:\n  nodes: 5\n')]),
      kubecheckAsync(['check', '--config', file('v999.yaml', 'kubernetesVersion: "9.99"\n')]),
      kubecheckAsync(['check', '--set', 'kubernetesVersion=9.99']),
      kubecheckAsync(['check', '--config', file('inf.yaml', 'kubeControllerManager:\n  nodeEvictionRate: .inf\n')]),
      kubecheckAsync(['check', '--config', file('nan.yaml', 'cluster:\n  nodes: .nan\n')]),
      kubecheckAsync(['check', '--config', file('alias-key.yaml', 'x: &a nodes\ncluster:\n  *a : 3\n')]),
      // Still read: a comment after the end marker, a quoted 1.x version.
      kubecheckAsync(['check', '--config', file('end-comment.yaml', 'cluster:\n  nodes: 2\n...\n# the end\n'), '--max-states', '3', '--json']),
    ]);
    expectOneLine(runs[0], 'KC202', /!!set at line 1, .* is not a value of any parameter/);
    expectOneLine(runs[1], 'KC202', /!!omap at line 1/);
    expectOneLine(runs[2], 'KC202', /a second document starts at line 4, column 1 \(after a --- or \.\.\. marker\)/);
    expectOneLine(runs[3], 'KC104', /kubernetesVersion: "9\.99" is not a Kubernetes release kubecheck models/);
    expectOneLine(runs[4], 'KC104', /kubernetesVersion: "9\.99"/);
    expectOneLine(runs[5], 'KC202', /\.inf is infinite; every parameter takes a finite value at line 2/);
    expectOneLine(runs[6], 'KC202', /\.nan is not a number \(NaN\)/);
    expectOneLine(runs[7], 'KC202', /a key must be a name, not an alias \(\*a\) at line 3/);
    for (const r of runs.slice(0, 8)) expect(r.stderr).not.toMatch(/got null|not a list/);
    expect(runs[8].code, runs[8].stderr).toBe(3);
    expect(JSON.parse(runs[8].stdout).config.cluster.nodes).toBe(2);
  }, 120_000);

  it('should say MiB for a --max-memory bound given in MB (the limit and the peak memory are reported in binary units)', async () => {
    const r = await kubecheckAsync(['check', '--scenario', 'two-phase-commit', '--set', 'rms=6', '--max-memory', '50MB']);
    expect(r.code, r.stderr).toBe(3);
    expect(r.stdout).toMatch(/the search stopped at memory limit 47\.68 MiB/);
    expect(r.stdout).toMatch(/states\/s\), \d+ MiB$/m);
    expect(r.stdout).not.toMatch(/\d MB\b/);
  }, 300_000);

  it('should name a number beyond a double (JSON 1e999) as such, not as null', async () => {
    const runs = await Promise.all([
      kubecheckAsync(['check', '--config', file('huge-number.json', '{"kubeControllerManager":{"nodeEvictionRate":1e999}}')]),
      kubecheckAsync(['check', '--config', file('huge-count.json', '{"cluster":{"nodes":1e999}}')]),
      kubecheckAsync(['check', '--config', file('kubelet-huge.json', JSON.stringify({ apiVersion: 'kubelet.config.k8s.io/v1beta1', kind: 'KubeletConfiguration' }).replace('}', ',"nodeLeaseDurationSeconds":1e999}'))]),
    ]);
    for (const r of runs) {
      expect(r.code, r.stderr).toBe(2);
      expect(r.stderr).toMatch(/got Infinity \(a number beyond what a double holds/);
      expect(r.stderr).not.toMatch(/got null/);
    }
  }, 300_000);

  it('should refuse a list of workloads longer than the limit before reading each entry (KC213)', async () => {
    const lines = ['cluster:', '  workloads:'];
    for (let i = 0; i < 9000; i++) lines.push(`    - {kind: ReplicaSet, name: w${i}, replicas: 1}`);
    const r = await kubecheckAsync(['check', '--config', file('many-workloads.yaml', `${lines.join('\n')}\n`)], { timeoutMs: 120_000 });
    expectOneLine(r, 'KC213', /cluster\.workloads \(their number\) \(9000\) is above the limit of 64/);
  }, 300_000);
});
