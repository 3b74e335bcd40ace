/**
 * API objects of kinds the cluster's users declare (custom resources, ConfigMaps, Jobs...), kept
 * as the kube-apiserver keeps them, with the rules it enforces on writes:
 * - `metadata.uid` is new for every object created, never reused within a run; a create of a
 *   name that exists (even one being deleted) fails with AlreadyExists;
 * - every change gets a new `metadata.resourceVersion`; an update (and a patch or delete given a
 *   resourceVersion or uid precondition) whose precondition no longer matches fails with 409
 *   Conflict; an update of a custom resource must carry one;
 * - `metadata.generation` counts changes of `spec` (not of `status`, which is its own
 *   subresource: `update`/`patch` leave it, `updateStatus`/`patchStatus` change only it); it is
 *   a real count, so an operator that changes a spec forever has an infinite space (a Lease keeps
 *   generation 1, as its strategy does not count);
 * - a delete of an object with finalizers sets `metadata.deletionTimestamp` and keeps the object
 *   until the last finalizer is removed; no finalizer can be added once it is set;
 * - objects whose owner (by `ownerReferences[].uid`) is gone are deleted by the garbage collector
 *   (background propagation, the default for custom resources), see `garbageCollector.ts`.
 *
 * Sources: k8s.io/apiserver/pkg/registry/generic/registry/store.go (Create, Update, Delete,
 * finalizers and deletionTimestamp), k8s.io/apiextensions-apiserver/pkg/registry/customresource
 * (strategy: generation on spec change, status subresource), pkg/controller/garbagecollector.
 *
 * Every change is also a watch event for each watcher of the kind, in order. uids and
 * resourceVersions are opaque strings (`uid-N`, `rv-N`): compare them for equality only. The
 * fingerprint renames them by rank (see `opaqueView`), so two states that differ only in which
 * numbers were drawn are one state; that is exact because nothing in the model reads them
 * otherwise and a new one is always greater than every one present.
 */
import type { JsonValue } from '../../checker/index.js';
import { nodeName, podRunningAndReady, podWith, replicasOf, type ClaimObject, type ClusterState, type NodeObject, type PodObject } from '../state.js';

/** An owner of an object: the garbage collector deletes the object once no object of `kind` has `uid`. */
export interface OwnerReference {
  readonly kind: string;
  readonly name: string;
  readonly uid: string;
  /** The managing controller: its events map to this owner's reconcile request. */
  readonly controller?: boolean;
}

/** `metadata` as the API keeps it. */
export interface ObjectMeta {
  readonly name: string;
  /** Its namespace; absent for a cluster-scoped object (or one you address by name alone). */
  readonly namespace?: string;
  readonly uid: string;
  readonly resourceVersion: string;
  readonly generation: number;
  readonly labels?: Readonly<Record<string, string>>;
  /** Annotations: yours, those operators wrote on Pods and Nodes, and the model's (a claim's `volume.kubernetes.io/selected-node`). */
  readonly annotations?: Readonly<Record<string, string>>;
  readonly finalizers?: readonly string[];
  readonly ownerReferences?: readonly OwnerReference[];
  /** Set (to `"set"`: the model keeps no wall clock) once the object is being deleted. */
  readonly deletionTimestamp?: string;
}

/** An object of a declared kind. `spec` and `status` are yours (JSON). */
export interface ApiObject {
  readonly kind: string;
  readonly metadata: ObjectMeta;
  readonly spec?: JsonValue;
  readonly status?: JsonValue;
}

/** What a create (or a manifest) gives: a name and what you choose; the API fills in the rest. */
export interface ObjectInit {
  readonly kind: string;
  readonly metadata: { readonly name: string; readonly namespace?: string; readonly labels?: Readonly<Record<string, string>>; readonly annotations?: Readonly<Record<string, string>>; readonly finalizers?: readonly string[]; readonly ownerReferences?: readonly OwnerReference[] };
  readonly spec?: JsonValue;
  readonly status?: JsonValue;
}

/** A watch event as a client's informer receives it. */
export interface WatchEvent {
  readonly type: 'ADDED' | 'MODIFIED' | 'DELETED';
  readonly object: ApiObject;
}

/** The store of declared kinds, with the external world's record and the watch streams. */
export interface CustomStore {
  /** Objects by kind, each list sorted by name. */
  readonly objects: Readonly<Record<string, readonly ApiObject[]>>;
  readonly nextUid: number;
  readonly nextResourceVersion: number;
  /** Calls to systems outside the cluster (a backup, a cloud API), by call: how many times, saturating at 2. */
  readonly calls: Readonly<Record<string, number>>;
  /** Events not yet delivered, per watcher and kind; a watcher watches the kinds listed here. */
  readonly watches: Readonly<Record<string, Readonly<Record<string, readonly WatchEvent[]>>>>;
  /** Uses left of users' actions (kubectl), by `<operator>/<client>`. */
  readonly clients: Readonly<Record<string, number>>;
  /** The length of a process pause (`faults.processPauseDuration`), for operators' replicas. */
  readonly pauseSeconds?: number;
  /**
   * `informers.watchLag` when above 0: how old an operator's undelivered watch event (or its
   * cache's difference from the cluster's Pods and Nodes) may grow before it is delivered.
   */
  readonly watchLag?: number;
  /** The leader-election identity of each operator replica's current process (a fresh `uid-N` at every start). */
  readonly identities?: Readonly<Record<string, string>>;
  /** Operator replicas cut off from the kube-apiserver (their pod's network), by name. */
  readonly partitioned?: readonly string[];
  /** The labels the model gives each Node (`kubernetes.io/hostname`, `topology.kubernetes.io/zone`, `cluster.nodeLabels`), node-1 first; fixed for a run. */
  readonly nodeLabels?: readonly Readonly<Record<string, string>>[];
  /**
   * The label keys the scheduler reads, when any: of Nodes (nodeSelector, node affinity, topology
   * keys) and of Pods (pod affinity and spread constraints' selectors). The model's scheduler
   * reads the model's labels (a Node's, a pod's template's), so an operator may not write these.
   */
  readonly labelKeysRead?: { readonly node: readonly string[]; readonly pod: readonly string[] };
  /** The cluster's workloads (`cluster.workloads`) as their objects are served; fixed for a run but for `api.scale`. */
  readonly workloads?: readonly WorkloadSpec[];
  /**
   * Set when an operator watches the cluster's Pods: the pods keep whether their kubelet posted
   * them since they started (`PodObject.ready` false), so their objects carry `status.phase`.
   */
  readonly podPhases?: true;
}

