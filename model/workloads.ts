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
 *   **Ready here** (the model has no pod phases or pod conditions) means: the pod object exists,
 *   is bound, has no deletionTimestamp, its Node object exists with Ready=True (the node lifecycle
 *   controller's MarkPodsNotReady makes every pod of a node it marks Unknown NotReady), and its
 *   container is in that node's `running` list. That list is the real state, not the last status
 *   the kubelet posted: a pod on a crashed node counts as unready at once, whereas Kubernetes
 *   keeps its stale Ready status until the node is marked Unknown (this only matters for creating
 *   a missing higher ordinal within that grace period). Not modelled: readiness probes (a running
 *   container is Ready), minReadySeconds (0: Ready is Available), the Parallel policy, failed or
 *   succeeded pods being deleted and recreated, scale-down of condemned ordinals, updates.
 * - DaemonSet (pkg/controller/daemon): one pod per node, named `<name>-node-<n>` (Kubernetes'
 *   `<name>-<random>` abstracted), tolerating unreachable and not-ready NoExecute forever
 *   (`AddOrUpdateDaemonPodTolerations`), so taint eviction never removes it. The controller
 *   creates the pod of a node that should run one (`NodeShouldRunDaemonPod`: its Node object
 *   exists and carries no taint the pod does not tolerate: unreachable/not-ready NoSchedule and
 *   out-of-service are not tolerated, unschedulable is) and has no pod object of that name.
 *   Abstracted: Kubernetes creates the pod with a node affinity and the scheduler binds it; here
 *   it is created bound to its node, which the scheduler's filters would pick alone. A
 *   Terminating pod does not count in Kubernetes and a new one (of another name) is created at
 *   once; here the name is per node, so the controller waits until the old object is gone.
 *   Not modelled: nodeSelector and affinity (every node runs one), rolling updates, burst limits.
 *
 * Informers are up to date within the instant, so expectations are not modelled.
 */
import { produce } from 'immer';
import { daemonPodName } from './config.js';
import { API, clusterAction, type ClusterAction, type Ctx, type WorkloadCtx } from './context.js';
import { acting, canWrite, KCM, nodeName, podIndex, type ClusterState, type PodObject, type Taint } from './state.js';

const refs = (s: ClusterState): string[] => s.candidates[KCM].map((_, c) => `kube-controller-manager-${c + 1}`);
const idx = (p: string): number => Number(p.slice('kube-controller-manager-'.length)) - 1;

function kcmCanWrite(s: ClusterState, c: number): boolean {
  const k = s.candidates[KCM][c];
  return acting(k) && k.ctrl !== null && canWrite(s, k.partitioned);
}

/** A ReplicaSet's pending change: pods to create (names) and to delete. */
export function replicaSetWorkOf(s: ClusterState, w: WorkloadCtx): { create: string[]; remove: string[] } | undefined {
  const want = w.replicas;
  const active = s.api.pods.filter((p) => p.workload === w.name && p.deletion === null);
  if (active.length === want) return undefined;
  if (active.length > want) {
    const ranked = [...active].sort((a, b) => Number(a.nodeName >= 0) - Number(b.nodeName >= 0) || (a.name < b.name ? 1 : -1));
    return { create: [], remove: ranked.slice(0, active.length - want).map((p) => p.name) };
  }
  const used = new Set<string>(s.api.pods.map((p) => p.name));
  for (const n of s.nodes) for (const r of n.running) used.add(r);
  const create: string[] = [];
  for (let k = 0; create.length < want - active.length; k++) if (!used.has(`${w.name}-${k}`)) create.push(`${w.name}-${k}`);
  return { create, remove: [] };
}

/** The first ReplicaSet (in list order) with a pending change, and the change. */
export function replicaSetWork(ctx: Ctx, s: ClusterState): { workload: WorkloadCtx; create: string[]; remove: string[] } | undefined {
  for (const w of ctx.workloads) {
    if (w.kind !== 'ReplicaSet') continue;
    const work = replicaSetWorkOf(s, w);
    if (work !== undefined) return { workload: w, ...work };
  }
  return undefined;
}

/**
 * The StatefulSet pod is Running and Ready as far as the model can tell (see the header): bound,
 * not Terminating, on a Node object with Ready=True, its container running there.
 */
function statefulSetPodReady(s: ClusterState, p: PodObject): boolean {
  if (p.nodeName < 0 || p.deletion !== null) return false;
  const node = s.api.nodes[p.nodeName];
  return node !== null && node.ready === 'True' && s.nodes[p.nodeName].running.includes(p.name);
}

/**
 * The pod the OrderedReady controller of StatefulSet `w` creates now, or undefined: the lowest
 * ordinal whose pod object does not exist, provided every lower ordinal exists, is not
 * Terminating and is Ready (otherwise the controller waits). Once it has created ordinal i, that
 * pod is unbound hence not Ready, so nothing above it is due until it runs.
 */
export function statefulSetNextOf(s: ClusterState, w: WorkloadCtx): string | undefined {
  const pods = s.api.pods;
  for (let i = 0; i < w.replicas; i++) {
    const name = `${w.name}-${i}`;
    const k = podIndex(s, name);
    if (k < 0) return name;
    if (!statefulSetPodReady(s, pods[k])) return undefined;
  }
  return undefined;
}

/** The pod the first StatefulSet (in list order) with work creates now, or undefined. */
export function statefulSetNext(ctx: Ctx, s: ClusterState): string | undefined {
  for (const w of ctx.workloads) {
    if (w.kind !== 'StatefulSet') continue;
    const next = statefulSetNextOf(s, w);
    if (next !== undefined) return next;
  }
  return undefined;
}

/** Taints a DaemonSet pod does not tolerate (NoSchedule and NoExecute; it tolerates unschedulable, unreachable and not-ready NoExecute). */
const DAEMON_UNTOLERATED: readonly Taint[] = ['unreachable:NoSchedule', 'not-ready:NoSchedule', 'out-of-service:NoExecute'];

/** The nodes that should run a pod of DaemonSet `w` and have no pod object of it. */
export function daemonSetMissing(s: ClusterState, w: WorkloadCtx): number[] {
  const out: number[] = [];
  s.api.nodes.forEach((node, n) => {
    if (node === null || DAEMON_UNTOLERATED.some((t) => node.taints.includes(t))) return;
    if (podIndex(s, daemonPodName(w.name, n)) < 0) out.push(n);
  });
  return out;
}

/** The first DaemonSet (in list order) with nodes missing its pod, and those nodes. */
export function daemonSetWork(ctx: Ctx, s: ClusterState): { workload: WorkloadCtx; nodes: number[] } | undefined {
  for (const w of ctx.workloads) {
    if (w.kind !== 'DaemonSet') continue;
    const nodes = daemonSetMissing(s, w);
    if (nodes.length > 0) return { workload: w, nodes };
  }
  return undefined;
}

function newPod(w: WorkloadCtx, name: string, node: number = w.pinnedNode): PodObject {
  return { name, workload: w.name, nodeName: node, deletion: null, tolerations: w.toleration, replacement: true };
}

const byName = (a: PodObject, b: PodObject): number => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0);

