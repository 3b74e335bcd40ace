/**
 * Builds a {@link ClusterConfig} from a scenario, a parsed config file and `--set` pairs, and
 * validates it as strictly as Kubernetes does, naming the rule. `configToObject` is its inverse.
 */
import type { ClusterConfig, CustomObjectConfig, Outage, TolerationSetting, WorkloadConfig, WorkloadKind } from './config.js';
import type { JsonValue } from '../checker/model.js';
import { defaultGracePeriod, defaultWorkloads, WORKLOAD_KINDS } from './config.js';
import { formatDuration, parseDuration } from './duration.js';
import { ModelErrorCode, modelError } from './errors.js';
import { parameterSpecs, type ParameterSpec } from './parameters.js';
import { scenarioOverrides, scenarios } from './scenarios.js';
import { validateConfig } from './validate.js';

export interface ResolveInput {
  /** A parsed YAML/JSON object with the same dotted paths as sections, e.g. `{ cluster: { nodes: 3 } }`. */
  readonly file?: unknown;
  /** `--set key=value` pairs. */
  readonly set?: Readonly<Record<string, string>>;
  /** Explore a config Kubernetes would refuse (its consequences then show in the search). */
  readonly allowUnsafe?: boolean;
}

const GRACE = 'kubeControllerManager.nodeMonitorGracePeriod';
const FILE_META = new Set(['scenario', 'allowUnsafe']);

function distance(a: string, b: string): number {
  const d = Array.from({ length: a.length + 1 }, (_, i) => [i, ...Array<number>(b.length).fill(0)]);
  for (let j = 1; j <= b.length; j++) d[0][j] = j;
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      d[i][j] = Math.min(d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + (a[i - 1] === b[j - 1] ? 0 : 1));
    }
  }
  return d[a.length][b.length];
}

/** Known keys closest to `key` (by edit distance of the whole key and of its last segment). */
function closeKeys(key: string): string[] {
  const last = key.split('.').pop()?.toLowerCase() ?? key;
  const scored = parameterSpecs().map((s) => {
    const tail = s.key.split('.').pop()?.toLowerCase() ?? '';
    return { key: s.key, score: Math.min(distance(key.toLowerCase(), s.key.toLowerCase()), distance(last, tail)) };
  });
  scored.sort((a, b) => a.score - b.score || a.key.localeCompare(b.key));
  return scored.filter((s) => s.score <= Math.max(3, last.length / 3)).slice(0, 4).map((s) => s.key);
}

function unknownKey(key: string, where: string): never {
  const close = closeKeys(key);
  const hint = close.length ? `did you mean ${close.join(', ')}?` : `known keys: ${parameterSpecs().map((s) => s.key).join(', ')}`;
  modelError(ModelErrorCode.unknownParameter, `unknown parameter "${key}" (${where}); ${hint}`);
}

/**
 * Flattens a config file object into dotted keys; scalars at the leaves. A key that is neither a
 * parameter nor a section of one is refused where it stands, so the depth of the walk is bounded
 * by the parameters' own (a config nested thousands of levels deep is one unknown key, not a
 * stack overflow).
 */
function flatten(value: unknown, prefix: string, out: Map<string, unknown>): void {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    if (prefix === '') modelError(ModelErrorCode.invalidConfigFile, `config file: expected an object of sections (e.g. { cluster: { nodes: 3 } }), got ${Array.isArray(value) ? 'a list' : quoted(value)}`);
    out.set(prefix, value);
    return;
  }
  for (const [k, v] of Object.entries(value as Record<string, unknown>)) {
    const key = prefix ? `${prefix}.${k}` : k;
    const isParam = parameterSpecs().some((s) => s.key === key);
    const isSection = !isParam && parameterSpecs().some((s) => s.key.startsWith(`${key}.`));
    if (isParam || (prefix === '' && FILE_META.has(k))) out.set(key, v);
    else if (isSection && v !== null && typeof v === 'object' && !Array.isArray(v)) flatten(v, key, out);
    else unknownKey(key, 'config file');
  }
}

