/**
 * The package as a user gets it: `npm pack`, installed into a new project (from npm's cache where it
 * can, `--prefer-offline`; the registry only for what the cache lacks), its `kubecheck` command run from there, and a user's own vitest suite with an
 * extension written against `kubecheck/model` run against it. Only what `files` ships is there,
 * so a missing file or a deep import shows here first.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ROOT } from '../cli/run.js';

const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
const work = mkdtempSync(join(tmpdir(), 'kubecheck-pack-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

const USER_SUITE = `
import { expect, it } from 'vitest';
import { expectHolds, expectViolation } from 'kubecheck/testing';
import { kubernetesScenario, type ClusterState } from 'kubecheck/model';
import { fastFailover } from './myOperator.ts';

it('the stock cluster replaces a crashed node\\'s pods with our timing', async () => {
  const { model, properties } = kubernetesScenario('node-failure', { set: { 'kubeControllerManager.nodeMonitorGracePeriod': '40s' } });
  const result = await expectHolds(model, { properties });
  expect(result.stats.distinctStates).toBeGreaterThan(1000);
}, 60_000);

it('our operator breaks StatefulSet at-most-one under a partition', async () => {
  const { model } = kubernetesScenario('node-partition', { extensions: [fastFailover()] });
  const trace = await expectViolation(model, 'statefulset-at-most-one');
  const last: ClusterState = trace.states[trace.states.length - 1];
  expect(trace.actions.some((a) => a.name === 'fast-failover-delete')).toBe(true);
  expect(last.nodes.filter((n) => n.running.includes('db-0')).length).toBe(2);
}, 60_000);
`;

/**
 * The vitest suites the README and docs show (```ts blocks that import vitest), each as a test
 * file of the user's project, run as pasted: with vitest's default settings.
 */
function documentedSuites(): { name: string; code: string }[] {
  const files = ['README.md', ...readdirSync(join(ROOT, 'docs')).filter((f) => f.endsWith('.md')).sort().map((f) => `docs/${f}`)];
  return files.flatMap((file) => [...readFileSync(join(ROOT, file), 'utf8').matchAll(/^```ts\n([\s\S]*?)^```$/gm)]
    .map((m) => m[1])
    .filter((code) => /from 'vitest'/.test(code))
    .map((code, i) => ({ name: `${file.replace(/\W/g, '-')}-${i}.test.ts`, code })));
}

/** The ```ts blocks of docs/checker.md, as written. */
function checkerDocExamples(): string[] {
  return [...readFileSync(join(ROOT, 'docs', 'checker.md'), 'utf8').matchAll(/^```ts\n([\s\S]*?)^```$/gm)].map((m) => m[1]);
}

