/**
 * Node lifecycle controller (kubernetes/kubernetes:pkg/controller/nodelifecycle), run by the
 * kube-controller-manager that believes it leads:
 *
 * - `monitorNodeHealth` every nodeMonitorPeriod: a Lease renewed since the last look sets
 *   probeTimestamp = local now; Ready becomes Unknown when now > probeTimestamp + grace. The loop
 *   is `wait.UntilWithContext`, whose period starts when a pass ends, so a pass never falls
 *   exactly on probeTimestamp + grace: it is a little after, and the test is already true on the
 *   pass at probe + grace. With whole-second ticks that is `sinceProbe >= grace`. Zone states
 *   (Normal / PartialDisruption / FullDisruption) set each zone's eviction rate; when every zone
 *   is in FullDisruption ("master disruption mode") all NoExecute taints are removed and no node
 *   is tainted until one is Ready again, and on leaving it every probeTimestamp is reset.
 * - `processTaintBaseEviction` acts on the Ready condition as observed when the pass began (the
 *   `observedReadyCondition` tryUpdateNodeHealth returns, before its own update, kept in
 *   `NodeHealth.observed`): True removes the NoExecute taints (markNodeAsReachable); Unknown or
 *   False puts the node in its zone's NoExecute taint queue, and a node already carrying the other
 *   condition's NoExecute taint has it swapped at once. So the pass that writes Unknown still sees
 *   True, and the node is queued one pass later; a node whose kubelet posts Ready=False is queued
 *   on the first pass after. A fresh leader's first pass is due at once and comes first in model
 *   order, so it queues every node already Unknown, as the source does. The tainting loop reads
 *   the node's current condition (`doNoExecuteTaintingPass`) and skips a node Ready again.
 * - NoSchedule taints follow the conditions at once (`doNoScheduleTaintingPass`, event driven).
 * - NoExecute taints (`doNoExecuteTaintingPass`) are added from the queue per zone through the
 *   zone's limiter (`ZoneLimiter`): `flowcontrol.NewTokenBucketRateLimiter(qps, burst 1)`, full
 *   when the zone is first seen, so even --node-eviction-rate=0 taints one node per zone (a zero
 *   rate spends its burst once, golang.org/x/time/rate). Rates per zone state: Normal
 *   --node-eviction-rate; PartialDisruption 0, or the secondary rate when the zone has more than
 *   --large-cluster-size-threshold nodes; FullDisruption of one zone the normal rate; master
 *   disruption mode 0 for every zone. A change goes through `SwapLimiter` (`swapLimiter`): kept
 *   when the current limiter's QPS() equals the new rate, rate 0 gives client-go's never limiter
 *   (whose QPS() reads 1), otherwise a new bucket, drained when the old one had no token. So
 *   leaving master disruption mode with --node-eviction-rate=1 keeps the never limiter of a zone
 *   still cut off, and its nodes are never tainted (kubernetes#104639, open: the model follows the
 *   source). The limiter decides in master disruption mode too (a zero-rate bucket that still
 *   holds its token is kept by the swap to 0 and admits one node).
 *
 * - A Node object without a Ready condition (`cluster.newNodes`: its kubelet never posted status)
 *   counts as not ready in its zone, calls for no NoSchedule taint (so the not-ready:NoSchedule
 *   taint the TaintNodesByCondition admission put on it at creation goes on the first pass of
 *   doNoScheduleTaintingPass, and the scheduler may bind pods to it), and is marked Unknown
 *   (reason NodeStatusNeverUpdated) --node-startup-grace-period after its creation or last Lease
 *   renewal; its observed condition is then the fake Unknown one tryUpdateNodeHealth makes, so it
 *   is queued for the unreachable NoExecute taint on that same pass.
 *
 * The 100 ms NoExecute loop acts within the instant. MarkPodsNotReady: the pods of a node not
 * Ready=True lose their Ready condition in the same step (`syncPodReadiness` after every step).
 * Not modelled: pressure conditions.
 */
import { API, clusterAction, type ClusterAction, type Ctx } from './context.js';
import { managerIndex, nodeObjectWith, apiWith, candidatesWith, candidateWith, ctrlWith, healthWith, stateWith, byShape, acting, candidateName, canWrite, KCM, nodeIndex, nodeName, type ClusterState, type NodeObject, type Taint, type ZoneLimiter, type ZoneState, NEVER_LIMITER } from './state.js';

