/**
 * A backup operator: for each `Backup` it takes one backup of the database (a call outside the
 * cluster that is not idempotent: every call is a new backup, billed and kept) and marks the
 * Backup `Done`.
 *
 * The bug (`claim: false`), as in many real operators: it decides from its informer cache, which
 * may not yet show its own last status write. Any other event of the Backup (here a user's
 * `kubectl label`) queues it again; the reconcile then reads the stale copy without `Done` and
 * takes the backup a second time.
 *
 * The fix (`claim: true`): claim the Backup first with an update of its status carrying the
 * resourceVersion it read (optimistic concurrency), and call out only once the claim succeeded.
 * A reconcile on a stale copy gets 409 Conflict and is queued again; by then the cache shows the
 * claim. The price: a restart between the claim and the call leaves the Backup `Running` for
 * good (`check --liveness --set faults.extensionRestart=1` shows it).
 */
import { eventually } from 'kubecheck';
import { objectsOf, operator, type ReconcileResult } from 'kubecheck/operator';
import type { ClusterExtension } from 'kubecheck/model';

type Phase = 'Running' | 'Done' | undefined;

export interface BackupOperatorOptions {
  /** Claim the Backup with a resourceVersion-conditioned status update before calling out. */
  readonly claim: boolean;
  /** Replicas of its Deployment (default 1); with 2, the manager's leader election decides who runs. */
  readonly replicas?: number;
  /** Whether a user may label the Backup once (default true). */
  readonly label?: boolean;
  /** The manager's leader-election timings (seconds). */
  readonly leaderElection?: { readonly leaseDurationSeconds: number; readonly renewDeadlineSeconds: number; readonly retryPeriodSeconds: number };
}

export function backupOperator(options: BackupOperatorOptions): ClusterExtension {
  return operator({
    name: 'backup-operator',
    ...(options.replicas === undefined ? {} : { replicas: options.replicas }),
    ...(options.leaderElection === undefined ? {} : { leaderElection: options.leaderElection }),
    for: 'Backup',
    objects: [{ kind: 'Backup', metadata: { name: 'nightly' }, spec: { database: 'orders' } }],
    reconcile(request, view): ReconcileResult {
      const backup = view.get('Backup', request);
      if (backup === undefined || backup.metadata.deletionTimestamp !== undefined) return {};
      const phase = (backup.status as { phase?: Phase } | undefined)?.phase;
      if (phase === 'Done' || (options.claim && phase === 'Running')) return {};
      const take = { op: 'external', call: `take-backup ${request}` } as const;
      const done = { op: 'patchStatus', kind: 'Backup', name: request, status: { phase: 'Done' } } as const;
      if (!options.claim) return { writes: [take, done] };
      return { writes: [{ op: 'updateStatus', object: { ...backup, status: { phase: 'Running' } } }, take, done] };
    },
    clients: options.label === false ? [] : [
      {
        name: 'label',
        description: 'kubectl label backup nightly team=db',
        writes: () => [{ op: 'patch', kind: 'Backup', name: 'nightly', patch: { labels: { team: 'db' } } }],
      },
    ],
    nonIdempotent: (call) => call.startsWith('take-backup '),
    liveness: [
      eventually('backup-done', 'every Backup is eventually Done', (s) =>
        objectsOf(s, 'Backup').every((b) => (b.status as { phase?: Phase } | undefined)?.phase === 'Done')),
    ],
  });
}

export default backupOperator({ claim: false });
