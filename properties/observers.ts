/**
 * Timing properties, checked as observers that run in lockstep with the model. The real time
 * since each node's last successful heartbeat and since its NoExecute taint are history variables
 * of the state (`NodeReal.sinceHeartbeat`, `.sinceNoExecute`), so they are permuted with their
 * node under symmetry; the observers keep only a one-bit latch (or, for `replacement-within`,
 * one saturating counter; for `replacement-after-toleration`, one of two values per ReplicaSet or
 * violated), which keeps
 * the product space small and symmetric.
 */
import { always, alwaysStep, observer, type ActionLabel, type History, type Property } from '../checker/index.js';
import { ELECTION_NAMES, leaseRenewInterval, makeCtx, nodeLive, nodeName, replicasOf, type ClusterConfig, type ClusterState } from '../model/index.js';
import { conditionToleration } from '../model/taintEviction.js';
import { feasible } from '../model/scheduler.js';
import { canHappen, possibleEvents } from '../model/possible.js';
import { earliestReplacement, listOf, notReadyReplacementBound, oneLine, podsLeaving, podsLeavingNamed, replacementBound, replicaSets, runningReplicas } from './helpers.js';

/** A step of a cluster behaviour, as the properties read it. */
type Step = (before: ClusterState, action: ActionLabel, after: ClusterState) => boolean;

/**
 * An observer that latches the first step on which `bad` holds. Its `explain` finds that step in
 * the history (the latch keeps one bit) and gives it to `why`.
 */
function latch(
  id: string,
  description: string,
  source: string,
  bad: Step,
  why: (before: ClusterState, action: ActionLabel, after: ClusterState) => string | undefined,
): Property<ClusterState> {
  return observer<ClusterState, boolean>({
    id,
    description,
    source,
    initial: () => false,
    step: (seen, before, action, after) => seen || bad(before, action, after),
    holds: (seen) => !seen,
    encode: (seen) => (seen ? 't' : 'f'),
    explain: (_seen, history) => {
      const { states, actions } = history;
      for (let i = 0; i < actions.length; i++) if (bad(states[i], actions[i], states[i + 1])) return why(states[i], actions[i], states[i + 1]);
      return undefined;
    },
  });
}

/** No nodes: what the step checks find on the many steps that write no Node object. */
const NO_NODES: readonly number[] = Object.freeze([]);

/** Seconds, as the descriptions write them (`50s`); `at least 361s` for a history variable at its saturation `cap`. */
const seconds = (t: number, cap = Infinity): string => `${t >= cap ? 'at least ' : ''}${t}s`;

/**
 * `unknown-after-grace`: a node is marked Ready=Unknown only when now > probeTimestamp +
 * nodeMonitorGracePeriod, and probeTimestamp is taken no earlier than the heartbeat, so never
 * earlier than grace (50 s from 1.32, 40 s before) after its last heartbeat. The model reaches
 * exactly that bound (the pass at probe + grace marks it; see `nodeLifecycle.ts`). A Node object
 * made without status (its kubelet never posted one) gets --node-startup-grace-period instead,
 * counted from its creation (`tryUpdateNodeHealth`: "kubelet (or nodecontroller) never posted
 * node status").
 */
export function unknownAfterGrace(config: ClusterConfig): Property<ClusterState> {
  const grace = config.kubeControllerManager.nodeMonitorGracePeriod;
  const startup = config.kubeControllerManager.nodeStartupGracePeriod;
  return latch(
    'unknown-after-grace',
    `no node is marked Ready=Unknown earlier than ${grace}s after its last heartbeat`,
    'kubernetes/kubernetes:pkg/controller/nodelifecycle/node_lifecycle_controller.go (tryUpdateNodeHealth)',
    (before, _a, after) => markedEarly(before, after, grace, startup).length > 0,
    (before, _a, after) =>
      oneLine(
        markedEarly(before, after, grace, startup).map((i) =>
          before.api.nodes[i]?.ready === 'None'
            ? `${nodeName(i)} is marked Ready=Unknown ${seconds(before.nodes[i].sinceHeartbeat)} after it was made without status, before the ${startup}s startup grace period`
            : `${nodeName(i)} is marked Ready=Unknown ${seconds(before.nodes[i].sinceHeartbeat)} after its last heartbeat, before the ${grace}s grace period`,
        ),
      ),
  );
}