export function workloadActions(ctx: Ctx): ClusterAction[] {
  const seconds = (x: number | null): string => (x === null ? 'forever' : `${x}s`);
  const kinds = new Set(ctx.workloads.map((w) => w.kind));
  return [
    clusterAction<string>({
      name: 'replicaset-sync',
      urgent: true,
      params: refs,
      enabled: (s, p) => kcmCanWrite(s, idx(p)) && replicaSetWork(ctx, s) !== undefined,
      apply: (s) => {
        const w = replicaSetWork(ctx, s)!;
        return produce(s, (d) => {
          const pods = d.api.pods.filter((p) => !(w.remove.includes(p.name) && p.nodeName < 0));
          for (const p of pods) if (w.remove.includes(p.name)) p.deletion = 'replicaset';
          for (const name of w.create) pods.push(newPod(w.workload, name));
          d.api.pods = pods.sort(byName);
        });
      },
      describe: (b) => {
        const w = replicaSetWork(ctx, b)!;
        const parts = [];
        const t = w.workload.toleration;
        const pin = w.workload.pinnedNode;
        const bound = pin >= 0 ? `, spec.nodeName ${nodeName(pin)}` : '';
        if (w.create.length) parts.push(`creates ${w.create.join(', ')} (tolerations admitted: unreachable ${seconds(t.unreachable)}, not-ready ${seconds(t.notReady)}${bound})`);
        if (w.remove.length) parts.push(`deletes ${w.remove.join(', ')}`);
        return { actor: 'kube-controller-manager/replicaset', summary: parts.join('; '), to: [...API] };
      },
    }),
    clusterAction<string>({
      name: 'statefulset-sync',
      urgent: true,
      params: refs,
      enabled: (s, p) => kcmCanWrite(s, idx(p)) && statefulSetNext(ctx, s) !== undefined,
      apply: (s) => {
        const name = statefulSetNext(ctx, s)!;
        const w = ctx.workloadOfPod(name)!;
        return produce(s, (d) => {
          d.api.pods = [...d.api.pods, newPod(w, name)].sort(byName);
        });
      },
      describe: (b) => {
        const name = statefulSetNext(ctx, b);
        const pin = name === undefined ? -1 : (ctx.workloadOfPod(name)?.pinnedNode ?? -1);
        return { actor: 'kube-controller-manager/statefulset', summary: `creates ${name ?? '?'}${pin >= 0 ? ` (spec.nodeName ${nodeName(pin)})` : ''}`, to: [...API] };
      },
    }),
    ...(kinds.has('DaemonSet')
      ? [
          clusterAction<string>({
            name: 'daemonset-sync',
            urgent: true,
            params: refs,
            enabled: (s, p) => kcmCanWrite(s, idx(p)) && daemonSetWork(ctx, s) !== undefined,
            apply: (s) => {
              const w = daemonSetWork(ctx, s)!;
              return produce(s, (d) => {
                d.api.pods = [...d.api.pods, ...w.nodes.map((n) => newPod(w.workload, daemonPodName(w.workload.name, n), n))].sort(byName);
              });
            },
            describe: (b) => {
              const w = daemonSetWork(ctx, b);
              const made = w === undefined ? '?' : w.nodes.map((n) => `${daemonPodName(w.workload.name, n)} on ${nodeName(n)}`).join(', ');
              return { actor: 'kube-controller-manager/daemonset', summary: `creates ${made} (tolerating unreachable and not-ready forever)`, to: [...API] };
            },
          }),
        ]
      : []),
  ];
}
