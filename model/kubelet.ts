/**
 * kubelet, one per node: renews its node Lease every 0.25 × nodeLeaseDurationSeconds (10 s) and,
 * on the same beat (nodeStatusUpdateFrequency is 10 s too), posts its Ready condition when the
 * API says otherwise: True, or False while its container runtime is down. When its node status
 * updates fail (a fault) its Lease renewals still succeed, so the node lifecycle controller keeps
 * it as it is ("If kubelet never posted the node status, but continues renewing the heartbeat
 * leases, the node controller will assume the node is healthy and take no action"). It starts
 * containers of pods bound to its node; stops containers of pods deleted, terminating or bound
 * elsewhere, then finishes the deletion (none of which it can do while its runtime is down).
 *
 * Stopping takes time (pod_workers.go `killPod` with `calculateEffectiveGracePeriod`): SIGTERM,
 * then the containers run on until they exit by themselves (`container-exit`, at any instant) or
 * the grace period ends and the kubelet sends SIGKILL (`kubelet-kill`). The grace period is the
 * pod's `terminationGracePeriodSeconds` (30 by default) for a graceful deletion and also for a
 * force-deleted pod: a force delete sets deletionGracePeriodSeconds to 0, which the kubelet
 * replaces by the spec's value (at least 1 s). The object of a gracefully deleted pod goes once
 * its containers are gone; a force-deleted one is gone at once, so a replacement with the same
 * name can run elsewhere beside the old containers. A pod of the same name bound to this node
 * again starts only after the old containers are gone.
 * Cut off from the API server it keeps running everything it has (it cannot see deletions); so
 * does a kubelet whose pod watch is stuck after an etcd restore, until it restarts.
 *
 * A failed container runtime is noticed late: `updateRuntimeUp` checks the runtime every 5 s and
 * records the last good check; `runtimeErrors` reports "container runtime is down" once that is
 * `maxWaitForContainerRuntime` (30 s) old. The failure falls anywhere in the 5 s after a good
 * check, so the kubelet knows 25–30 s after the failure (`kubelet-runtime-check` at any instant
 * from 25 s, `kubelet-runtime-timeout` at 30 s) and posts Ready=False on its next status update.
 * A kubelet started while the runtime is down knows at once (no good check yet: "container
 * runtime status check may not have completed yet"). Not modelled: a runtime that answers and
 * reports RuntimeReady=false, which the next 5 s check reports.
 *
 * While the runtime is down its containers run on under their shims (containerd's death does not
 * end them), and from the failure on the kubelet can start, stop and observe nothing there
 * (`runtimeBlocks`): no SIGTERM or SIGKILL reaches a container, no exit is seen, so no deletion is
 * finished and its pods stay Terminating; a force delete lets a replacement run elsewhere beside
 * the old copy. PLEG's relist fails too, so after `relistThreshold` (3 min) the Ready condition's
 * message adds "PLEG is not healthy" (generic.go `Healthy`); Ready is False from the 30 s check
 * on either way. On recovery the pod workers retry: SIGTERM again with the whole grace period.
 *
 * Graceful node shutdown (pkg/kubelet/nodeshutdown, `shutdownGracePeriod` > 0): on `node-shutdown`
 * the kubelet posts Ready=False at once, admits no pod, sends SIGTERM to every container with its
 * grace period capped at shutdownGracePeriod − shutdownGracePeriodCriticalPods, and reports each
 * stopped pod Failed; the node powers off (`node-power-off`) when that is done or the delay ends.
 * A Failed pod's object is dropped when it is reported: no controller or property counts a
 * terminal pod (`IsPodActive`), the StatefulSet and DaemonSet controllers delete it at once and a
 * ReplicaSet's lingers until pod GC's threshold. Critical pods (a workload's `priorityClassName`
 * system-cluster-critical or system-node-critical, or `priority` ≥ 2000000000) are stopped in a
 * second group (`ShutdownGroups`).
 * A new node's kubelet (`cluster.newNodes`) starts at any instant, or never (`kubelet-start`).
 *
 * Batched: all kubelets due at one instant act in one step. Their effects touch disjoint parts of
 * the state (their own node, Lease and pods), so the end state of the instant does not depend on
 * their order; the batch keeps node symmetry exact. The renewal jitter (0.04, sliding) is
 * explored where a grace period comes near the renew interval (see `jitter` below). Not
 * modelled: the five immediate Lease retries, kubelet admission (maxPods is the scheduler's filter only), pod phases
 * (an operator watching Pods reads Pending or Running, from `PodObject.ready`: see `podAsObject`).
 */
