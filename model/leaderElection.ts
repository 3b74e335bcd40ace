/**
 * client-go leader election (tools/leaderelection/leaderelection.go) for the kube-controller-manager
 * and kube-scheduler Leases. Each candidate acts on its own clock (rate), compares only local
 * times, uses its own settings (a challenger may run other flags than the holder) and the
 * holder's recorded leaseDurationSeconds:
 *
 * - The acquire loop is `wait.JitterUntil(tryAcquireOrRenew, retryPeriod, JitterFactor 1.2,
 *   sliding)`: a follower's tries are not aligned on retryPeriod. The model keeps no try schedule
 *   for followers: a follower reads a changed record as soon as it can (an urgent step: the
 *   earliest observation, hence the earliest expiry), and may try to acquire at any instant once
 *   the observed lease has expired (a non-urgent step). A try that only finds the lease still
 *   valid changes nothing and is not a step. This contains every jittered schedule, so it is
 *   sound for every safety property (a later observation or try only acquires later); it does
 *   not bound a failover's latest time by the jitter window. Tracking each follower's jittered
 *   schedule multiplied the candidates' phases (leader-failover: 770,915 states against 65,238).
 *   `model.jitteredFollowerTries` turns that schedule on (`followerTryActions`): a follower tries
 *   at once when it starts, then `Jitter(retryPeriod, 1.2)` after each try, which the model takes
 *   at any instant from retryPeriod to 2.2 × retryPeriod rounded up to the tick after the last
 *   one (a try at an instant stands for one before the next tick, so a gap just under 2.2 ×
 *   retryPeriod can span that many ticks): `retryIn` counts down past 0 to minus that window. Each
 *   try is a step (it reads the record, which is then observed at that try, and may acquire);
 *   no follower reads the record between its tries. This bounds a handover
 *   (`leader-handover-within`), at the cost of the states above.
 * - `tryAcquireOrRenew`: the leader's fast path is an optimistic Update that fails with Conflict
 *   if anyone else wrote the record; otherwise GET (a linearizable read, so it needs etcd
 *   quorum), set observedTime = local now if the record changed, fail while another holder's lease
 *   is valid (`observedTime + leaseDurationSeconds` strictly after now), else Update (CAS).
 * - A leader renews every retryPeriod without jitter (`wait.UntilWithContext` around
 *   `PollUntilContextTimeout(retryPeriod, renewDeadline)`) and stops leading when a renewal has
 *   not succeeded for retryPeriod + renewDeadline; the process then exits and restarts as a
 *   follower that has observed nothing.
 * - No fencing: a leader resumed from a pause runs its controllers' due work and its renew loop
 *   in either order (`afterPause`), so a stale leader may write before it learns it lost the lease.
 *
 * Drifting clocks and the tick: a clock whose rate is not 1 crosses thresholds between ticks. A
 * follower's lease-expiry test at an instant stands for a try anywhere before the next tick
 * (`observedAge + rate × tick` past the duration), a leader's give-up is taken at the first tick
 * at or after its deadline: both round toward two leaders, so a rate skew beyond
 * leaseDuration / (renewDeadline + retryPeriod) is never missed; a counterexample within one tick
 * of that boundary may be slightly early. With rate 1 everything falls on the grid and is exact.
 *
 * ReleaseOnCancel: a clean shutdown (`component-stop`, faults.ts) of a leading kube-scheduler
 * releases its Lease, as kube-scheduler sets it; kube-controller-manager does not. A leader that
 * steps down after failed renewals releases nothing here: either it cannot write (a release is an
 * Update like the renewals that failed) or the record is no longer its own (release() checks). Not modelled: the 5 s HTTP timeout, the health check.
 */
import type { StepDescription } from '../checker/model.js';
import { type Draft } from 'immer';
import { produce } from './immer.js';
import { API, clusterAction, type ClusterAction, type Ctx } from './context.js';
import { byShape, apiReachable, candidateName, canWrite, ELECTION_NAMES, KCM, quorum, running, type Candidate, type ClusterState, type ControllerManagerLocal } from './state.js';

export interface CandidateRef {
  readonly e: number;
  readonly c: number;
}

export function candidateRefs(s: ClusterState): CandidateRef[] {
  const out: CandidateRef[] = [];
  for (let e = 0; e < 2; e++) for (let c = 0; c < s.candidates[e].length; c++) out.push({ e, c });
  return out;
}

export function parseCandidate(name: string): CandidateRef {
  // Guards parse their parameter on every state: the few names there are are parsed once.
  let ref = parsedCandidates.get(name);
  if (ref === undefined) {
    const e = name.startsWith(ELECTION_NAMES[0]) ? 0 : 1;
    ref = Object.freeze({ e, c: Number(name.slice(ELECTION_NAMES[e].length + 1)) - 1 });
    if (parsedCandidates.size < 10_000) parsedCandidates.set(name, ref);
  }
  return ref;
}
const parsedCandidates = new Map<string, CandidateRef>();

