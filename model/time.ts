/**
 * The tick: one quantum of real time passes. Enabled only when no urgent action is due (periodic
 * actions of live components are urgent). Every timer is relative: countdowns stop at 0 (where
 * their action is due), "time since" counters saturate just past the largest constant they are
 * compared with, so states recur. A candidate's timers run at its own clock rate, also while it
 * is paused (its wall clock goes on); a crashed process or node keeps no time.
 *
 * Written without immer: the tick is the most frequent step, and copying only the parts whose
 * timers move (sharing every other subtree: each part returns itself when none of its timers
 * moved) is several times cheaper than a draft.
 */
import { clusterAction, type ClusterAction, type Ctx } from './context.js';
import { candidateWith, canWrite, conditionNoExecute, running, ctrlWith, healthWith, kubeletAlive, nodeLive, nodeWithTimers, stateWith, syncPodReadiness, type Candidate, type ClusterState, type ControllerManagerLocal, type NodeReal } from './state.js';

const r6 = (x: number): number => Math.round(x * 1e6) / 1e6;
const down = (x: number, by: number): number => (x <= by ? 0 : r6(x - by));
const up = (x: number, by: number, cap: number): number => Math.min(cap, r6(x + by));

function tickNode(ctx: Ctx, s: ClusterState, n: number): NodeReal {
  const node = s.nodes[n];
  const dt = ctx.tick;
  const heartbeatIn = kubeletAlive(s, n) && node.heartbeatIn > 0 ? down(node.heartbeatIn, dt) : node.heartbeatIn;
  const sinceHeartbeat = node.sinceHeartbeat < ctx.heartbeatCap ? up(node.sinceHeartbeat, dt, ctx.heartbeatCap) : node.sinceHeartbeat;
  const sinceNoExecute = node.sinceNoExecute >= 0 && node.sinceNoExecute < ctx.noExecuteCap ? up(node.sinceNoExecute, dt, ctx.noExecuteCap) : node.sinceNoExecute;
  const liveFor = nodeLive(s, n) && node.liveFor < ctx.liveCap ? up(node.liveFor, dt, ctx.liveCap) : node.liveFor;
  const runtimeDownFor = node.runtimeDownFor >= 0 && node.runtimeDownFor < ctx.runtimeDownCap ? up(node.runtimeDownFor, dt, ctx.runtimeDownCap) : node.runtimeDownFor;
  // Grace periods run while the kubelet does (it holds the timers; see syncHistory) and can
  // reach its runtime (a StopContainer call fails with it; the kill starts over on recovery).
  const terminating = node.terminating !== undefined && kubeletAlive(s, n) && node.runtimeUp && node.terminating.some(killPending) ? node.terminating.map((t) => (t.killIn > 0 ? { pod: t.pod, killIn: down(t.killIn, dt) } : t)) : node.terminating;
  // A shutdown's delay is systemd's: it runs whether the kubelet does or not.
  const shutdownIn = node.shutdownIn !== undefined && node.shutdownIn > 0 ? down(node.shutdownIn, dt) : node.shutdownIn;
  if (
    heartbeatIn === node.heartbeatIn && sinceHeartbeat === node.sinceHeartbeat && sinceNoExecute === node.sinceNoExecute &&
    liveFor === node.liveFor && runtimeDownFor === node.runtimeDownFor && terminating === node.terminating && shutdownIn === node.shutdownIn
  ) return node;
  return nodeWithTimers(node, { heartbeatIn, sinceHeartbeat, sinceNoExecute, liveFor, runtimeDownFor, terminating, shutdownIn });
}

const killPending = (t: { readonly killIn: number }): boolean => t.killIn > 0;

function tickControllers(ctx: Ctx, ctrl: ControllerManagerLocal, local: number): ControllerManagerLocal {
  const monitorIn = ctrl.monitorIn > 0 ? down(ctrl.monitorIn, local) : ctrl.monitorIn;
  const gcIn = ctrl.gcIn > 0 && !ctx.podGcInert ? down(ctrl.gcIn, local) : ctrl.gcIn;
  let zones = ctrl.zones;
  if (zones.some(tokenPending)) zones = zones.map((z) => (z.tokenIn > 0 ? { state: z.state, qps: z.qps, tokenIn: down(z.tokenIn, local) } : z));
  const probeCap = ctx.probeCap;
  let nodes = ctrl.nodes;
  if (anyBelow(nodes, probeCap)) nodes = nodes.map((h) => (h.sinceProbe < probeCap ? healthWith(h, { sinceProbe: up(h.sinceProbe, local, probeCap) }) : h));
  let evictions = ctrl.evictions;
  if (evictions.some(evictionPending)) evictions = evictions.map((x) => (x.in > 0 ? { pod: x.pod, in: down(x.in, local) } : x));
  const quarantine = ctx.config.kubeControllerManager.podGcQuarantine;
  let gcMissing = ctrl.gcMissing;
  if (anyInQuarantine(gcMissing, quarantine)) gcMissing = gcMissing.map((m) => (m >= 0 && m < quarantine ? up(m, local, quarantine) : m));
  if (monitorIn === ctrl.monitorIn && gcIn === ctrl.gcIn && zones === ctrl.zones && nodes === ctrl.nodes && evictions === ctrl.evictions && gcMissing === ctrl.gcMissing) return ctrl;
  return ctrlWith(ctrl, { monitorIn, gcIn, nodes, zones, evictions, gcMissing });
}

