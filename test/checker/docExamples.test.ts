/**
 * The examples of docs/checker.md's "State vectors" section run as written (against this
 * repository's sources), and each line `expression; // value` of them holds: the value a comment
 * claims is the value the expression has. (test/package/pack.test.ts type-checks every example of
 * the page against the installed package.)
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const work = mkdtempSync(join(tmpdir(), 'kubecheck-doc-examples-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

/** The ```ts blocks of one `## title` section of docs/checker.md (its subsections included). */
function examplesOf(title: string): string[] {
  const page = readFileSync(join(ROOT, 'docs', 'checker.md'), 'utf8');
  const start = page.indexOf(`\n## ${title}\n`);
  if (start < 0) throw new Error(`docs/checker.md has no section "${title}"`);
  const end = page.indexOf('\n## ', start + 1);
  const section = page.slice(start, end < 0 ? undefined : end);
  return [...section.matchAll(/^```ts\n([\s\S]*?)^```$/gm)].map((m) => m[1]);
}

/** A claim line: an expression statement whose comment starts with a literal. */
const CLAIM = /^(?!(?:const|let|var|import|export|return)\b)([^/]+?);\s*\/\/\s*('[^']*'|\d[\d,]*|true|false)(?!\w)/;

/**
 * The example as a module importing this repository's sources for 'kubecheck', each claim line
 * recorded in `claims` as [expression, value it has, value claimed].
 */
function runnable(code: string): string {
  const api = join(ROOT, 'api', 'index.ts');
  const body = code
    .replace(/from 'kubecheck'/g, `from ${JSON.stringify(api)}`)
    .split('\n')
    .map((line) => {
      const m = CLAIM.exec(line);
      if (m === null) return line;
      const claimed = /^\d/.test(m[2]) ? m[2].replace(/,/g, '') : m[2];
      return `claims.push([${JSON.stringify(m[1].trim())}, ${m[1]}, ${claimed}]);`;
    })
    .join('\n');
  return `export const claims: [string, unknown, unknown][] = [];\n${body}\n`;
}

describe('docs/checker.md: state vectors', () => {
  const examples = examplesOf('State vectors');

  it('should have the examples the page shows (the mutex, and initial states yielded)', () => {
    expect(examples).toHaveLength(2);
    expect(examples[1]).toMatch(/vectorProduct/);
  });

  examples.forEach((code, i) => {
    it(`should run example ${i + 1} with the values its comments claim`, async () => {
      const file = join(work, `state-vectors-${i}.ts`);
      writeFileSync(file, runnable(code));
      const { claims } = (await import(file)) as { claims: [string, unknown, unknown][] };
      expect(claims.length).toBeGreaterThan(0);
      for (const [expression, actual, claimed] of claims) expect({ expression, value: actual }).toEqual({ expression, value: claimed });
    });
  });
});
