/**
 * A node-remediation operator as many platform teams write it: when a Node's Ready condition has
 * been Unknown (its kubelet stopped reporting), delete the pods bound to it so that their
 * controllers recreate them elsewhere. It watches the cluster's own Nodes and Pods and deletes
 * Pods through the API.
 *
 * The bug (`force: true`, the usual `--grace-period=0 --force`): a node that is only cut off from
 * the control plane keeps running its containers, so a force-deleted StatefulSet pod is created
 * again on another node while the first copy still runs: `statefulset-at-most-one` breaks under
 * `node-partition`. A graceful delete leaves the pod Terminating until its kubelet confirms, which
 * a cut-off kubelet cannot, so the StatefulSet controller waits (Kubernetes' own answer: the
 * `node.kubernetes.io/out-of-service` taint, once a human knows the node is down).
 */
import { alwaysStep } from '../../checker/index.js';
import { operator, type ApiObject } from '../../model/operator/index.js';
import { nodeName, type ClusterExtension, type ClusterState, type PodObject } from '../../model/index.js';

const readyOf = (node: ApiObject | undefined): string | undefined =>
  ((node?.status as { conditions?: { type: string; status: string }[] } | undefined)?.conditions ?? []).find((c) => c.type === 'Ready')?.status;

export function nodeRemediation(options: { readonly force: boolean }): ClusterExtension {
  return operator({
    name: 'node-remediation',
    for: 'Node',
    // A pod's changes queue the node it is bound to.
    watches: [{ kind: 'Pod', map: (pod) => [(pod.spec as { nodeName: string }).nodeName].filter((n) => n !== '') }],
    reconcile(node, view) {
      if (readyOf(view.get('Node', node)) !== 'Unknown') return {};
      const pods = view.list('Pod').filter((p) => (p.spec as { nodeName: string }).nodeName === node && p.metadata.deletionTimestamp === undefined);
      return {
        writes: pods.map((p) => ({ op: 'delete' as const, kind: 'Pod', name: p.metadata.name, preconditions: { uid: p.metadata.uid }, ...(options.force ? { gracePeriodSeconds: 0 as const } : {}) })),
        ignore: ['NotFound'],
      };
    },
    properties: [sparesRunningPods],
  });
}

/** The pods a step of node-remediation removes from the API while their container still runs on their node. */
function removedRunning(before: ClusterState, a: { readonly name: string }, after: ClusterState): PodObject[] {
  if (a.name !== 'node-remediation-write' && a.name !== 'node-remediation-lost-answer') return [];
  return before.api.pods.filter((p) => p.nodeName >= 0 && before.nodes[p.nodeName].running.includes(p.name) && !after.api.pods.some((q) => q.name === p.name && q.uid === p.uid));
}

/**
 * `node-remediation-spares-running-pods`: it never removes a pod whose container still runs.
 * Kubernetes asks the same of a force delete of a StatefulSet pod: only once the pod is known not
 * to run, since its controller then creates the identity again elsewhere.
 */
export const sparesRunningPods = alwaysStep<ClusterState>(
  'node-remediation-spares-running-pods',
  'node-remediation never removes a pod whose container still runs on its node',
  (before, a, after) => removedRunning(before, a, after).length === 0,
  {
    source: 'https://kubernetes.io/docs/tasks/run-application/force-delete-stateful-set-pod/',
    explain: (before, a, after) => removedRunning(before, a, after).map((p) => `it removes ${p.name} while ${nodeName(p.nodeName)} still runs it`).join('; ') || undefined,
  },
);

export default nodeRemediation({ force: true });
