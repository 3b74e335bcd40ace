/**
 * controller-runtime's workqueue as operators meet it: several workers (MaxConcurrentReconciles)
 * that never reconcile one request twice at once, and the rate limiter's per-request backoff
 * that doubles with each failure and is forgotten on success.
 */
import { describe, expect, it } from 'vitest';
import { alwaysStep, sometimes, type Model, type Property } from '../../checker/index.js';
import { kubernetesScenario } from '../../api/testing.js';
import { backoffOf, objectOf, operator, type OperatorMemory, type Write } from '../../model/operator/index.js';
import type { ClusterExtension } from '../../model/clusterModel.js';
import type { ClusterState } from '../../model/state.js';
import { timelineSteps } from '../../reports/timeline.js';
import { checkWith, statusOf } from './helpers.js';

const scenario = (extension: ClusterExtension) =>
  kubernetesScenario('node-failure', { set: { 'faults.nodeCrash': '0', 'cluster.nodes': '1', 'cluster.replicaSetReplicas': '0', 'cluster.statefulSetReplicas': '0' }, extensions: [extension] });
const memoryOf = (s: ClusterState, name: string): OperatorMemory => (s.extensions![name] as unknown as OperatorMemory[])[0];
/** Seconds of model time along a trace. */
const elapsed = (model: Model<ClusterState>, states: readonly ClusterState[], actions: readonly { name: string; param?: unknown }[]): number =>
  actions.reduce((t, a, k) => t + (model.elapsed?.(states[k], a as never, states[k + 1]) ?? 0), 0);

/** The operator `name` failed 9 times: the ninth failure is retried after 1 s. */
const failures9 = (name: string): Property<ClusterState> => sometimes<ClusterState>(`${name}-failed-9`, `t failed 9 times`, (s) => (memoryOf(s, name).failures.t ?? 0) >= 9);

