/**
 * Tolerations matched as Kubernetes matches them (k8s.io/api core/v1 toleration.go
 * `ToleratesTaint`; taint_eviction.go `GetMatchingTolerations`, `getMinTolerationTime`) against
 * every taint the model applies, in the taint eviction controller, the scheduler and the
 * DaemonSet controller.
 */
import { describe, expect, it } from 'vitest';
import { always, sometimes, type Property } from '../../checker/index.js';
import { resolveConfig, type ClusterState } from '../../model/index.js';
import { tolerationOf } from '../../model/config.js';
import { admitDefaultTolerations, compileTolerations, daemonSetTolerations, noExecuteToleration, toleratesTaint, untoleratedTaint, TAINT_OBJECTS, type PodToleration } from '../../model/tolerations.js';
import { NO_TOLERATION } from '../../model/state.js';
import { checkWith, SMALL_TIMERS } from './helpers.js';

const tol = (t: Partial<PodToleration>): PodToleration => ({ key: '', operator: 'Equal', value: '', effect: '', tolerationSeconds: null, ...t });
const UNREACHABLE = 'node.kubernetes.io/unreachable';
const OUT_OF_SERVICE = 'node.kubernetes.io/out-of-service';

describe('toleration matching', () => {
  it('should match key, operator, value and effect as ToleratesTaint does', () => {
    const oos = TAINT_OBJECTS['out-of-service:NoExecute'];
    expect(toleratesTaint(tol({ operator: 'Exists' }), oos)).toBe(true);
    expect(toleratesTaint(tol({ operator: 'Exists', effect: 'NoSchedule' }), oos)).toBe(false);
    expect(toleratesTaint(tol({ key: OUT_OF_SERVICE, operator: 'Exists' }), oos)).toBe(true);
    expect(toleratesTaint(tol({ key: OUT_OF_SERVICE, value: 'nodeshutdown', effect: 'NoExecute' }), oos)).toBe(true);
    expect(toleratesTaint(tol({ key: OUT_OF_SERVICE, effect: 'NoExecute' }), oos)).toBe(false);
    expect(toleratesTaint(tol({ key: UNREACHABLE, operator: 'Exists' }), oos)).toBe(false);
    expect(toleratesTaint(tol({ key: UNREACHABLE, operator: 'Gt', value: '1' }), TAINT_OBJECTS['unreachable:NoExecute'])).toBe(false);
  });

  it('should use the first toleration that tolerates a taint, and the least seconds among those used', () => {
    const first = compileTolerations([tol({ key: UNREACHABLE, operator: 'Exists', effect: 'NoExecute', tolerationSeconds: 60 }), tol({ key: UNREACHABLE, operator: 'Exists', effect: 'NoExecute', tolerationSeconds: 20 })]);
    expect(first.unreachable).toBe(60);
    const everything = compileTolerations([tol({ operator: 'Exists' }), tol({ key: UNREACHABLE, operator: 'Exists', effect: 'NoExecute', tolerationSeconds: 20 })]);
    expect(everything).toEqual({ unreachable: null, notReady: null, outOfService: null, noSchedule: ['not-ready:NoSchedule', 'unreachable:NoSchedule', 'unschedulable:NoSchedule'] });
    const mixed = compileTolerations([tol({ key: UNREACHABLE, operator: 'Exists', effect: 'NoExecute', tolerationSeconds: 40 }), tol({ key: OUT_OF_SERVICE, operator: 'Exists', tolerationSeconds: -5, effect: 'NoExecute' })]);
    expect(noExecuteToleration(mixed, ['out-of-service:NoExecute', 'unreachable:NoExecute'])).toBe(0);
    expect(noExecuteToleration(mixed, ['unreachable:NoExecute', 'unreachable:NoSchedule'])).toBe(40);
    expect(noExecuteToleration(mixed, ['not-ready:NoExecute'])).toBe(NO_TOLERATION);
    expect(noExecuteToleration(mixed, ['unschedulable:NoSchedule'])).toBeUndefined();
    expect(untoleratedTaint(mixed, ['unreachable:NoExecute'])).toBe(false);
    expect(untoleratedTaint(mixed, ['unreachable:NoSchedule'])).toBe(true);
  });

  it('should add admission defaults only where the pod has no not-ready/unreachable NoExecute toleration of its own, whatever its operator and value', () => {
    expect(admitDefaultTolerations([tol({ operator: 'Exists' })], 300, 300)).toHaveLength(1);
    // Equal with a value matches no condition taint, yet it stops the default: such a pod is evicted at once.
    const own = admitDefaultTolerations([tol({ key: UNREACHABLE, value: 'x', effect: 'NoExecute' })], 300, 300);
    expect(compileTolerations(own)).toMatchObject({ unreachable: NO_TOLERATION, notReady: 300 });
    // The DaemonSet controller's replace a matching one (its seconds dropped) and tolerate unschedulable.
    const ds = compileTolerations(daemonSetTolerations([tol({ key: UNREACHABLE, operator: 'Exists', effect: 'NoExecute', tolerationSeconds: 5 })]));
    expect(ds).toEqual({ unreachable: null, notReady: null, outOfService: NO_TOLERATION, noSchedule: ['unschedulable:NoSchedule'] });
  });

  it('should read a workload list of Kubernetes tolerations from a config and refuse what the API refuses', () => {
    const cfg = (tolerations: unknown) => resolveConfig('node-failure', { set: { 'cluster.workloads': JSON.stringify([{ kind: 'ReplicaSet', name: 'web', replicas: 1, tolerations }]) } });
    expect(tolerationOf(cfg([{ operator: 'Exists' }]), 'web')).toMatchObject({ unreachable: null, notReady: null, outOfService: null });
    expect(tolerationOf(cfg([{ key: UNREACHABLE, operator: 'Exists', effect: 'NoExecute', tolerationSeconds: 30 }]), 'web')).toMatchObject({ unreachable: 30, notReady: 300, outOfService: NO_TOLERATION });
    expect(() => cfg([{ operator: 'Equal' }])).toThrow(/tolerations\[0\]\.operator: must be Exists when key is empty/);
    expect(() => cfg([{ key: UNREACHABLE, operator: 'Exists', tolerationSeconds: 3 }])).toThrow(/must be 'NoExecute' when tolerationSeconds is set/);
    const off = resolveConfig('node-failure', { set: { 'kubeApiserver.defaultTolerationSecondsAdmission': 'false', 'cluster.workloads': JSON.stringify([{ kind: 'ReplicaSet', name: 'web', replicas: 1, tolerations: [{ key: UNREACHABLE, operator: 'Exists', effect: 'NoExecute', tolerationSeconds: 30 }] }]) } });
    expect(tolerationOf(off, 'web')).toMatchObject({ unreachable: 30, notReady: NO_TOLERATION });
  });
});

