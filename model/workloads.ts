/**
 * The workload controllers of the kube-controller-manager leader, one sync of one workload per
 * step; within an instant the workloads of a kind sync in `cluster.workloads` order:
 *
 * - ReplicaSet (pkg/controller/replicaset; a Deployment is modelled as its ReplicaSet): counts
 *   active pods, which excludes pods with a deletionTimestamp (`IsPodActive`), so a Terminating
 *   pod is replaced at once; creates the missing pods (admission fixes their tolerations),
 *   deletes extras (unbound ones first). Pods are named `<name>-<k>`, k the lowest slot no pod
 *   object or container uses: Kubernetes' `<name>-<template hash>-<random>` abstracted.
 * - StatefulSet (pkg/controller/statefulset): pod names are fixed (`<name>-<ordinal>`) and the
 *   API refuses a name that still exists, so an identity is recreated only once the old pod object
 *   is gone. podManagementPolicy is the default OrderedReady (`processReplica` in
 *   stateful_set_control.go, monotonic): ordinals are visited from 0 up; the first missing one is
 *   created, one per sync, and the visit stops at the first ordinal that is Terminating ("waiting
 *   for Pod to Terminate") or not Running and Ready ("waiting for Pod to be Running and Ready"),
 *   so ordinal i is created only while 0 … i-1 all exist, are not Terminating and are Ready.
 *   **Ready here** is the pod's Ready condition as the API holds it (`PodObject.ready`): the pod
 *   is bound, has no deletionTimestamp, and its kubelet last posted it Ready (its container
 *   running) with no MarkPodsNotReady since (the node lifecycle controller clears it when it marks
 *   the node Unknown). A pod on a crashed node stays Ready until then, so a missing higher ordinal
 *   is created within that grace period, as upstream does. Not modelled: readiness probes (a running
 *   container is Ready), minReadySeconds (0: Ready is Available), failed or
 *   succeeded pods being deleted and recreated, updates. A scale-down (an operator's write of
 *   `spec.replicas`, `api.scale`) deletes the condemned ordinals from the highest, one at a time
 *   and each once the previous is gone (OrderedReady), or one per sync without waiting (Parallel).
 *   Every controller reads `spec.replicas` as it is in the API (its workload informer is not lagged).
 *   podManagementPolicy Parallel (from the workload list or a manifest) creates every missing
 *   ordinal without waiting for the lower ones.
 * - DaemonSet (pkg/controller/daemon): one pod per node, named `<name>-node-<n>` (Kubernetes'
 *   `<name>-<random>` abstracted), tolerating unreachable and not-ready NoExecute forever
 *   (`AddOrUpdateDaemonPodTolerations`), so taint eviction never removes it. The controller
 *   creates the pod of a node that should run one (`NodeShouldRunDaemonPod`: its Node object
 *   exists, passes the template's nodeSelector and required node affinity, and carries no
 *   NoSchedule or NoExecute taint the pod's tolerations, the template's and the controller's, do
 *   not tolerate) and has no pod object of that name.
 *   Abstracted: Kubernetes creates the pod with a node affinity and the scheduler binds it; here
 *   it is created bound to its node, which the scheduler's filters would pick alone. A
 *   Terminating pod does not count in Kubernetes and a new one (of another name) is created at
 *   once; here the name is per node, so the controller waits until the old object is gone.
 *   A node that fails the template's nodeSelector or required node affinity runs none
 *   (`NodeShouldRunDaemonPod` asks the NodeAffinity filter). Not modelled: a DaemonSet pod's own
 *   pod (anti-)affinity and spread constraints, rolling updates, burst limits.
 *
 * With `informers.watchLag` > 0 the three controllers decide from the kube-controller-manager's
 * informer cache (`informers.ts`) and write through the API: the ReplicaSet controller keeps
 * expectations (`ExpectCreations`/`ExpectDeletions`, lowered as its cache sees the pods, expired
 * after `ExpectationsTimeout`) and does not sync a ReplicaSet while they are pending; a
 * StatefulSet or DaemonSet create of a name that still exists fails with AlreadyExists and the
 * workload waits for a watch event about its pods. Without caches every controller reads the
 * API as it is, where expectations are always met.
 */
