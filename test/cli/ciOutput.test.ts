/**
 * The README's promise about CI output: a value from the user's files never starts a line a
 * GitHub Actions runner reads as a workflow command, and carries no terminal control character.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { inputText, jsonText, terminalText } from '../../checker/escape.js';
import { kubecheck } from './run.js';

const dir = mkdtempSync(join(tmpdir(), 'kubecheck-ci-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** No line (after leading white space, as the runner reads it) starts a workflow command, and no C0/C1 control but the newline. */
function expectCiSafe(text: string, what: string): void {
  for (const line of text.split('\n')) expect(line.trimStart().startsWith('::'), `${what}: ${line}`).toBe(false);
  // eslint-disable-next-line no-control-regex
  expect(text, what).not.toMatch(/[\u0000-\u0009\u000b-\u001f\u007f-\u009f]/);
}

const hostile = fc.oneof(
  fc.constantFrom('\n::error::injected', '%0A::warning::x', '\u001b]52;c;aGk=\u0007', '\u009b2J', '\r::add-mask::y', '  ::error::z', '##[error]w', '\u2028::error::v'),
  fc.string({ unit: 'binary', maxLength: 12 }),
);

describe('CI output: input on one line, no workflow command, no terminal control', () => {
  it('should render any string as one control-free token that JSON.parse reads back when quoted', () => {
    fc.assert(fc.property(fc.array(hostile, { minLength: 1, maxLength: 3 }).map((xs) => xs.join('')), (s) => {
      const t = inputText(s);
      expectCiSafe(`x ${t}`, JSON.stringify(s));
      expect(t.includes('\n')).toBe(false);
      if (t !== s) expect(JSON.parse(t.replace(/##\\u005b/g, '##['))).toBe(s);
      expect(JSON.parse(jsonText({ v: s })).v).toBe(s);
      expectCiSafe(terminalText(`${s}\n${s}`), JSON.stringify(s));
    }), { seed: 41, numRuns: 300 });
  });

  it('should keep kubecheck\'s own colours when colour is on', () => {
    expect(terminalText('\u001b[31mred\u001b[39m \u001b]52;c;x\u0007', true)).toBe('\u001b[31mred\u001b[39m \\u001b]52;c;x\\u0007');
  });

  it('should print a KubeletConfiguration key holding a newline and ::error:: on one line (check, import, errors)', () => {
    const file = join(dir, 'kubelet.yaml');
    writeFileSync(file, 'apiVersion: kubelet.config.k8s.io/v1beta1\nkind: KubeletConfiguration\n"foo\\n::error file=x::pwned%0A::warning::two": 1\n"bar\\e]52;c;aGk=\\a": 2\n');
    const check = kubecheck(['check', '--config', file, '--max-states', '50']);
    expectCiSafe(check.stdout + check.stderr, 'check');
    expect(check.stderr).toContain('KubeletConfiguration.foo\\n::error file=x::pwned%0A');
    const imported = kubecheck(['import', file]);
    expectCiSafe(imported.stdout + imported.stderr, 'import');
    const bad = kubecheck(['check', '--set', 'kubeControllerManager.x\n::error::e\u001b[2J=1']);
    expect(bad.code).toBe(2);
    expectCiSafe(bad.stderr, 'error line');
    expect(bad.stderr.trim().split('\n')).toHaveLength(1);
  });

  it('should quote custom resource labels and spec values in import\'s YAML, and JSON gives them back', () => {
    const file = join(dir, 'cr.yaml');
    writeFileSync(file, 'apiVersion: example.com/v1\nkind: Backup\nmetadata:\n  name: nightly\n  labels:\n    "team\\n::error::l": "x\\e]52;c;aGk=\\a"\nspec:\n  target: "a\\n::error::spec%0A::warning::w"\n  "::key": "\\u009b2J"\n');
    const yaml = kubecheck(['import', file]);
    expect(yaml.code).toBe(0);
    expectCiSafe(yaml.stdout, 'import yaml');
    const json = kubecheck(['import', file, '--json']);
    expectCiSafe(json.stdout, 'import json');
    const objects = (JSON.parse(json.stdout) as { config: { cluster: { objects: { spec: Record<string, string> }[] } } }).config.cluster.objects;
    expect(objects[0].spec.target).toBe('a\n::error::spec%0A::warning::w');
    expect(objects[0].spec['::key']).toBe('\u009b2J');
  });
});

describe('deep nesting and long lists', () => {
  it('should refuse cluster.objects nested beyond 100 levels with one coded line', () => {
    const deep = `${'['.repeat(5000)}${']'.repeat(5000)}`;
    const r = kubecheck(['check', '--set', `cluster.objects=[{"kind":"Backup","metadata":{"name":"a"},"spec":${deep}}]`]);
    expect(r.code).toBe(2);
    expect(r.stderr.trim().split('\n')).toEqual([expect.stringMatching(/^kubecheck: KC1\d\d: cluster\.objects: nested more than 100 levels/)]);
    const file = join(dir, 'list.json');
    writeFileSync(file, `{"apiVersion":"v1","kind":"List","items":[{"apiVersion":"example.com/v1","kind":"Backup","metadata":{"name":"a"},"spec":${deep}}]}`);
    const i = kubecheck(['import', file]);
    expect(i.code).toBe(2);
    expect(i.stderr.trim().split('\n')).toEqual([expect.stringMatching(/^kubecheck: KC202: .*nested too deeply/)]);
  });

  it('should say how many not-modelled entries it left out past 1,000', () => {
    const file = join(dir, 'many.yaml');
    writeFileSync(file, `apiVersion: kubelet.config.k8s.io/v1beta1\nkind: KubeletConfiguration\n${Array.from({ length: 1200 }, (_, i) => `unknownField${i}: 1`).join('\n')}\n`);
    const r = kubecheck(['import', file, '--json']);
    const notModelled = (JSON.parse(r.stdout) as { notModelled: string[] }).notModelled;
    expect(notModelled).toHaveLength(1001);
    expect(notModelled[1000]).toMatch(/and 200 more fields not modelled/);
  });
});
