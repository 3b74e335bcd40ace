/**
 * The remediation operator with its fix: it deletes with the uid it saw as a precondition, so a
 * stale cache can no longer make it delete a new incarnation of a pod (409 Conflict instead).
 * `kubecheck check --extension examples/remediation-operator/cachedRemediationFixed.ts`.
 */
import { cachedRemediationOperator } from './cachedRemediation.js';

export default cachedRemediationOperator({ deleteBy: 'uid' });