import { produce } from './immer.js';
import { API, clusterAction, type ClusterAction, type Ctx } from './context.js';
import { isCriticalWorkload, MAX_WAIT_FOR_CONTAINER_RUNTIME, RUNTIME_UP_PERIOD, shutdownGraceCap, terminationGraceOf } from './config.js';
import { apiWith, nodeObjectWith, candidateWith, ctrlWith, healthWith, nodeWith, nodeWithContainers, poweredOff, stateWith, kubeletAlive, kubeletCanWrite, kubeletReachesApi, nodeIndex, nodeName, podIndex, isTerminating, terminatingOf, KCM, type Candidate, type ClusterState, type NodeObject, type NodeReal, type PodObject, type Terminating } from './state.js';

/** Nodes whose kubelet is due to renew its Lease. */
export function heartbeatsDue(s: ClusterState): number[] {
  const out: number[] = [];
  for (let n = 0; n < s.nodes.length; n++) if (kubeletAlive(s, n) && s.nodes[n].heartbeatIn <= 0) out.push(n);
  return out;
}

/** Whether some kubelet is due to renew its Lease (`heartbeatsDue` is not empty). */
function heartbeatDue(s: ClusterState): boolean {
  for (let n = 0; n < s.nodes.length; n++) if (kubeletAlive(s, n) && s.nodes[n].heartbeatIn <= 0) return true;
  return false;
}

/** Nodes whose Lease renewal succeeds on the `kubelet-heartbeat` step from `before`. */
export function heartbeatsOf(before: ClusterState, action: { name: string }): number[] {
  if (action.name !== 'kubelet-heartbeat') return [];
  return heartbeatsDue(before).filter((n) => kubeletCanWrite(before, n));
}

/** The Ready condition the kubelet of node n posts with its status, or undefined when its status updates fail. */
export function postedReady(s: ClusterState, n: number): 'True' | 'False' | undefined {
  const node = s.nodes[n];
  if (node.statusStuck) return undefined;
  // The shutdown manager's ShutdownStatus makes the Ready condition False ("node is shutting down").
  if (node.shutdownIn !== undefined) return 'False';
  return node.runtimeUp || node.runtimeErrors !== true ? 'True' : 'False';
}

/** Whether node n's kubelet does not yet report its failed runtime, `runtimeDownFor` in [from, to). */
function runtimeUnnoticed(s: ClusterState, n: number, from: number, to: number): boolean {
  const node = s.nodes[n];
  return kubeletAlive(s, n) && !node.runtimeUp && node.runtimeErrors !== true && node.runtimeDownFor >= from && node.runtimeDownFor < to;
}

/**
 * The kubelet's runtime state turns to "container runtime is down": `kubelet-runtime-check` at any
 * instant from 25 s after the failure (a check landing 30 s after the last good one), and
 * `kubelet-runtime-timeout` due at 30 s (the failure came right after a good check). Listed only
 * where a runtime can fail.
 */
export function runtimeCheckActions(): { readonly background: ClusterAction; readonly urgent: ClusterAction } {
  const earliest = MAX_WAIT_FOR_CONTAINER_RUNTIME - RUNTIME_UP_PERIOD;
  const noticed = (name: string, urgent: boolean, from: number, to: number): ClusterAction =>
    clusterAction<string>({
      name,
      urgent,
      params: (s: ClusterState) => s.nodes.flatMap((_, n) => (runtimeUnnoticed(s, n, from, to) ? [nodeName(n)] : [])),
      enabled: (s, p) => {
        const n = nodeIndex(p);
        return n >= 0 && n < s.nodes.length && runtimeUnnoticed(s, n, from, to);
      },
      apply: (s, p) =>
        produce(s, (d) => {
          d.nodes[nodeIndex(p)].runtimeErrors = true;
        }),
      describe: (b, p) => {
        const n = nodeIndex(p);
        return {
          actor: `kubelet/${p}`,
          summary: `finds the container runtime of ${p} down (its last good check ${MAX_WAIT_FOR_CONTAINER_RUNTIME}s old, ${b.nodes[n].runtimeDownFor}s after the failure): Ready=False on its next status update`,
          to: [],
        };
      },
    });
  return {
    background: noticed('kubelet-runtime-check', false, earliest, MAX_WAIT_FOR_CONTAINER_RUNTIME),
    urgent: noticed('kubelet-runtime-timeout', true, MAX_WAIT_FOR_CONTAINER_RUNTIME, Number.POSITIVE_INFINITY),
  };
}