/** A workload of the cluster as the API serves its object (a Deployment is its ReplicaSet, of the same name). */
export interface WorkloadSpec {
  readonly kind: 'ReplicaSet' | 'StatefulSet' | 'DaemonSet';
  readonly name: string;
  /** Its pod template's labels beside `app` (`cluster.workloads[].labels`), when given. */
  readonly labels?: Readonly<Record<string, string>>;
  /** The configured `spec.replicas`. */
  readonly replicas: number;
  readonly podManagementPolicy?: 'OrderedReady' | 'Parallel';
  /** A StatefulSet's `volumeClaimTemplates` by name. */
  readonly volumeClaimTemplates?: readonly string[];
  /** A StatefulSet's `persistentVolumeClaimRetentionPolicy`, when not Retain/Retain. */
  readonly persistentVolumeClaimRetentionPolicy?: { readonly whenDeleted: 'Retain' | 'Delete'; readonly whenScaled: 'Retain' | 'Delete' };
}

/** Labels or annotations in a merge patch: a key set to `null` is removed (RFC 7386). */
export type MetaPatch = Readonly<Record<string, string | null>>;

/** A write to the API, or a call outside the cluster, as a controller or a user issues it. */
export type Write =
  | { readonly op: 'create'; readonly object: ObjectInit }
  /** Replaces metadata (labels, annotations, finalizers, ownerReferences) and spec; carries the resourceVersion it read. */
  | { readonly op: 'update'; readonly object: ApiObject }
  /** Replaces status only; carries the resourceVersion it read. */
  | { readonly op: 'updateStatus'; readonly object: ApiObject }
  /**
   * A merge patch of metadata and spec; unconditional unless it names a resourceVersion. Here and
   * below `name` may be the object's key (`namespace/name`, as a request names it) or its name with
   * `namespace` beside it.
   */
  | { readonly op: 'patch'; readonly kind: string; readonly name: string; readonly namespace?: string; readonly patch: { readonly labels?: MetaPatch; readonly annotations?: MetaPatch; readonly finalizers?: readonly string[]; readonly spec?: JsonValue }; readonly resourceVersion?: string }
  /** A merge patch of status; unconditional unless it names a resourceVersion. */
  | { readonly op: 'patchStatus'; readonly kind: string; readonly name: string; readonly namespace?: string; readonly status: JsonValue; readonly resourceVersion?: string }
  /** Of a Pod: graceful (the kubelet stops its containers, then the object goes) unless `gracePeriodSeconds` is 0 (`--grace-period=0 --force`). */
  | { readonly op: 'delete'; readonly kind: string; readonly name: string; readonly namespace?: string; readonly preconditions?: { readonly uid?: string; readonly resourceVersion?: string }; readonly gracePeriodSeconds?: 0 }
  /** A call outside the cluster, recorded in `calls`. */
  | { readonly op: 'external'; readonly call: string };

/**
 * The cluster's own kinds an operator may watch and read (`for`, `owns`, `watches`, `view.reader`)
 * as API objects. They are the model's objects seen through the API: a Pod's `spec.nodeName`,
 * `metadata.deletionTimestamp`, its template's labels (`app` and `cluster.workloads[].labels`)
 * and `status` (phase, PodScheduled and Ready conditions: `podObjectOf`); a Node's Ready
 * condition, taints, `spec.unschedulable` and labels (`kubernetes.io/hostname`,
 * `topology.kubernetes.io/zone`, `cluster.nodeLabels`); Pods and Nodes also carry the labels and
 * annotations operators wrote on them; a workload's `spec.replicas` (and a StatefulSet's `podManagementPolicy`) with `status.replicas`
 * (a ReplicaSet's pods not Terminating, a StatefulSet's every pod, Terminating ones too) and
 * `status.readyReplicas` (those Running and Ready), as the status is once its controller has
 * written it. They are the objects of namespace `default`, served without `metadata.namespace`. A Deployment is served as its ReplicaSet, under
 * the same name (kind `Deployment` or `ReplicaSet`). The model keeps no resourceVersion counter for
 * them: a Pod's and a Node's is a fingerprint of what they show (`contentVersion`), so an update
 * on a copy read before a change is a Conflict; a workload's and a claim's is empty (an update of
 * one is never a Conflict); a Pod's uid (`<name>-<n>`) tells its
 * incarnations apart: a new one never carries the uid of one that anything in the run still
 * holds a copy of (`freshUid` in informers.ts). A StatefulSet's PersistentVolumeClaims
 * (`<template>-<set>-<ordinal>`, see model/claims.ts) carry the label `app` of their set, a uid
 * as Pods do, `kubernetes.io/pvc-protection` among their finalizers, `spec.volumeName` and
 * `status.phase` Bound once their first pod was scheduled (Pending before), and on a local volume
 * the annotation `volume.kubernetes.io/selected-node` naming the node it lives on. Writes: Pods
 * and PersistentVolumeClaims are deleted (a claim a scheduled pod uses stays Terminating until
 * no such pod is left); a Deployment's, ReplicaSet's or StatefulSet's `spec.replicas` is patched
 * or updated (a scale, as `kubectl scale` does); a Pod's and a Node's labels and annotations are
 * patched (merge patch: `null` removes a key) or updated (the object as read, a Pod's with a uid
 * that must be its incarnation's: `writePodMeta`), but for a pod's `app` (its workload's
 * selector: a change would orphan it), its template's other labels, a Node's model labels, and
 * label keys the scheduler's selectors read (it reads the model's labels); a Node's
 * `spec.unschedulable` and out-of-service taint are written too (`writeNode`); other writes to
 * them are not modelled and are refused when a reconcile makes one.
 */
export const STOCK_KINDS: readonly string[] = ['Pod', 'Node', 'Deployment', 'ReplicaSet', 'StatefulSet', 'DaemonSet', 'PersistentVolumeClaim'];
export const isStockKind = (kind: string): boolean => STOCK_KINDS.includes(kind);
/** The stock kinds whose objects name nodes (so an operator reading them is not symmetric in nodes). */
export const namesNodes = (kind: string): boolean => kind === 'Pod' || kind === 'Node' || kind === 'PersistentVolumeClaim';
/** The stock kinds an operator may delete: their uid (`<name>-<n>`) tells incarnations apart. */
export const DELETABLE_KINDS: readonly string[] = ['Pod', 'PersistentVolumeClaim'];
/** The kinds whose `spec.replicas` an operator may write. */
export const SCALABLE_KINDS: readonly string[] = ['Deployment', 'ReplicaSet', 'StatefulSet'];
/** The model's workload kind of a stock kind's object (a Deployment is its ReplicaSet). */
const workloadKind = (kind: string): WorkloadSpec['kind'] | undefined => (kind === 'Deployment' || kind === 'ReplicaSet' ? 'ReplicaSet' : kind === 'StatefulSet' || kind === 'DaemonSet' ? kind : undefined);

/** The workload a stock object of `kind` and `name` is, if any. */
export function workloadSpecOf(s: ClusterState, kind: string, name: string): WorkloadSpec | undefined {
  const k = workloadKind(kind);
  return k === undefined ? undefined : s.custom?.workloads?.find((w) => w.kind === k && w.name === name);
}

