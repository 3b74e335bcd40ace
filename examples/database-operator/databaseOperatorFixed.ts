/** The database operator with its fix: a live read and a resourceVersion-conditioned update before the irreversible step. */
import { databaseOperator } from './databaseOperator.js';

export default databaseOperator({ checkLive: true });
