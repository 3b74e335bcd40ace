/**
 * Safety properties: what Kubernetes promises never happens. Each cites the promise and where it
 * is stated; `kubernetes-semantics.md` (beside DESIGN.md) has the derivations.
 */
import { always, alwaysStep, type ActionLabel, type Property } from '../checker/index.js';
import {
  acting, candidateName, ELECTION_NAMES, heartbeatsOf, isTerminating, kubeletReachesApi, nodeName, onlyReadinessDiffers, podIndex, podOfWorkload, quorum, replicasOf, syncWork, type ClusterConfig, type ClusterState, type WorkloadConfig,
} from '../model/index.js';
import { apiWrites, boundTo, copiesRunning, listOf, nodesRunning, oneLine, workloadsOfKind } from './helpers.js';

/**
 * Each property's `explain` says in one line why the last state of a counterexample violates it,
 * naming nodes (`node-1`), pods and processes (`kube-scheduler-2`) as the timelines do.
 */

/**
 * `single-leader`: per leader-election Lease, at most one process acts as leader (believes it
 * leads while running and not paused). client-go promises this only under bounded clock-rate skew
 * and timely processes: "does not guarantee that only one client is acting as a leader (a.k.a.
 * fencing)" (kubernetes/client-go:tools/leaderelection/leaderelection.go package doc).
 */
export const singleLeader: Property<ClusterState> = always<ClusterState>(
  'single-leader',
  'at most one process per leader-election Lease acts as leader at any instant',
  (s) => {
    for (let e = 0; e < s.candidates.length; e++) {
      const list = s.candidates[e];
      let leaders = 0;
      for (let c = 0; c < list.length; c++) if (list[c].up && list[c].paused === 0 && list[c].leader && ++leaders > 1) return false;
    }
    return true;
  },
  { source: 'kubernetes/client-go:tools/leaderelection/leaderelection.go (package doc, isLeaseValid)', explain: explainLeaders },
);

/** `kube-scheduler-1 and kube-scheduler-2 both act as kube-scheduler leader (the Lease names kube-scheduler-2)`. */
export function explainLeaders(s: ClusterState): string | undefined {
  return oneLine(s.candidates.flatMap((list, e) => {
    const leaders = list.flatMap((k, c) => (acting(k) ? [candidateName(e, c)] : []));
    if (leaders.length < 2) return [];
    const holder = s.api.leases[e].holder;
    return [`${listOf(leaders)} ${leaders.length === 2 ? 'both' : 'all'} act as ${ELECTION_NAMES[e]} leader (the Lease ${holder >= 0 ? `names ${candidateName(e, holder)}` : 'is held by none'})`];
  }));
}

/**
 * `no-double-binding`: a pod object is bound at most once and spec.nodeName never changes:
 * `pods/binding` fails with 409 when nodeName is already set ("pod %v is already assigned to node").
 * The model's API performs that compare-and-swap, so in the stock model this holds by
 * construction: it guards users' own controllers (extensions) and changes to the model.
 */
export const noDoubleBinding: Property<ClusterState> = alwaysStep<ClusterState>(
  'no-double-binding',
  'a bound pod object never changes its nodeName',
  (before, _a, after) => {
    if (before.api.pods === after.api.pods) return true;
    for (let i = 0; i < before.api.pods.length; i++) {
      const p = before.api.pods[i];
      if (p.nodeName < 0) continue;
      const k = podIndex(after, p.name);
      if (k >= 0 && after.api.pods[k].nodeName !== p.nodeName) return false;
    }
    return true;
  },
  { source: 'kubernetes/kubernetes:pkg/registry/core/pod/storage/storage.go (BindingREST, assignPod)', explain: explainRebinding },
);

/** `db-0, bound to node-3, is bound again, to node-1` (or has its nodeName cleared). */
export function explainRebinding(before: ClusterState, _a: ActionLabel, after: ClusterState): string | undefined {
  return oneLine(before.api.pods.flatMap((p) => {
    if (p.nodeName < 0) return [];
    const q = after.api.pods.find((x) => x.name === p.name);
    if (q === undefined || q.nodeName === p.nodeName) return [];
    return [`${p.name}, bound to ${nodeName(p.nodeName)}, ${q.nodeName >= 0 ? `is bound again, to ${nodeName(q.nodeName)}` : 'has its nodeName cleared'}`];
  }));
}

/**
 * `statefulset-at-most-one`: "StatefulSet ensures that, at any time, there is at most one Pod
 * with a given identity running in a cluster", counting containers really running on nodes; for
 * every StatefulSet of the config (an identity is `<name>-<ordinal>`).
 */