/** A user's value for a message: JSON, cut short when long. */
function quoted(raw: unknown): string {
  // JSON would print these as null: a number beyond a double's range (1e999) reads as Infinity.
  if (typeof raw === 'number' && !Number.isFinite(raw)) return Number.isNaN(raw) ? 'NaN' : `${raw} (a number beyond what a double holds, such as 1e999)`;
  let text: string;
  try {
    text = JSON.stringify(raw) ?? String(raw);
  } catch {
    text = String(raw);
  }
  return text.length > 60 ? `${text.slice(0, 57)}...` : text;
}

/** A whole number written in decimal: `3`, `-1`; in a file also a YAML/JSON number such as `1e3`, if exact. */
function parseInteger(key: string, raw: unknown): number {
  const n = typeof raw === 'number' ? raw : typeof raw === 'string' && /^-?\d+$/.test(raw.trim()) ? Number(raw.trim()) : NaN;
  if (!Number.isInteger(n)) modelError(ModelErrorCode.invalidValue, `${key}: expected an integer, got ${quoted(raw)}`);
  if (!Number.isSafeInteger(n)) modelError(ModelErrorCode.invalidValue, `${key}: ${quoted(raw)} is too large to count exactly (at most ${Number.MAX_SAFE_INTEGER})`);
  return n;
}

/** A finite number written in decimal (`0.1`, `2`, `5e-2`); not hexadecimal, not `Infinity`. */
function parseNumber(key: string, raw: unknown): number {
  const decimal = /^[-+]?(\d+(\.\d*)?|\.\d+)(e[-+]?\d+)?$/i;
  const n = typeof raw === 'number' ? raw : typeof raw === 'string' && decimal.test(raw.trim()) ? Number(raw.trim()) : NaN;
  if (!Number.isFinite(n)) modelError(ModelErrorCode.invalidValue, `${key}: expected a number, got ${quoted(raw)}`);
  return n;
}

/** `1.32`, `v1.32`, `1.33.1`: a Kubernetes minor version, optionally with a patch. */
const KUBERNETES_VERSION = /^v?\d+\.\d+(\.\d+)?$/;