describe('the rate limiter\'s backoff', () => {
  it('follows controller-runtime\'s default: 5 ms doubling to 1000 s, at the model\'s one-second grain', () => {
    const { delay, cap } = backoffOf({ baseDelaySeconds: 0.005, maxDelaySeconds: 1000 });
    // 0.005 × 2^n: 0.005 … 0.64 s (instant), 1.28, 2.56, 5.12, 10.24, 20.48, 40.96, 81.92, 163.84, 327.68, 655.36, then the cap.
    expect(Array.from({ length: 20 }, (_, n) => delay(n))).toEqual([0, 0, 0, 0, 0, 0, 0, 0, 1, 2, 5, 10, 20, 40, 81, 163, 327, 655, 1000, 1000]);
    expect(cap).toBe(18);
    expect(backoffOf({ baseDelaySeconds: 1, maxDelaySeconds: 4 })).toMatchObject({ cap: 2 });
  });

  /** An operator whose create always fails (the name exists and it does not ignore AlreadyExists); `{}` is controller-runtime's limiter. */
  const stubborn = (rateLimiter: { maxDelaySeconds?: number } | null = {}) =>
    operator({
      name: 'stubborn',
      for: 'Thing',
      objects: [{ kind: 'Thing', metadata: { name: 't' } }],
      reconcile: (r) => ({ writes: [{ op: 'create', object: { kind: 'Thing', metadata: { name: r } } }] }),
      ...(rateLimiter === null ? {} : { rateLimiter }),
    });
  it('without a rate limiter, counts no failure: a retry is queued at once and may run at any later instant', async () => {
    const counted = sometimes<ClusterState>('counted', 'a failure counted', (s) => Object.keys(memoryOf(s, 'stubborn').failures).length > 0);
    // Violated by the first refused create: it queues t again at once.
    const retried = alwaysStep<ClusterState>('retried', 'a refused create does not queue t again', (b, a, x) => !(a.name === 'stubborn-write' && !memoryOf(b, 'stubborn').queue.includes('t') && memoryOf(x, 'stubborn').queue.includes('t')));
    const plain = checkWith((await scenario(stubborn(null))).model, [counted, retried]);
    expect(statusOf(plain)).toEqual({ counted: 'unwitnessed', retried: 'violated' });
    const limited = checkWith((await scenario(stubborn({ maxDelaySeconds: 4 }))).model, [counted]);
    expect(statusOf(limited).counted).toBe('witnessed');
  });

  const failures = (n: number): Property<ClusterState> =>
    sometimes<ClusterState>(`failed-${n}`, `t failed ${n} times`, (s) => (memoryOf(s, 'stubborn').failures.t ?? 0) >= n);

  it('retries a failing reconcile at once eight times, then waits 1 s, then 2 s, and says so in the timeline', async () => {
    const { model } = await scenario(stubborn());
    const r = checkWith(model, [failures(9), failures(10), failures(11)]);
    expect(statusOf(r)).toEqual({ 'failed-9': 'witnessed', 'failed-10': 'witnessed', 'failed-11': 'witnessed' });
    // The ninth failure comes at once; it is queued again after 1 s, the tenth after 2 s more.
    const [nine, ten, eleven] = r.properties.map((p) => p.trace!);
    expect([nine, ten, eleven].map((t) => elapsed(model, t.states, t.actions))).toEqual([0, 1, 3]);
    const steps = timelineSteps(model, eleven).map((s) => s.summary);
    expect(steps).toContain("create Thing/t: 409 AlreadyExists, so the reconcile of t fails and t is queued again in 1s (the rate limiter's backoff after 9 failures)");
    expect(steps).toContain("queues t again (the rate limiter's backoff is over)");
  });

  it('stops counting where the delay reaches its cap, so a reconcile that always fails has a finite space', async () => {
    const { model } = await scenario(stubborn({ maxDelaySeconds: 4 }));
    const capped = sometimes<ClusterState>('past-cap', 'more than 10 failures counted', (s) => (memoryOf(s, 'stubborn').failures.t ?? 0) > 10);
    const r = checkWith(model, [failures(10), capped]);
    expect(statusOf(r)).toEqual({ 'failed-10': 'witnessed', 'past-cap': 'unwitnessed' });
  });

  it('forgets the failures of a request once its reconcile succeeds', async () => {
    // Fails while the Thing has no status, then marks it: one failure, then a success.
    const once = operator({
      name: 'stubborn',
      for: 'Thing',
      rateLimiter: {},
      objects: [{ kind: 'Thing', metadata: { name: 't' } }],
      reconcile: (r, view) =>
        view.get('Thing', r)?.status === undefined
          ? { writes: [{ op: 'patchStatus', kind: 'Thing', name: r, status: { tried: true } }, { op: 'create', object: { kind: 'Thing', metadata: { name: r } } }] }
          : {},
    });
    const { model } = await scenario(once);
    const failedOnce = sometimes<ClusterState>('failed-once', 'one failure counted', (s) => memoryOf(s, 'stubborn').failures.t === 1);
    const forgotten = sometimes<ClusterState>('forgotten', 'the failure forgotten after the success', (s) => objectOf(s, 'Thing', 't')?.status !== undefined && memoryOf(s, 'stubborn').queue.length === 0 && memoryOf(s, 'stubborn').inflight.length === 0 && memoryOf(s, 'stubborn').failures.t === undefined);
    expect(statusOf(checkWith(model, [failedOnce, forgotten]))).toEqual({ 'failed-once': 'witnessed', forgotten: 'witnessed' });
  });
});

