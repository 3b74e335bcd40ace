/**
 * Timing properties, checked as observers that run in lockstep with the model. The real time
 * since each node's last successful heartbeat and since its NoExecute taint are history variables
 * of the state (`NodeReal.sinceHeartbeat`, `.sinceNoExecute`), so they are permuted with their
 * node under symmetry; the observers keep only a one-bit latch (or, for `replacement-within`,
 * one saturating counter; for `replacement-after-toleration`, one of three values), which keeps
 * the product space small and symmetric.
 */
import { boundedResponse, observer, type ActionLabel, type Property } from '../checker/index.js';
import type { ClusterConfig, ClusterState } from '../model/index.js';
import { earliestReplacement, replacementBound, runningReplicas, webPodsLeaving } from './helpers.js';

/** An observer that latches the first step on which `bad` holds. */
function latch(
  id: string,
  description: string,
  source: string,
  bad: (before: ClusterState, action: ActionLabel, after: ClusterState) => boolean,
): Property<ClusterState> {
  return observer<ClusterState, boolean>({
    id,
    description,
    source,
    initial: () => false,
    step: (seen, before, action, after) => seen || bad(before, action, after),
    holds: (seen) => !seen,
    encode: (seen) => (seen ? 't' : 'f'),
  });
}

/**
 * `unknown-after-grace`: a node is marked Ready=Unknown only when now > probeTimestamp +
 * nodeMonitorGracePeriod, and probeTimestamp is taken no earlier than the heartbeat, so never
 * earlier than grace (50 s from 1.32, 40 s before) after its last heartbeat. The model reaches
 * exactly that bound (the pass at probe + grace marks it; see `nodeLifecycle.ts`).
 */
export function unknownAfterGrace(config: ClusterConfig): Property<ClusterState> {
  const grace = config.kubeControllerManager.nodeMonitorGracePeriod;
  return latch(
    'unknown-after-grace',
    `no node is marked Ready=Unknown earlier than ${grace}s after its last heartbeat`,
    'kubernetes/kubernetes:pkg/controller/nodelifecycle/node_lifecycle_controller.go (tryUpdateNodeHealth)',
    (before, _a, after) =>
      after.api.nodes.some((n, i) => n !== null && n.ready === 'Unknown' && before.api.nodes[i]?.ready !== 'Unknown' && before.nodes[i].sinceHeartbeat < grace),
  );
}

/**
 * `replacement-after-toleration`: without operator action, a ReplicaSet replacement is created
 * only after its pod was evicted: Unknown comes no earlier than grace after the node's last
 * heartbeat, the NoExecute taint one monitor pass after that (processTaintBaseEviction sees the
 * condition from before the pass that wrote Unknown), and the eviction tolerationSeconds (300 s
 * from the DefaultTolerationSeconds admission) after the taint: grace + nodeMonitorPeriod +
 * tolerationSeconds, 355 s from 1.32 (345 s before).
 *
 * The time is counted on the node of the pod the replacement stands in for, taken when that pod
 * stops being active (gets a deletionTimestamp, or its object goes, which the ReplicaSet counts
 * alike; an unbound pod has no node and counts as early): by the time the ReplicaSet acts, the
 * pod's kubelet may already have removed the object. So another node that failed long before
 * cannot excuse an early replacement. The observer keeps one of three values, no per-node or
 * per-pod memory: nothing early, a pod left early and is not replaced yet, violated.
 */
export function replacementAfterToleration(config: ClusterConfig): Property<ClusterState> {
  const bound = earliestReplacement(config);
  return observer<ClusterState, Early>({
    id: 'replacement-after-toleration',
    description: `no ReplicaSet pod is replaced earlier than ${bound}s after its node's last heartbeat`,
    source:
      'kubernetes/kubernetes:pkg/controller/nodelifecycle/node_lifecycle_controller.go (monitorNodeHealth); plugin/pkg/admission/defaulttolerationseconds/admission.go; pkg/controller/tainteviction/taint_eviction.go',
    initial: () => 'none',
    step: (seen, before, _a, after) => {
      if (seen === 'violated' || before.api.pods === after.api.pods) return seen;
      const created = after.api.pods.some((p) => p.workload === 'web' && !before.api.pods.some((q) => q.name === p.name));
      if (created && seen === 'pending') return 'violated';
      const early = webPodsLeaving(before, after).some((n) => n < 0 || before.nodes[n].sinceHeartbeat < bound);
      if (!early) return seen;
      // The ReplicaSet creates in a later step of the same instant; a creation in this very step
      // would replace a pod that left before.
      return 'pending';
    },
    holds: (seen) => seen !== 'violated',
    encode: (seen) => seen[0],
  });
}

/** `replacement-after-toleration`'s memory: whether a web pod left early and is not replaced yet. */
type Early = 'none' | 'pending' | 'violated';

/**
 * `no-early-eviction`: the taint eviction controller deletes a pod no earlier than its
 * tolerationSeconds after the NoExecute taint (it counts from its own observation, which is no
 * earlier than the taint), unless a taint is not tolerated at all (out-of-service).
 */
export function noEarlyEviction(): Property<ClusterState> {
  return latch(
    'no-early-eviction',
    'no pod is evicted before its tolerationSeconds have passed since its node was tainted NoExecute',
    'kubernetes/kubernetes:pkg/controller/tainteviction/taint_eviction.go (processPodOnNode, minTolerationTime)',
    (before, _a, after) => {
      if (before.api.pods === after.api.pods) return false;
      for (const q of after.api.pods) {
        if (q.deletion !== 'taint-eviction' || q.nodeName < 0) continue;
        const p = before.api.pods.find((x) => x.name === q.name);
        if (p === undefined || p.deletion === 'taint-eviction') continue;
        const node = before.api.nodes[q.nodeName];
        if (node?.taints.includes('out-of-service:NoExecute')) continue;
        if (before.nodes[q.nodeName].sinceNoExecute < q.tolerationSeconds) return true;
      }
      return false;
    },
  );
}

/**
 * `replacement-within`: bounded recovery. Whenever fewer ReplicaSet replicas really serve than
 * desired, enough serve again within 2 × nodeMonitorPeriod + nodeMonitorGracePeriod +
 * tolerationSeconds (+ the zone rate limiter's wait for each further failing node): up to one
 * period until a pass sees the last renewal, the grace, one period until the pass that queues
 * the Unknown node for its NoExecute taint, the toleration, then an immediate replacement
 * (IsPodActive excludes Terminating pods). Holds only while the scheduler and controller manager
 * work and zones stay Normal.
 */
export function replacementWithin(config: ClusterConfig): Property<ClusterState> {
  const within = replacementBound(config);
  const tick = config.model.tick;
  return boundedResponse<ClusterState>({
    id: 'replacement-within',
    description: `a missing ReplicaSet replica is serving again within ${within}s`,
    source: 'derived from kubernetes-semantics.md A2 (resulting default timeline)',
    trigger: (s) => runningReplicas(s) < config.cluster.replicaSetReplicas,
    response: (s) => runningReplicas(s) >= config.cluster.replicaSetReplicas,
    elapsed: (_b, a) => (a.name === 'tick' ? tick : 0),
    within,
  });
}
