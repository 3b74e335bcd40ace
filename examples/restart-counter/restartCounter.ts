/**
 * A restarter: a `RestartRequest` asks for the worker `db-0` to be restarted `spec.restarts`
 * times. Each restart deletes it, and its own controller (`worker-set` below, standing in for the
 * StatefulSet controller) creates it again under the same name with a new uid. Once db-0 has come
 * back that many times, the request is `Completed`.
 *
 * The bug (`levelTriggered: false`), the "unobserved state" pattern: it counts the deletions it
 * sees, as a restarter counting DELETE events does. After each delete it waits until its cache
 * shows db-0 gone, then counts one restart. But events coalesce: the workqueue holds a request
 * once however many events queued it, and an informer hands over only the latest object (after a
 * relist, a delete and a create of one name arrive as one update). When its cache hears of the
 * new db-0 before the reconcile runs, the "gone" state is never seen and the request stays
 * `Restarting` for good (`check --liveness` shows the lasso). controller-runtime's FAQ: do not
 * write logic per event; read all the state you need (the Job controller lost count of pods
 * removed before it saw them until it tracked them with finalizers, KEP-2307).
 *
 * The fix (`levelTriggered: true`): compare states, not events. It records the uid of the worker
 * it deletes with the count (`updateStatus` with the resourceVersion read, so a stale copy gets
 * 409 Conflict), then deletes that uid (a precondition: never its successor); a restart is done
 * once the cache shows db-0 with another uid, however many changes came as one, and while that
 * uid is still there it deletes it again (a restart of the operator between the two writes).
 */
import { always, eventually } from 'kubecheck';
import { idle, objectsOf, operator, type ApiObject, type ReconcileResult } from 'kubecheck/operator';
import type { ClusterExtension, ClusterState } from 'kubecheck/model';

type Status = { readonly phase?: 'Restarting' | 'Completed'; readonly restarts?: number; readonly deletedUid?: string };
const statusOf = (o: ApiObject): Status => (o.status ?? {}) as Status;
const WORKER = { kind: 'Worker', spec: { image: 'postgres:16' } };

export function restartCounter(options: { readonly levelTriggered: boolean }): ClusterExtension {
  return operator({
    name: 'restart-counter',
    for: 'RestartRequest',
    watches: [{ kind: 'Worker', map: () => ['db-restart'] }],
    objects: [{ kind: 'RestartRequest', metadata: { name: 'db-restart' }, spec: { worker: 'db-0', restarts: 2 } }],
    reconcile(request, view): ReconcileResult {
      const rr = view.get('RestartRequest', request);
      if (rr === undefined || statusOf(rr).phase === 'Completed') return {};
      const { restarts = 0, deletedUid } = statusOf(rr);
      const status = (s: Status) => ({ op: 'updateStatus', object: { ...rr, status: s } }) as const;
      const worker = view.get('Worker', (rr.spec as { worker: string }).worker);
      if (!options.levelTriggered && statusOf(rr).phase === 'Restarting') {
        // Waits for the DELETE of the worker it deleted, and counts it.
        return worker === undefined ? { writes: [status({ restarts: restarts + 1 })] } : {};
      }
      if (worker === undefined) return {}; // not back yet
      const uid = worker.metadata.uid;
      const del = { op: 'delete', kind: 'Worker', name: worker.metadata.name, preconditions: { uid } } as const;
      // The restart recorded is not done while that uid exists: delete it (again, after a restart of ours).
      if (uid === deletedUid) return { writes: [del], ignore: ['NotFound', 'Conflict'] };
      if (restarts >= (rr.spec as { restarts: number }).restarts) return { writes: [status({ phase: 'Completed', restarts })] };
      return { writes: [status(options.levelTriggered ? { restarts: restarts + 1, deletedUid: uid } : { phase: 'Restarting', restarts }), del] };
    },
    // How a RestartRequest reads in timelines and final states (its Workers keep the default).
    describeObject: (o) => {
      if (o.kind !== 'RestartRequest') return undefined;
      const { phase, restarts = 0, deletedUid } = statusOf(o);
      return `${restarts} of ${(o.spec as { restarts: number }).restarts} restarts${phase === undefined ? '' : `, ${phase}`}${deletedUid === undefined ? '' : `, deleted ${deletedUid}`}`;
    },
    // The liveness promise, for `check --liveness`; and its stuck end as a safety property, which
    // a plain `check` finds: both controllers have nothing left to do and a request is not done.
    properties: [notStuck],
    liveness: [eventually('restart-completed', 'every RestartRequest is eventually Completed', completed)],
  });
}

const completed = (s: ClusterState): boolean => objectsOf(s, 'RestartRequest').every((r) => statusOf(r).phase === 'Completed');

/**
 * `restart-counter-not-stuck`: the restarter and the worker's controller never both rest while a
 * RestartRequest is not Completed. Idle, nothing would wake them (no user, no fault left), so the
 * request would never complete: the end of `restart-completed`'s lasso, found without `--liveness`.
 */
const notStuck = always<ClusterState>(
  'restart-counter-not-stuck',
  'restart-counter never rests while a RestartRequest is not Completed',
  (s) => completed(s) || !idle(s, 'restart-counter') || !idle(s, 'worker-set'),
  {
    source: 'https://github.com/kubernetes-sigs/controller-runtime/blob/main/FAQ.md (level-based, not edge-based)',
    explain: (s) => {
      const waiting = objectsOf(s, 'RestartRequest').filter((r) => statusOf(r).phase !== 'Completed');
      return waiting.length === 0 ? undefined : waiting.map((r) => `${r.metadata.name} is ${statusOf(r).phase ?? 'not started'} after ${statusOf(r).restarts ?? 0} restarts, and restart-counter has nothing left to do`).join('; ');
    },
  },
);

/**
 * The worker's own controller, as the StatefulSet controller is its pods': WorkerSet `db` owns
 * db-0 and creates it again whenever it is gone.
 */
export const workerSet = operator({
  name: 'worker-set',
  for: 'WorkerSet',
  owns: ['Worker'],
  objects: [{ kind: 'WorkerSet', metadata: { name: 'db' }, spec: { template: WORKER.spec } }],
  reconcile(request, view) {
    const set = view.get('WorkerSet', request);
    if (set === undefined || view.get('Worker', `${request}-0`) !== undefined) return {};
    const owner = { kind: 'WorkerSet', name: request, uid: set.metadata.uid, controller: true };
    return { writes: [{ op: 'create', object: { ...WORKER, metadata: { name: `${request}-0`, ownerReferences: [owner] } } }], ignore: ['AlreadyExists'] };
  },
});

export default [workerSet, restartCounter({ levelTriggered: false })];
