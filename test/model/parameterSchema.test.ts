/**
 * The parameter declarations (`model/parameters.ts`) and the config type they fill
 * (`ClusterConfig`) are one schema: every declared key is a field of the resolved config holding
 * a value of its declared type, every field of the config is declared (so `list parameters`,
 * `--set`, config files, the importer and `configToObject` know it), and each key's printed form
 * reads back through `--set` to the same config.
 */
import { describe, expect, it } from 'vitest';
import { configToObject, resolveConfig, scenarios, type ClusterConfig } from '../../model/index.js';
import { parameterSpecs, type ParameterType } from '../../model/parameters.js';

const at = (o: unknown, key: string): unknown => key.split('.').reduce<unknown>((x, p) => (x !== null && typeof x === 'object' ? (x as Record<string, unknown>)[p] : undefined), o);

/** What a resolved value of each declared type may be. */
const HOLDS: Record<ParameterType, (v: unknown) => boolean> = {
  duration: (v) => typeof v === 'number' && Number.isFinite(v) && v >= 0,
  optionalDuration: (v) => v === null || (typeof v === 'number' && Number.isFinite(v) && v >= 0),
  integer: (v) => Number.isSafeInteger(v),
  number: (v) => typeof v === 'number' && Number.isFinite(v),
  boolean: (v) => typeof v === 'boolean',
  string: (v) => typeof v === 'string',
  outage: (v) => typeof v === 'string',
  toleration: (v) => v === null || (typeof v === 'number' && Number.isSafeInteger(v)),
  node: (v) => Number.isSafeInteger(v) && (v as number) >= -1,
  faultSequence: Array.isArray,
  workloads: Array.isArray,
  objects: Array.isArray,
};

/** The leaf fields of a config (arrays are values), by dotted path. */
function leaves(o: object, prefix = ''): string[] {
  return Object.entries(o).flatMap(([k, v]) => (v !== null && typeof v === 'object' && !Array.isArray(v) ? leaves(v, `${prefix}${k}.`) : [`${prefix}${k}`]));
}

describe('the parameter schema', () => {
  for (const { name } of scenarios) {
    it(`should give every declared key of ${name} a field of its type, and declare every field`, () => {
      const config: ClusterConfig = resolveConfig(name);
      for (const spec of parameterSpecs()) expect(HOLDS[spec.type](at(config, spec.key)), `${spec.key} (${spec.type}) = ${JSON.stringify(at(config, spec.key))}`).toBe(true);
      const declared = new Set(parameterSpecs().map((s) => s.key));
      // The scenario's name and the unsafe switch are the config's own, not parameters.
      expect(leaves(config).filter((k) => !declared.has(k) && k !== 'scenario' && k !== 'allowUnsafe')).toEqual([]);
    });
  }

  it('should read each key\'s printed form back through --set to the same config', () => {
    const config = resolveConfig('node-failure');
    const printed = configToObject(config);
    for (const spec of parameterSpecs()) {
      const value = at(printed, spec.key);
      const text = typeof value === 'string' ? value : JSON.stringify(value);
      expect(resolveConfig('node-failure', { set: { [spec.key]: text } }), spec.key).toEqual(config);
    }
  });
});
