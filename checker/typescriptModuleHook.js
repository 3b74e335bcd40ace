// A module-resolution hook (node:module register) chained after tsx's: a user's TypeScript file
// (.ts or .tsx, outside node_modules) loads as an ES module whatever its package.json says. Without
// it, a .ts file in a package with no "type": "module" loads as CommonJS, and on Node 20.19+ tsx
// then fails with ERR_REQUIRE_CYCLE_MODULE or cannot require the checker's own ES modules: the
// usual `kubecheck check --extension ./my-operator.ts` in a project's folder would not load at all.
// .mts and .cts keep the format their extension gives them.
const TYPESCRIPT = /\.tsx?$/;

/**
 * @param {string} specifier
 * @param {object} context
 * @param {(specifier: string, context: object) => Promise<{ url: string, format?: string | null }>} nextResolve
 */
export async function resolve(specifier, context, nextResolve) {
  const resolved = await nextResolve(specifier, context);
  const url = resolved.url;
  if (url.startsWith('file:') && TYPESCRIPT.test(url.split(/[?#]/)[0]) && !url.includes('/node_modules/')) {
    return { ...resolved, format: 'module' };
  }
  return resolved;
}