export function statefulSetAtMostOne(config: ClusterConfig): Property<ClusterState> {
  const sets = workloadsOfKind(config, 'StatefulSet');
  return always<ClusterState>(
    'statefulset-at-most-one',
    'at most one running copy of each StatefulSet pod identity, counting what really runs on nodes',
    (s) => {
      for (let n = 0; n < s.nodes.length; n++) {
        const running = s.nodes[n].running;
        for (let r = 0; r < running.length; r++) if (ofAny(running[r], sets) && copiesRunning(s, running[r]) > 1) return false;
      }
      return true;
    },
    {
      source: 'https://kubernetes.io/docs/tasks/run-application/force-delete-stateful-set-pod/',
      explain: (s) => explainCopies(s, (pod) => ofAny(pod, sets)),
    },
  );
}

/** Whether `pod` is a pod of one of the workloads. */
function ofAny(pod: string, workloads: readonly WorkloadConfig[]): boolean {
  for (let i = 0; i < workloads.length; i++) if (podOfWorkload(pod, workloads[i])) return true;
  return false;
}

/** `db-0 runs on node-1 and on node-3` for each pod (of those `counted`) running on more than one node that is up. */
export function explainCopies(s: ClusterState, counted: (pod: string) => boolean): string | undefined {
  const pods = [...new Set(s.nodes.flatMap((n) => n.running))].filter(counted).sort();
  return oneLine(pods.flatMap((pod) => {
    const nodes = nodesRunning(s, pod).map(nodeName);
    if (nodes.length < 2) return [];
    return [`${pod} runs on ${nodes.length === 2 ? `${nodes[0]} and on ${nodes[1]}` : listOf(nodes)}`];
  }));
}

/**
 * `no-schedule-on-unready`: no new binding to a node tainted unreachable or not-ready with
 * effect NoSchedule (pods do not tolerate it): TaintNodesByCondition, the scheduler's TaintToleration filter.
 * With every component reading the API as it is, this holds by construction (the scheduler's
 * filter is modelled) and guards users' own controllers (extensions) and changes to the model.
 * With informer caches (`informers.watchLag`) it can fail as it can in Kubernetes: the
 * scheduler filters on its cached Node, which may not carry a taint put since, and the binding
 * does not check taints.
 */
export const noScheduleOnUnready: Property<ClusterState> = alwaysStep<ClusterState>(
  'no-schedule-on-unready',
  'no pod is bound to a node tainted unreachable/not-ready:NoSchedule',
  (before, _a, after) => {
    if (before.api.pods === after.api.pods) return true;
    for (let i = 0; i < after.api.pods.length; i++) {
      const q = after.api.pods[i];
      if (q.nodeName < 0) continue;
      const k = podIndex(before, q.name);
      if (k >= 0 && before.api.pods[k].nodeName >= 0) continue;
      if (k < 0) continue; // created bound: not by the scheduler
      const node = before.api.nodes[q.nodeName];
      if (node !== null && (node.taints.includes('unreachable:NoSchedule') || node.taints.includes('not-ready:NoSchedule'))) return false;
    }
    return true;
  },
  { source: 'https://kubernetes.io/docs/concepts/scheduling-eviction/taint-and-toleration/#taint-nodes-by-condition', explain: explainTaintedBinding },
);

/** `web-2 is bound to node-1, tainted unreachable:NoSchedule`. */
export function explainTaintedBinding(before: ClusterState, _a: ActionLabel, after: ClusterState): string | undefined {
  return oneLine(after.api.pods.flatMap((q) => {
    const p = before.api.pods.find((x) => x.name === q.name);
    if (q.nodeName < 0 || p === undefined || p.nodeName >= 0) return [];
    const taints = before.api.nodes[q.nodeName]?.taints.filter((t) => t === 'unreachable:NoSchedule' || t === 'not-ready:NoSchedule') ?? [];
    return taints.length === 0 ? [] : [`${q.name} is bound to ${nodeName(q.nodeName)}, tainted ${taints.join(' and ')}`];
  }));
}

/**
 * `writes-need-quorum`: nothing is written to the API (objects or Lease renewals) unless etcd
 * has quorum ⌊n/2⌋+1: "the etcd cluster fails and cannot accept more writes" without a majority.
 * In the stock model this holds by construction (every API write in the model checks quorum); it guards users' own controllers
 * (extensions) and changes to the model, where it can fail.
 */
