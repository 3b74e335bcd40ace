/**
 * The cluster's Pods as an operator reads them: `status.phase` (Pending until its kubelet posts it
 * started, Running from then on, kept while Terminating), `status.conditions` PodScheduled and
 * Ready (as the API holds it: what the kubelet last posted, or False from MarkPodsNotReady), and
 * `spec.nodeName`, as the kubelet's status manager and `podutil.IsPodReady` give them.
 */
import { describe, expect, it } from 'vitest';
import { alwaysStep, sometimes } from '../../checker/index.js';
import { kubernetesScenario } from '../../api/testing.js';
import { operator, type ApiObject, type OperatorMemory } from '../../model/operator/index.js';
import { podAsObject } from '../../model/operator/api.js';
import { NO_TOLERATION, type ClusterState, type PodObject } from '../../model/state.js';
import { timelineSteps } from '../../reports/timeline.js';
import { checkWith, statusOf } from './helpers.js';

/** One node, the StatefulSet `db` of one replica alone. */
const ONE_POD = { 'faults.nodeCrash': '0', 'cluster.nodes': '1', 'cluster.replicaSetReplicas': '0' };

type PodStatus = { readonly phase: string; readonly conditions: readonly { readonly type: string; readonly status: string }[] };
const statusIn = (o: ApiObject): PodStatus => o.status as PodStatus;
const condition = (o: ApiObject, type: string): string | undefined => statusIn(o).conditions.find((c) => c.type === type)?.status;
/** `podutil.IsPodReady`: the Ready condition is True. */
const isPodReady = (o: ApiObject): boolean => condition(o, 'Ready') === 'True';
const cachedPods = (s: ClusterState, name: string): readonly ApiObject[] => (s.extensions![name] as unknown as OperatorMemory[])[0].cache.Pod ?? [];
const cachedDb0 = (s: ClusterState, name: string): ApiObject | undefined => cachedPods(s, name).find((o) => o.metadata.name === 'db-0');

const pod = (p: Partial<PodObject>): PodObject => ({
  name: 'db-0',
  workload: 'db',
  nodeName: 0,
  deletion: null,
  tolerations: { unreachable: NO_TOLERATION, notReady: NO_TOLERATION, outOfService: NO_TOLERATION, noSchedule: [] },
  replacement: false,
  ...p,
});

describe('a Pod object as the API serves it', () => {
  it('has its phase and its PodScheduled and Ready conditions', () => {
    const read = (p: PodObject) => ({ phase: statusIn(podAsObject(p)).phase, scheduled: condition(podAsObject(p), 'PodScheduled'), ready: condition(podAsObject(p), 'Ready'), node: (podAsObject(p).spec as { nodeName: string }).nodeName });
    expect(read(pod({ nodeName: -1 }))).toEqual({ phase: 'Pending', scheduled: 'False', ready: undefined, node: '' });
    expect(read(pod({}))).toEqual({ phase: 'Pending', scheduled: 'True', ready: 'False', node: 'node-1' });
    expect(read(pod({ ready: true }))).toEqual({ phase: 'Running', scheduled: 'True', ready: 'True', node: 'node-1' });
    expect(read(pod({ ready: false }))).toEqual({ phase: 'Running', scheduled: 'True', ready: 'False', node: 'node-1' });
    // A Terminating pod keeps its phase, with its deletionTimestamp.
    const going = podAsObject(pod({ ready: false, deletion: 'operator' }));
    expect([statusIn(going).phase, going.metadata.deletionTimestamp]).toEqual(['Running', 'set']);
  });
});