/**
 * The nodes a step marks Ready=Unknown less than `grace` seconds after their last heartbeat, or a
 * Node object without status less than `startup` seconds after it was made.
 */
function markedEarly(before: ClusterState, after: ClusterState, grace: number, startup: number): readonly number[] {
  if (before.api.nodes === after.api.nodes) return NO_NODES;
  return after.api.nodes.flatMap((n, i) => {
    const was = before.api.nodes[i]?.ready;
    return n !== null && n.ready === 'Unknown' && was !== 'Unknown' && before.nodes[i].sinceHeartbeat < (was === 'None' ? startup : grace) ? [i] : [];
  });
}

/**
 * `replacement-after-toleration`: without operator action, a ReplicaSet replacement is created
 * only after its pod was evicted: Unknown comes no earlier than grace after the node's last
 * heartbeat, the NoExecute taint one monitor pass after that (processTaintBaseEviction sees the
 * condition from before the pass that wrote Unknown), and the eviction tolerationSeconds (300 s
 * from the DefaultTolerationSeconds admission) after the taint: grace + nodeMonitorPeriod +
 * tolerationSeconds, 355 s from 1.32 (345 s before).
 *
 * The time is counted on the node of the pod the replacement stands in for, taken when that pod
 * stops being active (gets a deletionTimestamp, or its object goes, which the ReplicaSet counts
 * alike; an unbound pod has no node and counts as early): by the time the ReplicaSet acts, the
 * pod's kubelet may already have removed the object. So another node that failed long before
 * cannot excuse an early replacement. The observer keeps one of three values, no per-node or
 * per-pod memory: nothing early, a pod left early and is not replaced yet, violated.
 */
export function replacementAfterToleration(config: ClusterConfig): Property<ClusterState> {
  const sets = replicaSets(config).map((w) => ({ name: w.name, bound: earliestReplacement(config, w.name) ?? Infinity }));
  const shown = (b: number): string => (b === Infinity ? 'never (tolerates unreachable forever)' : `${b}s`);
  const description =
    sets.length > 1
      ? `no ReplicaSet pod is replaced earlier than its bound after its node's last heartbeat (${sets.map((w) => `${w.name} ${shown(w.bound)}`).join(', ')})`
      : (sets[0]?.bound ?? Infinity) === Infinity
        ? 'no ReplicaSet pod is replaced (its pods tolerate unreachable forever)'
        : `no ReplicaSet pod is replaced earlier than ${sets[0].bound}s after its node's last heartbeat`;
  return observer<ClusterState, Early>({
    id: 'replacement-after-toleration',
    description,
    source:
      'kubernetes/kubernetes:pkg/controller/nodelifecycle/node_lifecycle_controller.go (monitorNodeHealth); plugin/pkg/admission/defaulttolerationseconds/admission.go; pkg/controller/tainteviction/taint_eviction.go',
    initial: () => 'n'.repeat(sets.length),
    step: (seen, before, _a, after) => {
      if (seen === VIOLATED || before.api.pods === after.api.pods) return seen;
      let next = '';
      for (let i = 0; i < sets.length; i++) {
        const w = sets[i];
        const created = after.api.pods.some((p) => p.workload === w.name && !before.api.pods.some((q) => q.name === p.name));
        if (created && seen[i] === 'p') return VIOLATED;
        // The ReplicaSet creates in a later step of the same instant; a creation in this very step
        // would replace a pod that left before.
        const early = podsLeaving(before, after, w.name).some((n) => n < 0 || before.nodes[n].sinceHeartbeat < w.bound);
        next += early ? 'p' : seen[i];
      }
      return next;
    },
    holds: (seen) => seen !== VIOLATED,
    encode: (seen) => seen,
    explain: (_seen, history) => explainEarlyReplacement(sets, history),
  });
}

/**
 * `web-2 is created though web-0 left node-1 only 61s after the node's last heartbeat (bound: 355s)`:
 * the first pod of a ReplicaSet that left early, and the creation that followed it, as the
 * observer saw them along the history.
 */