export const writesNeedQuorum: Property<ClusterState> = alwaysStep<ClusterState>(
  'writes-need-quorum',
  'every API write (object change or Lease renewal) happens while etcd has quorum',
  // A pod's Ready condition posted once its kubelet can write again is that kubelet's own write, after the step (quorum then).
  (before, action, after) => ((before.api === after.api || (onlyReadinessDiffers(before.api, after.api) && quorum(after))) && (action.name !== 'kubelet-heartbeat' || heartbeatsOf(before, action).length === 0)) || quorum(before),
  { source: 'https://etcd.io/docs/v3.6/op-guide/failures/; etcd-io/website:content/en/docs/v3.6/faq.md', explain: explainWriteWithoutQuorum },
);

/** `pod web-2 is written while 1 of 3 etcd members is up (quorum is 2)`. */
export function explainWriteWithoutQuorum(before: ClusterState, action: ActionLabel, after: ClusterState): string | undefined {
  if (quorum(before)) return undefined;
  const writes = [...heartbeatsOf(before, action).map((n) => `the Lease of ${nodeName(n)}`), ...apiWrites(before, after)];
  if (writes.length === 0) return undefined;
  const up = before.etcd.filter(Boolean).length;
  return `${listOf(writes)} ${writes.length === 1 ? 'is' : 'are'} written while ${up} of ${before.etcd.length} etcd members ${up === 1 ? 'is' : 'are'} up (quorum is ${Math.floor(before.etcd.length / 2) + 1})`;
}

/**
 * `running-pods-keep-running`: a container stops only when its node crashes or after its kubelet
 * saw the pod deleted, terminating or bound elsewhere, or its node shutting down, and sent SIGTERM
 * (it exits, or is killed when the grace period ends); control-plane trouble never stops a running
 * pod ("Running Pods Keep Running", control-plane component failure table), and neither does a
 * container runtime failure (the containers run on under their shims).
 * In the stock model this holds by construction (the kubelet's stop rule is modelled); it guards users' own controllers
 * (extensions) and changes to the model, where it can fail.
 */
export const runningPodsKeepRunning: Property<ClusterState> = alwaysStep<ClusterState>(
  'running-pods-keep-running',
  'a container stops only on a node crash or shutdown, or when its kubelet sees its pod deleted',
  (before, action, after) => unexplainedStops(before, action, after, true).length === 0,
  {
    source: 'https://kubernetes.io/docs/concepts/scheduling-eviction/taint-and-toleration/#taint-based-evictions (pods "may continue to run on the partitioned node"); https://kubernetes.io/docs/concepts/architecture/nodes/',
    explain: explainStops,
  },
);

/** The containers (node, pod) that stop on a step for none of the reasons `running-pods-keep-running` allows; `first`: stop at the first. */
function unexplainedStops(before: ClusterState, action: ActionLabel, after: ClusterState, first: boolean): readonly Container[] {
  let out: Container[] | undefined;
  for (let n = 0; n < before.nodes.length; n++) {
    const was = before.nodes[n].running;
    const now = after.nodes[n].running;
    if (was === now) continue;
    for (let r = 0; r < was.length; r++) {
      const name = was[r];
      if (now.includes(name)) continue;
      // The node crashed on this step: its containers die.
      if (before.nodes[n].up && !after.nodes[n].up) continue;
      // After SIGTERM (its kubelet saw the pod deleted, terminating or bound elsewhere) the
      // containers exit by themselves or are killed when the grace period ends.
      if ((action.name === 'container-exit' || action.name === 'kubelet-kill') && isTerminating(before.nodes[n], name)) continue;
      const k = podIndex(before, name);
      if (action.name === 'kubelet-sync' && (k < 0 || before.api.pods[k].deletion !== null || before.api.pods[k].nodeName !== n)) continue;
      (out ??= []).push({ node: n, pod: name });
      if (first) return out;
    }
  }
  return out ?? NONE;
}

/** A container of pod `pod` on node `node` (an index). */
interface Container {
  readonly node: number;
  readonly pod: string;
}
const NONE: readonly Container[] = Object.freeze([]);

/** `web-0 stops running on node-1 (step extension-kill), though node-1 did not crash, ...`. */
export function explainStops(before: ClusterState, action: ActionLabel, after: ClusterState): string | undefined {
  return oneLine(unexplainedStops(before, action, after, false).map(({ node, pod }) => {
    const where = `${pod} stops running on ${nodeName(node)}`;
    if (action.name === 'kubelet-sync') return `${where}: its kubelet stops it while its pod object is bound there and not deleted`;
    if (action.name === 'container-exit' || action.name === 'kubelet-kill') return `${where} (${action.name}) though its kubelet never sent it SIGTERM`;
    return `${where} (${action.name}), though ${nodeName(node)} did not crash and its kubelet sent no SIGTERM`;
  }));
}