const tokenPending = (z: { readonly tokenIn: number }): boolean => z.tokenIn > 0;
const evictionPending = (x: { readonly in: number }): boolean => x.in > 0;

function anyBelow(nodes: ControllerManagerLocal['nodes'], probeCap: number): boolean {
  for (let i = 0; i < nodes.length; i++) if (nodes[i].sinceProbe < probeCap) return true;
  return false;
}

function anyInQuarantine(gcMissing: ControllerManagerLocal['gcMissing'], quarantine: number): boolean {
  for (let i = 0; i < gcMissing.length; i++) if (gcMissing[i] >= 0 && gcMissing[i] < quarantine) return true;
  return false;
}

function tickCandidate(ctx: Ctx, k: Candidate, e: number, c: number): Candidate {
  if (!k.up) return k;
  const dt = ctx.tick;
  const le = ctx.candidateElection[e][c];
  const local = k.rate * dt;
  let { paused, afterPause, retryIn, observedAge, renewAge } = k;
  if (k.paused > 0) {
    paused = down(k.paused, dt);
    if (paused === 0 && k.leader) afterPause = 'race';
  } else if (k.afterPause === 'stale') afterPause = 'none';
  if (!ctx.leaderElectionInert) {
    if (k.leader && k.retryIn > 0) retryIn = down(k.retryIn, local);
    // A follower's next try (jittered tries): past 0 down to minus its jitter window, where it is due.
    else if (!k.leader && ctx.jitteredTries && k.retryIn > -ctx.tryWindow[e][c] + 1e-9) retryIn = Math.max(-ctx.tryWindow[e][c], r6(k.retryIn - local));
    const observedCap = Math.max(le.leaseDuration, k.observedDuration);
    if (!k.unseen && k.observedAge < observedCap) observedAge = up(k.observedAge, local, observedCap);
    const renewCap = le.retryPeriod + le.renewDeadline;
    if (k.leader && k.renewAge < renewCap) renewAge = up(k.renewAge, local, renewCap);
  }
  const ctrl = k.ctrl === null ? null : tickControllers(ctx, k.ctrl, local);
  if (paused === k.paused && afterPause === k.afterPause && retryIn === k.retryIn && observedAge === k.observedAge && renewAge === k.renewAge && ctrl === k.ctrl) return k;
  return candidateWith(k, { paused, afterPause, retryIn, observedAge, renewAge, ctrl });
}

/** The candidates of election e after the tick: the list itself when none of their timers moved. */
function tickCandidates(ctx: Ctx, list: readonly Candidate[], e: number): readonly Candidate[] {
  let out: Candidate[] | undefined;
  for (let c = 0; c < list.length; c++) {
    const next = tickCandidate(ctx, list[c], e, c);
    if (next === list[c]) continue;
    out ??= list.slice();
    out[c] = next;
  }
  return out ?? list;
}

function tick(ctx: Ctx, s: ClusterState): ClusterState {
  let nodes: NodeReal[] | undefined;
  for (let n = 0; n < s.nodes.length; n++) {
    const next = tickNode(ctx, s, n);
    if (next === s.nodes[n]) continue;
    nodes ??= s.nodes.slice();
    nodes[n] = next;
  }
  const kcm = tickCandidates(ctx, s.candidates[0], 0);
  const schedulers = tickCandidates(ctx, s.candidates[1], 1);
  const candidates = kcm === s.candidates[0] && schedulers === s.candidates[1] ? s.candidates : ([kcm, schedulers] as unknown as ClusterState['candidates']);
  const kubeletApiOutage = s.kubeletApiOutage > 0 ? down(s.kubeletApiOutage, ctx.tick) : 0;
  const sequenceIn = s.sequenceIn > 0 ? down(s.sequenceIn, ctx.tick) : s.sequenceIn;
  const leases = s.api.leases[0].releasedFor === undefined && s.api.leases[1].releasedFor === undefined ? s.api.leases : tickReleased(ctx, s, candidates);
  const api = leases === s.api.leases ? s.api : { ...s.api, leases };
  return stateWith(s, { api, nodes: nodes ?? s.nodes, candidates, kubeletApiOutage, sequenceIn });
}

/**
 * `releasedFor` of a released Lease nobody holds: grows while some standby of its election runs
 * and can write (its tries can take it), restarts at 0 while none can.
 */
