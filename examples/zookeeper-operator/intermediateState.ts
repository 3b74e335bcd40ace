/**
 * Intermediate state alone: the fixed operator but for the cleanup, done in the reconcile that
 * scales down, after the scale. Only a restart between the two writes shows it, so the module
 * asks for one.
 */
import { ensembleOperator } from './ensembleOperator.js';

export const settings = { 'faults.extensionRestart': 1 };

export default ensembleOperator({ cleanup: 'with-scale-down', waitForRemovedPods: true, checkLive: true });
