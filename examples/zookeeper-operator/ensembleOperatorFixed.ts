/** The ZooKeeper operator with its three fixes (see ensembleOperator.ts). */
import { ensembleOperator } from './ensembleOperator.js';

export default ensembleOperator({ cleanup: 'every-reconcile', waitForRemovedPods: true, checkLive: true });
