/**
 * Initial states: a cluster in steady state at T+0. Every node is Ready and has just renewed its
 * Lease; the pods of the ReplicaSets and StatefulSets are spread round-robin in list order (each
 * on the first node from its turn on that its scheduling constraints allow, or Pending where none
 * does), a DaemonSet has one on each node its node affinity allows, all running; candidate 1 of each
 * election leads and the others have just observed its renewal. Components in `cluster.outage`
 * and the first `etcdMembersDownAtStart` etcd members are down. There is one initial state per
 * phase of the node lifecycle controller's monitor pass against the kubelets' renewals (next pass
 * in tick .. nodeMonitorPeriod; the last pass probed then and has not seen the T+0 renewal yet),
 * so detection latencies cover their whole range.
 *
 * The last `cluster.newNodes` nodes are new: their Node objects were made at T+0 without status
 * and carry the not-ready:NoSchedule taint the TaintNodesByCondition admission adds at creation;
 * their kubelets have not started, so only DaemonSet pods are bound to them (not yet running).
 * When every node is new the other pods start Pending.
 */
import { initialClaims } from './claims.js';
import { daemonPodName } from './config.js';
import type { Ctx } from './context.js';
import { freshControllers } from './leaderElection.js';
import { podConstraintsAllow } from './placement.js';
import type { Candidate, ClusterState, PodObject } from './state.js';

const NOT_BUDGETS = new Set(['processPauseDuration', 'clockDriftRate', 'apiserverEtcdOutageDuration']);

export function initialStates(ctx: Ctx): ClusterState[] {
  const c = ctx.config;
  const cl = c.cluster;
  // ReplicaSet and StatefulSet pods in list order, spread round-robin; a DaemonSet's on every node.
  const replicated = ctx.workloads.filter((w) => w.kind !== 'DaemonSet').flatMap((w) => Array.from({ length: w.replicas }, (_, i) => ({ name: `${w.name}-${i}`, w })));
  const started = cl.nodes - cl.newNodes;
  const isNew = (n: number): boolean => n >= started;
  const placed: PodObject[] = ctx.workloads
    .filter((w) => w.kind === 'DaemonSet')
    .flatMap((w) => Array.from({ length: cl.nodes }, (_, n) => n).filter((n) => w.placement.nodeOk[n]).map((n) => ({ name: daemonPodName(w.name, n), workload: w.name, nodeName: n, deletion: null, tolerations: w.toleration, replacement: false })));
  // Round-robin from node i mod started: the first node from there on that the workload's
  // scheduling constraints allow beside the pods placed before it (without constraints, node i
  // mod started itself); a pod allowed nowhere starts Pending.
  const everyNode = Array.from({ length: cl.nodes }, () => true);
  replicated.forEach(({ name, w }, i) => {
    let node = -1;
    if (w.pinnedNode >= 0) node = w.pinnedNode;
    else {
      for (let k = 0; k < started && node < 0; k++) {
        const n = (i + k) % started;
        if (w.placement.nodeOk[n] && podConstraintsAllow(w.placement, placed, everyNode, name, n)) node = n;
      }
    }
    placed.push({ name, workload: w.name, nodeName: node, deletion: null, tolerations: w.toleration, replacement: false });
  });
  const pods = placed.sort((a, b) => (a.name < b.name ? -1 : 1));
  const claims = initialClaims(ctx, pods);
  const kcmDown = cl.outage === 'kube-controller-manager';
  const schedDown = cl.outage === 'kube-scheduler';
  const phases: number[] = [];
  for (let t = ctx.tick; t <= ctx.monitorPeriod + 1e-9; t += ctx.tick) phases.push(Math.round(t * 1e6) / 1e6);
  const candidates = (e: number, down: boolean, monitorIn: number): Candidate[] =>
    Array.from({ length: e === 0 ? cl.controllerManagerCandidates : cl.schedulerCandidates }, (_, i) => ({
      up: !down,
      paused: 0,
      partitioned: false,
      rate: 1,
      leader: !down && i === 0,
      retryIn: !down && i === 0 ? ctx.candidateElection[e][i].retryPeriod : 0,
      renewAge: 0,
      observedAge: 0,
      observedHolder: down ? -1 : 0,
      observedDuration: ctx.leaderElection[e].leaseDuration,
      unseen: false,
      ctrl: e === 0 && !down && i === 0 ? freshControllers(ctx, monitorIn, c.kubeControllerManager.podGcPeriod, Math.round((ctx.monitorPeriod - monitorIn) * 1e6) / 1e6) : null,
      afterPause: 'none' as const,
      assumed: null,
    }));
  // Budgets: every count of faults and operator actions (not the durations, rates or the sequence).
  const budget: Record<string, number> = {};
  for (const [k, v] of Object.entries({ ...c.faults, ...c.operator })) {
    if (typeof v === 'number' && !NOT_BUDGETS.has(k)) budget[k] = v;
  }
  return (kcmDown ? [ctx.monitorPeriod] : phases).map((monitorIn) => ({
    api: {
      nodes: Array.from({ length: cl.nodes }, (_, n) => (isNew(n) ? { ready: 'None' as const, unschedulable: false, taints: ['not-ready:NoSchedule' as const] } : { ready: 'True' as const, unschedulable: false, taints: [] })),
      pods,
      leases: [
        { holder: kcmDown ? -1 : 0, durationSeconds: ctx.leaderElection[0].leaseDuration, transitioned: false },
        { holder: schedDown ? -1 : 0, durationSeconds: ctx.leaderElection[1].leaseDuration, transitioned: false },
      ],
      ...(claims === undefined ? {} : { claims }),
    },
    nodes: Array.from({ length: cl.nodes }, (_, n) => ({
      up: true,
      kubeletUp: !isNew(n),
      partitioned: false,
      heartbeatIn: isNew(n) ? 0 : ctx.renewInterval,
      running: isNew(n) ? [] : pods.filter((p) => p.nodeName === n).map((p) => p.name),
      sinceHeartbeat: 0,
      sinceNoExecute: -1,
      runtimeUp: true,
      statusStuck: false,
      liveFor: isNew(n) ? 0 : ctx.liveCap,
      runtimeDownFor: -1,
      ...(isNew(n) ? { booting: true } : {}),
    })),
    etcd: Array.from({ length: cl.etcdMembers }, (_, i) => i >= cl.etcdMembersDownAtStart),
    apiservers: Array.from({ length: cl.apiservers }, () => cl.outage !== 'kube-apiserver'),
    candidates: [candidates(0, kcmDown, monitorIn), candidates(1, schedDown, 0)],
    budget,
    kubeletApiOutage: 0,
    sequenceDone: 0,
    sequenceIn: c.faults.sequence[0]?.after ?? -1,
  }));
}