describe('a reconcile that returns an error', () => {
  /**
   * Go's `return ctrl.Result{}, err`: not Ready yet, so it marks the Thing waiting and returns an
   * error; controller-runtime's reconcileHandler queues it again through the rate limiter
   * (AddRateLimited), and the error wins over requeueAfter.
   */
  const waiting = (writes: boolean) =>
    operator({
      name: 'waiting',
      for: 'Thing',
      rateLimiter: {},
      objects: [{ kind: 'Thing', metadata: { name: 't' } }],
      reconcile: () => ({ ...(writes ? { writes: [{ op: 'patchStatus', kind: 'Thing', name: 't', status: { waiting: true } }] } : {}), error: 'db-0 not Ready yet', requeueAfter: 30 }),
    });
  it('is queued again through the rate limiter, its writes made first, and the timeline says why', async () => {
    for (const writes of [false, true]) {
      const { model } = await scenario(waiting(writes));
      const r = checkWith(model, [failures9('waiting')]);
      expect(statusOf(r)).toEqual({ 'waiting-failed-9': 'witnessed' });
      const steps = timelineSteps(model, r.properties[0].trace!).map((s) => s.summary);
      // requeueAfter is ignored: no timer of 30 s, the backoff's retries instead.
      expect(r.properties[0].trace!.states.every((s) => memoryOf(s, 'waiting').later.every((l) => l.in < 30))).toBe(true);
      if (writes) {
        expect(objectOf(r.properties[0].trace!.states.at(-1)!, 'Thing', 't')?.status).toEqual({ waiting: true });
        expect(steps).toContain('patchStatus Thing/t: ok; the reconcile of t returns its error "db-0 not Ready yet", so t is queued again in 1s (the rate limiter\'s backoff after 9 failures)');
      } else expect(steps).toContain('reconciles t (its cache has Thing t at rv-1): returns error "db-0 not Ready yet", so the reconcile fails and t is queued again in 1s (the rate limiter\'s backoff after 9 failures)');
    }
  });
  it('is refused in one line when the error is not a string', async () => {
    const bad = operator({ name: 'bad', for: 'Thing', objects: [{ kind: 'Thing', metadata: { name: 't' } }], reconcile: () => ({ error: { code: 1 } as unknown as string }) });
    const { model } = await scenario(bad);
    expect(() => checkWith(model, [])).toThrow(/extension bad: reconcile of t returned error \{"?code"?: ?1\}, not a string/);
  });
});

describe('the workqueue', () => {
  it('puts a request queued again while it was being reconciled behind those queued meanwhile (the dirty set, re-added at Done)', async () => {
    // Reconciling a writes its status (an event of a while a is in flight), then calls out; a user creates b meanwhile.
    const queueing = operator({
      name: 'queueing',
      for: 'Thing',
      objects: [{ kind: 'Thing', metadata: { name: 'a' } }],
      clients: [{ name: 'create-b', writes: () => [{ op: 'create', object: { kind: 'Thing', metadata: { name: 'b' } } }] }],
      reconcile: (r, view) => (r === 'a' && view.get('Thing', 'a')?.status === undefined ? { writes: [{ op: 'patchStatus', kind: 'Thing', name: 'a', status: { seen: true } }, { op: 'external', call: 'work a' }] } : {}),
    });
    const { model } = await scenario(queueing);
    const ahead = sometimes<ClusterState>('re-added-ahead', 'a queued again ahead of b while a is reconciled', (s) => {
      const m = memoryOf(s, 'queueing');
      return m.inflight.length === 1 && m.queue.join() === 'a,b';
    });
    const tail = alwaysStep<ClusterState>('tail-at-done', 'at Done a request queued again meanwhile goes to the back', (b, a, x) => {
      const f = memoryOf(b, 'queueing').inflight[0];
      const after = memoryOf(x, 'queueing');
      return a.name !== 'queueing-write' || f === undefined || after.inflight.length > 0 || !memoryOf(b, 'queueing').queue.includes(f.request) || after.queue.at(-1) === f.request;
    });
    expect(statusOf(checkWith(model, [ahead, tail]))).toEqual({ 're-added-ahead': 'witnessed', 'tail-at-done': 'holds' });
  });
});

