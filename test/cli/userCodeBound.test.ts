/**
 * An extension's code that never returns cannot hold a check: one call longer than its bound is
 * KC218 (exit 2, a defect of the module), a call still running past --time-limit is KC219 (exit 3,
 * incomplete), and Ctrl-C still ends the process (130). A fuzz generator (fixed seed) puts an
 * endless loop or a throw of any kind in a random hook: every run ends in one coded line naming it.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { check, KubecheckError } from '../../checker/index.js';
import { kubernetesScenario } from '../../api/testing.js';
import type { ClusterExtension } from '../../model/clusterModel.js';
import { BIN, ENV, expectOneLine, kubecheckAsync, ROOT } from './run.js';

const dir = mkdtempSync(join(tmpdir(), 'kubecheck-hook-bound-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const SET = ['--set', 'cluster.nodes=1', '--set', 'faults.nodeCrash=0'];

/** The hooks of a plain extension a misbehaviour can be put in. */
const HOOKS = ['initial', 'guard', 'step', 'property', 'onTick'] as const;
type Hook = (typeof HOOKS)[number];
/** How each hook is named in the coded line. */
const NAMED: Record<Hook, string> = { initial: 'initial', guard: 'the guard of spin-step', step: 'the step spin-step', property: "property spin-ok's holds", onTick: 'onTick' };

/** An extension module whose `hook` runs `body` (JavaScript statements). */
function extensionSource(hook: Hook, body: string): string {
  const f = (h: Hook, normal: string): string => (h === hook ? `() => { ${body} }` : normal);
  return `export default {
  name: 'spin',
  initial: ${f('initial', '() => 0')},
  onTick: ${f('onTick', '(m) => m')},
  actions: [{ name: 'spin-step', enabled: ${f('guard', '(s) => s.extensions.spin === 0')}, apply: ${f('step', '(s) => ({ ...s, extensions: { ...s.extensions, spin: 1 } })')} }],
  properties: [{ kind: 'invariant', id: 'spin-ok', description: 'ok', holds: ${f('property', '() => true')} }],
};\n`;
}

function module(name: string, source: string): string {
  const path = join(dir, name);
  writeFileSync(path, source);
  return path;
}

describe('a call into an extension that never returns', () => {
  it('is stopped at its bound with KC218 (exit 2) naming the extension and the hook', async () => {
    const step = module('loop-step.mjs', extensionSource('step', 'for (;;) {}'));
    const property = module('loop-property.mjs', extensionSource('property', 'while (true) {}'));
    const [a, b] = await Promise.all([
      kubecheckAsync(['check', '--extension', step, ...SET], { env: { KUBECHECK_HOOK_TIMEOUT: '1' }, timeoutMs: 60_000 }),
      kubecheckAsync(['check', '--extension', property, ...SET], { env: { KUBECHECK_HOOK_TIMEOUT: '1' }, timeoutMs: 60_000 }),
    ]);
    expectOneLine(a, 'KC218', /^kubecheck: KC218: extension spin: the step spin-step did not return within 1 s/);
    expectOneLine(b, 'KC218', /^kubecheck: KC218: extension spin: property spin-ok's holds did not return within 1 s/);
  });

  it('does not outlast --time-limit: KC219, exit 3 (incomplete), naming the call', async () => {
    const step = module('loop-guard.mjs', extensionSource('guard', 'for (;;) {}'));
    const r = await kubecheckAsync(['check', '--extension', step, '--time-limit', '1s', ...SET], { timeoutMs: 60_000 });
    expect(r.code, r.stderr).toBe(3);
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
    expect(r.stderr).toMatch(/^kubecheck: KC219: the time limit of 1 s passed while extension spin: the guard of spin-step ran/);
  });

  it('leaves Ctrl-C working: the process ends as interrupted', async () => {
    const step = module('loop-ctrl-c.mjs', extensionSource('step', 'for (;;) {}'));
    const child = spawn(process.execPath, [BIN, 'check', '--extension', step, ...SET], { cwd: ROOT, env: ENV });
    let stderr = '';
    child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
    // Once the check has started searching (it has loaded the module and printed nothing yet).
    await new Promise((resolve) => setTimeout(resolve, 4000));
    child.kill('SIGINT');
    const [code, signal] = await new Promise<[number | null, NodeJS.Signals | null]>((resolve) => child.on('close', (c, s) => resolve([c, s])));
    expect(code === 130 || signal === 'SIGINT', `${code} ${signal} ${stderr}`).toBe(true);
    expect(stderr).not.toMatch(/KC218|KC219/);
  });
});

describe('fuzz: a misbehaving hook always ends in one coded line naming it (fixed seed)', () => {
  /** What a hook throws: any kind of value. */
  const thrown = fc.oneof(
    fc.string({ maxLength: 20 }).map((m) => `throw new Error(${JSON.stringify(m)});`),
    fc.constantFrom('throw null;', 'throw undefined;', 'throw 42;', "throw Symbol('s');", 'throw { message: 7 };', "throw Object.create(null);", 'return (function f() { return f(); })();'),
  );

  it('throwing hooks, through the library: KC110 naming the hook, never an uncoded error', async () => {
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...HOOKS), thrown, async (hook, body) => {
        // The same source as a module, evaluated here.
        const extension = (await import(`data:text/javascript,${encodeURIComponent(extensionSource(hook, body))}`)).default as ClusterExtension;
        let error: unknown;
        try {
          const { model, properties } = await kubernetesScenario('node-failure', { set: { 'cluster.nodes': '1', 'faults.nodeCrash': '0' }, extensions: [extension] });
          check(model, { properties });
        } catch (e) {
          error = e;
        }
        expect(error).toBeInstanceOf(KubecheckError);
        expect((error as Error).message).toMatch(new RegExp(`^KC110: extension spin: ${NAMED[hook].replace(/[()']/g, '.')} threw: `));
      }),
      { seed: 41, numRuns: 40 },
    );
  });

  it('looping hooks, through the command line: KC218 naming the hook', async () => {
    const cases = fc.sample(fc.tuple(fc.constantFrom(...HOOKS), fc.constantFrom('for (;;) {}', 'while (1) { Math.random(); }', 'let i = 0; do { i++; } while (i > -1);')), { seed: 41, numRuns: 3 });
    const runs = await Promise.all(cases.map(([hook, body], k) => kubecheckAsync(['check', '--extension', module(`fuzz-loop-${k}.mjs`, extensionSource(hook, body)), ...SET], { env: { KUBECHECK_HOOK_TIMEOUT: '1' }, timeoutMs: 90_000 })));
    runs.forEach((r, k) => expectOneLine(r, 'KC218', new RegExp(`^kubecheck: KC218: extension spin: ${NAMED[cases[k][0]].replace(/[()']/g, '.')} did not return within 1 s`)));
  });
});
