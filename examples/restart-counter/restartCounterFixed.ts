/** The restarter with its fix: a restart is done when db-0 has another uid than the one it deleted, not when it saw db-0 gone. */
import { restartCounter, workerSet } from './restartCounter.js';

export default [workerSet, restartCounter({ levelTriggered: true })];
