/**
 * Safety properties: what Kubernetes promises never happens. Each cites the promise and where it
 * is stated; `kubernetes-semantics.md` (beside DESIGN.md) has the derivations.
 */
import { always, alwaysStep, type Property } from '../checker/index.js';
import { heartbeatsOf, podOfWorkload, quorum, type ClusterConfig, type ClusterState } from '../model/index.js';
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
 * In the stock model this holds by construction (the scheduler's filter is modelled); it guards users' own controllers
 * (extensions) and changes to the model, where it can fail.
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
 * runtime fails) or when its kubelet
 * sees the pod deleted, terminating or bound elsewhere; control-plane trouble never stops a
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
        const p = before.api.pods.find((x) => x.name === name);
        if (action.name === 'kubelet-sync' && (p === undefined || p.deletion !== null || p.nodeName !== n)) continue;
        return false;
      }
    }
    return true;
  },
  { source: 'https://kubernetes.io/docs/concepts/scheduling-eviction/taint-and-toleration/#taint-based-evictions (pods "may continue to run on the partitioned node"); https://kubernetes.io/docs/concepts/architecture/nodes/' },
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