describe('several workers', () => {
  /**
   * Each Member adds itself to the shared Registry's list: a live read, then a merge patch of the
   * whole list with no resourceVersion. One worker runs the two reconciles one after the other;
   * two run them at once and the second patch drops the first member (a lost update). Sending
   * the resourceVersion read (an update) makes the second a 409 Conflict, retried on a fresh read.
   */
  const registrar = (options: { readonly workers: 1 | 2; readonly conditional: boolean }) =>
    operator({
      name: 'registrar',
      for: 'Member',
      maxConcurrentReconciles: options.workers,
      objects: [
        { kind: 'Member', metadata: { name: 'a' } },
        { kind: 'Member', metadata: { name: 'b' } },
        { kind: 'Registry', metadata: { name: 'members' }, spec: { names: [] } },
      ],
      reconcile(member, view) {
        const registry = view.reader.get('Registry', 'members')!;
        const names = (registry.spec as { names: string[] }).names;
        if (names.includes(member)) return {};
        const spec = { names: [...names, member].sort() };
        const write: Write = options.conditional ? { op: 'update', object: { ...registry, spec } } : { op: 'patch', kind: 'Registry', name: 'members', patch: { spec } };
        return { writes: [write] };
      },
    });
  const names = (s: ClusterState): string[] => (objectOf(s, 'Registry', 'members')!.spec as { names: string[] }).names;
  const kept = alwaysStep<ClusterState>('member-kept', 'a registered member stays registered', (b, _a, a) => names(b).every((n) => names(a).includes(n)));
  const together = sometimes<ClusterState>('both-at-once', 'two reconciles under way at once', (s) => memoryOf(s, 'registrar').inflight.length === 2);
  const distinct = alwaysStep<ClusterState>('one-per-request', 'never two reconciles of one request at once', (_b, _a, s) => new Set(memoryOf(s, 'registrar').inflight.map((f) => f.request)).size === memoryOf(s, 'registrar').inflight.length);

  it('with one worker, reconciles run one at a time and no member is lost', async () => {
    const { model } = await scenario(registrar({ workers: 1, conditional: false }));
    expect(statusOf(checkWith(model, [kept, together]))).toEqual({ 'member-kept': 'holds', 'both-at-once': 'unwitnessed' });
  });

  it('with two workers, both reconciles run at once and an unconditional patch loses a member; the trace shows both reads', async () => {
    const { model } = await scenario(registrar({ workers: 2, conditional: false }));
    const r = checkWith(model, [kept, together, distinct]);
    expect(statusOf(r)).toEqual({ 'member-kept': 'violated', 'both-at-once': 'witnessed', 'one-per-request': 'holds' });
    const steps = timelineSteps(model, r.properties[0].trace!).map((s) => s.summary);
    expect(steps.filter((s) => /^reconciles [ab] .*plans patch Registry\/members/.test(s))).toHaveLength(2);
  });

  it('with two workers and the resourceVersion sent, the second write is a Conflict and is retried: no member is lost', async () => {
    const { model } = await scenario(registrar({ workers: 2, conditional: true }));
    // A write pending with a resourceVersion the Registry no longer has: it will be a 409 Conflict.
    const conflict = sometimes<ClusterState>('retried', 'an update pending on a stale read', (s) =>
      memoryOf(s, 'registrar').inflight.some((f) => {
        const w = f.writes[f.next];
        return w.op === 'update' && w.object.metadata.resourceVersion !== objectOf(s, 'Registry', 'members')!.metadata.resourceVersion;
      }),
    );
    const both = sometimes<ClusterState>('both-registered', 'both members registered', (s) => names(s).join() === 'a,b');
    const r = checkWith(model, [kept, conflict, both]);
    expect(statusOf(r)).toEqual({ 'member-kept': 'holds', retried: 'witnessed', 'both-registered': 'witnessed' });
  });

  it('refuses a worker count controller-runtime would not run here', () => {
    expect(() => operator({ name: 'x', for: 'T', reconcile: () => ({}), maxConcurrentReconciles: 0 })).toThrow(/maxConcurrentReconciles must be 1, 2 or 3/);
    expect(() => operator({ name: 'x', for: 'T', reconcile: () => ({}), rateLimiter: { maxDelaySeconds: -1 } })).toThrow(/rateLimiter.maxDelaySeconds must be a whole number/);
    expect(() => operator({ name: 'x', for: 'T', reconcile: () => ({}), rateLimiter: { baseDelaySeconds: 0 } })).toThrow(/rateLimiter.baseDelaySeconds must be a number of seconds above 0/);
  });
});