function parseValue(spec: ParameterSpec, raw: unknown): unknown {
  switch (spec.type) {
    case 'duration':
      return parseDuration(spec.key, raw);
    case 'integer':
      return parseInteger(spec.key, raw);
    case 'number':
      return parseNumber(spec.key, raw);
    case 'boolean':
      if (raw === true || raw === 'true') return true;
      if (raw === false || raw === 'false') return false;
      return modelError(ModelErrorCode.invalidValue, `${spec.key}: expected true or false, got ${quoted(raw)}`);
    case 'string':
      if (spec.key === 'kubernetesVersion') {
        // Unquoted, YAML and JSON read 1.40 as the number 1.4: the version is lost before it arrives.
        if (typeof raw === 'number') modelError(ModelErrorCode.invalidValue, `${spec.key}: got the number ${raw}; quote the version (kubernetesVersion: "1.40"), since unquoted YAML and JSON read 1.40 as the number 1.4`);
        if (typeof raw !== 'string' || !KUBERNETES_VERSION.test(raw.trim())) modelError(ModelErrorCode.invalidValue, `${spec.key}: expected a Kubernetes version such as "1.32" or "v1.32", got ${quoted(raw)}`);
        return raw.trim();
      }
      if (typeof raw !== 'string' && typeof raw !== 'number') modelError(ModelErrorCode.invalidValue, `${spec.key}: expected a string, got ${quoted(raw)}`);
      return String(raw);
    case 'outage': {
      const known: Outage[] = ['none', 'kube-scheduler', 'kube-controller-manager', 'kube-apiserver'];
      if (!known.includes(raw as Outage)) modelError(ModelErrorCode.invalidValue, `${spec.key}: expected one of ${known.join(', ')}, got ${quoted(raw)}`);
      return raw;
    }
    case 'toleration':
      if (raw === 'default' || raw === 'same' || raw === null) return null;
      if (raw === 'forever' || raw === 'none') return raw;
      if (typeof raw === 'string' && !/^-?\d+$/.test(raw.trim())) {
        modelError(ModelErrorCode.invalidValue, `${spec.key}: expected seconds, forever, none or ${spec.defaultValue}, got ${JSON.stringify(raw)}`);
      }
      return parseInteger(spec.key, raw);
    case 'node': {
      if (raw === 'none' || raw === null || raw === '') return -1;
      const m = typeof raw === 'string' ? /^node-(\d+)$/.exec(raw.trim()) : null;
      if (m === null || Number(m[1]) < 1) modelError(ModelErrorCode.invalidValue, `${spec.key}: expected a node name such as node-2, or none, got ${JSON.stringify(raw)}`);
      return Number(m[1]) - 1;
    }
    case 'optionalDuration':
      if (raw === 'same' || raw === null) return null;
      return parseDuration(spec.key, raw);
    case 'workloads':
      return parseWorkloads(spec.key, raw);
    case 'objects':
      return parseObjects(spec.key, raw);
    case 'faultSequence': {
      if (raw === 'none' || raw === null || raw === '') return [];
      const items = Array.isArray(raw) ? raw : typeof raw === 'string' ? raw.split(',') : undefined;
      if (items === undefined) modelError(ModelErrorCode.invalidValue, `${spec.key}: expected a list such as node-crash:node-1,node-crash:node-2, got ${JSON.stringify(raw)}`);
      return items.map((item) => {
        const m = typeof item === 'string' ? /^\s*([a-z][a-z-]*)(?::([a-z0-9-]+))?(?:\+([0-9.]+[a-z]+))?\s*$/.exec(item) : null;
        if (m === null) modelError(ModelErrorCode.invalidValue, `${spec.key}: expected fault:target or fault:target+delay (e.g. node-crash:node-1,node-crash:node-2+20s), got ${JSON.stringify(item)}`);
        return { fault: m[1], target: m[2] ?? null, after: m[3] === undefined ? null : parseDuration(spec.key, m[3]) };
      });
    }
  }
}

const WORKLOAD_FIELDS = ['kind', 'name', 'replicas', 'tolerations', 'nodeName', 'terminationGracePeriodSeconds', 'podManagementPolicy'];

/** A toleration setting of a workload in the list: seconds, forever, none, or default. */
function parseToleration(key: string, raw: unknown): TolerationSetting {
  if (raw === undefined || raw === null || raw === 'default') return null;
  if (raw === 'forever' || raw === 'none') return raw;
  if (typeof raw === 'string' && !/^-?\d+$/.test(raw.trim())) modelError(ModelErrorCode.invalidValue, `${key}: expected seconds, forever, none or default, got ${quoted(raw)}`);
  return parseInteger(key, raw);
}

/**
 * `cluster.workloads`: `default` (the ReplicaSet web and the StatefulSet db of the scalar keys:
 * null here), or a list of `{ kind, name, replicas, tolerations: { unreachable, notReady }, nodeName }`
 * from a config file (or, with `--set`, as JSON). Shapes are checked here; names, nodes and
 * durations by `validateConfig`.
 */
/** The most objects `cluster.objects` takes: each becomes an API object an operator may watch. */
export const MAX_OBJECTS = 256;
const OBJECT_FIELDS = ['apiVersion', 'kind', 'metadata', 'spec', 'status'];
const JSON_LIKE = (v: unknown): boolean => v === null || ['string', 'number', 'boolean'].includes(typeof v) || (typeof v === 'object' && (Array.isArray(v) ? v.every(JSON_LIKE) : Object.values(v as object).every(JSON_LIKE)));