interface SyncWork {
  readonly start: string[];
  readonly stop: string[];
  readonly finish: string[];
  /** A graceful node shutdown: the immediate status update that posts Ready=False. */
  readonly notReady?: boolean;
}

const bound = (p: PodObject, n: number): boolean => p.nodeName === n;

/**
 * The node's container runtime is down, so its kubelet can start, stop and observe nothing: the
 * pod workers' CRI calls fail (`killPod`'s StopContainer, `SyncTerminatingPod`'s GetPodStatus),
 * PLEG's relist fails (`GenericPLEG.Relist` returns before `cache.UpdateTime`, so the workers
 * waiting on `GetNewerThan` stay blocked), and once `runtimeErrors` reports it the sync loop
 * skips pod synchronization altogether (kubelet.go `syncLoop`: "Skipping pod synchronization").
 * The containers keep running under their shims; their pods stay Terminating until it recovers.
 */
const runtimeBlocks = (node: NodeReal): boolean => !node.runtimeUp;

const NO_PARAMS: readonly never[] = Object.freeze([]);

/**
 * What the kubelet of node n would do now; undefined when nothing (or when it cannot see the
 * API). Asked in nearly every state, where mostly there is nothing to do: the lists are made only
 * for work found.
 */
export function syncWork(s: ClusterState, n: number, groups?: ShutdownGroups): SyncWork | undefined {
  const node = s.nodes[n];
  if (node.shutdownIn !== undefined) return shutdownWork(s, n, groups);
  // A kubelet whose pod watch is stuck (after an etcd restore) sees no change, like one cut off.
  // With its container runtime down it can start, stop and observe nothing (see `runtimeBlocks`).
  if (!kubeletAlive(s, n) || !kubeletReachesApi(s, n) || node.podWatchStuck === true || runtimeBlocks(node)) return undefined;
  let start: string[] | undefined;
  let stop: string[] | undefined;
  let finish: string[] | undefined;
  const pods = s.api.pods;
  for (let i = 0; i < pods.length; i++) {
    const p = pods[i];
    if (!bound(p, n)) continue;
    const isRunning = node.running.includes(p.name);
    // Containers of an earlier pod of this name still terminating: the new one waits for them.
    if (p.deletion === null && !isRunning) (start ??= []).push(p.name);
    if (p.deletion !== null && !isRunning) (finish ??= []).push(p.name);
  }
  // SIGTERM to containers whose pod is gone, Terminating or bound elsewhere (once: a terminating
  // container waits for its exit or its SIGKILL).
  for (let r = 0; r < node.running.length; r++) {
    const name = node.running[r];
    if (isTerminating(node, name)) continue;
    const i = podIndex(s, name);
    if (i < 0 || pods[i].deletion !== null || pods[i].nodeName !== n) (stop ??= []).push(name);
  }
  // Finishing a deletion is a write; once the containers are gone the pod object goes.
  if (finish !== undefined && !kubeletCanWrite(s, n)) finish = undefined;
  if (start === undefined && stop === undefined && finish === undefined) return undefined;
  return { start: start ?? [], stop: stop ?? [], finish: finish ?? [] };
}

/**
 * What the kubelet of a node shutting down does (nodeshutdown_manager_linux.go
 * `processShutdownEvent`): it posts Ready=False at once, admits no pod ("node is shutting down"),
 * sends SIGTERM to every container (each pod's grace period capped at shutdownGracePeriod −
 * shutdownGracePeriodCriticalPods; `node-shutdown` caps those already running), and reports each
 * pod whose containers it stopped Failed (reason Terminated) in the step they stop. A Failed pod
 * counts for no controller (`IsPodActive`; the StatefulSet and DaemonSet controllers delete it,
 * and deleting a terminal pod takes no grace period), so its object is dropped when it is
 * reported. The stopping goes on cut off from the API; the reports are then lost. A pod bound
 * there that never started is left bound (the kubelet's admission would reject it as Failed, and
 * the DaemonSet controller recreate it with a backoff; not modelled).
 */