import { castDraft } from 'immer';
import { untoleratedTaint } from './tolerations.js';
import { produce } from './immer.js';
import { daemonPodName } from './config.js';
import { API, clusterAction, type ClusterAction, type Ctx, type WorkloadCtx } from './context.js';
import { expect, expectationsSatisfied, freshUid, kcmAwait, kcmView, kcmWaiting } from './informers.js';
import { initialStates } from './initial.js';
import { claimBeingDeleted, claimMissing, claimName, claimNamed, claimsOf, deleteClaim, describePlace, withClaimsFor } from './claims.js';
import { managerIndex, byShape, acting, canWrite, KCM, nodeName, podIndex, podRunningAndReady, replicasOf, type ClusterState, type PodObject, type Taint } from './state.js';

const refs = byShape((s: ClusterState): string[] => s.candidates[KCM].map((_, c) => `kube-controller-manager-${c + 1}`));
const idx = managerIndex;

/**
 * Candidate c's view and whether it waits for an event about `item`: without informer caches the
 * API itself and never (what `kcmView` and `kcmWaiting` answer then, without naming the client:
 * the guards ask in every state).
 */
const viewOf = (s: ClusterState, c: number): ClusterState => (s.informers === undefined ? s : kcmView(s, c));
const waiting = (s: ClusterState, c: number, item: string): boolean => s.informers !== undefined && kcmWaiting(s, c, item);

/** Candidate c leads with its controllers (cheap: asked before looking for work). */
function kcmActs(s: ClusterState, c: number): boolean {
  const k = s.candidates[KCM][c];
  return acting(k) && k.ctrl !== null;
}

/** Candidate c can write what its controllers decide (asked once there is work: canWrite counts etcd members). */
const kcmWrites = (s: ClusterState, c: number): boolean => canWrite(s, s.candidates[KCM][c].partitioned);

/**
 * A ReplicaSet's pending change as the controller sees it in `s` (its view): pods to create
 * (names) and to delete. New names also avoid every name in use in `real` (the API as it is and
 * the containers), standing for Kubernetes' random suffixes, which never collide.
 */
export function replicaSetWorkOf(s: ClusterState, w: WorkloadCtx, real: ClusterState = s): { create: string[]; remove: string[] } | undefined {
  const want = replicasOf(s, w);
  let count = 0;
  for (let i = 0; i < s.api.pods.length; i++) if (s.api.pods[i].workload === w.name && s.api.pods[i].deletion === null) count++;
  if (count === want) return undefined;
  const active = s.api.pods.filter((p) => p.workload === w.name && p.deletion === null);
  if (active.length > want) {
    const ranked = [...active].sort((a, b) => Number(a.nodeName >= 0) - Number(b.nodeName >= 0) || (a.name < b.name ? 1 : -1));
    return { create: [], remove: ranked.slice(0, active.length - want).map((p) => p.name) };
  }
  const used = new Set<string>(s.api.pods.map((p) => p.name));
  if (real !== s) for (const p of real.api.pods) used.add(p.name);
  for (const n of real.nodes) for (const r of n.running) used.add(r);
  const create: string[] = [];
  for (let k = 0; create.length < want - active.length; k++) if (!used.has(`${w.name}-${k}`)) create.push(`${w.name}-${k}`);
  return { create, remove: [] };
}

/**
 * The first ReplicaSet (in list order) that kube-controller-manager candidate c syncs now (its
 * expectations satisfied and a change pending in its view), and the change.
 */
export function replicaSetWork(ctx: Ctx, s: ClusterState, c: number): { workload: WorkloadCtx; create: string[]; remove: string[] } | undefined {
  const view = viewOf(s, c);
  for (let i = 0; i < ctx.workloads.length; i++) {
    const w = ctx.workloads[i];
    if (w.kind !== 'ReplicaSet' || !expectationsSatisfied(ctx, s, c, w.name)) continue;
    const work = replicaSetWorkOf(view, w, s);
    if (work !== undefined) return { workload: w, ...work };
  }
  return undefined;
}

/**
 * A StatefulSet's next step: create the pod of an ordinal (and its missing claims), delete a
 * condemned one (scale-down), create the missing claims of a Pending pod, or (with
 * `whenScaled: Delete`) delete the claims of a condemned ordinal whose pod is gone.
 */
