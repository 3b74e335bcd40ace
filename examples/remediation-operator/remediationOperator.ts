/**
 * A user's own controller beside the built-in components: a "remediation operator" of the kind
 * many platform teams write, which force-deletes the pods of a node that has been NotReady for
 * more than 60 s so that they come back elsewhere sooner than taint-based eviction (300 s) would
 * bring them.
 *
 * It is written as the model's components are: pure transitions over the cluster state, its
 * memory (how long it has seen each node NotReady) kept in `state.extensions`, its timers moved
 * by the clock. Its suite (`remediationOperator.test.ts`) shows what the checker finds: under a
 * network partition the node is NotReady while its containers still run, and the force delete
 * lets the StatefulSet controller start a second copy of the same identity, which the stock
 * cluster never does.
 */
import { action, alwaysStep, type ActionLabel, type StepDescription } from '../../checker/index.js';
import { canWrite, nodeName, type ClusterExtension, type ClusterState, type PodObject } from '../../model/index.js';

export interface RemediationOptions {
  /** Seconds a node must have been seen NotReady before its pods are force-deleted (default 60). */
  readonly notReadyAfter?: number;
}

const NAME = 'remediation-operator';

/** Seconds the operator has seen each node NotReady (-1: Ready or gone). */
const memoryOf = (s: ClusterState): readonly number[] => (s.extensions?.[NAME] ?? []) as readonly number[];

export function remediationOperator(options: RemediationOptions = {}): ClusterExtension {
  const after = options.notReadyAfter ?? 60;
  /** The pod may be force-deleted: bound to a node seen NotReady for more than `after`. */
  const overdue = (s: ClusterState, pod: string): boolean => {
    const p = s.api.pods.find((q) => q.name === pod);
    return p !== undefined && p.nodeName >= 0 && memoryOf(s)[p.nodeName] > after;
  };
  return {
    name: NAME,
    // What it promises travels with it: `kubecheck check --extension` checks it by default.
    properties: [sparesRunningPods],
    initial: (s) => s.api.nodes.map(() => -1),
    // Saturates one past the threshold: only "more than `after`" is ever asked.
    onTick: (memory, s, seconds) =>
      (memory as number[]).map((m, n) => {
        const node = s.api.nodes[n];
        return node === null || node.ready === 'True' ? -1 : Math.min(Math.max(m, 0) + seconds, after + 1);
      }),
    actions: [
      action<ClusterState, string>({
        name: 'remediation-force-delete',
        params: (s) => s.api.pods.map((p) => p.name),
        // The operator runs in the cluster: it needs a kube-apiserver and etcd quorum to write.
        enabled: (s, pod) => canWrite(s, false) && overdue(s, pod),
        apply: (s, pod) => ({ ...s, api: { ...s.api, pods: s.api.pods.filter((q) => q.name !== pod) } }),
      }),
    ],
    // Its memory in words, in a state's description and in the tick that moves it: `node-2 NotReady for 12s`.
    describeMemory: (memory) => (memory as number[]).flatMap((m, n) => (m < 0 ? [] : [`${nodeName(n)} NotReady for ${m > after ? `more than ${after}` : m}s`])).join(', ') || 'every node Ready',
    describeStep: (before: ClusterState, a: ActionLabel): StepDescription => {
      const pod = String(a.param);
      const node = before.api.pods.find((p) => p.name === pod)?.nodeName ?? -1;
      return {
        actor: NAME,
        summary: `force-deletes ${pod} (${node >= 0 ? nodeName(node) : 'its node'} NotReady for more than ${after}s)`,
        to: ['kube-apiserver', 'etcd'],
      };
    },
  };
}

/** The pods a step of the operator force-deletes while their container still runs on their node. */
function removedRunning(before: ClusterState, a: ActionLabel, after: ClusterState): PodObject[] {
  if (a.name !== 'remediation-force-delete') return [];
  return before.api.pods.filter((p) => p.nodeName >= 0 && before.nodes[p.nodeName].running.includes(p.name) && !after.api.pods.some((q) => q.name === p.name && q.uid === p.uid));
}

/**
 * `remediation-operator-spares-running-pods`: it never force-deletes a pod whose container still
 * runs. NotReady says only that the node stopped reporting; a node cut off from the control plane
 * keeps running its containers, and the pod's controller then starts a second copy elsewhere.
 */
export const sparesRunningPods = alwaysStep<ClusterState>(
  'remediation-operator-spares-running-pods',
  'the remediation operator never force-deletes a pod whose container still runs on its node',
  (before, a, after) => removedRunning(before, a, after).length === 0,
  {
    source: 'https://kubernetes.io/docs/tasks/run-application/force-delete-stateful-set-pod/',
    explain: (before, a, after) => removedRunning(before, a, after).map((p) => `it force-deletes ${p.name} while ${nodeName(p.nodeName)} still runs it`).join('; ') || undefined,
  },
);

/** `kubecheck check --scenario node-partition --extension examples/remediation-operator/remediationOperator.ts` loads it as it ships. */
export default remediationOperator();
