#!/usr/bin/env node
// The kubecheck command. It runs the compiled JavaScript in dist/ (built by `npm run build`, which
// `npm ci` and `npm pack` run through the `prepare` script). A user's TypeScript (an extension, a
// model) is loaded through tsx, registered only when the command line names a TypeScript file.
// From a checkout that was never built, the sources run through tsx instead.
import { existsSync } from 'node:fs';
import { register as registerHook } from 'node:module';
import { fileURLToPath } from 'node:url';

const compiled = new URL('../dist/cli/main.js', import.meta.url);
const built = existsSync(fileURLToPath(compiled));
const namesTypeScript = process.argv.slice(2).some((a) => /\.[cm]?tsx?$/.test(a.split('=').pop() ?? ''));
if (!built || namesTypeScript) {
  const { register } = await import('tsx/esm/api');
  register();
  // A user's .ts loads as an ES module whatever its package.json says (see the hook's comment).
  registerHook(new URL(built ? '../dist/checker/typescriptModuleHook.js' : '../checker/typescriptModuleHook.js', import.meta.url));
  globalThis.__kubecheckTypeScript = true;
}
globalThis.__kubecheckBin = true;
await import(built ? compiled.href : new URL('../cli/main.ts', import.meta.url).href);
