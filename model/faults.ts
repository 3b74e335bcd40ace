/**
 * Faults and operator actions. Never urgent: they happen between instants (when no periodic or
 * reactive work is due), each within the scenario's budget. A fault at "t+" is the same as one
 * just before the next instant, so the 1 s quantum loses no ordering against whole instants; it
 * does hide orderings *inside* an instant (e.g. a crash between two kubelets' renewals of one
 * second).
 */
import { castDraft, type Draft } from 'immer';
import { produce } from './immer.js';
import { isCriticalWorkload, shutdownGraceCap } from './config.js';
import { initialStates } from './initial.js';
import type { JsonValue } from '../checker/model.js';
import { API, clusterAction, type ClusterAction, type Ctx } from './context.js';
import { candidateRefs, freshFollower, parseCandidate } from './leaderElection.js';
import { byShape, addSorted, candidateName, canWrite, nodeIndex, nodeName, running, SCHED, stateWith, nodeWith, poweredOff, type Candidate, type ClusterState, type NodeReal } from './state.js';

type Budget = keyof Ctx['config']['faults'] | keyof Ctx['config']['operator'];

interface Def<P extends JsonValue> {
  name: string;
  budget: Budget;
  params: (s: ClusterState) => readonly P[];
  enabled: (s: ClusterState, p: P) => boolean;
  /** The step on a draft of the state it is taken in (`s`); or, for the faults taken most often, */
  recipe?: (d: Draft<ClusterState>, p: P, s: ClusterState) => void;
  /** the step written without a draft. One of the two. */
  step?: (s: ClusterState, p: P) => ClusterState;
  actor: 'fault' | 'operator';
  /** One line for the step, from the state it is taken in. */
  summary: (p: P, s: ClusterState) => string;
  to?: readonly string[];
}

function budgeted<P extends JsonValue>(def: Def<P>): ClusterAction {
  return clusterAction<P>({
    name: def.name,
    urgent: false,
    params: (s) => ((s.budget[def.budget] ?? 0) > 0 ? def.params(s) : NO_PARAMS),
    enabled: (s, p) => (s.budget[def.budget] ?? 0) > 0 && def.enabled(s, p),
    apply: (s, p) => stateWith(take(def, s, p), { budget: spend(s.budget, def.budget) }),
    describe: (b, p) => ({ actor: def.actor, summary: def.summary(p, b), to: def.to ?? [] }),
  });
}

/** The state after fault or operator action `def` with `p` in `s` (its budget aside). */
function take<P extends JsonValue>(def: Def<P>, s: ClusterState, p: P): ClusterState {
  if (def.step !== undefined) return def.step(s, p);
  const recipe = def.recipe;
  return recipe === undefined ? s : produce(s, (d) => recipe(d, p, s));
}

const spent = new WeakMap<ClusterState['budget'], Map<string, ClusterState['budget']>>();

/**
 * `budget` with one `key` spent, one object for each budget and key: the budgets in the states of
 * a search are then a handful of shared objects, whose keys are written once (`model/key.ts`).
 */
function spend(budget: ClusterState['budget'], key: Budget): ClusterState['budget'] {
  let byKey = spent.get(budget);
  if (byKey === undefined) spent.set(budget, (byKey = new Map()));
  let next = byKey.get(key);
  if (next === undefined) byKey.set(key, (next = { ...budget, [key]: budget[key] - 1 }));
  return next;
}

/** `s` with node n replaced. */
function withNode(s: ClusterState, n: number, node: NodeReal): ClusterState {
  const nodes = s.nodes.slice();
  nodes[n] = node;
  return stateWith(s, { nodes });
}

/** The parameters of an action whose budget is spent (asked about in every state between instants). */
const NO_PARAMS: readonly never[] = Object.freeze([]);
const ONCE: readonly null[] = Object.freeze([null]);

