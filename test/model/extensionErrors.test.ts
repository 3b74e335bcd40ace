/**
 * Every path into a user's code ends, when that code misbehaves, in one coded line naming the
 * extension and the hook: a property, a liveness property or `nonIdempotent` that throws, a memory
 * that is a function or holds a cycle, a step that returns no state, a list of extensions with a
 * hole in it. Through the library (a KubecheckError) and the command line (exit 2, one line).
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { always, check, eventually, KubecheckError } from '../../checker/index.js';
import { kubernetesScenario } from '../../api/testing.js';
import type { ClusterExtension } from '../../model/clusterModel.js';
import { operator } from '../../model/operator/index.js';
import type { ClusterState } from '../../model/state.js';
import { expectOneLine, kubecheckAsync } from '../cli/run.js';

const small = { 'faults.nodeCrash': '0', 'cluster.nodes': '1', 'cluster.replicaSetReplicas': '0', 'cluster.statefulSetReplicas': '0' };

/** A counter extension: one step from 0 to 1; `over` replaces any of its parts. */
const counter = (over: Partial<ClusterExtension> = {}): ClusterExtension => ({
  name: 'counter',
  initial: () => 0,
  actions: [{ name: 'counter-step', enabled: (s: ClusterState) => s.extensions?.counter === 0, apply: (s: ClusterState) => ({ ...s, extensions: { ...s.extensions, counter: 1 } }) }],
  ...over,
});

/** What checking the scenario with `extensions` throws (the test fails when nothing is thrown). */
async function refusal(extensions: readonly unknown[], liveness = false): Promise<KubecheckError> {
  try {
    const { model, properties, liveness: live } = await kubernetesScenario('node-failure', { set: small, extensions: extensions as ClusterExtension[] });
    check(model, { properties, ...(liveness ? { liveness: live } : {}) });
  } catch (e) {
    expect(e).toBeInstanceOf(KubecheckError);
    return e as KubecheckError;
  }
  throw new Error('expected a refusal');
}

const cycle = (): Record<string, unknown> => {
  const c: Record<string, unknown> = { n: 1 };
  c.self = { back: c };
  return c;
};

