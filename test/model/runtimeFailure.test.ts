/**
 * A failed container runtime (containerd dies) leaves the containers running under their shims;
 * the kubelet can neither start, stop nor observe any until the runtime recovers (kubelet.go
 * `syncLoop` skips pod synchronization while `runtimeErrors` reports it; before that the pod
 * workers' CRI calls and PLEG's relist fail). So a pod there stays Terminating, and a force
 * delete lets the StatefulSet run a replacement beside the old copy for as long as the runtime is
 * down, not only for a grace period. Each window is walked exhaustively with a pinned sequence,
 * both ends included.
 */
import { describe, expect, it } from 'vitest';
import { alwaysStep, type Property } from '../../checker/index.js';
import { isTerminating, podIndex, type ClusterState } from '../../model/index.js';
import { checkWith, SMALL_TIMERS } from './helpers.js';

/** db-0 runs on node-1 (no ReplicaSet), with one kube-scheduler and one kube-controller-manager. */
const BASE = {
  ...SMALL_TIMERS,
  'cluster.replicaSetReplicas': '0',
  'cluster.controllerManagerCandidates': '1',
  'cluster.schedulerCandidates': '1',
  'faults.nodeCrash': '0',
};

const sequence = (steps: string): Record<string, string> => ({ ...BASE, 'faults.sequence': steps });

/**
 * Time never passes while a container runs whose pod object is gone or bound elsewhere and that
 * its kubelet has not sent SIGTERM: a live kubelet that can see the API signals it within the
 * instant, so only a kubelet that cannot reach its runtime (or the API) leaves it unsignalled.
 */
const unsignalledCopy: Property<ClusterState> = alwaysStep<ClusterState>('no-unsignalled-copy', 'no container of a deleted pod runs on unsignalled while time passes', (b, a) =>
  a.name !== 'tick' ||
  b.nodes.every((node, n) =>
    node.running.every((name) => {
      const i = podIndex(b, name);
      return (i >= 0 && b.api.pods[i].nodeName === n) || isTerminating(node, name);
    }),
  ),
);

/** No pod bound to a node whose runtime is down leaves the API by its kubelet finishing the deletion. */
const noFinishWhileDown: Property<ClusterState> = alwaysStep<ClusterState>('no-finish-while-down', 'a kubelet whose runtime is down finishes no deletion', (b, a, x) =>
  a.name !== 'kubelet-sync' || b.api.pods.every((p) => p.nodeName < 0 || b.nodes[p.nodeName].runtimeUp || x.api.pods.some((q) => q.name === p.name)),
);

describe('container runtime failure', () => {
  it('should keep the old copy running beside its replacement after a force delete at the failure', () => {
    const r = checkWith('node-failure', sequence('container-runtime-failure:node-1,force-delete-pod:db-0+0s'), ['statefulset-at-most-one', 'running-pods-keep-running', unsignalledCopy]);
    expect(r.result.stoppedBy).toBeUndefined();
    expect(r.status).toEqual({ 'statefulset-at-most-one': 'violated', 'running-pods-keep-running': 'holds', 'no-unsignalled-copy': 'violated' });
  });

  it('should keep it running unsignalled until the runtime recovers: a force delete one second before recovery, and at recovery', () => {
    // The latest force delete in the window: the copy is unsignalled for the one second left.
    const late = checkWith('node-failure', sequence('container-runtime-failure:node-1,force-delete-pod:db-0+9s,container-runtime-recovery:node-1+1s'), [unsignalledCopy, 'statefulset-at-most-one']);
    expect(late.status).toEqual({ 'no-unsignalled-copy': 'violated', 'statefulset-at-most-one': 'violated' });
    // Past the window's end: the runtime is back, and the kubelet sends SIGTERM within the instant
    // (the copies still overlap for the grace period, as on any healthy node).
    const after = checkWith('node-failure', sequence('container-runtime-failure:node-1,container-runtime-recovery:node-1+10s,force-delete-pod:db-0+0s'), [unsignalledCopy, 'statefulset-at-most-one']);
    expect(after.status).toEqual({ 'no-unsignalled-copy': 'holds', 'statefulset-at-most-one': 'violated' });
  });

  it('should leave an evicted pod Terminating while the runtime is down, even once its containers exit', () => {
    // The not-ready taint evicts db-0 after its 3 s toleration; its kubelet can neither kill it nor see it exit.
    const r = checkWith('node-failure', sequence('container-runtime-failure:node-1'), ['pod-evicted', noFinishWhileDown, 'running-pods-keep-running', 'statefulset-at-most-one']);
    expect(r.status).toEqual({ 'pod-evicted': 'witnessed', 'no-finish-while-down': 'holds', 'running-pods-keep-running': 'holds', 'statefulset-at-most-one': 'holds' });
  });
});
