/**
 * Acceptance 1: `node-failure` with defaults (3 nodes in one zone, a ReplicaSet of 2, a
 * StatefulSet of 1, 2 candidates per election, one node crash), checked exhaustively.
 */
import { describe, expect, it } from 'vitest';
import { boundedResponse, check, observer } from '../../checker/index.js';
import { resolveConfig, type ClusterState } from '../../model/index.js';
import { kubernetesModel, replacementBound, runningReplicas } from '../../properties/index.js';
import { run } from './helpers.js';

describe('node-failure', () => {
  it('should hold every safety and timing property and reach every witness (v1.32 defaults: 50 s / 350 s)', () => {
    const r = run('node-failure');
    expect(r.result.verdict).toBe('ok');
    expect(r.status).toEqual({
      'single-leader': 'holds',
      'no-double-binding': 'holds',
      'statefulset-at-most-one': 'holds',
      'no-schedule-on-unready': 'holds',
      'no-early-eviction': 'holds',
      'writes-need-quorum': 'holds',
      'running-pods-keep-running': 'holds',
      'unknown-after-grace': 'holds',
      'replacement-after-toleration': 'holds',
      'replacement-within': 'holds',
      'node-marked-unknown': 'witnessed',
      'pod-evicted': 'witnessed',
      'replacement-running': 'witnessed',
    });
    const props = Object.fromEntries(r.result.properties.map((p) => [p.id, p.description]));
    expect(props['unknown-after-grace']).toContain('50s');
    expect(props['replacement-after-toleration']).toContain('350s');
    // The bound replacement-within derives: 2 × 5 s monitor period + 50 s grace + 300 s toleration.
    expect(replacementBound(r.config)).toBe(360);
    expect(props['replacement-within']).toContain('360s');
  });

  it('should hold the 40 s / 340 s bounds with kubernetesVersion 1.31', () => {
    const r = run('node-failure', { kubernetesVersion: '1.31' });
    expect(r.config.kubeControllerManager.nodeMonitorGracePeriod).toBe(40);
    expect(r.result.verdict).toBe('ok');
    const props = Object.fromEntries(r.result.properties.map((p) => [p.id, p.description]));
    expect(props['unknown-after-grace']).toContain('40s');
    expect(props['replacement-after-toleration']).toContain('340s');
    expect(replacementBound(r.config)).toBe(350);
  });

  it('should find the bounds tight: Unknown at the earliest 55 s and a replacement at the earliest 355 s after the last heartbeat', () => {
    // Custom observers: "no node is marked Unknown before X s" and "no replacement is created
    // before Y s" after the last heartbeat. X = 55 holds and X = 56 fails, so the earliest mark
    // is exactly 55 s: the first 5 s monitor pass with now > probeTimestamp + 50 s. Likewise 355 s.
    const config = resolveConfig('node-failure');
    const base = kubernetesModel(config);
    const unknownBefore = (x: number) =>
      observer<ClusterState, boolean>({
        id: `unknown-not-before-${x}`,
        description: `no Unknown before ${x}s`,
        initial: () => false,
        step: (seen, b, _a, a) => seen || a.api.nodes.some((n, i) => n?.ready === 'Unknown' && b.api.nodes[i]?.ready !== 'Unknown' && b.nodes[i].sinceHeartbeat < x),
        holds: (seen) => !seen,
      });
    const createdBefore = (y: number) =>
      observer<ClusterState, boolean>({
        id: `replacement-not-before-${y}`,
        description: `no replacement before ${y}s`,
        initial: () => false,
        step: (seen, b, _a, a) =>
          seen || (a.api.pods.some((p) => p.workload === 'web' && !b.api.pods.some((q) => q.name === p.name)) && !b.nodes.some((n) => n.sinceHeartbeat >= y)),
        holds: (seen) => !seen,
      });
    const model = { ...base, properties: [unknownBefore(55), unknownBefore(56), createdBefore(355), createdBefore(356)] };
    const r = check(model);
    const status = Object.fromEntries(r.properties.map((p) => [p.id, p.status]));
    expect(status).toEqual({
      'unknown-not-before-55': 'holds',
      'unknown-not-before-56': 'violated',
      'replacement-not-before-355': 'holds',
      'replacement-not-before-356': 'violated',
    });
  });

  it('should find replacement-within tight: recovered within 359 s of the crash, not always within 358 s', () => {
    const config = resolveConfig('node-failure');
    const base = kubernetesModel(config);
    const within = (t: number) =>
      boundedResponse<ClusterState>({
        id: `replaced-within-${t}`,
        description: `replaced within ${t}s`,
        trigger: (s) => runningReplicas(s) < 2,
        response: (s) => runningReplicas(s) >= 2,
        elapsed: (_b, a) => (a.name === 'tick' ? 1 : 0),
        within: t,
      });
    const r = check({ ...base, properties: [within(359), within(358)] });
    expect(Object.fromEntries(r.properties.map((p) => [p.id, p.status]))).toEqual({ 'replaced-within-359': 'holds', 'replaced-within-358': 'violated' });
  });
});
