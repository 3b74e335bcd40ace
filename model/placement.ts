/**
 * Workload-level scheduling constraints, filtered as the default profile's Filter plugins do
 * (kubernetes/kubernetes:pkg/scheduler/framework/plugins):
 *
 * - **NodeAffinity** (`nodeaffinity/node_affinity.go`, component-helpers `nodeaffinity`): the
 *   pod's `nodeSelector` (every pair a label of the node) and the required node affinity's
 *   `nodeSelectorTerms` (any term, all of its expressions: In, NotIn, Exists, DoesNotExist, Gt,
 *   Lt) against the node's labels. Static: node labels do not change in the model.
 * - **InterPodAffinity** (`interpodaffinity/filtering.go`): the incoming pod's required
 *   anti-affinity terms (no pod matching a term in the node's topology domain), its required
 *   affinity terms (every term has a pod matching all terms in the node's domain, unless no pod
 *   matches them anywhere and the pod matches its own terms: the first of a group), and the
 *   existing pods' required anti-affinity terms that match the incoming pod. The pods counted are
 *   the scheduler snapshot's: every pod assigned to a node whose Node object exists, **Terminating
 *   ones included** (the scheduler's cache adds assigned pods on their informer events whatever
 *   their deletionTimestamp and removes them only on the Delete event: `eventhandlers.go`), so a
 *   pod Terminating on a dead node keeps its domain closed to pods that must avoid it until its
 *   object is gone.
 * - **PodTopologySpread** (`podtopologyspread/filtering.go`, `common.go`), constraints with
 *   `whenUnsatisfiable: DoNotSchedule`: the domains are those of the nodes that pass the pod's
 *   node affinity (nodeAffinityPolicy Honor, the default) and carry every constraint's topology
 *   key (taints are ignored: nodeTaintsPolicy Ignore, the default); the pods counted match the
 *   selector in the pod's namespace and are not Terminating (`countPodsMatchSelector`: "Bypass
 *   terminating Pod", #87621); a node fails when its domain's count + 1 (if the pod matches its
 *   own selector) − the least count over the domains (0 when there are fewer than minDomains)
 *   exceeds maxSkew, or when it lacks a topology key.
 *
 * Label selectors are matched against the workloads' pod template labels (`labels`) in their
 * namespaces: a pod of no workload of the config (an operator's) matches no selector.
 */
import type { ClusterConfig, LabelSelector, NodeSelectorRequirement, NodeSelectorTerm, PodAffinityTerm, TopologySpreadConstraint, WorkloadAffinity, WorkloadConfig } from './config.js';
import { nodeLabelsOf } from './config.js';

type Labels = Readonly<Record<string, string>>;

/** Whether `labels` satisfy a label selector; a null selector selects nothing, `{}` everything. */
export function selectorMatches(sel: LabelSelector | null, labels: Labels): boolean {
  if (sel === null) return false;
  for (const [k, v] of Object.entries(sel.matchLabels ?? {})) if (labels[k] !== v) return false;
  for (const r of sel.matchExpressions ?? []) {
    const has = Object.hasOwn(labels, r.key);
    const values = r.values ?? [];
    if (r.operator === 'In' && !(has && values.includes(labels[r.key]))) return false;
    if (r.operator === 'NotIn' && has && values.includes(labels[r.key])) return false;
    if (r.operator === 'Exists' && !has) return false;
    if (r.operator === 'DoesNotExist' && has) return false;
  }
  return true;
}

/** Whether a node's labels satisfy a NodeSelectorRequirement (`Gt`/`Lt`: integer label values). */
function nodeRequirement(r: NodeSelectorRequirement, labels: Labels): boolean {
  const has = Object.hasOwn(labels, r.key);
  const values = r.values ?? [];
  switch (r.operator) {
    case 'In':
      return has && values.includes(labels[r.key]);
    case 'NotIn':
      return !has || !values.includes(labels[r.key]);
    case 'Exists':
      return has;
    case 'DoesNotExist':
      return !has;
    case 'Gt':
    case 'Lt': {
      if (!has || !/^-?\d+$/.test(labels[r.key])) return false;
      const a = Number(labels[r.key]);
      const b = Number(values[0]);
      return r.operator === 'Gt' ? a > b : a < b;
    }
  }
}