/** A workload's object as the API serves it now. */
export function workloadAsObject(s: ClusterState, kind: string, w: WorkloadSpec): ApiObject {
  let replicas = 0;
  let readyReplicas = 0;
  // A ReplicaSet counts its active pods (FilterActivePods); a StatefulSet every pod it created,
  // Terminating ones too, and those Running and Ready among them (computeReplicaStatus).
  const stateful = w.kind === 'StatefulSet';
  for (const p of s.api.pods) {
    if (p.workload !== w.name || (!stateful && p.deletion !== null)) continue;
    replicas++;
    if (podRunningAndReady(s, p.deletion === null ? p : { ...p, deletion: null })) readyReplicas++;
  }
  const spec = w.kind === 'DaemonSet' ? {} : { replicas: replicasOf(s, w), ...(w.kind === 'StatefulSet' ? statefulSetSpec(w) : {}) };
  return { kind, metadata: { name: w.name, uid: `${kind}-${w.name}`, resourceVersion: '', generation: 1 }, spec, status: { replicas, readyReplicas } };
}

/** The parts of a StatefulSet's spec beside its replicas, as the API defaults them. */
function statefulSetSpec(w: WorkloadSpec): Record<string, JsonValue> {
  return {
    podManagementPolicy: w.podManagementPolicy ?? 'OrderedReady',
    ...(w.volumeClaimTemplates === undefined ? {} : { volumeClaimTemplates: w.volumeClaimTemplates.map((name) => ({ metadata: { name } })) }),
    persistentVolumeClaimRetentionPolicy: w.persistentVolumeClaimRetentionPolicy ?? { whenDeleted: 'Retain', whenScaled: 'Retain' },
  };
}

/** A PersistentVolumeClaim as the API serves it (see `STOCK_KINDS`). */
export function claimAsObject(c: ClaimObject): ApiObject {
  const bound = c.bound >= 0;
  return {
    kind: 'PersistentVolumeClaim',
    metadata: {
      name: c.name,
      uid: `${c.name}-${c.uid ?? 0}`,
      resourceVersion: '',
      generation: 1,
      labels: { app: c.workload },
      ...(bound && c.topology === 'node' ? { annotations: { 'volume.kubernetes.io/selected-node': nodeName(c.bound) } } : {}),
      finalizers: ['kubernetes.io/pvc-protection'],
      ...(c.deleting === true ? { deletionTimestamp: 'set' } : {}),
    },
    spec: { accessModes: ['ReadWriteOnce'], ...(bound ? { volumeName: `pvc-${c.name}-${c.uid ?? 0}` } : {}) },
    status: { phase: bound ? 'Bound' : 'Pending' },
  };
}

const NO_CLAIMS: readonly ClaimObject[] = Object.freeze([]);
const claimObjects = new WeakMap<readonly ClaimObject[], readonly ApiObject[]>();

const podObjects = new WeakMap<readonly PodObject[], { readonly workloads: CustomStore['workloads']; readonly objects: readonly ApiObject[] }>();

/** The labels of a pod of `workload` as its template gives them (`app` aside). */
export const templateLabels = (s: ClusterState, workload: string): Readonly<Record<string, string>> | undefined => s.custom?.workloads?.find((w) => w.name === workload)?.labels;
const nodeObjects = new WeakMap<readonly (NodeObject | null)[], { readonly labels: CustomStore['nodeLabels']; readonly objects: readonly ApiObject[] }>();

/** A condition of a Pod's status as the API serves it. */
const condition = (type: 'PodScheduled' | 'Ready', status: 'True' | 'False'): JsonValue => Object.freeze({ type, status });
/**
 * The four statuses a Pod of the model can have, shared by every object (a reader gets a copy):
 * - not bound: `Pending`, `PodScheduled` False (the model keeps no record of whether the scheduler
 *   has tried it yet: until it has, the API holds no condition), no Ready condition;
 * - bound and never posted by its kubelet: `Pending`, `PodScheduled` True, `Ready` False;
 * - posted since it started: `Running`, with `Ready` as the API holds it (`PodObject.ready`: what
 *   the kubelet last posted, or False from the node lifecycle controller's MarkPodsNotReady).
 * A Terminating pod keeps its phase and conditions (the kubelet posts Ready False once it stops
 * the containers). Succeeded and Failed are not served: the model's pods run until deleted, and a
 * pod its kubelet reports Failed (a graceful node shutdown) is dropped as it is reported.
 */
const POD_STATUS = {
  unscheduled: Object.freeze({ phase: 'Pending', conditions: Object.freeze([condition('PodScheduled', 'False')]) }),
  pending: Object.freeze({ phase: 'Pending', conditions: Object.freeze([condition('Ready', 'False'), condition('PodScheduled', 'True')]) }),
  ready: Object.freeze({ phase: 'Running', conditions: Object.freeze([condition('Ready', 'True'), condition('PodScheduled', 'True')]) }),
  notReady: Object.freeze({ phase: 'Running', conditions: Object.freeze([condition('Ready', 'False'), condition('PodScheduled', 'True')]) }),
} as const satisfies Record<string, JsonValue>;

/** A Pod's `status` as the API serves it: its phase, and its PodScheduled and Ready conditions (see `POD_STATUS`). */
export function podStatusOf(p: PodObject): JsonValue {
  if (p.nodeName < 0) return POD_STATUS.unscheduled;
  return p.ready === true ? POD_STATUS.ready : p.ready === false ? POD_STATUS.notReady : POD_STATUS.pending;
}

/**
 * The resourceVersion of a Pod or Node as the model serves it: a fingerprint of everything a
 * reader sees of it (`s` and 13 base-36 digits), since the model keeps no counter for the
 * cluster's own objects. Any change a reader could see gives a new one, so an `update` sent on a
 * copy read before a change gets 409 Conflict; a change undone gives the old one back (in
 * Kubernetes every write draws a new one), so an update on a copy from before it is accepted.
 */
function contentVersion(o: Omit<ApiObject, 'kind'>): string {
  const text = JSON.stringify([o.metadata.labels ?? null, o.metadata.annotations ?? null, o.metadata.deletionTimestamp ?? null, o.spec ?? null, o.status ?? null]);
  // FNV-1a and the same with MurmurHash's multiplier: 64 bits.
  let a = 0x811c9dc5;
  let b = 0x5bd1e995;
  for (let k = 0; k < text.length; k++) {
    const c = text.charCodeAt(k);
    a = Math.imul(a ^ c, 0x01000193);
    b = Math.imul(b ^ c, 0x5bd1e995);
  }
  return `s${(a >>> 0).toString(36).padStart(7, '0')}${(b >>> 0).toString(36).padStart(7, '0')}`;
}

/** An object with its content's resourceVersion (`contentVersion`). */
const versioned = (o: ApiObject): ApiObject => ({ ...o, metadata: { ...o.metadata, resourceVersion: contentVersion(o) } });

