/**
 * The remediation operator as a client-go controller really is: it decides from its informer
 * cache and writes through the API. It force-deletes the pods its cache shows bound to a node
 * whose Ready condition is not True (the node has crashed: its containers are gone, so the
 * StatefulSet controller may recreate them elsewhere at once).
 *
 * The bug it ships with (`deleteBy: 'name'`) is the one Sieve found in several operators: it
 * deletes by name. After a restart it lists with resourceVersion="0"; a kube-apiserver whose
 * watch cache lags serves it the world before the recreation ("time travel",
 * kubernetes/kubernetes#59848), where `db-0` is still the old pod of the crashed node. Deleting
 * "db-0" then deletes the new `db-0`, running on a healthy node. The fix (`deleteBy: 'uid'`) sends
 * the uid it saw as a precondition (`metav1.Preconditions{UID: &pod.UID}`): the kube-apiserver
 * refuses the delete with 409 Conflict.
 *
 * Needs `informers.watchLag` > 0 (the cache and the watch caches are modelled only then) and two
 * kube-apiservers for the time travel; `faults.extensionRestart` allows the restart.
 */
import { alwaysStep, type ActionLabel, type Property, type StepDescription } from '../../checker/index.js';
import { action } from '../../checker/index.js';
import { canWrite, deletePod, nodeName, viewOf, type ClusterExtension, type ClusterState, type PodObject } from '../../model/index.js';

export interface CachedRemediationOptions {
  /** How it deletes: by name (the bug) or with the uid it saw as a precondition (the fix). */
  readonly deleteBy: 'name' | 'uid';
  /**
   * Expectations, as the ReplicaSet controller keeps them: after deleting a pod it does not act
   * on that pod again until its cache has seen it go. They guard against its own cache's lag,
   * but live in memory: a restart forgets them.
   */
  readonly expectations?: boolean;
}

export const CACHED_REMEDIATION = 'cached-remediation';
const DELETE = 'cached-remediation-force-delete';

/** Deletions it made and its cache has not shown yet, as `name@uid` (with `expectations`). */
const pendingOf = (s: ClusterState): readonly string[] => (s.extensions?.[CACHED_REMEDIATION] ?? []) as readonly string[];

/**
 * The expectations not met yet: an expectation is met once the cache no longer shows that pod (a
 * watch event of its deletion, as `DeletionObserved`), and forgotten then, at its next step or
 * tick. Keeping met ones would hold their uids, and every incarnation of db-0 the operator
 * deletes would then be one more state.
 */
function unmet(s: ClusterState, pending: readonly string[]): readonly string[] {
  const shown = new Set(viewOf(s, CACHED_REMEDIATION).api.pods.map((p) => `${p.name}@${p.uid ?? 0}`));
  return pending.every((x) => shown.has(x)) ? pending : pending.filter((x) => shown.has(x));
}

/** The pods its cache shows bound to a node whose Ready condition is not True, with the uid it saw. */
function targets(s: ClusterState): { name: string; uid: number; node: number }[] {
  const view = viewOf(s, CACHED_REMEDIATION);
  return view.api.pods.flatMap((p) => {
    const node = p.nodeName >= 0 ? view.api.nodes[p.nodeName] : null;
    return node !== null && node !== undefined && node.ready !== 'True' ? [{ name: p.name, uid: p.uid ?? 0, node: p.nodeName }] : [];
  });
}

