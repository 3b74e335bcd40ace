/**
 * Users write models, factories and extensions in TypeScript; the checker itself runs as compiled
 * JavaScript. Before importing a user's `.ts` module, tsx's loader is registered once (in this
 * thread), and only then: compiled code never goes through a loader. A user's `.ts` file loads as
 * an ES module whatever its package.json says (`typescriptModuleHook.js`).
 */
import { register as registerHook } from 'node:module';

const TYPESCRIPT = /\.[cm]?tsx?$/;

/** Whether a module path or URL names TypeScript. */
export function isTypeScriptModule(pathOrUrl: string): boolean {
  return TYPESCRIPT.test(pathOrUrl.split(/[?#]/)[0]);
}

/** Registers tsx for this thread when `pathOrUrl` is TypeScript and no loader is registered yet. */
export async function ensureTypeScriptLoader(pathOrUrl: string): Promise<void> {
  const g = globalThis as { __kubecheckTypeScript?: boolean };
  if (!isTypeScriptModule(pathOrUrl) || g.__kubecheckTypeScript === true || import.meta.url.endsWith('.ts')) return;
  const { register } = (await import('tsx/esm/api')) as { register: () => unknown };
  register();
  registerHook(new URL('./typescriptModuleHook.js', import.meta.url));
  g.__kubecheckTypeScript = true;
}
