/**
 * Builds a {@link ClusterConfig} from a scenario, a parsed config file and `--set` pairs, and
 * validates it as strictly as Kubernetes does, naming the rule. `configToObject` is its inverse.
 */
import type { ClusterConfig, CustomObjectConfig, FaultStep, Outage, TolerationSetting, WorkloadConfig, WorkloadKind } from './config.js';
import type { JsonValue } from '../checker/model.js';
import { defaultGracePeriod, defaultWorkloads, SYSTEM_PRIORITY_CLASSES, VOLUME_TOPOLOGIES, WORKLOAD_KINDS, type ClaimRetention, type VolumeClaimTemplate, type VolumeTopology } from './config.js';
import { parseDuration } from './duration.js';
import { ModelErrorCode, modelError } from './errors.js';
import { refuseOversizedConfig, refuseOversizedInput } from './limits.js';
import { parameterSpec, parameterSpecs, parameterValue, writtenValue, type ParameterSpec, type ParameterValue } from './parameters.js';
import { scenarioOverrides, scenarios } from './scenarios.js';
import { parseToleration as parseKubernetesToleration } from './tolerations.js';
import { parseAffinity, parseLabels, parseSpreadConstraint, type Bad } from './placement.js';
import { validateConfig } from './validate.js';

export interface ResolveInput {
  /** A parsed YAML/JSON object with the same dotted paths as sections, e.g. `{ cluster: { nodes: 3 } }`. */
  readonly file?: unknown;
  /** `--set key=value` pairs. */
  readonly set?: Readonly<Record<string, string>>;
  /**
   * Dotted keys (the ones `--set` takes) applied over the scenario and under the file and `--set`:
   * the settings an extension module declares its properties assume (its `settings` export).
   */
  readonly base?: Readonly<Record<string, unknown>>;
  /** Where `base` comes from, for the message that refuses one of its keys (default `settings`). */
  readonly baseOrigin?: string;
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
function flatten(value: unknown, prefix = '', out = new Map<string, unknown>()): Map<string, unknown> {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    if (prefix === '') modelError(ModelErrorCode.invalidConfigFile, `config file: expected an object of sections (e.g. { cluster: { nodes: 3 } }), got ${Array.isArray(value) ? 'a list' : quoted(value)}`);
    out.set(prefix, value);
    return out;
  }
  for (const [k, v] of Object.entries(value as Record<string, unknown>)) {
    const key = prefix ? `${prefix}.${k}` : k;
    const isParam = parameterSpec(key) !== undefined;
    const isSection = !isParam && parameterSpecs().some((s) => s.key.startsWith(`${key}.`));
    if (isParam || (prefix === '' && FILE_META.has(k))) out.set(key, v);
    else if (isSection && v !== null && typeof v === 'object' && !Array.isArray(v)) flatten(v, key, out);
    else unknownKey(key, 'config file');
  }
  return out;
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

/** `node-2` (index 1), or `none` (-1): a pod template's spec.nodeName. */
function parseNode(key: string, raw: unknown): number {
  if (raw === 'none' || raw === null || raw === '') return -1;
  const m = typeof raw === 'string' ? /^node-(\d+)$/.exec(raw.trim()) : null;
  if (m === null || Number(m[1]) < 1) modelError(ModelErrorCode.invalidValue, `${key}: expected a node name such as node-2, or none, got ${JSON.stringify(raw)}`);
  return Number(m[1]) - 1;
}

/** `node-crash:node-1,node-crash:node-2+20s` (or a list of such steps in a file), or `none`. */
function parseSequence(key: string, raw: unknown): FaultStep[] {
  if (raw === 'none' || raw === null || raw === '') return [];
  const items = Array.isArray(raw) ? raw : typeof raw === 'string' ? raw.split(',') : undefined;
  if (items === undefined) modelError(ModelErrorCode.invalidValue, `${key}: expected a list such as node-crash:node-1,node-crash:node-2, got ${JSON.stringify(raw)}`);
  return items.map((item: unknown) => {
    const m = typeof item === 'string' ? /^\s*([a-z][a-z-]*)(?::([a-z0-9-]+))?(?:\+([0-9.]+[a-z]+))?\s*$/.exec(item) : null;
    if (m === null) modelError(ModelErrorCode.invalidValue, `${key}: expected fault:target or fault:target+delay (e.g. node-crash:node-1,node-crash:node-2+20s), got ${JSON.stringify(item)}`);
    return { fault: m[1], target: m[2] ?? null, after: m[3] === undefined ? null : parseDuration(key, m[3]) };
  });
}

/**
 * A value as given (a `--set` string, or what a config file holds) read as `spec`'s kind: what
 * the resolved config holds, or null where the kind has a "not set" (a toleration's `default` or
 * `same`, an optional duration's `same`, the default workloads).
 */
function parseValue(spec: ParameterSpec, raw: unknown): ParameterValue | null {
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
      const known: readonly Outage[] = ['none', 'kube-scheduler', 'kube-controller-manager', 'kube-apiserver'];
      const outage = known.find((o) => o === raw);
      if (outage === undefined) modelError(ModelErrorCode.invalidValue, `${spec.key}: expected one of ${known.join(', ')}, got ${quoted(raw)}`);
      return outage;
    }
    case 'toleration':
      if (raw === 'default' || raw === 'same' || raw === null) return null;
      if (raw === 'forever' || raw === 'none') return raw;
      if (typeof raw === 'string' && !/^-?\d+$/.test(raw.trim())) {
        modelError(ModelErrorCode.invalidValue, `${spec.key}: expected seconds, forever, none or ${spec.unset}, got ${JSON.stringify(raw)}`);
      }
      return parseInteger(spec.key, raw);
    case 'node':
      return parseNode(spec.key, raw);
    case 'optionalDuration':
      if (raw === 'same' || raw === null) return null;
      return parseDuration(spec.key, raw);
    case 'workloads':
      return parseWorkloads(spec.key, raw);
    case 'objects':
      return parseObjects(spec.key, raw);
    case 'nodeLabels':
      return parseNodeLabels(spec.key, raw);
    case 'faultSequence':
      return parseSequence(spec.key, raw);
  }
}