/** `<prefix><i + 1>` for i < count (etcd members, kube-apiservers), kept by count in `lists`. */
function numbered(lists: (readonly string[])[], prefix: string, count: number): readonly string[] {
  return (lists[count] ??= Object.freeze(Array.from({ length: count }, (_, i) => `${prefix}${i + 1}`)));
}
const etcdLists: (readonly string[])[] = [];
const apiserverLists: (readonly string[])[] = [];
const etcdMembers = (s: ClusterState): readonly string[] => numbered(etcdLists, 'etcd-', s.etcd.length);
const apiservers = (s: ClusterState): readonly string[] => numbered(apiserverLists, 'kube-apiserver-', s.apiservers.length);

const nodes = byShape((s: ClusterState): string[] => s.nodes.map((_, n) => nodeName(n)));
const cands = byShape((s: ClusterState): string[] => candidateRefs(s).map(({ e, c }) => candidateName(e, c)));
const cand = (s: ClusterState, p: string): Candidate => {
  const { e, c } = parseCandidate(p);
  return s.candidates[e][c];
};
const dcand = (d: Draft<ClusterState>, p: string): Draft<Candidate> => {
  const { e, c } = parseCandidate(p);
  return d.candidates[e][c];
};

/** Declares one fault or operator action with its parameter type checked. */
function def<P extends JsonValue>(d: Def<P>): Def<JsonValue> {
  return d as unknown as Def<JsonValue>;
}

export function faultActions(ctx: Ctx): ClusterAction[] {
  return faultDefs(ctx).filter((d) => budgetOf(ctx, d.budget) > 0).map(budgeted);
}

export function operatorActions(ctx: Ctx): ClusterAction[] {
  return operatorDefs(ctx).filter((d) => budgetOf(ctx, d.budget) > 0).map(budgeted);
}

/**
 * A budget as the scenario starts (budgets only go down: an action whose budget starts at 0 is
 * never enabled, and is not listed, so the search does not ask it in every state between
 * instants; a fault given only in `faults.sequence` is the sequence's step, not this action).
 */
function budgetOf(ctx: Ctx, budget: Budget): number {
  const v = (ctx.config.faults as unknown as Record<string, unknown>)[budget] ?? (ctx.config.operator as unknown as Record<string, unknown>)[budget];
  return typeof v === 'number' ? v : 0;
}

/** Every fault and operator action by name (what a scenario's `faults.sequence` may name). */
export function faultNames(ctx: Ctx): string[] {
  return [...faultDefs(ctx), ...operatorDefs(ctx)].map((d) => d.name);
}

/**
 * The scenario's fault sequence (`faults.sequence`): the listed faults happen in this order,
 * besides the budgets; a step with a delay happens exactly that long after the previous one (an
 * urgent step when its time comes), one without at any instant after it. A step that cannot
 * happen (its target is already down) stops the sequence there.
 */
export function sequenceActions(ctx: Ctx): { readonly free: ClusterAction; readonly timed: ClusterAction } {
  const sequence = ctx.config.faults.sequence;
  const byName = new Map([...faultDefs(ctx), ...operatorDefs(ctx)].map((d) => [d.name, d]));
  const stepOf = (s: ClusterState) => {
    const step = sequence[s.sequenceDone];
    return step === undefined ? undefined : { step, d: byName.get(step.fault)! };
  };
  const make = (timed: boolean): ClusterAction =>
    clusterAction({
      name: timed ? 'sequence-fault-due' : 'sequence-fault',
      urgent: timed,
      enabled: (s) => {
        const x = stepOf(s);
        if (x === undefined || (x.step.after !== null) !== timed || (timed && s.sequenceIn > 0)) return false;
        return x.d.enabled(s, x.step.target);
      },
      apply: (s) => {
        const x = stepOf(s)!;
        return produce(take(x.d, s, x.step.target), (d) => {
          d.sequenceDone = s.sequenceDone + 1;
          d.sequenceIn = sequence[s.sequenceDone + 1]?.after ?? -1;
        });
      },
      describe: (b) => {
        const x = stepOf(b)!;
        return { actor: x.d.actor, summary: `${x.d.summary(x.step.target, b)} (step ${b.sequenceDone + 1} of ${sequence.length} of the scenario's sequence)`, to: x.d.to ?? [] };
      },
    });
  return { free: make(false), timed: make(true) };
}

