/** Runs the kubecheck command as a separate process, as users do, and normalises what varies. */
import { spawn, spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { expect } from 'vitest';

export const ROOT = fileURLToPath(new URL('../../', import.meta.url));
export const BIN = fileURLToPath(new URL('../../bin/kubecheck.js', import.meta.url));

export interface Run {
  readonly code: number;
  readonly stdout: string;
  readonly stderr: string;
}

/**
 * The environment of every run: no colour, no debug stacks, and none of what a CI job may set
 * that changes the output (GitHub's workflow commands, a progress interval), so that goldens
 * read the same on a laptop and in a GitHub Actions job. A test sets them itself.
 */
export const ENV = { ...process.env, NO_COLOR: '1', FORCE_COLOR: undefined, KUBECHECK_DEBUG: undefined, GITHUB_ACTIONS: undefined, KUBECHECK_PROGRESS_INTERVAL: undefined };

/** `kubecheck ...args`, synchronously. */
export function kubecheck(args: readonly string[], options: { cwd?: string; env?: Record<string, string> } = {}): Run {
  const r = spawnSync(process.execPath, [BIN, ...args], { cwd: options.cwd ?? ROOT, env: { ...ENV, ...options.env }, encoding: 'utf8', timeout: 120_000, killSignal: 'SIGKILL' });
  return { code: r.status ?? -1, stdout: r.stdout, stderr: r.stderr };
}

/**
 * `kubecheck ...args` without blocking, so independent commands run side by side. A run that
 * outlives `timeoutMs` (default 300 s) is killed, so a hung command fails its test and leaves no
 * process behind to slow the rest of the suite.
 */
export function kubecheckAsync(args: readonly string[], options: { cwd?: string; env?: Record<string, string>; timeoutMs?: number } = {}): Promise<Run> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [BIN, ...args], { cwd: options.cwd ?? ROOT, env: { ...ENV, ...options.env }, timeout: options.timeoutMs ?? 300_000, killSignal: 'SIGKILL' });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (d: string) => (stdout += d));
    child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
    child.on('close', (code) => resolve({ code: code ?? -1, stdout, stderr }));
  });
}

/**
 * Replaces what differs between runs and machines: wall-clock seconds, rates, memory, the random
 * seed of unseeded runs, temporary directories.
 */
export function normalise(text: string): string {
  return text
    .replace(/\d+\.\d+s \([\d,]+ states\/s\), \d+ MiB/g, '<time> (<rate> states/s), <mem> MiB')
    .replace(/([\d,]+ steps), \d+\.\d+s; /g, '$1, <time>; ')
    .replace(/(distinct states), \d+\.\d+s\)/g, '$1, <time>)')
    .replace(/\/tmp\/[^\s/]+/g, '<tmp>')
    .replace(/\r\n/g, '\n');
}

/** The message of a refusal `f` throws (a test fails when it does not throw). */
export function refusal(f: () => unknown): string {
  try {
    f();
  } catch (e) {
    return String((e as Error).message);
  }
  throw new Error('expected a refusal');
}

/** A run refused with exit 2 and one coded line on stderr, no stack trace. */
export function expectOneLine(r: Run, code: string, pattern: RegExp): void {
  expect(r.code).toBe(2);
  expect(r.stderr.trim().split('\n')).toHaveLength(1);
  expect(r.stderr).toMatch(new RegExp(`^kubecheck: ${code}: `));
  expect(r.stderr).toMatch(pattern);
  expect(r.stderr).not.toMatch(/at .*\.ts:\d+/);
}