/** ComputeZoneState: (ready, notReady) of a zone's nodes → its state. */
export function zoneState(ctx: Ctx, ready: number, notReady: number): ZoneState {
  if (ready === 0 && notReady > 0) return 'FullDisruption';
  if (notReady > 2 && notReady / (ready + notReady) >= ctx.config.kubeControllerManager.unhealthyZoneThreshold) return 'PartialDisruption';
  return 'Normal';
}

/**
 * The QPS `setLimiterInZone` asks of a zone's limiter in `state` (node_lifecycle_controller.go):
 * Normal the --node-eviction-rate; PartialDisruption `ReducedQPSFunc` (the secondary rate when
 * the zone has more than --large-cluster-size-threshold nodes, else 0); FullDisruption
 * `HealthyQPSFunc`, the normal rate (master disruption mode asks 0 of every zone instead).
 */
export function zoneQps(ctx: Ctx, state: ZoneState, zoneSize: number): number {
  const k = ctx.config.kubeControllerManager;
  if (state === 'PartialDisruption') return zoneSize > k.largeClusterSizeThreshold ? k.secondaryNodeEvictionRate : 0;
  return k.nodeEvictionRate;
}

/**
 * `RateLimitedTimedQueue.SwapLimiter(newQPS)` (scheduler/rate_limited_queue.go): nothing changes
 * when the current limiter's `QPS()` equals newQPS, and the never limiter's reads 1
 * (client-go flowcontrol `fakeNeverRateLimiter`), so after master disruption mode a rate of 1
 * keeps it and admits no node again (kubernetes#104639). A newQPS of 0 or less gives the never
 * limiter; otherwise a new bucket of burst 1, full, or drained (its next token 1/newQPS away)
 * when the old limiter had no token (`if q.limiter.TryAccept() == false { newLimiter.TryAccept() }`).
 */
export function swapLimiter(zone: ZoneLimiter, state: ZoneState, qps: number): ZoneLimiter {
  const current = zone.qps === NEVER_LIMITER ? 1 : zone.qps;
  if (current === qps) return zone.state === state ? zone : { state, qps: zone.qps, tokenIn: zone.tokenIn };
  if (qps <= 0) return { state, qps: NEVER_LIMITER, tokenIn: -1 };
  const hadToken = zone.qps !== NEVER_LIMITER && zone.tokenIn === 0;
  return { state, qps, tokenIn: hadToken ? 0 : 1 / qps };
}

/** The limiter after `TryAccept` took its token: the next one 1/qps away, or never at rate 0 (golang.org/x/time/rate spends the burst of a zero limit for good). */
export function tokenTaken(zone: ZoneLimiter): ZoneLimiter {
  return { state: zone.state, qps: zone.qps, tokenIn: zone.qps > 0 ? 1 / zone.qps : -1 };
}

/** How many of these nodes have a Node object (a zone's size in handleDisruption). */
function presentIn(nodes: readonly (NodeObject | null)[], zone: readonly number[]): number {
  let count = 0;
  for (let i = 0; i < zone.length; i++) if (nodes[zone[i]] !== null) count++;
  return count;
}

/** The NoSchedule taints a node's conditions and spec call for. */
export function wantedNoSchedule(node: NodeObject): Taint[] {
  const out: Taint[] = [];
  if (node.ready === 'Unknown') out.push('unreachable:NoSchedule');
  if (node.ready === 'False') out.push('not-ready:NoSchedule');
  if (node.unschedulable) out.push('unschedulable:NoSchedule');
  return out;
}

const NO_SCHEDULE: readonly Taint[] = ['unreachable:NoSchedule', 'not-ready:NoSchedule', 'unschedulable:NoSchedule'];

/** Whether a Node object's NoSchedule taints differ from its condition's (its taints are sorted and distinct). */
function noScheduleMismatch(node: NodeObject | null): boolean {
  if (node === null) return false;
  let unreachable = false;
  let notReady = false;
  let unschedulable = false;
  const taints = node.taints;
  for (let i = 0; i < taints.length; i++) {
    const t = taints[i];
    if (t === 'unreachable:NoSchedule') unreachable = true;
    else if (t === 'not-ready:NoSchedule') notReady = true;
    else if (t === 'unschedulable:NoSchedule') unschedulable = true;
  }
  return unreachable !== (node.ready === 'Unknown') || notReady !== (node.ready === 'False') || unschedulable !== node.unschedulable;
}