describe('the packed package', () => {
  it('should install into a new project, run its command and a user\'s vitest suite with an extension', () => {
    const packed = execFileSync(npm, ['pack', '--silent', '--pack-destination', work], { cwd: ROOT, encoding: 'utf8' }).trim().split('\n').pop()!;
    const tarball = join(work, packed);
    expect(existsSync(tarball)).toBe(true);
    const project = join(work, 'user-project');
    mkdirSync(project);
    writeFileSync(join(project, 'package.json'), JSON.stringify({ name: 'my-cluster-checks', private: true, type: 'module' }));
    const install = spawnSync(npm, ['install', '--prefer-offline', '--no-audit', '--no-fund', '--no-package-lock', tarball], { cwd: project, encoding: 'utf8', timeout: 60_000 });
    expect(install.status, install.stderr).toBe(0);
    const installed = readdirSync(join(project, 'node_modules', 'kubecheck')).sort();
    expect(installed).toEqual(['README.md', 'bin', 'dist', 'docs', 'package.json']);
    const cli = readdirSync(join(project, 'node_modules', 'kubecheck', 'dist', 'cli'));
    expect(cli.some((f) => f.includes('.test.'))).toBe(false);
    // The public entries are one folder, with their declarations.
    expect(readdirSync(join(project, 'node_modules', 'kubecheck', 'dist', 'api')).filter((f) => f.endsWith('.d.ts')).sort()).toEqual(['index.d.ts', 'model.d.ts', 'operator.d.ts', 'testing.d.ts']);

    // Plain Node imports the three entry points as compiled ES modules, no loader.
    writeFileSync(join(project, 'app.mjs'), [
      "import { check } from 'kubecheck';",
      "import { kubernetesScenario } from 'kubecheck/model';",
      "import { expectHolds } from 'kubecheck/testing';",
      "const { model, properties } = kubernetesScenario('node-failure');",
      "const r = check(model, { properties, maxStates: 200 });",
      "console.log(typeof expectHolds, r.stats.distinctStates);",
    ].join('\n'));
    const app = spawnSync(process.execPath, ['app.mjs'], { cwd: project, encoding: 'utf8', timeout: 60_000 });
    expect(app.status, app.stderr).toBe(0);
    expect(app.stdout.trim()).toBe('function 200');

    // The command, from the installed package (compiled JavaScript on plain Node).
    const bin = join(project, 'node_modules', '.bin', 'kubecheck');
    const timing = spawnSync(bin, ['timing', '--json', '--set', 'kubernetesVersion=1.31'], { cwd: project, encoding: 'utf8', timeout: 60_000 });
    expect(timing.status, timing.stderr).toBe(0);
    const row = (JSON.parse(timing.stdout) as { rows: { workload: string; event: string; earliest: number; latest: number }[] }).rows.find((r) => r.workload === 'web' && r.event === 'replacement-created');
    expect([row?.earliest, row?.latest]).toEqual([345, 349]);

    // The user's own suite and controller, with their own test runner (this repository's vitest, linked).
    cpSync(join(ROOT, 'examples', 'my-operator', 'myOperator.ts'), join(project, 'myOperator.ts'));
    writeFileSync(join(project, 'cluster.test.ts'), USER_SUITE);
    const documented = documentedSuites();
    expect(documented.length).toBeGreaterThanOrEqual(3);
    for (const d of documented) writeFileSync(join(project, d.name), d.code);
    symlinkSync(join(ROOT, 'node_modules', 'vitest'), join(project, 'node_modules', 'vitest'), 'dir');
    const ext = spawnSync(bin, ['check', '--scenario', 'node-partition', '--extension', './myOperator.ts', '--property', 'statefulset-at-most-one'], { cwd: project, encoding: 'utf8', timeout: 60_000 });
    expect(ext.status, ext.stderr).toBe(1);
    const suite = spawnSync(process.execPath, [join(ROOT, 'node_modules', 'vitest', 'vitest.mjs'), 'run', '--root', project], { cwd: project, encoding: 'utf8', timeout: 90_000, env: { ...process.env, NO_COLOR: '1' } });
    expect(suite.status, `${suite.stdout}\n${suite.stderr}`).toBe(0);
    expect(suite.stdout).toMatch(new RegExp(`Test Files +${documented.length + 1} passed`));

    // A strict TypeScript project with the settings \`tsc --init\` writes imports all three entry
    // points and type-checks them (declarations included: no skipLibCheck).
    const strict = join(project, 'strict');
    mkdirSync(strict);
    const tsc = join(ROOT, 'node_modules', 'typescript', 'bin', 'tsc');
    const init = spawnSync(process.execPath, [tsc, '--init'], { cwd: strict, encoding: 'utf8' });
    expect(init.status, init.stdout).toBe(0);
    const config = readFileSync(join(strict, 'tsconfig.json'), 'utf8');
    expect(config).toMatch(/"skipLibCheck": true/);
    writeFileSync(join(strict, 'tsconfig.json'), config.replace(/"skipLibCheck": true/, '"skipLibCheck": false'));
    writeFileSync(join(strict, 'app.ts'), [
      "import { check, type CheckResult } from 'kubecheck';",
      "import { kubernetesScenario, type ClusterState } from 'kubecheck/model';",
      "import { expectHolds } from 'kubecheck/testing';",
      "const { model, properties } = kubernetesScenario('node-failure');",
      "const result: CheckResult<ClusterState> = check(model, { properties, maxStates: 200 });",
      "export const states: number = result.stats.distinctStates;",
      "export const assertion: typeof expectHolds = expectHolds;",
      // A type error must show, so the check above is not vacuous.
      "// @ts-expect-error a scenario name is a string",
      "kubernetesScenario(42);",
    ].join('\n'));
    // Every TypeScript example of docs/checker.md (the checker for any system) type-checks as written
    // against the installed package, each a module of its own.
    const checkerDocs = checkerDocExamples();
    expect(checkerDocs.length).toBeGreaterThanOrEqual(4);
    checkerDocs.forEach((code, i) => writeFileSync(join(strict, `checker-doc-${i}.ts`), `${code}\nexport {};\n`));
    const typed = spawnSync(process.execPath, [tsc, '-p', '.', '--noEmit'], { cwd: strict, encoding: 'utf8', timeout: 90_000 });
    expect(typed.status, typed.stdout).toBe(0);

    // A user's own model, the docs' DieHard module, run by the installed command with --model.
    const jugs = checkerDocs.find((code) => code.startsWith('// jugs.ts'));
    expect(jugs).toBeDefined();
    writeFileSync(join(project, 'jugs.ts'), jugs!);
    const run = (args: readonly string[]) => spawnSync(bin, args, { cwd: project, encoding: 'utf8', timeout: 90_000 });
    const found = run(['check', '--model', './jugs.ts', '--out', 'out', '--json']);
    expect(found.status, found.stderr).toBe(1);
    const cx = JSON.parse(found.stdout) as { model: string; counterexample: { property: string; steps: number } };
    expect([cx.model, cx.counterexample.property, cx.counterexample.steps]).toEqual(['die-hard(3,5)', 'not-four', 6]);
    const replayed = run(['replay', '--model', './jugs.ts', 'out/not-four.itf.json', '--json']);
    expect(replayed.status, replayed.stderr).toBe(1);
    // Jugs of 3 and 6 gallons measure multiples of 3 only: 4 is never reached, in the 6 states
    // (each jug empty, full or holding 3) of the whole space, on two threads and with liveness.
    const whole = run(['check', '--model', './jugs.ts', '--set', 'big=6', '--json', '--workers', '2', '--liveness']);
    expect(whole.status, whole.stderr).toBe(0);
    expect((JSON.parse(whole.stdout) as { stats: { distinctStates: number } }).stats.distinctStates).toBe(6);
    const dieHard = run(['check', '--model', './jugs.ts', '--property', 'not-four', '--dfs', '--json']);
    expect(dieHard.status, dieHard.stderr).toBe(1);
    const bad = run(['check', '--model', './jugs.ts', '--set', 'big=1']);
    expect(bad.status).toBe(2);
    expect(bad.stderr).toMatch(/^kubecheck: KC220: .*need 0 < small < big, got small=3 big=1\n$/);
  }, 240_000);
});