function tickReleased(ctx: Ctx, s: ClusterState, candidates: ClusterState['candidates']): ClusterState['api']['leases'] {
  const next = s.api.leases.map((l, e) => {
    if (l.releasedFor === undefined) return l;
    const able = candidates[e].some((k) => running(k) && !k.leader && canWrite(s, k.partitioned));
    const releasedFor = able ? up(l.releasedFor, ctx.tick, ctx.releasedCap) : 0;
    return releasedFor === l.releasedFor ? l : { ...l, releasedFor };
  });
  return next[0] === s.api.leases[0] && next[1] === s.api.leases[1] ? s.api.leases : (next as unknown as ClusterState['api']['leases']);
}

export function tickAction(ctx: Ctx): ClusterAction {
  return clusterAction({
    name: 'tick',
    urgent: false,
    fair: 'strong', // time passes
    enabled: () => true,
    apply: (s) => tick(ctx, s),
    describe: () => ({ actor: 'clock', summary: `${ctx.tick}s pass`, to: [] }),
  });
}

/**
 * Keeps the history variables in step with the rest of the state after any step:
 * `sinceNoExecute` is 0 when a node has just got an unreachable/not-ready NoExecute taint and -1
 * when it has none; `liveFor` is 0 while the node is not live, and (an exact reduction,
 * `ctx.reductions.liveFor`) at its cap once nothing can read the difference.
 */
export function syncHistory(ctx: Ctx, s: ClusterState): ClusterState {
  let nodes: NodeReal[] | undefined;
  for (let n = 0; n < s.nodes.length; n++) {
    const node = s.nodes[n];
    const tainted = conditionNoExecute(s.api.nodes[n]);
    const sinceNoExecute = tainted ? (node.sinceNoExecute < 0 ? 0 : node.sinceNoExecute) : -1;
    const liveFor = !nodeLive(s, n) ? 0 : node.liveFor < ctx.liveCap && ctx.reductions.liveFor && liveForUnreadable(ctx, s, n) ? ctx.liveCap : node.liveFor;
    // Termination timers belong to the kubelet's pod workers and to containers that still run.
    const t = node.terminating;
    const terminating = t === undefined ? undefined : !kubeletAlive(s, n) ? [] : t.every((x) => node.running.includes(x.pod)) ? t : t.filter((x) => node.running.includes(x.pod));
    if (sinceNoExecute === node.sinceNoExecute && liveFor === node.liveFor && terminating === t) continue;
    nodes ??= [...s.nodes];
    nodes[n] = nodeWithTimers(node, { heartbeatIn: node.heartbeatIn, sinceHeartbeat: node.sinceHeartbeat, sinceNoExecute, liveFor, runtimeDownFor: node.runtimeDownFor, terminating: terminating !== undefined && terminating.length > 0 ? terminating : undefined, shutdownIn: node.shutdownIn });
  }
  return syncPodReadiness(nodes === undefined ? s : stateWith(s, { nodes }));
}

/**
 * Whether live node n's `liveFor` can be set to its cap without any property telling: its one
 * reader, `healthy-node-not-unknown`, compares it with the renew interval on the step that marks
 * the node Ready=Unknown, and the cap is one quantum past that interval. Nothing else reads it,
 * and it is 0 again whenever the node stops being live, so the two states behave alike unless a
 * mark comes before `liveFor` would have reached the cap by itself. It cannot when:
 * - every kube-controller-manager that has node health needs at least that long for its time
 *   since the last probe to reach the grace period (the only way `monitorPass` marks), at the
 *   fastest clock a drift can give it, and a manager that starts leading later (which probes
 *   every node afresh) needs at least that long from 0; or
 * - the node is already Unknown (or its Node object deleted) and can only leave Unknown by a kubelet renewal that every
 *   manager sees before its next pass (no pause holding the event, no restore from a backup, no
 *   NotReady posted by the kubelet's sync): a mark then needs the whole grace period again.
 * Nodes created during the run (Ready=None, probed from their creation by a new leader, under the
 * startup grace) are left alone.
 */
export function liveForUnreadable(ctx: Ctx, s: ClusterState, n: number): boolean {
  if (n >= ctx.config.cluster.nodes - ctx.config.cluster.newNodes) return false;
  const need = ctx.liveCap - s.nodes[n].liveFor;
  const perTick = ctx.reductions.fastestClock * ctx.tick;
  /** At least how many seconds a probe `since` ago needs to reach the grace period. */
  const toGrace = (since: number): number => Math.max(0, Math.ceil((ctx.grace - since) / perTick - 1e-6)) * ctx.tick;
  if (toGrace(0) < need) return false;
  const obj = s.api.nodes[n];
  // A deleted Node object is never marked, and with no restore from a backup it never comes back.
  if ((obj === null || obj.ready === 'Unknown') && ctx.reductions.readyLeavesUnknownOnlyByRenewal) return true;
  const managers = s.candidates[0];
  for (let c = 0; c < managers.length; c++) {
    const ctrl = managers[c].ctrl;
    if (ctrl !== null && toGrace(ctrl.nodes[n].sinceProbe) < need) return false;
  }
  return true;
}
