/**
 * The operator examples' measurement (`npm run bench:operators`): its line counter counts what
 * docs/operators.md calls code, and every check it runs names files and settings that exist.
 */
import { existsSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { codeLines } from '../../bench/codeLines.js';
import { EXAMPLES } from '../../bench/operators.js';

describe('bench:operators', () => {
  it('counts lines holding code, apart from comments and blank lines, and the properties\' lines and only-their helpers apart', () => {
    const dir = mkdtempSync(join(tmpdir(), 'kubecheck-lines-'));
    writeFileSync(join(dir, 'helper.ts'), '// a comment\nexport const h = 1;\n');
    writeFileSync(join(dir, 'op.ts'), [
      '/**',
      ' * A doc comment.',
      ' */',
      "import { h } from './helper.js';",
      '',
      'const shared = (x: number): number => x + h; // trailing comment',
      'const onlyForProperty = (x: number): boolean =>',
      '  x > 0;',
      'export default {',
      '  reconcile: () => shared(1),',
      '  properties: [',
      '    onlyForProperty(shared(2)),',
      '  ],',
      '  describeObject: () => undefined,',
      '};',
    ].join('\n'));
    const l = codeLines(join(dir, 'op.ts'));
    // op.ts: 11 lines of code (import, shared, 2 of onlyForProperty, 7 of the object); helper.ts: 1.
    expect(l).toEqual({ total: 12, properties: 5, descriptions: 1, files: ['op.ts', 'helper.ts'] });
  });

  it('names example modules and config files that exist, and expects a property of every violation', () => {
    for (const e of EXAMPLES) {
      expect(existsSync(e.code), e.code).toBe(true);
      for (let i = 0; i < e.settings.length; i++) if (e.settings[i] === '--config') expect(existsSync(e.settings[i + 1]), e.settings[i + 1]).toBe(true);
      for (const c of e.checks) {
        expect(existsSync(`examples/${e.id}/${c.file}`), c.file).toBe(true);
        if (c.exit === 1) expect(c.property, `${e.id} ${c.what}`).toBeDefined();
      }
    }
  });
});
