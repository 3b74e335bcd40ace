/**
 * The backup operator without the claim, run as two replicas with the manager's leader election
 * and no user action: only the leader reconciles, so the stale-read path of one replica is gone.
 * Its Lease timings (4 s / 2 s / 1 s) keep one leader under a partition: a leader cut off stops
 * leading retryPeriod + renewDeadline = 3 s after its last renewal, before the other replica may
 * take a Lease unchanged for 4 s (`twoReplicasTightLease.ts`, at 3 s, gives two leaders). But
 * leader election is not fencing: a leader paused (stop-the-world, `faults.operatorPause`) between
 * planning and calling out loses its Lease to the other replica, which takes the backup; the
 * paused one wakes and makes the call it had planned. On one node with a 5 s pause:
 *
 *     kubecheck check --config examples/backup-operator/one-node.yaml --set faults.operatorPause=1 \
 *       --set faults.processPauseDuration=5s --extension examples/backup-operator/twoReplicas.ts \
 *       --property backup-operator-external-call-once
 */
import { backupOperator } from './backupOperator.js';

/** Short timings keep the example's space small; client-go's rule for them: leaseDuration > retryPeriod + renewDeadline. */
export const timings = { leaseDurationSeconds: 4, renewDeadlineSeconds: 2, retryPeriodSeconds: 1 };

export default backupOperator({ claim: false, replicas: 2, label: false, leaderElection: timings });