const WORKLOAD_FIELDS = ['kind', 'name', 'replicas', 'tolerations', 'nodeName', 'terminationGracePeriodSeconds', 'podManagementPolicy', 'namespace', 'labels', 'nodeSelector', 'affinity', 'topologySpreadConstraints', 'priorityClassName', 'priority', 'volumeClaimTemplates', 'persistentVolumeClaimRetentionPolicy'];

/** `cluster.nodeLabels`: a list of label maps, one per node in order (JSON with `--set`), or none. */
function parseNodeLabels(key: string, raw: unknown): Record<string, string>[] {
  const list = listOrNone(key, raw, 'a list of label maps, one per node in order (nodeLabels: [{ disktype: ssd }, ...])');
  return list.map((m: unknown, i) => parseLabels(m ?? {}, (f, p) => modelError(ModelErrorCode.invalidValue, `${key}[${i}]${f}: ${p}`)));
}

/** A workload's scheduling constraints as Kubernetes writes them (`model/placement.ts`). */
function parsePlacement(at: string, o: Record<string, unknown>): Partial<WorkloadConfig> {
  const bad = (field: string): Bad => (f, p) => modelError(ModelErrorCode.invalidValue, `${at}.${field}${f}: ${p}`);
  const given = (k: string): boolean => o[k] !== undefined && o[k] !== null;
  if (given('namespace') && (typeof o.namespace !== 'string' || !/^[a-z0-9]([-a-z0-9]{0,61}[a-z0-9])?$/.test(o.namespace))) bad('namespace')('', `expected a namespace name (a DNS label), got ${quoted(o.namespace)}`);
  const spread = given('topologySpreadConstraints') ? o.topologySpreadConstraints : undefined;
  if (spread !== undefined && !Array.isArray(spread)) bad('topologySpreadConstraints')('', 'expected a list of constraints');
  return {
    ...(given('namespace') ? { namespace: o.namespace as string } : {}),
    ...(given('labels') ? { labels: parseLabels(o.labels, bad('labels')) } : {}),
    ...(given('nodeSelector') ? { nodeSelector: parseLabels(o.nodeSelector, bad('nodeSelector')) } : {}),
    ...(given('affinity') ? { affinity: parseAffinity(o.affinity, bad('affinity')) } : {}),
    ...(Array.isArray(spread) ? { topologySpreadConstraints: spread.map((c: unknown, i) => parseSpreadConstraint(c, bad(`topologySpreadConstraints[${i}]`))) } : {}),
  };
}

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