function shutdownWork(s: ClusterState, n: number, groups?: ShutdownGroups): SyncWork | undefined {
  if (!kubeletAlive(s, n)) return undefined;
  const node = s.nodes[n];
  // With the runtime down the shutdown manager's kills fail: the containers run until power-off.
  const blocked = runtimeBlocks(node);
  const stop = blocked ? [] : node.running.filter((name) => !isTerminating(node, name) && (groups === undefined || criticalPhase(node, groups) || !groups.critical(name)));
  const writable = kubeletCanWrite(s, n);
  const finish = writable && !blocked ? s.api.pods.filter((p) => p.nodeName === n && p.deletion !== null && !node.running.includes(p.name)).map((p) => p.name) : [];
  const obj = s.api.nodes[n];
  const notReady = writable && obj !== null && postedReady(s, n) === 'False' && obj.ready !== 'False';
  if (stop.length + finish.length === 0 && !notReady) return undefined;
  return { start: [], stop, finish, notReady };
}

/**
 * The two groups of a graceful node shutdown without `shutdownGracePeriodByPodPriority`
 * (nodeshutdown_manager_linux.go `migrateConfig`, `killPods`): ordinary pods first, each with
 * its grace period capped at shutdownGracePeriod − shutdownGracePeriodCriticalPods; critical pods
 * (`spec.priority` ≥ SystemCriticalPriority: the system-cluster-critical and system-node-critical
 * classes) only once every ordinary pod has stopped or that period has passed, capped at
 * shutdownGracePeriodCriticalPods.
 */
export interface ShutdownGroups {
  /** shutdownGracePeriodCriticalPods, seconds. */
  readonly criticalPeriod: number;
  /** Whether the container of this pod name belongs to a critical pod. */
  readonly critical: (pod: string) => boolean;
}

/** Whether a node shutting down has reached its critical pods' group: no ordinary container left, or the ordinary group's period over. */
function criticalPhase(node: NodeReal, groups: ShutdownGroups): boolean {
  return node.shutdownIn! <= groups.criticalPeriod || node.running.every((name) => groups.critical(name));
}

/** Nodes whose kubelet is due to SIGKILL containers whose grace period is over. */
function killsDue(s: ClusterState): number[] {
  const out: number[] = [];
  for (let n = 0; n < s.nodes.length; n++) if (killDue(s, n)) out.push(n);
  return out;
}

/** Whether the kubelet of node n is due to SIGKILL a container (it cannot while its runtime is down). */
function killDue(s: ClusterState, n: number): boolean {
  if (!kubeletAlive(s, n) || runtimeBlocks(s.nodes[n])) return false;
  const list = terminatingOf(s.nodes[n]);
  for (let i = 0; i < list.length; i++) if (list[i].killIn <= 0) return true;
  return false;
}

/** Whether some kubelet is due to SIGKILL a container (`killsDue` is not empty). */
function anyKillDue(s: ClusterState): boolean {
  for (let n = 0; n < s.nodes.length; n++) if (killDue(s, n)) return true;
  return false;
}

/**
 * A node shutting down reports a pod whose containers it stopped Failed (when it can write): a
 * Failed pod counts for no controller, so its object goes (see `shutdownWork`). Done in the step
 * its containers stop, after them, as the kubelet's kill-then-status does.
 */
function reportShutdownStop(s: ClusterState, pods: readonly PodObject[], n: number, name: string): readonly PodObject[] {
  return reportsShutdownStop(s, n, name) ? pods.filter((p) => !(p.name === name && p.nodeName === n)) : pods;
}

/** Whether stopping pod `name`'s containers on node n reports the pod Failed (a shutdown under way, the kubelet able to write and to see the stop, the pod bound there). */
function reportsShutdownStop(s: ClusterState, n: number, name: string): boolean {
  return s.nodes[n].shutdownIn !== undefined && kubeletCanWrite(s, n) && !runtimeBlocks(s.nodes[n]) && s.api.pods.some((p) => p.name === name && p.nodeName === n);
}