/**
 * A kube-controller-manager's controllers as they start on acquiring the lease: empty memory
 * ("Missing timestamp for Node. Assuming now as a timestamp"). For the initial steady state,
 * `lastPassAgo` says how long ago the last monitor pass ran: it probed then, and the renewal made
 * since is not yet seen. A Node object without a Ready condition is probed from its creation
 * (`node.CreationTimestamp` when the map has no entry), which for a kubelet that never ran is the
 * time since T+0 its node keeps (`sinceHeartbeat`); at T+0 it is new and not yet observed.
 */
export function freshControllers(ctx: Ctx, monitorIn = 0, gcIn = 0, lastPassAgo = 0, s?: ClusterState): ControllerManagerLocal {
  const n = ctx.config.cluster.nodes;
  const firstNew = n - ctx.config.cluster.newNodes;
  return {
    monitorIn,
    gcIn,
    nodes: Array.from({ length: n }, (_, i) => {
      if (s === undefined) return i < firstNew ? { sinceProbe: lastPassAgo, unseen: lastPassAgo > 0, observed: 'True' as const } : { sinceProbe: 0, unseen: false, observed: 'None' as const };
      return s.api.nodes[i]?.ready === 'None' ? { sinceProbe: Math.min(s.nodes[i].sinceHeartbeat, ctx.probeCap), unseen: false, observed: 'True' as const } : { sinceProbe: 0, unseen: false, observed: 'True' as const };
    }),
    zones: Array.from({ length: ctx.config.cluster.zones }, () => ({ state: 'Normal' as const, qps: ctx.config.kubeControllerManager.nodeEvictionRate, tokenIn: 0 })),
    disruptionMode: false,
    evictions: [],
    gcMissing: Array.from({ length: n }, () => -1),
  };
}

/** A follower that has observed nothing yet (a process just started). Followers keep no try schedule (see the header). */
export function freshFollower(rate: number): Candidate {
  return { up: true, paused: 0, partitioned: false, rate, leader: false, retryIn: 0, renewAge: 0, observedAge: 0, observedHolder: -2, observedDuration: 0, unseen: true, ctrl: null, afterPause: 'none', assumed: null };
}

function stepDownDue(ctx: Ctx, s: ClusterState, { e, c }: CandidateRef): boolean {
  if (ctx.leaderElectionInert) return false;
  const k = s.candidates[e][c];
  const le = ctx.candidateElection[e][c];
  return running(k) && k.leader && k.afterPause === 'none' && k.renewAge >= le.retryPeriod + le.renewDeadline;
}

function renewDue(s: ClusterState, { e, c }: CandidateRef): boolean {
  const k = s.candidates[e][c];
  return running(k) && k.leader && k.afterPause === 'none' && k.retryIn <= 0;
}

/**
 * With jittered tries: whether follower (e, c) tries now. `urgent`: it must (it has just started,
 * or its jitter window is over); otherwise it may (past retryPeriod, within the window).
 */
function followerTryDue(ctx: Ctx, s: ClusterState, { e, c }: CandidateRef, urgent: boolean): boolean {
  const k = s.candidates[e][c];
  if (!running(k) || k.leader) return false;
  const window = ctx.tryWindow[e][c];
  const over = k.observedHolder === -2 || k.retryIn <= -window + 1e-9;
  return urgent ? over : !over && k.retryIn <= 1e-9;
}

/** A follower that has not read the record since it changed, and can read it now (a linearizable GET). */
function observeDue(s: ClusterState, { e, c }: CandidateRef): boolean {
  const k = s.candidates[e][c];
  return running(k) && !k.leader && (k.unseen || k.observedHolder === -2) && apiReachable(s, k.partitioned) && quorum(s);
}

/**
 * Whether a lease observed `observedAge` local seconds ago with `duration` is still valid for a
 * try at this instant: `observedTime + duration` strictly after now for every moment before the
 * next tick (see the header on drifting clocks). With rate 1 and whole ticks: observedAge < duration.
 */
function stillValid(ctx: Ctx, observedAge: number, duration: number, rate: number): boolean {
  return observedAge + rate * ctx.tick <= duration + 1e-9;
}

type Outcome = 'renewed' | 'acquired' | 'held-by-other' | 'conflict' | 'unreachable';

