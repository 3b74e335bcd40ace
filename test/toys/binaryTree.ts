/**
 * A complete binary tree as a model, for visit-order tests: states are the node numbers 1..size
 * (heap numbering), `left` goes to 2k and `right` to 2k+1. Breadth-first search must store them
 * in the order 1, 2, 3, ..., size, level by level.
 */
import { action, type Model, type Property } from '../../checker/index.js';

export function binaryTree(size: number, properties: readonly Property<number>[]): Model<number> {
  return {
    name: `binary-tree(${size})`,
    initialStates: () => [1],
    actions: [
      action<number>({ name: 'left', enabled: (k) => 2 * k <= size, apply: (k) => 2 * k }),
      action<number>({ name: 'right', enabled: (k) => 2 * k + 1 <= size, apply: (k) => 2 * k + 1 }),
    ],
    properties,
  };
}

/**
 * A grid of (row, col) in 0..n-1 with `down` and `right`: many paths reach each state, so BFS
 * must store each once, on level row + col + 1.
 */
export function grid(n: number, properties: readonly Property<readonly [number, number]>[]): Model<readonly [number, number]> {
  return {
    name: `grid(${n})`,
    initialStates: () => [[0, 0] as const],
    actions: [
      action<readonly [number, number]>({ name: 'down', enabled: ([r]) => r < n - 1, apply: ([r, c]) => [r + 1, c] as const }),
      action<readonly [number, number]>({ name: 'right', enabled: ([, c]) => c < n - 1, apply: ([r, c]) => [r, c + 1] as const }),
    ],
    properties,
  };
}
