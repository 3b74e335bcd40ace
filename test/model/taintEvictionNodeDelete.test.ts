/**
 * Deleting a Node object does not cancel the taint eviction controller's scheduled deletions
 * (pkg/controller/tainteviction/taint_eviction.go: `handleNodeUpdate` on NotFound only forgets
 * the node's taints; `handlePodUpdate` then returns; the timed worker's `deletePodHandler` reads
 * only the pod). Checked over every time of the deletion between the schedule and its deadline,
 * with both ends of that window reached: the Node deleted in the very instant the deletion was
 * scheduled, and one second before it is due.
 */
import { describe, expect, it } from 'vitest';
import { alwaysStep, type Property } from '../../checker/index.js';
import { KCM, nodeIndex, type ClusterState } from '../../model/index.js';
import { checkWith, SMALL_TIMERS } from './helpers.js';

/**
 * Short timers (3 s tolerations), two nodes with a ReplicaSet pod each, node-1 crashing at any
 * time and a Node object deleted at any time; pod GC's 40 s quarantine is far beyond the window.
 */
const SET = { ...SMALL_TIMERS, 'cluster.nodes': '2', 'cluster.statefulSetReplicas': '0', 'faults.nodeCrash': '0', 'faults.sequence': 'node-crash:node-1', 'operator.deleteNode': '1' };
const TOLERATION = 3;

/** The scheduled deletions of the acting controller manager, by pod. */
function scheduled(s: ClusterState): Map<string, number> {
  const k = s.candidates[KCM].find((c) => c.leader && c.ctrl !== null);
  return new Map((k?.ctrl?.evictions ?? []).map((x) => [x.pod, x.in]));
}

/** Pods bound to a Node object that is gone, not Terminating. */
function onDeletedNode(s: ClusterState): string[] {
  return s.api.pods.filter((p) => p.nodeName >= 0 && s.api.nodes[p.nodeName] === null && p.deletion === null).map((p) => p.name);
}

const kept: Property<ClusterState> = alwaysStep<ClusterState>('scheduled-deletion-kept', 'a deletion scheduled for a pod whose Node is deleted stays until it fires', (b, _a, after) => {
  const before = scheduled(b);
  const now = scheduled(after);
  const sameLeader = b.candidates[KCM].findIndex((c) => c.leader) === after.candidates[KCM].findIndex((c) => c.leader);
  return !sameLeader || onDeletedNode(b).every((pod) => !before.has(pod) || now.has(pod) || after.api.pods.find((p) => p.name === pod)?.deletion !== null);
});

const evictedOnDeletedNode: Property<ClusterState> = alwaysStep<ClusterState>('no-eviction-on-deleted-node', 'taint eviction never deletes a pod whose Node object is gone', (b, a) =>
  a.name !== 'taint-eviction-delete' || onDeletedNode(b).every((pod) => scheduled(b).get(pod) === undefined || scheduled(b).get(pod)! > 0),
);

/** A step property violated exactly when the Node of a pod with a deletion due in `due` seconds is deleted. */
const deletedWhenDue = (id: string, due: number): Property<ClusterState> =>
  alwaysStep<ClusterState>(id, `no Node is deleted while its pod's deletion is due in ${due}s`, (b, a) => {
    if (a.name !== 'delete-node') return true;
    const n = nodeIndex(String(a.param));
    const due_ = scheduled(b);
    return !b.api.pods.some((p) => p.nodeName === n && p.deletion === null && due_.get(p.name) === due);
  });

describe('taint eviction after a Node object is deleted', () => {
  it('keeps every scheduled deletion and fires it at its time, wherever in the window the Node goes', () => {
    const r = checkWith('node-failure', SET, [kept, evictedOnDeletedNode, deletedWhenDue('deleted-at-schedule', TOLERATION), deletedWhenDue('deleted-one-second-before', 1)]);
    expect(r.result.stoppedBy).toBeUndefined();
    expect(r.status).toEqual({
      'scheduled-deletion-kept': 'holds',
      'no-eviction-on-deleted-node': 'violated',
      'deleted-at-schedule': 'violated',
      'deleted-one-second-before': 'violated',
    });
    // The eviction of a pod on a deleted Node comes exactly tolerationSeconds after its schedule.
    const trace = r.result.properties.find((p) => p.id === 'no-eviction-on-deleted-node')!.trace!;
    const names = trace.actions.map((a) => a.name);
    const observed = names.lastIndexOf('taint-eviction-observe');
    expect(names.indexOf('delete-node')).toBeGreaterThan(observed);
    expect(names.slice(observed).filter((n) => n === 'tick')).toHaveLength(TOLERATION);
    expect(names.at(-1)).toBe('taint-eviction-delete');
  });
});