function explainEarlyReplacement(sets: readonly { readonly name: string; readonly bound: number }[], history: History<ClusterState>): string | undefined {
  const { states, actions } = history;
  const early = new Map<string, { pod: string; node: number; since: number }>();
  for (let i = 0; i < actions.length; i++) {
    const before = states[i];
    const after = states[i + 1];
    if (before.api.pods === after.api.pods) continue;
    for (const w of sets) {
      const left = early.get(w.name);
      const created = after.api.pods.find((p) => p.workload === w.name && !before.api.pods.some((q) => q.name === p.name));
      if (created !== undefined && left !== undefined) {
        const how = left.node < 0 ? 'before it was bound to a node' : `${nodeName(left.node)} only ${left.since}s after the node's last heartbeat`;
        return `${created.name} is created though ${left.pod} left ${how} (bound: ${w.bound}s)`;
      }
      if (left !== undefined) continue;
      const gone = podsLeavingNamed(before, after, w.name).find((p) => p.node < 0 || before.nodes[p.node].sinceHeartbeat < w.bound);
      if (gone !== undefined) early.set(w.name, { ...gone, since: gone.node < 0 ? -1 : before.nodes[gone.node].sinceHeartbeat });
    }
  }
  return undefined;
}

/**
 * `replacement-after-toleration`'s memory: `v` once violated; otherwise one letter per ReplicaSet,
 * `p` when one of its pods left early and is not replaced yet, else `n`.
 */
type Early = string;
const VIOLATED = 'v';

/**
 * `no-early-eviction`: the taint eviction controller deletes a pod no earlier than its
 * tolerationSeconds after the NoExecute taint (it counts from its own observation, which is no
 * earlier than the taint), unless a taint is not tolerated at all (out-of-service).
 */
export function noEarlyEviction(): Property<ClusterState> {
  return latch(
    'no-early-eviction',
    'no pod is evicted before its tolerationSeconds have passed since its node was tainted NoExecute',
    'kubernetes/kubernetes:pkg/controller/tainteviction/taint_eviction.go (processPodOnNode, minTolerationTime)',
    (before, _a, after) => earlyEvictions(before, after, true).length > 0,
    (before, _a, after) =>
      oneLine(earlyEvictions(before, after, false).map(({ pod, node, tolerated }) => {
        const from = `${pod.name} is evicted from ${nodeName(node)}`;
        if (tolerated === undefined) return `${from}, which has no unreachable or not-ready NoExecute taint`;
        const taint = before.api.nodes[node]?.taints.find((t) => t === 'unreachable:NoExecute' || t === 'not-ready:NoExecute') ?? 'NoExecute';
        if (tolerated === null) return `${from} though it tolerates ${taint} forever`;
        return `${from} ${seconds(before.nodes[node].sinceNoExecute)} after its ${taint} taint, before its ${tolerated}s tolerationSeconds`;
      })),
  );
}

/** The pods a step evicts (taint eviction) before their tolerationSeconds; `first`: stop at the first. */
function earlyEvictions(before: ClusterState, after: ClusterState, first: boolean): { pod: ClusterState['api']['pods'][number]; node: number; tolerated: number | null | undefined }[] {
  if (before.api.pods === after.api.pods) return [];
  const out: { pod: ClusterState['api']['pods'][number]; node: number; tolerated: number | null | undefined }[] = [];
  for (const q of after.api.pods) {
    if (q.deletion !== 'taint-eviction' || q.nodeName < 0) continue;
    const p = before.api.pods.find((x) => x.name === q.name);
    if (p === undefined || p.deletion === 'taint-eviction') continue;
    const node = before.api.nodes[q.nodeName];
    if (node?.taints.includes('out-of-service:NoExecute')) continue;
    const tol = conditionToleration(q, node);
    if (tol === undefined || tol === null || before.nodes[q.nodeName].sinceNoExecute < tol) {
      out.push({ pod: q, node: q.nodeName, tolerated: tol });
      if (first) return out;
    }
  }
  return out;
}

