/**
 * The frequent steps copy nodes and states field by field (`nodeWithTimers`, `stateWith`) instead
 * of spreading them. A field they forget would vanish from every state after a tick: these tests
 * fill every field the types declare (the compiler keeps the field lists complete) and ask that
 * each copy keeps it.
 */
import { describe, expect, it } from 'vitest';
import { API_STATE_FIELDS, apiWith, POD_OBJECT_FIELDS, podWith, type PodObject, CLUSTER_STATE_FIELDS, healthWith, NODE_HEALTH_FIELDS, NODE_REAL_FIELDS, nodeWith, nodeWithTimers, poweredOff, stateWith, type ApiState, type ClusterState, type NodeHealth, type NodeReal } from '../../model/state.js';

/** An object with a distinct value in every listed field. */
function filled<T>(fields: Readonly<Record<string, true>>): T {
  return Object.fromEntries(Object.keys(fields).map((k, i) => [k, { field: k, i }])) as T;
}

describe('field-by-field copies', () => {
  it('should keep every field of a node, optional ones included, and replace only its timers', () => {
    const node = filled<NodeReal>(NODE_REAL_FIELDS);
    const same = nodeWithTimers(node, { heartbeatIn: node.heartbeatIn, sinceHeartbeat: node.sinceHeartbeat, sinceNoExecute: node.sinceNoExecute, liveFor: node.liveFor, runtimeDownFor: node.runtimeDownFor, terminating: node.terminating, shutdownIn: node.shutdownIn });
    expect(same).toEqual(node);
    expect(Object.keys(same).sort()).toEqual(Object.keys(NODE_REAL_FIELDS).sort());
    const moved = nodeWithTimers(node, { heartbeatIn: 1, sinceHeartbeat: 2, sinceNoExecute: 3, liveFor: 4, runtimeDownFor: 5, terminating: undefined, shutdownIn: undefined });
    expect(moved).toEqual({ ...node, heartbeatIn: 1, sinceHeartbeat: 2, sinceNoExecute: 3, liveFor: 4, runtimeDownFor: 5, terminating: undefined, shutdownIn: undefined });
    expect('terminating' in moved || 'shutdownIn' in moved).toBe(false);
  });

  it('should keep every field of a state, optional ones included, and replace only the patched ones', () => {
    const s = filled<ClusterState>(CLUSTER_STATE_FIELDS);
    expect(stateWith(s, {})).toEqual(s);
    expect(Object.keys(stateWith(s, {})).sort()).toEqual(Object.keys(CLUSTER_STATE_FIELDS).sort());
    const patch = { api: 'a', nodes: 'n', candidates: 'c', budget: 'b', kubeletApiOutage: 7, sequenceIn: 8 } as unknown as Parameters<typeof stateWith>[1];
    expect(stateWith(s, patch)).toEqual({ ...s, ...patch });
  });

  it('should keep the optional fields of node health and the API state, and every other field of a node a renewal touches', () => {
    const h = filled<NodeHealth>(NODE_HEALTH_FIELDS);
    expect(healthWith(h, {})).toEqual(h);
    expect(healthWith(h, { sinceProbe: 0 })).toEqual({ ...h, sinceProbe: 0 });
    const api = filled<ApiState>(API_STATE_FIELDS);
    expect(apiWith(api, {})).toEqual(api);
    expect(apiWith(api, { pods: [] })).toEqual({ ...api, pods: [] });
    const node = filled<NodeReal>(NODE_REAL_FIELDS);
    expect(nodeWith(node, { heartbeatIn: 10, sinceHeartbeat: 0 })).toEqual({ ...node, heartbeatIn: 10, sinceHeartbeat: 0 });
  });

  it('should power a node off as the kubelet and systemd do: containers, kubelet, grace periods, shutdown and runtime state gone, the rest kept', () => {
    const node = filled<NodeReal>(NODE_REAL_FIELDS);
    const { terminating: _t, shutdownIn: _s, booting: _b, runtimeErrors: _r, ...kept } = node;
    expect(poweredOff(node)).toEqual({ ...kept, up: false, kubeletUp: false, running: [], heartbeatIn: 0 });
    expect(nodeWith(node, { partitioned: true })).toEqual({ ...node, partitioned: true });
  });

  it('should keep every field of a pod object, its uid included, when its node or deletion changes', () => {
    const pod = filled<PodObject>(POD_OBJECT_FIELDS);
    expect(podWith(pod, {})).toEqual(pod);
    expect(podWith(pod, { nodeName: 2, deletion: null })).toEqual({ ...pod, nodeName: 2, deletion: null });
  });
});