/** Node n without `names`' containers (they exited or were killed), and the pods reported Failed for them. */
function containersGone(s: ClusterState, n: number, names: readonly string[]): ClusterState {
  const node = s.nodes[n];
  const running = node.running.filter((r) => !names.includes(r));
  const terminating = terminatingOf(node).filter((t) => !names.includes(t.pod));
  const nodes = s.nodes.slice();
  nodes[n] = nodeWithContainers(node, running, terminating.length > 0 ? terminating : undefined);
  let pods = s.api.pods;
  for (const name of names) pods = reportShutdownStop(s, pods, n, name);
  return stateWith(s, { nodes, api: pods === s.api.pods ? s.api : apiWith(s.api, { pods }) });
}

/**
 * `container-exit`: the containers of a terminating pod exit on SIGTERM before their grace period
 * ends, at any instant (how fast an application shuts down is its own business).
 */
export function containerExitAction(): ClusterAction {
  // Listed between every two instants: nothing is made while no container is terminating, and
  // the parameters' names are kept for the run.
  const names = new Map<string, string[]>();
  const nameOf = (pod: string, n: number): string => {
    let onNode = names.get(pod);
    if (onNode === undefined) names.set(pod, (onNode = []));
    return (onNode[n] ??= `${pod}@${nodeName(n)}`);
  };
  const candidates = (s: ClusterState): readonly string[] => {
    let out: string[] | undefined;
    for (let n = 0; n < s.nodes.length; n++) {
      const list = terminatingOf(s.nodes[n]);
      for (let i = 0; i < list.length; i++) (out ??= []).push(nameOf(list[i].pod, n));
    }
    return out ?? NO_PARAMS;
  };
  const parse = (p: string): { pod: string; n: number } => {
    const at = p.lastIndexOf('@node-');
    return { pod: p.slice(0, at), n: Number(p.slice(at + '@node-'.length)) - 1 };
  };
  return clusterAction<string>({
    name: 'container-exit',
    urgent: false,
    params: candidates,
    enabled: (s, p) => {
      const { pod, n } = parse(p);
      return n >= 0 && n < s.nodes.length && isTerminating(s.nodes[n], pod);
    },
    apply: (s, p) => {
      const { pod, n } = parse(p);
      return containersGone(s, n, [pod]);
    },
    describe: (b, p) => {
      const { pod, n } = parse(p);
      const reported = reportsShutdownStop(b, n, pod);
      return { actor: `kubelet/${nodeName(n)}`, summary: `the containers of ${pod} exit on SIGTERM on ${nodeName(n)}${reported ? `; reports ${pod} Failed (node shutdown; a Failed pod counts for no controller and goes)` : ''}`, to: reported ? [...API] : [] };
    },
  });
}

/**
 * `kubelet-start`: the kubelet of a new node (`cluster.newNodes`) starts, at any instant or never
 * (how long a machine takes to boot and join is its own business). It finds its Node object and
 * posts its status with its first Lease renewal, due at once (`registerWithAPIServer`, then
 * `syncNodeStatus`); with its runtime down it knows so at once (no good runtime check yet).
 */
export function kubeletStartAction(): ClusterAction {
  const booting = (s: ClusterState, n: number): boolean => s.nodes[n].booting === true && s.nodes[n].up && !s.nodes[n].kubeletUp;
  return clusterAction<string>({
    name: 'kubelet-start',
    urgent: false,
    params: (s) => s.nodes.flatMap((_, n) => (booting(s, n) ? [nodeName(n)] : [])),
    enabled: (s, p) => {
      const n = nodeIndex(p);
      return n >= 0 && n < s.nodes.length && booting(s, n);
    },
    apply: (s, p) =>
      produce(s, (d) => {
        const node = d.nodes[nodeIndex(p)];
        node.kubeletUp = true;
        node.heartbeatIn = 0;
        delete node.booting;
        if (!node.runtimeUp) node.runtimeErrors = true;
      }),
    describe: (b, p) => ({ actor: `kubelet/${p}`, summary: `the kubelet of the new node ${p} starts, ${b.nodes[nodeIndex(p)].sinceHeartbeat}s after its Node object was made`, to: [] }),
  });
}

/** Nodes whose shutdown may proceed: the kubelet is done (pods stopped and reported) or the delay is over. */
function powerOffsDue(s: ClusterState, groups: ShutdownGroups): number[] {
  const out: number[] = [];
  for (let n = 0; n < s.nodes.length; n++) {
    const node = s.nodes[n];
    if (node.shutdownIn === undefined || !node.up) continue;
    if (node.shutdownIn <= 0 || (node.running.length === 0 && syncWork(s, n, groups) === undefined)) out.push(n);
  }
  return out;
}

