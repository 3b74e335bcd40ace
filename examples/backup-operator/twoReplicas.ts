/**
 * The backup operator without the claim, run as two replicas with the manager's leader election
 * (controller-runtime's 15 s / 10 s / 2 s) and no user action: only the leader reconciles, so the
 * stale-read path of one replica is gone. But leader election is not fencing: a leader paused
 * (stop-the-world, `faults.processPause`) between planning and calling out loses its Lease to the
 * other replica, which takes the backup; the paused one wakes and makes the call it had planned.
 * On one node, with one candidate per built-in election and a 4 s pause, it is found in 13 steps:
 *
 *     kubecheck check --set faults.nodeCrash=0 --set faults.operatorPause=1 --set faults.processPauseDuration=4s \
 *       --set cluster.nodes=1 --set cluster.controllerManagerCandidates=1 --set cluster.schedulerCandidates=1 \
 *       --extension examples/backup-operator/twoReplicas.ts --property backup-operator-external-call-once
 */
import { backupOperator } from './backupOperator.js';

/** Short timings keep the example's space small; the bug does not depend on them, only on a pause longer than the lease. */
export const timings = { leaseDurationSeconds: 3, renewDeadlineSeconds: 2, retryPeriodSeconds: 1 };

export default backupOperator({ claim: false, replicas: 2, label: false, leaderElection: timings });
