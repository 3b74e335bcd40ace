/**
 * The water-jugs puzzle (Die Hard 3; XState's src/graph/test/dieHard.test.ts): jugs of `small`
 * and `big` gallons, fill, empty or pour one into the other. Every action is guarded so that it
 * changes the state (no self-loops).
 */
import { action, type Model, type Property } from '../../checker/index.js';

export interface Jugs {
  readonly small: number;
  readonly big: number;
}

export function waterJugs(options: { small?: number; big?: number; properties: readonly Property<Jugs>[] }): Model<Jugs> {
  const S = options.small ?? 3;
  const B = options.big ?? 5;
  return {
    name: `water-jugs(${S}, ${B})`,
    initialStates: () => [{ small: 0, big: 0 }],
    actions: [
      action<Jugs>({ name: 'fillSmall', enabled: (s) => s.small < S, apply: (s) => ({ small: S, big: s.big }) }),
      action<Jugs>({ name: 'fillBig', enabled: (s) => s.big < B, apply: (s) => ({ small: s.small, big: B }) }),
      action<Jugs>({ name: 'emptySmall', enabled: (s) => s.small > 0, apply: (s) => ({ small: 0, big: s.big }) }),
      action<Jugs>({ name: 'emptyBig', enabled: (s) => s.big > 0, apply: (s) => ({ small: s.small, big: 0 }) }),
      action<Jugs>({
        name: 'pourSmallIntoBig',
        enabled: (s) => s.small > 0 && s.big < B,
        apply: (s) => {
          const moved = Math.min(s.small, B - s.big);
          return { small: s.small - moved, big: s.big + moved };
        },
      }),
      action<Jugs>({
        name: 'pourBigIntoSmall',
        enabled: (s) => s.big > 0 && s.small < S,
        apply: (s) => {
          const moved = Math.min(s.big, S - s.small);
          return { small: s.small + moved, big: s.big - moved };
        },
      }),
    ],
    properties: options.properties,
  };
}
