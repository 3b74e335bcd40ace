/**
 * PersistentVolumeClaims of StatefulSets' `volumeClaimTemplates`, as the StatefulSet controller,
 * the scheduler's VolumeBinding plugin and the PVC protection controller treat them:
 *
 * - **Created with the pod** (stateful_pod_control.go `createPersistentVolumeClaims`): before it
 *   creates the pod of an ordinal, the StatefulSet controller creates each missing claim
 *   `<template>-<set>-<ordinal>`; a claim that exists is reused as it is, whatever pod used it
 *   before (a retained claim of a scaled-down ordinal comes back with its data). A claim being
 *   deleted fails the create ("pvc … is being deleted"): no pod of that ordinal is created until
 *   it is gone. A Pending pod whose claim is missing gets it again (`createMissingPersistentVolumeClaims`,
 *   processReplica's `isPending` branch).
 * - **Bound where the first pod goes** (WaitForFirstConsumer, the binding mode of local volumes and
 *   of the cloud providers' default classes): an unbound claim passes the scheduler's filter on any
 *   node and is bound by the pod's binding to that node's volume; from then on the VolumeBinding
 *   filter lets a pod mounting it only onto the volume's node (`node` topology: the PV's node
 *   affinity), or into its zone (`zone`); a missing claim or one being deleted fails the filter
 *   ("persistentvolumeclaim not found" / "is being deleted"). A deleted Node keeps its local
 *   volumes' affinity: the pod stays Pending until the claim is deleted.
 * - **Kept when the pod goes** (`persistentVolumeClaimRetentionPolicy` Retain, the default); with
 *   `whenScaled: Delete` the claims of the ordinals a scale-down removed are deleted once their
 *   pods are gone (the controller makes the condemned pod their owner; the garbage collector
 *   deletes them after it, `claimOwnerMatchesSetAndPod`).
 * - **Protected while used** (pkg/controller/volume/pvcprotection): a deleted claim stays
 *   Terminating until no scheduled pod uses it (`podUsesPVC` counts pods with a nodeName), then
 *   the controller removes its finalizer and it is gone.
 *
 * Not modelled: storage capacity and access modes (one pod per claim), volume expansion, a claim's
 * data beyond its identity (its uid tells a recreated claim from a retained one), PV reclaim
 * policies (a released volume is never bound again), `whenDeleted` (the model never deletes a
 * StatefulSet).
 */
import { API, clusterAction, type ClusterAction, type Ctx, type WorkloadCtx } from './context.js';
import { freshUid } from './informers.js';
import { acting, canWrite, KCM, nodeName, podIndex, type ClaimObject, type ClusterState } from './state.js';

/** A claim's name: `<template>-<pod>` (the pod being `<set>-<ordinal>`). */
export const claimName = (template: string, pod: string): string => `${template}-${pod}`;

const NO_CLAIMS: readonly ClaimObject[] = Object.freeze([]);
const NO_NAMES: readonly string[] = Object.freeze([]);

/** The claims in the API, sorted by name. */
export const claimsOf = (s: ClusterState): readonly ClaimObject[] => s.api.claims ?? NO_CLAIMS;

/** The claim named `name`, or undefined. */
export function claimNamed(s: ClusterState, name: string): ClaimObject | undefined {
  const claims = claimsOf(s);
  for (let i = 0; i < claims.length; i++) if (claims[i].name === name) return claims[i];
  return undefined;
}

/** Where a claim of template `t` binds when its pod goes to node n: the node, its zone, or 0. */
export function placeOf(ctx: Ctx, w: WorkloadCtx, template: number, n: number): number {
  const topology = w.claimTemplates[template].topology;
  return topology === 'node' ? n : topology === 'zone' ? ctx.zoneOfNode[n] : 0;
}

/** How a claim's place reads: `node-2`, `zone-1`, `any node`, `unbound`. */
export function describePlace(c: ClaimObject): string {
  if (c.bound < 0) return 'unbound';
  return c.topology === 'node' ? nodeName(c.bound) : c.topology === 'zone' ? `zone-${c.bound + 1}` : 'any node';
}

/** The scheduler's VolumeBinding filter: whether pod `pod` of `w` may go to node n given its claims. */
export function claimsAllow(ctx: Ctx, s: ClusterState, w: WorkloadCtx, pod: string, n: number): boolean {
  for (let j = 0; j < w.claimTemplates.length; j++) {
    const c = claimNamed(s, claimName(w.claimTemplates[j].name, pod));
    if (c === undefined || c.deleting === true) return false;
    if (c.bound >= 0 && c.bound !== placeOf(ctx, w, j, n)) return false;
  }
  return true;
}

/** The state after pod `pod` of `w` is bound to node n: its unbound claims are bound there. */
export function bindClaims(ctx: Ctx, s: ClusterState, w: WorkloadCtx | undefined, pod: string, n: number): ClusterState {
  if (w === undefined || w.claimTemplates.length === 0) return s;
  let changed = false;
  const claims = claimsOf(s).map((c) => {
    if (c.pod !== pod || c.bound >= 0 || c.workload !== w.name) return c;
    changed = true;
    return { ...c, bound: placeOf(ctx, w, c.template, n) };
  });
  return changed ? { ...s, api: { ...s.api, claims } } : s;
}

