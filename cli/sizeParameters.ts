/**
 * The settings `kubecheck size` varies, and how a config is written with one of them changed.
 * Kubernetes: the counts the model builds (nodes, zones, etcd members, kube-apiservers,
 * leader-election candidates, replicas of each workload) and every fault and operator budget, as
 * `model/parameters.ts` declares them (an integer counting up to MAX_COUNT), `informers.watchLag`
 * in seconds, and the replicas of each workload a `cluster.workloads` list gives; by default those
 * the check uses (above their least value). Another subject (the two-phase example, `--model`):
 * its integer parameters. `--vary` names others: any integer or duration parameter.
 */
import type { FamilyParameter, JsonValue } from '../checker/index.js';
import { inputText } from '../checker/escape.js';
import { MAX_COUNT, parameterSpec, parameterSpecs, parameterValue, type ParameterSpec } from '../model/parameters.js';
import type { ClusterConfig } from '../model/index.js';
import { fail, ToolErrorCode } from '../reports/errors.js';
import type { ConfigInput, SubjectParameter } from './subjects.js';

/** A setting to vary: its key, value in the check and least value, and the unit its values are in. */
export interface SizeParameter extends FamilyParameter {
  /** `seconds` for a duration (varied a second at a time); otherwise a count. */
  readonly unit: 'count' | 'seconds';
}

/** The replicas of one workload of a `cluster.workloads` list: `cluster.workloads.<name>.replicas`. */
const WORKLOAD_KEY = /^cluster\.workloads\.(.+)\.replicas$/;

/** What the sizing of one check knows of its config. */
export interface SizingSubject {
  /** The keys that can be varied, with what each is in the check. */
  readonly parameters: readonly SizeParameter[];
  /** The keys varied when `--vary` names none: those the check uses. */
  readonly defaults: readonly string[];
  /** The config input with the varied keys at `values`. */
  inputAt(values: Readonly<Record<string, number>>): ConfigInput;
  /** `--set key=value` as a user writes it. */
  written(key: string, value: number): string;
}

/** The least value a Kubernetes parameter takes, from its declared bounds. */
function floorOf(spec: ParameterSpec): number {
  const b = spec.bounds;
  if (b?.min !== undefined) return b.min;
  if (b?.above !== undefined) return Math.floor(b.above) + 1;
  return 0;
}

/** Whether a declaration counts something the model builds or a budget: what multiplies states. */
function multiplies(spec: ParameterSpec): boolean {
  return spec.type === 'integer' && spec.unit === 'count' && spec.max === MAX_COUNT;
}

interface ListedWorkload {
  readonly name: string;
  readonly kind: string;
  readonly replicas?: number;
}

/** The workloads a config file lists (`cluster: { workloads: [...] }`), if it lists them. */
function listedWorkloads(file: unknown): readonly ListedWorkload[] | undefined {
  const cluster = file !== null && typeof file === 'object' && !Array.isArray(file) ? (file as Record<string, unknown>).cluster : undefined;
  const list = cluster !== null && typeof cluster === 'object' && !Array.isArray(cluster) ? (cluster as Record<string, unknown>).workloads : undefined;
  return Array.isArray(list) ? (list as ListedWorkload[]) : undefined;
}

/** The config file with workload `name`'s replicas set to `replicas`. */
function withReplicas(file: unknown, name: string, replicas: number): unknown {
  const f = file as Record<string, Record<string, unknown>>;
  const list = listedWorkloads(file) ?? [];
  return { ...f, cluster: { ...f.cluster, workloads: list.map((w) => (w.name === name ? { ...w, replicas } : w)) } };
}

