export { twoPhasePlain } from './plain.js';
export { twoPhaseImmer } from './immer.js';
export { consistentVector, decodeTwoPhase, twoPhaseLayout, twoPhaseVector, type TwoPhaseLayout } from './vector.js';
export * from './common.js';