const evicted = (s: ClusterState): boolean => s.api.pods.some((p) => p.workload === 'web' && p.deletion === 'taint-eviction');
const webSet = (tolerations: unknown, extra: Record<string, string> = {}): Record<string, string> => ({
  ...SMALL_TIMERS,
  'cluster.workloads': JSON.stringify([{ kind: 'ReplicaSet', name: 'web', replicas: 1, tolerations }]),
  'faults.nodeCrash': '0',
  ...extra,
});

describe('taint eviction with Kubernetes tolerations (exhaustive)', () => {
  const neverEvicted = always<ClusterState>('never-evicted', 'the web pod is never evicted by a taint', (s) => !evicted(s));

  it('should never evict a pod tolerating every taint (operator Exists, no key), the out-of-service taint included', () => {
    const set = webSet([{ operator: 'Exists' }], { 'faults.sequence': 'node-crash:node-1', 'operator.outOfServiceTaint': '1' });
    const reached = sometimes<ClusterState>('out-of-service-on-crashed-node', 'the crashed node carries out-of-service and unreachable NoExecute', (s) => s.api.nodes[0]?.taints.includes('out-of-service:NoExecute') === true && s.api.nodes[0]?.taints.includes('unreachable:NoExecute') === true);
    expect(checkWith('node-failure', set, [neverEvicted, reached]).status).toEqual({ 'never-evicted': 'holds', 'out-of-service-on-crashed-node': 'witnessed' });
    // The same pod with only the keyed condition tolerations (forever) is evicted by the out-of-service taint.
    const keyed = webSet(
      [
        { key: UNREACHABLE, operator: 'Exists', effect: 'NoExecute' },
        { key: 'node.kubernetes.io/not-ready', operator: 'Exists', effect: 'NoExecute' },
      ],
      { 'faults.sequence': 'node-crash:node-1', 'operator.outOfServiceTaint': '1' },
    );
    expect(checkWith('node-failure', keyed, [neverEvicted]).status).toEqual({ 'never-evicted': 'violated' });
  });

  it('should evict a pod with a keyed unreachable toleration from the list at both ends of its tolerationSeconds, never before', () => {
    const seconds = 4;
    const set = webSet([{ key: UNREACHABLE, operator: 'Exists', effect: 'NoExecute', tolerationSeconds: seconds }], { 'faults.sequence': 'node-crash:node-1' });
    // Time since the NoExecute taint, the model's own history variable: evicted after exactly tolerationSeconds.
    const at = (t: number): Property<ClusterState> => sometimes<ClusterState>(`evicted-at-${t}`, `evicted ${t}s after the taint`, (s) => evicted(s) && s.nodes[0].sinceNoExecute === t);
    const notBefore = always<ClusterState>('not-before', 'no eviction before tolerationSeconds', (s) => !evicted(s) || s.nodes[0].sinceNoExecute >= seconds);
    const notAfter = always<ClusterState>('not-after', 'evicted once tolerationSeconds have passed', (s) => evicted(s) || s.nodes[0].sinceNoExecute <= seconds);
    const r = checkWith('node-failure', set, [notBefore, notAfter, ...[seconds - 1, seconds].map(at)]);
    expect(r.status).toEqual({ 'not-before': 'holds', 'not-after': 'holds', [`evicted-at-${seconds - 1}`]: 'unwitnessed', [`evicted-at-${seconds}`]: 'witnessed' });
  });

  it('should schedule the deletion of a pod with a keyed out-of-service toleration at its tolerationSeconds and evict it then; without one, at once', () => {
    const scheduled = (t: number): Property<ClusterState> =>
      sometimes<ClusterState>(`scheduled-${t}`, `deletion scheduled ${t}s ahead while the pod runs`, (s) => !evicted(s) && s.candidates[0].some((k) => k.ctrl?.evictions.some((e) => e.pod.startsWith('web-') && e.in === t) === true));
    const evictedEver = sometimes<ClusterState>('evicted', 'the web pod is evicted', evicted);
    // One node, so an evicted pod's replacement stays Pending on the tainted node.
    const one = { 'faults.sequence': 'out-of-service-taint:node-1', 'cluster.nodes': '1' };
    const keyed = webSet([{ key: OUT_OF_SERVICE, operator: 'Exists', effect: 'NoExecute', tolerationSeconds: 4 }], one);
    expect(checkWith('node-failure', keyed, [scheduled(5), scheduled(4), scheduled(1), evictedEver]).status).toEqual({ 'scheduled-5': 'unwitnessed', 'scheduled-4': 'witnessed', 'scheduled-1': 'witnessed', evicted: 'witnessed' });
    const none = webSet([{ key: UNREACHABLE, operator: 'Exists', effect: 'NoExecute' }], one);
    expect(checkWith('node-failure', none, [scheduled(4), evictedEver]).status).toEqual({ 'scheduled-4': 'unwitnessed', evicted: 'witnessed' });
  });
});
