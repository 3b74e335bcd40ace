/**
 * Validation of a resolved configuration, as strict as Kubernetes' own. Rules Kubernetes itself
 * enforces are KC105 and can be waived with `allowUnsafe` (the user then sees the consequences);
 * shape and modelling rules cannot.
 */
import type { ClusterConfig, LeaderElectionConfig } from './config.js';
import { candidateLeaderElection, leaseRenewInterval, nodeLabelsOf, ZONE_LABEL } from './config.js';
import { formatDuration } from './duration.js';
import { ModelErrorCode, modelError } from './errors.js';
import { parameterSpec, parameterSpecs, parameterValue, type BoundRule, type ParameterSpec } from './parameters.js';
import { canHappen, EVENT_KINDS, possibleEvents } from './possible.js';

/** The faults and operator actions a fault sequence may name (as `model/faults.ts` names them). */
export const FAULT_NAMES: readonly string[] = EVENT_KINDS;

/** The error code of each rule a declared bound belongs to (KC105 is `unsafe`'s, waived by allowUnsafe). */
const BOUND_CODES: Readonly<Record<Exclude<BoundRule, 'kubernetes'>, (typeof ModelErrorCode)[keyof typeof ModelErrorCode]>> = {
  shape: ModelErrorCode.invalidShape,
  value: ModelErrorCode.invalidValue,
  model: ModelErrorCode.modelLimit,
};

/** A value of `spec`'s as a message shows it: a duration written with its unit, a number as it is. */
function shown(spec: ParameterSpec, v: number): string {
  return spec.type === 'duration' || spec.type === 'optionalDuration' ? formatDuration(v) : String(v);
}

/**
 * The refusal of `spec`'s value in `c` by its declared bounds (`model/parameters.ts`), or
 * undefined where it is within them or is no number (a toleration's forever, none or default).
 */
