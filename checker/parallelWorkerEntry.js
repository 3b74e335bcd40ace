// Entry of a parallel-search worker thread. Compiled (dist/checker/, as installed), the worker is
// JavaScript and runs as it is. From the TypeScript sources (the repository's tests), tsx is
// registered first; resolving it from here, not from the working directory, lets that work wherever
// the sources are. A model factory written in TypeScript registers tsx itself (parallelWorker.ts).
import { existsSync } from 'node:fs';
import { register as registerHook } from 'node:module';
import { fileURLToPath } from 'node:url';

const compiled = new URL('./parallelWorker.js', import.meta.url);
if (existsSync(fileURLToPath(compiled))) {
  await import(compiled.href);
} else {
  const { register } = await import('tsx/esm/api');
  register();
  registerHook(new URL('./typescriptModuleHook.js', import.meta.url));
  globalThis.__kubecheckTypeScript = true;
  await import(new URL('./parallelWorker.ts', import.meta.url).href);
}
