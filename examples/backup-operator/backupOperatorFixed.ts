/** The backup operator with its fix: claim with the resourceVersion read, then call out. */
import { backupOperator } from './backupOperator.js';

export default backupOperator({ claim: true });
