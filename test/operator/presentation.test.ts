/**
 * How an operator reads in reports: its objects and its process by name in a step's changes and
 * in the final state (no list position, no object as raw JSON), your words for its memory and
 * its kinds where you give them (`describeMemory`, `describeObject`), and the tick's step saying
 * what time did to an extension's memory.
 */
import { describe, expect, it } from 'vitest';
import { sometimes, type JsonValue } from '../../checker/index.js';
import { kubernetesScenario } from '../../api/testing.js';
import { clusterModel, resolveConfig, type ClusterExtension } from '../../model/index.js';
import { operator } from '../../model/operator/index.js';
import { presentCluster } from '../../model/presentation.js';
import type { ClusterState } from '../../model/state.js';
import { jsonOf } from '../../reports/diff.js';
import { formatTimeline, stateParts, timelineSteps } from '../../reports/timeline.js';
import { backupOperator } from '../../examples/backup-operator/backupOperator.js';
import { checkWith } from './helpers.js';

const SMALL = { 'faults.nodeCrash': '0', 'cluster.nodes': '1', 'cluster.replicaSetReplicas': '0', 'cluster.statefulSetReplicas': '0' };

describe('an operator in timelines and final states', () => {
  it('names its objects, its cache, its queue and its undelivered events in a step\'s changes and the final state', async () => {
    const { model } = await kubernetesScenario('node-failure', { set: { 'faults.nodeCrash': '0' }, extensions: [backupOperator({ claim: false })] });
    const outcome = checkWith(model, [], ['backup-operator-external-call-once']).properties[0];
    const text = formatTimeline(model, outcome.trace!, { maxChanges: 20 });
    const changes = text.split('\n').filter((l) => /^ {11}\S/.test(l)).map((l) => l.trim());
    expect(changes).toEqual(expect.arrayContaining([
      'extensions.backup-operator.queue: - nightly',
      'extensions.backup-operator.reconciling[nightly]: + {plan: call take-backup nightly; patchStatus Backup/nightly, sent: 0 of 2}',
      'extensions.backup-operator.reconciling[nightly].sent: 0 of 2 → 1 of 2',
      'custom.calls.take-backup nightly: + 1',
      'custom.objects[Backup nightly].resourceVersion: rv-1 → rv-2',
      'custom.objects[Backup nightly].labels: + {team: db}',
      'extensions.backup-operator.undelivered.rv-2: + MODIFIED Backup nightly',
      'extensions.backup-operator.undelivered.rv-2: - MODIFIED Backup nightly',
      'extensions.backup-operator.cache[Backup nightly].resourceVersion: rv-1 → rv-2',
      'custom.objects[Backup nightly].status: + {phase: Done}',
    ]));
    // Nothing by position, no object or event as the state holds it, no counter of the store.
    for (const c of changes) expect(c).not.toMatch(/\[\d+\]|kind: |metadata|nextResourceVersion|custom\.watches/);
    const final = stateParts(model.describeState!(outcome.trace!.states.at(-1)!));
    expect(final).toEqual(expect.arrayContaining([
      'Backup nightly (uid-1, rv-3, labels team=db) spec {database: orders} status {phase: Done}',
      'calls: take-backup nightly ×2 or more',
      // The stale cache that made the second call, and the event that would have told it.
      'backup-operator: queue empty; reconciling nightly (1 of 2 sent); cache Backup nightly at rv-2; not heard yet MODIFIED Backup nightly (rv-3)',
    ]));
  });

  /** Counts its reconciles in memory and marks its Thing Done; both described in its own words. */
  const counter = (hooks: boolean) =>
    operator<number>({
      name: 'counter',
      for: 'Thing',
      memory: 0,
      objects: [{ kind: 'Thing', metadata: { name: 't', finalizers: ['counter/keep'] }, spec: { size: 1 } }],
      reconcile: (r, view) => {
        const t = view.get('Thing', r);
        if (t === undefined || (t.status as { phase?: string } | undefined)?.phase === 'Done') return {};
        return { writes: [{ op: 'patchStatus', kind: 'Thing', name: r, status: { phase: 'Done' } }], memory: view.memory + 1 };
      },
      ...(hooks
        ? {
            describeMemory: (n: number) => `${n} ${n === 1 ? 'reconcile' : 'reconciles'} so far`,
            describeObject: (o) => (o.kind === 'Thing' ? `${(o.status as { phase?: string } | undefined)?.phase ?? 'new'}, size ${(o.spec as { size: number }).size}` : undefined),
          }
        : {}),
    });
  const done = sometimes<ClusterState>('thing-done', 'the Thing is Done and the operator heard it', (s) => (s.extensions!.counter as unknown as { cache: { Thing: { status?: unknown }[] } }[])[0].cache.Thing[0]?.status !== undefined);

  it('reads its memory and its kinds in the words of describeMemory and describeObject, in the API and in its cache', async () => {
    const { model } = await kubernetesScenario('node-failure', { set: SMALL, extensions: [counter(true)] });
    const trace = checkWith(model, [done]).properties[0].trace!;
    const changes = timelineSteps(model, trace).flatMap((s) => s.changes.map((c) => `${c.path}: ${c.before ?? '+'} → ${c.after ?? '-'}`));
    expect(changes).toEqual(expect.arrayContaining([
      'extensions.counter.memory: 0 reconciles so far → 1 reconcile so far',
      'custom.objects[Thing t].summary: new, size 1 → Done, size 1',
      'extensions.counter.cache[Thing t].summary: new, size 1 → Done, size 1',
    ]));
    const final = stateParts(model.describeState!(trace.states.at(-1)!));
    expect(final).toContain('Thing t (uid-1, rv-2, finalizers [counter/keep]): Done, size 1');
    // Hearing its own status write queued t again.
    expect(final).toContain('counter: queue t; cache Thing t at rv-2; memory 1 reconcile so far');
    // Without the hooks: the spec and status, and the memory as JSON.
    const plain = (await kubernetesScenario('node-failure', { set: SMALL, extensions: [counter(false)] })).model;
    const last = stateParts(plain.describeState!(checkWith(plain, [done]).properties[0].trace!.states.at(-1)!));
    expect(last).toContain('Thing t (uid-1, rv-2, finalizers [counter/keep]) spec {size: 1} status {phase: Done}');
    expect(last).toContain('counter: queue t; cache Thing t at rv-2; memory 1');
    // A state pane's JSON: the object by name, its fields flat.
    const shown = jsonOf(plain.present!(trace.states.at(-1)!)) as { custom: { objects: unknown[] } };
    expect(shown.custom.objects).toEqual([{ name: 'Thing t', uid: 'uid-1', resourceVersion: 'rv-2', finalizers: ['counter/keep'], spec: { size: 1 }, status: { phase: 'Done' } }]);
  });

  it('names each replica of a leader-elected operator, and its Lease by who holds it', async () => {
    const elected = operator({ name: 'pair', for: 'Thing', replicas: 2, objects: [{ kind: 'Thing', metadata: { name: 't' } }], reconcile: () => ({}) });
    const { model } = await kubernetesScenario('node-failure', { set: SMALL, extensions: [elected] });
    const initial = model.initialStates()[0];
    const shown = model.present!(initial) as { extensions: { pair: { name: string; role: string }[] } };
    expect(shown.extensions.pair.map((r) => `${r.name} ${r.role}`)).toEqual(['pair-1 follower', 'pair-2 follower']);
    const parts = stateParts(model.describeState!(initial));
    expect(parts).toContain('Lease pair-leader (uid-2, rv-2) held by none');
    expect(parts).toContain('pair-1 (follower): queue empty; cache Thing t at rv-1');
  });

  it('says a hook that throws in one coded line naming the operator and the hook', async () => {
    const throwing = operator({ name: 'oops', for: 'Thing', objects: [{ kind: 'Thing', metadata: { name: 't' } }], reconcile: () => ({}), describeObject: () => { throw new Error('no words'); } });
    const { model } = await kubernetesScenario('node-failure', { set: SMALL, extensions: [throwing] });
    expect(() => model.describeState!(model.initialStates()[0])).toThrow(/^KC\d+: extension oops: describeObject threw: no words$/);
  });

  it('leaves the stock model as it was: no extension, no change to how its states read', () => {
    const model = clusterModel(resolveConfig('node-failure'));
    expect(model.present).toBe(presentCluster);
  });
});