/** The result of one tryAcquireOrRenew of candidate (e, c) from state s. */
export function tryOutcome(ctx: Ctx, s: ClusterState, { e, c }: CandidateRef): Outcome {
  const k = s.candidates[e][c];
  if (!apiReachable(s, k.partitioned) || !quorum(s)) return 'unreachable';
  if (k.leader && k.observedAge < k.observedDuration && !k.unseen && k.observedHolder === c) return 'renewed';
  const record = s.api.leases[e];
  const fresh = k.unseen || k.observedHolder === -2;
  const observedAge = fresh ? 0 : k.observedAge;
  const duration = fresh ? record.durationSeconds : k.observedDuration;
  if (record.holder >= 0 && record.holder !== c && (fresh || stillValid(ctx, observedAge, duration, k.rate))) return k.leader ? 'conflict' : 'held-by-other';
  if (!canWrite(s, k.partitioned)) return 'unreachable';
  return record.holder === c && k.leader ? 'renewed' : 'acquired';
}

function tryApply(ctx: Ctx, s: ClusterState, ref: CandidateRef): ClusterState {
  const { e, c } = ref;
  const outcome = tryOutcome(ctx, s, ref);
  const le = ctx.candidateElection[e][c];
  return produce(s, (d) => {
    const k = d.candidates[e][c];
    k.retryIn = le.retryPeriod;
    if (outcome === 'unreachable') return;
    const record = d.api.leases[e];
    if (k.unseen || k.observedHolder === -2) {
      k.observedAge = 0;
      k.observedHolder = record.holder;
      k.observedDuration = record.durationSeconds;
      k.unseen = false;
    }
    if (outcome === 'held-by-other' || outcome === 'conflict') return;
    if (record.holder !== c) record.transitioned = true;
    record.holder = c;
    delete record.releasedFor;
    record.durationSeconds = le.leaseDuration;
    k.observedAge = 0;
    k.observedHolder = c;
    k.observedDuration = le.leaseDuration;
    k.renewAge = 0;
    k.retryIn = le.retryPeriod; // the renew loop starts: no jitter
    if (!k.leader) {
      k.leader = true;
      if (e === KCM) k.ctrl = freshControllers(ctx, 0, 0, 0, s) as Draft<ControllerManagerLocal>;
    }
    d.candidates[e].forEach((other, i) => {
      if (i === c) return;
      other.unseen = true;
      // Unread until the next try re-observes the record: a constant keeps try times from multiplying states.
      other.observedAge = 0;
    });
  });
}

/** A person's description of a try of candidate `name` from state `b`. */
function describeTry(ctx: Ctx, b: ClusterState, name: string): StepDescription {
  const ref = parseCandidate(name);
  const o = tryOutcome(ctx, b, ref);
  const holder = b.api.leases[ref.e].holder;
  const text: Record<Outcome, string> = {
    renewed: `renews the ${ELECTION_NAMES[ref.e]} Lease`,
    acquired: `acquires the ${ELECTION_NAMES[ref.e]} Lease${holder >= 0 ? ` from ${candidateName(ref.e, holder)}` : ''}`,
    'held-by-other': `sees the Lease held by ${holder >= 0 ? candidateName(ref.e, holder) : 'nobody'}; waits`,
    conflict: `fails to renew: the Lease is held by ${holder >= 0 ? candidateName(ref.e, holder) : 'nobody'}`,
    unreachable: 'cannot reach the API; try fails',
  };
  return { actor: `${name}/leader-election`, summary: `${name} ${text[o]}`, to: o === 'unreachable' ? [] : [...API], routine: o === 'renewed' || o === 'held-by-other', routineKind: 'leader-election rounds' };
}

/** The parameters of an action that can never be enabled in this configuration. */
const NO_CANDIDATES: never[] = [];