/**
 * A Pod object as the API serves it: `spec.nodeName`, `status.phase` and `status.conditions`
 * (PodScheduled, Ready; `podutil.IsPodReady` reads the Ready one), `metadata.deletionTimestamp`
 * while Terminating, its template's labels (`template`, and `app`: its workload) with those an
 * operator wrote after them. The phase Running needs `CustomStore.podPhases` (set for an operator
 * that watches Pods): without it a pod that ran and lost its Ready condition reads Pending.
 */
export function podAsObject(p: PodObject): ApiObject {
  return podObjectOf(p, undefined);
}

/** `podAsObject` with the labels of the pod's template (`templateLabels`) beside `app`. */
export function podObjectOf(p: PodObject, template: Readonly<Record<string, string>> | undefined): ApiObject {
  return versioned({
    kind: 'Pod',
    metadata: {
      name: p.name,
      uid: `${p.name}-${p.uid ?? 0}`,
      resourceVersion: '',
      generation: 1,
      labels: { ...template, app: p.workload, ...p.labels },
      ...(p.annotations === undefined ? {} : { annotations: p.annotations }),
      ...(p.deletion === null ? {} : { deletionTimestamp: 'set' }),
    },
    spec: { nodeName: p.nodeName < 0 ? '' : nodeName(p.nodeName) },
    status: podStatusOf(p),
  });
}

/** The labels the model gives node i (see `CustomStore.nodeLabels`; `kubernetes.io/hostname` alone without a store). */
export function modelNodeLabels(s: ClusterState, i: number): Readonly<Record<string, string>> {
  return s.custom?.nodeLabels?.[i] ?? { 'kubernetes.io/hostname': nodeName(i) };
}

/**
 * A Node object as the API serves it (deleted ones are absent): `labels` are the model's
 * (`modelNodeLabels`), with those an operator wrote after them.
 */
export function nodeAsObject(n: NodeObject, i: number, labels: Readonly<Record<string, string>> = { 'kubernetes.io/hostname': nodeName(i) }): ApiObject {
  return versioned({
    kind: 'Node',
    metadata: { name: nodeName(i), uid: nodeName(i), resourceVersion: '', generation: 1, labels: { ...labels, ...n.labels }, ...(n.annotations === undefined ? {} : { annotations: n.annotations }) },
    spec: { unschedulable: n.unschedulable, taints: n.taints.map((t) => ({ key: `node.kubernetes.io/${t.split(':')[0]}`, effect: t.split(':')[1] })) },
    status: { conditions: n.ready === 'None' ? [] : [{ type: 'Ready', status: n.ready }] },
  });
}

const workloadObjects = new WeakMap<ClusterState, Map<string, readonly ApiObject[]>>();

/** The objects of a stock kind in the API now, sorted by name (the same list while the API's part is unchanged). */
export function stockObjects(s: ClusterState, kind: string): readonly ApiObject[] {
  const wk = workloadKind(kind);
  if (wk !== undefined) {
    let byKind = workloadObjects.get(s);
    if (byKind === undefined) workloadObjects.set(s, (byKind = new Map()));
    let out = byKind.get(kind);
    if (out === undefined) byKind.set(kind, (out = (s.custom?.workloads ?? []).filter((w) => w.kind === wk).map((w) => workloadAsObject(s, kind, w)).sort((a, b) => (a.metadata.name < b.metadata.name ? -1 : 1))));
    return out;
  }
  if (kind === 'PersistentVolumeClaim') {
    const claims = s.api.claims ?? NO_CLAIMS;
    let out = claimObjects.get(claims);
    // The model keeps its claims sorted by name.
    if (out === undefined) claimObjects.set(claims, (out = claims.map(claimAsObject)));
    return out;
  }
  if (kind === 'Pod') {
    // Templates are fixed for a run, but a list of pods may be shared by runs.
    const workloads = s.custom?.workloads;
    let out = podObjects.get(s.api.pods);
    if (out === undefined || out.workloads !== workloads) podObjects.set(s.api.pods, (out = { workloads, objects: s.api.pods.map((p) => podObjectOf(p, templateLabels(s, p.workload))).sort((a, b) => (a.metadata.name < b.metadata.name ? -1 : 1)) }));
    return out.objects;
  }
  // The model's node labels are fixed for a run, but a list of nodes may be shared by runs.
  const labels = s.custom?.nodeLabels;
  let out = nodeObjects.get(s.api.nodes);
  if (out === undefined || out.labels !== labels) nodeObjects.set(s.api.nodes, (out = { labels, objects: s.api.nodes.flatMap((n, i) => (n === null ? [] : [nodeAsObject(n, i, modelNodeLabels(s, i))])).sort((a, b) => (a.metadata.name < b.metadata.name ? -1 : 1)) }));
  return out.objects;
}

/** How a write ended, with the API's reason when it failed. */
/** `Unavailable`: the request never reached the kube-apiserver (the writer is cut off from it). */
export type WriteOutcome = 'ok' | 'AlreadyExists' | 'Conflict' | 'NotFound' | 'Invalid' | 'Unavailable';

export const EMPTY_STORE: CustomStore = { objects: {}, nextUid: 1, nextResourceVersion: 1, calls: {}, watches: {}, clients: {} };

/** The objects of `kind` in the API (etcd), sorted by name: your kinds, or the cluster's own (`STOCK_KINDS`) as the API serves them. */
export function objectsOf(s: ClusterState, kind: string): readonly ApiObject[] {
  return isStockKind(kind) ? stockObjects(s, kind) : (s.custom?.objects[kind] ?? []);
}

/** One object by kind and name (or key, `namespace/name`), or undefined. */
export function objectOf(s: ClusterState, kind: string, name: string, namespace?: string): ApiObject | undefined {
  const key = keyOf(name, namespace);
  return objectsOf(s, kind).find((o) => objectKey(o.metadata) === key);
}

/** How many times `call` was made outside the cluster (0, 1, or 2 for twice or more). */
export function callCount(s: ClusterState, call: string): number {
  return s.custom?.calls[call] ?? 0;
}

/** The calls made outside the cluster so far, by call (counts saturate at 2). */
export function callsOf(s: ClusterState): Readonly<Record<string, number>> {
  return s.custom?.calls ?? {};
}

/** `kind/name` (`kind/namespace/name`), as traces and messages name an object; `name` may be its key. */
export const objectName = (kind: string, name: string, namespace?: string): string => `${kind}/${keyOf(name, namespace)}`;

/**
 * An object's key in a store and in a workqueue: `namespace/name`, or `name` for an object without
 * a namespace (client-go's MetaNamespaceKeyFunc; controller-runtime's Request prints the same).
 */