/** The NoExecute taint a not-Ready node should carry. */
function wantedNoExecute(node: NodeObject): Taint | undefined {
  if (node.ready === 'Unknown') return 'unreachable:NoExecute';
  if (node.ready === 'False') return 'not-ready:NoExecute';
  return undefined;
}

/**
 * Whether the NoExecute pass of candidate c may taint node n now: a token is free in its zone, or
 * the taint is a swap. Asked for every (manager, node) in every state, so it builds nothing, and
 * asks whether the manager can write only for a node that wants the taint.
 */
function mayTaintNoExecute(ctx: Ctx, s: ClusterState, c: number, n: number): boolean {
  const k = s.candidates[KCM][c];
  if (!acting(k) || k.ctrl === null) return false;
  if (!Number.isInteger(n) || n < 0 || n >= s.api.nodes.length) return false;
  const node = s.api.nodes[n];
  if (node === null) return false;
  const want = wantedNoExecute(node);
  if (want === undefined || node.taints.includes(want)) return false;
  const observed = k.ctrl.nodes[n].observed;
  // Not queued: this manager's last pass observed it Ready.
  if (observed === 'True' || !canWrite(s, k.partitioned)) return false;
  const other: Taint = want === 'unreachable:NoExecute' ? 'not-ready:NoExecute' : 'unreachable:NoExecute';
  // SwapNodeControllerTaint on the pass that observed the new condition, not rate limited.
  if (node.taints.includes(other)) return observed === node.ready;
  // The zone's limiter decides, in master disruption mode too (the never limiter admits none).
  return k.ctrl.zones[ctx.zoneOfNode[n]].tokenIn === 0;
}

/**
 * One node-monitor pass of manager c (monitorNodeHealth, node_lifecycle_controller.go). Written
 * without immer, like the tick: it runs on a quarter of all states, and a draft would wrap every
 * node it reads. Unchanged parts are shared.
 */