/** NodeAffinity's filter: the nodeSelector's pairs and any of the required terms (a term without expressions matches no node). */
export function nodeMatches(w: Pick<WorkloadConfig, 'nodeSelector' | 'affinity'>, labels: Labels): boolean {
  for (const [k, v] of Object.entries(w.nodeSelector ?? {})) if (labels[k] !== v) return false;
  const terms: readonly NodeSelectorTerm[] | undefined = w.affinity?.nodeAffinity?.requiredDuringSchedulingIgnoredDuringExecution.nodeSelectorTerms;
  if (terms === undefined) return true;
  return terms.some((t) => t.matchExpressions.length > 0 && t.matchExpressions.every((r) => nodeRequirement(r, labels)));
}

/** A pod (anti-)affinity term compiled: the workloads whose pods it selects, each node's topology domain (-1: no such label). */
interface Term {
  readonly selects: ReadonlySet<string>;
  readonly domain: readonly number[];
}

interface Spread {
  readonly maxSkew: number;
  readonly minDomains: number;
  readonly selects: ReadonlySet<string>;
  readonly selfMatch: boolean;
  readonly domain: readonly number[];
}

/** A workload's constraints compiled against the cluster's nodes and workloads (static). */
export interface Placement {
  /** Node n passes the NodeAffinity filter (nodeSelector and required node affinity). */
  readonly nodeOk: readonly boolean[];
  /** No inter-pod or spread constraint concerns this workload's pods: only `nodeOk` filters. */
  readonly podFree: boolean;
  readonly affinity: readonly Term[];
  /** The pod matches all of its own affinity terms (the first pod of a group may go anywhere). */
  readonly selfAffinity: boolean;
  readonly antiAffinity: readonly Term[];
  /** Other pods' required anti-affinity terms that select this workload's pods: by the owning workload. */
  readonly existingAnti: readonly (Term & { readonly owner: string })[];
  readonly spread: readonly Spread[];
  /** Every node carries every spread constraint's topology key and passes `nodeOk`: the nodes whose pods the spread counts. */
  readonly spreadEligible: readonly boolean[];
}

const namespaceOf = (w: Pick<WorkloadConfig, 'namespace'>): string => w.namespace ?? 'default';

/** Each node's domain for a topology key: an index per distinct label value, -1 where the node has none. */
function domains(labels: readonly Labels[], key: string): number[] {
  const ids = new Map<string, number>();
  return labels.map((l) => {
    if (!Object.hasOwn(l, key)) return -1;
    let id = ids.get(l[key]);
    if (id === undefined) ids.set(l[key], (id = ids.size));
    return id;
  });
}

function compileTerm(owner: WorkloadConfig, t: PodAffinityTerm, all: readonly WorkloadConfig[], labels: readonly Labels[]): Term {
  const namespaces = t.namespaces !== undefined && t.namespaces.length > 0 ? t.namespaces : [namespaceOf(owner)];
  return { selects: new Set(all.filter((w) => namespaces.includes(namespaceOf(w)) && selectorMatches(t.labelSelector, w.labels ?? {})).map((w) => w.name)), domain: domains(labels, t.topologyKey) };
}

const required = (a: WorkloadAffinity | undefined, kind: 'podAffinity' | 'podAntiAffinity'): readonly PodAffinityTerm[] => a?.[kind]?.requiredDuringSchedulingIgnoredDuringExecution ?? [];