function stringMap(at: string, raw: unknown): Record<string, string> | undefined {
  if (raw === undefined) return undefined;
  if (raw === null || typeof raw !== 'object' || Array.isArray(raw) || Object.values(raw).some((v) => typeof v !== 'string')) modelError(ModelErrorCode.invalidValue, `${at}: expected a map of strings, got ${quoted(raw)}`);
  return raw as Record<string, string>;
}

function parseObjects(key: string, raw: unknown): CustomObjectConfig[] {
  if (raw === 'none' || raw === null || raw === undefined || raw === '') return [];
  let list: unknown = raw;
  if (typeof raw === 'string') {
    try {
      list = JSON.parse(raw) as unknown;
    } catch {
      modelError(ModelErrorCode.invalidValue, `${key}: not a JSON list: ${quoted(raw)}`);
    }
  }
  if (!Array.isArray(list)) modelError(ModelErrorCode.invalidValue, `${key}: expected a list of objects ({ kind, metadata: { name }, spec }) or none, got ${quoted(raw)}`);
  if (list.length > MAX_OBJECTS) modelError(ModelErrorCode.invalidValue, `${key}: ${list.length} objects, more than the ${MAX_OBJECTS} kubecheck takes`);
  const seen = new Set<string>();
  return list.map((item: unknown, i): CustomObjectConfig => {
    const at = `${key}[${i}]`;
    if (item === null || typeof item !== 'object' || Array.isArray(item)) modelError(ModelErrorCode.invalidValue, `${at}: expected an object ({ kind, metadata: { name }, spec }), got ${quoted(item)}`);
    const o = item as Record<string, unknown>;
    for (const k of Object.keys(o)) if (!OBJECT_FIELDS.includes(k)) modelError(ModelErrorCode.unknownParameter, `unknown parameter "${at}.${k}" (config file); an object has ${OBJECT_FIELDS.join(', ')}`);
    if (typeof o.kind !== 'string' || !/^[A-Z][A-Za-z0-9]*$/.test(o.kind)) modelError(ModelErrorCode.invalidValue, `${at}.kind: expected a kind such as Backup, got ${quoted(o.kind)}`);
    const meta = o.metadata;
    if (meta === null || typeof meta !== 'object' || Array.isArray(meta)) modelError(ModelErrorCode.invalidValue, `${at}.metadata: expected { name, namespace?, labels?, finalizers? }, got ${quoted(meta)}`);
    const m = meta as Record<string, unknown>;
    if (typeof m.name !== 'string' || !/^[a-z0-9]([-a-z0-9.]{0,251}[a-z0-9])?$/.test(m.name)) modelError(ModelErrorCode.invalidValue, `${at}.metadata.name: expected a DNS subdomain name, got ${quoted(m.name)}`);
    const namespace = m.namespace;
    if (namespace !== undefined && (typeof namespace !== 'string' || !/^[a-z0-9]([-a-z0-9]{0,61}[a-z0-9])?$/.test(namespace))) modelError(ModelErrorCode.invalidValue, `${at}.metadata.namespace: expected a namespace name (a DNS label), got ${quoted(namespace)}`);
    const id = `${o.kind}/${namespace === undefined ? '' : `${namespace}/`}${m.name}`;
    if (seen.has(id)) modelError(ModelErrorCode.invalidValue, `${at}: ${id} is given twice`);
    seen.add(id);
    const finalizers = m.finalizers;
    if (finalizers !== undefined && (!Array.isArray(finalizers) || finalizers.some((f) => typeof f !== 'string'))) modelError(ModelErrorCode.invalidValue, `${at}.metadata.finalizers: expected a list of strings, got ${quoted(finalizers)}`);
    for (const part of ['spec', 'status'] as const) if (o[part] !== undefined && !JSON_LIKE(o[part])) modelError(ModelErrorCode.invalidValue, `${at}.${part}: expected JSON values`);
    const labels = stringMap(`${at}.metadata.labels`, m.labels);
    return {
      kind: o.kind,
      metadata: { name: m.name, ...(namespace === undefined ? {} : { namespace: namespace as string }), ...(labels ? { labels } : {}), ...(finalizers ? { finalizers: finalizers as string[] } : {}) },
      ...(o.spec !== undefined ? { spec: o.spec as JsonValue } : {}),
      ...(o.status !== undefined ? { status: o.status as JsonValue } : {}),
    };
  });
}

