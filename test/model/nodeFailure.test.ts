/**
 * Acceptance 1: `node-failure` with defaults (3 nodes in one zone, a ReplicaSet of 2, a
 * StatefulSet of 1, 2 candidates per election, one node crash), checked exhaustively.
 */
import { describe, expect, it } from 'vitest';
import { always, alwaysStep, boundedResponse, check } from '../../checker/index.js';
import { resolveConfig, type ClusterState, type NodeObject } from '../../model/index.js';
import { kubernetesModel, replacementBound, runningReplicas } from '../../properties/index.js';
import { run } from './helpers.js';

// Step and state predicates of the timing tests: which nodes reach a stage on a step.
const tainted = (n: NodeObject | null): boolean => n !== null && n.taints.includes('unreachable:NoExecute');
const markedUnknown = (b: ClusterState, a: ClusterState): number[] =>
  a.api.nodes.flatMap((n, i) => (n?.ready === 'Unknown' && b.api.nodes[i]?.ready !== 'Unknown' ? [i] : []));
const notBefore = (id: string, x: number, nodes: (b: ClusterState, a: ClusterState) => number[]) =>
  alwaysStep<ClusterState>(`${id}-not-before-${x}`, `no ${id} before ${x}s`, (b, _a, a) => nodes(b, a).every((i) => b.nodes[i].sinceHeartbeat >= x));
const byAt = (id: string, y: number, still: (s: ClusterState, i: number) => boolean) =>
  always<ClusterState>(`${id}-by-${y}`, `${id} by ${y}s`, (s) => s.nodes.every((n, i) => !still(s, i) || n.sinceHeartbeat <= y));
const noExecute = (b: ClusterState, a: ClusterState): number[] => a.api.nodes.flatMap((n, i) => (tainted(n) && !tainted(b.api.nodes[i]) ? [i] : []));
// The node whose web pod a creation replaces: on a crashed node the evicted pod stays Terminating.
const replaced = (b: ClusterState, a: ClusterState): number[] =>
  a.api.pods.some((p) => p.workload === 'web' && !b.api.pods.some((q) => q.name === p.name))
    ? b.api.pods.flatMap((p) => (p.workload === 'web' && p.deletion !== null && p.nodeName >= 0 ? [p.nodeName] : []))
    : [];

