import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { kubecheckAsync } from './run.js';

describe('kubecheck graph --output', () => {
  it('should not overwrite a file the user has unless --force', async () => {
    const file = join(mkdtempSync(join(tmpdir(), 'kc-graph-')), 'mine.svg');
    writeFileSync(file, 'precious');
    const refused = await kubecheckAsync(['graph', '--scenario', 'two-phase-commit', '--set', 'rms=2', '--output', file]);
    expect(refused.code).toBe(2);
    expect(refused.stderr.trim()).toBe(`kubecheck: KC207: ${file} already exists; use --force to overwrite it, or another --output`);
    expect(readFileSync(file, 'utf8')).toBe('precious');
    const forced = await kubecheckAsync(['graph', '--scenario', 'two-phase-commit', '--set', 'rms=2', '--output', file, '--force']);
    expect(forced.code).toBe(0);
    expect(readFileSync(file, 'utf8')).toMatch(/^<\?xml/);
  });
});