function parseWorkloads(key: string, raw: unknown): WorkloadConfig[] | null {
  if (raw === 'default' || raw === null || raw === undefined) return null;
  let list: unknown = raw;
  if (typeof raw === 'string' && raw.trim().startsWith('[')) {
    try {
      list = JSON.parse(raw) as unknown;
    } catch {
      modelError(ModelErrorCode.invalidValue, `${key}: not a JSON list: ${quoted(raw)}`);
    }
  }
  if (!Array.isArray(list)) {
    modelError(ModelErrorCode.invalidValue, `${key}: expected a list of workloads in a config file (cluster: { workloads: [{ kind: ReplicaSet, name: web, replicas: 2 }] }) or default, got ${quoted(raw)}`);
  }
  return list.map((item: unknown, i): WorkloadConfig => {
    const at = `${key}[${i}]`;
    if (item === null || typeof item !== 'object' || Array.isArray(item)) modelError(ModelErrorCode.invalidValue, `${at}: expected a workload ({ kind, name, replicas, tolerations, nodeName }), got ${quoted(item)}`);
    const o = item as Record<string, unknown>;
    for (const k of Object.keys(o)) if (!WORKLOAD_FIELDS.includes(k)) modelError(ModelErrorCode.unknownParameter, `unknown parameter "${at}.${k}" (config file); a workload has ${WORKLOAD_FIELDS.join(', ')}`);
    if (!WORKLOAD_KINDS.includes(o.kind as WorkloadKind)) modelError(ModelErrorCode.invalidValue, `${at}.kind: expected one of ${WORKLOAD_KINDS.join(', ')}, got ${quoted(o.kind)}`);
    const kind = o.kind as WorkloadKind;
    if (typeof o.name !== 'string') modelError(ModelErrorCode.invalidValue, `${at}.name: expected the workload's name, got ${quoted(o.name)}`);
    const daemon = kind === 'DaemonSet';
    if (daemon && (o.replicas !== undefined || o.tolerations !== undefined || (o.nodeName !== undefined && o.nodeName !== 'none'))) {
      modelError(ModelErrorCode.invalidValue, `${at}: a DaemonSet runs one pod on each node and its controller makes the pods tolerate unreachable and not-ready forever; give it no replicas, tolerations or nodeName`);
    }
    const tol: unknown = o.tolerations ?? {};
    if (tol === null || typeof tol !== 'object' || Array.isArray(tol)) modelError(ModelErrorCode.invalidValue, `${at}.tolerations: expected { unreachable, notReady }, got ${quoted(tol)}`);
    const t = tol as Record<string, unknown>;
    for (const k of Object.keys(t)) if (k !== 'unreachable' && k !== 'notReady') modelError(ModelErrorCode.unknownParameter, `unknown parameter "${at}.tolerations.${k}" (config file); tolerations has unreachable, notReady`);
    const node = parseValue({ key: `${at}.nodeName`, kubernetesName: '', component: '', defaultValue: 'none', description: '', type: 'node' }, o.nodeName ?? 'none') as number;
    const grace = o.terminationGracePeriodSeconds === undefined || o.terminationGracePeriodSeconds === null ? undefined : parseInteger(`${at}.terminationGracePeriodSeconds`, o.terminationGracePeriodSeconds);
    if (grace !== undefined && grace < 0) modelError(ModelErrorCode.invalidValue, `${at}.terminationGracePeriodSeconds: expected seconds ≥ 0, got ${grace}`);
    const policy = o.podManagementPolicy;
    if (policy !== undefined && policy !== null && (kind !== 'StatefulSet' || (policy !== 'OrderedReady' && policy !== 'Parallel'))) {
      modelError(ModelErrorCode.invalidValue, `${at}.podManagementPolicy: ${kind !== 'StatefulSet' ? 'only a StatefulSet has one' : `expected OrderedReady or Parallel, got ${quoted(policy)}`}`);
    }
    return {
      kind,
      name: o.name.trim(),
      replicas: daemon ? 0 : o.replicas === undefined ? 1 : parseInteger(`${at}.replicas`, o.replicas),
      tolerations: { unreachable: parseToleration(`${at}.tolerations.unreachable`, t.unreachable), notReady: parseToleration(`${at}.tolerations.notReady`, t.notReady) },
      nodeName: node,
      ...(grace === undefined ? {} : { terminationGracePeriodSeconds: grace }),
      ...(policy === 'Parallel' || policy === 'OrderedReady' ? { podManagementPolicy: policy } : {}),
    };
  });
}

