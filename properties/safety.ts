/**
 * Safety properties: what Kubernetes promises never happens. Each cites the promise and where it
 * is stated; `kubernetes-semantics.md` (beside DESIGN.md) has the derivations.
 */
import { always, alwaysStep, type Property } from '../checker/index.js';
import { heartbeatsOf, isTerminating, kubeletReachesApi, podOfWorkload, quorum, syncWork, type ClusterConfig, type ClusterState } from '../model/index.js';
import { copiesRunning, workloadsOfKind } from './helpers.js';

/**
 * `single-leader`: per leader-election Lease, at most one process acts as leader (believes it
 * leads while running and not paused). client-go promises this only under bounded clock-rate skew
 * and timely processes: "does not guarantee that only one client is acting as a leader (a.k.a.
 * fencing)" (kubernetes/client-go:tools/leaderelection/leaderelection.go package doc).
 */
export const singleLeader: Property<ClusterState> = always<ClusterState>(
  'single-leader',
  'at most one process per leader-election Lease acts as leader at any instant',
  (s) => s.candidates.every((list) => list.filter((k) => k.up && k.paused === 0 && k.leader).length <= 1),
  { source: 'kubernetes/client-go:tools/leaderelection/leaderelection.go (package doc, isLeaseValid)' },
);

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
    for (const p of before.api.pods) {
      if (p.nodeName < 0) continue;
      const q = after.api.pods.find((x) => x.name === p.name);
      if (q !== undefined && q.nodeName !== p.nodeName) return false;
    }
    return true;
  },
  { source: 'kubernetes/kubernetes:pkg/registry/core/pod/storage/storage.go (BindingREST, assignPod)' },
);

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
      const seen = new Set<string>();
      for (const n of s.nodes) for (const r of n.running) if (sets.some((w) => podOfWorkload(r, w))) seen.add(r);
      for (const name of seen) if (copiesRunning(s, name) > 1) return false;
      return true;
    },
    { source: 'https://kubernetes.io/docs/tasks/run-application/force-delete-stateful-set-pod/' },
  );
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
    for (const q of after.api.pods) {
      if (q.nodeName < 0) continue;
      const p = before.api.pods.find((x) => x.name === q.name);
      if (p !== undefined && p.nodeName >= 0) continue;
      if (p === undefined) continue; // created bound: not by the scheduler
      const node = before.api.nodes[q.nodeName];
      if (node !== null && (node.taints.includes('unreachable:NoSchedule') || node.taints.includes('not-ready:NoSchedule'))) return false;
    }
    return true;
  },
  { source: 'https://kubernetes.io/docs/concepts/scheduling-eviction/taint-and-toleration/#taint-nodes-by-condition' },
);

/**
 * `writes-need-quorum`: nothing is written to the API (objects or Lease renewals) unless etcd
 * has quorum ⌊n/2⌋+1: "the etcd cluster fails and cannot accept more writes" without a majority.
 * In the stock model this holds by construction (every API write in the model checks quorum); it guards users' own controllers
 * (extensions) and changes to the model, where it can fail.
 */
export const writesNeedQuorum: Property<ClusterState> = alwaysStep<ClusterState>(
  'writes-need-quorum',
  'every API write (object change or Lease renewal) happens while etcd has quorum',
  (before, action, after) => (before.api === after.api && heartbeatsOf(before, action).length === 0) || quorum(before),
  { source: 'https://etcd.io/docs/v3.6/op-guide/failures/; etcd-io/website:content/en/docs/v3.6/faq.md' },
);

/**
 * `running-pods-keep-running`: a container stops only when its node crashes (or its container
 * runtime fails) or after its kubelet saw the pod deleted, terminating or bound elsewhere and sent
 * SIGTERM (it exits, or is killed when the grace period ends); control-plane trouble never stops a
 * running pod ("Running Pods Keep Running", control-plane component failure table).
 * In the stock model this holds by construction (the kubelet's stop rule is modelled); it guards users' own controllers
 * (extensions) and changes to the model, where it can fail.
 */
export const runningPodsKeepRunning: Property<ClusterState> = alwaysStep<ClusterState>(
  'running-pods-keep-running',
  'a container stops only on a node crash, a container runtime failure, or when its kubelet sees its pod deleted',
  (before, action, after) => {
    for (let n = 0; n < before.nodes.length; n++) {
      const was = before.nodes[n].running;
      const now = after.nodes[n].running;
      if (was === now) continue;
      for (const name of was) {
        if (now.includes(name)) continue;
        // The node crashed or its container runtime failed on this step: its containers die.
        if ((before.nodes[n].up && !after.nodes[n].up) || (before.nodes[n].runtimeUp && !after.nodes[n].runtimeUp)) continue;
        // After SIGTERM (its kubelet saw the pod deleted, terminating or bound elsewhere) the
        // containers exit by themselves or are killed when the grace period ends.
        if ((action.name === 'container-exit' || action.name === 'kubelet-kill') && isTerminating(before.nodes[n], name)) continue;
        const p = before.api.pods.find((x) => x.name === name);
        if (action.name === 'kubelet-sync' && (p === undefined || p.deletion !== null || p.nodeName !== n)) continue;
        return false;
      }
    }
    return true;
  },
  { source: 'https://kubernetes.io/docs/concepts/scheduling-eviction/taint-and-toleration/#taint-based-evictions (pods "may continue to run on the partitioned node"); https://kubernetes.io/docs/concepts/architecture/nodes/' },
);

