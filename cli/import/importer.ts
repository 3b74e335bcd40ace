/**
 * Kubernetes' own files as a kubecheck config: component configurations
 * (`KubeletConfiguration`, `KubeSchedulerConfiguration`, `KubeControllerManagerConfiguration`),
 * flags of kube-controller-manager, kube-scheduler, kube-apiserver and the kubelet, and objects
 * (Nodes, Deployments, ReplicaSets, StatefulSets, DaemonSets, `kubectl get -o yaml` Lists), and the
 * files clusters are made from: kubeadm's Init/Cluster/JoinConfiguration (v1beta3, v1beta4) and
 * its kube-system ConfigMaps, kind's `Cluster`, a k3s `config.yaml`, EKS nodeadm's `NodeConfig`.
 * Objects of kinds the model does not know (custom resources) are listed as not modelled.
 *
 * Pure: it takes parsed documents and returns the config object `resolveConfig(scenario, { file })`
 * reads, where each key came from, and every field that was read but does not change the model,
 * once. The model needs no change: every mapped field is one of its parameters (`kubecheck list
 * parameters`). A malformed field, a typo of one of Kubernetes' own kinds, or a file named on its
 * own holding nothing kubecheck reads is a KC202 error naming the file and field.
 */
import { KubecheckError } from '../../checker/index.js';
import { formatDuration, parseDuration } from '../../model/index.js';
import { MAX_COUNT, parameterSpecs, type ParameterSpec } from '../../model/parameters.js';
import { MAX_OBJECTS } from '../../model/resolve.js';
import { HOSTNAME_LABEL, SYSTEM_PRIORITY_CLASSES, ZONE_LABEL, type VolumeTopology, type WorkloadConfig } from '../../model/config.js';
import { labelKeysRead, parseLabels, parseNodeSelectorTerms, parsePodAffinityTerm, parseSpreadConstraint, selectorMatches, type Bad } from '../../model/placement.js';
import { parseToleration, writtenToleration, type PodToleration } from '../../model/tolerations.js';
import { fail, ToolErrorCode } from '../../reports/errors.js';
import { refuseForbiddenKey } from '../input.js';
import { type Component, type Flag, type FlagLine, parseFlags } from './flags.js';
import { yamlDocuments } from './read.js';

/** One input file, parsed. */
export type ImportSource =
  /** kubecheck's own config (sections of parameters). */
  | { readonly file: string; readonly type: 'kubecheck'; readonly value: Readonly<Record<string, unknown>> }
  /**
   * Kubernetes objects: the documents of a (multi-document) YAML or JSON file. `inFolder`: the
   * file was found in a folder given, where objects of kinds kubecheck does not know are listed
   * as not modelled; a file named on its own that holds nothing else is refused (KC202).
   */
  | { readonly file: string; readonly type: 'objects'; readonly documents: readonly unknown[]; readonly inFolder?: boolean }
  /** A k3s `config.yaml`: flags as keys without dashes (`kube-controller-manager-arg: [node-monitor-grace-period=20s]`). */
  | { readonly file: string; readonly type: 'k3s'; readonly value: Readonly<Record<string, unknown>> }
  /** Command-line flags of one component (a flags file, a systemd unit's ExecStart, an environment file); `notes`: what was not read, for people. */
  | { readonly file: string; readonly type: 'flags'; readonly line: FlagLine; readonly notes?: readonly string[] };

/** What the files say, as kubecheck parameters. */
export interface Imported {
  /** The config as sections (`{ kubeControllerManager: { nodeMonitorGracePeriod: '20s' } }`), as `resolveConfig` reads it. */
  readonly config: Record<string, unknown>;
  /** Where each dotted parameter came from, e.g. `kcm.flags: --node-monitor-grace-period`. */
  readonly origins: Readonly<Record<string, string>>;
  /** Fields read that do not change the model, each once, naming the file. */
  readonly notModelled: readonly string[];
  /** How names were mapped (nodes to node-k, zones, workloads to the model's names), for people. */
  readonly notes: readonly string[];
  /**
   * The parameters the cluster's files did not give, which keep the scenario's defaults
   * (`cluster.nodes`, `cluster.zones`, `cluster.workloads`), each with its note (also in `notes`).
   * Empty when the files are kubecheck's own configs alone.
   */
  readonly defaulted: Readonly<Record<string, string>>;
  /** A scenario a kubecheck config among the files names. */
  readonly scenario?: string;
  /** The line each parameter was read from, where the reader knew it (flags files, systemd units, environment files). */
  readonly lines?: Readonly<Record<string, number>>;
  /**
   * What the files say of scheduling that the model leaves out (each also in `notModelled`): the
   * verdicts that depend on where pods are placed carry a warning naming them.
   */
  readonly schedulingCaveats?: readonly string[];
}

type Obj = Readonly<Record<string, unknown>>;

const isObj = (v: unknown): v is Obj => v !== null && typeof v === 'object' && !Array.isArray(v);

function bad(file: string, field: string, why: string): never {
  return fail(ToolErrorCode.malformedConfig, `${file}: ${field}: ${why}`);
}

const show = (v: unknown): string => {
  // JSON would print these as null: a number beyond a double's range (1e999) reads as Infinity.
  if (typeof v === 'number' && !Number.isFinite(v)) return Number.isNaN(v) ? 'NaN' : `${v} (a number beyond what a double holds, such as 1e999)`;
  const t = JSON.stringify(v) ?? String(v);
  return t.length > 40 ? `${t.slice(0, 37)}...` : t;
};

/** Most entries of the not-modelled list; past it the list says how many more there were. */
export const MAX_NOT_MODELLED = 1000;

/** Collects parameters, origins and notes while the files are read. */
class Collector {
  readonly values = new Map<string, { value: unknown; origin: string }>();
  readonly notModelled: string[] = [];
  /** Every not-modelled entry met, listed or not (the list stops at {@link MAX_NOT_MODELLED}). */
  readonly notModelledSeen = new Set<string>();
  readonly notes: string[] = [];
  /** What the files say of scheduling that the model leaves out: every verdict that depends on where pods go says so. */
  readonly schedulingCaveats: string[] = [];
  /** The line of its file each parameter was read from, where the reader knows it (flags). */
  readonly lines = new Map<string, number>();
  /** Origins of the fields of `cluster.workloads` items (`cluster.workloads.0.replicas`). */
  readonly fieldOrigins = new Map<string, string>();
  /** PriorityClass objects read: name → value and where. */
  readonly priorityClasses = new Map<string, { value: number; origin: string }>();
  /** StorageClass objects read: name → where their volumes live, whether the class is the default, and why. */
  readonly storageClasses = new Map<string, { topology: VolumeTopology; isDefault: boolean; origin: string }>();
  scenario: string | undefined;
  /** The nodes of kind `Cluster` configs, used where no Node objects are given. */
  readonly kindNodes: NodeInput[] = [];
  /** What the kind cluster's nodes are, for the origin of cluster.nodes. */
  kindWhat = '';
  /**
   * The node groups of cluster definitions (kops InstanceGroups, Cluster API MachineDeployments,
   * k3d servers and agents, eksctl node groups), used where no Node objects are given; a group's
   * zones are resolved once every file is read (a kops InstanceGroup names its Cluster's subnets).
   */
  readonly groups: NodeGroupInput[] = [];
  /** kops subnets by name: the zone each is in (a kops Cluster's spec.subnets). */
  readonly subnetZones = new Map<string, string>();
  /** Objects in the file being read (a List's items one by one), and those of kinds kubecheck does not know. */
  objects = 0;
  unknown = 0;
  /** The first object of a kind kubecheck does not know in the file being read: its field and message. */
  firstUnknown: { field: string; why: string } | undefined;
  /** Named objects of kinds the model's components do not read (custom resources), kept as `cluster.objects`, with where each came from. */
  readonly customObjects: { readonly object: Obj; readonly origin: string }[] = [];

  set(key: string, value: unknown, origin: string): void {
    const prior = this.values.get(key);
    if (prior !== undefined && JSON.stringify(prior.value) !== JSON.stringify(value)) {
      this.notes.push(`${key}: ${origin} (${show(value)}) overrides ${prior.origin} (${show(prior.value)})`);
    }
    this.values.delete(key);
    this.lines.delete(key);
    this.values.set(key, { value, origin });
  }

  skip(what: string): void {
    // A name from the user's file, shown in a list: a megabyte-long key is cut, not echoed whole.
    const shown = what.length > 200 ? `${what.slice(0, 120)}... (${what.length.toLocaleString('en-US')} characters)` : what;
    if (this.notModelledSeen.has(shown)) return;
    this.notModelledSeen.add(shown);
    if (this.notModelled.length < MAX_NOT_MODELLED) this.notModelled.push(shown);
  }
}

// ---- values ---------------------------------------------------------------------------------

function duration(file: string, field: string, raw: unknown): string {
  try {
    return formatDuration(parseDuration(field, raw));
  } catch (e) {
    if (e instanceof KubecheckError) bad(file, field, e.message.replace(/^KC\d+: /, '').replace(`${field}: `, ''));
    throw e;
  }
}

function integer(file: string, field: string, raw: unknown, least = 0): number {
  const n = typeof raw === 'number' ? raw : typeof raw === 'string' && /^-?\d+$/.test(raw.trim()) ? Number(raw) : NaN;
  if (!Number.isSafeInteger(n)) bad(file, field, `expected a whole number, got ${show(raw)}`);
  if (n < least) bad(file, field, `expected at least ${least}, got ${n}`);
  return n;
}

function decimal(file: string, field: string, raw: unknown): number {
  const n = typeof raw === 'number' ? raw : typeof raw === 'string' && /^[-+]?(\d+(\.\d*)?|\.\d+)(e[-+]?\d+)?$/i.test(raw.trim()) ? Number(raw) : NaN;
  if (!Number.isFinite(n)) bad(file, field, `expected a number, got ${show(raw)}`);
  return n;
}

function boolean(file: string, field: string, raw: unknown): boolean {
  if (raw === true || raw === 'true' || raw === undefined) return true;
  if (raw === false || raw === 'false') return false;
  return bad(file, field, `expected true or false, got ${show(raw)}`);
}

// ---- component configurations -----------------------------------------------------------------

/**
 * The LeaderElectionConfiguration fields (component-base) that are parameters of `prefix`'s
 * component, by field name: the declared `<prefix>.leaderElection.<field>` keys.
 */
function leaderElectionKeys(prefix: 'kubeControllerManager' | 'kubeScheduler'): ReadonlyMap<string, string> {
  const section = `${prefix}.leaderElection.`;
  return new Map(parameterSpecs().flatMap((s) => (s.key.startsWith(section) ? [[s.key.slice(section.length).toLowerCase(), s.key] as const] : [])));
}

/** A LeaderElectionConfiguration (component-base) of kube-controller-manager or kube-scheduler. */
function leaderElection(c: Collector, file: string, where: string, le: unknown, component: 'kube-controller-manager' | 'kube-scheduler'): void {
  if (le === undefined) return;
  if (!isObj(le)) bad(file, where, `expected a mapping, got ${show(le)}`);
  const keys = leaderElectionKeys(component === 'kube-controller-manager' ? 'kubeControllerManager' : 'kubeScheduler');
  for (const [k, v] of Object.entries(le as Obj)) {
    const field = `${where}.${k}`;
    // Go decodes the fields case-insensitively.
    const key = keys.get(k.toLowerCase());
    if (key !== undefined) c.set(key, duration(file, field, v), `${file}: ${field}`);
    else if (k.toLowerCase() === 'leaderelect') leaderElect(c, file, field, boolean(file, field, v), component);
    else c.skip(`${file}: ${field}`);
  }
}

function leaderElect(c: Collector, file: string, field: string, on: boolean, component: 'kube-controller-manager' | 'kube-scheduler'): void {
  if (on) return;
  const key = component === 'kube-controller-manager' ? 'cluster.controllerManagerCandidates' : 'cluster.schedulerCandidates';
  c.set(key, 1, `${file}: ${field}`);
  c.notes.push(`${file}: ${field} is false: modelled as a single ${component} (one candidate, which holds its Lease while it runs)`);
}

/** KubeletConfiguration fields (its own document, or nodeadm's `spec.kubelet.config`, named by `label`). */
function kubeletConfiguration(c: Collector, file: string, o: Obj, label = 'KubeletConfiguration', where = ''): void {
  for (const [k, v] of Object.entries(o)) {
    if (k === 'apiVersion' || k === 'kind') continue;
    const spec = KUBELET_FIELDS.get(k);
    // A count below its declared bound is refused here, as ValidateKubeletConfiguration does.
    if (spec !== undefined) c.set(spec.key, spec.type === 'integer' ? integer(file, `${where}${k}`, v, spec.least) : typed(file, `${where}${k}`, v, spec.type), `${file}: ${label}.${k}`);
    else c.skip(`${file}: ${label}.${k}`);
  }
}

function schedulerConfiguration(c: Collector, file: string, o: Obj): void {
  for (const [k, v] of Object.entries(o)) {
    if (k === 'apiVersion' || k === 'kind') continue;
    if (k === 'leaderElection') leaderElection(c, file, 'leaderElection', v, 'kube-scheduler');
    else c.skip(`${file}: KubeSchedulerConfiguration.${k}`);
  }
}

/** A parameter the importer can read, with the value type it parses and the least whole number its bounds allow. */
interface Readable {
  readonly key: string;
  readonly type: 'duration' | 'number' | 'integer';
  readonly least: number;
}

/** The least whole number `s`'s declared bounds accept (0 where it declares none). */
const leastOf = (s: ParameterSpec): number => (s.bounds?.above !== undefined ? Math.floor(s.bounds.above) + 1 : Math.max(0, Math.ceil(s.bounds?.min ?? 0)));