function monitorPass(ctx: Ctx, s: ClusterState, c: number): ClusterState {
  const k = s.candidates[KCM][c];
  const before = k.ctrl;
  if (before === null) return s;
  const writable = canWrite(s, k.partitioned);
  const N = s.api.nodes.length;
  const apiNodes = s.api.nodes.slice();
  let apiChanged = false;
  let health = before.nodes.slice();
  // Resumed from a pause with its controllers first, the pass can run before the lease informer
  // delivers what arrived during the pause (its renewals stay buffered for the next pass).
  const stale = k.afterPause === 'stale';
  for (let n = 0; n < N; n++) {
    const h = before.nodes[n];
    let sinceProbe = h.sinceProbe;
    let observed = h.observed;
    const renewed = h.unseen || (h.buffered === true && !stale);
    if (renewed) sinceProbe = 0;
    const node = apiNodes[n];
    if (node !== null) {
      observed = node.ready;
      // now > probeTimestamp + grace holds on the pass at probe + grace (see the header). A Node
      // object without a Ready condition gets the startup grace period, counted from its creation
      // (T+0) or its last renewal, and is then marked Unknown (NodeStatusNeverUpdated); as its
      // observed condition is the fake Unknown one, it is queued for tainting on the same pass.
      const grace = node.ready === 'None' ? ctx.startupGrace : ctx.grace;
      if (node.ready !== 'Unknown' && sinceProbe >= grace && writable) {
        apiNodes[n] = nodeObjectWith(node, { ready: 'Unknown' });
        apiChanged = true;
      }
    }
    if (renewed || observed !== h.observed) health[n] = h.buffered === true && stale ? { sinceProbe, unseen: false, observed, buffered: true } : { sinceProbe, unseen: false, observed };
  }
  // Zone states and limiters (handleDisruption). A zone is the zones of the Node objects listed:
  // one whose every Node object is deleted drops out, of the master-disruption test too, and a
  // zone's size counts its Node objects (ComputeZoneState, setLimiterInZone).
  const sizes = ctx.nodesOfZone.map((nodes) => presentIn(apiNodes, nodes));
  const states = ctx.nodesOfZone.map((nodes) => {
    let ready = 0;
    let notReady = 0;
    for (const n of nodes) {
      const node = apiNodes[n];
      if (node === null) continue;
      if (node.ready === 'True') ready++;
      else notReady++;
    }
    return zoneState(ctx, ready, notReady);
  });
  // allAreFullyDisrupted and allWasFullyDisrupted both range over the zones listed (a zone no
  // longer listed is dropped from zoneStates and skipped), so with none left both are true, and
  // when the last Node of the only healthy zone goes while the others were already Full both are
  // true too: nothing changes (the mode is entered only when a listed zone turns Full).
  const allFull = states.every((z, i) => z === 'FullDisruption' || sizes[i] === 0);
  const wasAllFull = before.zones.every((z, i) => z.state === 'FullDisruption' || sizes[i] === 0);
  const acted = !allFull || !wasAllFull;
  let disruptionMode = before.disruptionMode;
  let resetProbes = false;
  if (acted && allFull) disruptionMode = true; // entering: every limiter swapped to 0
  else if (acted && wasAllFull) {
    // Exiting: every probeTimestamp reset, every limiter set for its zone's state.
    disruptionMode = false;
    resetProbes = true;
  }
  let zones: ZoneLimiter[] | undefined;
  states.forEach((st, z) => {
    const zone = before.zones[z];
    if (!acted || sizes[z] === 0 || (zone.state === st && disruptionMode === before.disruptionMode)) return;
    // Entering master disruption mode swaps every limiter to 0; otherwise (a zone's state changed,
    // or every zone's on leaving the mode) setLimiterInZone swaps it to its state's rate.
    zones ??= before.zones.slice();
    zones[z] = swapLimiter(zone, st, disruptionMode ? 0 : zoneQps(ctx, st, sizes[z]));
  });
  if (resetProbes) health = health.map((h) => (h.sinceProbe === 0 ? h : healthWith(h, { sinceProbe: 0 })));
  if (writable) {
    for (let n = 0; n < N; n++) {
      const node = apiNodes[n];
      if (node === null) continue;
      // markNodeAsReachable keys on the condition observed when the pass began; entering master
      // disruption mode calls it on every node.
      if ((s.api.nodes[n]?.ready === 'True' || (disruptionMode && !before.disruptionMode)) && (node.taints.includes('unreachable:NoExecute') || node.taints.includes('not-ready:NoExecute'))) {
        apiNodes[n] = nodeObjectWith(node, { taints: node.taints.filter((t) => t !== 'unreachable:NoExecute' && t !== 'not-ready:NoExecute') });
        apiChanged = true;
      }
    }
  }
  const ctrl = ctrlWith(before, { monitorIn: ctx.monitorPeriod, nodes: health, zones: zones ?? before.zones, disruptionMode });
  return stateWith(s, { api: apiChanged ? apiWith(s.api, { nodes: apiNodes }) : s.api, candidates: candidatesWith(s, KCM, c, candidateWith(k, { ctrl })) });
}

const kcmRefs = byShape((s: ClusterState): string[] => s.candidates[KCM].map((_, c) => candidateName(KCM, c)));
const idx = managerIndex;

