/**
 * The parameter declarations (`model/parameters.ts`) and the config type they fill
 * (`ClusterConfig`) are one schema: every declared key is a field of the resolved config holding
 * a value of its declared type, every field of the config is declared (so `list parameters`,
 * `--set`, config files, the importer and `configToObject` know it), and each key's printed form
 * reads back through `--set` to the same config. The first two are checked at compile time
 * (`tsc --noEmit` fails on a mismatch, naming the key) and again on each scenario's config.
 */
import { describe, expect, it } from 'vitest';
import { configToObject, resolveConfig, scenarios, type ClusterConfig } from '../../model/index.js';
import { parameterSpecs, parameterValue, writtenValue, type DeclaredParameter, type ParameterKey, type ParameterType, type ParameterValues } from '../../model/parameters.js';

// ---- the schema at compile time -------------------------------------------------------------

/** `A` and `B` are the same type, not merely assignable one to the other. */
type Same<A, B> = (<T>() => T extends A ? 1 : 2) extends <T>() => T extends B ? 1 : 2 ? true : false;

/** The dotted paths of `T`'s leaves: fields that are no section (a scalar, a list, a union with null). */
type Leaves<T, P extends string = ''> = {
  [K in keyof T & string]: T[K] extends object ? (T[K] extends readonly unknown[] ? `${P}${K}` : Leaves<T[K], `${P}${K}.`>) : `${P}${K}`;
}[keyof T & string];

/** The type of `T`'s field at dotted path `P`, or never where it has none. */
type At<T, P extends string> = P extends `${infer H}.${infer R}` ? (H extends keyof T ? At<T[H], R> : never) : P extends keyof T ? T[P] : never;

/** The keys of declarations whose field of ClusterConfig is missing or holds another type than their kind's. */
type Mistyped<D> = D extends { readonly key: infer K extends string; readonly type: infer T extends ParameterType } ? (Same<At<ClusterConfig, K>, ParameterValues[T]> extends true ? never : K) : never;

/** Compiles only when `T` is never; otherwise the error names what it holds. */
type None<T extends never> = T;

/** Every declared key is a field of ClusterConfig of the declared kind's value type. */
export type DeclaredKeysAreFields = None<Mistyped<DeclaredParameter>>;
/** Every field of ClusterConfig but the scenario's name and the unsafe switch is declared. */
export type FieldsAreDeclared = None<Exclude<Leaves<ClusterConfig>, ParameterKey | 'scenario' | 'allowUnsafe'>>;
/** A bound relative to another parameter names a declared one. */
export type BoundsNameParameters = None<Exclude<NonNullable<Extract<DeclaredParameter, { readonly bounds: object }>['bounds']> extends infer B ? (B extends { readonly atMost: infer K } ? K : never) : never, ParameterKey>>;

// ---- the schema on each scenario's config ---------------------------------------------------

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
  nodeLabels: Array.isArray,
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

  it('should write each declared default as list parameters shows it, and hold it unless a scenario or the version changes it', () => {
    const config = resolveConfig('node-failure');
    for (const spec of parameterSpecs()) {
      const written = writtenValue(spec, spec.default);
      expect(typeof written === 'string' ? written : JSON.stringify(written), spec.key).toBe(spec.defaultValue);
      // node-failure sets a crash budget; the workloads' default is the list the scalar keys describe.
      if (spec.key !== 'faults.nodeCrash' && spec.type !== 'workloads') expect(parameterValue(config, spec.key), spec.key).toEqual(spec.default);
    }
  });

  it('should declare a unit for each number, and seconds for each duration and each *Seconds key', () => {
    for (const spec of parameterSpecs()) {
      const numeric = ['duration', 'optionalDuration', 'integer', 'number', 'toleration'].includes(spec.type);
      expect(spec.unit !== undefined, spec.key).toBe(numeric);
      if (spec.type === 'duration' || /Seconds$/.test(spec.key)) expect(spec.unit, spec.key).toBe('seconds');
    }
  });

  it('should refuse each value just outside its declared bounds, with the rule\'s code, and accept it at the bound', () => {
    const codes = { shape: 'KC107', value: 'KC104', model: 'KC106', kubernetes: 'KC105' };
    const refusal = (set: Record<string, string>): string => {
      try {
        resolveConfig('node-failure', { set });
      } catch (e) {
        return (e as Error).message;
      }
      return '';
    };
    const text = (spec: (typeof parameterSpecs extends () => readonly (infer S)[] ? S : never), v: number): string => (spec.type === 'duration' ? `${v}s` : String(v));
    for (const spec of parameterSpecs()) {
      const b = spec.bounds;
      if (b === undefined || b.atMost !== undefined) continue;
      // Each bound alone: a count's siblings (zones, new nodes) kept within it.
      const least = b.above !== undefined ? b.above : b.min!;
      const under = b.above !== undefined ? least : least - 1;
      expect(refusal({ [spec.key]: text(spec, under) }), spec.key).toMatch(new RegExp(`^${codes[b.rule]}: ${spec.key.replace(/\./g, '\\.')} \\(`));
      if (b.above === undefined) expect(refusal({ [spec.key]: text(spec, least), 'cluster.zones': '1', 'cluster.newNodes': '0', 'cluster.etcdMembersDownAtStart': '0' }), spec.key).not.toMatch(new RegExp(`${spec.key.replace(/\./g, '\\.')} \\(`));
    }
  });

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
