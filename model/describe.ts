/** One-line descriptions of cluster states for people. */
import { candidateName, ELECTION_NAMES, nodeName, quorum, type ClusterState } from './state.js';

export function describeState(s: ClusterState): string {
  const nodes = s.nodes.map((n, i) => {
    const obj = s.api.nodes[i];
    const api = obj === null ? 'deleted' : `Ready=${obj.ready}${obj.taints.length ? ` [${obj.taints.join(' ')}]` : ''}`;
    const real = !n.up ? 'down' : `${n.kubeletUp ? '' : 'kubelet-down '}${n.partitioned ? 'partitioned ' : ''}running{${n.running.map((x) => { const t = n.terminating?.find((y) => y.pod === x); return t === undefined ? x : `${x} (SIGTERM, SIGKILL in ${t.killIn}s)`; }).join(',')}}`;
    return `${nodeName(i)} ${api} ${real.trim()}`;
  });
  const pods = s.api.pods.map((p) => `${p.name}@${p.nodeName >= 0 ? nodeName(p.nodeName) : 'Pending'}${p.deletion ? '(Terminating)' : ''}`);
  const leaders = s.candidates.map((list, e) => {
    const acting = list.flatMap((k, c) => (k.up && k.paused === 0 && k.leader ? [candidateName(e, c)] : []));
    return `${ELECTION_NAMES[e]} leader: ${acting.length ? acting.join('+') : 'none'}`;
  });
  const etcd = `etcd ${s.etcd.filter(Boolean).length}/${s.etcd.length}${quorum(s) ? '' : ' (no quorum)'}`;
  return [...nodes, `pods: ${pods.join(' ') || 'none'}`, ...leaders, etcd].join(' | ');
}

