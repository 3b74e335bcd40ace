/**
 * TwoPhase as a module for `kubecheck check --model`: a factory of the model from its parameters,
 * as a user's own model is written. `--set rms=5` gives TLC's published counts for five resource
 * managers (8,832 distinct states, 58,146 generated, depth 17); `--set symmetry=true` reduces
 * by permutations of the resource managers (314 orbits at 5).
 *
 *   kubecheck check --model examples/two-phase-commit/model.ts --set rms=5
 */
import type { Model } from '../../checker/index.js';
import type { TwoPhaseBug, TwoPhaseState } from './common.js';
import { twoPhasePlain } from './plain.js';

/** The parameters the factory reads (`list parameters --model` shows them; any other key is refused). */
export const parameters = [
  { key: 'rms', defaultValue: '3', description: 'number of resource managers (1 to 9)' },
  { key: 'bug', defaultValue: 'none', description: 'a seeded bug: none | commit-on-any-prepared | rm-commits-on-prepared' },
  { key: 'symmetry', defaultValue: 'false', description: 'treat resource managers as interchangeable: true | false' },
];

const BUGS: readonly string[] = ['none', 'commit-on-any-prepared', 'rm-commits-on-prepared'];

export default function twoPhaseCommit(params: Readonly<Record<string, string>>): Model<TwoPhaseState> {
  const rms = Number(params.rms);
  if (!Number.isInteger(rms) || rms < 1 || rms > 9) throw new Error(`rms must be an integer from 1 to 9, got "${params.rms}"`);
  if (!BUGS.includes(params.bug)) throw new Error(`bug must be one of ${BUGS.join(', ')}, got "${params.bug}"`);
  if (params.symmetry !== 'true' && params.symmetry !== 'false') throw new Error(`symmetry must be true or false, got "${params.symmetry}"`);
  return twoPhasePlain({ rms, ...(params.bug === 'none' ? {} : { bug: params.bug as TwoPhaseBug }), symmetry: params.symmetry === 'true' });
}
