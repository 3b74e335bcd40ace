export { twoPhasePlain } from './plain.js';
export { twoPhaseImmer } from './immer.js';
export * from './common.js';