/** Whether one of pod `pod`'s claims is being deleted (the StatefulSet controller's create fails). */
export function claimBeingDeleted(s: ClusterState, w: WorkloadCtx, pod: string): boolean {
  for (const t of w.claimTemplates) if (claimNamed(s, claimName(t.name, pod))?.deleting === true) return true;
  return false;
}

/** Whether one of pod `pod`'s claims is missing. */
export function claimMissing(s: ClusterState, w: WorkloadCtx, pod: string): boolean {
  for (const t of w.claimTemplates) if (claimNamed(s, claimName(t.name, pod)) === undefined) return true;
  return false;
}

const byName = (a: ClaimObject, b: ClaimObject): number => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0);

/** The state with pod `pod`'s missing claims created, unbound, each with a fresh uid. */
export function withClaimsFor(s: ClusterState, w: WorkloadCtx, pod: string): ClusterState {
  if (w.claimTemplates.length === 0) return s;
  const fresh: ClaimObject[] = [];
  w.claimTemplates.forEach((t, j) => {
    const name = claimName(t.name, pod);
    if (claimNamed(s, name) !== undefined) return;
    const uid = freshUid(s, name);
    fresh.push({ name, workload: w.name, pod, template: j, topology: t.topology, bound: -1, ...(uid > 0 ? { uid } : {}) });
  });
  if (fresh.length === 0) return s;
  return { ...s, api: { ...s.api, claims: [...claimsOf(s), ...fresh].sort(byName) } };
}

/** Whether a scheduled pod uses claim `c` (pvcprotection's `podUsesPVC`: pods with a nodeName). */
function inUse(s: ClusterState, c: ClaimObject): boolean {
  const k = podIndex(s, c.pod);
  return k >= 0 && s.api.pods[k].nodeName >= 0;
}

/** The claims being deleted that no scheduled pod uses: the PVC protection controller lets them go. */
export function releasableClaims(s: ClusterState): readonly ClaimObject[] {
  return claimsOf(s).filter((c) => c.deleting === true && !inUse(s, c));
}

/** `s` with claim `name` removed. */
function removeClaim(s: ClusterState, name: string): ClusterState {
  const claims = claimsOf(s).filter((c) => c.name !== name);
  return { ...s, api: { ...s.api, claims } };
}

/** How a delete of a claim ended. */
export type ClaimDeleteOutcome = 'deleted' | 'conflict' | 'notFound';

/**
 * A delete of claim `name` (by an operator or `kubectl delete pvc`), with an optional uid
 * precondition (the claim's incarnation number): it is marked Terminating (its finalizer
 * `kubernetes.io/pvc-protection` keeps it until the PVC protection controller lets it go). A
 * second delete of a Terminating claim changes nothing.
 */
export function deleteClaim(s: ClusterState, name: string, uid?: number): { readonly state: ClusterState; readonly outcome: ClaimDeleteOutcome } {
  const c = claimNamed(s, name);
  if (c === undefined) return { state: s, outcome: 'notFound' };
  if (uid !== undefined && uid !== (c.uid ?? 0)) return { state: s, outcome: 'conflict' };
  if (c.deleting === true) return { state: s, outcome: 'deleted' };
  const claims = claimsOf(s).map((x) => (x.name === name ? { ...x, deleting: true as const } : x));
  return { state: { ...s, api: { ...s.api, claims } }, outcome: 'deleted' };
}

/** The claims the initial pods mount: bound where their pod runs, unbound for a Pending one. */
export function initialClaims(ctx: Ctx, pods: readonly { readonly name: string; readonly nodeName: number }[]): readonly ClaimObject[] | undefined {
  if (!ctx.workloads.some((w) => w.claimTemplates.length > 0)) return undefined;
  const out: ClaimObject[] = [];
  for (const p of pods) {
    const w = ctx.workloadOfPod(p.name);
    if (w === undefined) continue;
    w.claimTemplates.forEach((t, j) => out.push({ name: claimName(t.name, p.name), workload: w.name, pod: p.name, template: j, topology: t.topology, bound: p.nodeName < 0 ? -1 : placeOf(ctx, w, j, p.nodeName) }));
  }
  return out.sort(byName);
}

/** The kube-controller-manager candidate that runs the PVC protection controller now, or -1. */
function protector(s: ClusterState): number {
  const cs = s.candidates[KCM];
  for (let c = 0; c < cs.length; c++) if (acting(cs[c]) && cs[c].ctrl !== null && canWrite(s, cs[c].partitioned)) return c;
  return -1;
}

/** The PVC protection controller (kube-controller-manager): lets a Terminating claim go once no scheduled pod uses it. */
export function claimActions(ctx: Ctx): ClusterAction[] {
  if (!ctx.workloads.some((w) => w.claimTemplates.length > 0)) return [];
  return [
    clusterAction<string>({
      name: 'pvc-protection',
      urgent: true,
      // Asked in every state: nothing is allocated unless a claim is being deleted.
      params: (s) => (claimsOf(s).some((c) => c.deleting === true) ? releasableClaims(s).map((c) => c.name) : NO_NAMES),
      enabled: (s, p) => {
        const c = claimNamed(s, p);
        return c !== undefined && c.deleting === true && !inUse(s, c) && protector(s) >= 0;
      },
      apply: (s, p) => removeClaim(s, p),
      describe: (_b, p) => ({ actor: 'kube-controller-manager/pvc-protection', summary: `removes the kubernetes.io/pvc-protection finalizer of ${p} (no scheduled pod uses it): the claim is gone`, to: [...API] }),
    }),
  ];
}