export type StatefulSetStep = { readonly create: string } | { readonly remove: string } | { readonly claims: string } | { readonly dropClaims: string };

/** The ordinal of a StatefulSet pod `<set>-<ordinal>`. */
const ordinalOf = (set: string, pod: string): number => Number(pod.slice(set.length + 1));

const ordinalNames = new Map<string, string[]>();

/** `<set>-<i>`, the name of a StatefulSet's pod of ordinal i (kept for the run). */
function ordinalName(set: string, i: number): string {
  let names = ordinalNames.get(set);
  if (names === undefined) ordinalNames.set(set, (names = []));
  return (names[i] ??= `${set}-${i}`);
}

/** Whether StatefulSet `set` has a pod object of ordinal `replicas` or above (a condemned one). */
function anyCondemned(pods: readonly PodObject[], set: string, replicas: number): boolean {
  for (let i = 0; i < pods.length; i++) if (pods[i].workload === set && ordinalOf(set, pods[i].name) >= replicas) return true;
  return false;
}

/**
 * What the controller of StatefulSet `w` does now, or undefined (`updateStatefulSet` in
 * stateful_set_control.go). First the replicas, ordinals 0 … spec.replicas-1 from the lowest: the
 * first missing one is created; OrderedReady (`monotonic`) stops at the first that is not Running
 * and Ready, so ordinal i is created only while 0 … i-1 all run and are Ready (once created it is
 * unbound, hence not Ready, so nothing above it is due until it runs). Then the condemned pods,
 * ordinals at or above spec.replicas (a scale-down), from the highest: one that is Terminating is
 * waited for (OrderedReady) or skipped (Parallel); OrderedReady deletes the highest only when it
 * is Running and Ready or is the first unhealthy pod, one per sync; Parallel deletes one per sync
 * without waiting for the one above to go (Kubernetes deletes them all in one sync; here they
 * are urgent steps of one instant, so no fault or operator step comes between them either).
 */
export function statefulSetStepOf(s: ClusterState, w: WorkloadCtx, parallel = false): StatefulSetStep | undefined {
  const pods = s.api.pods;
  const replicas = replicasOf(s, w);
  let firstUnhealthy: string | undefined;
  for (let i = 0; i < replicas; i++) {
    const name = ordinalName(w.name, i);
    const k = podIndex(s, name);
    if (k < 0) {
      // A claim being deleted fails the create ("pvc … is being deleted"): nothing changes until it is gone.
      if (w.claimTemplates.length === 0 || !claimBeingDeleted(s, w, name)) return { create: name };
      if (!parallel) return undefined;
      firstUnhealthy ??= name;
      continue;
    }
    // A Pending pod gets its missing claims again (processReplica: createMissingPersistentVolumeClaims).
    if (w.claimTemplates.length > 0 && pods[k].nodeName < 0 && pods[k].deletion === null && claimMissing(s, w, name)) return { claims: name };
    // Parallel (stateful_set_control.go: `monotonic` false) waits for no lower ordinal.
    if (!podRunningAndReady(s, pods[k])) {
      if (!parallel) return undefined;
      firstUnhealthy ??= name;
    }
  }
  if (!anyCondemned(pods, w.name, replicas)) return w.deleteClaimsWhenScaled ? condemnedClaims(s, w, replicas) : undefined;
  const condemned = pods.filter((p) => p.workload === w.name && ordinalOf(w.name, p.name) >= replicas).sort((a, b) => ordinalOf(w.name, a.name) - ordinalOf(w.name, b.name));
  if (condemned.length === 0) return undefined;
  firstUnhealthy ??= condemned.find((p) => !podRunningAndReady(s, p))?.name;
  for (let k = condemned.length - 1; k >= 0; k--) {
    const p = condemned[k];
    if (p.deletion !== null) {
      if (!parallel) return undefined;
      continue;
    }
    if (!parallel && !podRunningAndReady(s, p) && p.name !== firstUnhealthy) return undefined;
    return { remove: p.name };
  }
  return undefined;
}

/**
 * With `whenScaled: Delete`, the first ordinal at or above `replicas` whose pod is gone and whose
 * claims are not all Terminating yet: the garbage collector deletes them (their owner, the
 * condemned pod, is gone).
 */