/** The placement of every workload of `config`, by name. */
export function compilePlacements(config: ClusterConfig): ReadonlyMap<string, Placement> {
  const all = config.cluster.workloads;
  const labels = Array.from({ length: config.cluster.nodes }, (_, n) => nodeLabelsOf(config, n));
  const out = new Map<string, Placement>();
  for (const w of all) {
    const nodeOk = labels.map((l) => nodeMatches(w, l));
    const affinity = required(w.affinity, 'podAffinity').map((t) => compileTerm(w, t, all, labels));
    const own = (t: PodAffinityTerm): boolean => (t.namespaces === undefined || t.namespaces.length === 0 || t.namespaces.includes(namespaceOf(w))) && selectorMatches(t.labelSelector, w.labels ?? {});
    const antiAffinity = required(w.affinity, 'podAntiAffinity').map((t) => compileTerm(w, t, all, labels));
    const existingAnti = all.flatMap((o) => required(o.affinity, 'podAntiAffinity').map((t) => ({ ...compileTerm(o, t, all, labels), owner: o.name })).filter((t) => t.selects.has(w.name)));
    const constraints: readonly TopologySpreadConstraint[] = w.topologySpreadConstraints ?? [];
    const spread = constraints.map((c) => ({
      maxSkew: c.maxSkew,
      minDomains: c.minDomains ?? 1,
      selects: new Set(all.filter((o) => namespaceOf(o) === namespaceOf(w) && selectorMatches(c.labelSelector, o.labels ?? {})).map((o) => o.name)),
      selfMatch: selectorMatches(c.labelSelector, w.labels ?? {}),
      domain: domains(labels, c.topologyKey),
    }));
    const spreadEligible = labels.map((_, n) => nodeOk[n] && spread.every((c) => c.domain[n] >= 0));
    out.set(w.name, {
      nodeOk,
      podFree: affinity.length === 0 && antiAffinity.length === 0 && existingAnti.length === 0 && spread.length === 0,
      affinity,
      selfAffinity: required(w.affinity, 'podAffinity').every(own),
      antiAffinity,
      existingAnti,
      spread,
      spreadEligible,
    });
  }
  return out;
}

/** The pods the scheduler's snapshot holds: assigned to a node whose Node object exists, Terminating ones included. */
interface PodLike {
  readonly name: string;
  readonly workload: string;
  readonly nodeName: number;
  readonly deletion: unknown;
}

/**
 * Whether placement `pl` lets a pod go on node n, given the pods and Node objects (null: deleted)
 * the scheduler sees: InterPodAffinity and PodTopologySpread (NodeAffinity is `pl.nodeOk`, asked first).
 */
export function podConstraintsAllow(pl: Placement, pods: readonly PodLike[], nodes: readonly unknown[], self: string, n: number): boolean {
  if (pl.podFree) return true;
  const counted = (p: PodLike): boolean => p.nodeName >= 0 && nodes[p.nodeName] !== null && p.name !== self;
  // Existing pods' anti-affinity, then the pod's own anti-affinity: no selected pod in the node's domain.
  for (const t of pl.existingAnti) {
    const d = t.domain[n];
    if (d < 0) continue;
    for (const p of pods) if (p.workload === t.owner && counted(p) && t.domain[p.nodeName] === d) return false;
  }
  for (const t of pl.antiAffinity) {
    const d = t.domain[n];
    if (d < 0) continue;
    for (const p of pods) if (t.selects.has(p.workload) && counted(p) && t.domain[p.nodeName] === d) return false;
  }
  if (pl.affinity.length > 0) {
    // Counted are pods that match every term (updateWithAffinityTerms), in each term's domain.
    const matchesAll = (p: PodLike): boolean => counted(p) && pl.affinity.every((t) => t.selects.has(p.workload));
    const here = pl.affinity.every((t) => t.domain[n] >= 0 && pods.some((p) => matchesAll(p) && t.domain[p.nodeName] === t.domain[n]));
    if (!here) {
      const anywhere = pods.some((p) => matchesAll(p) && pl.affinity.some((t) => t.domain[p.nodeName] >= 0));
      if (anywhere || !pl.selfAffinity) return false;
    }
  }
  for (const c of pl.spread) {
    const d = c.domain[n];
    if (d < 0) return false;
    const counts = new Map<number, number>();
    for (let m = 0; m < pl.spreadEligible.length; m++) if (pl.spreadEligible[m] && nodes[m] !== null && !counts.has(c.domain[m])) counts.set(c.domain[m], 0);
    for (const p of pods) {
      if (p.deletion !== null || !counted(p) || !pl.spreadEligible[p.nodeName] || !c.selects.has(p.workload)) continue;
      counts.set(c.domain[p.nodeName], (counts.get(c.domain[p.nodeName]) ?? 0) + 1);
    }
    const least = counts.size < c.minDomains ? 0 : Math.min(...counts.values());
    if ((counts.get(d) ?? 0) + (c.selfMatch ? 1 : 0) - least > c.maxSkew) return false;
  }
  return true;
}

// ---- reading the constraints as Kubernetes writes them --------------------------------------

