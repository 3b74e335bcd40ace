/**
 * Every terminal session of the documentation (`docs/*.md` and the README's ```console blocks)
 * run as written, each in a fresh folder holding the repository's `examples/` and the files its
 * marks give, its commands in turn, and compared with what the page shows (see sessions.ts). A
 * figure on a page that the command no longer prints fails here.
 */
import { spawn } from 'node:child_process';
import { closeSync, cpSync, mkdirSync, mkdtempSync, openSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { updateExamples } from './literate.js';
import { BIN, ENV, normalise, ROOT } from './run.js';
import { matchesOutput, missingLine, parseSessions, type Session } from './sessions.js';

const update = process.env.KUBECHECK_UPDATE_GOLDEN === '1';
const FILES = ['README.md', ...readdirSync(join(ROOT, 'docs')).filter((f) => f.endsWith('.md')).sort().map((f) => `docs/${f}`)];
const sessions = FILES.flatMap((f) => parseSessions(f, readFileSync(join(ROOT, f), 'utf8')));
const work = mkdtempSync(join(tmpdir(), 'kubecheck-docs-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

interface Ran {
  readonly code: number;
  readonly output: string;
}

/** One command with stdout and stderr in one file, in the order the process wrote them. */
function run(args: readonly string[], cwd: string, redirect: string | undefined): Promise<Ran> {
  const terminal = `${cwd}.terminal`; // beside the folder, where no command lists it
  const out = openSync(terminal, 'w');
  const file = redirect === undefined ? out : openSync(join(cwd, redirect), 'a');
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [BIN, ...args], { cwd, env: ENV, stdio: ['ignore', file, out], timeout: 200_000 });
    child.on('close', (code) => {
      closeSync(out);
      if (file !== out) closeSync(file);
      resolve({ code: code ?? -1, output: readFileSync(terminal, 'utf8') });
    });
  });
}

async function play(s: Session, index: number): Promise<Ran[]> {
  const dir = mkdtempSync(join(work, `s${index}-`));
  symlinkSync(join(ROOT, 'examples'), join(dir, 'examples'), 'dir');
  for (const g of s.given) {
    mkdirSync(dirname(join(dir, g.name)), { recursive: true });
    if (g.from !== undefined) cpSync(join(ROOT, g.from), join(dir, g.name), { recursive: true });
    else writeFileSync(join(dir, g.name), g.content ?? '');
  }
  const ran: Ran[] = [];
  for (const c of s.commands) ran.push(await run(c.args, dir, c.redirect));
  return ran;
}

// Two sessions at a time (two cores; vitest runs other files beside this one).
const results = new Map<Session, Promise<Ran[]>>();
const runnable = sessions.filter((s) => s.skip === undefined);
const lanes: Promise<unknown>[] = [Promise.resolve(), Promise.resolve()];
runnable.forEach((s, i) => {
  const p = lanes[i % 2].then(() => play(s, i));
  results.set(s, p);
  lanes[i % 2] = p.catch(() => undefined);
});

// With KUBECHECK_UPDATE_GOLDEN=1 a session's output that differs is written back into its page,
// except where it shows an excerpt (`...`): an excerpt is chosen by hand.
const rewrites: { file: string; start: number; end: number; text: string }[] = [];
afterAll(() => {
  for (const file of new Set(rewrites.map((r) => r.file))) {
    const mine = rewrites.filter((r) => r.file === file).map((r) => ({ block: { text: '', start: r.start, end: r.end }, text: r.text }));
    writeFileSync(join(ROOT, file), updateExamples(readFileSync(join(ROOT, file), 'utf8'), mine));
  }
});

describe('the documentation\'s terminal sessions', () => {
  it('should find sessions in the README and docs, each with a command or a reason to skip it', () => {
    expect(runnable.length).toBeGreaterThan(15);
    for (const s of sessions) expect(s.commands.length, `${s.file}:${s.line}`).toBeGreaterThan(0);
  });

  for (const s of sessions) {
    const name = `${s.file}:${s.line} (${s.title}): ${s.commands.map((c) => `kubecheck ${c.args.join(' ')}`).join('; ')}`;
    if (s.skip !== undefined) {
      it.skip(`${name} — not run: ${s.skip}`, () => undefined);
      continue;
    }
    it(name, async () => {
      const ran = await results.get(s)!;
      s.commands.forEach((c, i) => {
        const r = ran[i];
        const shown = normalise(r.output);
        if (update && !s.excerpt && !c.expected.some((l) => l.trim().endsWith('...')) && !matchesOutput(c.expected.map(normalise), shown)) {
          rewrites.push({ file: s.file, start: c.outputStart, end: c.outputEnd, text: r.output.trimEnd() });
          return;
        }
        expect(r.output, `${c.command} printed a stack trace`).not.toMatch(/\n\s+at /);
        if (s.excerpt) {
          expect(missingLine(c.expected.map(normalise), shown), `$ ${c.command} (exit ${r.code}) printed:\n${shown}\nwithout the excerpt's line`).toBeUndefined();
        } else if (!matchesOutput(c.expected.map(normalise), shown)) {
          // The whole output beside the expected one reads best in vitest's diff.
          expect(`$ ${c.command} (exit ${r.code})\n${shown.trimEnd()}`).toBe(`$ ${c.command} (exit ${r.code})\n${c.expected.map(normalise).join("\n").trimEnd()}`);
        }
      });
    });
  }
});
