/**
 * client-go leader election (tools/leaderelection/leaderelection.go) for the kube-controller-manager
 * and kube-scheduler Leases. Each candidate acts on its own clock (rate), compares only local
 * times, and uses the holder's recorded leaseDurationSeconds:
 *
 * - `tryAcquireOrRenew` every retryPeriod: the leader's fast path is an optimistic Update that
 *   fails with Conflict if anyone else wrote the record; otherwise GET (a linearizable read, so it
 *   needs etcd quorum), set observedTime = local now if the record changed, fail if another holder's
 *   lease is still valid (`observedTime + leaseDurationSeconds > now`), else Update (CAS).
 * - A leader that has not renewed for retryPeriod + renewDeadline stops leading (the renew loop is
 *   `Until(PollUntilContextTimeout(retryPeriod, renewDeadline))`, started retryPeriod after the last
 *   success) and exits; the process restarts as a follower that has observed nothing.
 *
 * "Acting as leader" is believing it leads while running and not paused. Not modelled: the 1.2
 * jitter of the acquire loop (retries are exactly retryPeriod apart), ReleaseOnCancel (a release
 * happens only on a clean shutdown, which no fault here performs), the 5 s HTTP timeout.
 */
import { produce, type Draft } from 'immer';
import { API, clusterAction, type ClusterAction, type Ctx } from './context.js';
import { apiReachable, candidateName, canWrite, ELECTION_NAMES, KCM, quorum, running, type Candidate, type ClusterState, type ControllerManagerLocal } from './state.js';

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
  const e = name.startsWith(ELECTION_NAMES[0]) ? 0 : 1;
  return { e, c: Number(name.slice(ELECTION_NAMES[e].length + 1)) - 1 };
}

/**
 * A kube-controller-manager's controllers as they start on acquiring the lease: empty memory
 * ("Missing timestamp for Node. Assuming now as a timestamp"). For the initial steady state,
 * `lastPassAgo` says how long ago the last monitor pass ran: it probed then, and the renewal made
 * since is not yet seen.
 */
export function freshControllers(ctx: Ctx, monitorIn = 0, gcIn = 0, lastPassAgo = 0): ControllerManagerLocal {
  const n = ctx.config.cluster.nodes;
  return {
    monitorIn,
    gcIn,
    nodes: Array.from({ length: n }, () => ({ sinceProbe: lastPassAgo, unseen: lastPassAgo > 0 })),
    zones: Array.from({ length: ctx.config.cluster.zones }, () => ({ state: 'Normal' as const, tokenIn: 0 })),
    disruptionMode: false,
    evictions: [],
    gcMissing: Array.from({ length: n }, () => -1),
  };
}

/** A follower that has observed nothing yet (a process just started). */
export function freshFollower(rate: number, retryIn: number): Candidate {
  return { up: true, paused: 0, partitioned: false, rate, leader: false, retryIn, renewAge: 0, observedAge: 0, observedHolder: -2, observedDuration: 0, unseen: true, ctrl: null };
}

function stepDownDue(ctx: Ctx, s: ClusterState, { e, c }: CandidateRef): boolean {
  if (ctx.leaderElectionInert) return false;
  const k = s.candidates[e][c];
  const le = ctx.leaderElection[e];
  return running(k) && k.leader && k.renewAge >= le.retryPeriod + le.renewDeadline;
}

function tryDue(s: ClusterState, { e, c }: CandidateRef, leader: boolean): boolean {
  const k = s.candidates[e][c];
  return running(k) && k.leader === leader && k.retryIn <= 0;
}

type Outcome = 'renewed' | 'acquired' | 'held-by-other' | 'conflict' | 'unreachable';

/** The result of one tryAcquireOrRenew of candidate (e, c) from state s. */
export function tryOutcome(ctx: Ctx, s: ClusterState, { e, c }: CandidateRef): Outcome {
  const k = s.candidates[e][c];
  if (!apiReachable(s, k.partitioned) || !quorum(s)) return 'unreachable';
  if (k.leader && k.observedAge < k.observedDuration && !k.unseen && k.observedHolder === c) return 'renewed';
  const record = s.api.leases[e];
  const observedAge = k.unseen || k.observedHolder === -2 ? 0 : k.observedAge;
  const duration = k.unseen || k.observedHolder === -2 ? record.durationSeconds : k.observedDuration;
  if (record.holder >= 0 && record.holder !== c && observedAge < duration) return k.leader ? 'conflict' : 'held-by-other';
  if (!canWrite(s, k.partitioned)) return 'unreachable';
  return record.holder === c && k.leader ? 'renewed' : 'acquired';
}

function tryApply(ctx: Ctx, s: ClusterState, ref: CandidateRef): ClusterState {
  const { e, c } = ref;
  const outcome = tryOutcome(ctx, s, ref);
  const le = ctx.leaderElection[e];
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
    record.durationSeconds = le.leaseDuration;
    k.observedAge = 0;
    k.observedHolder = c;
    k.observedDuration = le.leaseDuration;
    k.renewAge = 0;
    if (!k.leader) {
      k.leader = true;
      if (e === KCM) k.ctrl = freshControllers(ctx) as Draft<ControllerManagerLocal>;
    }
    d.candidates[e].forEach((other, i) => {
      if (i !== c) other.unseen = true;
    });
  });
}

export function leaderElectionActions(ctx: Ctx): ClusterAction[] {
  const refs = (s: ClusterState): string[] => candidateRefs(s).map(({ e, c }) => candidateName(e, c));
  const describeTry = (b: ClusterState, name: string): { actor: string; summary: string; to: string[]; routine: boolean } => {
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
    return { actor: `${name}/leader-election`, summary: `${name} ${text[o]}`, to: o === 'unreachable' ? [] : [...API], routine: o === 'renewed' || o === 'held-by-other' };
  };
  return [
    clusterAction<string>({
      name: 'leader-step-down',
      urgent: true,
      params: refs,
      enabled: (s, p) => stepDownDue(ctx, s, parseCandidate(p)),
      apply: (s, p) => {
        const { e, c } = parseCandidate(p);
        return produce(s, (d) => {
          d.candidates[e][c] = freshFollower(s.candidates[e][c].rate, ctx.leaderElection[e].retryPeriod) as Draft<Candidate>;
          d.candidates[e][c].partitioned = s.candidates[e][c].partitioned;
        });
      },
      describe: (_b, p) => ({ actor: `${p}/leader-election`, summary: `${p} stops leading (renew deadline passed) and restarts`, to: [] }),
    }),
    clusterAction<string>({
      name: 'leader-renew',
      urgent: true,
      params: refs,
      enabled: (s, p) => !ctx.leaderElectionInert && tryDue(s, parseCandidate(p), true),
      apply: (s, p) => tryApply(ctx, s, parseCandidate(p)),
      describe: (b, p) => describeTry(b, p),
    }),
    clusterAction<string>({
      name: 'leader-try-acquire',
      urgent: true,
      params: refs,
      enabled: (s, p) => !ctx.leaderElectionInert && tryDue(s, parseCandidate(p), false),
      apply: (s, p) => tryApply(ctx, s, parseCandidate(p)),
      describe: (b, p) => describeTry(b, p),
    }),
  ];
}
