/**
 * A controller written outside kubecheck, against its public API only (`kubecheck/model`), as a
 * platform team would write it in its own repository: it deletes the pods of a node that has not
 * been Ready for more than 30 s (a "fast failover" many teams build), so that they come back
 * elsewhere before taint-based eviction (300 s) would move them.
 *
 * `kubecheck check --extension ./myOperator.ts` loads it on the command line.
 */
import { action, canWrite, nodeName, type ClusterExtension, type ClusterState, type JsonValue } from 'kubecheck/model';

const NAME = 'fast-failover';

/** Seconds each node has been seen not Ready (-1 while Ready). */
function notReadyFor(s: ClusterState): readonly number[] {
  const memory: JsonValue | undefined = s.extensions?.[NAME];
  return Array.isArray(memory) ? memory.map((m) => (typeof m === 'number' ? m : -1)) : [];
}

export function fastFailover(after = 30): ClusterExtension {
  const overdue = (s: ClusterState, pod: string): boolean => {
    const p = s.api.pods.find((q) => q.name === pod);
    return p !== undefined && p.nodeName >= 0 && (notReadyFor(s)[p.nodeName] ?? -1) > after;
  };
  return {
    name: NAME,
    initial: (s) => s.api.nodes.map(() => -1),
    // Saturates one past the threshold: only "more than `after`" is ever asked.
    onTick: (_memory, s, seconds) =>
      notReadyFor(s).map((m, n) => (s.api.nodes[n]?.ready === 'True' ? -1 : Math.min(Math.max(m, 0) + seconds, after + 1))),
    actions: [
      action<ClusterState, string>({
        name: 'fast-failover-delete',
        params: (s) => s.api.pods.map((p) => p.name),
        enabled: (s, pod) => canWrite(s, false) && overdue(s, pod),
        apply: (s, pod) => ({ ...s, api: { ...s.api, pods: s.api.pods.filter((q) => q.name !== pod) } }),
      }),
    ],
    describeStep: (before, a) => {
      const pod = String(a.param);
      const node = before.api.pods.find((p) => p.name === pod)?.nodeName ?? -1;
      return { actor: NAME, summary: `deletes ${pod} (${node >= 0 ? nodeName(node) : 'its node'} not Ready for more than ${after}s)`, to: ['kube-apiserver'] };
    },
  };
}

export default fastFailover();