/**
 * Most levels that objects and lists nest within one another in a value from input (`cluster.objects`,
 * a Kubernetes file): Kubernetes objects nest a few dozen levels at most. A deeper value (or one
 * that holds itself) is refused before any walk over it recurses.
 */
export const MAX_NESTING = 100;

/** How deeply objects and lists nest in `value`, counted without recursion, up to just past `limit`. */
export function nestingDepth(value: unknown, limit: number = MAX_NESTING): number {
  let deepest = 0;
  const todo: [unknown, number][] = [[value, 0]];
  while (todo.length > 0) {
    const [v, d] = todo.pop()!;
    if (v === null || typeof v !== 'object') continue;
    deepest = Math.max(deepest, d + 1);
    if (deepest > limit) return deepest;
    for (const child of Object.values(v as Record<string, unknown>)) todo.push([child, d + 1]);
  }
  return deepest;
}
const JSON_LIKE = (v: unknown): boolean => v === null || ['string', 'number', 'boolean'].includes(typeof v) || (typeof v === 'object' && (Array.isArray(v) ? v.every(JSON_LIKE) : Object.values(v as object).every(JSON_LIKE)));

function stringMap(at: string, raw: unknown): Record<string, string> | undefined {
  if (raw === undefined) return undefined;
  if (raw === null || typeof raw !== 'object' || Array.isArray(raw) || Object.values(raw).some((v) => typeof v !== 'string')) modelError(ModelErrorCode.invalidValue, `${at}: expected a map of strings, got ${quoted(raw)}`);
  return raw as Record<string, string>;
}

/** A list parameter: a list (JSON with `--set`), or none (`none`, empty, absent) as []. */
function listOrNone(key: string, raw: unknown, expected: string): unknown[] {
  if (raw === 'none' || raw === null || raw === undefined || raw === '') return [];
  let list: unknown = raw;
  if (typeof raw === 'string') {
    try {
      list = JSON.parse(raw) as unknown;
    } catch {
      modelError(ModelErrorCode.invalidValue, `${key}: not a JSON list: ${quoted(raw)}`);
    }
  }
  if (!Array.isArray(list)) modelError(ModelErrorCode.invalidValue, `${key}: expected ${expected} or none, got ${quoted(raw)}`);
  return list;
}

