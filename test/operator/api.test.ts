import { describe, expect, it } from 'vitest';
import { applyWrite, EMPTY_STORE, garbageCollectable, mergePatch, opaqueView, type CustomStore, type Write } from '../../model/operator/api.js';
import { run } from './helpers.js';

const db = (name: string, extra: object = {}): Write => ({ op: 'create', object: { kind: 'Database', metadata: { name, ...extra }, spec: { size: 1 } } });
const get = (s: CustomStore, kind: string, name: string) => s.objects[kind]?.find((o) => o.metadata.name === name);

describe('the API rules for declared kinds', () => {
  it('refuses a second create of a name, and gives a new incarnation a new uid', () => {
    const { store, outcomes } = run([db('a'), db('a'), { op: 'delete', kind: 'Database', name: 'a' }, db('a')]);
    expect(outcomes).toEqual(['ok', 'AlreadyExists', 'ok', 'ok']);
    expect(get(store, 'Database', 'a')?.metadata.uid).toBe('uid-2');
  });

  it('answers a stale resourceVersion with Conflict, a missing one with Invalid, and counts spec changes only', () => {
    const { store } = run([db('a')]);
    const a = get(store, 'Database', 'a')!;
    const bigger = { ...a, spec: { size: 2 }, status: { ready: true } };
    const [s1, ok] = applyWrite(store, { op: 'update', object: bigger });
    expect(ok).toBe('ok');
    const a1 = get(s1, 'Database', 'a')!;
    expect(a1.metadata.generation).toBe(2);
    expect(a1.status).toBeUndefined(); // status is a subresource: update leaves it
    expect(a1.metadata.resourceVersion).not.toBe(a.metadata.resourceVersion);
    expect(applyWrite(s1, { op: 'update', object: bigger })[1]).toBe('Conflict');
    expect(applyWrite(s1, { op: 'update', object: { ...a1, metadata: { ...a1.metadata, resourceVersion: '' } } })[1]).toBe('Invalid');
    const [s2, st] = applyWrite(s1, { op: 'updateStatus', object: { ...a1, status: { ready: true } } });
    expect(st).toBe('ok');
    expect(get(s2, 'Database', 'a')!.metadata.generation).toBe(2);
    expect(get(s2, 'Database', 'a')!.status).toEqual({ ready: true });
    expect(applyWrite(s2, { op: 'patchStatus', kind: 'Database', name: 'a', status: { ready: false }, resourceVersion: a1.metadata.resourceVersion })[1]).toBe('Conflict');
  });

  it('holds a deletion while finalizers remain, refuses new ones, and removes the object with the last', () => {
    const { store } = run([db('a', { finalizers: ['example.com/cleanup'] }), { op: 'delete', kind: 'Database', name: 'a' }]);
    const a = get(store, 'Database', 'a')!;
    expect(a.metadata.deletionTimestamp).toBeDefined();
    expect(applyWrite(store, { op: 'create', object: { kind: 'Database', metadata: { name: 'a' } } })[1]).toBe('AlreadyExists');
    expect(applyWrite(store, { op: 'patch', kind: 'Database', name: 'a', patch: { finalizers: ['example.com/cleanup', 'other'] } })[1]).toBe('Invalid');
    const [gone, ok] = applyWrite(store, { op: 'patch', kind: 'Database', name: 'a', patch: { finalizers: [] } });
    expect(ok).toBe('ok');
    expect(get(gone, 'Database', 'a')).toBeUndefined();
  });

  it('checks delete preconditions', () => {
    const { store } = run([db('a')]);
    expect(applyWrite(store, { op: 'delete', kind: 'Database', name: 'a', preconditions: { uid: 'uid-9' } })[1]).toBe('Conflict');
    expect(applyWrite(store, { op: 'delete', kind: 'Database', name: 'a', preconditions: { uid: 'uid-1' } })[1]).toBe('ok');
    expect(applyWrite(store, { op: 'delete', kind: 'Database', name: 'b' })[1]).toBe('NotFound');
  });

  it('lets the garbage collector take dependents whose owner uid is gone, also after the owner name comes back', () => {
    const owned = (uid: string): Write => ({ op: 'create', object: { kind: 'Job', metadata: { name: 'a-backup', ownerReferences: [{ kind: 'Database', name: 'a', uid, controller: true }] } } });
    const { store } = run([db('a'), owned('uid-1')]);
    expect(garbageCollectable(store)).toEqual([]);
    const { store: recreated } = run([{ op: 'delete', kind: 'Database', name: 'a' }, db('a')], store);
    expect(garbageCollectable(recreated).map((o) => o.name)).toEqual(['a-backup']);
  });

  it('delivers every change to each watcher of the kind, in order', () => {
    const watched: CustomStore = { ...EMPTY_STORE, watches: { op: { Database: [] } } };
    const { store } = run([db('a'), { op: 'patch', kind: 'Database', name: 'a', patch: { labels: { x: 'y' } } }, { op: 'delete', kind: 'Database', name: 'a' }, db('b'), { op: 'create', object: { kind: 'Job', metadata: { name: 'j' } } }], watched);
    expect(store.watches.op.Database.map((e) => `${e.type} ${e.object.metadata.name} ${e.object.metadata.resourceVersion}`)).toEqual(['ADDED a rv-1', 'MODIFIED a rv-2', 'DELETED a rv-3', 'ADDED b rv-4']);
  });

  it('a no-op write changes nothing, and a merge patch removes keys set to null', () => {
    const { store } = run([db('a')]);
    expect(applyWrite(store, { op: 'patch', kind: 'Database', name: 'a', patch: { spec: { size: 1 } } })[0]).toBe(store);
    expect(mergePatch({ a: 1, b: { c: 2, d: 3 } }, { b: { c: null, e: 4 }, f: [1] })).toEqual({ a: 1, b: { d: 3, e: 4 }, f: [1] });
  });

  it('the fingerprint sees uids and resourceVersions by rank only', () => {
    const early = run([db('a')]).store;
    const late = run([db('x'), db('a'), { op: 'delete', kind: 'Database', name: 'x' }]).store;
    expect(late.objects.Database[0].metadata.uid).toBe('uid-2');
    expect(JSON.stringify(opaqueView(late, { m: ['uid-2'] }))).toBe(JSON.stringify(opaqueView(early, { m: ['uid-1'] })));
    expect(JSON.stringify(opaqueView(late, { m: ['uid-1'] }))).not.toBe(JSON.stringify(opaqueView(early, { m: ['uid-1'] })));
  });
});