/**
 * How many active pods ReplicaSet `w` may have: its spec.replicas, or after a scale-down the
 * controller has not synced yet, the pods that were active when it was written.
 */
function allowedActive(s: ClusterState, w: { readonly name: string; readonly replicas: number }): number {
  return Math.max(replicasOf(s, w), s.api.scale?.[w.name]?.ceiling ?? 0);
}

/** Whether some ReplicaSet of `sets` has more active pods (no deletionTimestamp, `IsPodActive`) than it may. */
export function anyReplicaSetExcess(s: ClusterState, sets: readonly WorkloadConfig[]): boolean {
  for (let i = 0; i < sets.length; i++) if (activeExcess(s, sets[i]) > 0) return true;
  return false;
}

/** Active pods of ReplicaSet `w` above what it may have, its spec.replicas or allowance (0 or less: none). */
function activeExcess(s: ClusterState, w: WorkloadConfig): number {
  let active = 0;
  const pods = s.api.pods;
  for (let i = 0; i < pods.length; i++) if (pods[i].workload === w.name && pods[i].deletion === null) active++;
  return active - allowedActive(s, w);
}

/**
 * `replicaset-at-most-replicas`: a ReplicaSet never has more active pods than spec.replicas.
 * What holds it while the controller's informer cache is behind is the controller's
 * expectations: it does not sync a ReplicaSet while creations or deletions it made are unseen,
 * unless they are older than `ExpectationsTimeout` (5 min). So the promise holds while watch
 * events arrive within that timeout and one kube-controller-manager leads; a watch that lags
 * longer, or two leaders at once (no fencing), over-create, and the controller corrects it by
 * scaling down once its cache catches up.
 */
export function replicaSetAtMostReplicas(config: ClusterConfig): Property<ClusterState> {
  const sets = workloadsOfKind(config, 'ReplicaSet');
  return always<ClusterState>(
    'replicaset-at-most-replicas',
    'no ReplicaSet has more active (not Terminating) pods than spec.replicas',
    (s) => !anyReplicaSetExcess(s, sets),
    {
      source: 'kubernetes/kubernetes:pkg/controller/controller_utils.go (ControllerExpectations, ExpectationsTimeout); pkg/controller/replicaset/replica_set.go (manageReplicas)',
      explain: (s) => explainExcess(config, s),
    },
  );
}

/** `web has 3 active pods (web-0, web-1, web-2), more than its 2 replicas`. */
export function explainExcess(config: ClusterConfig, s: ClusterState): string | undefined {
  return oneLine(workloadsOfKind(config, 'ReplicaSet').flatMap((w) => {
    const active = s.api.pods.filter((p) => p.workload === w.name && p.deletion === null).map((p) => p.name);
    const allowed = allowedActive(s, w);
    return active.length > allowed ? [`${w.name} has ${active.length} active pods (${active.join(', ')}), more than its ${allowed} ${allowed === 1 ? 'replica' : 'replicas'}`] : [];
  }));
}

/**
 * `no-phantom-pods`: every container a kubelet runs has a pod object bound to its node, whenever
 * that kubelet is in touch with the API and has nothing left to do. Kubernetes deletes a pod
 * object only after its kubelet stopped the containers (or by a force delete, which the kubelet
 * acts on at its next sync by SIGTERM and a grace period, during which the container is no
 * phantom), so a container without an object is one nobody manages: no
 * controller counts it, nothing stops it. An etcd restore from an older snapshot while kubelets
 * run leaves the containers of pods created since running (their watch waits for a revision
 * etcd is now behind of), kubernetes/kubernetes#131115; a kubelet restart relists and stops them.
 */
export const noPhantomPods: Property<ClusterState> = always<ClusterState>(
  'no-phantom-pods',
  'every container a kubelet in touch with the API runs has a pod object bound to its node',
  (s) => phantoms(s, true).length === 0,
  {
    source: 'https://github.com/kubernetes/kubernetes/issues/131115; https://kubernetes.io/docs/tasks/administer-cluster/configure-upgrade-etcd/#restoring-an-etcd-cluster',
    explain: (s) => oneLine(phantoms(s, false).map(({ node, pod }) => {
      const object = s.api.pods.find((p) => p.name === pod);
      const where = object === undefined ? 'there is no pod object of that name' : object.nodeName < 0 ? 'its pod object is Pending' : `its pod object is bound to ${boundTo(object.nodeName)}`;
      return `${pod} runs on ${nodeName(node)}, whose kubelet is in touch with the API, but ${where}`;
    })),
  },
);