function condemnedClaims(s: ClusterState, w: WorkloadCtx, replicas: number): StatefulSetStep | undefined {
  for (const c of claimsOf(s)) {
    if (c.workload !== w.name || c.deleting === true || ordinalOf(w.name, c.pod) < replicas || podIndex(s, c.pod) >= 0) continue;
    return { dropClaims: c.pod };
  }
  return undefined;
}

/** The pod the controller of StatefulSet `w` creates now (see {@link statefulSetStepOf}), or undefined. */
export function statefulSetNextOf(s: ClusterState, w: WorkloadCtx, parallel = false): string | undefined {
  const step = statefulSetStepOf(s, w, parallel);
  return step !== undefined && 'create' in step ? step.create : undefined;
}

/** StatefulSets whose podManagementPolicy is Parallel, by name (memoised per config). */
const parallelSets = new WeakMap<Ctx, ReadonlySet<string>>();
function isParallel(ctx: Ctx, name: string): boolean {
  let set = parallelSets.get(ctx);
  if (set === undefined) {
    set = new Set(ctx.config.cluster.workloads.filter((w) => w.podManagementPolicy === 'Parallel').map((w) => w.name));
    parallelSets.set(ctx, set);
  }
  return set.has(name);
}

/** The step of the first StatefulSet (in list order) with work as candidate c sees it, or undefined. */
export function statefulSetNext(ctx: Ctx, s: ClusterState, c: number): (StatefulSetStep & { readonly workload: WorkloadCtx }) | undefined {
  const view = viewOf(s, c);
  for (let i = 0; i < ctx.workloads.length; i++) {
    const w = ctx.workloads[i];
    if (w.kind !== 'StatefulSet' || waiting(s, c, w.name)) continue;
    const next = statefulSetStepOf(view, w, isParallel(ctx, w.name));
    if (next !== undefined) return { ...next, workload: w };
  }
  return undefined;
}

/** The nodes that should run a pod of DaemonSet `w` and have no pod object of it. */
export function daemonSetMissing(s: ClusterState, w: WorkloadCtx): number[] {
  const out: number[] = [];
  s.api.nodes.forEach((node, n) => {
    if (node === null || !w.placement.nodeOk[n] || untoleratedTaint(w.toleration, node.taints)) return;
    if (podIndex(s, daemonPodName(w.name, n)) < 0) out.push(n);
  });
  return out;
}

/** The first DaemonSet (in list order) with nodes missing its pod as candidate c sees it, and those nodes. */
export function daemonSetWork(ctx: Ctx, s: ClusterState, c: number): { workload: WorkloadCtx; nodes: number[] } | undefined {
  const view = viewOf(s, c);
  for (let i = 0; i < ctx.workloads.length; i++) {
    const w = ctx.workloads[i];
    if (w.kind !== 'DaemonSet' || waiting(s, c, w.name)) continue;
    const nodes = daemonSetMissing(view, w);
    if (nodes.length > 0) return { workload: w, nodes };
  }
  return undefined;
}

/**
 * The pods of the etcd backup an `etcd-restore` may still bring back (the initial state's), none
 * once the restore budget is spent: a new incarnation keeps clear of their uids (`freshUid`).
 */
function restorable(ctx: Ctx, s: ClusterState): readonly PodObject[] | undefined {
  if ((s.budget.etcdRestore ?? 0) <= 0) return undefined;
  let pods = backups.get(ctx);
  if (pods === undefined) backups.set(ctx, (pods = initialStates(ctx)[0].api.pods));
  return pods;
}
const backups = new WeakMap<Ctx, readonly PodObject[]>();

/** A pod the controller of `w` creates: a new incarnation of `name`, with a uid no copy of an earlier one in the state carries. */
function newPod(ctx: Ctx, s: ClusterState, w: WorkloadCtx, name: string, node: number = w.pinnedNode): PodObject {
  const uid = freshUid(s, name, restorable(ctx, s));
  return { name, workload: w.name, nodeName: node, deletion: null, tolerations: w.toleration, replacement: true, ...(uid > 0 ? { uid } : {}) };
}

