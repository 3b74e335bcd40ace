/**
 * A database operator: each `Database` owns its data outside the cluster. The operator puts its
 * finalizer on every Database, and when one is deleted it drops the data (a call that cannot be
 * undone), then removes the finalizer so the object goes. Like many operators, it also resyncs
 * every Database every few seconds (`RequeueAfter`).
 *
 * The bug (`checkLive: false`), the "unobserved state" pattern: it decides from its informer
 * cache. A user deletes the Database and creates it again under the same name (a new incarnation,
 * a new uid, new data). A resync that runs before the cache has heard of the deletion still sees
 * the old object with its deletionTimestamp, and drops the data again: the new incarnation's.
 *
 * The fix (`checkLive: true`): before an irreversible step, read the object live
 * (`view.reader`, controller-runtime's `GetAPIReader`) and go on only for the same uid, still
 * being deleted; remove the finalizer with an update that carries the resourceVersion read, so a
 * stale copy gets 409 Conflict instead of touching the new incarnation.
 */
import { callCount, objectOf, operator, type ApiObject, type ReconcileResult } from 'kubecheck/operator';
import { alwaysStep } from 'kubecheck';
import type { ClusterExtension, ClusterState } from 'kubecheck/model';

const FINALIZER = 'databases.example.com/data';
const NAME = 'orders';
const drop = (name: string): string => `drop-data ${name}`;

export interface DatabaseOperatorOptions {
  /** Read the Database live before dropping its data, and remove the finalizer with the resourceVersion read. */
  readonly checkLive: boolean;
}

/** The number of times the data of `name` was dropped so far. */
const drops = (s: ClusterState): number => callCount(s, drop(NAME));

export function databaseOperator(options: DatabaseOperatorOptions): ClusterExtension {
  return operator({
    name: 'database-operator',
    for: 'Database',
    objects: [{ kind: 'Database', metadata: { name: NAME }, spec: { size: '10Gi' } }],
    reconcile(request, view): ReconcileResult {
      const db = view.get('Database', request);
      if (db === undefined) return {};
      const finalizers = db.metadata.finalizers ?? [];
      const resync = { requeueAfter: 5 };
      if (db.metadata.deletionTimestamp === undefined) {
        if (finalizers.includes(FINALIZER)) return resync;
        return { writes: [{ op: 'patch', kind: 'Database', name: request, patch: { finalizers: [...finalizers, FINALIZER] } }], ...resync };
      }
      if (!finalizers.includes(FINALIZER)) return {};
      if (!options.checkLive) {
        return { writes: [{ op: 'external', call: drop(request) }, { op: 'patch', kind: 'Database', name: request, patch: { finalizers: finalizers.filter((f) => f !== FINALIZER) } }], ...resync };
      }
      const live: ApiObject | undefined = view.reader.get('Database', request);
      if (live === undefined || live.metadata.uid !== db.metadata.uid || live.metadata.deletionTimestamp === undefined) return {};
      return { writes: [{ op: 'external', call: drop(request) }, { op: 'update', object: { ...live, metadata: { ...live.metadata, finalizers: (live.metadata.finalizers ?? []).filter((f) => f !== FINALIZER) } } }], ...resync };
    },
    clients: [
      {
        name: 'delete',
        description: `kubectl delete database ${NAME}`,
        writes: (s) => (objectOf(s, 'Database', NAME)?.metadata.deletionTimestamp === undefined && objectOf(s, 'Database', NAME) !== undefined ? [{ op: 'delete', kind: 'Database', name: NAME }] : undefined),
      },
      {
        name: 'recreate',
        description: `kubectl apply -f ${NAME}.yaml (the Database again, same name)`,
        writes: (s) => (objectOf(s, 'Database', NAME) === undefined && drops(s) > 0 ? [{ op: 'create', object: { kind: 'Database', metadata: { name: NAME }, spec: { size: '10Gi' } } }] : undefined),
      },
    ],
    properties: [
      alwaysStep<ClusterState>('database-data-kept', 'the data of a Database is never dropped while a Database of that name is live (not being deleted)', (before, _a, after) => {
        if (drops(after) === drops(before)) return true;
        const live = objectOf(before, 'Database', NAME);
        return live === undefined || live.metadata.deletionTimestamp !== undefined;
      }, {
        explain: (before) => {
          const live = objectOf(before, 'Database', NAME);
          return live === undefined ? undefined : `drops the data of ${NAME} while Database ${NAME} (${live.metadata.uid}) is live, not being deleted: a new incarnation's data`;
        },
      }),
    ],
  });
}

export default databaseOperator({ checkLive: false });