const readableType = (t: string): Readable['type'] | undefined => (t === 'duration' || t === 'number' || t === 'integer' ? t : undefined);

/**
 * The parameters with a configuration-file field or a flag, from their one declaration
 * (`model/parameters.ts`): a new parameter that names its flag or field is read with nothing
 * added here.
 */
function readable(where: (s: ParameterSpec) => string | undefined): { readonly field: string; readonly component: string; readonly spec: Readable }[] {
  return parameterSpecs().flatMap((s) => {
    const field = where(s);
    const type = readableType(s.type);
    return field === undefined || type === undefined ? [] : [{ field, component: s.component, spec: { key: s.key, type, least: leastOf(s) } }];
  });
}

/** KubeletConfiguration fields and the parameter each one sets. */
const KUBELET_FIELDS: ReadonlyMap<string, Readable> = new Map(readable((s) => (s.component === 'kubelet' ? s.configField : undefined)).map((r) => [r.field, r.spec]));

/** KubeControllerManagerConfiguration `Section.Field` (lower case, as Go decodes them) and the parameter each one sets. */
const KCM_FIELDS: ReadonlyMap<string, Readable> = new Map(readable((s) => (s.component === 'kube-controller-manager' ? s.configField : undefined)).map((r) => [r.field.toLowerCase(), r.spec]));

function typed(file: string, field: string, raw: unknown, type: 'duration' | 'number' | 'integer'): unknown {
  return type === 'duration' ? duration(file, field, raw) : type === 'number' ? decimal(file, field, raw) : integer(file, field, raw);
}

function controllerManagerConfiguration(c: Collector, file: string, o: Obj): void {
  for (const [k, v] of Object.entries(o)) {
    if (k === 'apiVersion' || k === 'kind') continue;
    const section = k.toLowerCase();
    if (section !== 'generic' && ![...KCM_FIELDS.keys()].some((f) => f.startsWith(`${section}.`))) {
      c.skip(`${file}: KubeControllerManagerConfiguration.${k}`);
      continue;
    }
    if (!isObj(v)) bad(file, k, `expected a mapping, got ${show(v)}`);
    for (const [f, fv] of Object.entries(v as Obj)) {
      const field = `${k}.${f}`;
      const row = KCM_FIELDS.get(field.toLowerCase());
      if (section === 'generic' && f.toLowerCase() === 'leaderelection') leaderElection(c, file, field, fv, 'kube-controller-manager');
      else if (row) c.set(row.key, typed(file, field, fv, row.type), `${file}: ${field}`);
      else c.skip(`${file}: KubeControllerManagerConfiguration.${field}`);
    }
  }
}

// ---- flags ----------------------------------------------------------------------------------

/** Flags that change the model, by component (without their leading dashes), with the parameter each sets. */
const FLAG_PARAMETERS: Readonly<Record<Component, ReadonlyMap<string, Readable>>> = (() => {
  const out: Record<Component, Map<string, Readable>> = { 'kube-controller-manager': new Map(), 'kube-scheduler': new Map(), 'kube-apiserver': new Map(), kubelet: new Map() };
  for (const r of readable((s) => s.flag)) {
    const table = out[r.component as Component] as Map<string, Readable> | undefined;
    if (table === undefined) throw new Error(`parameter ${r.spec.key} names flag ${r.field} of ${r.component}, which import does not read`);
    table.set(r.field.replace(/^--/, ''), r.spec);
  }
  return out;
})();

/** Flags of one component only that are no parameter, which also tell whose flags a file holds. */
const OTHER_OWN_FLAGS: Readonly<Record<Component, readonly string[]>> = {
  'kube-controller-manager': ['pod-eviction-timeout', 'controllers', 'cluster-signing-cert-file', 'allocate-node-cidrs', 'cluster-cidr', 'use-service-account-credentials', 'terminated-pod-gc-threshold'],
  'kube-scheduler': ['authentication-kubeconfig', 'scheduler-name', 'policy-config-file'],
  'kube-apiserver': ['etcd-servers', 'service-cluster-ip-range', 'enable-admission-plugins', 'disable-admission-plugins', 'advertise-address', 'secure-port', 'service-account-issuer', 'tls-cert-file', 'client-ca-file'],
  kubelet: ['node-status-update-frequency', 'container-runtime-endpoint', 'register-node', 'node-labels', 'pod-manifest-path', 'hostname-override'],
};

/**
 * Flags of one component only, which tell whose flags a file holds when nothing else does: the
 * flags parameters declare for that component and no other (not --leader-elect-*, which
 * kube-controller-manager and kube-scheduler share), and the others above.
 */
const OWN_FLAGS: Readonly<Record<Component, readonly string[]>> = {
  'kube-controller-manager': ownFlags('kube-controller-manager'),
  'kube-scheduler': ownFlags('kube-scheduler'),
  'kube-apiserver': ownFlags('kube-apiserver'),
  kubelet: ownFlags('kubelet'),
};

/** `comp`'s declared flags that no other component declares, then its {@link OTHER_OWN_FLAGS}. */
function ownFlags(comp: Component): string[] {
  const others = (Object.keys(FLAG_PARAMETERS) as Component[]).filter((c) => c !== comp);
  return [...[...FLAG_PARAMETERS[comp].keys()].filter((f) => others.every((c) => !FLAG_PARAMETERS[c].has(f))), ...OTHER_OWN_FLAGS[comp]];
}

/** The component a flags file belongs to: its program, else its file name, else its own flags. */
function componentOf(file: string, line: FlagLine): Component | undefined {
  if (line.component) return line.component;
  const base = (file.split(/[\\/]/).pop() ?? file).toLowerCase();
  if (/controller-manager|kcm/.test(base)) return 'kube-controller-manager';
  if (/scheduler/.test(base)) return 'kube-scheduler';
  if (/apiserver/.test(base)) return 'kube-apiserver';
  if (/kubelet/.test(base)) return 'kubelet';
  const owners = new Set<Component>();
  for (const f of line.flags) for (const [comp, own] of Object.entries(OWN_FLAGS) as [Component, readonly string[]][]) if (own.includes(f.name)) owners.add(comp);
  return owners.size === 1 ? [...owners][0] : undefined;
}

function flags(c: Collector, file: string, line: FlagLine): void {
  const component = componentOf(file, line);
  const owners = (f: Flag): Component[] =>
    component !== undefined ? [component] : (Object.keys(OWN_FLAGS) as Component[]).filter((k) => OWN_FLAGS[k].includes(f.name));
  for (const f of line.flags) {
    const field = `--${f.name}`;
    refuseForbiddenKey(f.name, field, file);
    const whose = owners(f);
    if (whose.length !== 1 && (f.name.startsWith('leader-elect'))) {
      bad(file, field, 'kube-controller-manager and kube-scheduler both have this flag; name the file after its component (kube-scheduler.flags) or start it with the program (kube-scheduler --leader-elect-...)');
    }
    const comp = whose.length === 1 ? whose[0] : undefined;
    const mapped = comp === undefined ? undefined : FLAG_PARAMETERS[comp].get(f.name);
    if (mapped !== undefined) {
      if (f.value === undefined) bad(file, field, 'expected a value (--flag=value)');
      c.set(mapped.key, typed(file, field, f.value, mapped.type), `${file}: ${field}`);
      if (f.line !== undefined) c.lines.set(mapped.key, f.line);
    } else if (f.name === 'leader-elect' && (comp === 'kube-controller-manager' || comp === 'kube-scheduler')) {
      leaderElect(c, file, field, boolean(file, field, f.value), comp);
    } else if (comp === 'kube-apiserver' && f.name === 'disable-admission-plugins' && (f.value ?? '').split(',').map((p) => p.trim()).includes('DefaultTolerationSeconds')) {
      c.set('kubeApiserver.defaultTolerationSecondsAdmission', false, `${file}: ${field}`);
      c.notes.push(`${file}: ${field} turns off DefaultTolerationSeconds: pods without their own not-ready/unreachable tolerations are evicted as soon as their node is tainted`);
    } else {
      c.skip(`${file}: ${field}${comp === undefined ? '' : ` (${comp})`}`);
    }
  }
}

// ---- kubeadm, kind, k3s and nodeadm -----------------------------------------------------------

const KUBEADM_GROUP = 'kubeadm.k8s.io';
/** kubeadm's kinds; the first three hold the components' flags, the others are listed as not modelled. */
const KUBEADM_KINDS = ['InitConfiguration', 'ClusterConfiguration', 'JoinConfiguration', 'UpgradeConfiguration', 'ResetConfiguration'];
/** ClusterConfiguration's control-plane components, each with `extraArgs`. */
const KUBEADM_COMPONENTS: Readonly<Record<string, Component>> = { controllerManager: 'kube-controller-manager', apiServer: 'kube-apiserver', scheduler: 'kube-scheduler' };
/** What ClusterConfiguration.kubernetesVersion says when it names a release (not a label such as stable-1.31). */
const KUBERNETES_RELEASE = /^v?\d+\.\d+(\.\d+)?$/;

/**
 * kubeadm's `extraArgs` and `kubeletExtraArgs` as flags: in v1beta3 (and older) a map of flag
 * name (without dashes) to value, in v1beta4 a list of `{name, value}` in order (a later one wins,
 * as the component's own flag parsing takes it). Both are read whatever the version.
 */
function extraArgs(file: string, field: string, raw: unknown): Flag[] {
  if (raw === undefined || raw === null) return [];
  const value = (v: unknown): string => (v === undefined || v === null ? '' : typeof v === 'object' ? bad(file, field, `expected flag values as strings, got ${show(v)}`) : String(v));
  if (Array.isArray(raw)) {
    return raw.map((a, i) => {
      if (!isObj(a) || typeof a.name !== 'string' || a.name.trim() === '') bad(file, `${field}[${i}]`, `expected {name: flag-name, value: ...} (kubeadm.k8s.io/v1beta4), got ${show(a)}`);
      return { name: (a.name as string).trim().replace(/^--/, ''), value: value(a.value) };
    });
  }
  if (isObj(raw)) return Object.entries(raw).map(([name, v]) => ({ name: name.trim().replace(/^--/, ''), value: value(v) }));
  return bad(file, field, `expected a map of flag: value (v1beta3) or a list of {name, value} (v1beta4), got ${show(raw)}`);
}

/** kubeadm's InitConfiguration, ClusterConfiguration and JoinConfiguration: the components' flags they pass. */
function kubeadmConfiguration(c: Collector, file: string, kind: string, o: Obj): void {
  for (const [k, v] of Object.entries(o)) {
    if (k === 'apiVersion' || k === 'kind') continue;
    const field = `${kind}.${k}`;
    if (kind === 'ClusterConfiguration' && Object.hasOwn(KUBEADM_COMPONENTS, k) && v !== null) {
      if (!isObj(v)) bad(file, field, `expected a mapping, got ${show(v)}`);
      for (const [f, fv] of Object.entries(v as Obj)) {
        if (f === 'extraArgs') flags(c, `${file} (${field}.extraArgs)`, { component: KUBEADM_COMPONENTS[k], flags: extraArgs(file, `${field}.extraArgs`, fv) });
        else c.skip(`${file}: ${field}.${f}`);
      }
    } else if (kind === 'ClusterConfiguration' && k === 'kubernetesVersion' && typeof v === 'string' && KUBERNETES_RELEASE.test(v.trim())) {
      c.set('kubernetesVersion', v.trim(), `${file}: ${field}`);
    } else if ((kind === 'InitConfiguration' || kind === 'JoinConfiguration') && k === 'nodeRegistration' && v !== null) {
      if (!isObj(v)) bad(file, field, `expected a mapping, got ${show(v)}`);
      for (const [f, fv] of Object.entries(v as Obj)) {
        if (f === 'kubeletExtraArgs') flags(c, `${file} (${field}.kubeletExtraArgs)`, { component: 'kubelet', flags: extraArgs(file, `${field}.kubeletExtraArgs`, fv) });
        else c.skip(`${file}: ${field}.${f}`);
      }
    } else c.skip(`${file}: ${field}`);
  }
}

/**
 * kind's `kubeadmConfigPatches`: strings, each holding kubeadm documents (InitConfiguration,
 * ClusterConfiguration, JoinConfiguration, KubeletConfiguration ...) that kind merges into its
 * own, matched by kind (the apiVersion may be left out). Read as those documents.
 */
function kubeadmPatches(c: Collector, file: string, field: string, raw: unknown, nodes: NodeInput[], found: WorkloadInput[]): void {
  if (raw === undefined || raw === null) return;
  if (!Array.isArray(raw)) bad(file, field, 'expected a list of kubeadm documents, each a string (- |)');
  (raw as unknown[]).forEach((p, i) => {
    if (typeof p !== 'string') bad(file, `${field}[${i}]`, `expected a string holding a kubeadm document (- |), got ${show(p)}`);
    const label = `${file} (${field}[${i}])`;
    const docs = yamlDocuments(label, p as string);
    docs.forEach((d, j) => object(c, label, d, nodes, found, docs.length > 1 ? `document ${j + 1}: ` : '', true));
  });
}

const ZONE_LABELS = ['topology.kubernetes.io/zone', 'failure-domain.beta.kubernetes.io/zone'];

/**
 * kind's `Cluster` (kind.x-k8s.io/v1alpha4): its nodes, named as kind names their containers
 * (`kind-control-plane`, `kind-worker`, `kind-worker2` ...), and its kubeadm patches. The worker
 * nodes are the model's nodes; with no workers kind removes the control-plane taint and pods run
 * on the control-plane nodes, which are then the model's nodes.
 */
