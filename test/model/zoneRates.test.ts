/**
 * The zone eviction rates of the node lifecycle controller (setLimiterInZone, ReducedQPSFunc):
 * a PartialDisruption zone of at most --large-cluster-size-threshold nodes evicts nothing, a
 * larger one at --secondary-node-eviction-rate (0.01 nodes/s: one NoExecute taint per 100 s).
 */
import { describe, expect, it } from 'vitest';
import { always, check, observer, type Property } from '../../checker/index.js';
import { resolveConfig, type ClusterState } from '../../model/index.js';
import { kubernetesModel } from '../../properties/index.js';

const tainted = (s: ClusterState, n: number): boolean => s.api.nodes[n]!.taints.includes('unreachable:NoExecute');
const neverTainted = (n: number) => always<ClusterState>(`node-${n + 1}-never-tainted`, `node-${n + 1} never gets the NoExecute taint`, (s) => !tainted(s, n));

/** node-4's NoExecute taint comes at least `gap` seconds after node-3's. */
const spacing = (gap: number) =>
  observer<ClusterState, number>({
    id: `node-4-after-node-3-${gap}`,
    description: `node-4 tainted at least ${gap}s after node-3`,
    initial: () => -1,
    step: (since, b, a, x) => {
      if (since === -2) return -2;
      if (!tainted(b, 3) && tainted(x, 3) && since >= 0 && since < gap) return -2;
      if (since < 0 && tainted(x, 2)) return 0;
      return a.name === 'tick' && since >= 0 ? Math.min(gap, since + 1) : since;
    },
    holds: (since) => since !== -2,
  });

function checkZone(set: Record<string, string>, extra: Property<ClusterState>[]) {
  const config = resolveConfig('zone-disruption', { set });
  const base = kubernetesModel(config);
  const r = check({ ...base, properties: [...base.properties, ...extra] }, { properties: [...extra.map((p) => p.id), 'zone-partial-disruption'] });
  return Object.fromEntries(r.properties.map((p) => [p.id, p.status]));
}

describe('zone eviction rates', () => {
  it('should taint nothing more once a small zone is in PartialDisruption', () => {
    expect(checkZone({}, [neverTainted(2)])).toEqual({ 'node-3-never-tainted': 'holds', 'zone-partial-disruption': 'witnessed' });
  });

  it('should keep tainting a zone larger than the threshold, one node per 100 s (the secondary rate), exactly', () => {
    const set = {
      'cluster.nodes': '5',
      'kubeControllerManager.largeClusterSizeThreshold': '2',
      'faults.sequence': 'node-crash:node-1,node-crash:node-2+20s,node-crash:node-3+20s,node-crash:node-4+20s',
    };
    expect(checkZone(set, [neverTainted(3), spacing(100), spacing(101)])).toEqual({
      'node-4-never-tainted': 'violated',
      'node-4-after-node-3-100': 'holds',
      'node-4-after-node-3-101': 'violated',
      'zone-partial-disruption': 'witnessed',
    });
  });
});
