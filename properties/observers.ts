/**
 * Timing properties, checked as observers that run in lockstep with the model. The real time
 * since each node's last successful heartbeat and since its NoExecute taint are history variables
 * of the state (`NodeReal.sinceHeartbeat`, `.sinceNoExecute`), so they are permuted with their
 * node under symmetry; the observers keep only a one-bit latch (or, for `replacement-within`,
 * one saturating counter), which keeps the product space small and symmetric.
 */
import { boundedResponse, observer, type ActionLabel, type Property } from '../checker/index.js';
import type { ClusterConfig, ClusterState } from '../model/index.js';
import { earliestReplacement, replacementBound, runningReplicas } from './helpers.js';

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
 */
export function replacementAfterToleration(config: ClusterConfig): Property<ClusterState> {
  const bound = earliestReplacement(config);
  return latch(
    'replacement-after-toleration',
    `no ReplicaSet replacement is created earlier than ${bound}s after a node's last heartbeat`,
    'kubernetes/kubernetes:pkg/controller/nodelifecycle/node_lifecycle_controller.go (monitorNodeHealth); plugin/pkg/admission/defaulttolerationseconds/admission.go; pkg/controller/tainteviction/taint_eviction.go',
    (before, _a, after) => {
      if (before.api.pods === after.api.pods) return false;
      const created = after.api.pods.some((p) => p.workload === 'web' && !before.api.pods.some((q) => q.name === p.name));
      return created && !before.nodes.some((n) => n.sinceHeartbeat >= bound);
    },
  );
}

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
