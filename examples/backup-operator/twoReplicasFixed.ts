/** Two replicas with the claim: the woken replica's conditioned claim fails with 409 Conflict before it calls out. */
import { backupOperator } from './backupOperator.js';
import { timings } from './twoReplicas.js';

/** The same Lease timings as the unclaimed version, so the two differ by the claim alone. */
export default backupOperator({ claim: true, replicas: 2, label: false, leaderElection: timings });
