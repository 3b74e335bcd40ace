/**
 * `replacement-after-toleration` on hand-made steps: it counts on the node of the pod a
 * replacement stands in for, so another node that failed earlier does not mask an early one.
 */
import { castDraft, produce } from 'immer';
import { describe, expect, it } from 'vitest';
import type { Observer } from '../../checker/index.js';
import { clusterModel, resolveConfig, type ClusterState } from '../../model/index.js';
import { replacementAfterToleration } from '../../properties/observers.js';
import { conditionTolerations } from '../../model/tolerations.js';

const config = resolveConfig('node-failure');
const initial = clusterModel(config).initialStates()[0];
const property = replacementAfterToleration(config) as Observer<ClusterState, string>;
const label = { name: 'step', param: undefined };

/** node-1 (running web-0) last heard from `node1` s ago, node-2 (running web-1) `node2` s ago. */
const silent = (node1: number, node2: number): ClusterState =>
  produce(initial, (d) => {
    d.nodes[0].sinceHeartbeat = node1;
    d.nodes[1].sinceHeartbeat = node2;
  });
const evict = (s: ClusterState, pod: string): ClusterState =>
  produce(s, (d) => {
    d.api.pods.find((p) => p.name === pod)!.deletion = 'taint-eviction';
  });
const remove = (s: ClusterState, pod: string): ClusterState =>
  produce(s, (d) => {
    d.api.pods = d.api.pods.filter((p) => p.name !== pod);
  });
const replace = (s: ClusterState): ClusterState =>
  produce(s, (d) => {
    d.api.pods.push({ name: 'web-2', workload: 'web', nodeName: -1, deletion: null, tolerations: castDraft(conditionTolerations(300, 300)), replacement: true });
  });

/** Runs the observer over a path of states and says whether the property still holds. */
function holds(path: ClusterState[]): boolean {
  let o = property.initial(path[0]);
  for (let i = 1; i < path.length; i++) o = property.step(o, path[i - 1], label, path[i]);
  return property.holds(o, path[path.length - 1]);
}

describe('replacement-after-toleration', () => {
  it('should count from the last heartbeat of the node whose pod is replaced', () => {
    expect(property.description).toBe("no ReplicaSet pod is replaced earlier than 355s after its node's last heartbeat");
    const on = (s: ClusterState) => [s, evict(s, 'web-1'), replace(evict(s, 'web-1'))];
    expect(holds(on(silent(0, 355)))).toBe(true);
    expect(holds(on(silent(0, 354)))).toBe(false);
  });

  it('should not let another node silent for longer mask an early replacement', () => {
    // node-1 failed long ago (its counter saturated, its pod gone); node-2's pod is evicted and
    // replaced 100 s after node-2's last heartbeat. Counting on "some node" excused it.
    const s = remove(silent(361, 100), 'web-0');
    expect(holds([s, evict(s, 'web-1'), replace(evict(s, 'web-1'))])).toBe(false);
  });

  it('should take the node when the pod leaves, even if its kubelet removes the object before the ReplicaSet acts', () => {
    // A healed partition: the eviction comes on time and the reachable kubelet finishes the
    // deletion within the instant, so no Terminating pod is left when web-2 is created.
    const s = silent(0, 355);
    const evicted = evict(s, 'web-1');
    expect(holds([s, evicted, remove(evicted, 'web-1'), replace(remove(evicted, 'web-1'))])).toBe(true);
    // A pod object gone while active (a force delete) with its node heard from: early.
    expect(holds([silent(0, 3), remove(silent(0, 3), 'web-1'), replace(remove(silent(0, 3), 'web-1'))])).toBe(false);
  });

  it('should not flag an early eviction that is never replaced', () => {
    const s = silent(0, 10);
    expect(holds([s, evict(s, 'web-1')])).toBe(true);
  });
});