export function nodeLifecycleActions(ctx: Ctx): ClusterAction[] {
  return [
    clusterAction<string>({
      name: 'node-monitor',
      urgent: true,
      params: kcmRefs,
      enabled: (s, p) => {
        const k = s.candidates[KCM][idx(p)];
        return acting(k) && k.ctrl !== null && k.ctrl.monitorIn <= 0;
      },
      apply: (s, p) => monitorPass(ctx, s, idx(p)),
      describe: (b, p, a) => {
        const marked = a.api.nodes.flatMap((n, i) => (n?.ready === 'Unknown' && b.api.nodes[i]?.ready !== 'Unknown' ? [nodeName(i)] : []));
        const reachable = a.api.nodes.flatMap((n, i) =>
          b.api.nodes[i] !== null && n !== null && b.api.nodes[i]!.taints.some((t) => t.endsWith('NoExecute') && !n.taints.includes(t)) ? [nodeName(i)] : [],
        );
        const parts = marked.map((n) => `marks ${n} Ready=Unknown${b.api.nodes[nodeIndex(n)]?.ready === 'None' ? ` (NodeStatusNeverUpdated: no status ${ctx.startupGrace}s after it was made)` : ''}`);
        if (reachable.length) parts.push(`removes NoExecute taints from ${reachable.join(', ')}`);
        const modeB = b.candidates[KCM][idx(p)].ctrl?.disruptionMode;
        const modeA = a.candidates[KCM][idx(p)].ctrl?.disruptionMode;
        if (modeA && !modeB) parts.push('enters master disruption mode (every zone FullDisruption)');
        if (modeB && !modeA) parts.push('leaves master disruption mode');
        const writes = parts.length > 0;
        return { actor: 'kube-controller-manager/node-lifecycle', summary: parts.length ? parts.join('; ') : 'node health pass: no change', to: writes ? [...API] : ['kube-apiserver'], routine: !writes, routineKind: 'node-monitor passes' };
      },
    }),
    clusterAction<string>({
      name: 'node-noschedule-taint',
      urgent: true,
      params: kcmRefs,
      enabled: (s, p) => {
        const k = s.candidates[KCM][idx(p)];
        return acting(k) && k.ctrl !== null && s.api.nodes.some(noScheduleMismatch) && canWrite(s, k.partitioned);
      },
      apply: (s) => {
        const nodes = s.api.nodes.map((node) =>
          node === null || !noScheduleMismatch(node) ? node : nodeObjectWith(node, { taints: [...node.taints.filter((t) => !NO_SCHEDULE.includes(t)), ...wantedNoSchedule(node)].sort() }),
        );
        return stateWith(s, { api: apiWith(s.api, { nodes }) });
      },
      describe: (b, _p, a) => {
        const parts: string[] = [];
        b.api.nodes.forEach((n, i) => {
          if (n === null || !noScheduleMismatch(n)) return;
          const after = a.api.nodes[i]!.taints;
          const added = after.filter((t) => !n.taints.includes(t));
          const removed = n.taints.filter((t) => !after.includes(t));
          if (added.length) parts.push(`taints ${nodeName(i)} ${added.join(', ')}`);
          if (removed.length) parts.push(`untaints ${nodeName(i)} ${removed.join(', ')}`);
        });
        return { actor: 'kube-controller-manager/node-lifecycle', summary: parts.join('; '), to: [...API] };
      },
    }),
    clusterAction<{ manager: string; node: string }>({
      name: 'node-noexecute-taint',
      urgent: true,
      params: byShape((s) => s.candidates[KCM].flatMap((_, c) => s.api.nodes.map((__, n) => ({ manager: candidateName(KCM, c), node: nodeName(n) })))),
      enabled: (s, p) => mayTaintNoExecute(ctx, s, idx(p.manager), Number(p.node.slice(5)) - 1),
      apply: (s, p) => {
        const c = idx(p.manager);
        const n = Number(p.node.slice(5)) - 1;
        // Written without a draft (one of the frequent steps after a node is lost).
        const node = s.api.nodes[n]!;
        const want: Taint = node.ready === 'Unknown' ? 'unreachable:NoExecute' : 'not-ready:NoExecute';
        const other: Taint = want === 'unreachable:NoExecute' ? 'not-ready:NoExecute' : 'unreachable:NoExecute';
        const swap = node.taints.includes(other);
        const taints = node.taints.filter((t) => t !== other);
        if (!taints.includes(want)) {
          taints.push(want);
          taints.sort();
        }
        const apiNodes = s.api.nodes.slice();
        apiNodes[n] = nodeObjectWith(node, { taints });
        let candidates = s.candidates;
        if (!swap) {
          const k = s.candidates[KCM][c];
          const ctrl = k.ctrl!;
          const z = ctx.zoneOfNode[n];
          const zones = ctrl.zones.slice();
          zones[z] = tokenTaken(ctrl.zones[z]);
          candidates = candidatesWith(s, KCM, c, candidateWith(k, { ctrl: ctrlWith(ctrl, { zones }) }));
        }
        return stateWith(s, { api: apiWith(s.api, { nodes: apiNodes }), candidates });
      },
      describe: (_b, p, a) => {
        const n = Number(p.node.slice(5)) - 1;
        const t = a.api.nodes[n]!.taints.filter((x) => x.endsWith('NoExecute') && x !== 'out-of-service:NoExecute');
        return { actor: 'kube-controller-manager/node-lifecycle', summary: `taints ${p.node} ${t.join(', ')}`, to: [...API] };
      },
    }),
  ];
}