/**
 * `replacement-within`: bounded recovery. Whenever fewer ReplicaSet replicas really serve than
 * desired, some node lost recently enough to explain it: a node that misses its Lease renewals
 * (crashed, cut off, kubelet down; its partition may have just healed) whose last heartbeat is at
 * most {@link replacementBound} ago (2 ×
 * nodeMonitorPeriod + nodeMonitorGracePeriod + the unreachable tolerationSeconds + the zone rate
 * limiter's wait for the other failing nodes), or a node whose container runtime failed at most
 * {@link notReadyReplacementBound} ago. The clock restarts at each new loss: a second node that
 * fails while the first one's pod is being replaced (and may receive the replacement before it
 * is marked Unknown) has a bound of its own. An invariant over the model's own history variables
 * (`sinceHeartbeat`, `runtimeDownFor`), so it adds no state. A node that keeps renewing while its
 * pods are gone (its status updates failing) never explains a deficit: Kubernetes does not
 * recover it. `bounds` replaces the derived bounds (to show they are tight).
 */
export function replacementWithin(config: ClusterConfig, bounds: { readonly unreachable?: number; readonly notReady?: number } = {}): Property<ClusterState> {
  const renew = leaseRenewInterval(config);
  const sets = replicaSets(config).map((w) => ({
    name: w.name,
    replicas: w.replicas,
    unreachable: bounds.unreachable ?? replacementBound(config, w.name),
    notReady: bounds.notReady ?? notReadyReplacementBound(config, w.name),
  }));
  // After a scale (an operator's write of spec.replicas) the replicas that must come back are the
  // fewer of the two: pods a scale-up adds were never lost, and a scale-down removes pods on purpose.
  const wanted = (s: ClusterState, w: { readonly name: string; readonly replicas: number }): number => Math.min(w.replicas, replicasOf(s, w));
  const explained = (s: ClusterState, unreachable: number | undefined, notReady: number | undefined): boolean => {
    for (let i = 0; i < s.nodes.length; i++) {
      const n = s.nodes[i];
      // Missing heartbeats (a live node renews every renew interval), the last one recent enough.
      if (unreachable !== undefined && (!n.up || !n.kubeletUp || n.partitioned || n.sinceHeartbeat > renew) && n.sinceHeartbeat <= unreachable) return true;
      // A graceful shutdown under way: its kubelet is stopping the pods, replaced once reported Failed.
      if (n.shutdownIn !== undefined) return true;
      if (notReady !== undefined && n.up && n.runtimeDownFor >= 0 && n.runtimeDownFor <= notReady) return true;
    }
    return false;
  };
  const describe = (unreachable: number | undefined, notReady: number | undefined): string => {
    const described = [
      unreachable === undefined ? undefined : `${unreachable}s after the last heartbeat of a node that stopped renewing`,
      notReady === undefined || !canHappen(possibleEvents(config), 'container-runtime-failure') ? undefined : `${notReady}s after a container runtime failure`,
    ].filter((b) => b !== undefined);
    return described.length ? described.join(', or ') : 'no bound (tolerated forever)';
  };
  const texts = sets.map((w) => describe(w.unreachable, w.notReady));
  const within = sets.length === 0 || texts.every((t) => t === texts[0]) ? (texts[0] ?? describe(undefined, undefined)) : sets.map((w, i) => `${w.name}: ${texts[i]}`).join('; ');
  /** `web has 1 of 2 replicas serving 361s after node-1's last heartbeat, past the 360s bound`. */
  const why = (s: ClusterState): string | undefined =>
    oneLine(sets.flatMap((w) => {
      const serving = runningReplicas(s, w.name);
      const want = wanted(s, w);
      if (serving >= want || explained(s, w.unreachable, w.notReady)) return [];
      const ctx = makeCtx(config);
      const short = `${w.name} has ${serving} of ${want} ${want === 1 ? 'replica' : 'replicas'} serving`;
      // The most recent loss of each kind: the node whose last heartbeat, or runtime failure, is the latest.
      const lost = s.nodes.map((n, i) => ({ n, i })).filter(({ n }) => !n.up || !n.kubeletUp || n.partitioned || n.sinceHeartbeat > renew);
      const latest = lost.reduce<(typeof lost)[number] | undefined>((m, x) => (m === undefined || x.n.sinceHeartbeat < m.n.sinceHeartbeat ? x : m), undefined);
      const failed = s.nodes.map((n, i) => ({ n, i })).filter(({ n }) => n.up && n.runtimeDownFor >= 0);
      const runtime = failed.reduce<(typeof failed)[number] | undefined>((m, x) => (m === undefined || x.n.runtimeDownFor < m.n.runtimeDownFor ? x : m), undefined);
      const causes = [
        ...(latest === undefined ? [] : [`${seconds(latest.n.sinceHeartbeat, ctx.heartbeatCap)} after ${nodeName(latest.i)}'s last heartbeat, ${w.unreachable === undefined ? 'which no bound covers (tolerated forever)' : `past the ${w.unreachable}s bound`}`]),
        ...(runtime === undefined ? [] : [`${seconds(runtime.n.runtimeDownFor, ctx.runtimeDownCap)} after ${nodeName(runtime.i)}'s container runtime failed, ${w.notReady === undefined ? 'which no bound covers (tolerated forever)' : `past the ${w.notReady}s bound`}`]),
      ];
      // A replacement the scheduler can place nowhere (taints, capacity, scheduling constraints).
      const stuck = s.api.pods.filter((p) => p.workload === w.name && p.nodeName < 0 && p.deletion === null && !s.api.nodes.some((_, n) => feasible(ctx, s, p, n))).map((p) => p.name);
      const pending = stuck.length === 0 ? '' : `; ${listOf(stuck)} ${stuck.length === 1 ? 'is' : 'are'} Pending: no node passes the scheduler's filters (taints, capacity, the workload's scheduling constraints)`;
      return [(causes.length === 0 ? `${short}, though no node has missed its heartbeats or lost its container runtime` : `${short} ${listOf(causes)}`) + pending];
    }));
  return always<ClusterState>(
    'replacement-within',
    `a missing ReplicaSet replica is serving again within ${within} (counted from the most recent loss)`,
    (s) => {
      for (let i = 0; i < sets.length; i++) {
        const w = sets[i];
        if (runningReplicas(s, w.name) < wanted(s, w) && !explained(s, w.unreachable, w.notReady)) return false;
      }
      return true;
    },
    { source: 'the node failure timeline (replacementBound in properties/helpers.ts) derived from kubernetes/kubernetes:pkg/controller/nodelifecycle/node_lifecycle_controller.go, pkg/controller/tainteviction/taint_eviction.go, pkg/controller/replicaset/replica_set.go', explain: why },
  );
}