function kindCluster(c: Collector, file: string, o: Obj, nodes: NodeInput[], found: WorkloadInput[]): void {
  const name = typeof o.name === 'string' && o.name.trim() !== '' ? o.name.trim() : 'kind';
  const list = o.nodes === undefined || o.nodes === null ? [{ role: 'control-plane' }] : o.nodes;
  if (!Array.isArray(list)) bad(file, 'Cluster.nodes', `expected a list of nodes (- role: control-plane or worker), got ${show(list)}`);
  const byRole: Record<'control-plane' | 'worker', NodeInput[]> = { 'control-plane': [], worker: [] };
  (list as unknown[]).forEach((n, i) => {
    const at = `Cluster.nodes[${i}]`;
    if (!isObj(n)) bad(file, at, `expected a node (role: control-plane or worker), got ${show(n)}`);
    const role = n.role === undefined || n.role === null || n.role === '' ? 'control-plane' : n.role;
    if (role !== 'control-plane' && role !== 'worker') bad(file, `${at}.role`, `expected control-plane or worker, got ${show(n.role)}`);
    if (n.labels !== undefined && n.labels !== null && !isObj(n.labels)) bad(file, `${at}.labels`, `expected a map of label: value, got ${show(n.labels)}`);
    const labels = isObj(n.labels) ? n.labels : {};
    const zoneKey = ZONE_LABELS.find((l) => labels[l] !== undefined && labels[l] !== null);
    const same = byRole[role as 'control-plane' | 'worker'];
    same.push({ file, name: `${name}-${role as string}${same.length === 0 ? '' : same.length + 1}`, zone: zoneKey === undefined ? '' : String(labels[zoneKey]), pods: undefined });
    for (const [f, fv] of Object.entries(n)) {
      if (f === 'role') continue;
      if (f === 'kubeadmConfigPatches') kubeadmPatches(c, file, `${at}.kubeadmConfigPatches`, fv, nodes, found);
      else if (f === 'labels') {
        const others = Object.keys(labels).filter((l) => !ZONE_LABELS.includes(l));
        if (others.length > 0) c.skip(`${file}: ${at}.labels (${others.join(', ')})`);
      } else c.skip(`${file}: ${at}.${f}`);
    }
  });
  if (byRole['control-plane'].length === 0) bad(file, 'Cluster.nodes', 'a kind cluster needs at least one node with role: control-plane');
  for (const [k, v] of Object.entries(o)) {
    if (k === 'apiVersion' || k === 'kind' || k === 'name' || k === 'nodes') continue;
    if (k === 'kubeadmConfigPatches') kubeadmPatches(c, file, k, v, nodes, found);
    else c.skip(`${file}: Cluster.${k}`);
  }
  const workers = byRole.worker;
  const planes = byRole['control-plane'];
  if (c.kindNodes.length > 0) c.notes.push(`${file}: kind cluster "${name}" replaces the nodes of the kind cluster read before it`);
  c.kindNodes.length = 0;
  c.kindNodes.push(...(workers.length > 0 ? workers : planes));
  c.kindWhat = workers.length > 0 ? `${workers.length} worker node${workers.length === 1 ? '' : 's'} of kind cluster "${name}"` : `${planes.length} control-plane node${planes.length === 1 ? '' : 's'} of kind cluster "${name}" (no workers)`;
  const count = (n: number, what: string): string => `${n} ${what}${n === 1 ? '' : 's'}`;
  c.notes.push(workers.length > 0
    ? `${file}: kind cluster "${name}": ${count(workers.length, 'worker node')} (the model's nodes) and ${count(planes.length, 'control-plane node')}, which kind taints NoSchedule when there are workers, so no pod runs there`
    : `${file}: kind cluster "${name}" has no worker nodes: kind removes the control-plane taint and pods run on its ${count(planes.length, 'control-plane node')}, the model's nodes`);
}

/**
 * EKS nodeadm's `NodeConfig` (node.eks.aws/v1alpha1): `spec.kubelet.config` (KubeletConfiguration
 * fields, merged over nodeadm's own) and `spec.kubelet.flags` (`--flag=value` words).
 */
function nodeConfig(c: Collector, file: string, o: Obj): void {
  for (const k of Object.keys(o)) if (k !== 'apiVersion' && k !== 'kind' && k !== 'metadata' && k !== 'spec') c.skip(`${file}: NodeConfig.${k}`);
  if (o.spec === undefined || o.spec === null) return;
  if (!isObj(o.spec)) bad(file, 'NodeConfig.spec', `expected a mapping, got ${show(o.spec)}`);
  for (const [k, v] of Object.entries(o.spec as Obj)) {
    if (k !== 'kubelet' || v === null) {
      c.skip(`${file}: NodeConfig.spec.${k}`);
      continue;
    }
    if (!isObj(v)) bad(file, 'NodeConfig.spec.kubelet', `expected a mapping (config, flags), got ${show(v)}`);
    for (const [f, fv] of Object.entries(v as Obj)) {
      const field = `spec.kubelet.${f}`;
      if (f === 'config' && fv !== null) {
        if (!isObj(fv)) bad(file, field, `expected KubeletConfiguration fields, got ${show(fv)}`);
        kubeletConfiguration(c, file, fv as Obj, `NodeConfig.${field}`, `${field}.`);
      } else if (f === 'flags' && fv !== null) {
        if (!Array.isArray(fv) || fv.some((w) => typeof w !== 'string')) bad(file, field, `expected a list of "--flag=value" strings, got ${show(fv)}`);
        const line = parseFlags((fv as string[]).map((w) => w.trim()).filter((w) => w !== ''));
        if (line.stray !== undefined) bad(file, field, `"${line.stray}" is not a flag; write each as "--name=value"`);
        flags(c, `${file} (NodeConfig.${field})`, { component: 'kubelet', flags: line.flags });
      } else c.skip(`${file}: NodeConfig.${field}`);
    }
  }
}

/** k3s config.yaml keys that pass flags to a component; the others are listed as not modelled. */
const K3S_ARGS: Readonly<Record<string, Component | undefined>> = {
  'kube-controller-manager-arg': 'kube-controller-manager',
  'kube-apiserver-arg': 'kube-apiserver',
  'kube-scheduler-arg': 'kube-scheduler',
  'kubelet-arg': 'kubelet',
  'kube-proxy-arg': undefined,
  'kube-cloud-controller-manager-arg': undefined,
  'etcd-arg': undefined,
};

/**
 * A k3s `config.yaml`: its CLI flags as keys without dashes. `kube-controller-manager-arg` and
 * the like hold `name=value` strings (a list, or one string), which k3s passes as `--name=value`
 * (a leading `--` is dropped, as k3s does); a key ending in `+` appends, as in config.yaml.d/.
 */
function k3sConfig(c: Collector, file: string, value: Obj): void {
  for (const [key, v] of Object.entries(value)) {
    refuseForbiddenKey(key, key, file);
    const base = key.replace(/\+$/, '');
    const component = Object.hasOwn(K3S_ARGS, base) ? K3S_ARGS[base] : undefined;
    if (component === undefined || v === null) {
      c.skip(`${file}: ${key} (k3s)`);
      continue;
    }
    const list = typeof v === 'string' ? [v] : Array.isArray(v) ? v : bad(file, key, `expected a list of "name=value" strings, got ${show(v)}`);
    const parsed = list.map((a, i): Flag => {
      if (typeof a !== 'string') bad(file, `${key}[${i}]`, `expected a "name=value" string, got ${show(a)}`);
      const w = (a as string).trim().replace(/^--/, '');
      const eq = w.indexOf('=');
      if (w === '' || eq === 0) bad(file, `${key}[${i}]`, `expected "name=value", got ${show(a)}`);
      return eq > 0 ? { name: w.slice(0, eq), value: w.slice(eq + 1) } : { name: w, value: undefined };
    });
    flags(c, `${file} (${key})`, { component, flags: parsed });
  }
}

// ---- cluster definitions: kops, Cluster API, k3d, eksctl --------------------------------------

/** A group of machines a cluster definition declares: `count` nodes spread over `zones` in turn (or over the named kops `subnets`). */
interface NodeGroupInput {
  readonly file: string;
  /** The group as the file names it, e.g. `kops InstanceGroup nodes-us-east-1a`. */
  readonly label: string;
  /** Node names are `<name>-<k>`. */
  readonly name: string;
  readonly count: number;
  readonly zones: readonly string[];
  /** kops: subnet names, mapped to zones through the Cluster's spec.subnets. */
  readonly subnets?: readonly string[];
}

/** A list of strings (zones, subnets), or KC202. */
function strings(file: string, field: string, raw: unknown): string[] {
  if (raw === undefined || raw === null) return [];
  if (!Array.isArray(raw) || raw.some((z) => typeof z !== 'string' || z.trim() === '')) bad(file, field, `expected a list of names, got ${show(raw)}`);
  return (raw as string[]).map((z) => z.trim());
}

/** A mapping field of a cluster definition (absent or null: empty), or KC202. */
function mapping(file: string, field: string, raw: unknown): Obj {
  if (raw === undefined || raw === null) return {};
  if (!isObj(raw)) bad(file, field, `expected a mapping, got ${show(raw)}`);
  return raw as Obj;
}

/**
 * Adds a node group; more nodes than the model takes are refused here (KC213), before a node is
 * listed, as `check` refuses `cluster.nodes` above its bound.
 */
function nodeGroup(c: Collector, group: NodeGroupInput): void {
  const total = c.groups.reduce((n, g) => n + g.count, 0) + group.count;
  if (total > MAX_COUNT) {
    fail(ToolErrorCode.badParameterValue, `cluster.nodes (${total}, with ${group.count} from ${group.file}: ${group.label}) is above the limit of ${MAX_COUNT} that kubecheck builds a model for; an exhaustive check is out of reach long before (5 nodes with a few faults take minutes)`);
  }
  if (group.count > 0) c.groups.push(group);
  else c.notes.push(`${group.file}: ${group.label} has no nodes`);
}

/** The nodes of the groups read, each group's spread over its zones in turn, as a cloud's autoscaling group spreads them. */
function groupNodes(c: Collector): NodeInput[] {
  return c.groups.flatMap((g) => {
    let zones = g.zones;
    if (zones.length === 0 && g.subnets !== undefined) {
      zones = g.subnets.map((s) => c.subnetZones.get(s) ?? s);
      const unknown = g.subnets.filter((s) => !c.subnetZones.has(s));
      if (unknown.length > 0) c.notes.push(`${g.file}: ${g.label}: subnet${unknown.length === 1 ? '' : 's'} ${unknown.join(', ')} not among the kops Cluster's spec.subnets read: each taken as its own zone`);
    }
    return Array.from({ length: g.count }, (_, i) => ({ file: g.file, name: `${g.name}-${i + 1}`, zone: zones.length === 0 ? '' : zones[i % zones.length], pods: undefined }));
  });
}

/** A count field of a cluster definition: a whole number ≥ 0, or `fallback` when unset. */
function count(file: string, field: string, raw: unknown, fallback: number): number {
  return raw === undefined || raw === null ? fallback : integer(file, field, raw);
}

/** A Kubernetes release named by a cluster definition (`1.30.2`, `v1.29`), as kubernetesVersion. */
function release(c: Collector, file: string, field: string, raw: unknown): void {
  if (typeof raw === 'string' && KUBERNETES_RELEASE.test(raw.trim())) c.set('kubernetesVersion', raw.trim(), `${file}: ${field}`);
  else c.skip(`${file}: ${field}`);
}

const KOPS_GROUP = 'kops.k8s.io';

/** kops' component sections and the component whose flags their fields are (each field's `flag:` tag is the kebab-case of its name). */
const KOPS_COMPONENTS: Readonly<Record<string, Component>> = { kubeControllerManager: 'kube-controller-manager', kubeAPIServer: 'kube-apiserver', kubeScheduler: 'kube-scheduler' };

/** kops' LeaderElectionConfiguration fields and their flags (pkg/apis/kops/componentconfig.go). */
const KOPS_LEADER_ELECTION: Readonly<Record<string, string>> = {
  leaderElect: 'leader-elect',
  leaderElectLeaseDuration: 'leader-elect-lease-duration',
  leaderElectRenewDeadlineDuration: 'leader-elect-renew-deadline',
  leaderElectRetryPeriod: 'leader-elect-retry-period',
};

const kebab = (name: string): string => name.replace(/[A-Z]+/g, (m, at: number) => `${at === 0 ? '' : '-'}${m.toLowerCase()}`);

/**
 * A kops component section (`spec.kubeControllerManager`, `spec.kubeAPIServer`,
 * `spec.kubeScheduler`): kops passes each field as the flag its `flag:` tag names, the field's
 * name in kebab case (`nodeMonitorGracePeriod` → `--node-monitor-grace-period`); the fields that
 * are no parameter are listed as not modelled under their kops names.
 */
function kopsComponent(c: Collector, file: string, field: string, raw: unknown, component: Component): void {
  const section = mapping(file, field, raw);
  const read: Flag[] = [];
  const take = (name: string, value: unknown, at: string): void => {
    const known = FLAG_PARAMETERS[component].has(name) || (name === 'leader-elect' && component !== 'kube-apiserver');
    if (known && value !== null && typeof value !== 'object') read.push({ name, value: String(value) });
    else c.skip(`${file}: ${at}`);
  };
  for (const [k, v] of Object.entries(section)) {
    if (k === 'leaderElection') {
      for (const [f, fv] of Object.entries(mapping(file, `${field}.${k}`, v))) {
        const flag = KOPS_LEADER_ELECTION[f];
        if (flag === undefined) c.skip(`${file}: ${field}.${k}.${f}`);
        else take(flag, fv, `${field}.${k}.${f}`);
      }
    } else take(kebab(k), v, `${field}.${k}`);
  }
  if (read.length > 0) flags(c, `${file} (${field})`, { component, flags: read });
}

