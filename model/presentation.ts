/**
 * How reports show Kubernetes states to people: the model keeps nodes, candidates and etcd
 * members as positions in lists (compact and fast to fingerprint); people read names. This adds
 * the checker's optional presentation hooks to the cluster model:
 *
 * - `present`: the state with every list element named (`nodes[node-3].partitioned`,
 *   `api.pods[db-0].nodeName: null → node-1`, leases held by `kube-scheduler-1`), for diffs,
 *   the HTML report's state pane and `--json`;
 * - `abstract`: per node its API condition, taints and what is real (down, cut off), per
 *   workload its running copies: the boxes of a projected state graph;
 * - `describeStep` with `affects`: the node, etcd or process a fault or operator changes, so a
 *   sequence diagram has a participant for it.
 *
 * Nothing here changes what is checked: the actions, fingerprints and properties are the model's.
 */
import type { ActionLabel, Model, StepDescription } from '../checker/index.js';
import { isFaultActor } from '../checker/index.js';
import { describePlace } from './claims.js';
import { candidateName, ELECTION_NAMES, NO_TOLERATION, nodeName, type ClusterState, type Tolerations } from './state.js';

const named = <T extends object>(name: string, value: T): T & { readonly name: string } => ({ name, ...value });

/**
 * A pod's tolerations as people read them: per NoExecute taint its seconds, `forever` (no
 * tolerationSeconds) or `none` (not tolerated: deleted at once), and the NoSchedule taints it
 * tolerates when there are any.
 */
function presentTolerations(t: Tolerations): Record<string, unknown> {
  const seconds = (v: number | null): number | string => (v === null ? 'forever' : v === NO_TOLERATION ? 'none' : v);
  return { unreachable: seconds(t.unreachable), notReady: seconds(t.notReady), outOfService: seconds(t.outOfService), ...(t.noSchedule.length === 0 ? {} : { noSchedule: t.noSchedule }) };
}

/** The cluster state with names instead of positions (see the module comment). */
export function presentCluster(s: ClusterState): unknown {
  const node = (i: number): string | null => (i >= 0 ? nodeName(i) : null);
  return {
    ...s,
    api: {
      ...s.api,
      nodes: s.api.nodes.map((n, i) => (n === null ? { name: nodeName(i), deleted: true } : named(nodeName(i), n))),
      pods: s.api.pods.map((p) => ({ ...p, nodeName: node(p.nodeName), tolerations: presentTolerations(p.tolerations) })),
      leases: s.api.leases.map((l, e) => ({ name: ELECTION_NAMES[e], ...l, holder: l.holder >= 0 ? candidateName(e, l.holder) : null })),
      ...(s.api.claims === undefined ? {} : { claims: s.api.claims.map((c) => ({ ...c, bound: c.bound < 0 ? null : describePlace(c) })) }),
    },
    // `liveFor` is left out: it is the history of one property (healthy-node-not-unknown), set
    // to its cap by an exact reduction once nothing can read it, so its value would read as a
    // time the node has been up when it is not one.
    nodes: s.nodes.map((n, i) => {
      const { liveFor: _history, ...shown } = n;
      return named(nodeName(i), shown);
    }),
    etcd: s.etcd.map((up, i) => ({ name: `etcd-${i + 1}`, up })),
    apiservers: s.apiservers.map((up, i) => ({ name: `kube-apiserver-${i + 1}`, up })),
    candidates: s.candidates.flatMap((list, e) =>
      list.map((c, k) => ({
        name: candidateName(e, k),
        ...c,
        observedHolder: c.observedHolder >= 0 ? candidateName(e, c.observedHolder) : c.observedHolder === -1 ? null : 'not observed',
        ctrl: c.ctrl === null ? null : {
          ...c.ctrl,
          nodes: c.ctrl.nodes.map((h, i) => named(nodeName(i), h)),
          zones: c.ctrl.zones.map((z, i) => named(`zone-${i + 1}`, z)),
          gcMissing: c.ctrl.gcMissing.map((m, i) => ({ name: nodeName(i), missingFor: m })),
        },
        assumed: c.assumed === null ? null : { pod: c.assumed.pod, node: node(c.assumed.node) },
      })),
    ),
  };
}