function parseObjects(key: string, raw: unknown): CustomObjectConfig[] {
  const list = listOrNone(key, raw, 'a list of objects ({ kind, metadata: { name }, spec })');
  if (list.length === 0) return [];
  if (nestingDepth(list) > MAX_NESTING) modelError(ModelErrorCode.invalidValue, `${key}: nested more than ${MAX_NESTING} levels deep (objects and lists within one another, or an object that holds itself); Kubernetes objects nest a few dozen levels at most`);
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
    const list = Array.isArray(o.tolerations)
      ? o.tolerations.map((t: unknown, j) => parseKubernetesToleration(t, (field, problem) => modelError(ModelErrorCode.invalidValue, `${at}.tolerations[${j}]${field}: ${problem}`)))
      : undefined;
    if (daemon && (o.replicas !== undefined || (o.tolerations !== undefined && list === undefined) || (o.nodeName !== undefined && o.nodeName !== 'none'))) {
      modelError(ModelErrorCode.invalidValue, `${at}: a DaemonSet runs one pod on each node and its controller makes the pods tolerate unreachable and not-ready forever; give it no replicas, shorthand tolerations or nodeName (a Kubernetes toleration list is read)`);
    }
    const tol: unknown = list === undefined ? (o.tolerations ?? {}) : {};
    if (tol === null || typeof tol !== 'object' || Array.isArray(tol)) modelError(ModelErrorCode.invalidValue, `${at}.tolerations: expected { unreachable, notReady } or a list of Kubernetes tolerations, got ${quoted(tol)}`);
    const t = tol as Record<string, unknown>;
    for (const k of Object.keys(t)) if (k !== 'unreachable' && k !== 'notReady') modelError(ModelErrorCode.unknownParameter, `unknown parameter "${at}.tolerations.${k}" (config file); tolerations has unreachable, notReady`);
    const node = parseNode(`${at}.nodeName`, o.nodeName ?? 'none');
    const grace = o.terminationGracePeriodSeconds === undefined || o.terminationGracePeriodSeconds === null ? undefined : parseInteger(`${at}.terminationGracePeriodSeconds`, o.terminationGracePeriodSeconds);
    if (grace !== undefined && grace < 0) modelError(ModelErrorCode.invalidValue, `${at}.terminationGracePeriodSeconds: expected seconds ≥ 0, got ${grace}`);
    const policy = o.podManagementPolicy;
    if (policy !== undefined && policy !== null && (kind !== 'StatefulSet' || (policy !== 'OrderedReady' && policy !== 'Parallel'))) {
      modelError(ModelErrorCode.invalidValue, `${at}.podManagementPolicy: ${kind !== 'StatefulSet' ? 'only a StatefulSet has one' : `expected OrderedReady or Parallel, got ${quoted(policy)}`}`);
    }
    const priority = parsePriority(at, o.priorityClassName, o.priority);
    return {
      kind,
      name: o.name.trim(),
      replicas: daemon ? 0 : o.replicas === undefined ? 1 : parseInteger(`${at}.replicas`, o.replicas),
      tolerations: { unreachable: parseToleration(`${at}.tolerations.unreachable`, t.unreachable), notReady: parseToleration(`${at}.tolerations.notReady`, t.notReady) },
      nodeName: node,
      ...(list === undefined ? {} : { templateTolerations: list }),
      ...(grace === undefined ? {} : { terminationGracePeriodSeconds: grace }),
      ...(policy === 'Parallel' || policy === 'OrderedReady' ? { podManagementPolicy: policy } : {}),
      ...parsePlacement(at, o),
      ...(priority === undefined ? {} : { priority }),
      ...parseClaims(at, kind, o),
    };
  });
}

/**
 * A StatefulSet's `volumeClaimTemplates` (names, or `{ name, topology }` with topology node, zone
 * or none; zone by default, as the cloud providers' default StorageClasses are zonal disks) and
 * `persistentVolumeClaimRetentionPolicy`.
 */