export const objectKey = (meta: { readonly name: string; readonly namespace?: string }): string => keyOf(meta.name, meta.namespace);
/** The key of `name` in `namespace`; a name that is a key already (`namespace/name`) is kept. */
export const keyOf = (name: string, namespace?: string): string => (namespace === undefined || namespace === '' || name.includes('/') ? name : `${namespace}/${name}`);
const byKey = (a: ApiObject, b: ApiObject): number => {
  const x = objectKey(a.metadata);
  const y = objectKey(b.metadata);
  return x < y ? -1 : x > y ? 1 : 0;
};
/** The object of `kind` with `key` in the store. */
const find = (store: CustomStore, kind: string, key: string): ApiObject | undefined => (store.objects[kind] ?? []).find((o) => objectKey(o.metadata) === key);

const equal = (a: unknown, b: unknown): boolean => JSON.stringify(a) === JSON.stringify(b);

/** The store with `objects` as the list of `kind` and `event` appended for every watcher of the kind. */
function withEvent(store: CustomStore, kind: string, objects: readonly ApiObject[], event: WatchEvent): CustomStore {
  let watches = store.watches;
  for (const [watcher, kinds] of Object.entries(store.watches)) {
    const pending = kinds[kind];
    if (pending !== undefined) watches = { ...watches, [watcher]: { ...watches[watcher], [kind]: [...pending, event] } };
  }
  return { ...store, objects: { ...store.objects, [kind]: objects }, watches };
}

/** Writes one object's new value (ADDED or MODIFIED). */
function put(store: CustomStore, kind: string, next: ApiObject, type: WatchEvent['type']): CustomStore {
  const key = objectKey(next.metadata);
  const list = store.objects[kind] ?? [];
  const objects = [...list.filter((o) => objectKey(o.metadata) !== key), next].sort(byKey);
  return withEvent(store, kind, objects, { type, object: next });
}

/** A new resourceVersion for `o`, and the counter moved on. */
function bump(store: CustomStore, o: Omit<ApiObject, 'metadata'> & { metadata: ObjectMeta }): [CustomStore, ApiObject] {
  const rv = `rv-${store.nextResourceVersion}`;
  return [{ ...store, nextResourceVersion: store.nextResourceVersion + 1 }, { ...o, metadata: { ...o.metadata, resourceVersion: rv } }];
}

const finalizersOf = (o: ApiObject): readonly string[] => o.metadata.finalizers ?? [];