describe('an operator definition that cannot run', () => {
  it('is refused in one coded line naming the field', async () => {
    const { operator } = await import('../../model/operator/operator.js');
    const base = { name: 'op', for: 'Thing', reconcile: () => ({}) };
    const refused = (d: object): string => {
      try {
        operator(d as never);
      } catch (e) {
        return (e as Error).message;
      }
      return 'accepted';
    };
    expect(refused(base)).toBe('accepted');
    expect(refused({ ...base, name: 'My_Op' })).toMatch(/^KC\d+: operator My_Op: name must be a DNS label/);
    expect(refused({ ...base, for: '' })).toMatch(/for must name the primary kind/);
    expect(refused({ ...base, reconcile: 1 })).toMatch(/reconcile must be a function/);
    expect(refused({ ...base, describeObject: 'Thing' })).toMatch(/describeObject must be a function/);
    expect(refused({ ...base, replicas: 0 })).toMatch(/replicas must be 1, 2 or 3/);
    expect(refused({ ...base, replicas: 2, leaderElection: { leaseDurationSeconds: 10, renewDeadlineSeconds: 10 } })).toMatch(/greater than renewDeadlineSeconds/);
    expect(refused({ ...base, replicas: 2, leaderElection: { retryPeriodSeconds: 9 } })).toMatch(/1.2 × retryPeriodSeconds/);
    expect(refused({ ...base, objects: [{ kind: 'Thing', metadata: { name: 'a' } }, { kind: 'Thing', metadata: { name: 'a' } }] })).toMatch(/Thing\/a is given twice/);
  });
});
