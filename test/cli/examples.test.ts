/**
 * Runs test/cli/examples.md, kubernetes.md and the README's marked blocks: every command block as
 * a separate process, outputs compared after normalising both sides (so the README can show the
 * times, rates and memory of a real run).
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { parseExamples, updateExamples, type Block } from './literate.js';
import { kubecheckAsync, normalise, type Run } from './run.js';

const update = process.env.KUBECHECK_UPDATE_GOLDEN === '1';
for (const name of ['examples.md', 'kubernetes.md', '../../README.md']) literate(name);

function literate(name: string): void {
const FILE = fileURLToPath(new URL(`./${name}`, import.meta.url));
const text = readFileSync(FILE, 'utf8');
const examples = parseExamples(text);

// Start every command at once; each test awaits its own.
const runs = new Map<number, Promise<Run>>();
const runOf = (i: number): Promise<Run> => {
  if (!runs.has(i)) runs.set(i, kubecheckAsync(examples[i].args));
  return runs.get(i)!;
};
examples.forEach((_, i) => runOf(i));

describe(name, () => {
  const rewrites: { block: Block; text: string }[] = [];
  examples.forEach((ex, i) => {
    it(`${ex.title}: kubecheck ${ex.args.join(' ')}`, async () => {
      const r = await runOf(i);
      if (update) {
        if (ex.out) rewrites.push({ block: ex.out, text: normalise(r.stdout) });
        if (ex.err) rewrites.push({ block: ex.err, text: normalise(r.stderr) });
        return;
      }
      expect({ exit: r.code, stderr: ex.err ? normalise(r.stderr).trimEnd() : undefined }).toEqual({
        exit: ex.exit,
        stderr: ex.err ? ex.err.text.trimEnd() : undefined,
      });
      if (ex.out) expect(normalise(r.stdout).trimEnd()).toBe(normalise(ex.out.text).trimEnd());
      expect(r.stderr).not.toMatch(/\n\s+at /); // never a stack trace
    });
  });
  if (update) {
    it('rewrites examples.md', () => {
      writeFileSync(FILE, updateExamples(text, rewrites));
    });
  }
});
}