// apimachinery's validation of ObjectMeta (ValidateLabels, ValidateAnnotations), which every
// object's create, update and patch passes through: 422 Invalid when it fails.
const QUALIFIED_NAME = /^([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]$/;
const DNS_SUBDOMAIN = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$/;
/** `IsQualifiedName`: an optional DNS subdomain prefix of at most 253 characters and `/`, then a name of at most 63. */
const isQualifiedName = (key: string): boolean => {
  const parts = key.split('/');
  if (parts.length > 2) return false;
  const name = parts[parts.length - 1];
  if (parts.length === 2 && (parts[0].length === 0 || parts[0].length > 253 || !DNS_SUBDOMAIN.test(parts[0]))) return false;
  return name.length <= 63 && QUALIFIED_NAME.test(name);
};
/** `IsValidLabelValue`: empty, or at most 63 characters of the qualified name's form. */
const isLabelValue = (v: string): boolean => v === '' || (v.length <= 63 && QUALIFIED_NAME.test(v));
/** `TotalAnnotationSizeLimitB`: keys and values together at most 256 KiB. */
const ANNOTATIONS_LIMIT = 256 * 1024;

/** Why `labels` and `annotations` would be refused (422 Invalid) by the kube-apiserver; undefined when valid. */
export function invalidMetadata(labels: Readonly<Record<string, string>> | undefined, annotations: Readonly<Record<string, string>> | undefined): string | undefined {
  for (const [k, v] of Object.entries(labels ?? {})) {
    if (!isQualifiedName(k)) return `label key ${JSON.stringify(k)} is not a qualified name`;
    if (!isLabelValue(v)) return `label value ${JSON.stringify(v)} is not a valid label value`;
  }
  let size = 0;
  for (const [k, v] of Object.entries(annotations ?? {})) {
    if (!isQualifiedName(k.toLowerCase())) return `annotation key ${JSON.stringify(k)} is not a qualified name`;
    size += k.length + v.length;
  }
  return size > ANNOTATIONS_LIMIT ? 'annotations are larger than 256 KiB' : undefined;
}

/** Writes `o` back after a change of its metadata or spec: removed when deleting with no finalizer left. */
function settleChange(store: CustomStore, before: ApiObject, changed: ApiObject): [CustomStore, WriteOutcome] {
  const deleting = before.metadata.deletionTimestamp !== undefined;
  const added = finalizersOf(changed).some((f) => !finalizersOf(before).includes(f));
  if (deleting && added) return [store, 'Invalid']; // Forbidden: no new finalizers can be added if the object is being deleted
  if (invalidMetadata(changed.metadata.labels, changed.metadata.annotations) !== undefined) return [store, 'Invalid'];
  const meta = { ...changed.metadata, uid: before.metadata.uid, ...(deleting ? { deletionTimestamp: before.metadata.deletionTimestamp } : {}) };
  if (meta.finalizers !== undefined && meta.finalizers.length === 0) delete (meta as { finalizers?: readonly string[] }).finalizers;
  if (deleting && finalizersOf(changed).length === 0) {
    const [s1, last] = bump(store, { ...changed, metadata: meta });
    return [removeWithEvent(s1, last), 'ok'];
  }
  // A Lease's strategy keeps no generation (coordination.k8s.io/Lease: every renewal changes spec).
  const generation = equal(before.spec, changed.spec) || before.kind === 'Lease' ? before.metadata.generation : before.metadata.generation + 1;
  const [s1, next] = bump(store, { ...changed, metadata: { ...meta, generation } });
  return [put(s1, before.kind, next, 'MODIFIED'), 'ok'];
}

/** Removes an object; its DELETED event carries its last state. */
function removeWithEvent(store: CustomStore, last: ApiObject): CustomStore {
  const key = objectKey(last.metadata);
  const objects = (store.objects[last.kind] ?? []).filter((o) => objectKey(o.metadata) !== key);
  return withEvent(store, last.kind, objects, { type: 'DELETED', object: last });
}

/**
 * One write against the store, as the kube-apiserver answers it. Pure: the store after the write
 * (unchanged when it fails) and its outcome.
 */
export function applyWrite(store: CustomStore, w: Write): [CustomStore, WriteOutcome] {
  switch (w.op) {
    case 'external': {
      const n = store.calls[w.call] ?? 0;
      return [{ ...store, calls: { ...store.calls, [w.call]: Math.min(n + 1, 2) } }, 'ok'];
    }
    case 'create': {
      const { kind, metadata } = w.object;
      if (find(store, kind, objectKey(metadata)) !== undefined) return [store, 'AlreadyExists'];
      if (invalidMetadata(metadata.labels, metadata.annotations) !== undefined) return [store, 'Invalid'];
      const uid = `uid-${store.nextUid}`;
      const meta: ObjectMeta = { ...metadata, uid, resourceVersion: '', generation: 1 };
      if (meta.finalizers !== undefined && meta.finalizers.length === 0) delete (meta as { finalizers?: readonly string[] }).finalizers;
      const [s1, created] = bump({ ...store, nextUid: store.nextUid + 1 }, { ...w.object, metadata: meta });
      return [put(s1, kind, created, 'ADDED'), 'ok'];
    }
    case 'update':
    case 'updateStatus': {
      const { kind, metadata } = w.object;
      const cur = find(store, kind, objectKey(metadata));
      if (cur === undefined) return [store, 'NotFound'];
      if (!metadata.resourceVersion) return [store, 'Invalid']; // metadata.resourceVersion: must be specified for an update
      if (metadata.resourceVersion !== cur.metadata.resourceVersion || (metadata.uid && metadata.uid !== cur.metadata.uid)) return [store, 'Conflict'];
      if (w.op === 'updateStatus') {
        if (equal(cur.status, w.object.status)) return [store, 'ok'];
        const [s1, next] = bump(store, { ...cur, ...(w.object.status === undefined ? {} : { status: w.object.status }) });
        return [put(s1, kind, next, 'MODIFIED'), 'ok'];
      }
      const changed: ApiObject = { ...cur, metadata: { ...cur.metadata, labels: metadata.labels, annotations: metadata.annotations, finalizers: metadata.finalizers, ownerReferences: metadata.ownerReferences }, ...(w.object.spec === undefined ? {} : { spec: w.object.spec }) };
      return noOp(cur, changed) ? [store, 'ok'] : settleChange(store, cur, clean(changed));
    }
    case 'patch':
    case 'patchStatus': {
      const cur = find(store, w.kind, keyOf(w.name, w.namespace));
      if (cur === undefined) return [store, 'NotFound'];
      if (w.resourceVersion !== undefined && w.resourceVersion !== cur.metadata.resourceVersion) return [store, 'Conflict'];
      if (w.op === 'patchStatus') {
        const status = mergePatch(cur.status, w.status);
        if (equal(cur.status, status)) return [store, 'ok'];
        const [s1, next] = bump(store, { ...cur, status });
        return [put(s1, w.kind, next, 'MODIFIED'), 'ok'];
      }
      const p = w.patch;
      const changed: ApiObject = {
        ...cur,
        metadata: { ...cur.metadata, ...(p.labels === undefined ? {} : { labels: patchedMap(cur.metadata.labels, p.labels) }), ...(p.annotations === undefined ? {} : { annotations: patchedMap(cur.metadata.annotations, p.annotations) }), ...(p.finalizers === undefined ? {} : { finalizers: p.finalizers }) },
        ...(p.spec === undefined ? {} : { spec: mergePatch(cur.spec, p.spec) }),
      };
      return noOp(cur, changed) ? [store, 'ok'] : settleChange(store, cur, clean(changed));
    }
    case 'delete': {
      const cur = find(store, w.kind, keyOf(w.name, w.namespace));
      if (cur === undefined) return [store, 'NotFound'];
      const pre = w.preconditions;
      if ((pre?.uid !== undefined && pre.uid !== cur.metadata.uid) || (pre?.resourceVersion !== undefined && pre.resourceVersion !== cur.metadata.resourceVersion)) return [store, 'Conflict'];
      if (finalizersOf(cur).length > 0) {
        if (cur.metadata.deletionTimestamp !== undefined) return [store, 'ok'];
        const [s1, next] = bump(store, { ...cur, metadata: { ...cur.metadata, deletionTimestamp: 'set' } });
        return [put(s1, w.kind, next, 'MODIFIED'), 'ok'];
      }
      const [s1, last] = bump(store, cur);
      return [removeWithEvent(s1, last), 'ok'];
    }
  }
}

/** `base` with a merge patch of its keys applied (`null` removes one); undefined when none is left. */
function patchedMap(base: Readonly<Record<string, string>> | undefined, patch: MetaPatch): Readonly<Record<string, string>> | undefined {
  const out: Record<string, string> = { ...base };
  for (const [k, v] of Object.entries(patch)) {
    if (v === null) delete out[k];
    else out[k] = v;
  }
  return Object.keys(out).length === 0 ? undefined : out;
}

/** Drops metadata fields left undefined (and empty lists, labels, annotations), so an object has one encoding. */
function clean(o: ApiObject): ApiObject {
  const meta: Record<string, unknown> = {};
  const empty = (k: string, v: unknown): boolean => (Array.isArray(v) && v.length === 0) || ((k === 'labels' || k === 'annotations') && v !== null && typeof v === 'object' && Object.keys(v).length === 0);
  for (const [k, v] of Object.entries(o.metadata)) if (v !== undefined && !empty(k, v)) meta[k] = v;
  return { ...o, metadata: meta as unknown as ObjectMeta };
}

const noOp = (a: ApiObject, b: ApiObject): boolean => equal(a.spec, b.spec) && equal(a.metadata.labels ?? {}, b.metadata.labels ?? {}) && equal(a.metadata.annotations ?? {}, b.metadata.annotations ?? {}) && equal(finalizersOf(a), finalizersOf(b)) && equal(a.metadata.ownerReferences ?? [], b.metadata.ownerReferences ?? []);

/** JSON merge patch (RFC 7386): objects merge key by key, `null` removes, anything else replaces. */
export function mergePatch(target: JsonValue | undefined, patch: JsonValue): JsonValue {
  if (patch === null || typeof patch !== 'object' || Array.isArray(patch)) return patch;
  const base: Record<string, JsonValue> = target !== null && typeof target === 'object' && !Array.isArray(target) ? { ...(target as Record<string, JsonValue>) } : {};
  for (const [k, v] of Object.entries(patch)) {
    if (v === null) delete base[k];
    else base[k] = mergePatch(base[k], v);
  }
  return base;
}

/**
 * Objects the garbage collector deletes next: those with an owner reference whose uid no object
 * of that kind has (owner deleted, or a new incarnation of its name). Background propagation.
 */
export function garbageCollectable(store: CustomStore): readonly { readonly kind: string; readonly name: string; readonly uid: string }[] {
  // An owner is looked for among the cluster-scoped objects and those of its dependent's namespace.
  const uids = new Set<string>();
  for (const list of Object.values(store.objects)) for (const o of list) uids.add(`${o.kind}/${o.metadata.namespace ?? ''}/${o.metadata.uid}`);
  const present = (o: ApiObject, r: OwnerReference): boolean => uids.has(`${r.kind}//${r.uid}`) || (o.metadata.namespace !== undefined && uids.has(`${r.kind}/${o.metadata.namespace}/${r.uid}`));
  const out: { kind: string; name: string; uid: string }[] = [];
  for (const list of Object.values(store.objects))
    for (const o of list) {
      if (o.metadata.deletionTimestamp !== undefined) continue;
      if ((o.metadata.ownerReferences ?? []).some((r) => !present(o, r))) out.push({ kind: o.kind, name: objectKey(o.metadata), uid: o.metadata.uid });
    }
  return out;
}

const OPAQUE = /^(uid|rv)-(\d+)$/;

/**
 * The store and the controllers' memories with uids and resourceVersions renamed by rank (the
 * smallest present becomes `uid-1`), and the counters left out: what the fingerprint sees. The
 * labels and annotations operators wrote on Pods and Nodes (`written`, see `writtenMetadata`)
 * are ranked with them, so a label naming `uid-1` still tells the object it names from a later
 * one's `uid-2`.
 */
export function opaqueView(store: CustomStore, memories: JsonValue | undefined, written?: JsonValue): JsonValue {
  const seen = { uid: new Set<number>(), rv: new Set<number>() };
  const collect = (v: unknown): void => {
    if (typeof v === 'string') {
      const m = OPAQUE.exec(v);
      if (m) seen[m[1] as 'uid' | 'rv'].add(Number(m[2]));
    } else if (Array.isArray(v)) for (const x of v) collect(x);
    else if (v !== null && typeof v === 'object') for (const x of Object.values(v)) collect(x);
  };
  const body = { objects: store.objects, calls: store.calls, watches: store.watches, clients: store.clients, identities: store.identities ?? null, partitioned: store.partitioned ?? null, pauseSeconds: store.pauseSeconds ?? null, memories: memories ?? null, ...(written === undefined ? {} : { written }) } as unknown as JsonValue;
  collect(body);
  const rank = (set: Set<number>): Map<number, number> => new Map([...set].sort((a, b) => a - b).map((n, i) => [n, i + 1]));
  const ranks = { uid: rank(seen.uid), rv: rank(seen.rv) };
  const rename = (v: JsonValue): JsonValue => {
    if (typeof v === 'string') {
      const m = OPAQUE.exec(v);
      return m ? `${m[1]}-${ranks[m[1] as 'uid' | 'rv'].get(Number(m[2]))}` : v;
    }
    if (Array.isArray(v)) return v.map(rename);
    if (v !== null && typeof v === 'object') {
      const out: Record<string, JsonValue> = {};
      for (const [k, x] of Object.entries(v)) out[k] = rename(x);
      return out;
    }
    return v;
  };
  return rename(body);
}

/** The taint operators write to a Node (`kubectl taint nodes n node.kubernetes.io/out-of-service=nodeshutdown:NoExecute`). */
const OUT_OF_SERVICE = { key: 'node.kubernetes.io/out-of-service', effect: 'NoExecute' } as const;

/**
 * A write of a Node's spec from a reconcile (patch or update): `unschedulable` (cordon and
 * uncordon, as `kubectl cordon` patches it; the node lifecycle controller then adds or removes the
 * `node.kubernetes.io/unschedulable:NoSchedule` taint) and the `node.kubernetes.io/out-of-service`
 * NoExecute taint in `taints` (added or removed; the other taints are the node lifecycle
 * controller's and must be sent back as read), with `meta` its labels and annotations (those the
 * model gives, `modelNodeLabels`, must stay as they are: the kubelet's, and what scheduling
 * reads). A refusal says why (a write the model does not express); NotFound for a Node that is
 * not in the API.
 */
export function writeNode(s: ClusterState, name: string, spec: unknown, meta?: MetaWrite): [ClusterState, WriteOutcome] | { readonly refused: string } {
  const i = /^node-\d+$/.test(name) ? Number(name.slice(5)) - 1 : -1;
  const node = i >= 0 && i < s.api.nodes.length ? s.api.nodes[i] : null;
  if (node === null) return [s, 'NotFound'];
  // Labels and annotations: the model's labels stay as they are, the others are the operator's.
  const model = modelNodeLabels(s, i);
  const served = nodeAsObject(node, i, model).metadata;
  const labels = meta === undefined ? served.labels ?? {} : writtenMap(served.labels ?? {}, meta.op, meta.labels);
  const annotations = meta === undefined ? served.annotations ?? {} : writtenMap(served.annotations ?? {}, meta.op, meta.annotations);
  if (labels === 'Invalid' || annotations === 'Invalid' || invalidMetadata(labels, annotations) !== undefined) return [s, 'Invalid'];
  const fixed = Object.keys(model).find((k) => labels[k] !== model[k]);
  if (fixed !== undefined) return { refused: `a ${labels[fixed] === undefined ? 'removal' : 'change'} of Node ${name}'s label ${fixed} (${model[fixed]}: the kubelet's, or the scenario's in cluster.nodeLabels, which scheduling reads)` };
  const extraLabels = extraOf(labels, Object.keys(model));
  const read = s.custom?.labelKeysRead?.node.find((k) => (extraLabels?.[k] ?? null) !== (node.labels?.[k] ?? null));
  if (read !== undefined) return { refused: `a write of Node ${name}'s label ${read} (the scheduler reads it, through a nodeSelector, node affinity or topology key, from the model's labels)` };
  const extraAnnotations = extraOf(annotations, []);
  if (spec === null || typeof spec !== 'object' || Array.isArray(spec)) return { refused: 'a Node write without a spec' };
  // An update replaces the spec (a PUT): a field it leaves out is its zero value, so an update
  // without spec.unschedulable uncordons, and one without the taints drops them (refused below).
  const fields: Record<string, unknown> = meta?.op === 'update' ? { unschedulable: false, taints: [], ...(spec as Record<string, unknown>) } : (spec as Record<string, unknown>);
  const other = Object.keys(fields).find((k) => k !== 'unschedulable' && k !== 'taints');
  if (other !== undefined) return { refused: `a write of Node ${name}'s spec.${other}` };
  let unschedulable = node.unschedulable;
  if (fields.unschedulable !== undefined) {
    if (typeof fields.unschedulable !== 'boolean') return [s, 'Invalid'];
    unschedulable = fields.unschedulable;
  }
  let taints = node.taints;
  if (fields.taints !== undefined) {
    if (!Array.isArray(fields.taints)) return [s, 'Invalid'];
    const served = (nodeAsObject(node, i).spec as { taints: { key: string; effect: string }[] }).taints.filter((t) => t.key !== OUT_OF_SERVICE.key);
    const given = fields.taints as unknown[];
    const isOutOfService = (t: unknown): boolean => t !== null && typeof t === 'object' && (t as { key?: unknown }).key === OUT_OF_SERVICE.key && (t as { effect?: unknown }).effect === OUT_OF_SERVICE.effect;
    const rest = given.filter((t) => !isOutOfService(t)).map((t) => (t !== null && typeof t === 'object' ? { key: (t as { key?: unknown }).key, effect: (t as { effect?: unknown }).effect } : t));
    if (JSON.stringify(rest) !== JSON.stringify(served)) return { refused: `a change of Node ${name}'s taints other than ${OUT_OF_SERVICE.key}:${OUT_OF_SERVICE.effect} (the others are the node lifecycle controller's)` };
    const want = given.some(isOutOfService);
    const has = node.taints.includes('out-of-service:NoExecute');
    if (want !== has) taints = want ? [...node.taints, 'out-of-service:NoExecute' as const].sort() : node.taints.filter((t) => t !== 'out-of-service:NoExecute');
  }
  if (unschedulable === node.unschedulable && taints === node.taints && equal(extraLabels, node.labels) && equal(extraAnnotations, node.annotations)) return [s, 'ok'];
  const nodes = s.api.nodes.slice();
  nodes[i] = { ready: node.ready, unschedulable, taints, ...(extraLabels === undefined ? {} : { labels: extraLabels }), ...(extraAnnotations === undefined ? {} : { annotations: extraAnnotations }) };
  return [{ ...s, api: { ...s.api, nodes } }, 'ok'];
}

/** A write of an object's labels and annotations: a merge patch of each, or (`update`) each whole as sent. */
export interface MetaWrite {
  readonly op: 'patch' | 'update';
  readonly labels?: unknown;
  readonly annotations?: unknown;
}

/**
 * The labels (or annotations) a write leaves of those `served`: a patch merges (a key set to
 * `null` is removed, `null` for the whole map removes all), an update replaces (absent: none).
 * Invalid for a value that is not a string.
 */
function writtenMap(served: Readonly<Record<string, string>>, op: MetaWrite['op'], given: unknown): Readonly<Record<string, string>> | 'Invalid' {
  if (given === undefined) return op === 'patch' ? served : {};
  if (given === null) return {};
  if (typeof given !== 'object' || Array.isArray(given)) return 'Invalid';
  const out: Record<string, string> = op === 'patch' ? { ...served } : {};
  for (const [k, v] of Object.entries(given as Record<string, unknown>)) {
    if (v === null && op === 'patch') delete out[k];
    else if (typeof v === 'string') out[k] = v;
    else return 'Invalid';
  }
  return out;
}

/** The entries of `m` whose keys are not `reserved`, keys sorted (one encoding in the state); undefined when none. */
function extraOf(m: Readonly<Record<string, string>>, reserved: readonly string[]): Readonly<Record<string, string>> | undefined {
  const keys = Object.keys(m).filter((k) => !reserved.includes(k)).sort();
  return keys.length === 0 ? undefined : Object.fromEntries(keys.map((k) => [k, m[k]]));
}

/**
 * A write of a Pod's labels and annotations from a reconcile (patch or update): those an operator
 * adds are kept on the pod until it is deleted (a new incarnation starts with its template's
 * labels alone). NotFound for no such pod, Conflict for a `uid` of another incarnation (an
 * update's resourceVersion is checked before, in the operator's `applyTo`). A change or removal of `app`, the workload's selector
 * label, is refused: Kubernetes would orphan the pod (its controller releases it, see
 * ControllerRefManager, and creates a replacement), which the model does not express. So is a
 * change of the template's other labels, or of a label key the workloads' pod affinity and
 * spread constraints select on: the model's scheduler matches the template's labels.
 */
export function writePodMeta(s: ClusterState, name: string, meta: MetaWrite, uid?: string): [ClusterState, WriteOutcome] | { readonly refused: string } {
  const i = s.api.pods.findIndex((p) => p.name === name);
  if (i < 0) return [s, 'NotFound'];
  const pod = s.api.pods[i];
  if (uid !== undefined && uid !== '' && uid !== `${name}-${pod.uid ?? 0}`) return [s, 'Conflict'];
  const template = templateLabels(s, pod.workload) ?? {};
  const served = podObjectOf(pod, template).metadata;
  const labels = writtenMap(served.labels ?? {}, meta.op, meta.labels);
  const annotations = writtenMap(served.annotations ?? {}, meta.op, meta.annotations);
  if (labels === 'Invalid' || annotations === 'Invalid' || invalidMetadata(labels, annotations) !== undefined) return [s, 'Invalid'];
  if (labels.app !== pod.workload) return { refused: `a ${labels.app === undefined ? 'removal' : 'change'} of Pod ${name}'s label app (${pod.workload}, its workload's selector: Kubernetes would orphan the pod, its controller releasing it and creating a replacement)` };
  const fixed = Object.keys(template).find((k) => k !== 'app' && labels[k] !== template[k]);
  if (fixed !== undefined) return { refused: `a ${labels[fixed] === undefined ? 'removal' : 'change'} of Pod ${name}'s label ${fixed} (its template's, which the scheduler's pod affinity and spread constraints match)` };
  const extraLabels = extraOf(labels, ['app', ...Object.keys(template)]);
  const read = s.custom?.labelKeysRead?.pod.find((k) => (extraLabels?.[k] ?? null) !== (pod.labels?.[k] ?? null));
  if (read !== undefined) return { refused: `a write of Pod ${name}'s label ${read} (a pod affinity or spread constraint selects on it; the model's scheduler matches the template's labels)` };
  const extraAnnotations = extraOf(annotations, []);
  if (equal(extraLabels, pod.labels) && equal(extraAnnotations, pod.annotations)) return [s, 'ok'];
  const { labels: _labels, annotations: _annotations, ...rest } = podWith(pod, {});
  const pods = s.api.pods.slice();
  pods[i] = { ...rest, ...(extraLabels === undefined ? {} : { labels: extraLabels }), ...(extraAnnotations === undefined ? {} : { annotations: extraAnnotations }) };
  return [{ ...s, api: { ...s.api, pods } }, 'ok'];
}

/**
 * A write of a workload's `spec.replicas` (a scale: `kubectl scale`, or a patch or update of the
 * field), as the API applies it: NotFound for no such workload, Invalid for a count that is not
 * a whole number at least 0 (apps/v1 validation). The workload's controller acts on it at its
 * next sync. A scale-down of a ReplicaSet below its active pods records how many were active,
 * which the at-most-replicas promise allows until the controller has synced the set.
 */
export function scaleWorkload(s: ClusterState, kind: string, name: string, replicas: unknown): [ClusterState, WriteOutcome] {
  const w = workloadSpecOf(s, kind, name);
  if (w === undefined || w.kind === 'DaemonSet') return [s, 'NotFound'];
  if (typeof replicas !== 'number' || !Number.isInteger(replicas) || replicas < 0) return [s, 'Invalid'];
  let active = 0;
  for (const p of s.api.pods) if (p.workload === w.name && p.deletion === null) active++;
  // Active pods grow only through a sync, which ends the allowance: the pods active now are its bound.
  const ceiling = w.kind === 'ReplicaSet' && replicas < active ? active : undefined;
  const { [w.name]: _old, ...others } = s.api.scale ?? {};
  const entry = ceiling === undefined && replicas === w.replicas ? undefined : { replicas, ...(ceiling === undefined ? {} : { ceiling }) };
  const scale = entry === undefined ? others : { ...others, [w.name]: entry };
  const { scale: _scale, ...api } = s.api;
  return [{ ...s, api: Object.keys(scale).length === 0 ? api : { ...api, scale } }, 'ok'];
}