/** The scalar keys of the default workloads, which a given `cluster.workloads` replaces. */
const SCALAR_WORKLOAD_KEY = /^cluster\.(replicaSet|statefulSet)[A-Z]/;

function setPath(target: Record<string, unknown>, key: string, value: unknown): void {
  const parts = key.split('.');
  let cur = target;
  for (let i = 0; i < parts.length - 1; i++) {
    cur[parts[i]] ??= {};
    cur = cur[parts[i]] as Record<string, unknown>;
  }
  cur[parts[parts.length - 1]] = value;
}

function getPath(source: unknown, key: string): unknown {
  let cur = source;
  for (const p of key.split('.')) cur = (cur as Record<string, unknown>)[p];
  return cur;
}

/**
 * The configuration of `scenario` with a config file and `--set` pairs applied (in that order),
 * validated. Throws `KubecheckError` (KC1xx) naming the field and the rule.
 */
export function resolveConfig(scenario: string, input: ResolveInput = {}): ClusterConfig {
  const overrides = scenarioOverrides(scenario);
  if (overrides === undefined) {
    modelError(ModelErrorCode.unknownScenario, `unknown scenario "${scenario}"; known: ${scenarios.map((s) => s.name).join(', ')}`);
  }
  const raw = new Map<string, unknown>();
  const explicit = new Set<string>();
  for (const spec of parameterSpecs()) raw.set(spec.key, spec.defaultValue);
  for (const [k, v] of Object.entries(overrides)) {
    raw.set(k, v);
    explicit.add(k);
  }
  let allowUnsafe = input.allowUnsafe === true;
  if (input.file !== undefined) {
    const flat = new Map<string, unknown>();
    flatten(input.file, '', flat);
    for (const [k, v] of flat) {
      if (k === 'scenario') continue; // the scenario argument decides
      if (k === 'allowUnsafe') {
        allowUnsafe ||= v === true || v === 'true';
        continue;
      }
      raw.set(k, v);
      explicit.add(k);
    }
  }
  for (const [k, v] of Object.entries(input.set ?? {})) {
    if (!parameterSpecs().some((s) => s.key === k)) unknownKey(k, '--set');
    raw.set(k, v);
    explicit.add(k);
  }
  const out: Record<string, unknown> = { scenario, allowUnsafe };
  for (const spec of parameterSpecs()) setPath(out, spec.key, parseValue(spec, raw.get(spec.key)));
  const cluster = out.cluster as Record<string, unknown>;
  if (cluster.workloads === null) cluster.workloads = defaultWorkloads(cluster as unknown as ClusterConfig['cluster']);
  else {
    // A list replaces web and db: their own keys, set to anything but what the scenario gives, would be lost.
    const given = new Map<string, unknown>([...Object.entries(input.set ?? {})]);
    if (input.file !== undefined) {
      const flat = new Map<string, unknown>();
      flatten(input.file, '', flat);
      for (const [k, v] of flat) if (!given.has(k)) given.set(k, v);
    }
    for (const spec of parameterSpecs()) {
      if (!SCALAR_WORKLOAD_KEY.test(spec.key) || !given.has(spec.key)) continue;
      const base = parseValue(spec, overrides[spec.key] ?? spec.defaultValue);
      if (JSON.stringify(parseValue(spec, given.get(spec.key))) !== JSON.stringify(base)) {
        modelError(ModelErrorCode.invalidShape, `${spec.key} sets the default workload ${spec.key.includes('replicaSet') ? 'web' : 'db'}, which cluster.workloads replaces; give the value in the list`);
      }
    }
  }
  if ((cluster.terminationGracePeriodSeconds as number) < 0) modelError(ModelErrorCode.invalidValue, `cluster.terminationGracePeriodSeconds: expected seconds ≥ 0, got ${cluster.terminationGracePeriodSeconds as number}`);
  if (!explicit.has(GRACE)) {
    setPath(out, GRACE, defaultGracePeriod(out.kubernetesVersion as string));
  }
  const config = out as unknown as ClusterConfig;
  validateConfig(config);
  return config;
}