describe('node-failure', () => {
  it('should hold every safety and timing property and reach every witness (v1.32 defaults: 50 s / 355 s)', () => {
    const r = run('node-failure');
    expect(r.result.verdict).toBe('ok');
    expect(r.status).toEqual({
      'single-leader': 'holds',
      'no-double-binding': 'holds',
      'healthy-node-not-unknown': 'holds',
      'statefulset-at-most-one': 'holds',
      'no-schedule-on-unready': 'holds',
      'no-early-eviction': 'holds',
      'writes-need-quorum': 'holds',
      'running-pods-keep-running': 'holds',
      'unknown-after-grace': 'holds',
      'replicaset-at-most-replicas': 'holds',
      'replacement-after-toleration': 'holds',
      'replacement-within': 'holds',
      'node-marked-unknown': 'witnessed',
      'pod-evicted': 'witnessed',
      'replacement-running': 'witnessed',
    });
    const props = Object.fromEntries(r.result.properties.map((p) => [p.id, p.description]));
    expect(props['unknown-after-grace']).toContain('50s');
    // 50 s grace + one 5 s monitor pass until the NoExecute taint + 300 s toleration.
    expect(props['replacement-after-toleration']).toContain('355s');
    // The bound replacement-within derives: up to 5 s until a pass sees the last renewal, then
    // the 355 s above: 2 × 5 s monitor period + 50 s grace + 300 s toleration.
    expect(replacementBound(r.config)).toBe(360);
    expect(props['replacement-within']).toContain('360s');
  });

  it('should hold the 40 s / 345 s bounds with kubernetesVersion 1.31', () => {
    const r = run('node-failure', { kubernetesVersion: '1.31' });
    expect(r.config.kubeControllerManager.nodeMonitorGracePeriod).toBe(40);
    expect(r.result.verdict).toBe('ok');
    const props = Object.fromEntries(r.result.properties.map((p) => [p.id, p.description]));
    expect(props['unknown-after-grace']).toContain('40s');
    expect(props['replacement-after-toleration']).toContain('345s');
    expect(replacementBound(r.config)).toBe(350);
    // Tight as with 1.32, 10 s earlier: Unknown at the earliest 40 s, the replacement 345 s.
    const tight = check({
      ...kubernetesModel(r.config),
      properties: [notBefore('unknown', 40, markedUnknown), notBefore('unknown', 41, markedUnknown), notBefore('replacement', 345, replaced), notBefore('replacement', 346, replaced)],
    });
    expect(Object.fromEntries(tight.properties.map((p) => [p.id, p.status]))).toEqual({
      'unknown-not-before-40': 'holds',
      'unknown-not-before-41': 'violated',
      'replacement-not-before-345': 'holds',
      'replacement-not-before-346': 'violated',
    });
  });

  it('should find the timeline tight: Unknown 50–54 s, NoExecute 55–59 s, replacement 355–359 s after the last heartbeat', () => {
    // With defaults the kubelet renews every 10 s and the monitor passes run every 5 s at an
    // initial phase of 0–4 s against the renewals; a pass sees a renewal made in its own second.
    // So the last renewal is seen 0–4 s after it is made, and that pass sets probeTimestamp.
    // - Unknown: the pass at probe + 50 s (now > probe + grace already holds on it, the loop's
    //   period running from the end of each pass), so 50–54 s after the heartbeat.
    // - NoSchedule: at once (event driven), in the same instant as Unknown.
    // - NoExecute: the pass that wrote Unknown saw Ready=True (processTaintBaseEviction takes the
    //   condition observed before the pass's update); the next pass, 5 s later, queues the node
    //   and the zone's token is free: 55–59 s.
    // - Eviction: observed with the taint, deleted 300 s later; the replacement is created in the
    //   same instant: 355–359 s.
    // Each lower bound X is checked as "not before X" holds and "not before X + 1" fails; each
    // upper bound Y as "never still before that stage at Y + 1" holds and "at Y" fails.
    const config = resolveConfig('node-failure');
    const base = kubernetesModel(config);
    // "Still before the stage" while the crashed node's state says so (a live node renews every 10 s).
    const stillReady = (s: ClusterState, i: number): boolean => s.api.nodes[i]?.ready === 'True';
    const stillUntainted = (s: ClusterState, i: number): boolean => s.api.nodes[i]?.ready === 'Unknown' && !tainted(s.api.nodes[i]);
    const stillServing = (s: ClusterState, i: number): boolean => s.api.pods.some((p) => p.workload === 'web' && p.nodeName === i && p.deletion === null);
    const model = {
      ...base,
      properties: [
        notBefore('unknown', 50, markedUnknown),
        notBefore('unknown', 51, markedUnknown),
        byAt('unknown', 54, stillReady),
        byAt('unknown', 53, stillReady),
        notBefore('noexecute', 55, noExecute),
        notBefore('noexecute', 56, noExecute),
        byAt('noexecute', 59, stillUntainted),
        byAt('noexecute', 58, stillUntainted),
        notBefore('replacement', 355, replaced),
        notBefore('replacement', 356, replaced),
        byAt('eviction', 359, stillServing),
        byAt('eviction', 358, stillServing),
      ],
    };
    const r = check(model);
    expect(Object.fromEntries(r.properties.map((p) => [p.id, p.status]))).toEqual({
      'unknown-not-before-50': 'holds',
      'unknown-not-before-51': 'violated',
      'unknown-by-54': 'holds',
      'unknown-by-53': 'violated',
      'noexecute-not-before-55': 'holds',
      'noexecute-not-before-56': 'violated',
      'noexecute-by-59': 'holds',
      'noexecute-by-58': 'violated',
      'replacement-not-before-355': 'holds',
      'replacement-not-before-356': 'violated',
      'eviction-by-359': 'holds',
      'eviction-by-358': 'violated',
    });
  });

  it('should find replacement-within tight: recovered within 359 s of the crash, not always within 358 s', () => {
    const config = resolveConfig('node-failure');
    const base = kubernetesModel(config);
    const within = (t: number) =>
      boundedResponse<ClusterState>({
        id: `replaced-within-${t}`,
        description: `replaced within ${t}s`,
        trigger: (s) => runningReplicas(s, 'web') < 2,
        response: (s) => runningReplicas(s, 'web') >= 2,
        elapsed: (_b, a) => (a.name === 'tick' ? 1 : 0),
        within: t,
      });
    const r = check({ ...base, properties: [within(359), within(358)] });
    expect(Object.fromEntries(r.properties.map((p) => [p.id, p.status]))).toEqual({ 'replaced-within-359': 'holds', 'replaced-within-358': 'violated' });
  });
});