export function leaderElectionActions(ctx: Ctx): ClusterAction[] {
  const refs = byShape((s: ClusterState): string[] => candidateRefs(s).map(({ e, c }) => candidateName(e, c)));
  // Urgent guards are asked on every quiet state: where an action can never be enabled it lists
  // no candidates, so nothing is asked (no pause possible: no resumed leader races; leader
  // election inert: no leader steps down, renews or observes). The guards still say so
  // themselves, for a step named by a trace.
  const pausable = ctx.possible.count['process-pause'] > 0;
  const active = !ctx.leaderElectionInert;
  const resumes = byShape((s) => refs(s).flatMap((candidate) => [{ candidate, first: 'renew-loop' as const }, { candidate, first: 'controllers' as const }]));
  return [
    clusterAction<{ candidate: string; first: 'renew-loop' | 'controllers' }>({
      name: 'resume-after-pause',
      urgent: true,
      params: pausable ? resumes : NO_CANDIDATES,
      enabled: (s, p) => {
        const { e, c } = parseCandidate(p.candidate);
        return s.candidates[e][c].afterPause === 'race' && running(s.candidates[e][c]);
      },
      apply: (s, p) => {
        const { e, c } = parseCandidate(p.candidate);
        return produce(s, (d) => {
          d.candidates[e][c].afterPause = p.first === 'renew-loop' ? 'none' : 'stale';
        });
      },
      describe: (_b, p) => ({
        actor: `${p.candidate}/leader-election`,
        summary: p.first === 'renew-loop' ? `${p.candidate} resumes; its renew loop runs first` : `${p.candidate} resumes; its controllers run before its renew loop notices anything (no fencing)`,
        to: [],
      }),
    }),
    clusterAction<string>({
      name: 'leader-step-down',
      urgent: true,
      params: active ? refs : NO_CANDIDATES,
      enabled: (s, p) => stepDownDue(ctx, s, parseCandidate(p)),
      apply: (s, p) => {
        const { e, c } = parseCandidate(p);
        return produce(s, (d) => {
          d.candidates[e][c] = freshFollower(s.candidates[e][c].rate) as Draft<Candidate>;
          d.candidates[e][c].partitioned = s.candidates[e][c].partitioned;
        });
      },
      describe: (_b, p) => ({ actor: `${p}/leader-election`, summary: `${p} stops leading (renew deadline passed) and restarts`, to: [] }),
    }),
    clusterAction<string>({
      name: 'leader-renew',
      urgent: true,
      params: active ? refs : NO_CANDIDATES,
      enabled: (s, p) => !ctx.leaderElectionInert && renewDue(s, parseCandidate(p)),
      apply: (s, p) => tryApply(ctx, s, parseCandidate(p)),
      describe: (b, p) => describeTry(ctx, b, p),
    }),
    clusterAction<string>({
      // With jittered tries a follower reads the record only at its tries.
      name: 'leader-observe',
      urgent: true,
      params: active && !ctx.jitteredTries ? refs : NO_CANDIDATES,
      enabled: (s, p) => !ctx.leaderElectionInert && !ctx.jitteredTries && observeDue(s, parseCandidate(p)),
      apply: (s, p) => {
        const { e, c } = parseCandidate(p);
        return produce(s, (d) => {
          const k = d.candidates[e][c];
          const record = s.api.leases[e];
          k.observedAge = 0;
          k.observedHolder = record.holder;
          k.observedDuration = record.durationSeconds;
          k.unseen = false;
        });
      },
      describe: (b, p) => {
        const { e } = parseCandidate(p);
        const holder = b.api.leases[e].holder;
        return { actor: `${p}/leader-election`, summary: `${p} reads the Lease: held by ${holder >= 0 ? candidateName(e, holder) : 'nobody'}`, to: ['kube-apiserver'], routine: true, routineKind: 'Lease reads' };
      },
    }),
  ];
}

/**
 * A follower's successful try: at any instant once the lease it observed has expired (not
 * urgent: the jitter of `wait.JitterUntil`, see the header).
 */
export function acquireActions(ctx: Ctx): ClusterAction[] {
  const refs = byShape((s: ClusterState): string[] => candidateRefs(s).map(({ e, c }) => candidateName(e, c)));
  // Asked on every quiet state: lists no candidates where leader election is inert, or where
  // followers try on their jittered schedule (`followerTryActions`).
  const active = !ctx.leaderElectionInert && !ctx.jitteredTries;
  return [
    clusterAction<string>({
      name: 'leader-try-acquire',
      urgent: false,
      fair: 'strong', // an expired Lease is taken
      params: active ? refs : NO_CANDIDATES,
      enabled: (s, p) => {
        if (!active) return false;
        const ref = parseCandidate(p);
        const k = s.candidates[ref.e][ref.c];
        return running(k) && !k.leader && !k.unseen && k.observedHolder !== -2 && tryOutcome(ctx, s, ref) === 'acquired';
      },
      apply: (s, p) => tryApply(ctx, s, parseCandidate(p)),
      describe: (b, p) => describeTry(ctx, b, p),
    }),
  ];
}

/**
 * With `model.jitteredFollowerTries`: a follower's tries on its own `wait.JitterUntil` schedule
 * (see the header), each one `tryAcquireOrRenew` whatever it finds. `follower-try` may come at
 * any instant of the jitter window, `follower-try-due` must come when the window is over (or at
 * once for a follower that has just started: JitterUntil calls it before waiting).
 */
export function followerTryActions(ctx: Ctx): ClusterAction[] {
  const refs = byShape((s: ClusterState): string[] => candidateRefs(s).map(({ e, c }) => candidateName(e, c)));
  const active = !ctx.leaderElectionInert && ctx.jitteredTries;
  return ([true, false] as const).map((urgent) =>
    clusterAction<string>({
      name: urgent ? 'follower-try-due' : 'follower-try',
      urgent,
      params: active ? refs : NO_CANDIDATES,
      enabled: (s, p) => active && followerTryDue(ctx, s, parseCandidate(p), urgent),
      apply: (s, p) => tryApply(ctx, s, parseCandidate(p)),
      describe: (b, p) => describeTry(ctx, b, p),
    }),
  );
}
