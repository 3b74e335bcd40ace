/**
 * MissionariesAndCannibals of tlaplus/Examples (specifications/MissionariesAndCannibals, Leslie
 * Lamport), with its config: three missionaries and three cannibals, each a person of their own,
 * and the invariant `Solution` (someone is still on the east bank), whose violation is a solution.
 * A step moves a set of one or two people from the boat's bank to the other, both banks left safe
 * (`Move(S, b)` over `S \in SUBSET who_is_on_bank[bank_of_boat]`). TLC stops at the violation
 * with a trace of 12 states and reports depth 12, the level of the violating state.
 */
import { action, always, type Model } from '../../checker/index.js';

export interface RiverState {
  readonly boat: 'E' | 'W';
  /** Who is on the east bank, sorted (the others are on the west bank). */
  readonly east: readonly string[];
}

const PEOPLE = ['c1', 'c2', 'c3', 'm1', 'm2', 'm3'] as const;

const isSafe = (bank: readonly string[]): boolean => {
  const cannibals = bank.filter((p) => p.startsWith('c')).length;
  const missionaries = bank.length - cannibals;
  return missionaries === 0 || cannibals <= missionaries;
};

/** The sets of one or two people on the boat's bank, in a fixed order. */
function crews(s: RiverState): readonly (readonly string[])[] {
  const here = s.boat === 'E' ? s.east : PEOPLE.filter((p) => !s.east.includes(p));
  const out: string[][] = [];
  for (let i = 0; i < here.length; i++) {
    out.push([here[i]]);
    for (let j = i + 1; j < here.length; j++) out.push([here[i], here[j]]);
  }
  return out;
}

export function missionariesAndCannibals(): Model<RiverState> {
  const after = (s: RiverState, crew: readonly string[]): RiverState => ({
    boat: s.boat === 'E' ? 'W' : 'E',
    east: s.boat === 'E' ? s.east.filter((p) => !crew.includes(p)) : [...s.east, ...crew].sort(),
  });
  return {
    name: 'missionaries-and-cannibals',
    initialStates: () => [{ boat: 'E', east: [...PEOPLE] }],
    actions: [
      action<RiverState, readonly string[]>({
        name: 'move',
        params: crews,
        enabled: (s, crew) => {
          const next = after(s, crew);
          return isSafe(next.east) && isSafe(PEOPLE.filter((p) => !next.east.includes(p)));
        },
        apply: after,
      }),
    ],
    properties: [always<RiverState>('solution', 'someone is still on the east bank', (s) => s.east.length > 0)],
  };
}