export function cachedRemediationOperator(options: CachedRemediationOptions): ClusterExtension {
  const expecting = options.expectations === true;
  /** Its targets, less those it waits to see deleted. */
  const due = (s: ClusterState): { name: string; uid: number; node: number }[] => {
    const pending = pendingOf(s);
    return targets(s).filter((t) => !pending.includes(`${t.name}@${t.uid}`));
  };
  return {
    name: CACHED_REMEDIATION,
    informer: true,
    // What it promises travels with it: `kubecheck check --extension` checks it by default.
    properties: [remediationSparesHealthyPods],
    initial: () => [],
    onTick: (memory, s) => unmet(s, memory as string[]),
    actions: [
      action<ClusterState, string>({
        name: DELETE,
        params: (s) => due(s).map((t) => t.name),
        enabled: (s, pod) => canWrite(s, false) && due(s).some((t) => t.name === pod),
        apply: (s, pod) => {
          const seen = due(s).find((t) => t.name === pod)!;
          const { state, outcome } = deletePod(s, pod, { force: true, ...(options.deleteBy === 'uid' ? { uid: seen.uid } : {}) });
          // NotFound or Conflict: nothing changes, and the operator waits for its cache to move.
          if (outcome !== 'deleted') return undefined;
          if (!expecting) return state;
          return { ...state, extensions: { ...state.extensions, [CACHED_REMEDIATION]: [...unmet(s, pendingOf(s)), `${pod}@${seen.uid}`].sort() } };
        },
      }),
    ],
    describeStep: (before: ClusterState, a: ActionLabel): StepDescription => {
      const pod = String(a.param);
      const seen = targets(before).find((t) => t.name === pod);
      const now = before.api.pods.find((p) => p.name === pod);
      const where = seen === undefined ? '' : ` (its cache: uid ${seen.uid} on ${nodeName(seen.node)}, NotReady)`;
      const truth = now === undefined ? '' : (now.uid ?? 0) !== seen?.uid ? `; the API's ${pod} is uid ${now.uid ?? 0} on ${now.nodeName >= 0 ? nodeName(now.nodeName) : 'no node'}` : '';
      const how = options.deleteBy === 'uid' ? `with preconditions.uid=${seen?.uid ?? '?'}` : 'by name';
      return { actor: CACHED_REMEDIATION, summary: `force-deletes ${pod} ${how}${where}${truth}`, to: ['kube-apiserver', 'etcd'] };
    },
  };
}

/**
 * `remediation-spares-healthy-pods`: the operator never deletes a pod running on a node whose
 * Ready condition is True. What it is for is pods of dead nodes; a delete that lands on a live
 * one is an outage it caused.
 */
export const remediationSparesHealthyPods: Property<ClusterState> = alwaysStep<ClusterState>(
  'remediation-spares-healthy-pods',
  'the remediation operator never deletes a pod running on a Ready node',
  (before, a, after) => healthyDeleted(before, a, after).length === 0,
  {
    source: 'https://github.com/sieve-project/sieve (time-travel bugs); https://github.com/kubernetes/kubernetes/issues/59848',
    // What reports open the counterexample with: `why: it deletes db-0 (uid 1), running on node-1, which is Ready`.
    explain: (before, a, after) => {
      const hit = healthyDeleted(before, a, after);
      return hit.length === 0 ? undefined : hit.map((p) => `it deletes ${p.name} (uid ${p.uid ?? 0}), running on ${nodeName(p.nodeName)}, which is Ready`).join('; ');
    },
  },
);

/** The pods a step of the operator deletes while they run on a Ready node. */
function healthyDeleted(before: ClusterState, a: ActionLabel, after: ClusterState): PodObject[] {
  if (a.name !== DELETE) return [];
  return before.api.pods.filter((p) => {
    if (after.api.pods.some((q) => q.name === p.name && (q.uid ?? 0) === (p.uid ?? 0))) return false;
    const node = p.nodeName >= 0 ? before.api.nodes[p.nodeName] : null;
    return node !== null && node.ready === 'True' && before.nodes[p.nodeName].running.includes(p.name);
  });
}

/**
 * `kubecheck check --extension examples/remediation-operator/cachedRemediation.ts` loads the
 * operator as it ships (deleting by name); `cachedRemediationFixed.ts` is the fix.
 */
export default cachedRemediationOperator({ deleteBy: 'name' });
