/**
 * Brute force for the symmetry tests, independent of `canonicalize`: every permutation, every
 * state reachable without symmetry, the node permutations within zones, and the candidates of
 * each election permuted on top of a state.
 */
import { successors } from '../../checker/index.js';
import { clusterModel, makeCtx, type ClusterConfig, type ClusterState } from '../../model/index.js';
import { stateKey } from '../../model/key.js';
import { permuteCandidates } from '../../model/symmetry.js';

export function permutations(items: readonly number[]): number[][] {
  if (items.length <= 1) return [[...items]];
  return items.flatMap((x, i) => permutations([...items.slice(0, i), ...items.slice(i + 1)]).map((rest) => [x, ...rest]));
}

/** Every state reachable without symmetry, keyed exactly. */
export function reachable(config: ClusterConfig): ClusterState[] {
  const model = clusterModel(config, { symmetry: false });
  const seen = new Set<string>();
  const queue = [...model.initialStates()];
  for (const s of queue) seen.add(stateKey(s));
  for (let i = 0; i < queue.length; i++) {
    for (const { state } of successors(model, queue[i])) {
      const k = stateKey(state);
      if (!seen.has(k)) {
        seen.add(k);
        queue.push(state);
      }
    }
  }
  return queue;
}

/** Every permutation of the nodes that keeps each node in its zone (`perm[new] = old`). */
export function nodePermutations(config: ClusterConfig): number[][] {
  const ctx = makeCtx(config);
  const zonePerms = ctx.nodesOfZone.map((g) => permutations(g.map((_, i) => i)));
  let nodePerms: number[][] = [new Array<number>(config.cluster.nodes).fill(0)];
  ctx.nodesOfZone.forEach((group, z) => {
    nodePerms = nodePerms.flatMap((base) => zonePerms[z].map((p) => base.map((v, slot) => (group.includes(slot) ? group[p[group.indexOf(slot)]] : v))));
  });
  return nodePerms;
}

/** `t` with the candidates of each election permuted every way. */
export function candidatePermutations(t: ClusterState): ClusterState[] {
  const out: ClusterState[] = [];
  for (const o0 of permutations(t.candidates[0].map((_, i) => i))) {
    const t0 = permuteCandidates(t, 0, o0);
    for (const o1 of permutations(t.candidates[1].map((_, i) => i))) out.push(permuteCandidates(t0, 1, o1));
  }
  return out;
}
