/**
 * How operators' objects read in timelines, state panes and final states: by kind and name
 * (`Backup nightly`, `Database team-a/orders`), with the metadata a reader follows through a
 * trace (uid, resourceVersion, being deleted, finalizers, owners) and a summary of what the object
 * says (its spec and status, or your `describeObject`'s words).
 *
 * Two forms: one line (`objectLine`, for the one-line description of a state and cached copies
 * in it), and a record (`presentObject`, for a state as people read it: a step's changes then show
 * field by field what changed, `custom.objects[Backup nightly].resourceVersion: rv-1 → rv-2`).
 * Nothing here is fingerprinted or read by a guard.
 */
import { inputText } from '../../checker/escape.js';
import { DELETABLE_KINDS, isStockKind, objectKey, type ApiObject, type CustomStore } from './api.js';

/** `Backup nightly`, `Database team-a/orders`: an object as people name it. */
export const objectLabel = (o: Pick<ApiObject, 'kind' | 'metadata'>): string => `${o.kind} ${objectKey(o.metadata)}`;

/** A JSON value compactly, keys unquoted: `{phase: Done, restarts: 1}`, `[a, b]`, strings bare (quoted when not one safe token, see `inputText`). */
export function compactJson(value: unknown): string {
  if (typeof value === 'string') return inputText(value);
  if (value === undefined) return 'none';
  if (value === null || typeof value !== 'object') return JSON.stringify(value) ?? String(value);
  if (Array.isArray(value)) return `[${value.map(compactJson).join(', ')}]`;
  return `{${Object.entries(value as Record<string, unknown>).map(([k, v]) => `${inputText(k)}: ${compactJson(v)}`).join(', ')}}`;
}

/** An operator's leader-election Lease (`<name>-leader`, as the operator creates it). */
const isLeaderLease = (o: ApiObject): boolean => o.kind === 'Lease' && typeof o.spec === 'object' && o.spec !== null && 'holderIdentity' in o.spec && 'holder' in o.spec;

/** What a leader-election Lease says: which replica holds it (its process's identity is the uid in `holderIdentity`). */
const leaseSummary = (o: ApiObject): string => {
  const spec = (o.spec ?? {}) as { holder?: string; leaseTransitions?: number };
  const transitions = spec.leaseTransitions ?? 0;
  return `held by ${spec.holder || 'none'}${transitions > 0 ? `, ${transitions >= 2 ? '2 or more transitions' : '1 transition'}` : ''}`;
};

/** What one of the cluster's Pods says, in brief: `on node-1, Running, Ready`, `not scheduled, Pending`. */
const podSummary = (o: ApiObject): string => {
  const node = (o.spec as { nodeName?: string } | undefined)?.nodeName ?? '';
  const status = o.status as { phase?: string; conditions?: readonly { type: string; status: string }[] } | undefined;
  const ready = status?.conditions?.find((c) => c.type === 'Ready')?.status;
  return [node === '' ? 'not scheduled' : `on ${node}`, status?.phase ?? 'no status', ...(ready === undefined ? [] : [ready === 'True' ? 'Ready' : 'not Ready'])].join(', ');
};

/** The default summary of what an object says: `spec {…} status {…}`, each part only when set. */
export function defaultSummary(o: ApiObject): string {
  if (isLeaderLease(o)) return leaseSummary(o);
  // A Pod is always one of the cluster's own: no operator may declare the kind.
  if (o.kind === 'Pod') return podSummary(o);
  const parts: string[] = [];
  if (o.spec !== undefined && !(typeof o.spec === 'object' && o.spec !== null && Object.keys(o.spec).length === 0)) parts.push(`spec ${compactJson(o.spec)}`);
  if (o.status !== undefined) parts.push(`status ${compactJson(o.status)}`);
  return parts.join(' ');
}

/** Whether a reader needs an object's uid: the cluster's Nodes and workloads have one per name, which says nothing. */
const showsUid = (o: ApiObject): boolean => o.metadata.uid !== '' && (!isStockKind(o.kind) || DELETABLE_KINDS.includes(o.kind));

/**
 * The resourceVersion a reader follows: an operator's own objects'; the cluster's own objects'
 * is a fingerprint of what they show (`contentVersion` in api.ts), which says nothing more.
 */
export const shownVersion = (o: ApiObject): string => (isStockKind(o.kind) ? '' : o.metadata.resourceVersion);

