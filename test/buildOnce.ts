/**
 * vitest's global setup: compiles the package (`tsc -p tsconfig.build.json`, incremental) before
 * the tests, so the command the CLI tests spawn (bin/kubecheck.js runs dist/) is built from the
 * sources under test, never a stale build.
 */
import { execFileSync } from 'node:child_process';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';

export default function setup(): void {
  const root = fileURLToPath(new URL('..', import.meta.url));
  const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');
  execFileSync(process.execPath, [tsc, '-p', 'tsconfig.build.json'], { cwd: root, stdio: 'inherit' });
}
