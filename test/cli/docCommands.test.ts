/**
 * The documentation's `sh` blocks that show what a command prints as `# ` comments under it (a
 * command, then `# ✗ property  violated ...` lines) run as written: each command in the
 * repository's folder, a `...` in it standing for the arguments of the command before up to
 * the option that follows, and each comment line found in its output (white space runs
 * compared as one). The terminal sessions (```console) are docs.test.ts's.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { words } from '../../cli/import/flags.js';
import { kubecheckAsync, ROOT } from './run.js';

interface Shown {
  readonly file: string;
  readonly line: number;
  readonly args: string[];
  readonly expected: string[];
}

const FILES = ['README.md', ...readdirSync(join(ROOT, 'docs')).filter((f) => f.endsWith('.md')).sort().map((f) => `docs/${f}`)];

/** The commands of `sh` blocks followed by `# ` lines of output, in order. */
function shown(file: string, text: string): Shown[] {
  const out: Shown[] = [];
  for (const m of text.matchAll(/```sh\n([\s\S]*?)```/g)) {
    const start = text.slice(0, m.index).split('\n').length + 1;
    const lines = m[1].replace(/\\\n/g, ' ').split('\n');
    let previous: string[] = [];
    let current: Shown | undefined;
    lines.forEach((l, i) => {
      const cmd = /^npx kubecheck (.*)$/.exec(l.trim());
      if (cmd) {
        const given = words(cmd[1]);
        const dots = given.indexOf('...');
        // `...`: the previous command's arguments up to the first option given after it.
        const cut = previous.indexOf(given[dots + 1]);
        const args = dots < 0 ? given : [...given.slice(0, dots), ...previous.slice(dots, cut < 0 ? previous.length : cut), ...given.slice(dots + 1)];
        previous = args;
        current = { file, line: start + i, args, expected: [] };
        out.push(current);
      } else if (current && /^#\s+[✓✗]/.test(l.trim())) current.expected.push(l.trim().replace(/^#\s+/, ''));
      else if (!/^#/.test(l.trim())) current = undefined;
    });
  }
  return out.filter((s) => s.expected.length > 0);
}

const all = FILES.flatMap((f) => shown(f, readFileSync(join(ROOT, f), 'utf8')));
const squeeze = (s: string): string => s.replace(/\s+/g, ' ').trim();

describe('the documentation\'s commands with their output as comments', () => {
  it('should find them', () => {
    expect(all.length).toBeGreaterThan(0);
  });

  it.each(all.map((s) => [`${s.file}:${s.line}`, s] as const))('should print what %s shows', async (_where, s) => {
    const r = await kubecheckAsync(s.args, { timeoutMs: 500_000 });
    const output = squeeze(`${r.stdout}\n${r.stderr}`);
    for (const e of s.expected) {
      // The comment may shorten a line: its words before a parenthesis are what must be printed.
      const head = squeeze(e.split(' (')[0]);
      expect(output, `${s.file}:${s.line}: ${e}`).toContain(head);
    }
  }, 600_000);
});
