/** Stale state alone: the fixed operator but for a cleanup decided on the informer cache. */
import { ensembleOperator } from './ensembleOperator.js';

export default ensembleOperator({ cleanup: 'every-reconcile', waitForRemovedPods: true, checkLive: false });