/** A kops Cluster (kops.k8s.io/v1alpha2): its release, subnets' zones, kubelet and control-plane components. */
function kopsCluster(c: Collector, file: string, o: Obj): void {
  const spec = mapping(file, 'Cluster.spec', o.spec);
  for (const [k, v] of Object.entries(spec)) {
    const field = `Cluster.spec.${k}`;
    if (k === 'kubernetesVersion') release(c, file, field, v);
    else if (k === 'subnets') {
      if (!Array.isArray(v)) bad(file, field, `expected a list of subnets (name, zone, type), got ${show(v)}`);
      (v as unknown[]).forEach((s, i) => {
        if (!isObj(s) || typeof s.name !== 'string') bad(file, `${field}[${i}]`, `expected a subnet with a name and a zone, got ${show(s)}`);
        c.subnetZones.set(s.name as string, typeof s.zone === 'string' && s.zone !== '' ? s.zone : s.name as string);
      });
    } else if (k === 'kubelet') kubeletConfiguration(c, file, mapping(file, field, v), field, 'spec.kubelet.');
    else if (Object.hasOwn(KOPS_COMPONENTS, k)) kopsComponent(c, file, field, v, KOPS_COMPONENTS[k]);
    else c.skip(`${file}: ${field}`);
  }
}

/**
 * A kops InstanceGroup: a role Node group is `minSize` of the model's nodes (kops' default 2),
 * spread over its subnets' zones (`spec.zones` where given); control-plane and bastion groups
 * run no workload pods. Its `kubelet` overrides the Cluster's for its nodes, read here for all.
 */
function kopsInstanceGroup(c: Collector, file: string, o: Obj): void {
  const { name } = metadataName(file, 'InstanceGroup', o);
  const spec = mapping(file, `InstanceGroup ${name}: spec`, o.spec);
  const label = `kops InstanceGroup ${name}`;
  const role = spec.role ?? 'Node';
  if (role !== 'Node') {
    c.notes.push(`${file}: ${label} (role ${String(role)}) runs no workload pods: not one of the model's nodes`);
    return;
  }
  for (const [k, v] of Object.entries(spec)) {
    const field = `InstanceGroup ${name}: spec.${k}`;
    if (k === 'kubelet') kubeletConfiguration(c, file, mapping(file, field, v), `InstanceGroup ${name}.spec.kubelet`, 'spec.kubelet.');
    else if (!['role', 'minSize', 'maxSize', 'subnets', 'zones'].includes(k)) c.skip(`${file}: ${field}`);
  }
  const min = count(file, `InstanceGroup ${name}: spec.minSize`, spec.minSize, 2);
  const max = count(file, `InstanceGroup ${name}: spec.maxSize`, spec.maxSize, min);
  if (max !== min) c.notes.push(`${file}: ${label}: minSize ${min} nodes are the model's; the group may grow to maxSize ${max}`);
  const zones = strings(file, `InstanceGroup ${name}: spec.zones`, spec.zones);
  nodeGroup(c, { file, label, name, count: min, zones, ...(zones.length === 0 ? { subnets: strings(file, `InstanceGroup ${name}: spec.subnets`, spec.subnets) } : {}) });
}

/** Cluster API's groups. */
const CAPI_GROUP = 'cluster.x-k8s.io';

/**
 * kubeadm's configuration inside a Cluster API object (`spec.kubeadmConfigSpec` of a
 * KubeadmControlPlane, `spec.template.spec` of a KubeadmConfigTemplate): its
 * clusterConfiguration, initConfiguration and joinConfiguration read as kubeadm's own documents.
 * `workers`: the nodes it configures run the workload pods (a KubeadmConfigTemplate's), so their
 * kubelet flags are read; a control plane's kubelets are not the model's nodes'.
 */
function kubeadmConfigSpec(c: Collector, file: string, owner: string, where: string, raw: unknown, workers: boolean): void {
  for (const [k, v] of Object.entries(mapping(file, where, raw))) {
    const kind = { clusterConfiguration: 'ClusterConfiguration', initConfiguration: 'InitConfiguration', joinConfiguration: 'JoinConfiguration' }[k];
    if (kind === undefined || v === null) {
      c.skip(`${file}: ${where}.${k}`);
      continue;
    }
    const doc = mapping(file, `${where}.${k}`, v);
    if (kind !== 'ClusterConfiguration' && !workers) {
      if (doc.nodeRegistration !== undefined) c.skip(`${file}: ${where}.${k}.nodeRegistration (the control-plane machines' kubelets; the model's nodes are the workers)`);
      for (const f of Object.keys(doc)) if (f !== 'nodeRegistration') c.skip(`${file}: ${where}.${k}.${f}`);
      continue;
    }
    kubeadmConfiguration(c, `${file} (${owner})`, kind, doc);
  }
}

/**
 * A Cluster API MachineDeployment (or a Cluster's `spec.topology.workers.machineDeployments`
 * entry): `replicas` worker nodes (default 1) in its `failureDomain`.
 */
function machineDeployment(c: Collector, file: string, label: string, name: string, replicas: unknown, failureDomain: unknown, field: string): void {
  const zone = failureDomain === undefined || failureDomain === null || failureDomain === '' ? [] : [String(failureDomain)];
  nodeGroup(c, { file, label, name, count: count(file, `${field}.replicas`, replicas, 1), zones: zone });
}

/** Cluster API objects: Cluster (its topology), MachineDeployment, KubeadmControlPlane, KubeadmConfigTemplate. */
function clusterApi(c: Collector, file: string, kind: string, o: Obj): boolean {
  if (kind === 'Cluster' || kind === 'MachineDeployment' || kind === 'KubeadmControlPlane' || kind === 'KubeadmConfigTemplate') {
    const { name } = metadataName(file, kind, o);
    const spec = mapping(file, `${kind} ${name}: spec`, o.spec);
    const at = (f: string): string => `${kind} ${name}: spec.${f}`;
    if (kind === 'Cluster') {
      const topology = mapping(file, at('topology'), spec.topology);
      for (const k of Object.keys(spec)) if (k !== 'topology') c.skip(`${file}: ${at(k)}`);
      if (topology.version !== undefined) release(c, file, at('topology.version'), topology.version);
      const workers = mapping(file, at('topology.workers'), topology.workers);
      const list = workers.machineDeployments ?? [];
      if (!Array.isArray(list)) bad(file, at('topology.workers.machineDeployments'), `expected a list, got ${show(list)}`);
      (list as unknown[]).forEach((m, i) => {
        const f = at(`topology.workers.machineDeployments[${i}]`);
        if (!isObj(m) || typeof m.name !== 'string') bad(file, f, `expected a machine deployment with a name, got ${show(m)}`);
        machineDeployment(c, file, `Cluster ${name} topology MachineDeployment ${m.name as string}`, m.name as string, m.replicas, m.failureDomain, f);
      });
      for (const k of Object.keys(topology)) if (k !== 'version' && k !== 'workers') c.skip(`${file}: ${at(`topology.${k}`)}`);
    } else if (kind === 'MachineDeployment') {
      const template = mapping(file, at('template.spec'), mapping(file, at('template'), spec.template).spec);
      if (template.version !== undefined) release(c, file, at('template.spec.version'), template.version);
      machineDeployment(c, file, `Cluster API MachineDeployment ${name}`, name, spec.replicas, template.failureDomain, `MachineDeployment ${name}: spec`);
      for (const k of Object.keys(spec)) if (k !== 'replicas' && k !== 'template' && k !== 'clusterName') c.skip(`${file}: ${at(k)}`);
    } else if (kind === 'KubeadmControlPlane') {
      if (spec.version !== undefined) release(c, file, at('version'), spec.version);
      const replicas = count(file, at('replicas'), spec.replicas, 1);
      c.notes.push(`${file}: KubeadmControlPlane ${name}: ${replicas} control-plane machine${replicas === 1 ? '' : 's'}, which kubeadm taints NoSchedule: not among the model's nodes`);
      kubeadmConfigSpec(c, file, `${kind} ${name}`, at('kubeadmConfigSpec'), spec.kubeadmConfigSpec, false);
      for (const k of Object.keys(spec)) if (!['version', 'replicas', 'kubeadmConfigSpec'].includes(k)) c.skip(`${file}: ${at(k)}`);
    } else {
      kubeadmConfigSpec(c, file, `${kind} ${name}`, at('template.spec'), mapping(file, at('template'), spec.template).spec, true);
    }
    return true;
  }
  return false;
}

/**
 * A k3d config (k3d.io/v1alpha2 to v1alpha5, kind Simple): `servers` (default 1) and `agents`
 * (default 0) are the nodes (k3s servers run workload pods too), `image`'s tag its release,
 * `options.k3s.extraArgs` the k3s flags (`--kube-controller-manager-arg=...`, `--kubelet-arg=...`),
 * read as a k3s config.yaml's.
 */
function k3dConfig(c: Collector, file: string, o: Obj): void {
  const meta = isObj(o.metadata) ? o.metadata : {};
  const name = typeof meta.name === 'string' ? meta.name : typeof o.name === 'string' ? o.name : 'k3s-default';
  const servers = count(file, 'Simple.servers', o.servers, 1);
  const agents = count(file, 'Simple.agents', o.agents, 0);
  nodeGroup(c, { file, label: `k3d cluster ${name}: ${servers} server${servers === 1 ? '' : 's'} and ${agents} agent${agents === 1 ? '' : 's'}`, name: `k3d-${name}`, count: servers + agents, zones: [] });
  if (typeof o.image === 'string') {
    const tag = /:v?(\d+\.\d+\.\d+)/.exec(o.image);
    if (tag) c.set('kubernetesVersion', tag[1], `${file}: Simple.image`);
    else c.skip(`${file}: Simple.image`);
  }
  const k3s = mapping(file, 'Simple.options.k3s', mapping(file, 'Simple.options', o.options).k3s);
  const args: Record<string, string[]> = {};
  const add = (field: string, word: unknown, filters: unknown): void => {
    if (typeof word !== 'string') bad(file, field, `expected a k3s flag such as "--kubelet-arg=max-pods=50", got ${show(word)}`);
    const w = (word as string).trim().replace(/^--/, '');
    const eq = w.indexOf('=');
    const key = eq > 0 ? w.slice(0, eq) : w;
    if (!Object.hasOwn(K3S_ARGS, key) || K3S_ARGS[key] === undefined || eq < 0) {
      c.skip(`${file}: ${field} (--${key})`);
      return;
    }
    const only = Array.isArray(filters) ? filters.filter((f) => typeof f === 'string' && !/^(all|servers?|agents?)(:\*)?$/.test(f)) : [];
    if (only.length > 0) c.notes.push(`${file}: ${field}: --${key} is given to ${only.join(', ')} only; the model gives it to every node`);
    (args[key] ??= []).push(w.slice(eq + 1));
  };
  for (const [k, v] of Object.entries(k3s)) {
    const field = `Simple.options.k3s.${k}`;
    if (k === 'extraArgs' && Array.isArray(v)) v.forEach((a, i) => (isObj(a) ? add(`${field}[${i}].arg`, a.arg, a.nodeFilters) : add(`${field}[${i}]`, a, undefined)));
    else if ((k === 'extraServerArgs' || k === 'extraAgentArgs') && Array.isArray(v)) v.forEach((a, i) => add(`${field}[${i}]`, a, undefined));
    else c.skip(`${file}: ${field}`);
  }
  if (Object.keys(args).length > 0) k3sConfig(c, `${file} (Simple.options.k3s.extraArgs)`, args);
  for (const k of Object.keys(o)) if (!['apiVersion', 'kind', 'metadata', 'name', 'servers', 'agents', 'image', 'options'].includes(k)) c.skip(`${file}: Simple.${k}`);
  for (const k of Object.keys(mapping(file, 'Simple.options', o.options))) if (k !== 'k3s') c.skip(`${file}: Simple.options.${k}`);
}

/**
 * An eksctl ClusterConfig (eksctl.io/v1alpha5): each of `nodeGroups` and `managedNodeGroups` is
 * `desiredCapacity` nodes (else `minSize`, else eksctl's 2) over its `availabilityZones` (else
 * the cluster's); `kubeletExtraConfig` is KubeletConfiguration fields, `maxPodsPerNode` maxPods,
 * `metadata.version` the release. EKS runs the control plane: its flags are not in the file.
 */
function eksctlConfig(c: Collector, file: string, o: Obj): void {
  const meta = mapping(file, 'ClusterConfig.metadata', o.metadata);
  if (meta.version !== undefined) release(c, file, 'ClusterConfig.metadata.version', String(meta.version));
  const clusterZones = strings(file, 'ClusterConfig.availabilityZones', o.availabilityZones);
  for (const list of ['nodeGroups', 'managedNodeGroups'] as const) {
    const groups = o[list] ?? [];
    if (!Array.isArray(groups)) bad(file, `ClusterConfig.${list}`, `expected a list of node groups, got ${show(groups)}`);
    (groups as unknown[]).forEach((g, i) => {
      const field = `ClusterConfig.${list}[${i}]`;
      if (!isObj(g) || typeof g.name !== 'string') bad(file, field, `expected a node group with a name, got ${show(g)}`);
      const name = g.name as string;
      const size = g.desiredCapacity ?? g.minSize;
      const zones = strings(file, `${field}.availabilityZones`, g.availabilityZones);
      nodeGroup(c, { file, label: `eksctl ${list === 'nodeGroups' ? 'node group' : 'managed node group'} ${name}`, name, count: count(file, `${field}.${g.desiredCapacity === undefined ? 'minSize' : 'desiredCapacity'}`, size, 2), zones: zones.length > 0 ? zones : clusterZones });
      for (const [k, v] of Object.entries(g)) {
        if (k === 'kubeletExtraConfig') kubeletConfiguration(c, file, mapping(file, `${field}.${k}`, v), `${field}.kubeletExtraConfig`, `${field}.kubeletExtraConfig.`);
        else if (k === 'maxPodsPerNode') c.set('cluster.maxPods', integer(file, `${field}.maxPodsPerNode`, v, 1), `${file}: ${field}.maxPodsPerNode`);
        else if (!['name', 'desiredCapacity', 'minSize', 'maxSize', 'availabilityZones'].includes(k)) c.skip(`${file}: ${field}.${k}`);
      }
    });
  }
  for (const k of Object.keys(o)) if (!['apiVersion', 'kind', 'metadata', 'availabilityZones', 'nodeGroups', 'managedNodeGroups'].includes(k)) c.skip(`${file}: ClusterConfig.${k}`);
  c.notes.push(`${file}: EKS runs the control plane: kube-controller-manager, kube-scheduler and kube-apiserver keep the scenario's settings (Amazon's are not in the file)`);
}