function parseClaims(at: string, kind: WorkloadKind, o: Record<string, unknown>): Pick<WorkloadConfig, 'volumeClaimTemplates' | 'persistentVolumeClaimRetentionPolicy'> {
  const raw = o.volumeClaimTemplates;
  const policy = o.persistentVolumeClaimRetentionPolicy;
  if ((raw === undefined || raw === null) && (policy === undefined || policy === null)) return {};
  if (kind !== 'StatefulSet') modelError(ModelErrorCode.invalidValue, `${at}: only a StatefulSet has volumeClaimTemplates and a persistentVolumeClaimRetentionPolicy`);
  const out: { volumeClaimTemplates?: VolumeClaimTemplate[]; persistentVolumeClaimRetentionPolicy?: { whenDeleted: ClaimRetention; whenScaled: ClaimRetention } } = {};
  if (raw !== undefined && raw !== null) {
    if (!Array.isArray(raw)) modelError(ModelErrorCode.invalidValue, `${at}.volumeClaimTemplates: expected a list of templates ([{ name: data, topology: node }]), got ${quoted(raw)}`);
    const seen = new Set<string>();
    out.volumeClaimTemplates = raw.map((t: unknown, j): VolumeClaimTemplate => {
      const here = `${at}.volumeClaimTemplates[${j}]`;
      const obj = typeof t === 'string' ? { name: t } : t;
      if (obj === null || typeof obj !== 'object' || Array.isArray(obj)) modelError(ModelErrorCode.invalidValue, `${here}: expected { name, topology } or a name, got ${quoted(t)}`);
      const r = obj as Record<string, unknown>;
      for (const k of Object.keys(r)) if (k !== 'name' && k !== 'topology') modelError(ModelErrorCode.unknownParameter, `unknown parameter "${here}.${k}" (config file); a claim template has name, topology`);
      if (typeof r.name !== 'string' || !/^[a-z0-9]([-a-z0-9.]*[a-z0-9])?$/.test(r.name)) modelError(ModelErrorCode.invalidValue, `${here}.name: expected a DNS name, got ${quoted(r.name)}`);
      if (seen.has(r.name)) modelError(ModelErrorCode.invalidValue, `${here}.name: ${r.name} is given twice`);
      seen.add(r.name);
      const topology = r.topology ?? 'zone';
      if (!VOLUME_TOPOLOGIES.includes(topology as VolumeTopology)) modelError(ModelErrorCode.invalidValue, `${here}.topology: expected ${VOLUME_TOPOLOGIES.join(', ')}, got ${quoted(topology)}`);
      return { name: r.name, topology: topology as VolumeTopology };
    });
  }
  if (policy !== undefined && policy !== null) {
    const here = `${at}.persistentVolumeClaimRetentionPolicy`;
    if (typeof policy !== 'object' || Array.isArray(policy)) modelError(ModelErrorCode.invalidValue, `${here}: expected { whenDeleted, whenScaled }, got ${quoted(policy)}`);
    const r = policy as Record<string, unknown>;
    for (const k of Object.keys(r)) if (k !== 'whenDeleted' && k !== 'whenScaled') modelError(ModelErrorCode.unknownParameter, `unknown parameter "${here}.${k}" (config file); it has whenDeleted, whenScaled`);
    const one = (k: 'whenDeleted' | 'whenScaled'): ClaimRetention => {
      const v = r[k] ?? 'Retain';
      if (v !== 'Retain' && v !== 'Delete') modelError(ModelErrorCode.invalidValue, `${here}.${k}: expected Retain or Delete, got ${quoted(v)}`);
      return v;
    };
    out.persistentVolumeClaimRetentionPolicy = { whenDeleted: one('whenDeleted'), whenScaled: one('whenScaled') };
  }
  return out;
}

/**
 * A workload's pod priority from `priorityClassName` (a built-in class) or `priority` (a number,
 * as admission writes it into the pod; for a PriorityClass of one's own give its value).
 */
function parsePriority(at: string, className: unknown, value: unknown): number | undefined {
  const given = value === undefined || value === null ? undefined : parseInteger(`${at}.priority`, value);
  if (className === undefined || className === null) return given;
  if (typeof className !== 'string' || SYSTEM_PRIORITY_CLASSES[className] === undefined) {
    modelError(ModelErrorCode.invalidValue, `${at}.priorityClassName: expected ${Object.keys(SYSTEM_PRIORITY_CLASSES).join(' or ')} (for a PriorityClass of your own give its value as ${at}.priority), got ${quoted(className)}`);
  }
  const fromClass = SYSTEM_PRIORITY_CLASSES[className];
  if (given !== undefined && given !== fromClass) modelError(ModelErrorCode.invalidValue, `${at}.priority: ${given} differs from ${className}'s value ${fromClass} (admission refuses such a pod)`);
  return fromClass;
}

/** The scalar keys of the default workloads, which a given `cluster.workloads` replaces. */
const SCALAR_WORKLOAD_KEY = /^cluster\.(replicaSet|statefulSet)[A-Z]/;

/** Sets `value` at a dotted key of `target`, making the sections on the way. */
function setPath(target: object, key: string, value: unknown): void {
  const parts = key.split('.');
  let cur = target as Record<string, unknown>;
  for (let i = 0; i < parts.length - 1; i++) {
    cur[parts[i]] ??= {};
    cur = cur[parts[i]] as Record<string, unknown>;
  }
  cur[parts[parts.length - 1]] = value;
}

/**
 * The config the values make, each at its dotted key, in the declarations' order. The one place
 * the declarations become the hand-written type: the compile-time schema test
 * (test/model/parameterSchema.test.ts) proves that the declared keys are exactly ClusterConfig's
 * fields, each of its declared kind, and `parseValue` gives each kind its value.
 */
