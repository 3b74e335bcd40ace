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
  if (!url.startsWith('file:') || url.includes('/node_modules/')) return resolved;
  // In a CommonJS package tsx resolves an import of a sibling by its `.js` name (`./lib.js` for
  // lib.ts, TypeScript's own convention) to a CommonJS virtual module: the file's URL with queries
  // `?tsx-commonjs-...`, one of them also encoded into the path (`lib.ts%3Ftsx-...`). That module
  // cannot import the checker's ES modules; the file itself, loaded as an ES module, can.
  const path = url.includes('tsx-commonjs') ? url.split('?')[0].split('%3F')[0] : url.split(/[?#]/)[0];
  if (!TYPESCRIPT.test(path)) return resolved;
  return { ...resolved, url: url.includes('tsx-commonjs') ? path : url, format: 'module' };
}