/** The Kubernetes check's settings. */
export function kubernetesSizing(config: ClusterConfig, input: ConfigInput): SizingSubject {
  const specs = parameterSpecs();
  const out: SizeParameter[] = [];
  const listed = listedWorkloads(input.file);
  for (const spec of specs) {
    if (spec.type !== 'integer' && spec.type !== 'duration') continue;
    // A list of workloads replaces the default ones' keys: its own entries are varied instead.
    if (listed !== undefined && /^cluster\.(replicaSet|statefulSet)Replicas$/.test(spec.key)) continue;
    const value = parameterValue(config, spec.key);
    if (typeof value !== 'number') continue;
    out.push({ key: spec.key, target: value, floor: floorOf(spec), unit: spec.type === 'duration' ? 'seconds' : 'count' });
  }
  for (const w of config.cluster.workloads) {
    if (listed === undefined || w.kind === 'DaemonSet') continue;
    out.push({ key: `cluster.workloads.${w.name}.replicas`, target: w.replicas, floor: 0, unit: 'count' });
  }
  const defaults = out.filter((p) => {
    const spec = parameterSpec(p.key);
    const counts = spec === undefined ? WORKLOAD_KEY.test(p.key) : multiplies(spec) || p.key === 'informers.watchLag';
    return counts && p.target > p.floor;
  }).map((p) => p.key);
  return {
    parameters: out,
    defaults,
    inputAt(values) {
      let file = input.file;
      const set: Record<string, string> = { ...input.set };
      for (const [key, v] of Object.entries(values)) {
        const w = WORKLOAD_KEY.exec(key);
        if (w !== null) file = withReplicas(file, w[1], v);
        else set[key] = parameterSpec(key)?.type === 'duration' ? `${v}s` : String(v);
      }
      return { ...input, ...(file === undefined ? {} : { file }), set };
    },
    written: (key, value) => (parameterSpec(key)?.type === 'duration' ? `${key}=${value}s` : `${key}=${value}`),
  };
}

/** The settings of a subject that is not Kubernetes (an example, `--model`): its integer parameters, at least 0. */
export function genericSizing(declared: readonly SubjectParameter[], config: JsonValue, input: ConfigInput): SizingSubject {
  const current = (key: string): JsonValue | undefined => (config !== null && typeof config === 'object' && !Array.isArray(config) ? (config as Readonly<Record<string, JsonValue>>)[key] : undefined);
  const out: SizeParameter[] = [];
  for (const p of declared) {
    const v = current(p.key) ?? p.defaultValue;
    const n = typeof v === 'number' ? v : typeof v === 'string' && /^\d+$/.test(v) ? Number(v) : NaN;
    if (Number.isInteger(n)) out.push({ key: p.key, target: n, floor: 0, unit: 'count' });
  }
  return {
    parameters: out,
    defaults: out.filter((p) => p.target > p.floor).map((p) => p.key),
    inputAt: (values) => ({ ...input, set: { ...input.set, ...Object.fromEntries(Object.entries(values).map(([k, v]) => [k, String(v)])) } }),
    written: (key, value) => `${key}=${value}`,
  };
}

/**
 * The parameters `--vary` names (default: those the check uses), refused in one line when a key is
 * not a parameter (KC102, with the keys that can be varied) or not a number that can be varied.
 */
export function variedParameters(sizing: SizingSubject, vary: readonly string[] | undefined, allKeys: readonly string[]): readonly SizeParameter[] {
  if (vary === undefined || vary.length === 0) return sizing.parameters.filter((p) => sizing.defaults.includes(p.key));
  const out: SizeParameter[] = [];
  for (const key of vary) {
    const p = sizing.parameters.find((q) => q.key === key);
    if (p === undefined) {
      const hint = sizing.defaults.length > 0 ? `the settings this check uses: ${sizing.defaults.join(', ')}` : `the numeric settings: ${sizing.parameters.map((q) => q.key).join(', ')}`;
      if (allKeys.includes(key)) fail(ToolErrorCode.badOption, `--vary ${inputText(key)}: not a count nor a duration, so it has no +1 to measure; ${hint}`);
      fail(ToolErrorCode.unknownParameter, `unknown parameter ${inputText(key)} (--vary); ${hint}`);
    }
    if (!out.includes(p)) out.push(p);
  }
  return out;
}