/** Creates pods by name through the API: a name that exists is refused (AlreadyExists). Returns the state and the names created. */
function createPods(s: ClusterState, pods: readonly PodObject[]): { state: ClusterState; created: string[] } {
  const fresh = pods.filter((p) => podIndex(s, p.name) < 0);
  if (fresh.length === 0) return { state: s, created: [] };
  return { state: { ...s, api: { ...s.api, pods: [...s.api.pods, ...fresh].sort(byName) } }, created: fresh.map((p) => p.name) };
}

/**
 * The ReplicaSet controller has synced `w` since its last scale (`status.observedGeneration`
 * caught up): a scale-down's allowance of the pods active before it ends, and an entry back at
 * the configured replicas goes (the same state as one never scaled).
 */
function scaleObserved(s: ClusterState, w: WorkloadCtx): ClusterState {
  const entry = s.api.scale?.[w.name];
  if (entry === undefined || (entry.ceiling === undefined && entry.replicas !== w.replicas)) return s;
  const { [w.name]: _gone, ...rest } = s.api.scale!;
  const scale = entry.replicas === w.replicas ? rest : { ...rest, [w.name]: { replicas: entry.replicas } };
  const { scale: _old, ...api } = s.api;
  return { ...s, api: Object.keys(scale).length === 0 ? api : { ...api, scale } };
}

const byName = (a: PodObject, b: PodObject): number => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0);

