/**
 * A model whose states are large and grow: a binary tree of states, each holding a string of its
 * own (no two states share it) that is `bytes` long at the root and `growth` times longer per
 * level. A breadth-first search of it stores ever larger levels of ever larger states, the load
 * under which a memory bound must hold.
 */
import { action, type Model } from '../../checker/index.js';

export interface BigState {
  readonly id: number;
  readonly depth: number;
  /** A one-byte string of the state's own, `bytes * growth^depth` characters. */
  readonly blob: string;
  /** Numbers of the state's own, when `numbers` is given: an array beside the string. */
  readonly numbers?: readonly number[];
}

export interface BigStatesOptions {
  /** Characters of the root's string. */
  readonly bytes: number;
  /** Factor by which a state's string is longer than its parent's (default 1). */
  readonly growth?: number;
  /** Elements of each state's array of numbers (default none). */
  readonly numbers?: number;
  /** Levels of the tree (default 40: more than any bound lets a search reach). */
  readonly depth?: number;
}

function blobOf(id: number, length: number): string {
  // Built by repeat (a flat string of its own, not a rope over a shared one) with the id in front.
  const head = `${id}:`;
  return head + 'x'.repeat(Math.max(0, Math.round(length) - head.length));
}

function stateOf(id: number, depth: number, o: BigStatesOptions): BigState {
  const length = o.bytes * (o.growth ?? 1) ** depth;
  const blob = blobOf(id, length);
  return o.numbers === undefined ? { id, depth, blob } : { id, depth, blob, numbers: Array.from({ length: o.numbers }, (_, i) => id * 1.5 + i) };
}

export function bigStates(o: BigStatesOptions): Model<BigState> {
  const maxDepth = o.depth ?? 40;
  return {
    name: `big-states(${o.bytes})`,
    initialStates: () => [stateOf(1, 0, o)],
    actions: [
      action<BigState>({ name: 'left', enabled: (s) => s.depth < maxDepth, apply: (s) => stateOf(2 * s.id, s.depth + 1, o) }),
      action<BigState>({ name: 'right', enabled: (s) => s.depth < maxDepth, apply: (s) => stateOf(2 * s.id + 1, s.depth + 1, o) }),
    ],
    properties: [],
  };
}