/**
 * `node-power-off`: a node shutting down goes down once its kubelet has stopped its pods and
 * reported them (it releases the inhibitor lock) or when shutdownGracePeriod ends, whatever is
 * still running then. Urgent; listed only where a node can shut down gracefully.
 */
export function powerOffAction(ctx: Ctx): ClusterAction {
  const groups = shutdownGroups(ctx);
  return clusterAction({
    name: 'node-power-off',
    urgent: true,
    enabled: (s) => powerOffsDue(s, groups).length > 0,
    apply: (s) => {
      const nodes = s.nodes.slice();
      for (const n of powerOffsDue(s, groups)) nodes[n] = poweredOff(s.nodes[n]);
      return stateWith(s, { nodes });
    },
    describe: (b) => {
      const due = powerOffsDue(b, groups);
      const parts = due.map((n) => (b.nodes[n].shutdownIn! <= 0 ? `${nodeName(n)} powers off: the shutdown delay is over${b.nodes[n].running.length ? ` (${b.nodes[n].running.join(', ')} still running)` : ''}` : `${nodeName(n)} powers off: its kubelet has stopped its pods`));
      return { actor: `node/${due.map(nodeName).join(',')}`, summary: parts.join('; '), to: [] };
    },
  });
}

/** The shutdown groups of this cluster's workloads (see {@link ShutdownGroups}). */
export function shutdownGroups(ctx: Ctx): ShutdownGroups {
  const critical = new Set(ctx.config.cluster.workloads.filter(isCriticalWorkload).map((w) => w.name));
  return { criticalPeriod: ctx.config.kubelet.shutdownGracePeriodCriticalPods, critical: (pod) => critical.size > 0 && critical.has(ctx.workloadOfPod(pod)?.name ?? '') };
}