/** The containers (node, pod) `no-phantom-pods` finds without a pod object bound to their node; `first`: stop at the first. */
function phantoms(s: ClusterState, first: boolean): readonly Container[] {
  let out: Container[] | undefined;
  for (let n = 0; n < s.nodes.length; n++) {
    const node = s.nodes[n];
    if (!node.up || !node.kubeletUp || node.running.length === 0 || !kubeletReachesApi(s, n)) continue;
    if (node.podWatchStuck !== true && syncWork(s, n) !== undefined) continue; // it acts on what it sees at once
    for (let r = 0; r < node.running.length; r++) {
      const name = node.running[r];
      if (boundHere(s, name, n)) continue;
      if (isTerminating(node, name)) continue; // SIGTERM sent: in its grace period, the kubelet stops it
      (out ??= []).push({ node: n, pod: name });
      if (first) return out;
    }
  }
  return out ?? NONE;
}

/** Whether a pod object named `name` is bound to node n. */
function boundHere(s: ClusterState, name: string, n: number): boolean {
  for (let i = 0; i < s.api.pods.length; i++) if (s.api.pods[i].name === name && s.api.pods[i].nodeName === n) return true;
  return false;
}

/** `no-node-unknown`: no node is marked Ready=Unknown (expected when nothing can write). */
export const noNodeUnknown: Property<ClusterState> = always<ClusterState>(
  'no-node-unknown',
  'no node is marked Ready=Unknown',
  (s) => s.api.nodes.every((n) => n === null || n.ready !== 'Unknown'),
  {
    source: 'https://etcd.io/docs/v3.6/op-guide/failures/ (a majority failure "cannot accept more writes"); kubernetes/kubernetes:pkg/controller/nodelifecycle/node_lifecycle_controller.go (Unknown is written through the API)',
    explain: (s) => {
      const unknown = s.api.nodes.flatMap((n, i) => (n !== null && n.ready === 'Unknown' ? [nodeName(i)] : []));
      return unknown.length === 0 ? undefined : `${listOf(unknown)} ${unknown.length === 1 ? 'is' : 'are'} marked Ready=Unknown`;
    },
  },
);

/** `no-pod-evicted`: no pod is evicted by taint eviction (expected without a controller manager or quorum). */
export const noPodEvicted: Property<ClusterState> = always<ClusterState>(
  'no-pod-evicted',
  'no pod is deleted by the taint eviction controller',
  (s) => s.api.pods.every((p) => p.deletion !== 'taint-eviction'),
  {
    source: 'https://kubernetes.io/docs/concepts/architecture/#kube-controller-manager; kubernetes/kubernetes:pkg/controller/tainteviction/taint_eviction.go (evictions are the controller\'s deletes)',
    explain: (s) => oneLine(s.api.pods.filter((p) => p.deletion === 'taint-eviction').map((p) => `${p.name}${p.nodeName >= 0 ? ` on ${nodeName(p.nodeName)}` : ''} is evicted by the taint eviction controller (Terminating)`)),
  },
);

/** `no-replacement-created`: no controller creates a pod (expected with the controller manager down). */
export const noReplacementCreated: Property<ClusterState> = always<ClusterState>(
  'no-replacement-created',
  'no replacement pod object is created',
  (s) => s.api.pods.every((p) => !p.replacement),
  {
    source: 'https://kubernetes.io/docs/concepts/architecture/#kube-controller-manager; kubernetes/kubernetes:pkg/controller/replicaset/replica_set.go',
    explain: (s) => oneLine(s.api.pods.filter((p) => p.replacement).map((p) => `${p.name} is created as a replacement for a pod of ${p.workload} (${p.nodeName >= 0 ? `bound to ${nodeName(p.nodeName)}` : 'Pending'})`)),
  },
);

/** `replacements-stay-pending`: no replacement pod is bound (expected with the scheduler down). */
export const replacementsStayPending: Property<ClusterState> = always<ClusterState>(
  'replacements-stay-pending',
  'every replacement pod stays Pending (unbound)',
  (s) => s.api.pods.every((p) => !p.replacement || p.nodeName < 0),
  {
    source: 'https://kubernetes.io/docs/concepts/architecture/#kube-scheduler ("watches for newly created Pods with no assigned node")',
    explain: (s) => oneLine(s.api.pods.filter((p) => p.replacement && p.nodeName >= 0).map((p) => `replacement ${p.name} is bound to ${nodeName(p.nodeName)}`)),
  },
);