function nest(scenario: string, allowUnsafe: boolean, values: ReadonlyMap<string, unknown>): ClusterConfig {
  const out = { scenario, allowUnsafe };
  for (const [key, value] of values) setPath(out, key, value);
  // What setPath added: every other field of ClusterConfig, of its type (see above).
  return out as ClusterConfig;
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
  // Sizes above the caps are refused before any of them is read (the library's way in as the command line's).
  refuseOversizedInput(input);
  if (input.base !== undefined) refuseOversizedInput({ set: input.base });
  // The value as given of each key set anywhere, the later source winning: the scenario, the file, --set.
  const given = new Map<string, unknown>(Object.entries(overrides));
  for (const [k, v] of Object.entries(input.base ?? {})) {
    if (parameterSpec(k) === undefined) unknownKey(k, input.baseOrigin ?? 'settings');
    given.set(k, v);
  }
  // What the user gives (the file, then --set over it): a workload list must not lose any of it.
  const user = new Map<string, unknown>();
  let allowUnsafe = input.allowUnsafe === true;
  if (input.file !== undefined) {
    for (const [k, v] of flatten(input.file)) {
      if (k === 'scenario') continue; // the scenario argument decides
      if (k === 'allowUnsafe') {
        allowUnsafe ||= v === true || v === 'true';
        continue;
      }
      user.set(k, v);
    }
  }
  for (const [k, v] of Object.entries(input.set ?? {})) {
    if (parameterSpec(k) === undefined) unknownKey(k, '--set');
    user.set(k, v);
  }
  for (const [k, v] of user) given.set(k, v);
  // Each value parsed once, from what was given, else the declared (typed) default.
  const values = new Map<string, unknown>();
  for (const spec of parameterSpecs()) values.set(spec.key, given.has(spec.key) ? parseValue(spec, given.get(spec.key)) : spec.default);
  const listed = values.get('cluster.workloads') as readonly WorkloadConfig[] | null;
  if (listed !== null) {
    // A list replaces web and db: their own keys, set to anything but what the scenario gives, would be lost.
    for (const spec of parameterSpecs()) {
      if (!SCALAR_WORKLOAD_KEY.test(spec.key) || !user.has(spec.key)) continue;
      const base = Object.hasOwn(overrides, spec.key) ? parseValue(spec, overrides[spec.key]) : spec.default;
      if (JSON.stringify(parseValue(spec, user.get(spec.key))) !== JSON.stringify(base)) {
        modelError(ModelErrorCode.invalidShape, `${spec.key} sets the default workload ${spec.key.includes('replicaSet') ? 'web' : 'db'}, which cluster.workloads replaces; give the value in the list`);
      }
    }
  }
  let config = nest(scenario, allowUnsafe, values.set('cluster.workloads', listed ?? []));
  // Derived defaults: the workloads the scalar keys describe, the grace period of the version.
  if (listed === null) config = { ...config, cluster: { ...config.cluster, workloads: defaultWorkloads(config.cluster) } };
  if (!given.has(GRACE)) {
    config = { ...config, kubeControllerManager: { ...config.kubeControllerManager, nodeMonitorGracePeriod: defaultGracePeriod(config.kubernetesVersion) } };
  }
  refuseOversizedConfig(config);
  validateConfig(config);
  return config;
}

/**
 * Whether two values given for the parameter `key` (as `--set` or a file gives them: `40s` and
 * `"40s"`, `3` and `"3"`) mean the same; false for a key that is not a parameter.
 */
export function sameParameterValue(key: string, a: unknown, b: unknown): boolean {
  const spec = parameterSpec(key);
  return spec !== undefined && JSON.stringify(parseValue(spec, a)) === JSON.stringify(parseValue(spec, b));
}

/** A JSON-serialisable form of `config` that {@link resolveConfig} reads back to an equal config. */
export function configToObject(config: ClusterConfig): unknown {
  const out: Record<string, unknown> = { scenario: config.scenario };
  if (config.allowUnsafe) out.allowUnsafe = true;
  for (const spec of parameterSpecs()) {
    const v = parameterValue(config, spec.key);
    const byDefault = spec.type === 'workloads' && JSON.stringify(v) === JSON.stringify(defaultWorkloads(config.cluster));
    setPath(out, spec.key, writtenValue(spec, byDefault ? null : v));
  }
  return out;
}
