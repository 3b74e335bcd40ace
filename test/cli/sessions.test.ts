/** The documentation's session format (sessions.ts): what a page may show and how it must match. */
import { describe, expect, it } from 'vitest';
import { matchesOutput, missingLine, parseSessions } from './sessions.js';

const PAGE = [
  '# Title',
  '<!-- !test given a.yaml -->',
  '```yaml',
  'x: 1',
  '```',
  '',
  '```console',
  '$ npx kubecheck check --config a.yaml \\',
  '    --property p',
  'line one',
  '...',
  'last',
  '$ kubecheck diff --markdown >> "$GITHUB_STEP_SUMMARY"',
  '```',
  '<!-- !test skip: a server -->',
  '```console',
  '$ npm start',
  '```',
].join('\n');

describe('documentation sessions', () => {
  it('should read commands, continuations, redirections, given files and skips', () => {
    const [a, b] = parseSessions('page.md', PAGE);
    expect(a.given).toEqual([{ name: 'a.yaml', content: 'x: 1\n' }]);
    expect(a.commands.map((c) => [c.args, c.redirect, c.expected])).toEqual([
      [['check', '--config', 'a.yaml', '--property', 'p'], undefined, ['line one', '...', 'last']],
      [['diff', '--markdown'], '$GITHUB_STEP_SUMMARY', []],
    ]);
    expect(b.skip).toBe('a server');
  });

  it('should refuse a command other than kubecheck unless skipped, and a mark away from its block', () => {
    expect(() => parseSessions('p.md', '```console\n$ ls\n```')).toThrow(/kubecheck commands only/);
    expect(() => parseSessions('p.md', '<!-- !test excerpt -->\nsome prose\n```console\n$ kubecheck list\n```')).toThrow(/right before/);
  });

  it('should match whole outputs, with ... for any lines, and excerpts in order', () => {
    expect(matchesOutput(['a', '...', 'd'], 'a\nb\nc\nd\n')).toBe(true);
    expect(matchesOutput(['a', '  ...', 'd'], 'a\nd')).toBe(true);
    expect(matchesOutput(['a', 'd'], 'a\nb\nd')).toBe(false);
    expect(matchesOutput(['a', '...'], 'b\na')).toBe(false);
    expect(matchesOutput(['b', 'd'], 'a\nb\nc\nd', true)).toBe(true);
    expect(matchesOutput(['d', 'b'], 'a\nb\nc\nd', true)).toBe(false);
    expect(missingLine(['b', 'x'], 'a\nb\nc')).toBe('x');
  });
});