/** A workload of the list as a config file writes it. */
function workloadToObject(w: WorkloadConfig): Record<string, unknown> {
  const grace = {
    ...(w.terminationGracePeriodSeconds === undefined ? {} : { terminationGracePeriodSeconds: w.terminationGracePeriodSeconds }),
    ...(w.podManagementPolicy === undefined ? {} : { podManagementPolicy: w.podManagementPolicy }),
  };
  if (w.kind === 'DaemonSet') return { kind: w.kind, name: w.name, ...grace };
  const tol = (t: TolerationSetting): unknown => (t === null ? 'default' : t);
  return {
    kind: w.kind,
    name: w.name,
    replicas: w.replicas,
    tolerations: { unreachable: tol(w.tolerations.unreachable), notReady: tol(w.tolerations.notReady) },
    nodeName: w.nodeName < 0 ? 'none' : `node-${w.nodeName + 1}`,
    ...grace,
  };
}

/** A JSON-serialisable form of `config` that {@link resolveConfig} reads back to an equal config. */
export function configToObject(config: ClusterConfig): unknown {
  const out: Record<string, unknown> = { scenario: config.scenario };
  if (config.allowUnsafe) out.allowUnsafe = true;
  for (const spec of parameterSpecs()) {
    const v = getPath(config, spec.key);
    let written: unknown = v;
    if (spec.type === 'duration') written = formatDuration(v as number);
    else if (spec.type === 'toleration') written = v === null ? spec.defaultValue : v;
    else if (spec.type === 'node') written = v === -1 ? 'none' : `node-${(v as number) + 1}`;
    else if (spec.type === 'optionalDuration') written = v === null ? 'same' : formatDuration(v as number);
    else if (spec.type === 'workloads') {
      const list = v as readonly WorkloadConfig[];
      written = JSON.stringify(list) === JSON.stringify(defaultWorkloads(config.cluster)) ? 'default' : list.map(workloadToObject);
    } else if (spec.type === 'objects') {
      written = (v as readonly CustomObjectConfig[]).length === 0 ? 'none' : v;
    } else if (spec.type === 'faultSequence') {
      const steps = v as readonly { fault: string; target: string | null; after: number | null }[];
      written = steps.length === 0 ? 'none' : steps.map((x) => `${x.fault}${x.target === null ? '' : `:${x.target}`}${x.after === null ? '' : `+${formatDuration(x.after)}`}`).join(',');
    }
    setPath(out, spec.key, written);
  }
  return out;
}