function faultDefs(ctx: Ctx): Def<JsonValue>[] {
  const f = ctx.config.faults;
  const shutdownGrace = ctx.config.kubelet.shutdownGracePeriod;
  const shutdownCap = shutdownGraceCap(ctx.config);
  const critical = new Set(ctx.config.cluster.workloads.filter(isCriticalWorkload).map((w) => w.name));
  const criticalPod = (pod: string): boolean => critical.has(ctx.workloadOfPod(pod)?.name ?? '');
  return [
    def<string>({
      name: 'node-crash', budget: 'nodeCrash', actor: 'fault', params: nodes,
      enabled: (s, p) => s.nodes[nodeIndex(p)].up,
      step: (s, p) => withNode(s, nodeIndex(p), poweredOff(s.nodes[nodeIndex(p)])),
      summary: (p) => `${p} crashes: its containers and kubelet stop`,
    }),
    def<string>({
      // systemd's PrepareForShutdown: with graceful node shutdown on, the kubelet's inhibitor lock
      // delays it by shutdownGracePeriod (nodeshutdown_manager_linux.go); otherwise, or with the
      // kubelet down, nothing holds it and the node goes down as in a crash.
      name: 'node-shutdown', budget: 'nodeShutdown', actor: 'fault', params: nodes,
      enabled: (s, p) => s.nodes[nodeIndex(p)].up && s.nodes[nodeIndex(p)].shutdownIn === undefined,
      recipe: (d, p, s) => {
        if (!(shutdownGrace > 0 && s.nodes[nodeIndex(p)].kubeletUp)) {
          d.nodes[nodeIndex(p)] = castDraft(poweredOff(s.nodes[nodeIndex(p)]));
          return;
        }
        const n = d.nodes[nodeIndex(p)];
        n.shutdownIn = shutdownGrace;
        // processShutdownEvent kills every pod with the capped grace period, those already terminating too.
        // Critical pods' (the second group's) only when their group comes (kubelet.ts `ShutdownGroups`).
        if (n.terminating !== undefined) n.terminating = n.terminating.map((t) => (criticalPod(t.pod) ? t : { pod: t.pod, killIn: Math.min(t.killIn, shutdownCap) }));
      },
      summary: (p) => (shutdownGrace > 0 ? `${p} begins to shut down: its kubelet holds the shutdown for up to ${shutdownGrace}s (shutdownGracePeriod) to stop its pods` : `${p} shuts down: with kubelet.shutdownGracePeriod 0 nothing holds it, its containers and kubelet stop`),
    }),
    def<string>({
      name: 'node-restart', budget: 'nodeRestart', actor: 'fault', params: nodes,
      enabled: (s, p) => !s.nodes[nodeIndex(p)].up,
      recipe: (d, p) => {
        const n = d.nodes[nodeIndex(p)];
        n.up = true;
        n.kubeletUp = true;
        delete n.booting;
        delete n.shutdownIn;
        n.podWatchStuck = undefined;
        n.heartbeatIn = 0;
        n.runtimeUp = true;
        n.runtimeDownFor = -1;
        delete n.runtimeErrors;
        n.statusStuck = false;
      },
      summary: (p) => `${p} restarts (no containers)`,
    }),
    def<string>({
      name: 'kubelet-crash', budget: 'kubeletCrash', actor: 'fault', params: nodes,
      enabled: (s, p) => s.nodes[nodeIndex(p)].up && s.nodes[nodeIndex(p)].kubeletUp,
      recipe: (d, p, s) => {
        // A shutdown under way was held only by the kubelet's inhibitor lock, which dies with it.
        if (s.nodes[nodeIndex(p)].shutdownIn !== undefined) {
          d.nodes[nodeIndex(p)] = castDraft(poweredOff(s.nodes[nodeIndex(p)]));
          return;
        }
        d.nodes[nodeIndex(p)].kubeletUp = false;
        d.nodes[nodeIndex(p)].heartbeatIn = 0;
        delete d.nodes[nodeIndex(p)].runtimeErrors; // its runtime state dies with it
      },
      summary: (p, s) => (s.nodes[nodeIndex(p)].shutdownIn !== undefined ? `the kubelet of ${p} crashes during its shutdown: nothing holds the shutdown any more, and ${p} powers off` : `the kubelet of ${p} crashes (containers keep running)`),
    }),
    def<string>({
      name: 'kubelet-restart', budget: 'kubeletRestart', actor: 'fault', params: nodes,
      // A new node's kubelet that has not started yet is not down: it starts by itself (kubelet-start).
      enabled: (s, p) => s.nodes[nodeIndex(p)].up && !s.nodes[nodeIndex(p)].kubeletUp && s.nodes[nodeIndex(p)].booting !== true,
      recipe: (d, p) => {
        d.nodes[nodeIndex(p)].kubeletUp = true;
        d.nodes[nodeIndex(p)].podWatchStuck = undefined; // it relists
        d.nodes[nodeIndex(p)].heartbeatIn = 0;
        d.nodes[nodeIndex(p)].statusStuck = false;
        // No good runtime check yet: runtimeErrors says so at once while the runtime is down.
        if (!d.nodes[nodeIndex(p)].runtimeUp) d.nodes[nodeIndex(p)].runtimeErrors = true;
      },
      summary: (p) => `the kubelet of ${p} restarts`,
    }),
    def<string>({
      name: 'container-runtime-failure', budget: 'containerRuntimeFailure', actor: 'fault', params: nodes,
      enabled: (s, p) => s.nodes[nodeIndex(p)].up && s.nodes[nodeIndex(p)].runtimeUp,
      // containerd (the CRI) dies; the containers run on under their shims. The kubelet can no
      // longer start, stop or observe any (kubelet.ts `syncWork`), and keeps renewing its Lease.
      recipe: (d, p) => {
        const n = d.nodes[nodeIndex(p)];
        n.runtimeUp = false;
        n.runtimeDownFor = 0;
      },
      summary: (p, s) => {
        const running = s.nodes[nodeIndex(p)].running;
        return `the container runtime of ${p} fails: ${running.length > 0 ? `${running.join(', ')} keep${running.length === 1 ? 's' : ''} running under ${running.length === 1 ? 'its shim' : 'their shims'}, and ` : ''}its kubelet can neither start, stop nor observe containers until it recovers (it keeps renewing its Lease)`;
      },
    }),
    def<string>({
      name: 'container-runtime-recovery', budget: 'containerRuntimeRecovery', actor: 'fault', params: nodes,
      enabled: (s, p) => s.nodes[nodeIndex(p)].up && !s.nodes[nodeIndex(p)].runtimeUp,
      recipe: (d, p) => {
        const n = d.nodes[nodeIndex(p)];
        n.runtimeUp = true;
        n.runtimeDownFor = -1;
        delete n.runtimeErrors;
        // A StopContainer call the runtime took down with it failed; the pod worker retries
        // killPod with the pod's whole grace period (kuberuntime_container.go killContainer), so
        // the kubelet's next sync sends SIGTERM again and the SIGKILL timer starts over.
        delete n.terminating;
      },
      summary: (p) => `the container runtime of ${p} recovers: its kubelet sees its containers again`,
    }),
    def<string>({
      name: 'node-status-update-failure', budget: 'nodeStatusUpdateFailure', actor: 'fault', params: nodes,
      enabled: (s, p) => s.nodes[nodeIndex(p)].up && s.nodes[nodeIndex(p)].kubeletUp && !s.nodes[nodeIndex(p)].statusStuck,
      recipe: (d, p) => {
        d.nodes[nodeIndex(p)].statusStuck = true;
      },
      summary: (p) => `the kubelet of ${p} can no longer update its node status (its Lease renewals still succeed)`,
    }),
    def<string>({
      name: 'node-partition', budget: 'nodePartition', actor: 'fault', params: nodes,
      enabled: (s, p) => s.nodes[nodeIndex(p)].up && !s.nodes[nodeIndex(p)].partitioned,
      step: (s, p) => withNode(s, nodeIndex(p), nodeWith(s.nodes[nodeIndex(p)], { partitioned: true })),
      summary: (p) => `${p} is cut off from the control plane (keeps running)`,
    }),
    def<string>({
      name: 'node-partition-heal', budget: 'nodePartitionHeal', actor: 'fault', params: nodes,
      enabled: (s, p) => s.nodes[nodeIndex(p)].partitioned,
      step: (s, p) => withNode(s, nodeIndex(p), nodeWith(s.nodes[nodeIndex(p)], { partitioned: false })),
      summary: (p) => `the partition of ${p} heals`,
    }),
    def<string>({
      name: 'component-crash', budget: 'componentCrash', actor: 'fault', params: cands,
      enabled: (s, p) => cand(s, p).up,
      recipe: (d, p, s) => {
        // A dead process keeps no memory or timers: reset them so that crash times do not
        // multiply states (a restart overwrites them anyway); rate and partition are the host's.
        const { e, c } = parseCandidate(p);
        const old = s.candidates[e][c];
        d.candidates[e][c] = { ...freshFollower(old.rate), up: false, partitioned: old.partitioned } as Draft<Candidate>;
      },
      summary: (p) => `${p} crashes`,
    }),
    def<string>({
      name: 'component-restart', budget: 'componentRestart', actor: 'fault', params: cands,
      enabled: (s, p) => !cand(s, p).up,
      recipe: (d, p, s) => {
        const { e, c } = parseCandidate(p);
        const old = s.candidates[e][c];
        d.candidates[e][c] = { ...freshFollower(old.rate), partitioned: old.partitioned } as Draft<Candidate>;
      },
      summary: (p) => `${p} restarts as a follower`,
    }),
    def<string>({
      name: 'control-plane-partition', budget: 'controlPlanePartition', actor: 'fault', params: cands,
      enabled: (s, p) => cand(s, p).up && !cand(s, p).partitioned,
      recipe: (d, p) => {
        dcand(d, p).partitioned = true;
      },
      summary: (p) => `${p} is cut off from the kube-apiserver`,
    }),
    def<string>({
      name: 'control-plane-partition-heal', budget: 'controlPlanePartitionHeal', actor: 'fault', params: cands,
      enabled: (s, p) => cand(s, p).partitioned,
      recipe: (d, p) => {
        dcand(d, p).partitioned = false;
      },
      summary: (p) => `the partition of ${p} heals`,
    }),
    def<string>({
      name: 'etcd-member-loss', budget: 'etcdMemberLoss', actor: 'fault',
      params: etcdMembers,
      enabled: (s, p) => s.etcd[Number(p.slice(5)) - 1],
      recipe: (d, p) => {
        d.etcd[Number(p.slice(5)) - 1] = false;
      },
      summary: (p) => `${p} is lost`,
    }),
    def<string>({
      name: 'apiserver-loss', budget: 'apiserverLoss', actor: 'fault',
      params: apiservers,
      enabled: (s, p) => s.apiservers[Number(p.slice('kube-apiserver-'.length)) - 1],
      recipe: (d, p) => {
        d.apiservers[Number(p.slice('kube-apiserver-'.length)) - 1] = false;
      },
      summary: (p) => `${p} is lost`,
    }),
    def<string>({
      name: 'etcd-member-restore', budget: 'etcdMemberRestore', actor: 'fault',
      params: etcdMembers,
      enabled: (s, p) => !s.etcd[Number(p.slice(5)) - 1],
      recipe: (d, p) => {
        d.etcd[Number(p.slice(5)) - 1] = true;
      },
      summary: (p) => `${p} is restored and rejoins`,
    }),
    def<string>({
      name: 'apiserver-restore', budget: 'apiserverRestore', actor: 'fault',
      params: apiservers,
      enabled: (s, p) => !s.apiservers[Number(p.slice('kube-apiserver-'.length)) - 1],
      recipe: (d, p) => {
        d.apiservers[Number(p.slice('kube-apiserver-'.length)) - 1] = true;
      },
      summary: (p) => `${p} is restored`,
    }),
    def<null>({
      name: 'apiserver-etcd-outage', budget: 'apiserverEtcdOutage', actor: 'fault', params: () => ONCE,
      enabled: (s) => s.kubeletApiOutage === 0,
      recipe: (d) => {
        d.kubeletApiOutage = f.apiserverEtcdOutageDuration;
      },
      summary: () => `the kube-apiserver the kubelets reach loses etcd for ${f.apiserverEtcdOutageDuration}s (the control plane's instance keeps it)`,
    }),
    def<string>({
      name: 'process-pause', budget: 'processPause', actor: 'fault', params: cands,
      enabled: (s, p) => running(cand(s, p)),
      recipe: (d, p) => {
        dcand(d, p).paused = f.processPauseDuration;
      },
      summary: (p) => `${p} is paused (stop-the-world) for ${f.processPauseDuration}s`,
    }),
    def<string>({
      name: 'clock-drift', budget: 'clockDrift', actor: 'fault', params: cands,
      enabled: (s, p) => cand(s, p).up && cand(s, p).rate !== f.clockDriftRate,
      recipe: (d, p) => {
        dcand(d, p).rate = f.clockDriftRate;
      },
      summary: (p) => `the clock of ${p} now runs at ${f.clockDriftRate}× real time`,
    }),
  ];
}

