/**
 * An operator's code cannot change a state the search has made: what a reconcile reads is a copy
 * (controller-runtime's cache reader copies too), what it returns is copied back as JSON, and hooks
 * handed a whole state get it frozen. The Go habit of editing the object just read before writing
 * it back is harmless, so the backup operator's double backup is found with it too.
 */
import { describe, expect, it } from 'vitest';
import { always, check, eventually, type Model } from '../../checker/index.js';
import { successors } from '../../checker/successors.js';
import { kubernetesScenario } from '../../api/testing.js';
import { objectsOf, operator, type ApiObject, type ReconcileResult } from '../../model/operator/index.js';
import type { ClusterExtension } from '../../model/clusterModel.js';
import type { ClusterState } from '../../model/state.js';
import { jsonFrom } from '../../model/operator/userCode.js';

const NO_CRASH = { 'faults.nodeCrash': '0' };
const small = { ...NO_CRASH, 'cluster.nodes': '1', 'cluster.replicaSetReplicas': '0', 'cluster.statefulSetReplicas': '0' };

/** The backup operator (examples/backup-operator) written with the Go habit: it edits the Backup it read, then writes its status. */
const goHabit = (): ClusterExtension =>
  operator({
    name: 'backup-operator',
    for: 'Backup',
    objects: [{ kind: 'Backup', metadata: { name: 'nightly' }, spec: { database: 'orders' } }],
    reconcile(request, view): ReconcileResult {
      const backup = view.get('Backup', request);
      if (backup === undefined) return {};
      const status = backup.status as { phase?: string } | undefined;
      if (status?.phase === 'Done') return {};
      // backup.Status.Phase = "Done"; r.Status().Patch(ctx, backup, ...)
      (backup as { status?: unknown }).status = { ...status, phase: 'Done' };
      return { writes: [{ op: 'external', call: `take-backup ${request}` }, { op: 'patchStatus', kind: 'Backup', name: request, status: backup.status ?? null }] };
    },
    clients: [{ name: 'label', description: 'kubectl label backup nightly team=db', writes: () => [{ op: 'patch', kind: 'Backup', name: 'nightly', patch: { labels: { team: 'db' } } }] }],
    nonIdempotent: (call) => call.startsWith('take-backup '),
  });

/** Every state reachable within `limit` states, breadth first, with its JSON taken when it was made. */
function explore(model: Model<ClusterState>, limit: number): { states: ClusterState[]; snapshots: string[] } {
  const states: ClusterState[] = [];
  const snapshots: string[] = [];
  const seen = new Set<string>();
  const add = (s: ClusterState): void => {
    const json = JSON.stringify(s);
    if (seen.has(json) || states.length >= limit) return;
    seen.add(json);
    states.push(s);
    snapshots.push(json);
  };
  for (const s of model.initialStates()) add(s);
  for (let k = 0; k < states.length; k++) {
    for (const { state } of successors(model, states[k])) add(state);
    // Every property and description hook runs on every state, as a check and its reports run them.
    for (const p of model.properties) if (p.kind === 'invariant') p.holds(states[k]);
    model.describeState?.(states[k]);
  }
  return { states, snapshots };
}

