/** Two replicas with the claim: the woken replica's conditioned claim fails with 409 Conflict before it calls out. */
import { backupOperator } from './backupOperator.js';

/** Short timings keep the example's space small; the bug does not depend on them, only on a pause longer than the lease. */
export const timings = { leaseDurationSeconds: 4, renewDeadlineSeconds: 3, retryPeriodSeconds: 1 };

export default backupOperator({ claim: true, replicas: 2, label: false, leaderElection: timings });
