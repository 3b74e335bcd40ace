/**
 * An operator's informers under `informers.watchLag`: with a lag, a watch event (a change of the
 * cluster's Nodes) waits at most that long before the cache has it, as the built-in informers'
 * catch-up; without one it may wait any time (a cache may lag without bound). Each case asks
 * whether a reconcile can read a copy older than a given age: a stopwatch extension counts the
 * seconds since the change, so the age is measured apart from the operator's own bookkeeping.
 */
import { describe, expect, it } from 'vitest';
import { alwaysStep } from '../../checker/index.js';
import { kubernetesScenario } from '../../api/testing.js';
import { objectOf, operator, type OperatorMemory } from '../../model/operator/index.js';
import type { ClusterExtension } from '../../model/clusterModel.js';
import type { ClusterState } from '../../model/state.js';
import { timelineSteps } from '../../reports/timeline.js';
import { checkWith, statusOf } from './helpers.js';

const SMALL = { 'faults.nodeCrash': '0', 'cluster.nodes': '1', 'cluster.replicaSetReplicas': '0', 'cluster.statefulSetReplicas': '0' };

/** Reconciles its Thing every second from its cache (a poll), so a read can come at any instant. */
const poller = (kind: 'Thing' | 'Node') =>
  operator({
    name: 'poller',
    for: kind,
    objects: kind === 'Thing' ? [{ kind: 'Thing', metadata: { name: 't' } }] : [],
    reconcile: () => ({ requeueAfter: 1 }),
    clients: kind === 'Thing' ? [{ name: 'label', description: 'kubectl label thing t x=1', writes: () => [{ op: 'patch', kind: 'Thing', name: 't', patch: { labels: { x: '1' } } }] }] : [],
  });

const cacheOf = (s: ClusterState) => (s.extensions!.poller as unknown as OperatorMemory[])[0].cache;
/** The change to watch for, in the API and in the poller's cache. */
const labelled = (s: ClusterState): boolean => objectOf(s, 'Thing', 't')?.metadata.labels?.x === '1';
const cachedLabelled = (s: ClusterState): boolean => cacheOf(s).Thing?.[0]?.metadata.labels?.x === '1';
const unknown = (s: ClusterState): boolean => s.api.nodes[0]?.ready === 'Unknown';
const cachedUnknown = (s: ClusterState): boolean => JSON.stringify(cacheOf(s).Node ?? []).includes('"Unknown"');

/** Whole seconds since `changed` first held (-1 before), saturating at 5; the change is never undone here. */
const stopwatch = (changed: (s: ClusterState) => boolean): ClusterExtension => ({
  name: 'stopwatch',
  symmetric: true,
  initial: () => -1,
  onTick: (m, s, seconds) => (!changed(s) ? -1 : Math.min(5, Math.max(0, m as number) + seconds)),
  actions: [],
});
const age = (s: ClusterState): number => Math.max(0, s.extensions!.stopwatch as number);

/** No reconcile reads a copy that misses the change once the change is `k` seconds old. */
const noReadOlderThan = (k: number, changed: (s: ClusterState) => boolean, cached: (s: ClusterState) => boolean) =>
  alwaysStep<ClusterState>(`no-stale-read-${k}s`, `no reconcile reads a cache that misses a change ${k}s old`, (b, a) => !(a.name === 'poller-reconcile' && changed(b) && !cached(b) && age(b) >= k));

const model = async (kind: 'Thing' | 'Node', set: Record<string, string>) =>
  (await kubernetesScenario('node-failure', { set, extensions: [poller(kind), kind === 'Thing' ? stopwatch(labelled) : stopwatch(unknown)] })).model;

describe('an operator informer bounded by informers.watchLag', () => {
  it('with a lag of 2s, a read 1s stale is explored and one 2s stale is not: the event is heard before time passes it', async () => {
    const m = await model('Thing', { ...SMALL, 'informers.watchLag': '2s' });
    const r = checkWith(m, [noReadOlderThan(1, labelled, cachedLabelled), noReadOlderThan(2, labelled, cachedLabelled)]);
    expect(statusOf(r)).toEqual({ 'no-stale-read-1s': 'violated', 'no-stale-read-2s': 'holds' });
    // The younger read: the label, a second passes, and the poll reads the copy without it.
    const steps = timelineSteps(m, r.properties[0].trace!);
    expect(steps.map((s) => s.summary)).toContain('kubectl label thing t x=1');
    expect(steps.at(-1)!.summary).toBe('reconciles t (its cache has Thing t at rv-1): nothing to write');
  });

  it('says in the trace when the lag forces an event in, and what the tick did to its age', async () => {
    const m = await model('Thing', { ...SMALL, 'informers.watchLag': '2s' });
    const heard = alwaysStep<ClusterState>('never-forced', 'no event is forced in by the lag', (_b, a) => a.name !== 'poller-watch-due');
    const trace = checkWith(m, [heard]).properties[0].trace!;
    const summaries = timelineSteps(m, trace).map((s) => s.summary);
    // The tick says what it did to each memory: the poller's event ages, the stopwatch (no hook: its JSON) moves.
    expect(summaries).toEqual([
      'kubectl label thing t x=1',
      '1s pass; poller: its oldest unheard Thing event waiting 1s; stopwatch: -1 → 1',
      '1s pass; poller: its oldest unheard Thing event waiting 2s (informers.watchLag: heard before time passes); stopwatch: 1 → 2',
      'its informer hears MODIFIED Thing/t (rv-2) (the event waited 2s, informers.watchLag: delivered before time passes)',
    ]);
  });

  it('without a lag (0, the default), keeps an event waiting any time: a read 5s stale is explored', async () => {
    const r = checkWith(await model('Thing', SMALL), [noReadOlderThan(5, labelled, cachedLabelled)]);
    expect(statusOf(r)).toEqual({ 'no-stale-read-5s': 'violated' });
  });

  it('bounds a cache of the cluster\'s Nodes too: a node marked Unknown is in it within the lag', async () => {
    const set = { ...SMALL, 'faults.nodeCrash': '1', 'informers.watchLag': '2s' };
    const r = checkWith(await model('Node', set), [noReadOlderThan(1, unknown, cachedUnknown), noReadOlderThan(2, unknown, cachedUnknown)]);
    expect(statusOf(r)).toEqual({ 'no-stale-read-1s': 'violated', 'no-stale-read-2s': 'holds' });
  }, 60_000);
});
