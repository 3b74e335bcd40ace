/** Unobserved state alone: the fixed operator but for a scale-up written before the removed pod is gone. */
import { ensembleOperator } from './ensembleOperator.js';

export default ensembleOperator({ cleanup: 'every-reconcile', waitForRemovedPods: false, checkLive: true });
