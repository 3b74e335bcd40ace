/** One-line descriptions of cluster states for people. */
import { candidateName, ELECTION_NAMES, nodeName, quorum, type ClusterState } from './state.js';
import { objectLine, storeObjects, type ObjectSummary } from './operator/present.js';

/**
 * The state in one line of ` | `-separated parts: nodes, pods, leaders, etcd, then the operators'
 * objects (each named by kind and key; `summary` gives an object's words, else its spec and status).
 */
export function describeState(s: ClusterState, summary: ObjectSummary = () => undefined): string {
  const nodes = s.nodes.map((n, i) => {
    const obj = s.api.nodes[i];
    const api = obj === null ? 'deleted' : `${obj.ready === 'None' ? 'no status yet' : `Ready=${obj.ready}`}${obj.taints.length ? ` [${obj.taints.join(' ')}]` : ''}`;
    const real = !n.up ? 'down' : `${n.kubeletUp ? '' : n.booting === true ? 'kubelet-not-started ' : 'kubelet-down '}${n.partitioned ? 'partitioned ' : ''}running{${n.running.map((x) => { const t = n.terminating?.find((y) => y.pod === x); return t === undefined ? x : `${x} (SIGTERM, SIGKILL in ${t.killIn}s)`; }).join(',')}}`;
    return `${nodeName(i)} ${api}${obj === null ? '' : written(obj)} ${real.trim()}`;
  });
  const pods = s.api.pods.map((p) => `${p.name}@${p.nodeName >= 0 ? nodeName(p.nodeName) : 'Pending'}${p.deletion ? '(Terminating)' : ''}${written(p)}`);
  const leaders = s.candidates.map((list, e) => {
    const acting = list.flatMap((k, c) => (k.up && k.paused === 0 && k.leader ? [candidateName(e, c)] : []));
    return `${ELECTION_NAMES[e]} leader: ${acting.length ? acting.join('+') : 'none'}`;
  });
  const etcd = `etcd ${s.etcd.filter(Boolean).length}/${s.etcd.length}${quorum(s) ? '' : ' (no quorum)'}`;
  return [...nodes, `pods: ${pods.join(' ') || 'none'}`, ...leaders, etcd, ...customObjects(s, summary)].join(' | ');
}


/** Labels and annotations an operator wrote on a Pod or Node: ` {labels state=evicting; annotations maintenance=true}`, "" when none. */
function written(o: { readonly labels?: Readonly<Record<string, string>>; readonly annotations?: Readonly<Record<string, string>> }): string {
  const pairs = (m: Readonly<Record<string, string>>): string => Object.entries(m).map(([k, v]) => `${k}=${v}`).join(',');
  const parts = [...(o.labels === undefined ? [] : [`labels ${pairs(o.labels)}`]), ...(o.annotations === undefined ? [] : [`annotations ${pairs(o.annotations)}`])];
  return parts.length === 0 ? '' : ` {${parts.join('; ')}}`;
}

/**
 * Operators' objects and calls out, one part each: `Backup nightly (uid-1, rv-3) status {phase: Done}`
 * (`summary`, an operator's `describeObject`, gives the words after the metadata), `calls:
 * take-backup nightly ×2 or more`.
 */
function customObjects(s: ClusterState, summary: ObjectSummary): string[] {
  if (s.custom === undefined) return [];
  const out = storeObjects(s.custom).map((o) => objectLine(o, summary(o)));
  const calls = Object.entries(s.custom.calls);
  if (calls.length > 0) out.push(`calls: ${calls.map(([c, n]) => `${c}${n > 1 ? ' ×2 or more' : ''}`).join(', ')}`);
  return out;
}