describe('Pods as an operator reads them', () => {
  /** Deletes db-0 once, gracefully, and remembers it did. */
  const deleter = operator<{ done: boolean }>({
    name: 'deleter',
    for: 'Pod',
    memory: { done: false },
    reconcile(name, view) {
      const p = view.get('Pod', name);
      if (name !== 'db-0' || p === undefined || view.memory.done || !isPodReady(p)) return {};
      return { writes: [{ op: 'delete', kind: 'Pod', name, preconditions: { uid: p.metadata.uid } }], memory: { done: true } };
    },
  });
  /** A pod once served Running is never served Pending again (phases only move forward). */
  const forward = alwaysStep<ClusterState>('phase-forward', 'no Pod object goes from Running back to Pending', (b, _a, after) => {
    const running = new Set(b.api.pods.map(podAsObject).filter((o) => statusIn(o).phase === 'Running').map((o) => o.metadata.uid));
    return after.api.pods.map(podAsObject).every((o) => !running.has(o.metadata.uid) || statusIn(o).phase !== 'Pending');
  });

  it('sees db-0 Running and Ready, still Running while Terminating once deleted, and its replacement Running and Ready', async () => {
    const { model } = await kubernetesScenario('node-failure', { set: ONE_POD, extensions: [deleter] });
    const seen = (id: string, what: string, f: (o: ApiObject) => boolean) => sometimes<ClusterState>(id, what, (s) => {
      const o = cachedDb0(s, 'deleter');
      return o !== undefined && f(o);
    });
    const r = checkWith(model, [
      forward,
      seen('running-ready', 'its cache has db-0 Running and Ready', (o) => statusIn(o).phase === 'Running' && isPodReady(o)),
      seen('terminating-running', 'its cache has db-0 Terminating, still Running', (o) => o.metadata.deletionTimestamp !== undefined && statusIn(o).phase === 'Running'),
      sometimes<ClusterState>('replacement-ready', 'its cache has the new db-0 Running and Ready', (s) => {
        const o = cachedDb0(s, 'deleter');
        const api = s.api.pods.find((p) => p.name === 'db-0');
        return o !== undefined && api?.replacement === true && o.metadata.uid === podAsObject(api).metadata.uid && statusIn(o).phase === 'Running' && isPodReady(o);
      }),
    ]);
    expect(statusOf(r)).toEqual({ 'phase-forward': 'holds', 'running-ready': 'witnessed', 'terminating-running': 'witnessed', 'replacement-ready': 'witnessed' });
  });

  it("sees a crashed node's pod keep its phase Running once it is marked not Ready, and a replacement that cannot be scheduled Pending", async () => {
    const watcher = operator({ name: 'watcher', for: 'Pod', reconcile: () => ({}) });
    const { model } = await kubernetesScenario('node-failure', { set: { ...ONE_POD, 'faults.nodeCrash': '1', 'operator.forceDeletePod': '1' }, extensions: [watcher] });
    const seen = (id: string, what: string, f: (o: ApiObject) => boolean) => sometimes<ClusterState>(id, what, (s) => {
      const o = cachedDb0(s, 'watcher');
      return o !== undefined && f(o);
    });
    const r = checkWith(model, [
      forward,
      seen('running-not-ready', 'its cache has db-0 Running with Ready False, not Terminating', (o) => o.metadata.deletionTimestamp === undefined && statusIn(o).phase === 'Running' && condition(o, 'Ready') === 'False'),
      // The first db-0 runs from the start: a Pending one is its replacement, with no node to go to.
      seen('replacement-unscheduled', 'its cache has the new db-0 Pending and not scheduled', (o) => statusIn(o).phase === 'Pending' && condition(o, 'PodScheduled') === 'False' && condition(o, 'Ready') === undefined),
    ]);
    expect(statusOf(r)).toEqual({ 'phase-forward': 'holds', 'running-not-ready': 'witnessed', 'replacement-unscheduled': 'witnessed' });
  });
});

describe("a StatefulSet pod's delete and recreation, as an informer hears them", () => {
  /**
   * Restarts db-0 once and counts the DELETE it hears, as a restarter counting delete events does:
   * deletes it (Ready), then waits for its cache to show db-0 gone. The StatefulSet controller
   * recreates db-0 under the same name at once; a watch still sends DELETED before ADDED.
   */
  const restarter = operator<{ phase: 'idle' | 'waiting' | 'counted' }>({
    name: 'restarter',
    for: 'Pod',
    memory: { phase: 'idle' },
    reconcile(name, view) {
      if (name !== 'db-0') return {};
      const p = view.get('Pod', name);
      if (view.memory.phase === 'waiting') return p === undefined ? { memory: { phase: 'counted' } } : {};
      if (view.memory.phase === 'counted' || p === undefined || !isPodReady(p)) return {};
      return { writes: [{ op: 'delete', kind: 'Pod', name, preconditions: { uid: p.metadata.uid } }], memory: { phase: 'waiting' } };
    },
  });
  const phaseOf = (s: ClusterState): string => ((s.extensions!.restarter as unknown as OperatorMemory[])[0].memory as { phase: string }).phase;

  it('delivers the DELETE before the ADD of the new incarnation, so a restarter counting deletes can finish', async () => {
    const { model } = await kubernetesScenario('node-failure', { set: { ...ONE_POD, 'faults.extensionRestart': '0' }, extensions: [restarter] });
    const counted = sometimes<ClusterState>('delete-counted', 'the restarter hears db-0 deleted and counts it', (s) => phaseOf(s) === 'counted');
    // The cache never goes from one incarnation of db-0 straight to the next.
    const heard = alwaysStep<ClusterState>('delete-heard', 'no catch-up replaces a cached db-0 by another incarnation', (b, _a, after) => {
      const was = cachedDb0(b, 'restarter');
      const is = cachedDb0(after, 'restarter');
      return was === undefined || is === undefined || was.metadata.uid === is.metadata.uid;
    });
    const r = checkWith(model, [counted, heard]);
    expect(statusOf(r)).toEqual({ 'delete-counted': 'witnessed', 'delete-heard': 'holds' });
    const steps = timelineSteps(model, r.properties[0].trace!).map((s) => s.summary);
    expect(steps.some((l) => /its Pod informer catches up \([^)]*\); hears DELETED Pod\/db-0 \(db-0-0\), the new one next, queues db-0/.test(l))).toBe(true);
  });
});