/**
 * `healthy-node-not-unknown`: a node that is up, whose kubelet runs and which nothing cuts off
 * from the control plane is never marked Ready=Unknown once it has been so for longer than one
 * Lease renew interval (so its kubelet has tried to renew). A violation is a false NotReady: a
 * grace period too short for the renew interval, or a control-plane outage (kube-apiserver ⇄
 * etcd, kubernetes#121793) that makes healthy nodes flap and can push whole zones into
 * disruption mode.
 */
export function healthyNodeNotUnknown(config: ClusterConfig): Property<ClusterState> {
  const renew = leaseRenewInterval(config);
  return alwaysStep<ClusterState>(
    'healthy-node-not-unknown',
    'no node is marked Ready=Unknown while it is up, its kubelet runs and nothing cuts it off (no false NotReady, no flapping)',
    (before, _a, after) => falselyUnknown(before, after, renew).length === 0,
    {
      explain: (before, _a, after) => {
        // Nodes marked at the same time since their last heartbeat are said together.
        const bySince = new Map<number, string[]>();
        for (const n of falselyUnknown(before, after, renew)) bySince.set(before.nodes[n].sinceHeartbeat, [...(bySince.get(before.nodes[n].sinceHeartbeat) ?? []), nodeName(n)]);
        const parts = [...bySince].map(([since, nodes]) =>
          nodes.length === 1
            ? `${nodes[0]} is marked Ready=Unknown ${since}s after its last heartbeat though it is up, its kubelet runs and nothing cuts it off`
            : `${listOf(nodes)} are marked Ready=Unknown ${since}s after their last heartbeat though they are up, their kubelets run and nothing cuts them off`);
        return parts.length === 0 ? undefined : `${parts.join('; ')} (the renew interval is ${renew}s, the grace period ${config.kubeControllerManager.nodeMonitorGracePeriod}s)`;
      },
      source:
        'kubernetes/kubernetes:pkg/controller/nodelifecycle/node_lifecycle_controller.go (tryUpdateNodeHealth: a renewed Lease resets probeTimestamp); kube-controller-manager --node-monitor-grace-period ("must be N times more than kubelet\'s nodeStatusUpdateFrequency"); kubernetes/kubernetes#121793',
    },
  );
}