/** Reads `o` when it is one of the cluster definitions above; false when it is not. */
function clusterDefinition(c: Collector, file: string, kind: string, group: string, o: Obj): boolean {
  if (group === KOPS_GROUP && kind === 'Cluster') kopsCluster(c, file, o);
  else if (group === KOPS_GROUP && kind === 'InstanceGroup') kopsInstanceGroup(c, file, o);
  else if (group === KOPS_GROUP) {
    // A state store's Keyset, SSHCredential ... hold keys: listed by kind and name, never kept nor printed.
    const meta = isObj(o.metadata) ? o.metadata : {};
    c.skip(`${file}: kops ${kind}${typeof meta.name === 'string' ? ` ${meta.name}` : ''}`);
  }
  else if (group === CAPI_GROUP || group === `controlplane.${CAPI_GROUP}` || group === `bootstrap.${CAPI_GROUP}`) return clusterApi(c, file, kind, o);
  else if (group === 'k3d.io' && kind === 'Simple') k3dConfig(c, file, o);
  else if (group === 'eksctl.io' && kind === 'ClusterConfig') eksctlConfig(c, file, o);
  else return false;
  return true;
}

// ---- objects --------------------------------------------------------------------------------

/** Kinds read and listed as not modelled, without an error. */
const NOT_MODELLED_KINDS = new Set([
  'Pod', 'ReplicationController', 'Job', 'CronJob', 'Service', 'Endpoints', 'EndpointSlice', 'ConfigMap', 'Secret',
  'Namespace', 'ServiceAccount', 'PersistentVolume', 'PersistentVolumeClaim', 'PodDisruptionBudget', 'HorizontalPodAutoscaler',
  'Lease', 'Ingress', 'NetworkPolicy', 'Role', 'RoleBinding', 'ClusterRole', 'ClusterRoleBinding', 'PriorityClass', 'StorageClass',
  'LimitRange', 'ResourceQuota', 'Event', 'ControllerRevision', 'CustomResourceDefinition', 'KubeProxyConfiguration',
]);

/**
 * API groups of Kubernetes itself (and of the configurations kubecheck reads): an unknown kind
 * there that is close to a known one is a typo, refused with the kind it likely means. Elsewhere
 * (custom resources: monitoring.coreos.com, cert-manager.io ...) it is listed as not modelled.
 */
const BUILT_IN_GROUPS = new Set(['', 'apps', 'batch', 'policy', 'autoscaling', 'extensions', 'kubeadm.k8s.io', 'kubelet.config.k8s.io', 'kubescheduler.config.k8s.io', 'kubecontrollermanager.config.k8s.io']);

/** What kubecheck reads, for the message on a file that holds nothing else. */
const READS = "KubeletConfiguration, KubeSchedulerConfiguration, KubeControllerManagerConfiguration, kubeadm's InitConfiguration, ClusterConfiguration and JoinConfiguration, kind's Cluster, nodeadm's NodeConfig, kops' Cluster and InstanceGroup, Cluster API's Cluster, MachineDeployment, KubeadmControlPlane and KubeadmConfigTemplate, k3d's Simple, eksctl's ClusterConfig, Node, Deployment, ReplicaSet, StatefulSet, DaemonSet and Lists of them";

const CONFIG_KINDS: Readonly<Record<string, string>> = {
  KubeletConfiguration: 'kubelet.config.k8s.io',
  KubeSchedulerConfiguration: 'kubescheduler.config.k8s.io',
  KubeControllerManagerConfiguration: 'kubecontrollermanager.config.k8s.io',
};

const WORKLOAD_KINDS = ['Deployment', 'ReplicaSet', 'StatefulSet', 'DaemonSet'] as const;
const KNOWN_KINDS = [...Object.keys(CONFIG_KINDS), ...KUBEADM_KINDS, 'Node', ...WORKLOAD_KINDS, ...NOT_MODELLED_KINDS];

/** A Node, as far as the model cares: its name, zone and labels (a Node object's; none for a node of a cluster definition). */
interface NodeInput {
  readonly file: string;
  readonly name: string;
  readonly zone: string;
  readonly pods: number | undefined;
  readonly labels?: Readonly<Record<string, string>>;
}

/** A Deployment, ReplicaSet, StatefulSet or DaemonSet. */
interface WorkloadInput {
  readonly file: string;
  readonly kind: (typeof WORKLOAD_KINDS)[number];
  readonly name: string;
  readonly label: string;
  readonly spec: Obj;
  /** The Deployment that owns a ReplicaSet. */
  readonly owner: string | undefined;
  readonly namespace: string | undefined;
}

function closest(kind: string): string | undefined {
  const lower = kind.toLowerCase();
  return KNOWN_KINDS.find((k) => k.toLowerCase() === lower || (k.length > 4 && (k.toLowerCase().startsWith(lower.slice(0, 5)) || lower.startsWith(k.toLowerCase().slice(0, 5)))));
}

function metadataName(file: string, kind: string, o: Obj): { name: string; namespace: string | undefined; meta: Obj } {
  const meta = o.metadata;
  if (!isObj(meta) || typeof meta.name !== 'string' || meta.name === '') bad(file, `${kind}: metadata.name`, 'expected the object\'s name');
  const m = meta as Obj;
  return { name: m.name as string, namespace: typeof m.namespace === 'string' ? m.namespace : undefined, meta: m };
}

/**
 * Reads one object (a List's items one by one). `patch`: a document of kind's
 * kubeadmConfigPatches, whose apiVersion may be left out (kind matches patches by kind).
 */