/** Reports a problem at a field (relative to the value read) and does not return. */
export type Bad = (field: string, problem: string) => never;

const isRecord = (v: unknown): v is Readonly<Record<string, unknown>> => v !== null && typeof v === 'object' && !Array.isArray(v);

function onlyFields(raw: Readonly<Record<string, unknown>>, allowed: readonly string[], bad: Bad, what: string): void {
  for (const k of Object.keys(raw)) if (!allowed.includes(k)) bad(`.${k}`, `not a field the model reads in ${what} (it reads ${allowed.join(', ')})`);
}

/** A map of label: value (strings). */
export function parseLabels(raw: unknown, bad: Bad): Record<string, string> {
  if (!isRecord(raw)) bad('', `expected a map of label: value, got ${JSON.stringify(raw)}`);
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(raw as Record<string, unknown>)) {
    if (typeof v !== 'string') bad(`.${k}`, `expected a string value (quote it), got ${JSON.stringify(v)}`);
    out[k] = v as string;
  }
  return out;
}

function parseValues(raw: unknown, bad: Bad): string[] | undefined {
  if (raw === undefined || raw === null) return undefined;
  if (!Array.isArray(raw) || raw.some((v) => typeof v !== 'string')) bad('.values', `expected a list of strings, got ${JSON.stringify(raw)}`);
  return raw as string[];
}

function requirement<O extends string>(raw: unknown, operators: readonly O[], bad: Bad): { key: string; operator: O; values?: string[] } {
  if (!isRecord(raw)) bad('', `expected { key, operator, values }, got ${JSON.stringify(raw)}`);
  const r = raw as Record<string, unknown>;
  onlyFields(r, ['key', 'operator', 'values'], bad, 'a requirement');
  if (typeof r.key !== 'string' || r.key === '') bad('.key', 'expected a label key');
  if (!operators.includes(r.operator as O)) bad('.operator', `expected one of ${operators.join(', ')}, got ${JSON.stringify(r.operator)}`);
  const operator = r.operator as O;
  const values = parseValues(r.values, bad) ?? [];
  if ((operator === 'In' || operator === 'NotIn') && values.length === 0) bad('.values', `must be non-empty when operator is ${operator}`);
  if ((operator === 'Exists' || operator === 'DoesNotExist') && values.length > 0) bad('.values', `must be empty when operator is ${operator}`);
  if ((operator === 'Gt' || operator === 'Lt') && (values.length !== 1 || !/^-?\d+$/.test(values[0]))) bad('.values', `must be one integer when operator is ${operator}`);
  return { key: r.key as string, operator, ...(values.length > 0 ? { values } : {}) };
}

function list(raw: unknown, bad: Bad, what: string): unknown[] {
  if (!Array.isArray(raw)) bad('', `expected a list of ${what}, got ${JSON.stringify(raw)}`);
  return raw as unknown[];
}

/** A LabelSelector (`matchLabels`, `matchExpressions`); absent or null: null (selects nothing). */
export function parseLabelSelector(raw: unknown, bad: Bad): LabelSelector | null {
  if (raw === undefined || raw === null) return null;
  if (!isRecord(raw)) bad('', `expected a label selector { matchLabels, matchExpressions }, got ${JSON.stringify(raw)}`);
  const r = raw as Record<string, unknown>;
  onlyFields(r, ['matchLabels', 'matchExpressions'], bad, 'a label selector');
  const matchLabels = r.matchLabels === undefined || r.matchLabels === null ? undefined : parseLabels(r.matchLabels, (f, p) => bad(`.matchLabels${f}`, p));
  const exprs = r.matchExpressions === undefined || r.matchExpressions === null ? undefined : list(r.matchExpressions, (f, p) => bad(`.matchExpressions${f}`, p), 'requirements');
  const matchExpressions = exprs?.map((e, i) => requirement(e, ['In', 'NotIn', 'Exists', 'DoesNotExist'] as const, (f, p) => bad(`.matchExpressions[${i}]${f}`, p)));
  return { ...(matchLabels ? { matchLabels } : {}), ...(matchExpressions ? { matchExpressions } : {}) };
}