/** An owner reference as people read it: `WorkerSet db (uid-1, controller)`. */
const ownerText = (r: { readonly kind: string; readonly name: string; readonly uid: string; readonly controller?: boolean }): string => `${r.kind} ${r.name} (${r.uid}${r.controller === true ? ', controller' : ''})`;

/** The metadata a reader follows, in order: uid, resourceVersion, generation past 1, deleting, finalizers, labels, annotations, owners. */
function metaParts(o: ApiObject): string[] {
  const m = o.metadata;
  const parts: string[] = [];
  if (showsUid(o)) parts.push(m.uid);
  if (shownVersion(o) !== '') parts.push(m.resourceVersion);
  if (m.generation > 1) parts.push(`generation ${m.generation}`);
  if (m.deletionTimestamp !== undefined) parts.push('deleting');
  if ((m.finalizers ?? []).length > 0) parts.push(`finalizers [${m.finalizers!.map(inputText).join(', ')}]`);
  const labels = Object.entries(m.labels ?? {});
  if (labels.length > 0) parts.push(`labels ${labels.map(([k, v]) => `${inputText(k)}=${inputText(v)}`).join(',')}`);
  const annotations = Object.entries(m.annotations ?? {});
  if (annotations.length > 0) parts.push(`annotations ${annotations.map(([k, v]) => `${inputText(k)}=${inputText(v)}`).join(',')}`);
  for (const r of m.ownerReferences ?? []) parts.push(`owner ${ownerText(r)}`);
  return parts;
}

/**
 * One line: `Backup nightly (uid-1, rv-3, deleting, finalizers [x]) spec {database: orders} status
 * {phase: Done}`; `summary` (a `describeObject`'s words) replaces the spec and status.
 */
export function objectLine(o: ApiObject, summary?: string): string {
  const meta = metaParts(o);
  const says = summary ?? defaultSummary(o);
  return `${objectLabel(o)}${meta.length === 0 ? '' : ` (${meta.join(', ')})`}${says === '' ? '' : `${summary === undefined ? ' ' : ': '}${says}`}`;
}

/**
 * An object as a record people read, named by kind and key (a list of them diffs element by
 * element): its metadata flat (uid, resourceVersion, generation, deleting, finalizers, labels,
 * annotations, owners), then its spec and status, or `summary` in their place when you describe the kind.
 */
export function presentObject(o: ApiObject, summary?: string): Record<string, unknown> {
  const m = o.metadata;
  return {
    name: objectLabel(o),
    ...(showsUid(o) ? { uid: m.uid } : {}),
    ...(shownVersion(o) === '' ? {} : { resourceVersion: m.resourceVersion }),
    ...(m.generation > 1 ? { generation: m.generation } : {}),
    ...(m.deletionTimestamp === undefined ? {} : { deleting: true }),
    ...((m.finalizers ?? []).length === 0 ? {} : { finalizers: m.finalizers }),
    ...(m.labels === undefined || Object.keys(m.labels).length === 0 ? {} : { labels: m.labels }),
    ...(m.annotations === undefined || Object.keys(m.annotations).length === 0 ? {} : { annotations: m.annotations }),
    ...((m.ownerReferences ?? []).length === 0 ? {} : { owners: m.ownerReferences!.map(ownerText) }),
    ...(summary !== undefined ? { summary } : isLeaderLease(o) ? { summary: leaseSummary(o) } : o.kind === 'Pod' ? { summary: podSummary(o) } : { ...(o.spec === undefined ? {} : { spec: o.spec }), ...(o.status === undefined ? {} : { status: o.status }) }),
  };
}

/** A summary hook: the words for one object, or undefined for the default. */
export type ObjectSummary = (o: ApiObject) => string | undefined;

/** Every object of the store, by kind then key (the store keeps each kind's list sorted). */
export function storeObjects(store: CustomStore): ApiObject[] {
  return Object.keys(store.objects).sort().flatMap((k) => store.objects[k]);
}

/**
 * The store as people read it: every object by name (`objects[Backup nightly]`), the calls made
 * outside the cluster, the users' commands left, and what else it records; the counters that only
 * draw fresh uids and resourceVersions are left out, and the undelivered watch events are shown
 * with the operator that has yet to hear them.
 */
export function presentStore(store: CustomStore, summary: ObjectSummary = () => undefined): Record<string, unknown> {
  const { objects: _o, nextUid: _u, nextResourceVersion: _r, watches: _w, calls, clients, ...rest } = store;
  return { objects: storeObjects(store).map((o) => presentObject(o, summary(o))), calls, clients, ...rest };
}