/** The nodes a step marks Ready=Unknown while live for longer than the renew interval. */
function falselyUnknown(before: ClusterState, after: ClusterState, renew: number): readonly number[] {
  if (before.api.nodes === after.api.nodes) return NO_NODES;
  const out: number[] = [];
  for (let n = 0; n < after.api.nodes.length; n++) {
    const was = before.api.nodes[n];
    const now = after.api.nodes[n];
    if (now === null || was === null || now.ready !== 'Unknown' || was.ready === 'Unknown') continue;
    if (nodeLive(before, n) && before.nodes[n].liveFor > renew) out.push(n);
  }
  return out;
}

/**
 * `leader-handover-within`: a control-plane leader's clean handover is bounded. After a leading
 * kube-scheduler releases its Lease (ReleaseOnCancel on SIGTERM: an empty holderIdentity), a
 * standby takes it at its next try, and a standby tries `Jitter(retryPeriod, 1.2)` after its last
 * one (`wait.JitterUntil` in client-go's acquire loop): within retryPeriod × 2.2, rounded up to
 * the tick (`model.leaderHandoverBound` replaces the bound). Counted from the release, or from the
 * last moment no standby could take the Lease (none running unpaused and able to write): a
 * crashed, paused or cut-off standby promises nothing until it is back. An invariant over the
 * history variable `LeaseRecord.releasedFor`, which only `model.jitteredFollowerTries` keeps: with
 * the default abstraction a follower may acquire at any instant, so nothing is measured and the
 * property holds vacuously, which its description says (the command line refuses it there).
 */
export function leaderHandoverWithin(config: ClusterConfig): Property<ClusterState> {
  const ctx = makeCtx(config);
  const bound = ctx.handoverBound;
  const late = (s: ClusterState, e: number): boolean => {
    const l = s.api.leases[e];
    return l.holder < 0 && l.releasedFor !== undefined && l.releasedFor > bound + 1e-9;
  };
  const description =
    `a Lease its leader released (ReleaseOnCancel) is held by a standby within ${bound}s (${config.model.leaderHandoverBound === null ? `retryPeriod × 2.2, the longest gap between a standby's jittered tries, rounded up to the ${ctx.tick}s tick` : 'model.leaderHandoverBound'}), counted while a standby can take it` +
    (ctx.jitteredTries ? '' : '; needs model.jitteredFollowerTries=true: with the default abstraction followers may take a Lease at any instant, nothing is measured and this holds vacuously');
  return always<ClusterState>(
    'leader-handover-within',
    description,
    (s) => !late(s, 0) && !late(s, 1),
    {
      source: 'kubernetes/client-go:tools/leaderelection/leaderelection.go (acquire: wait.JitterUntil(tryAcquireOrRenew, RetryPeriod, JitterFactor 1.2, sliding); release: ReleaseOnCancel); kubernetes/apimachinery:pkg/util/wait/backoff.go (BackoffUntilWithContext: sliding, the next wait after f returns); kubernetes/apimachinery:pkg/util/wait/wait.go (Jitter: duration + rand[0,1) × 1.2 × duration)',
      explain: (s) =>
        oneLine(
          [0, 1].flatMap((e) =>
            late(s, e)
              ? [`the ${ELECTION_NAMES[e]} Lease is held by nobody ${seconds(s.api.leases[e].releasedFor!, ctx.releasedCap)} after its leader released it (with a standby able to take it all along), past the ${bound}s bound`]
              : [],
          ),
        ),
    },
  );
}
