/**
 * The zone's NoExecute taint limiter as the source builds it: a token bucket of burst 1
 * (`flowcontrol.NewTokenBucketRateLimiter(qps, scheduler.EvictionRateLimiterBurst)`) that starts
 * full, so `--node-eviction-rate=0` still taints the first NotReady node of a zone (a zero rate
 * spends its burst once, golang.org/x/time/rate); and `SwapLimiter`, which keeps the limiter
 * whose `QPS()` equals the new rate. Master disruption mode swaps every limiter to 0, client-go's
 * never limiter, whose `QPS()` reads 1: on leaving it with `--node-eviction-rate=1` a zone still
 * cut off keeps the never limiter and its nodes are never tainted (kubernetes#104639, open).
 */
import { describe, expect, it } from 'vitest';
import { always, sometimes, type Property } from '../../checker/index.js';
import { type ClusterState } from '../../model/index.js';
import { checkWith, SMALL_TIMERS } from './helpers.js';

const noExecute = (s: ClusterState, n: number): boolean => s.api.nodes[n]?.taints.includes('unreachable:NoExecute') === true;

/** One witness per time since node-1's last heartbeat at which its NoExecute taint can first be seen. */
const taintedAt = (t: number): Property<ClusterState> =>
  sometimes<ClusterState>(`tainted-at-${t}`, `node-1 is tainted unreachable:NoExecute ${t}s after its last heartbeat`, (s) => noExecute(s, 0) && s.nodes[0].sinceHeartbeat === t && s.nodes[0].sinceNoExecute === 0);

const RANGE = Array.from({ length: 12 }, (_, t) => t);
const TAINT_TIMES = [4, 5];

describe('zone eviction limiter', () => {
  it('should taint the first NotReady node of a zone at rate 0 at the usual time, at both ends of the window', () => {
    // Passes every 2 s against renewals every 1 s: the pass that sees the last renewal comes 0-1 s after it.
    const set = (rate: string) => ({ ...SMALL_TIMERS, 'kubeControllerManager.nodeMonitorPeriod': '2s', 'cluster.statefulSetReplicas': '0', 'kubeControllerManager.nodeEvictionRate': rate, 'faults.nodeCrash': '0', 'faults.sequence': 'node-crash:node-1' });
    const props = [...RANGE.map(taintedAt), 'pod-evicted'];
    const zero = checkWith('node-failure', set('0'), props).status;
    const usual = checkWith('node-failure', set('0.1'), props).status;
    expect(zero).toEqual(usual);
    expect(zero['pod-evicted']).toBe('witnessed');
    // Unknown on the pass 2 s (the grace) after the one that saw the last renewal, tainted one pass later.
    const times = RANGE.filter((t) => zero[`tainted-at-${t}`] === 'witnessed');
    expect(times).toEqual(TAINT_TIMES);
  });

  it('should taint no second node of the zone at rate 0, ever', () => {
    const atMostOne = always<ClusterState>('at-most-one-tainted', 'at most one node is ever tainted NoExecute', (s) => s.api.nodes.filter((_, n) => noExecute(s, n)).length <= 1);
    const set = (rate: string) => ({ ...SMALL_TIMERS, 'cluster.statefulSetReplicas': '0', 'kubeControllerManager.nodeEvictionRate': rate, 'faults.nodeCrash': '0', 'faults.sequence': 'node-crash:node-1,node-crash:node-2+0s' });
    expect(checkWith('node-failure', set('0'), [atMostOne, 'pod-evicted']).status).toEqual({ 'at-most-one-tainted': 'holds', 'pod-evicted': 'witnessed' });
    expect(checkWith('node-failure', set('0.1'), [atMostOne]).status).toEqual({ 'at-most-one-tainted': 'violated' });
  });

  it('should never taint a zone still cut off after master disruption mode ends at rate 1 (kubernetes#104639), and taint it at other rates', () => {
    // Two zones of one node each, both cut off at once (master disruption mode), node-1's healed 10 s later.
    const set = (rate: string) => ({
      ...SMALL_TIMERS,
      'cluster.nodes': '2',
      'cluster.zones': '2',
      'cluster.replicaSetReplicas': '2',
      'cluster.statefulSetReplicas': '0',
      'cluster.controllerManagerCandidates': '1',
      'cluster.schedulerCandidates': '1',
      'kubeControllerManager.nodeEvictionRate': rate,
      'faults.nodeCrash': '0',
      'faults.sequence': 'node-partition:node-1,node-partition:node-2+0s,node-partition-heal:node-1+10s',
    });
    const mode = (s: ClusterState): boolean => s.candidates[0].some((k) => k.ctrl?.disruptionMode === true);
    const props = (): (string | Property<ClusterState>)[] => [
      sometimes<ClusterState>('left-mode', 'master disruption mode was entered and left', (s) => s.sequenceDone === 3 && !mode(s) && s.api.nodes[0]?.ready === 'True' && s.api.nodes[1]?.ready === 'Unknown'),
      always<ClusterState>('node-2-never-tainted', 'node-2 never gets the NoExecute taint', (s) => !noExecute(s, 1)),
    ];
    expect(checkWith('node-failure', set('1'), [...props(), 'pod-evicted']).status).toEqual({ 'left-mode': 'witnessed', 'node-2-never-tainted': 'holds', 'pod-evicted': 'unwitnessed' });
    for (const rate of ['0.1', '0.5']) expect(checkWith('node-failure', set(rate), props()).status).toEqual({ 'left-mode': 'witnessed', 'node-2-never-tainted': 'violated' });
  });
});