const opWrite = (s: ClusterState): boolean => canWrite(s, false);

/** The API in the etcd backup an `etcd-restore` goes back to: the initial state's (the backup taken before the incident). */
const backups = new WeakMap<Ctx, ClusterState['api']>();
function backupOf(ctx: Ctx): ClusterState['api'] {
  let api = backups.get(ctx);
  if (api === undefined) backups.set(ctx, (api = initialStates(ctx)[0].api));
  return api;
}

function operatorDefs(ctx: Ctx): Def<JsonValue>[] {
  const objNodes = (s: ClusterState): string[] => s.api.nodes.flatMap((o, n) => (o !== null ? [nodeName(n)] : []));
  return [
    def<string>({
      // SIGTERM to a control-plane component (a rolling upgrade, a drain of its node): its
      // context is cancelled and it exits. A leading kube-scheduler first releases its Lease:
      // client-go's release() (leaderelection.go, ReleaseOnCancel, set in kube-scheduler's
      // options.go, not in kube-controller-manager) writes an empty holderIdentity with
      // leaseDurationSeconds 1, if it can write and the record is still its own; a follower
      // then acquires on its next try. A process paused by a stop-the-world pause handles the
      // signal when it resumes, so it cannot be stopped cleanly while paused.
      name: 'component-stop', budget: 'componentStop', actor: 'operator', params: cands,
      enabled: (s, p) => cand(s, p).up && cand(s, p).paused === 0,
      recipe: (d, p, s) => {
        const { e, c } = parseCandidate(p);
        const old = s.candidates[e][c];
        if (e === SCHED && old.leader && s.api.leases[e].holder === c && canWrite(s, old.partitioned)) {
          d.api.leases[e].holder = -1;
          d.api.leases[e].durationSeconds = 1;
          // The handover starts (leader-handover-within, with jittered tries only).
          if (ctx.jitteredTries) d.api.leases[e].releasedFor = 0;
          d.candidates[e].forEach((other, i) => {
            if (i === c) return;
            other.unseen = true;
            other.observedAge = 0;
          });
        }
        d.candidates[e][c] = { ...freshFollower(old.rate), up: false, partitioned: old.partitioned } as Draft<Candidate>;
      },
      summary: (p) => (parseCandidate(p).e === SCHED ? `stops ${p} cleanly (SIGTERM): a leader releases its Lease on the way out (ReleaseOnCancel)` : `stops ${p} cleanly (SIGTERM): it exits without releasing its Lease (no ReleaseOnCancel)`),
    }),
    def<null>({
      // https://kubernetes.io/docs/tasks/administer-cluster/configure-upgrade-etcd/#restoring-an-etcd-cluster:
      // stop every kube-apiserver, restore etcd, start them, and restart the control-plane components.
      // Kubelets keep running: their pod watch asks for a revision the restored etcd is behind of.
      name: 'etcd-restore', budget: 'etcdRestore', actor: 'operator', to: API,
      params: () => ONCE,
      enabled: () => true,
      recipe: (d, _p, s) => {
        d.api = castDraft(backupOf(ctx));
        s.nodes.forEach((n, i) => {
          if (n.up && n.kubeletUp) d.nodes[i].podWatchStuck = true;
        });
        s.candidates.forEach((list, e) =>
          list.forEach((k, c) => {
            if (k.up) d.candidates[e][c] = { ...freshFollower(k.rate), partitioned: k.partitioned } as Draft<Candidate>;
          }),
        );
      },
      summary: () => 'restores etcd from the backup taken at the start and restarts kube-apiserver, kube-controller-manager and kube-scheduler (kubelets keep running)',
    }),
    def<string>({
      name: 'force-delete-pod', budget: 'forceDeletePod', actor: 'operator', to: API,
      params: (s) => s.api.pods.map((p) => p.name),
      enabled: (s, p) => opWrite(s) && s.api.pods.some((q) => q.name === p),
      recipe: (d, p) => {
        d.api.pods = d.api.pods.filter((q) => q.name !== p);
      },
      summary: (p) => `force-deletes pod ${p} (--grace-period=0 --force)`,
    }),
    def<string>({
      name: 'delete-node', budget: 'deleteNode', actor: 'operator', to: API, params: objNodes,
      enabled: (s, p) => opWrite(s) && s.api.nodes[nodeIndex(p)] !== null,
      recipe: (d, p) => {
        d.api.nodes[nodeIndex(p)] = null;
      },
      summary: (p) => `deletes the Node object ${p}`,
    }),
    def<string>({
      name: 'out-of-service-taint', budget: 'outOfServiceTaint', actor: 'operator', to: API, params: objNodes,
      enabled: (s, p) => opWrite(s) && s.api.nodes[nodeIndex(p)] !== null && !s.api.nodes[nodeIndex(p)]!.taints.includes('out-of-service:NoExecute'),
      recipe: (d, p) => {
        addSorted(d.api.nodes[nodeIndex(p)]!.taints, 'out-of-service:NoExecute');
      },
      summary: (p) => `taints ${p} node.kubernetes.io/out-of-service:NoExecute`,
    }),
    def<string>({
      name: 'cordon', budget: 'cordon', actor: 'operator', to: API, params: objNodes,
      enabled: (s, p) => opWrite(s) && s.api.nodes[nodeIndex(p)] !== null && !s.api.nodes[nodeIndex(p)]!.unschedulable,
      recipe: (d, p) => {
        d.api.nodes[nodeIndex(p)]!.unschedulable = true;
      },
      summary: (p) => `cordons ${p}`,
    }),
  ];
}