describe("a user's code that misbehaves ends in one coded line naming the extension and the hook", () => {
  it('a property, a liveness property and nonIdempotent that throw: KC110 with the hook', async () => {
    const p = await refusal([counter({ properties: [always<ClusterState>('counter-ok', 'ok', () => { throw new Error('no'); })] })]);
    expect(p.message).toBe("KC110: extension counter: property counter-ok's holds threw: no");
    const l = await refusal([counter({ liveness: [eventually<ClusterState>('counter-done', 'done', () => { throw new TypeError('bad read'); })] })], true);
    expect(l.message).toBe("KC110: extension counter: liveness property counter-done's q threw: TypeError: bad read");
    const twice = operator({
      name: 'caller',
      for: 'Job',
      objects: [{ kind: 'Job', metadata: { name: 'j' } }],
      // No status is ever written: every reconcile calls out again, so the hook is asked.
      reconcile: (request) => ({ writes: [{ op: 'external', call: `run ${request}` }], requeue: true }),
      nonIdempotent: () => { throw new RangeError('which call?'); },
    });
    const n = await refusal([twice]);
    expect(n.message).toBe('KC110: extension caller: nonIdempotent("run j") threw: RangeError: which call?');
  });

  it('a memory that is not JSON, from initial, onTick or a step: KC110 with the hook and the path', async () => {
    expect((await refusal([counter({ initial: () => (() => 0) as never })])).message).toMatch(/^KC110: extension counter: initial's result is a function; it must be JSON/);
    expect((await refusal([counter({ initial: () => cycle() as never })])).message).toMatch(/^KC110: extension counter: initial's result at self\.back holds a cycle/);
    expect((await refusal([counter({ initial: () => undefined as never })])).message).toMatch(/^KC110: extension counter: initial's result is undefined/);
    expect((await refusal([counter({ onTick: () => ({ at: new Map() }) as never })])).message).toMatch(/^KC110: extension counter: onTick's result at at is Map instance, not a plain object/);
    const stepping = (memory: unknown): ClusterExtension => counter({ actions: [{ name: 'counter-step', enabled: (s: ClusterState) => s.extensions?.counter === 0, apply: (s: ClusterState) => ({ ...s, extensions: { ...s.extensions, counter: memory as never } }) }] });
    expect((await refusal([stepping({ f: () => 1 })])).message).toMatch(/^KC110: extension counter: the memory of counter after the step counter-step at f is a function/);
    expect((await refusal([stepping([1, cycle()])])).message).toMatch(/^KC110: extension counter: the memory of counter after the step counter-step at \[1\]\.self\.back holds a cycle/);
    expect((await refusal([stepping(Number.POSITIVE_INFINITY)])).message).toMatch(/^KC110: extension counter: the memory of counter after the step counter-step is Infinity/);
  });

  it('a memory is frozen once checked: an edit in place is a coded error, never a change of a stored state', async () => {
    const editing = counter({
      initial: () => ({ seen: [] as number[] }) as never,
      actions: [{ name: 'counter-step', apply: (s: ClusterState) => { (s.extensions!.counter as unknown as { seen: number[] }).seen.push(1); return s; } }],
    });
    expect((await refusal([editing])).message).toMatch(/^KC110: extension counter: the step counter-step threw: TypeError: Cannot add property 0, object is not extensible/);
  });

  it('a step that returns no state: KC110 naming the step', async () => {
    const returning = (v: unknown): ClusterExtension => counter({ actions: [{ name: 'counter-step', apply: () => v as ClusterState }] });
    expect((await refusal([returning(42)])).message).toBe('KC110: extension counter: the step counter-step returned number, not a cluster state (the state it was given, changed, or undefined when it cannot happen)');
    expect((await refusal([returning(null)])).message).toMatch(/^KC110: extension counter: the step counter-step returned null, not a cluster state/);
    expect((await refusal([returning({})])).message).toMatch(/^KC110: extension counter: the step counter-step returned a state without the extensions' memories/);
  });

  it('a list of extensions that cannot run: KC107 naming the entry and the field', async () => {
    expect((await refusal([null])).message).toBe('KC107: extensions[0] is null, not a ClusterExtension: an object with name, initial and actions');
    expect((await refusal([counter(), 'x'])).message).toMatch(/^KC107: extensions\[1\] is string, not a ClusterExtension/);
    expect((await refusal([{ initial: () => 0, actions: [] }])).message).toMatch(/^KC107: extensions\[0\] has no name/);
    expect((await refusal([counter({ initial: 0 as never })])).message).toBe('KC107: extension counter: initial must be a function (its memory in the initial states)');
    expect((await refusal([counter({ actions: [null as never] })])).message).toMatch(/^KC107: extension counter: actions\[0\] is null, not an action/);
    expect((await refusal([counter({ actions: [{ name: 'x' } as never] })])).message).toBe('KC107: extension counter: action x: apply must be a function');
    expect((await refusal([counter({ describeMemory: 'words' as never })])).message).toBe('KC107: extension counter: describeMemory must be a function');
    expect((await refusal([counter({ properties: [null as never] })])).message).toMatch(/^KC107: extension counter: properties\[0\] is not a property with an id/);
    expect((await refusal([counter(), counter()])).message).toMatch(/^KC107: extension counter: a second extension has this name/);
  });
});

describe('on the command line: exit 2 and one coded line', () => {
  const dir = mkdtempSync(join(tmpdir(), 'kubecheck-ext-errors-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  const module = (name: string, body: string): string => {
    const path = join(dir, name);
    writeFileSync(path, body);
    return path;
  };
  const base = "name: 'counter', actions: [{ name: 'counter-step', enabled: (s) => s.extensions.counter === 0, apply: (s) => ({ ...s, extensions: { ...s.extensions, counter: 1 } }) }]";

  it('a throwing property, a cyclic memory and a liveness property that throws', async () => {
    const throwing = module('throws.mjs', `export default { ${base}, initial: () => 0, properties: [{ kind: 'invariant', id: 'counter-ok', description: 'ok', holds: () => { throw new Error('no\\n::error::x'); } }] };\n`);
    const cyclic = module('cycle.mjs', `const c = { n: 1 }; c.self = c;\nexport default { ${base}, initial: () => c };\n`);
    const live = module('live.mjs', `export default { ${base}, initial: () => 0, liveness: [{ kind: 'eventually', id: 'counter-done', description: 'done', q: () => { throw null; } }] };\n`);
    const set = ['--set', 'faults.nodeCrash=0', '--set', 'cluster.nodes=1'];
    const [a, b, c] = await Promise.all([
      kubecheckAsync(['check', '--extension', throwing, ...set]),
      kubecheckAsync(['check', '--extension', cyclic, ...set]),
      kubecheckAsync(['check', '--extension', live, '--liveness', '--no-symmetry', ...set]),
    ]);
    expectOneLine(a, 'KC110', /^kubecheck: KC110: extension counter: property counter-ok's holds threw: no\s*$/);
    expectOneLine(b, 'KC110', /extension counter: initial's result at self holds a cycle/);
    expectOneLine(c, 'KC110', /extension counter: liveness property counter-done's q threw: null/);
  });
});
