/**
 * Reachable states of a cluster model for tests that compare two encodings of a state: the first
 * states of a breadth-first search, then seeded random walks deep into the space that favour the
 * rare steps (faults, operator actions) over the tick. The same states on every run.
 */
import { expect } from 'vitest';
import { successors } from '../../checker/index.js';
import type { Model } from '../../checker/index.js';
import { resolveConfig, type ClusterConfig, type ClusterState, type ResolveInput } from '../../model/index.js';
import { stateKey } from '../../model/key.js';

/** Small LCG so the walks are the same on every run. */
export function rng(seed: number): () => number {
  let x = seed >>> 0;
  return () => {
    x = (Math.imul(x, 1664525) + 1013904223) >>> 0;
    return x / 2 ** 32;
  };
}

export interface Sampling {
  /** Stop the breadth-first part once this many distinct states were met (0: none). */
  readonly breadthFirst: number;
  readonly walks: number;
  readonly steps: number;
  readonly seed: number;
  /** Visit each walk's first state too. */
  readonly walkStart?: boolean;
}

/** Calls `visit` on the sampled states of `model` (a state met twice is visited twice). */
export function sampleStates(model: Model<ClusterState>, sampling: Sampling, visit: (s: ClusterState) => void): void {
  const seen = new Set<string>();
  let frontier = [...model.initialStates()];
  while (sampling.breadthFirst > 0 && frontier.length > 0 && seen.size < sampling.breadthFirst) {
    const next: ClusterState[] = [];
    for (const s of frontier) {
      visit(s);
      for (const x of successors(model, s)) {
        const k = stateKey(x.state);
        if (!seen.has(k)) {
          seen.add(k);
          next.push(x.state);
        }
      }
    }
    frontier = next;
  }
  const random = rng(sampling.seed);
  for (let walk = 0; walk < sampling.walks; walk++) {
    let s = model.initialStates()[0];
    if (sampling.walkStart === true) visit(s);
    for (let step = 0; step < sampling.steps; step++) {
      const succ = successors(model, s);
      if (succ.length === 0) break;
      // Faults and operator actions are rare among the candidates: favour them.
      const rare = succ.filter((x) => x.action.name !== 'tick');
      const pick = rare.length > 0 && random() < 0.5 ? rare : succ;
      s = pick[Math.floor(random() * pick.length)].state;
      visit(s);
    }
  }
}

/** The configurations of `scenario` under each variant it accepts (a variant may set a budget the scenario fixes). */
export function variantConfigs(scenario: string, variants: readonly ResolveInput[]): ClusterConfig[] {
  const out: ClusterConfig[] = [];
  for (const input of variants) {
    try {
      out.push(resolveConfig(scenario, input));
    } catch {
      // a variant this scenario refuses
    }
  }
  return out;
}

/**
 * A check that two keys of a state tell states apart alike: each value of one is paired with one
 * value of the other, in both directions, over every call.
 */
export function oneToOne(): (a: string, b: string) => void {
  const bOf = new Map<string, string>();
  const aOf = new Map<string, string>();
  return (a, b) => {
    const pairedB = bOf.get(a);
    const pairedA = aOf.get(b);
    if (pairedB === undefined) bOf.set(a, b);
    else expect(b).toBe(pairedB);
    if (pairedA === undefined) aOf.set(b, a);
    else expect(a).toBe(pairedA);
  };
}