export function workloadActions(ctx: Ctx): ClusterAction[] {
  const seconds = (x: number | null): string => (x === null ? 'forever' : x < 0 ? 'none' : `${x}s`);
  const kinds = new Set(ctx.workloads.map((w) => w.kind));
  return [
    clusterAction<string>({
      name: 'replicaset-sync',
      urgent: true,
      params: refs,
      enabled: (s, p) => kcmActs(s, idx(p)) && replicaSetWork(ctx, s, idx(p)) !== undefined && kcmWrites(s, idx(p)),
      apply: (s, p) => {
        const c = idx(p);
        const w = replicaSetWork(ctx, s, c)!;
        // Deletes by name: a pod already gone is NotFound (DeletionObserved at once); an unbound one goes at once.
        const deleted = w.remove.filter((name) => podIndex(s, name) >= 0 && s.api.pods[podIndex(s, name)].deletion === null);
        const next = produce(s, (d) => {
          const pods = d.api.pods.filter((q) => !(deleted.includes(q.name) && q.nodeName < 0));
          for (const q of pods) if (deleted.includes(q.name)) q.deletion = 'replicaset';
          for (const name of w.create) pods.push(castDraft(newPod(ctx, s, w.workload, name)));
          d.api.pods = pods.sort(byName);
        });
        return expect(scaleObserved(next, w.workload), c, w.workload.name, w.create.length, deleted.length);
      },
      describe: (b, p) => {
        const w = replicaSetWork(ctx, b, idx(p))!;
        const parts = [];
        const t = w.workload.toleration;
        const pin = w.workload.pinnedNode;
        const bound = pin >= 0 ? `, spec.nodeName ${nodeName(pin)}` : '';
        if (w.create.length) parts.push(`creates ${w.create.join(', ')} (tolerations admitted: unreachable ${seconds(t.unreachable)}, not-ready ${seconds(t.notReady)}${bound})`);
        if (w.remove.length) parts.push(`deletes ${w.remove.join(', ')}`);
        const stale = kcmView(b, idx(p)) !== b ? ' (from its informer cache)' : '';
        return { actor: 'kube-controller-manager/replicaset', summary: parts.join('; ') + stale, to: [...API] };
      },
    }),
    clusterAction<string>({
      name: 'statefulset-sync',
      urgent: true,
      params: refs,
      enabled: (s, p) => kcmActs(s, idx(p)) && statefulSetNext(ctx, s, idx(p)) !== undefined && kcmWrites(s, idx(p)),
      apply: (s, p) => {
        const step = statefulSetNext(ctx, s, idx(p))!;
        const w = step.workload;
        // The claims first, then the pod (createPersistentVolumeClaims, then the pod's create).
        if ('create' in step) return kcmAwait(createPods(withClaimsFor(s, w, step.create), [newPod(ctx, s, w, step.create)]).state, idx(p), w.name);
        if ('claims' in step) return kcmAwait(withClaimsFor(s, w, step.claims), idx(p), w.name);
        if ('dropClaims' in step) return kcmAwait(w.claimTemplates.reduce((st, t) => deleteClaim(st, claimName(t.name, step.dropClaims)).state, s), idx(p), w.name);
        // A scale-down deletes the condemned pod gracefully (an unbound one goes at once); one its
        // cache still shows but the API no longer has is NotFound, and the set waits for the event.
        const k = podIndex(s, step.remove);
        if (k < 0 || s.api.pods[k].deletion !== null) return kcmAwait(s, idx(p), w.name);
        const pods = s.api.pods[k].nodeName < 0 ? s.api.pods.filter((_, j) => j !== k) : s.api.pods.map((q, j) => (j === k ? { ...q, deletion: 'statefulset' as const } : q));
        return kcmAwait({ ...s, api: { ...s.api, pods } }, idx(p), w.name);
      },
      describe: (b, p) => {
        const step = statefulSetNext(ctx, b, idx(p));
        if (step !== undefined && 'remove' in step) {
          const gone = podIndex(b, step.remove) < 0 || b.api.pods[podIndex(b, step.remove)].deletion !== null;
          return { actor: 'kube-controller-manager/statefulset', summary: `deletes ${step.remove} (scale-down to ${replicasOf(b, step.workload)})${gone ? ': already gone or Terminating (its informer cache is behind); waits for a watch event' : ''}`, to: [...API] };
        }
        if (step !== undefined && 'claims' in step) {
          return { actor: 'kube-controller-manager/statefulset', summary: `creates the missing claims of the Pending pod ${step.claims} (${step.workload.claimTemplates.map((t) => claimName(t.name, step.claims)).join(', ')}, unbound)`, to: [...API] };
        }
        if (step !== undefined && 'dropClaims' in step) {
          return { actor: 'kube-controller-manager/garbagecollector', summary: `deletes ${step.workload.claimTemplates.map((t) => claimName(t.name, step.dropClaims)).join(', ')} (whenScaled: Delete; owned by the scaled-down pod ${step.dropClaims}, which is gone)`, to: [...API] };
        }
        const name = step !== undefined && 'create' in step ? step.create : undefined;
        const pin = step?.workload.pinnedNode ?? -1;
        const exists = name !== undefined && podIndex(b, name) >= 0;
        // Its claims: each reused as it is (bound where its volume lives) or created unbound.
        const claims = name === undefined || exists ? [] : step!.workload.claimTemplates.map((t) => {
          const c = claimNamed(b, claimName(t.name, name));
          return c === undefined ? `${claimName(t.name, name)} (new)` : `${c.name} (kept, ${describePlace(c)})`;
        });
        const summary = `creates ${name ?? '?'}${pin >= 0 ? ` (spec.nodeName ${nodeName(pin)})` : ''}${claims.length > 0 ? ` with claims ${claims.join(', ')}` : ''}${exists ? ': 409 AlreadyExists (its informer cache is behind); waits for a watch event' : ''}`;
        return { actor: 'kube-controller-manager/statefulset', summary, to: [...API] };
      },
    }),
    ...(kinds.has('DaemonSet')
      ? [
          clusterAction<string>({
            name: 'daemonset-sync',
            urgent: true,
            params: refs,
            enabled: (s, p) => kcmActs(s, idx(p)) && daemonSetWork(ctx, s, idx(p)) !== undefined && kcmWrites(s, idx(p)),
            apply: (s, p) => {
              const w = daemonSetWork(ctx, s, idx(p))!;
              const made = createPods(s, w.nodes.map((n) => newPod(ctx, s, w.workload, daemonPodName(w.workload.name, n), n)));
              return kcmAwait(made.state, idx(p), w.workload.name);
            },
            describe: (b, p) => {
              const w = daemonSetWork(ctx, b, idx(p));
              const made = w === undefined ? '?' : w.nodes.map((n) => `${daemonPodName(w.workload.name, n)} on ${nodeName(n)}`).join(', ');
              return { actor: 'kube-controller-manager/daemonset', summary: `creates ${made} (tolerating unreachable and not-ready forever)`, to: [...API] };
            },
          }),
        ]
      : []),
  ];
}
