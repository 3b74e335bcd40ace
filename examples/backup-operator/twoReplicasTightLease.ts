/** The fixed two replicas with a Lease only as long as retryPeriod + renewDeadline: a partition alone gives two leaders. */
import { backupOperator } from './backupOperator.js';

export default backupOperator({ claim: true, replicas: 2, label: false, leaderElection: { leaseDurationSeconds: 3, renewDeadlineSeconds: 2, retryPeriodSeconds: 1 } });
