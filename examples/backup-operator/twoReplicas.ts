/**
 * The backup operator without the claim, run as two replicas with the manager's leader election
 * (controller-runtime's 15 s / 10 s / 2 s) and no user action: only the leader reconciles, so the
 * stale-read path of one replica is gone. But leader election is not fencing: a leader paused
 * (stop-the-world, `faults.processPause`) between planning and calling out loses its Lease to the
 * other replica, which takes the backup; the paused one wakes and makes the call it had planned.
 * `kubecheck check --set faults.processPause=1 --extension examples/backup-operator/twoReplicas.ts`
 */
import { backupOperator } from './backupOperator.js';

/** Short timings keep the example's space small; the bug does not depend on them, only on a pause longer than the lease. */
export const timings = { leaseDurationSeconds: 3, renewDeadlineSeconds: 2, retryPeriodSeconds: 1 };

export default backupOperator({ claim: false, replicas: 2, label: false, leaderElection: timings });