function boundProblem(c: ClusterConfig, spec: ParameterSpec): string | undefined {
  const b = spec.bounds;
  const v = parameterValue(c, spec.key);
  if (b === undefined || typeof v !== 'number') return undefined;
  const other = b.atMost === undefined ? undefined : parameterSpec(b.atMost);
  const limit = other === undefined ? undefined : parameterValue(c, other.key);
  const low = b.above !== undefined ? v > b.above : b.min === undefined || v >= b.min;
  const high = (b.max === undefined || v <= b.max) && (typeof limit !== 'number' || v <= limit);
  if (low && high) return undefined;
  const otherShown = other !== undefined && typeof limit === 'number' ? `${other.key} (${shown(other, limit)})` : '';
  const says =
    b.says ??
    (otherShown !== '' ? (b.min === undefined ? `must not exceed ${otherShown}` : `must be between ${b.min} and ${otherShown}`)
    : b.max !== undefined ? `must be in ${b.above !== undefined ? `(${b.above}` : `[${b.min ?? '-∞'}`}, ${b.max}]`
    : b.above === 0 ? 'must be positive'
    : b.above !== undefined ? `must be greater than ${b.above}`
    : b.min === 0 ? 'must not be negative'
    : `must be at least ${b.min}`);
  return `${spec.key} (${shown(spec, v)}) ${says}${b.source === undefined ? '' : ` (${b.source})`}`;
}

/** client-go's JitterFactor (tools/leaderelection/leaderelection.go). */
export const JITTER_FACTOR = 1.2;

/**
 * The rules of client-go `NewLeaderElector`: leaseDuration > renewDeadline > 1.2 × retryPeriod,
 * each at least 1 ns. Returns the first broken rule as a message, or undefined.
 */
export function leaderElectionProblem(prefix: string, le: LeaderElectionConfig): string | undefined {
  const f = formatDuration;
  for (const k of ['leaseDuration', 'renewDeadline', 'retryPeriod'] as const) {
    if (!(le[k] > 0)) return `${prefix}.leaderElection: ${k} (${f(le[k])}) must be at least 1ns (client-go NewLeaderElector)`;
  }
  if (le.leaseDuration <= le.renewDeadline) {
    return `${prefix}.leaderElection: leaseDuration (${f(le.leaseDuration)}) must be greater than renewDeadline (${f(le.renewDeadline)}) (client-go NewLeaderElector)`;
  }
  if (le.renewDeadline <= JITTER_FACTOR * le.retryPeriod) {
    return `${prefix}.leaderElection: renewDeadline (${f(le.renewDeadline)}) must be greater than ${JITTER_FACTOR} × retryPeriod (${f(le.retryPeriod)}) (client-go NewLeaderElector)`;
  }
  return undefined;
}

function shape(ok: boolean, message: string): void {
  if (!ok) modelError(ModelErrorCode.invalidShape, message);
}

function multiple(key: string, seconds: number, tick: number): void {
  const q = seconds / tick;
  if (Math.abs(q - Math.round(q)) > 1e-9) {
    modelError(ModelErrorCode.modelLimit, `${key} (${formatDuration(seconds)}) must be a multiple of model.tick (${formatDuration(tick)}) so that the timeline is exact`);
  }
}

/** A DNS-1123 label: what a workload's pods' names are built from. */
const DNS_LABEL = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/;

/**
 * `cluster.workloads`: names that are DNS-1123 labels, distinct, and whose pods' names cannot be
 * taken for another's (a DaemonSet `x` names its pods `x-node-<n>`, so a workload `x-node` is
 * refused beside it); replicas not negative; nodes that exist.
 */
function validateWorkloads(c: ClusterConfig): void {
  const list = c.cluster.workloads;
  list.forEach((w, i) => {
    const at = `cluster.workloads[${i}]`;
    if (!DNS_LABEL.test(w.name) || w.name.length > 50) {
      modelError(ModelErrorCode.invalidValue, `${at}.name: ${JSON.stringify(w.name)} is not a workload name kubecheck can name pods after (lower-case letters, digits and '-', at most 50 characters, starting and ending with a letter or digit)`);
    }
    shape(w.replicas >= 0, `${at}.replicas (${w.replicas}) must not be negative (apps/v1 validation)`);
    shape(w.nodeName < c.cluster.nodes, `${at}.nodeName (node-${w.nodeName + 1}) names a node that does not exist (cluster.nodes is ${c.cluster.nodes})`);
    for (const t of ['unreachable', 'notReady'] as const) {
      const v = w.tolerations[t];
      if (typeof v === 'number' && v < 0) modelError(ModelErrorCode.invalidValue, `${at}.tolerations.${t} (${v}) must not be negative`);
    }
    list.forEach((o, j) => {
      if (j <= i) return;
      shape(o.name !== w.name, `cluster.workloads: two workloads are named ${w.name} (${w.kind} and ${o.kind}); their pods would have the same names`);
    });
    for (const o of list) {
      if (o.kind === 'DaemonSet' && w.name === `${o.name}-node`) shape(false, `cluster.workloads: ${w.name} would name its pods like the DaemonSet ${o.name}'s (${o.name}-node-<n>); rename one`);
    }
  });
}

/**
 * `cluster.nodeLabels`: at most one map per node, and zone labels that name the model's zones
 * (node i is in zone i mod zones): one value per zone, a different one for each.
 */
function validateNodeLabels(c: ClusterConfig): void {
  const cl = c.cluster;
  shape(cl.nodeLabels.length <= cl.nodes, `cluster.nodeLabels gives ${cl.nodeLabels.length} label maps for ${cl.nodes} nodes (one per node, in order)`);
  const names = new Map<string, number>();
  for (let n = 0; n < cl.nodes; n++) {
    const zone = nodeLabelsOf(c, n)[ZONE_LABEL];
    const z = n % cl.zones;
    const seen = names.get(zone);
    shape(seen === undefined || seen === z, `cluster.nodeLabels: node-${n + 1} is in zone ${z + 1} of the model (node i is in zone i mod cluster.zones) but its ${ZONE_LABEL} label (${zone}) names zone ${(seen ?? 0) + 1}'s`);
    names.set(zone, z);
  }
  for (let z = 0; z < cl.zones; z++) {
    const values = new Set(Array.from({ length: cl.nodes }, (_, n) => n).filter((n) => n % cl.zones === z).map((n) => nodeLabelsOf(c, n)[ZONE_LABEL]));
    shape(values.size <= 1, `cluster.nodeLabels: the nodes of zone ${z + 1} of the model carry different ${ZONE_LABEL} labels (${[...values].join(', ')})`);
  }
}

/** Throws the first broken rule (KC104–KC107). */
export function validateConfig(c: ClusterConfig): void {
  const unsafe = (message: string): void => {
    if (!c.allowUnsafe) modelError(ModelErrorCode.refusedByKubernetes, `${message}; explore it anyway with --allow-unsafe-config (allowUnsafe: true in a config file or the API)`);
  };
  // Every parameter within its declared bounds; Kubernetes' own rules come last, after the shape's.
  for (const spec of parameterSpecs()) {
    const rule = spec.bounds?.rule;
    if (rule === undefined || rule === 'kubernetes') continue;
    const problem = boundProblem(c, spec);
    if (problem !== undefined) modelError(BOUND_CODES[rule], problem);
  }
  const cl = c.cluster;
  for (const step of c.faults.sequence) {
    if (!FAULT_NAMES.includes(step.fault)) modelError(ModelErrorCode.invalidValue, `faults.sequence: unknown fault "${step.fault}"; known: ${FAULT_NAMES.join(', ')}`);
    const node = step.target === null ? null : /^node-(\d+)$/.exec(step.target);
    if (node !== null && (Number(node[1]) < 1 || Number(node[1]) > cl.nodes)) shape(false, `faults.sequence: ${step.fault}:${step.target} names a node that does not exist (cluster.nodes is ${cl.nodes})`);
    if (step.after !== null) multiple(`faults.sequence delay of ${step.fault}`, step.after, c.model.tick);
  }
  const kcm = c.kubeControllerManager;
  for (const k of ['replicaSetNodeName', 'statefulSetNodeName'] as const) {
    shape(cl[k] < cl.nodes, `cluster.${k} (node-${cl[k] + 1}) names a node that does not exist (cluster.nodes is ${cl.nodes})`);
  }
  validateWorkloads(c);
  validateNodeLabels(c);

  // Rules Kubernetes enforces itself.
  for (const spec of parameterSpecs()) {
    const problem = spec.bounds?.rule === 'kubernetes' ? boundProblem(c, spec) : undefined;
    if (problem !== undefined) unsafe(problem);
  }
  for (const prefix of ['kubeControllerManager', 'kubeScheduler'] as const) {
    const problem = leaderElectionProblem(prefix, c[prefix].leaderElection);
    if (problem !== undefined) unsafe(problem);
    const challenger = candidateLeaderElection(c[prefix].leaderElection, c[prefix].challengerLeaderElection, 1);
    const other = leaderElectionProblem(`${prefix}.challengerLeaderElection (with leaderElection)`, challenger);
    if (other !== undefined) unsafe(other);
  }

  // What the discrete model needs.
  const periods: [string, number][] = [
    ['kubeControllerManager.nodeMonitorPeriod', kcm.nodeMonitorPeriod],
    ['kubeControllerManager.podGcPeriod', kcm.podGcPeriod],
    ['kubeControllerManager.leaderElection.retryPeriod', kcm.leaderElection.retryPeriod],
    ['kubeScheduler.leaderElection.retryPeriod', c.kubeScheduler.leaderElection.retryPeriod],
    ['kubelet lease renew interval (0.25 × nodeLeaseDurationSeconds)', leaseRenewInterval(c)],
  ];
  for (const [k, v] of periods) if (!(v > 0)) modelError(ModelErrorCode.modelLimit, `${k} (${formatDuration(v)}) must be positive: a zero period would stop time`);
  const tick = c.model.tick;
  const durations: [string, number][] = [
    ...periods,
    ['kubeControllerManager.nodeMonitorGracePeriod', kcm.nodeMonitorGracePeriod],
    ['kubeControllerManager.nodeStartupGracePeriod', kcm.nodeStartupGracePeriod],
    ['kubelet.shutdownGracePeriod', c.kubelet.shutdownGracePeriod],
    ['kubelet.shutdownGracePeriodCriticalPods', c.kubelet.shutdownGracePeriodCriticalPods],
    ['kubeControllerManager.podGcQuarantine', kcm.podGcQuarantine],
    ['faults.processPauseDuration', c.faults.processPauseDuration],
    ['kubeApiserver.defaultNotReadyTolerationSeconds', c.kubeApiserver.defaultNotReadyTolerationSeconds],
    ['kubeApiserver.defaultUnreachableTolerationSeconds', c.kubeApiserver.defaultUnreachableTolerationSeconds],
  ];
  for (const prefix of ['kubeControllerManager', 'kubeScheduler'] as const) {
    durations.push([`${prefix}.leaderElection.leaseDuration`, c[prefix].leaderElection.leaseDuration]);
    durations.push([`${prefix}.leaderElection.renewDeadline`, c[prefix].leaderElection.renewDeadline]);
  }
  for (const spec of parameterSpecs()) {
    const v = spec.type === 'toleration' ? parameterValue(c, spec.key) : undefined;
    if (typeof v === 'number') durations.push([spec.key, v]);
  }
  cl.workloads.forEach((w, i) => {
    for (const t of ['unreachable', 'notReady'] as const) {
      const v = w.tolerations[t];
      if (typeof v === 'number') durations.push([`cluster.workloads[${i}] (${w.name}).tolerations.${t}`, v]);
    }
    (w.templateTolerations ?? []).forEach((t, j) => {
      if (t.tolerationSeconds !== null && t.tolerationSeconds > 0) durations.push([`cluster.workloads[${i}] (${w.name}).tolerations[${j}].tolerationSeconds`, t.tolerationSeconds]);
    });
  });
  for (const prefix of ['kubeControllerManager', 'kubeScheduler'] as const) {
    for (const [k, v] of Object.entries(c[prefix].challengerLeaderElection)) if (v !== null) durations.push([`${prefix}.challengerLeaderElection.${k}`, v]);
  }
  durations.push(['faults.apiserverEtcdOutageDuration', c.faults.apiserverEtcdOutageDuration]);
  for (const [k, v] of [['nodeEvictionRate', kcm.nodeEvictionRate], ['secondaryNodeEvictionRate', kcm.secondaryNodeEvictionRate]] as const) {
    if (v > 0) durations.push([`1 / kubeControllerManager.${k}`, 1 / v]);
  }
  for (const [k, v] of durations) multiple(k, v, tick);
}

/**
 * Warnings about a config Kubernetes accepts but documents as unsafe, each naming the rule and
 * its consequence, and where the config asks a question the model answers only by construction.
 * They do not change what is checked: the search shows the consequence.
 */
export function configWarnings(c: ClusterConfig): string[] {
  const out: string[] = [];
  const f = formatDuration;
  const possible = possibleEvents(c);
  const grace = c.kubeControllerManager.nodeMonitorGracePeriod;
  const renew = leaseRenewInterval(c);
  if (grace <= renew) {
    out.push(`kubeControllerManager.nodeMonitorGracePeriod (${f(grace)}) is not longer than the kubelet's Lease renew interval (${f(renew)}): healthy nodes are marked Unknown between two renewals (--node-monitor-grace-period "must be N times more than" the kubelet's update interval, N the retries allowed)`);
  } else if (grace < 2 * renew) {
    out.push(`kubeControllerManager.nodeMonitorGracePeriod (${f(grace)}) allows no missed Lease renewal (renew interval ${f(renew)}): one slow renewal marks a healthy node Unknown (--node-monitor-grace-period "must be N times more than" the kubelet's update interval)`);
  }
  // HTTP2_PING_TIMEOUT_SECONDS (30) + HTTP2_READ_IDLE_TIMEOUT_SECONDS (15) in client-go.
  if (grace > renew && grace <= 45) {
    out.push(`kubeControllerManager.nodeMonitorGracePeriod (${f(grace)}) is not above 45s, the time a kubelet needs to detect a dead kube-apiserver connection (HTTP/2 ping 30s + read idle 15s): nodes can flap on a short kube-apiserver ⇄ etcd outage (kubernetes#121793, the reason the default became 50s in 1.32)`);
  }
  let twoManagers = false;
  for (const prefix of ['kubeControllerManager', 'kubeScheduler'] as const) {
    const candidates = prefix === 'kubeControllerManager' ? c.cluster.controllerManagerCandidates : c.cluster.schedulerCandidates;
    const settings = [c[prefix].leaderElection, ...(candidates > 1 ? [candidateLeaderElection(c[prefix].leaderElection, c[prefix].challengerLeaderElection, 1)] : [])];
    const holdOn = Math.max(...settings.map((le) => le.renewDeadline + le.retryPeriod));
    const takeOver = Math.min(...settings.map((le) => le.leaseDuration));
    // A pause can reach this component's candidates: a budget (any process) or a sequence step naming one of them.
    const paused = possible.allowedBy['process-pause'].some((w) => w === 'budget' || w === 'extension') || c.faults.sequence.some((x) => x.fault === 'process-pause' && (x.target === null || x.target.startsWith(prefix === 'kubeControllerManager' ? 'kube-controller-manager' : 'kube-scheduler')));
    const twoLeaders = candidates > 1 && (holdOn > takeOver || paused || (canHappen(possible, 'clock-drift') && c.faults.clockDriftRate !== 1));
    if (prefix === 'kubeControllerManager' && twoLeaders) twoManagers = true;
    if (candidates > 1 && holdOn > takeOver) {
      out.push(`${prefix}: a leader that stops renewing keeps acting up to renewDeadline + retryPeriod (${f(holdOn)}) after its last renewal, longer than leaseDuration (${f(takeOver)}): two leaders are possible without any clock skew (client-go leaderelection.go: "does not guarantee that only one client is acting as a leader")`);
    }
    const le = c[prefix].leaderElection;
    const tolerated = le.leaseDuration / (le.renewDeadline + le.retryPeriod);
    if (canHappen(possible, 'clock-drift') && candidates > 1 && (c.faults.clockDriftRate > tolerated || c.faults.clockDriftRate < 1 / tolerated)) {
      out.push(`faults.clockDriftRate (${c.faults.clockDriftRate}) is beyond the clock-rate skew ${prefix} leader election tolerates, leaseDuration / (renewDeadline + retryPeriod) = ${Math.round(tolerated * 1000) / 1000}: two leaders are possible`);
    }
  }
  if (twoManagers && c.informers.watchLag === 0 && c.cluster.workloads.some((w) => w.kind === 'ReplicaSet' && w.replicas > 0)) {
    out.push('two kube-controller-manager processes can act as leader at once here, and with informers.watchLag 0 each reads the API as it is in the step that writes: they never both create a ReplicaSet replacement, so replicaset-at-most-replicas holds by construction; set informers.watchLag (e.g. 1s) to explore their stale caches');
  }
  return out;
}