/** One node as a projected graph shows it: API condition and taints, then what is real. */
function nodeView(s: ClusterState, i: number): string {
  const obj = s.api.nodes[i];
  const real = s.nodes[i];
  const parts: string[] = [];
  if (obj === null) parts.push('deleted');
  else {
    parts.push(obj.ready === 'True' ? 'Ready' : obj.ready === 'Unknown' ? 'Unknown' : obj.ready === 'None' ? 'no status yet' : 'NotReady');
    const noExecute = obj.taints.some((t) => t.endsWith(':NoExecute'));
    const noSchedule = obj.taints.some((t) => t.endsWith(':NoSchedule'));
    if (noExecute) parts.push('tainted NoExecute');
    else if (noSchedule) parts.push('tainted NoSchedule');
  }
  if (s.api.pods.some((p) => p.nodeName === i && p.deletion === 'taint-eviction')) parts.push('evicting');
  if (!real.up) parts.push('(down)');
  else if (real.partitioned) parts.push('(cut off)');
  else if (!real.kubeletUp) parts.push(real.booting === true ? '(kubelet not started)' : '(kubelet down)');
  return `${nodeName(i)} ${parts.join(' ')}`;
}

/** The projection of a state: per node its condition, per workload its running copies. */
export function abstractCluster(s: ClusterState): string {
  const nodes = s.nodes.map((_n, i) => nodeView(s, i));
  const workloads = [...new Set(s.api.pods.map((p) => p.workload))].sort().reverse();
  // A pod name is `<workload>-<k>` (ReplicaSet slot, StatefulSet ordinal) or `<workload>-node-<n>` (DaemonSet):
  // `web-2-0` belongs to `web-2`, not to `web`.
  const belongs = (pod: string, w: string): boolean => pod.startsWith(`${w}-`) && /^(\d+|node-\d+)$/.test(pod.slice(w.length + 1));
  const running = (w: string): number => s.nodes.reduce((n, node) => n + node.running.filter((p) => belongs(p, w)).length, 0);
  const copies = workloads.map((w) => `${w}: ${running(w)} running`);
  const leaderless = s.candidates.flatMap((list, e) => (list.some((c) => c.up && c.paused === 0 && c.leader) ? [] : [`no ${ELECTION_NAMES[e]} leader`]));
  return [...nodes, [...copies, ...leaderless].join(', ')].join('\n');
}

const realKeys = ['up', 'kubeletUp', 'partitioned', 'running', 'runtimeUp', 'statusStuck'] as const;

/** What a fault or operator step changes beyond the API: nodes, etcd, apiservers, processes. */
export function affectedBy(before: ClusterState, after: ClusterState): string[] {
  const out: string[] = [];
  before.nodes.forEach((n, i) => {
    const m = after.nodes[i];
    if (m !== undefined && n !== m && realKeys.some((k) => JSON.stringify(n[k]) !== JSON.stringify(m[k]))) out.push(`kubelet/${nodeName(i)}`);
  });
  if (before.etcd.some((up, i) => after.etcd[i] !== up)) out.push('etcd');
  if (before.apiservers.some((up, i) => after.apiservers[i] !== up) || before.kubeletApiOutage !== after.kubeletApiOutage) out.push('kube-apiserver');
  before.candidates.forEach((list, e) =>
    list.forEach((c, k) => {
      const d = after.candidates[e]?.[k];
      if (d !== undefined && (c.up !== d.up || c.paused !== d.paused || c.partitioned !== d.partitioned || c.rate !== d.rate)) out.push(candidateName(e, k));
    }),
  );
  return out;
}

/** The cluster model with the presentation hooks (actions, fingerprints and properties unchanged). */
export function withPresentation(model: Model<ClusterState>): Model<ClusterState> {
  const describeStep = model.describeStep;
  return {
    ...model,
    present: presentCluster,
    abstract: abstractCluster,
    ...(describeStep
      ? {
          describeStep(before: ClusterState, action: ActionLabel, after: ClusterState): StepDescription {
            const d = describeStep.call(model, before, action, after);
            if (d.affects !== undefined || !isFaultActor(d.actor)) return d;
            const affects = affectedBy(before, after);
            return affects.length > 0 ? { ...d, affects } : d;
          },
        }
      : {}),
  };
}