describe('the tick step with extensions', () => {
  /** Seconds since the start, up to 3; a second extension whose memory time never changes. */
  const clock = (hooks: Partial<ClusterExtension>): ClusterExtension => ({ name: 'clock', symmetric: true, initial: () => 0, onTick: (m, _s, dt) => Math.min(3, (m as number) + dt), actions: [], ...hooks });
  const still: ClusterExtension = { name: 'still', symmetric: true, initial: () => 'x', onTick: (m) => m, actions: [] };
  const atThree = sometimes<ClusterState>('three', 'three seconds counted', (s) => s.extensions!.clock === 3);
  const ticks = async (hooks: Partial<ClusterExtension>): Promise<string[]> => {
    const { model } = await kubernetesScenario('node-failure', { set: SMALL, extensions: [clock(hooks), still] });
    const trace = checkWith(model, [atThree]).properties[0].trace!;
    return timelineSteps(model, trace).filter((s) => s.action.name === 'tick').map((s) => s.summary);
  };

  it('says what a tick did to each memory it changed: as JSON, in describeMemory\'s words, or describeTick\'s line', async () => {
    expect(await ticks({})).toEqual(['1s pass; clock: 0 → 1', '1s pass; clock: 1 → 2', '1s pass; clock: 2 → 3']);
    expect(await ticks({ describeMemory: (m: JsonValue) => `${String(m)}s counted` })).toEqual(['1s pass; clock: 0s counted → 1s counted', '1s pass; clock: 1s counted → 2s counted', '1s pass; clock: 2s counted → 3s counted']);
    expect(await ticks({ describeTick: (_b: JsonValue, a: JsonValue, dt: number) => (a === 3 ? `clock: full after ${dt}s more` : undefined) })).toEqual(['1s pass', '1s pass', '1s pass; clock: full after 1s more']);
  });

  it('gives an extension\'s memory its own part of the final state', async () => {
    const { model } = await kubernetesScenario('node-failure', { set: SMALL, extensions: [clock({ describeMemory: (m: JsonValue) => `${String(m)}s counted` }), still] });
    const parts = stateParts(model.describeState!(model.initialStates()[0]));
    expect(parts.slice(-2)).toEqual(['clock: 0s counted', 'still: x']);
  });
});