function object(c: Collector, file: string, doc: unknown, nodes: NodeInput[], workloads: WorkloadInput[], where: string, patch = false): void {
  if (doc === null || doc === undefined) return;
  if (!isObj(doc)) bad(file, where, `expected a Kubernetes object (apiVersion, kind, ...), got ${show(doc)}`);
  const o = doc as Obj;
  const kind = o.kind;
  if (typeof kind !== 'string' || kind === '') bad(file, `${where}kind`, 'missing: every Kubernetes object names its kind (e.g. kind: Deployment)');
  const k = kind as string;
  if (k === 'List' || (k.endsWith('List') && Array.isArray(o.items))) {
    if (!Array.isArray(o.items)) bad(file, `${k}.items`, 'expected a list of objects');
    (o.items as unknown[]).forEach((item, i) => object(c, file, item, nodes, workloads, `items[${i}].`));
    return;
  }
  c.objects++;
  const apiVersion = typeof o.apiVersion === 'string' ? o.apiVersion.trim() : '';
  const group = apiVersion.includes('/') ? apiVersion.split('/')[0] : '';
  const lenient = patch && (o.apiVersion === undefined || o.apiVersion === null);
  if (Object.hasOwn(CONFIG_KINDS, k)) {
    if (group !== CONFIG_KINDS[k] && !lenient) bad(file, `${k}: apiVersion`, `expected ${CONFIG_KINDS[k]}/<version>, got ${show(o.apiVersion)}`);
    if (k === 'KubeletConfiguration') kubeletConfiguration(c, file, o);
    else if (k === 'KubeSchedulerConfiguration') schedulerConfiguration(c, file, o);
    else controllerManagerConfiguration(c, file, o);
    return;
  }
  if (KUBEADM_KINDS.includes(k) && (group === KUBEADM_GROUP || lenient)) {
    if (k === 'InitConfiguration' || k === 'ClusterConfiguration' || k === 'JoinConfiguration') kubeadmConfiguration(c, file, k, o);
    else c.skip(`${file}: ${k}`);
    return;
  }
  if (KUBEADM_KINDS.includes(k)) bad(file, `${k}: apiVersion`, `expected ${KUBEADM_GROUP}/v1beta4 or ${KUBEADM_GROUP}/v1beta3, got ${show(o.apiVersion)}`);
  if (k === 'Cluster' && group === 'kind.x-k8s.io') return kindCluster(c, file, o, nodes, workloads);
  if (k === 'NodeConfig' && group === 'node.eks.aws') return nodeConfig(c, file, o);
  if (clusterDefinition(c, file, k, group, o)) return;
  if (k === 'Node') {
    const { name, meta } = metadataName(file, k, o);
    const labels = isObj(meta.labels) ? meta.labels : {};
    const zone = labels['topology.kubernetes.io/zone'] ?? labels['failure-domain.beta.kubernetes.io/zone'] ?? '';
    const spec = isObj(o.spec) ? o.spec : {};
    if (Array.isArray(spec.taints) && spec.taints.length > 0) c.skip(`${file}: Node ${name}: spec.taints`);
    if (spec.unschedulable === true) c.skip(`${file}: Node ${name}: spec.unschedulable (cordoned)`);
    const capacity = isObj(o.status) && isObj(o.status.capacity) ? o.status.capacity.pods : undefined;
    const strings = Object.fromEntries(Object.entries(labels).filter(([, v]) => typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean').map(([k, v]) => [k, String(v)]));
    nodes.push({ file, name, zone: String(zone), pods: capacity === undefined ? undefined : integer(file, `Node ${name}: status.capacity.pods`, capacity, 1), labels: strings });
    return;
  }
  if ((WORKLOAD_KINDS as readonly string[]).includes(k)) {
    const { name, namespace, meta } = metadataName(file, k, o);
    const label = `${k} ${namespace ? `${namespace}/` : ''}${name}`;
    if (!isObj(o.spec)) bad(file, `${label}: spec`, 'expected a mapping');
    const owners = Array.isArray(meta.ownerReferences) ? meta.ownerReferences.filter(isObj) : [];
    const owner = owners.find((r) => r.kind === 'Deployment' && typeof r.name === 'string');
    workloads.push({ file, kind: k as WorkloadInput['kind'], name, label, spec: o.spec as Obj, owner: owner ? `${namespace ? `${namespace}/` : ''}${owner.name as string}` : undefined, namespace });
    return;
  }
  if (NOT_MODELLED_KINDS.has(k)) {
    const meta = isObj(o.metadata) ? o.metadata : {};
    const name = typeof meta.name === 'string' ? ` ${typeof meta.namespace === 'string' ? `${meta.namespace}/` : ''}${meta.name}` : '';
    if (k === 'Pod' && staticPodFlags(c, file, o)) return;
    if (k === 'PriorityClass' && typeof meta.name === 'string' && typeof o.value === 'number' && Number.isInteger(o.value)) {
      // Read for the priority admission gives pods of this class (a graceful node shutdown stops critical pods last).
      c.priorityClasses.set(meta.name, { value: o.value, origin: `${file}: PriorityClass ${meta.name}: value` });
      return;
    }
    if (k === 'ConfigMap' && clusterConfigMap(c, file, o, nodes, workloads)) return;
    if (k === 'StorageClass' && typeof meta.name === 'string') {
      // Read for where the volumes of StatefulSets' claims live (their node, their zone, anywhere).
      const annotations = isObj(meta.annotations) ? meta.annotations : {};
      const isDefault = annotations['storageclass.kubernetes.io/is-default-class'] === 'true';
      const provisioner = typeof o.provisioner === 'string' ? o.provisioner : '';
      const topology = provisionerTopology(provisioner, isObj(o.parameters) ? o.parameters : {});
      c.storageClasses.set(meta.name, { topology: topology ?? 'zone', isDefault, origin: `${file}: StorageClass ${meta.name}: provisioner ${provisioner || '(none)'}${topology === undefined ? ' (not known: read as zonal)' : ''}` });
      return;
    }
    c.skip(`${file}: ${k}${name}`);
    return;
  }
  // A kind the model does not know (a custom resource, a kind of a newer API): listed, unless it
  // is a typo of a kind of Kubernetes' own groups. A file named on its own that holds nothing
  // else is refused once it has been read (importSources).
  const near = closest(k);
  const why = `unknown kind "${k}"${near && near !== k ? `; did you mean ${near}?` : ''}; kubecheck reads ${READS}`;
  if (near !== undefined && near !== k && BUILT_IN_GROUPS.has(group)) bad(file, `${where}kind`, why);
  const meta = isObj(o.metadata) ? o.metadata : {};
  const name = typeof meta.name === 'string' ? ` ${typeof meta.namespace === 'string' ? `${meta.namespace}/` : ''}${meta.name}` : '';
  // A named object of an API group's kind (a custom resource) is kept for an operator that declares it.
  if (typeof meta.name === 'string' && apiVersion.includes('/') && group.includes('.')) {
    c.customObjects.push({ object: { kind: k, metadata: { name: meta.name, ...(typeof meta.namespace === 'string' && meta.namespace !== '' ? { namespace: meta.namespace } : {}), ...(isObj(meta.labels) ? { labels: meta.labels } : {}), ...(Array.isArray(meta.finalizers) ? { finalizers: meta.finalizers } : {}) }, ...(o.spec !== undefined ? { spec: o.spec } : {}), ...(o.status !== undefined ? { status: o.status } : {}) }, origin: `${file}: ${k}${name}` });
    c.skip(`${file}: ${k}${name} (${apiVersion}: custom resource, kept in cluster.objects)`);
    return;
  }
  c.unknown++;
  c.firstUnknown ??= { field: `${where}kind`, why };
  c.skip(`${file}: ${k}${name} (${apiVersion === '' ? 'no apiVersion' : apiVersion}: a kind the model does not know)`);
}

/**
 * The ConfigMaps kubeadm keeps in kube-system (`kubectl get cm -n kube-system kubeadm-config
 * kubelet-config -o yaml`): `kubeadm-config`'s `data.ClusterConfiguration` and `kubelet-config`'s
 * `data.kubelet` are kubeadm and KubeletConfiguration documents, read as such.
 */
function clusterConfigMap(c: Collector, file: string, o: Obj, nodes: NodeInput[], found: WorkloadInput[]): boolean {
  const meta = isObj(o.metadata) ? o.metadata : {};
  const data = isObj(o.data) ? o.data : {};
  const key = meta.name === 'kubeadm-config' ? 'ClusterConfiguration' : meta.name === 'kubelet-config' ? 'kubelet' : undefined;
  if (key === undefined || typeof data[key] !== 'string' || (meta.namespace !== undefined && meta.namespace !== 'kube-system')) return false;
  const label = `${file} (ConfigMap kube-system/${meta.name as string} data.${key})`;
  for (const d of yamlDocuments(label, data[key] as string)) object(c, label, d, nodes, found, '');
  for (const other of Object.keys(data)) if (other !== key) c.skip(`${file}: ConfigMap kube-system/${meta.name as string}: data.${other}`);
  return true;
}

/** A static Pod of a control-plane component (kubeadm's manifests): its command line's flags. */
function staticPodFlags(c: Collector, file: string, o: Obj): boolean {
  const containers = isObj(o.spec) && Array.isArray(o.spec.containers) ? o.spec.containers.filter(isObj) : [];
  for (const container of containers) {
    const command = [...(Array.isArray(container.command) ? container.command : []), ...(Array.isArray(container.args) ? container.args : [])].map(String);
    const program = (command[0] ?? '').split('/').pop() ?? '';
    if (!['kube-controller-manager', 'kube-scheduler', 'kube-apiserver'].includes(program)) continue;
    const parsed: Flag[] = [];
    for (const w of command.slice(1)) {
      if (!w.startsWith('--')) continue;
      const eq = w.indexOf('=');
      parsed.push(eq > 0 ? { name: w.slice(2, eq), value: w.slice(eq + 1) } : { name: w.slice(2), value: undefined });
    }
    flags(c, `${file} (${program} command)`, { component: program as Component, flags: parsed });
    return true;
  }
  return false;
}

// ---- nodes and zones ------------------------------------------------------------------------

/**
 * Places the real nodes on the model's: node i (0-based) is in zone i mod zones, so node-k is
 * taken from zone (k-1) mod zones in turn, zones in order of name. Zones of unequal size cannot
 * be represented exactly; the note says how the model spreads them.
 */
function placeNodes(c: Collector, nodes: readonly NodeInput[], what = `${nodes.length} Node objects`): Map<string, number> {
  const index = new Map<string, number>();
  if (nodes.length === 0) return index;
  const seen = new Set<string>();
  for (const n of nodes) {
    if (seen.has(n.name)) bad(n.file, `Node ${n.name}`, 'appears twice');
    seen.add(n.name);
  }
  const zones = [...new Set(nodes.map((n) => n.zone))].sort();
  const byZone = zones.map((z) => nodes.filter((n) => n.zone === z));
  const origin = [...new Set(nodes.map((n) => n.file))].join(', ');
  c.set('cluster.nodes', nodes.length, `${origin}: ${what}`);
  c.set('cluster.zones', zones.length, `${origin}: topology.kubernetes.io/zone`);
  const queues = byZone.map((list) => [...list]);
  for (let i = 0; i < nodes.length; i++) {
    const z = i % zones.length;
    const from = queues[z].length > 0 ? queues[z] : queues.find((q) => q.length > 0)!;
    index.set(from.shift()!.name, i);
  }
  const real = byZone.map((list, z) => `${zones[z] === '' ? '(no zone label)' : zones[z]}: ${list.length}`).join(', ');
  const model = zones.map((_, z) => Math.floor(nodes.length / zones.length) + (z < nodes.length % zones.length ? 1 : 0));
  const balanced = byZone.every((list, z) => list.length === model[z]);
  const names = [...index].map(([name, i]) => `${name} → node-${i + 1}`).join(', ');
  c.notes.push(`nodes: ${names}`);
  if (zones.length > 1 && !balanced) {
    c.notes.push(`zones: the cluster has ${real} nodes; the model places node i in zone i mod ${zones.length} (${model.join(' + ')}), so its zones are balanced where yours are not`);
  }
  if (zones.length === 1 && zones[0] === '') c.notes.push('zones: no node has a topology.kubernetes.io/zone label; one zone');
  const capacities = [...new Set(nodes.map((n) => n.pods).filter((p): p is number => p !== undefined))];
  if (capacities.length === 1) c.set('cluster.maxPods', capacities[0], `${origin}: status.capacity.pods`);
  else if (capacities.length > 1) {
    const least = Math.min(...capacities);
    c.set('cluster.maxPods', least, `${origin}: status.capacity.pods`);
    c.notes.push(`maxPods: nodes have ${capacities.join(', ')} pods of capacity; the model gives every node ${least}`);
  }
  return index;
}

// ---- workloads ------------------------------------------------------------------------------

/**
 * A pod template's tolerations in full, as Kubernetes writes them (refused as the API refuses
 * them); the model matches them against its taints as Kubernetes does (`model/tolerations.ts`).
 */
function tolerations(w: WorkloadInput, list: unknown): PodToleration[] | undefined {
  if (list === undefined || list === null) return undefined;
  const field = `${w.label}: spec.template.spec.tolerations`;
  if (!Array.isArray(list)) bad(w.file, field, 'expected a list');
  return (list as unknown[]).map((t, i) => parseToleration(t, (f, problem) => bad(w.file, `${field}[${i}]${f}`, problem)));
}

/** spec fields that are part of what the model takes (or of no consequence to it). */
const READ_SPEC = new Set(['replicas', 'selector', 'template', 'serviceName']);
/** Pod template fields that would change placement or failure handling, which the model leaves out. */
const TEMPLATE_NOT_MODELLED = ['preemptionPolicy', 'schedulerName', 'readinessGates', 'runtimeClassName', 'overhead', 'hostNetwork'];
/** Of those, the ones that change where (or whether) the scheduler places a pod. */
const SCHEDULING_NOT_MODELLED = new Set(['preemptionPolicy', 'schedulerName', 'runtimeClassName', 'overhead', 'hostNetwork']);

const REQUIRED = 'requiredDuringSchedulingIgnoredDuringExecution';
const PREFERRED = 'preferredDuringSchedulingIgnoredDuringExecution';

/**
 * A pod template's scheduling constraints as the model's workload fields (`model/placement.ts`):
 * nodeSelector, the required node affinity, the required pod affinity and anti-affinity terms and
 * the DoNotSchedule topology spread constraints. Preferred terms and ScheduleAnyway constraints
 * are scores: the model tries every node the filters pass, so whatever they pick is among its
 * paths (a note says so). What the model cannot express (namespaceSelector, matchLabelKeys,
 * mismatchLabelKeys, node inclusion policies, matchFields) is listed as not modelled and counted
 * as a scheduling caveat.
 */
function placement(c: Collector, w: WorkloadInput, kind: string, pod: Obj, item: Record<string, unknown>, at: (f: string) => string, origin: (f: string) => string): void {
  const field = 'spec.template.spec';
  const caveat = (what: string): void => {
    c.skip(`${w.file}: ${w.label}: ${what}`);
    c.schedulingCaveats.push(`${w.label}: ${what}`);
  };
  const badAt = (f: string): Bad => (g, problem) => bad(w.file, `${w.label}: ${f}${g}`, problem);
  const daemon = kind === 'DaemonSet';
  if (pod.nodeSelector !== undefined && pod.nodeSelector !== null) {
    item.nodeSelector = parseLabels(pod.nodeSelector, badAt(`${field}.nodeSelector`));
    c.fieldOrigins.set(at('nodeSelector'), origin(`${field}.nodeSelector`));
  }
  const affinity = pod.affinity;
  if (affinity !== undefined && affinity !== null) {
    if (!isObj(affinity)) bad(w.file, `${w.label}: ${field}.affinity`, 'expected a mapping');
    const out: Record<string, unknown> = {};
    const aff = affinity as Obj;
    for (const k of Object.keys(aff)) if (!['nodeAffinity', 'podAffinity', 'podAntiAffinity'].includes(k)) caveat(`${field}.affinity.${k}`);
    const node = isObj(aff.nodeAffinity) ? aff.nodeAffinity : undefined;
    if (node !== undefined) {
      if (node[PREFERRED] !== undefined) c.notes.push(`${w.label}: ${field}.affinity.nodeAffinity.${PREFERRED} is a score, not a filter: the model tries every node the filters pass, so the node it prefers is among the paths`);
      const req = node[REQUIRED];
      if (isObj(req)) {
        const terms = Array.isArray(req.nodeSelectorTerms) ? req.nodeSelectorTerms : [];
        if (terms.some((t) => isObj(t) && t.matchFields !== undefined && t.matchFields !== null)) caveat(`${field}.affinity.nodeAffinity.${REQUIRED}: matchFields (the node affinity is not modelled)`);
        else out.nodeAffinity = { [REQUIRED]: { nodeSelectorTerms: parseNodeSelectorTerms(req.nodeSelectorTerms, badAt(`${field}.affinity.nodeAffinity.${REQUIRED}.nodeSelectorTerms`)) } };
      }
    }
    for (const k of ['podAffinity', 'podAntiAffinity'] as const) {
      const part = isObj(aff[k]) ? aff[k] : undefined;
      if (part === undefined) continue;
      if (part[PREFERRED] !== undefined) c.notes.push(`${w.label}: ${field}.affinity.${k}.${PREFERRED} is a score, not a filter: the model tries every node the filters pass, so the node it prefers is among the paths`);
      const req = part[REQUIRED];
      if (!Array.isArray(req) || req.length === 0) continue;
      if (daemon) {
        caveat(`${field}.affinity.${k} (a DaemonSet's pods are created on their nodes)`);
        continue;
      }
      const terms: unknown[] = [];
      req.forEach((t, i) => {
        const f = `${field}.affinity.${k}.${REQUIRED}[${i}]`;
        const odd = isObj(t) ? ['namespaceSelector', 'matchLabelKeys', 'mismatchLabelKeys'].filter((x) => t[x] !== undefined && t[x] !== null) : [];
        if (odd.length > 0) caveat(`${f}: ${odd.join(', ')} (the term is not modelled)`);
        else terms.push(parsePodAffinityTerm(t, badAt(f)));
      });
      if (terms.length > 0) out[k] = { [REQUIRED]: terms };
    }
    if (Object.keys(out).length > 0) {
      item.affinity = out;
      c.fieldOrigins.set(at('affinity'), origin(`${field}.affinity (required terms)`));
    }
  }
  const spread = pod.topologySpreadConstraints;
  if (Array.isArray(spread) && spread.length > 0) {
    const kept: unknown[] = [];
    spread.forEach((x, i) => {
      const f = `${field}.topologySpreadConstraints[${i}]`;
      if (isObj(x) && x.whenUnsatisfiable === 'ScheduleAnyway') {
        c.notes.push(`${w.label}: ${f} is ScheduleAnyway, a score, not a filter: the model tries every node the filters pass, so the node it prefers is among the paths`);
        return;
      }
      const odd = isObj(x) ? ['matchLabelKeys'].filter((k) => x[k] !== undefined && x[k] !== null) : [];
      if (isObj(x) && x.nodeAffinityPolicy !== undefined && x.nodeAffinityPolicy !== null && x.nodeAffinityPolicy !== 'Honor') odd.push('nodeAffinityPolicy');
      if (isObj(x) && x.nodeTaintsPolicy !== undefined && x.nodeTaintsPolicy !== null && x.nodeTaintsPolicy !== 'Ignore') odd.push('nodeTaintsPolicy');
      if (daemon) odd.push('on a DaemonSet, whose pods are created on their nodes');
      if (odd.length > 0) return caveat(`${f}: ${odd.join(', ')} (the constraint is not modelled)`);
      const { nodeAffinityPolicy: _a, nodeTaintsPolicy: _t, ...rest } = isObj(x) ? x : ({} as Obj);
      kept.push(parseSpreadConstraint(rest, badAt(f)));
    });
    if (kept.length > 0) {
      item.topologySpreadConstraints = kept;
      c.fieldOrigins.set(at('topologySpreadConstraints'), origin(`${field}.topologySpreadConstraints (DoNotSchedule)`));
    }
  }
}

/**
 * Each imported pod (anti-)affinity term and spread constraint whose selector selects the pods of
 * no workload read (in its namespaces): the model holds no such pods, so it takes it that none run
 * (listed as not modelled, a scheduling caveat).
 */
function unmatchedSelectors(c: Collector, items: readonly Record<string, unknown>[], labels: readonly string[]): void {
  const all = items as unknown as WorkloadConfig[];
  const ns = (w: WorkloadConfig): string => w.namespace ?? 'default';
  all.forEach((w, i) => {
    const terms = [
      ...(w.affinity?.podAffinity?.[REQUIRED] ?? []).map((t) => ['podAffinity', t] as const),
      ...(w.affinity?.podAntiAffinity?.[REQUIRED] ?? []).map((t) => ['podAntiAffinity', t] as const),
    ];
    for (const [k, t] of terms) {
      const spaces = t.namespaces ?? [ns(w)];
      if (!all.some((o) => spaces.includes(ns(o)) && selectorMatches(t.labelSelector, o.labels ?? {}))) {
        const what = `${labels[i]}: spec.template.spec.affinity.${k}: the term on ${t.topologyKey} selects the pods of no workload read (the model takes it that no such pods run)`;
        c.skip(what);
        c.schedulingCaveats.push(what);
      }
    }
    for (const t of w.topologySpreadConstraints ?? []) {
      if (!all.some((o) => ns(o) === ns(w) && selectorMatches(t.labelSelector, o.labels ?? {}))) {
        const what = `${labels[i]}: spec.template.spec.topologySpreadConstraints: the constraint on ${t.topologyKey} selects the pods of no workload read (the model takes it that no such pods run)`;
        c.skip(what);
        c.schedulingCaveats.push(what);
      }
    }
  });
}

/** The model's kind for an object's kind: a Deployment is modelled as its ReplicaSet. */
const MODEL_KIND: Readonly<Record<WorkloadInput['kind'], 'ReplicaSet' | 'StatefulSet' | 'DaemonSet'>> = {
  Deployment: 'ReplicaSet',
  ReplicaSet: 'ReplicaSet',
  StatefulSet: 'StatefulSet',
  DaemonSet: 'DaemonSet',
};

/** What the model names the pods of a workload, for the note. */
const POD_NAMES: Readonly<Record<'ReplicaSet' | 'StatefulSet' | 'DaemonSet', (name: string) => string>> = {
  ReplicaSet: (n) => `pods ${n}-<k>; k is a slot, standing for Kubernetes' <hash>-<random> suffix`,
  StatefulSet: (n) => `pods ${n}-<ordinal>`,
  DaemonSet: (n) => `pods ${n}-node-<n>, one on each node, standing for ${n}-<random>; they tolerate unreachable and not-ready forever`,
};

/**
 * The model's name for a workload: its object's name where it can be (a DNS label of at most 50
 * characters no other workload has, nor one whose pods' names would be taken for its own), else
 * made so (dots to dashes, shortened, `-2`, `-3` ... appended).
 */
function modelName(name: string, kind: 'ReplicaSet' | 'StatefulSet' | 'DaemonSet', taken: readonly { readonly name: string; readonly kind: string }[]): string {
  const base = name.toLowerCase().replace(/[^a-z0-9-]/g, '-').slice(0, 46).replace(/^-+|-+$/g, '') || 'workload';
  const clash = (n: string): boolean =>
    taken.some((t) => t.name === n || (t.kind === 'DaemonSet' && n === `${t.name}-node`) || (kind === 'DaemonSet' && t.name === `${n}-node`));
  if (!clash(base)) return base;
  for (let i = 2; ; i++) if (!clash(`${base}-${i}`)) return `${base}-${i}`;
}

/**
 * The pods' `spec.priority` as the Priority admission plugin gives it: the template's
 * `priorityClassName` (a built-in class or a PriorityClass among the files), else its `priority`.
 * A class that is in neither is listed as not modelled (the pod keeps priority 0 here).
 */
function podPriority(c: Collector, w: WorkloadInput, pod: Obj): { value: number; origin: string } | undefined {
  const className = pod.priorityClassName;
  if (typeof className === 'string' && className !== '') {
    const builtIn = SYSTEM_PRIORITY_CLASSES[className];
    if (builtIn !== undefined) return { value: builtIn, origin: `spec.template.spec.priorityClassName (${className}: ${builtIn})` };
    const own = c.priorityClasses.get(className);
    if (own !== undefined) return { value: own.value, origin: `spec.template.spec.priorityClassName (${own.origin} ${own.value})` };
    c.skip(`${w.file}: ${w.label}: spec.template.spec.priorityClassName ${className} (no PriorityClass of that name among the files: read as priority 0)`);
    return undefined;
  }
  if (typeof pod.priority === 'number' && Number.isInteger(pod.priority)) return { value: pod.priority, origin: 'spec.template.spec.priority' };
  return undefined;
}

/**
 * Where the volumes of a provisioner live: `node` for local volumes (a PV with node affinity to one
 * node), `zone` for zonal disks, `none` for storage every node reaches; undefined when not known.
 */
function provisionerTopology(provisioner: string, parameters: Obj): VolumeTopology | undefined {
  if (/^(kubernetes\.io\/no-provisioner|rancher\.io\/local-path|openebs\.io\/local|local\.csi\.openebs\.io|topolvm\.(io|cybozu\.com)|lvm\.csi\.metal-stack\.io|hostpath\.csi\.k8s\.io|microk8s\.io\/hostpath|k8s\.io\/minikube-hostpath)$/.test(provisioner)) return 'node';
  if (/^(ebs\.csi\.aws\.com|kubernetes\.io\/aws-ebs|pd\.csi\.storage\.gke\.io|kubernetes\.io\/gce-pd|disk\.csi\.azure\.com|kubernetes\.io\/azure-disk|cinder\.csi\.openstack\.org|kubernetes\.io\/cinder)$/.test(provisioner)) {
    // A regional persistent disk (GCE) or a zone-redundant Azure disk is reachable from several zones.
    const replication = String(parameters['replication-type'] ?? parameters.replicationType ?? '');
    const sku = String(parameters.skuName ?? parameters.skuname ?? '');
    return replication === 'regional-pd' || /_ZRS$/i.test(sku) ? 'none' : 'zone';
  }
  if (/^(efs\.csi\.aws\.com|file\.csi\.azure\.com|kubernetes\.io\/azure-file|filestore\.csi\.storage\.gke\.io|nfs\.csi\.k8s\.io|cephfs\.csi\.ceph\.com|rbd\.csi\.ceph\.com|.*\.rbd\.csi\.ceph\.com|.*\.cephfs\.csi\.ceph\.com|driver\.longhorn\.io|kubernetes\.io\/nfs|csi\.vsphere\.vmware\.com)$/.test(provisioner)) return 'none';
  return undefined;
}

/** Class names the clusters' installers give their default class, where no StorageClass is among the files. */
const KNOWN_CLASS_NAMES: Readonly<Record<string, VolumeTopology>> = {
  'local-path': 'node', 'local-storage': 'node', 'openebs-hostpath': 'node', 'microk8s-hostpath': 'node', topolvm: 'node', 'topolvm-provisioner': 'node',
  gp2: 'zone', gp3: 'zone', 'standard-rwo': 'zone', 'premium-rwo': 'zone', 'managed-csi': 'zone', 'managed-premium': 'zone', 'managed-csi-premium': 'zone',
  'efs-sc': 'none', 'azurefile': 'none', 'azurefile-csi': 'none', 'nfs-client': 'none', longhorn: 'none', 'rook-cephfs': 'none', 'rook-ceph-block': 'none',
};

/**
 * A StatefulSet's `volumeClaimTemplates` with where each one's volumes live: from its
 * `storageClassName` (a StorageClass among the files, else a class name installers use), else the
 * default StorageClass among the files; otherwise zonal, as the cloud providers' default classes
 * are, said in the import's notes.
 */
function claimTemplates(c: Collector, w: WorkloadInput, raw: unknown): { name: string; topology: VolumeTopology; why: string }[] {
  if (raw === undefined || raw === null) return [];
  if (!Array.isArray(raw)) bad(w.file, `${w.label}: spec.volumeClaimTemplates`, `expected a list, got ${show(raw)}`);
  return raw.map((t: unknown, j: number) => {
    const meta = isObj(t) && isObj(t.metadata) ? t.metadata : {};
    if (typeof meta.name !== 'string' || meta.name === '') bad(w.file, `${w.label}: spec.volumeClaimTemplates[${j}].metadata.name`, `expected a name, got ${show(meta.name)}`);
    const spec = isObj(t) && isObj(t.spec) ? t.spec : {};
    const className = typeof spec.storageClassName === 'string' ? spec.storageClassName : undefined;
    const named = className === undefined ? [...c.storageClasses.entries()].find(([, v]) => v.isDefault) : ([className, c.storageClasses.get(className)] as const);
    if (named !== undefined && named[1] !== undefined) return { name: meta.name, topology: named[1].topology, why: `${className === undefined ? 'default class ' : ''}${named[1].origin}` };
    if (className !== undefined && KNOWN_CLASS_NAMES[className] !== undefined) return { name: meta.name, topology: KNOWN_CLASS_NAMES[className], why: `storageClassName ${className}` };
    c.notes.push(`${w.label}: spec.volumeClaimTemplates[${j}] (${meta.name}): ${className === undefined ? 'the default StorageClass' : `StorageClass ${className}`} is not among the files; its volumes are read as zonal (a cloud provider's disk); give the StorageClass object (kubectl get storageclass -o yaml) to read where they live`);
    return { name: meta.name, topology: 'zone' as const, why: className === undefined ? 'default class not given: read as zonal' : `StorageClass ${className} not given: read as zonal` };
  });
}

/** One workload of the objects as an item of `cluster.workloads`, with the origin of each field. */
function workload(c: Collector, w: WorkloadInput, index: number, nodeIndex: ReadonlyMap<string, number>, taken: { name: string; kind: string }[]): Record<string, unknown> {
  const kind = MODEL_KIND[w.kind];
  const name = modelName(w.name, kind, taken);
  taken.push({ name, kind });
  const at = (f: string): string => `cluster.workloads.${index}.${f}`;
  const origin = (f: string): string => `${w.file}: ${w.label}: ${f}`;
  const item: Record<string, unknown> = { kind, name };
  c.fieldOrigins.set(at('name'), origin('metadata.name'));
  c.notes.push(`${w.label} → the model's ${kind} ${name} (${POD_NAMES[kind](name)})`);
  if (kind !== 'DaemonSet') {
    item.replicas = w.spec.replicas === undefined ? 1 : integer(w.file, `${w.label}: spec.replicas`, w.spec.replicas);
    c.fieldOrigins.set(at('replicas'), origin(w.spec.replicas === undefined ? 'spec.replicas (unset: 1)' : 'spec.replicas'));
  }
  for (const k of Object.keys(w.spec)) {
    if (READ_SPEC.has(k) && !(kind === 'DaemonSet' && k === 'replicas')) continue;
    if (k === 'volumeClaimTemplates' && kind === 'StatefulSet') {
      const templates = claimTemplates(c, w, w.spec[k]);
      if (templates.length > 0) {
        item.volumeClaimTemplates = templates.map((t) => ({ name: t.name, topology: t.topology }));
        c.fieldOrigins.set(at('volumeClaimTemplates'), origin(`spec.volumeClaimTemplates (${templates.map((t) => `${t.name}: ${t.topology}, ${t.why}`).join('; ')})`));
      }
      continue;
    }
    if (k === 'persistentVolumeClaimRetentionPolicy' && kind === 'StatefulSet') {
      const policy = w.spec[k];
      if (policy === undefined || policy === null) continue;
      if (!isObj(policy)) bad(w.file, `${w.label}: spec.persistentVolumeClaimRetentionPolicy`, `expected a mapping, got ${show(policy)}`);
      const one = (f: 'whenDeleted' | 'whenScaled'): string => {
        const v = policy[f] ?? 'Retain';
        if (v !== 'Retain' && v !== 'Delete') bad(w.file, `${w.label}: spec.persistentVolumeClaimRetentionPolicy.${f}`, `expected Retain or Delete, got ${show(v)}`);
        return v as string;
      };
      item.persistentVolumeClaimRetentionPolicy = { whenDeleted: one('whenDeleted'), whenScaled: one('whenScaled') };
      c.fieldOrigins.set(at('persistentVolumeClaimRetentionPolicy'), origin('spec.persistentVolumeClaimRetentionPolicy'));
      continue;
    }
    if (k === 'podManagementPolicy' && kind === 'StatefulSet') {
      const policy = w.spec[k];
      if (policy === undefined || policy === null) continue;
      if (policy !== 'OrderedReady' && policy !== 'Parallel') bad(w.file, `${w.label}: spec.podManagementPolicy`, `expected OrderedReady or Parallel, got ${show(policy)}`);
      item.podManagementPolicy = policy;
      c.fieldOrigins.set(at('podManagementPolicy'), origin('spec.podManagementPolicy'));
      continue;
    }
    c.skip(`${w.file}: ${w.label}: spec.${k}`);
  }
  const template = isObj(w.spec.template) ? w.spec.template : {};
  const pod = isObj(template.spec) ? template.spec : {};
  if (pod.terminationGracePeriodSeconds !== undefined && pod.terminationGracePeriodSeconds !== null) {
    item.terminationGracePeriodSeconds = integer(w.file, `${w.label}: spec.template.spec.terminationGracePeriodSeconds`, pod.terminationGracePeriodSeconds);
    c.fieldOrigins.set(at('terminationGracePeriodSeconds'), origin('spec.template.spec.terminationGracePeriodSeconds'));
  }
  const tol = tolerations(w, pod.tolerations);
  if (tol !== undefined && tol.length > 0) {
    item.tolerations = tol.map(writtenToleration);
    c.fieldOrigins.set(at('tolerations'), origin('spec.template.spec.tolerations'));
  }
  if (kind === 'DaemonSet') {
    if (pod.nodeName !== undefined && pod.nodeName !== null && pod.nodeName !== '') c.skip(`${w.file}: ${w.label}: spec.template.spec.nodeName`);
  } else {
    if (pod.nodeName !== undefined && pod.nodeName !== null && pod.nodeName !== '') {
      const node = String(pod.nodeName);
      const i = nodeIndex.get(node);
      if (i === undefined) {
        if (nodeIndex.size > 0 || !/^node-\d+$/.test(node)) {
          bad(w.file, `${w.label}: spec.template.spec.nodeName`, `node "${node}" is not among the Node objects given; add them (kubectl get nodes -o yaml) so it can be placed`);
        }
        item.nodeName = node;
        c.fieldOrigins.set(at('nodeName'), origin('spec.template.spec.nodeName'));
      } else {
        item.nodeName = `node-${i + 1}`;
        c.fieldOrigins.set(at('nodeName'), origin(`spec.template.spec.nodeName (${node})`));
      }
    }
  }
  const priority = podPriority(c, w, pod);
  if (priority !== undefined) {
    item.priority = priority.value;
    c.fieldOrigins.set(at('priority'), origin(priority.origin));
  }
  for (const f of TEMPLATE_NOT_MODELLED) {
    if (pod[f] === undefined) continue;
    c.skip(`${w.file}: ${w.label}: spec.template.spec.${f}`);
    if (SCHEDULING_NOT_MODELLED.has(f)) c.schedulingCaveats.push(`${w.label}: spec.template.spec.${f}`);
  }
  const meta = isObj(template.metadata) ? template.metadata : {};
  if (isObj(meta.labels) && Object.keys(meta.labels).length > 0) {
    item.labels = parseLabels(meta.labels, (f, problem) => bad(w.file, `${w.label}: spec.template.metadata.labels${f}`, problem));
    c.fieldOrigins.set(at('labels'), origin('spec.template.metadata.labels'));
  }
  if (w.namespace !== undefined && w.namespace !== 'default') {
    item.namespace = w.namespace;
    c.fieldOrigins.set(at('namespace'), origin('metadata.namespace'));
  }
  placement(c, w, kind, pod, item, at, origin);
  const containers = Array.isArray(pod.containers) ? pod.containers.filter(isObj) : [];
  if (containers.some((x) => x.readinessProbe !== undefined || x.startupProbe !== undefined || x.livenessProbe !== undefined)) {
    c.skip(`${w.file}: ${w.label}: container probes (a pod serves once its container runs)`);
  }
  return item;
}

/**
 * Every Deployment (or ReplicaSet a given Deployment does not own), StatefulSet and DaemonSet,
 * in the order read, becomes a workload of `cluster.workloads` with its own name.
 */
function workloads(c: Collector, list: readonly WorkloadInput[], nodeIndex: ReadonlyMap<string, number>): boolean {
  if (list.length === 0) return false;
  const deployments = new Set(list.filter((w) => w.kind === 'Deployment').map((w) => w.label.replace(/^Deployment /, '')));
  // A ReplicaSet a given Deployment owns is that Deployment's pods, not a workload of its own.
  const own = list.filter((w) => !(w.kind === 'ReplicaSet' && w.owner !== undefined && deployments.has(w.owner)));
  for (const w of list) if (!own.includes(w)) c.notes.push(`${w.label} belongs to Deployment ${w.owner}: read as that Deployment`);
  const taken: { name: string; kind: string }[] = [];
  const items = own.map((w, i) => workload(c, w, i, nodeIndex, taken));
  // Pod labels and namespaces are read by label selectors alone: kept only where one is read.
  const selectors = (items as unknown as WorkloadConfig[]).some((w) => w.affinity?.podAffinity !== undefined || w.affinity?.podAntiAffinity !== undefined || w.topologySpreadConstraints !== undefined);
  if (!selectors) {
    items.forEach((item, i) => {
      for (const k of ['labels', 'namespace']) {
        delete item[k];
        c.fieldOrigins.delete(`cluster.workloads.${i}.${k}`);
      }
    });
  }
  unmatchedSelectors(c, items, own.map((w) => `${w.file}: ${w.label}`));
  const files = [...new Set(own.map((w) => w.file))].join(', ');
  c.set('cluster.workloads', items, `${files}: ${own.length} workload${own.length === 1 ? '' : 's'}`);
  return true;
}

/**
 * `cluster.nodeLabels` where a workload read has scheduling constraints: each node's hostname
 * (its Node object's `kubernetes.io/hostname` label, else its name), the zone of the model's zone
 * it is placed in (`placeNodes`: the name of that zone) and every other label a constraint reads,
 * from its Node object. Labels no constraint reads are left out.
 */
function nodeLabels(c: Collector, nodes: readonly NodeInput[], index: ReadonlyMap<string, number>): void {
  const items = c.values.get('cluster.workloads')?.value as WorkloadConfig[] | undefined;
  if (items === undefined || nodes.length === 0) return;
  if (!items.some((w) => w.nodeSelector !== undefined || w.affinity !== undefined || w.topologySpreadConstraints !== undefined)) return;
  const read = labelKeysRead(items);
  const zones = [...new Set(nodes.map((n) => n.zone))].sort();
  const byIndex: Record<string, string>[] = Array.from({ length: nodes.length }, () => ({}));
  for (const n of nodes) {
    const i = index.get(n.name)!;
    const own = n.labels ?? {};
    const labels: Record<string, string> = { [HOSTNAME_LABEL]: own[HOSTNAME_LABEL] ?? n.name };
    const zone = zones[i % zones.length];
    if (zone !== '') labels[ZONE_LABEL] = zone;
    for (const k of read) if (k !== HOSTNAME_LABEL && k !== ZONE_LABEL && own[k] !== undefined) labels[k] = own[k];
    byIndex[i] = labels;
  }
  const origin = [...new Set(nodes.map((n) => n.file))].join(', ');
  c.set('cluster.nodeLabels', byIndex, `${origin}: metadata.labels (${[...new Set([HOSTNAME_LABEL, ...(zones.some((z) => z !== '') ? [ZONE_LABEL] : []), ...read])].join(', ')})`);
  c.notes.push(`cluster.nodeLabels: the labels the workloads' scheduling constraints read, with each node's hostname and the zone it is placed in; other labels are left out`);
  if (zones.length === 1 && zones[0] === '' && read.has(ZONE_LABEL)) c.notes.push(`cluster.nodeLabels: no node has a ${ZONE_LABEL} label; the model gives every node zone-1`);
}

// ---- the whole ------------------------------------------------------------------------------

/** A record without a prototype: no key written into it reaches another object. */
const record = (): Record<string, unknown> => Object.create(null) as Record<string, unknown>;

/**
 * Writes `value` at the dotted `key` of `target`, making the sections it needs (records without a
 * prototype); a part `__proto__`, `constructor` or `prototype` is refused (KC109), and only own
 * properties are followed, so nothing is written outside `target`.
 */
function setPath(target: Record<string, unknown>, key: string, value: unknown, origin: string): void {
  const parts = key.split('.');
  for (const p of parts) refuseForbiddenKey(p, key, origin);
  let cur = target;
  for (let i = 0; i < parts.length - 1; i++) {
    const next = Object.hasOwn(cur, parts[i]) ? cur[parts[i]] : undefined;
    if (!isObj(next)) cur[parts[i]] = record();
    cur = cur[parts[i]] as Record<string, unknown>;
  }
  cur[parts[parts.length - 1]] = value;
}

function flatten(value: Obj, prefix: string, out: [string, unknown][], file: string): void {
  for (const [k, v] of Object.entries(value)) {
    const key = prefix ? `${prefix}.${k}` : k;
    refuseForbiddenKey(k, key, file);
    if (isObj(v)) flatten(v, key, out, file);
    else out.push([key, v]);
  }
}

/**
 * What the cluster's files left to the scenario's defaults: the nodes and zones without Node
 * objects or a kind cluster, the workloads without Deployments, StatefulSets ... (kubecheck's own
 * configs alone default nothing unasked: their keys are the parameters). Each note is added to
 * the notes once.
 */
function defaults(c: Collector, sources: readonly ImportSource[]): Record<string, string> {
  const out = record() as Record<string, string>;
  if (!sources.some((s) => s.type !== 'kubecheck')) return out;
  const nodes = !c.values.has('cluster.nodes');
  const zones = !c.values.has('cluster.zones');
  if (nodes || zones) {
    const which = nodes && zones ? 'cluster.nodes and cluster.zones are' : nodes ? 'cluster.nodes is' : 'cluster.zones is';
    const note = `defaulted: the files hold no Node objects (kubectl get nodes -o yaml) nor a cluster definition (kind, kops, Cluster API, k3d, eksctl), so ${which} the scenario's default (kubecheck list parameters)`;
    if (nodes) out['cluster.nodes'] = note;
    if (zones) out['cluster.zones'] = note;
    c.notes.push(note);
  }
  if (!c.values.has('cluster.workloads')) {
    const note = "defaulted: the files hold no Deployment, ReplicaSet, StatefulSet or DaemonSet, so the scenario's own workloads are checked";
    out['cluster.workloads'] = note;
    c.notes.push(note);
  }
  return out;
}

/**
 * Reads the sources in order (a later file overrides an earlier one, with a note) into one
 * kubecheck config. kubecheck's own keys are passed through as written; `resolveConfig` checks them.
 */
export function importSources(sources: readonly ImportSource[]): Imported {
  const c = new Collector();
  const nodes: NodeInput[] = [];
  const found: WorkloadInput[] = [];
  for (const s of sources) {
    if (s.type === 'kubecheck') {
      const entries: [string, unknown][] = [];
      flatten(s.value, '', entries, s.file);
      for (const [k, v] of entries) {
        if (k === 'scenario') {
          if (typeof v !== 'string' || v.trim() === '') fail(ToolErrorCode.malformedConfig, `${s.file}: "scenario" must be a scenario name (e.g. scenario: node-partition), got ${show(v)}`);
          if (c.scenario !== undefined && c.scenario !== v) bad(s.file, 'scenario', `"${String(v)}" disagrees with "${c.scenario}" named in an earlier file`);
          c.scenario = v as string;
        } else c.set(k, v, `${s.file}: ${k}`);
      }
    } else if (s.type === 'flags') {
      flags(c, s.file, s.line);
      c.notes.push(...(s.notes ?? []));
    }
    else if (s.type === 'k3s') k3sConfig(c, s.file, s.value);
    else {
      c.objects = 0;
      c.unknown = 0;
      c.firstUnknown = undefined;
      s.documents.forEach((d, i) => object(c, s.file, d, nodes, found, s.documents.length > 1 ? `document ${i + 1}: ` : ''));
      // A file named on its own of which kubecheck reads nothing is most likely not the file meant.
      const first = c.firstUnknown as Collector['firstUnknown'];
      if (!s.inFolder && first !== undefined && c.unknown === c.objects) bad(s.file, first.field, first.why);
    }
  }
  let index: Map<string, number>;
  const grouped = groupNodes(c);
  if (nodes.length === 0 && c.kindNodes.length > 0) {
    index = placeNodes(c, c.kindNodes, c.kindWhat);
  } else if (nodes.length === 0 && grouped.length > 0) {
    index = placeNodes(c, grouped, c.groups.map((g) => `${g.label} (${g.count})`).join(', '));
  } else {
    if (c.kindNodes.length > 0 || grouped.length > 0) c.notes.push(`nodes: the Node objects given are the model's nodes; ${c.kindNodes.length > 0 ? "the kind cluster's nodes are" : "the node groups' nodes are"} not counted again`);
    index = placeNodes(c, nodes);
  }
  workloads(c, found, index);
  nodeLabels(c, nodes.length > 0 ? nodes : c.kindNodes.length > 0 ? c.kindNodes : grouped, index);
  if (c.customObjects.length > 0) {
    // The first of a kind, namespace and name is kept.
    const id = (x: { readonly object: Obj }): string => `${x.object.kind as string}/${((x.object.metadata as Obj).namespace as string | undefined) ?? ''}/${(x.object.metadata as Obj).name as string}`;
    const unique = c.customObjects.filter((x, i) => c.customObjects.findIndex((y) => id(y) === id(x)) === i);
    const kept = unique.slice(0, MAX_OBJECTS);
    if (unique.length > kept.length) c.notes.push(`cluster.objects: ${unique.length} custom resources found, the first ${MAX_OBJECTS} kept (the most the model takes)`);
    c.set('cluster.objects', kept.map((x) => x.object), kept.length === 1 ? kept[0].origin : `${kept.length} custom resources (${kept[0].origin}, ...)`);
    c.notes.push(`cluster.objects: ${kept.length} custom resource${kept.length === 1 ? '' : 's'} kept (with their namespaces: a namespaced one is reconciled as namespace/name); an operator (kubecheck/operator) that declares the kind runs on them, the model's own components ignore them`);
  }
  const config = record();
  const origins = record() as Record<string, string>;
  for (const [k, { value, origin }] of c.values) {
    setPath(config, k, value, origin);
    origins[k] = origin;
  }
  if (c.values.has('cluster.workloads')) for (const [k, origin] of c.fieldOrigins) origins[k] = origin;
  const unlisted = c.notModelledSeen.size - c.notModelled.length;
  const notModelled = unlisted === 0 ? c.notModelled : [...c.notModelled, `... and ${unlisted.toLocaleString('en-US')} more fields not modelled, not listed (the list stops at ${MAX_NOT_MODELLED.toLocaleString('en-US')})`];
  const lines = record() as Record<string, number>;
  for (const [k, line] of c.lines) lines[k] = line;
  return { config, origins, notModelled, notes: c.notes, defaulted: defaults(c, sources), lines, ...(c.scenario === undefined ? {} : { scenario: c.scenario }), ...(c.schedulingCaveats.length > 0 ? { schedulingCaveats: [...new Set(c.schedulingCaveats)] } : {}) };
}
