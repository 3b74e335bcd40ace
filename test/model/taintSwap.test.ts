/**
 * A taint swap onto a taint the pod has no toleration for evicts at once: when a node's
 * unreachable:NoExecute taint becomes not-ready:NoExecute (the kubelet is back and posts
 * Ready=False) and the pod tolerates not-ready not at all, `processPodOnNode` finds not every
 * taint tolerated, cancels the deletion scheduled for the unreachable taint and deletes the pod
 * right away (pkg/controller/tainteviction/taint_eviction.go). A toleration of 0 s is different:
 * it is tolerated, and the earlier schedule is kept (kubernetes#102993).
 */
import { describe, expect, it } from 'vitest';
import { alwaysStep, type Property } from '../../checker/index.js';
import { KCM, type ClusterState } from '../../model/index.js';
import { checkWith, SMALL_TIMERS } from './helpers.js';

/**
 * Two nodes, a ReplicaSet pod on each tolerating unreachable 10 s and not-ready not at all. The
 * kubelet of node-1 crashes (the node goes Unknown, is tainted unreachable, a deletion is
 * scheduled), its container runtime fails, and the kubelet restarts: with no good runtime check
 * yet it posts Ready=False at once, and the node lifecycle controller swaps the taints.
 */
const SET = {
  ...SMALL_TIMERS,
  'cluster.nodes': '2',
  'cluster.statefulSetReplicas': '0',
  'cluster.replicaSetReplicas': '2',
  'cluster.replicaSetUnreachableTolerationSeconds': '10',
  'cluster.replicaSetNotReadyTolerationSeconds': 'none',
  'cluster.controllerManagerCandidates': '1',
  'cluster.schedulerCandidates': '1',
  'cluster.terminationGracePeriodSeconds': '1',
  'faults.nodeCrash': '0',
  'faults.sequence': 'kubelet-crash:node-1,container-runtime-failure:node-1,kubelet-restart:node-1',
};

const tainted = (s: ClusterState, n: number, taint: string): boolean => s.api.nodes[n]?.taints.includes(taint as never) === true;

/** A step swaps a node's unreachable taint for not-ready while a deletion is scheduled for its pod. */
const swapWhileScheduled: Property<ClusterState> = alwaysStep<ClusterState>('no-swap-while-scheduled', 'no taint swap happens while a deletion is scheduled', (b, _a, after) =>
  !b.api.nodes.some((_, n) => {
    const scheduled = b.candidates[KCM].some((k) => k.ctrl?.evictions.some((x) => b.api.pods.some((p) => p.name === x.pod && p.nodeName === n)));
    return scheduled && tainted(b, n, 'unreachable:NoExecute') && tainted(after, n, 'not-ready:NoExecute');
  }),
);

/** Time never passes while a pod that tolerates not-ready not at all sits, not Terminating, on a node tainted not-ready:NoExecute. */
const evictedAtOnce: Property<ClusterState> = alwaysStep<ClusterState>('evicted-at-once', 'an untolerated not-ready taint evicts within its instant', (b, a) =>
  a.name !== 'tick' || !b.api.pods.some((p) => p.deletion === null && p.nodeName >= 0 && p.tolerations.notReady !== null && p.tolerations.notReady < 0 && tainted(b, p.nodeName, 'not-ready:NoExecute')),
);

describe('taint swap onto an untolerated taint', () => {
  it('should delete the pod at once, cancelling the deletion scheduled for the unreachable taint', () => {
    const r = checkWith('node-failure', SET, [swapWhileScheduled, evictedAtOnce]);
    expect(r.result.stoppedBy).toBeUndefined();
    expect(r.status).toEqual({ 'no-swap-while-scheduled': 'violated', 'evicted-at-once': 'holds' });
  });
});