export function kubeletActions(ctx: Ctx): ClusterAction[] {
  // client-go's lease controller renews with JitterUntil(renewInterval, 0.04, sliding): a gap of
  // up to 1.04 × renewInterval. In whole quanta: renewInterval or up to `late` quanta more (an
  // event at t+ stands for any time in (t, t+1)), the same comparisons against whole-second
  // thresholds. Explored only where a late renewal can reach the node lifecycle controller's
  // grace period: a pass sees a renewal at most a monitor period (less a quantum) after it, so
  // the time since the probe it compares is at most the gap plus that; with a drifting clock the
  // controller's time runs up to clockDriftRate faster. Elsewhere no verdict depends on it.
  const kcm = ctx.config.kubeControllerManager;
  const late = Math.max(1, Math.ceil((0.04 * ctx.renewInterval) / ctx.tick - 1e-9));
  const drift = ctx.possible.count['clock-drift'] > 0 ? Math.max(1, ctx.config.faults.clockDriftRate) : 1;
  // Below renewInterval − monitor period the node is marked Unknown between renewals anyway
  // (every phase flaps): the jittered orderings of those flaps are not explored there. A pause of
  // the controller or a kube-apiserver ⇄ etcd outage lengthens what a pass sees by its duration,
  // which may start at any instant; a late renewal is not combined with them (see NOTES).
  const jitter = ctx.grace >= ctx.renewInterval - kcm.nodeMonitorPeriod && ctx.grace < (ctx.renewInterval + late * ctx.tick + kcm.nodeMonitorPeriod - ctx.tick) * drift;
  const choices = late + 1;
  /** How many quanta late the renewal after this one is for the i-th due kubelet. */
  const lateOf = (mask: number | undefined, i: number): number => Math.floor((mask ?? 0) / choices ** i) % choices;
  const graces = new Map(ctx.config.cluster.workloads.map((w) => [w.name, terminationGraceOf(ctx.config, w)]));
  const podGrace = (pod: string): number => graces.get(ctx.workloadOfPod(pod)?.name ?? '') ?? terminationGraceOf(ctx.config, undefined);
  // Graceful node shutdown caps every (non-critical) pod's grace period.
  const shutdownCap = shutdownGraceCap(ctx.config);
  const groups = shutdownGroups(ctx);
  const graceOf = (pod: string, shuttingDown = false): number => (shuttingDown ? Math.min(podGrace(pod), groups.critical(pod) ? groups.criticalPeriod : shutdownCap) : podGrace(pod));
  return [
    clusterAction<number>({
      name: 'kubelet-heartbeat',
      urgent: true,
      // With jitter, which of the due kubelets wait one quantum longer before the next renewal (a bit each).
      ...(jitter ? { params: (s: ClusterState) => Array.from({ length: choices ** heartbeatsDue(s).length }, (_, i) => i) } : {}),
      enabled: heartbeatDue,
      // Written without immer (a renewal is one step in thirteen): unchanged parts are shared.
      apply: (s, lateMask) => {
        const nodes = s.nodes.slice();
        let apiNodes: (NodeObject | null)[] | undefined;
        let managers: Candidate[] | undefined;
        heartbeatsDue(s).forEach((n, i) => {
          const heartbeatIn = ctx.renewInterval + (jitter ? lateOf(lateMask, i) * ctx.tick : 0);
          if (!kubeletCanWrite(s, n)) {
            nodes[n] = nodeWith(nodes[n], { heartbeatIn });
            return;
          }
          nodes[n] = nodeWith(nodes[n], { heartbeatIn, sinceHeartbeat: 0 });
          // Each controller manager's node health: the Lease was renewed since it last looked.
          const list = managers ?? s.candidates[KCM];
          for (let c = 0; c < list.length; c++) {
            const ctrl = list[c].ctrl;
            if (ctrl === null || ctrl.nodes[n].unseen) continue;
            // A paused process's watch holds the event until it runs again (see NodeHealth.buffered).
            const paused = list[c].paused > 0;
            if (paused && ctrl.nodes[n].buffered === true) continue;
            const health = ctrl.nodes.slice();
            health[n] = healthWith(health[n], paused ? { buffered: true } : { unseen: true });
            managers ??= s.candidates[KCM].slice();
            managers[c] = candidateWith(list[c], { ctrl: ctrlWith(ctrl, { nodes: health }) });
          }
          const obj = s.api.nodes[n];
          const ready = postedReady(s, n);
          if (obj !== null && ready !== undefined && obj.ready !== ready) {
            apiNodes ??= s.api.nodes.slice();
            apiNodes[n] = nodeObjectWith(obj, { ready });
          }
        });
        return stateWith(s, {
          nodes,
          ...(apiNodes === undefined ? {} : { api: apiWith(s.api, { nodes: apiNodes }) }),
          ...(managers === undefined ? {} : { candidates: [managers, s.candidates[1]] as unknown as ClusterState['candidates'] }),
        });
      },
      describe: (b, lateMask) => {
        const due = heartbeatsDue(b);
        const ok = due.filter((n) => kubeletCanWrite(b, n));
        const failed = due.filter((n) => !ok.includes(n));
        const parts = [];
        if (ok.length) parts.push(`${ok.map(nodeName).join(', ')} renew${ok.length === 1 ? 's its' : ' their'} Lease`);
        if (failed.length) parts.push(`${failed.map(nodeName).join(', ')} fail${failed.length === 1 ? 's' : ''} to renew (no API)`);
        for (const n of ok) {
          const ready = postedReady(b, n);
          if (ready !== undefined && b.api.nodes[n] !== null && b.api.nodes[n]!.ready !== ready) parts.push(`${nodeName(n)} posts Ready=${ready}`);
        }
        if (jitter) for (const [i, n] of due.entries()) if (lateOf(lateMask, i) > 0) parts.push(`${nodeName(n)} renews next in ${ctx.renewInterval + lateOf(lateMask, i) * ctx.tick}s (jitter)`);
        // Renewals of nodes already Ready are routine; a failure or a node coming back is not.
        const routine = failed.length === 0 && ok.every((n) => b.api.nodes[n] === null || postedReady(b, n) === undefined || b.api.nodes[n]!.ready === postedReady(b, n));
        return { actor: `kubelet/${due.map(nodeName).join(',')}`, summary: parts.join('; '), to: ok.length ? [...API] : [], routine, routineKind: 'heartbeats' };
      },
    }),
    clusterAction({
      name: 'kubelet-sync',
      urgent: true,
      enabled: (s) => {
        for (let n = 0; n < s.nodes.length; n++) if (syncWork(s, n, groups) !== undefined) return true;
        return false;
      },
      // Written without a draft (the kubelets' syncs are frequent steps): unchanged parts are shared.
      apply: (s) => {
        let nodes: NodeReal[] | undefined;
        let pods = s.api.pods;
        let apiNodes: (NodeObject | null)[] | undefined;
        for (let n = 0; n < s.nodes.length; n++) {
          const w = syncWork(s, n, groups);
          if (w === undefined) continue;
          const node = s.nodes[n];
          let running = node.running;
          const start = w.start.filter((name) => !running.includes(name));
          if (start.length > 0) running = [...running, ...start].sort();
          let terminating = node.terminating;
          if (w.stop.length) {
            // Grace periods already running were capped when the shutdown began (node-shutdown).
            const down = node.shutdownIn !== undefined;
            const list: Terminating[] = [...terminatingOf(node)];
            for (const name of w.stop) list.push({ pod: name, killIn: graceOf(name, down) });
            terminating = list.sort((a, b) => (a.pod < b.pod ? -1 : a.pod > b.pod ? 1 : 0));
          }
          if (running !== node.running || terminating !== node.terminating) {
            nodes ??= s.nodes.slice();
            nodes[n] = nodeWithContainers(node, running, terminating);
          }
          if (w.finish.length) pods = pods.filter((p) => !w.finish.includes(p.name));
          const obj = s.api.nodes[n];
          if (w.notReady === true && obj !== null && obj.ready !== 'False') {
            apiNodes ??= s.api.nodes.slice();
            apiNodes[n] = nodeObjectWith(obj, { ready: 'False' });
          }
        }
        const api = pods === s.api.pods && apiNodes === undefined ? s.api : apiWith(s.api, { nodes: apiNodes ?? s.api.nodes, pods });
        return nodes === undefined && api === s.api ? s : stateWith(s, { nodes: nodes ?? s.nodes, api });
      },
      describe: (b) => {
        const parts: string[] = [];
        const actors: string[] = [];
        let writes = false;
        for (let n = 0; n < b.nodes.length; n++) {
          const w = syncWork(b, n, groups);
          if (w === undefined) continue;
          actors.push(nodeName(n));
          const down = b.nodes[n].shutdownIn !== undefined;
          if (w.notReady === true) {
            parts.push(`posts ${nodeName(n)} Ready=False (node is shutting down)`);
            writes = true;
          }
          if (w.start.length) parts.push(`starts ${w.start.join(', ')} on ${nodeName(n)}`);
          if (w.stop.length) parts.push(`sends SIGTERM to ${w.stop.join(', ')} on ${nodeName(n)}${down ? ' for the node shutdown' : ''} (SIGKILL after ${w.stop.map((x) => `${graceOf(x, down)}s`).join(', ')})`);
          if (w.finish.length) {
            parts.push(`finishes deleting ${w.finish.join(', ')}`);
            writes = true;
          }
        }
        return { actor: `kubelet/${actors.join(',')}`, summary: parts.join('; '), to: writes ? [...API] : ['kube-apiserver'] };
      },
    }),
    clusterAction({
      name: 'kubelet-kill',
      urgent: true,
      enabled: anyKillDue,
      apply: (s) => {
        let next = s;
        for (const n of killsDue(s)) next = containersGone(next, n, terminatingOf(s.nodes[n]).filter((t) => t.killIn <= 0).map((t) => t.pod));
        return next;
      },
      describe: (b) => {
        const due = killsDue(b);
        const parts = due.map((n) => {
          const killed = terminatingOf(b.nodes[n]).filter((t) => t.killIn <= 0).map((t) => t.pod);
          const reported = killed.filter((pod) => reportsShutdownStop(b, n, pod));
          return `SIGKILL to ${killed.join(', ')} on ${nodeName(n)} (grace period over)${reported.length ? `; reports ${reported.join(', ')} Failed (node shutdown)` : ''}`;
        });
        const writes = due.some((n) => terminatingOf(b.nodes[n]).some((t) => t.killIn <= 0 && reportsShutdownStop(b, n, t.pod)));
        return { actor: `kubelet/${due.map(nodeName).join(',')}`, summary: parts.join('; '), to: writes ? [...API] : [] };
      },
    }),
  ];
}