describe("an operator's code and the states it reads", () => {
  it('finds the double backup of an operator that edits the Backup it read (the Go habit): the edit stays in the reconcile', async () => {
    const { model, properties } = await kubernetesScenario('node-failure', { set: NO_CRASH, extensions: [goHabit()] });
    const r = check(model, { properties });
    expect(r.properties.find((p) => p.id === 'backup-operator-external-call-once')?.status).toBe('violated');
    // The initial state's cache still shows the Backup as the API created it.
    const [initial] = model.initialStates();
    const cached = (initial.extensions!['backup-operator'] as unknown as { cache: Record<string, ApiObject[]> }[])[0].cache.Backup[0];
    expect(cached.status).toBeUndefined();
  });

  it('never changes a stored state, the initial one included, whatever a reconcile or hook edits in place', async () => {
    const vandal = operator({
      name: 'vandal',
      for: 'Thing',
      owns: ['Part'],
      watches: [{ kind: 'Part', map: (o) => { (o.metadata as { name: string }).name = 'x'; return []; } }],
      memory: { seen: [] as string[] },
      objects: [{ kind: 'Thing', metadata: { name: 't', labels: { a: 'b' } }, spec: { n: 1 } }],
      reconcile(request, view) {
        for (const o of [...view.list('Thing'), ...view.reader.list('Thing'), view.get('Thing', request), view.reader.get('Thing', request)]) {
          if (o === undefined) continue;
          (o as { spec: unknown }).spec = { n: 99 };
          (o.metadata.labels as Record<string, string>).a = 'mutated';
          (o.metadata as { resourceVersion: string }).resourceVersion = 'rv-999';
        }
        (view.memory as { seen: string[] }).seen.push(request);
        const part = { kind: 'Part', metadata: { name: `${request}-part`, ownerReferences: [{ kind: 'Thing', name: request, uid: view.get('Thing', request)?.metadata.uid ?? '', controller: true }] } };
        return { writes: [{ op: 'create', object: part }], ignore: ['AlreadyExists'] };
      },
      describeObject: (o) => { (o as { spec: unknown }).spec = 'gone'; return undefined; },
      describeMemory: (m) => { (m as { seen: string[] }).seen.length = 0; return 'memory'; },
    });
    const { model } = await kubernetesScenario('node-failure', { set: { ...small, 'faults.extensionRestart': '1' }, extensions: [vandal] });
    const { states, snapshots } = explore(model, 3000);
    expect(states.length).toBeGreaterThan(20);
    states.forEach((s, k) => expect(JSON.stringify(s)).toBe(snapshots[k]));
    // What the reconcile kept in memory by editing it in place stays (the process's own memory).
    expect(states.some((s) => JSON.stringify(s.extensions?.vandal).includes('"seen":["t"]'))).toBe(true);
  });

  it('hands hooks that read a whole state a frozen one: an edit is a coded error naming the operator and the hook', async () => {
    const editing = (where: 'client' | 'property' | 'liveness') =>
      operator({
        name: 'editor',
        for: 'Thing',
        objects: [{ kind: 'Thing', metadata: { name: 't' } }],
        reconcile: () => ({}),
        clients: where === 'client' ? [{ name: 'edit', writes: (s) => { (s.custom!.objects.Thing[0] as { spec: unknown }).spec = 1; return []; } }] : [],
        properties: where === 'property' ? [always<ClusterState>('editor-edits', 'edits', (s) => { (s.api as { pods: unknown }).pods = []; return true; })] : [],
        liveness: where === 'liveness' ? [eventually<ClusterState>('editor-live', 'edits', (s) => { (objectsOf(s, 'Thing') as ApiObject[]).pop(); return true; })] : [],
      });
    const client = await kubernetesScenario('node-failure', { set: small, extensions: [editing('client')] });
    expect(() => check(client.model, { properties: client.properties })).toThrow(/^KC110: extension editor: the writes of its client edit threw: TypeError: Cannot add property spec, object is not extensible/);
    const property = await kubernetesScenario('node-failure', { set: small, extensions: [editing('property')] });
    expect(() => check(property.model, { properties: ['editor-edits'] })).toThrow(/^KC110: extension editor: property editor-edits's holds threw: TypeError: Cannot assign to read only property 'pods'/);
    const liveness = await kubernetesScenario('node-failure', { set: small, extensions: [editing('liveness')] });
    const [initial] = liveness.model.initialStates();
    expect(() => liveness.liveness.find((p) => p.id === 'editor-live')!.q(initial)).toThrow(/^KC110: extension editor: liveness property editor-live's q threw: TypeError: Cannot delete property/);
  });

  it('copies what user code returns as JSON, and refuses what is not JSON with a code naming where', () => {
    const cycle: Record<string, unknown> = { a: 1 };
    cycle.self = cycle;
    expect(() => jsonFrom(cycle, 'extension x: memory')).toThrow(/^KC110: extension x: memory at self holds a cycle/);
    expect(() => jsonFrom({ f: () => 1 }, 'extension x: memory')).toThrow(/^KC110: extension x: memory at f is a function/);
    expect(() => jsonFrom([1, Number.NaN], 'w')).toThrow(/^KC110: w at \[1\] is NaN/);
    expect(() => jsonFrom({ d: new Date(0) }, 'w')).toThrow(/^KC110: w at d is Date instance/);
    const shared = { x: [1] };
    const copy = jsonFrom({ a: shared, b: shared, c: undefined }, 'w') as { a: { x: number[] }; b: unknown };
    expect(copy).toEqual({ a: { x: [1] }, b: { x: [1] } });
    expect(copy.a).not.toBe(shared);
    expect(() => operator({ name: 'm', for: 'T', memory: (() => 1) as never, reconcile: () => ({}) })).toThrow(/^KC110: extension m: memory is a function/);
  });
});