/** A required node affinity's `nodeSelectorTerms` (matchExpressions only). */
export function parseNodeSelectorTerms(raw: unknown, bad: Bad): NodeSelectorTerm[] {
  const terms = list(raw, bad, 'node selector terms');
  if (terms.length === 0) bad('', 'must have at least one term');
  return terms.map((t, i) => {
    const at: Bad = (f, p) => bad(`[${i}]${f}`, p);
    if (!isRecord(t)) at('', `expected { matchExpressions }, got ${JSON.stringify(t)}`);
    onlyFields(t as Record<string, unknown>, ['matchExpressions'], at, 'a node selector term');
    const exprs = (t as Record<string, unknown>).matchExpressions;
    const items = exprs === undefined || exprs === null ? [] : list(exprs, (f, p) => at(`.matchExpressions${f}`, p), 'requirements');
    return { matchExpressions: items.map((e, j) => requirement(e, ['In', 'NotIn', 'Exists', 'DoesNotExist', 'Gt', 'Lt'] as const, (f, p) => at(`.matchExpressions[${j}]${f}`, p))) };
  });
}

/** A PodAffinityTerm (`labelSelector`, `topologyKey`, `namespaces`). */
export function parsePodAffinityTerm(raw: unknown, bad: Bad): PodAffinityTerm {
  if (!isRecord(raw)) bad('', `expected { labelSelector, topologyKey }, got ${JSON.stringify(raw)}`);
  const r = raw as Record<string, unknown>;
  onlyFields(r, ['labelSelector', 'topologyKey', 'namespaces'], bad, 'a pod affinity term');
  if (typeof r.topologyKey !== 'string' || r.topologyKey === '') bad('.topologyKey', 'expected a node label key (e.g. kubernetes.io/hostname); required');
  const namespaces = r.namespaces === undefined || r.namespaces === null ? undefined : list(r.namespaces, (f, p) => bad(`.namespaces${f}`, p), 'namespaces');
  if (namespaces?.some((n) => typeof n !== 'string')) bad('.namespaces', 'expected a list of namespace names');
  return { labelSelector: parseLabelSelector(r.labelSelector, (f, p) => bad(`.labelSelector${f}`, p)), topologyKey: r.topologyKey as string, ...(namespaces && namespaces.length > 0 ? { namespaces: namespaces as string[] } : {}) };
}

/** A TopologySpreadConstraint with whenUnsatisfiable DoNotSchedule. */
export function parseSpreadConstraint(raw: unknown, bad: Bad): TopologySpreadConstraint {
  if (!isRecord(raw)) bad('', `expected { maxSkew, topologyKey, whenUnsatisfiable, labelSelector }, got ${JSON.stringify(raw)}`);
  const r = raw as Record<string, unknown>;
  onlyFields(r, ['maxSkew', 'topologyKey', 'whenUnsatisfiable', 'labelSelector', 'minDomains'], bad, 'a topology spread constraint');
  if (!Number.isSafeInteger(r.maxSkew) || (r.maxSkew as number) < 1) bad('.maxSkew', `expected an integer ≥ 1, got ${JSON.stringify(r.maxSkew)}`);
  if (typeof r.topologyKey !== 'string' || r.topologyKey === '') bad('.topologyKey', 'expected a node label key; required');
  if (r.whenUnsatisfiable !== 'DoNotSchedule') bad('.whenUnsatisfiable', `the model filters DoNotSchedule constraints only (ScheduleAnyway is a score), got ${JSON.stringify(r.whenUnsatisfiable)}`);
  if (r.minDomains !== undefined && r.minDomains !== null && (!Number.isSafeInteger(r.minDomains) || (r.minDomains as number) < 1)) bad('.minDomains', `expected an integer ≥ 1, got ${JSON.stringify(r.minDomains)}`);
  return {
    maxSkew: r.maxSkew as number,
    topologyKey: r.topologyKey as string,
    whenUnsatisfiable: 'DoNotSchedule',
    labelSelector: parseLabelSelector(r.labelSelector, (f, p) => bad(`.labelSelector${f}`, p)),
    ...(r.minDomains === undefined || r.minDomains === null ? {} : { minDomains: r.minDomains as number }),
  };
}