/** Active pods (no deletionTimestamp, `IsPodActive`) of each ReplicaSet above its spec.replicas, by name. */
export function replicaSetExcess(config: ClusterConfig, s: ClusterState): Map<string, number> {
  const out = new Map<string, number>();
  for (const w of workloadsOfKind(config, 'ReplicaSet')) {
    let active = 0;
    for (const p of s.api.pods) if (p.workload === w.name && p.deletion === null) active++;
    if (active > w.replicas) out.set(w.name, active - w.replicas);
  }
  return out;
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
  return always<ClusterState>(
    'replicaset-at-most-replicas',
    'no ReplicaSet has more active (not Terminating) pods than spec.replicas',
    (s) => replicaSetExcess(config, s).size === 0,
    { source: 'kubernetes/kubernetes:pkg/controller/controller_utils.go (ControllerExpectations, ExpectationsTimeout); pkg/controller/replicaset/replica_set.go (manageReplicas)' },
  );
}

/**
 * `no-phantom-pods`: every container a kubelet runs has a pod object bound to its node, whenever
 * that kubelet is in touch with the API and has nothing left to do. Kubernetes deletes a pod
 * object only after its kubelet stopped the containers (or by a force delete, which the kubelet
 * acts on at its next sync), so a container without an object is one nobody manages: no
 * controller counts it, nothing stops it. An etcd restore from an older snapshot while kubelets
 * run leaves the containers of pods created since running (their watch waits for a revision
 * etcd is now behind of), kubernetes/kubernetes#131115; a kubelet restart relists and stops them.
 */
export const noPhantomPods: Property<ClusterState> = always<ClusterState>(
  'no-phantom-pods',
  'every container a kubelet in touch with the API runs has a pod object bound to its node',
  (s) => {
    for (let n = 0; n < s.nodes.length; n++) {
      const node = s.nodes[n];
      if (!node.up || !node.kubeletUp || node.running.length === 0 || !kubeletReachesApi(s, n)) continue;
      if (node.podWatchStuck !== true && syncWork(s, n) !== undefined) continue; // it acts on what it sees at once
      for (const name of node.running) if (!s.api.pods.some((p) => p.name === name && p.nodeName === n)) return false;
    }
    return true;
  },
  { source: 'https://github.com/kubernetes/kubernetes/issues/131115; https://kubernetes.io/docs/tasks/administer-cluster/configure-upgrade-etcd/#restoring-an-etcd-cluster' },
);

/** `no-node-unknown`: no node is marked Ready=Unknown (expected when nothing can write). */
export const noNodeUnknown: Property<ClusterState> = always<ClusterState>(
  'no-node-unknown',
  'no node is marked Ready=Unknown',
  (s) => s.api.nodes.every((n) => n === null || n.ready !== 'Unknown'),
  { source: 'https://etcd.io/docs/v3.6/op-guide/failures/ (a majority failure "cannot accept more writes"); kubernetes/kubernetes:pkg/controller/nodelifecycle/node_lifecycle_controller.go (Unknown is written through the API)' },
);

/** `no-pod-evicted`: no pod is evicted by taint eviction (expected without a controller manager or quorum). */
export const noPodEvicted: Property<ClusterState> = always<ClusterState>(
  'no-pod-evicted',
  'no pod is deleted by the taint eviction controller',
  (s) => s.api.pods.every((p) => p.deletion !== 'taint-eviction'),
  { source: 'https://kubernetes.io/docs/concepts/architecture/#kube-controller-manager; kubernetes/kubernetes:pkg/controller/tainteviction/taint_eviction.go (evictions are the controller\'s deletes)' },
);

/** `no-replacement-created`: no controller creates a pod (expected with the controller manager down). */
export const noReplacementCreated: Property<ClusterState> = always<ClusterState>(
  'no-replacement-created',
  'no replacement pod object is created',
  (s) => s.api.pods.every((p) => !p.replacement),
  { source: 'https://kubernetes.io/docs/concepts/architecture/#kube-controller-manager; kubernetes/kubernetes:pkg/controller/replicaset/replica_set.go' },
);

/** `replacements-stay-pending`: no replacement pod is bound (expected with the scheduler down). */
export const replacementsStayPending: Property<ClusterState> = always<ClusterState>(
  'replacements-stay-pending',
  'every replacement pod stays Pending (unbound)',
  (s) => s.api.pods.every((p) => !p.replacement || p.nodeName < 0),
  { source: 'https://kubernetes.io/docs/concepts/architecture/#kube-scheduler ("watches for newly created Pods with no assigned node")' },
);