/** The required parts of an affinity, as the config writes them (`requiredDuringSchedulingIgnoredDuringExecution` only). */
export function parseAffinity(raw: unknown, bad: Bad): WorkloadAffinity {
  if (!isRecord(raw)) bad('', `expected { nodeAffinity, podAffinity, podAntiAffinity }, got ${JSON.stringify(raw)}`);
  const r = raw as Record<string, unknown>;
  onlyFields(r, ['nodeAffinity', 'podAffinity', 'podAntiAffinity'], bad, 'an affinity');
  const REQ = 'requiredDuringSchedulingIgnoredDuringExecution';
  const part = (k: string): Record<string, unknown> | undefined => {
    const v = r[k];
    if (v === undefined || v === null) return undefined;
    if (!isRecord(v)) bad(`.${k}`, `expected { ${REQ} }`);
    onlyFields(v as Record<string, unknown>, [REQ], (f, p) => bad(`.${k}${f}`, p), `${k} (preferred terms are scores: leave them out)`);
    return v as Record<string, unknown>;
  };
  const node = part('nodeAffinity');
  const pod = part('podAffinity');
  const anti = part('podAntiAffinity');
  const nodeReq = node?.[REQ];
  if (nodeReq !== undefined && nodeReq !== null && (!isRecord(nodeReq) || Object.keys(nodeReq).some((k) => k !== 'nodeSelectorTerms'))) bad(`.nodeAffinity.${REQ}`, 'expected { nodeSelectorTerms }');
  const terms = (v: Record<string, unknown> | undefined, k: string): PodAffinityTerm[] | undefined =>
    v?.[REQ] === undefined || v[REQ] === null ? undefined : list(v[REQ], (f, p) => bad(`.${k}.${REQ}${f}`, p), 'pod affinity terms').map((t, i) => parsePodAffinityTerm(t, (f, p) => bad(`.${k}.${REQ}[${i}]${f}`, p)));
  const podTerms = terms(pod, 'podAffinity');
  const antiTerms = terms(anti, 'podAntiAffinity');
  return {
    ...(isRecord(nodeReq) ? { nodeAffinity: { [REQ]: { nodeSelectorTerms: parseNodeSelectorTerms(nodeReq.nodeSelectorTerms, (f, p) => bad(`.nodeAffinity.${REQ}.nodeSelectorTerms${f}`, p)) } } } : {}),
    ...(podTerms ? { podAffinity: { [REQ]: podTerms } } : {}),
    ...(antiTerms ? { podAntiAffinity: { [REQ]: antiTerms } } : {}),
  } as WorkloadAffinity;
}

/** Every topology key a workload's pod affinity terms and spread constraints read. */
export function topologyKeys(workloads: readonly WorkloadConfig[]): ReadonlySet<string> {
  const out = new Set<string>();
  for (const w of workloads) {
    for (const t of [...required(w.affinity, 'podAffinity'), ...required(w.affinity, 'podAntiAffinity')]) out.add(t.topologyKey);
    for (const c of w.topologySpreadConstraints ?? []) out.add(c.topologyKey);
  }
  return out;
}

/** Every pod label key the label selectors of workloads' pod (anti-)affinity terms and spread constraints read. */
export function podLabelKeysRead(workloads: readonly WorkloadConfig[]): ReadonlySet<string> {
  const out = new Set<string>();
  const add = (sel: LabelSelector | null): void => {
    for (const k of Object.keys(sel?.matchLabels ?? {})) out.add(k);
    for (const r of sel?.matchExpressions ?? []) out.add(r.key);
  };
  for (const w of workloads) {
    for (const t of [...required(w.affinity, 'podAffinity'), ...required(w.affinity, 'podAntiAffinity')]) add(t.labelSelector);
    for (const c of w.topologySpreadConstraints ?? []) add(c.labelSelector);
  }
  return out;
}

/** Every node label key a workload's nodeSelector, node affinity, pod affinity or spread constraints read. */
export function labelKeysRead(workloads: readonly WorkloadConfig[]): ReadonlySet<string> {
  const out = new Set<string>(topologyKeys(workloads));
  for (const w of workloads) {
    for (const k of Object.keys(w.nodeSelector ?? {})) out.add(k);
    for (const t of w.affinity?.nodeAffinity?.requiredDuringSchedulingIgnoredDuringExecution.nodeSelectorTerms ?? []) for (const r of t.matchExpressions) out.add(r.key);
  }
  return out;
}
