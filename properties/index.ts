/**
 * The named Kubernetes properties over the cluster model, the catalog the command line lists,
 * and which properties each scenario checks by default.
 */
import type { Model, Property } from '../checker/index.js';
import { clusterModel, resolveConfig, tolerationOf, type ClusterConfig, type ClusterModelOptions, type ClusterState } from '../model/index.js';
import { canHappen, everyApiserverLossPossible, failingNodes, LEADER_FAULTS, possibleEvents, quorumLossPossible, type ExtensionCauses, type PossibleEvents } from '../model/possible.js';
import { replicaSets } from './helpers.js';
import { healthyNodeNotUnknown, leaderHandoverWithin, noEarlyEviction, replacementAfterToleration, replacementWithin, unknownAfterGrace } from './observers.js';
import {
  noDoubleBinding, noNodeUnknown, noPodEvicted, noReplacementCreated, noScheduleOnUnready, replacementsStayPending, replicaSetAtMostReplicas, noPhantomPods,
  runningPodsKeepRunning, singleLeader, statefulSetAtMostOne, writesNeedQuorum,
} from './safety.js';
import { leaderFailover, nodeMarkedUnknown, podEvicted, replacementPending, replacementRunning, replicaSetExtraCopy, replicaSetOverCreation, statefulSetRecreated, zonePartialDisruption } from './witnesses.js';

export { notReadyReplacementBound, replacementBound, runningReplicas } from './helpers.js';

export interface PropertyInfo {
  readonly id: string;
  readonly kind: 'invariant' | 'action' | 'reachable' | 'observer';
  readonly description: string;
  readonly source: string;
}

/** Every property of the model for `config`, in catalog order. */
export function kubernetesProperties(config: ClusterConfig): Property<ClusterState>[] {
  return [
    singleLeader,
    noDoubleBinding,
    statefulSetAtMostOne(config),
    noScheduleOnUnready,
    noEarlyEviction(),
    writesNeedQuorum,
    replicaSetAtMostReplicas(config),
    noPhantomPods,
    healthyNodeNotUnknown(config),
    replacementWithin(config),
    unknownAfterGrace(config),
    replacementAfterToleration(config),
    leaderHandoverWithin(config),
    runningPodsKeepRunning,
    noNodeUnknown,
    noPodEvicted,
    noReplacementCreated,
    replacementsStayPending,
    nodeMarkedUnknown,
    podEvicted,
    replacementRunning(config),
    leaderFailover,
    replicaSetExtraCopy(config),
    replacementPending,
    statefulSetRecreated(config),
    zonePartialDisruption,
    replicaSetOverCreation(config),
  ];
}

/** The catalog: every property id with its kind, description and source (bounds as with node-failure's defaults). */
export const propertyCatalog: readonly PropertyInfo[] = kubernetesProperties(resolveConfig('node-failure')).map((p) => ({
  id: p.id,
  kind: p.kind,
  description: p.description,
  source: p.source ?? '',
}));

/** The cluster model with every Kubernetes property. */
export function kubernetesModel(config: ClusterConfig, options: ClusterModelOptions = {}): Model<ClusterState> {
  return { ...clusterModel(config, options), properties: kubernetesProperties(config) };
}

const SAFETY = [
  'single-leader', 'no-double-binding', 'statefulset-at-most-one', 'no-schedule-on-unready', 'no-early-eviction', 'writes-need-quorum',
  'running-pods-keep-running', 'healthy-node-not-unknown', 'unknown-after-grace', 'replicaset-at-most-replicas',
];

/** A property the default selection leaves out, and why. */
export interface LeftOut {
  readonly id: string;
  readonly reason: string;
}

/** What `check` checks when no property is asked for, and what it leaves out with the reason. */
export interface DefaultSelection {
  readonly ids: readonly string[];
  readonly leftOut: readonly LeftOut[];
}

/**
 * Why the recovery properties do not apply to `config`: each reason is a case where Kubernetes
 * itself makes no such promise (a broken verdict there is not a finding). Empty when they apply.
 */
function recoveryExclusions(config: ClusterConfig, possible: PossibleEvents): { afterToleration: string[]; within: string[] } {
  const cl = config.cluster;
  const afterToleration: string[] = [];
  const within: string[] = [];
  const both = (reason: string): void => {
    afterToleration.push(reason);
    within.push(reason);
  };
  const sets = replicaSets(config).filter((w) => w.replicas > 0);
  if (sets.length === 0) both(replicaSets(config).length === 0 ? 'there is no ReplicaSet' : 'the ReplicaSet has no replicas');
  if (canHappen(possible, 'etcd-restore')) both('an etcd restore rolls the API back: replacements made since vanish and evictions start over');
  if (canHappen(possible, 'force-delete-pod', 'delete-node', 'out-of-service-taint')) both('operator actions (force delete, Node deletion, out-of-service taint) remove pods before any toleration, by design');
  if (canHappen(possible, 'node-shutdown') && config.kubelet.shutdownGracePeriod > 0) afterToleration.push('a graceful node shutdown reports its pods Failed, and they are replaced at once, by design');
  if (canHappen(possible, 'container-runtime-failure')) afterToleration.push('its bound counts from the last heartbeat, and a node whose container runtime fails keeps renewing');
  if (cl.newNodes > 0) within.push('a replacement can be bound to a new node whose kubelet never starts: it waits for --node-startup-grace-period and an eviction of its own, which no bound from the failed node\'s last heartbeat covers');
  if (cl.outage !== 'none') within.push(`the ${cl.outage} is down from the start: nothing is replaced`);
  if (quorumLossPossible(config, possible)) within.push('etcd can lose quorum: nothing is written until it returns');
  if (everyApiserverLossPossible(config, possible)) within.push('every kube-apiserver can be lost');
  if (canHappen(possible, ...LEADER_FAULTS)) {
    within.push('a kube-controller-manager failover restarts the eviction countdown (kubernetes#108268), so no fixed bound holds');
  }
  const failing = failingNodes(config, possible);
  const zoneSize = Math.floor(cl.nodes / cl.zones);
  const perZone = Math.min(failing, Math.ceil(cl.nodes / cl.zones));
  if (perZone > 2 && perZone / Math.ceil(cl.nodes / cl.zones) >= config.kubeControllerManager.unhealthyZoneThreshold && zoneSize <= config.kubeControllerManager.largeClusterSizeThreshold) {
    within.push('more than 2 and at least --unhealthy-zone-threshold of a zone\'s nodes can fail: the zone enters PartialDisruption and its evictions stop (rate 0 in a zone of at most --large-cluster-size-threshold nodes), by design');
  }
  if (failing + possible.count.cordon >= cl.nodes) within.push('every node can fail or be cordoned: none may be left to run a replacement');
  const pinning = sets.filter((w) => w.nodeName >= 0);
  if (pinning.length > 0) within.push(`${sets.length > 1 ? `the ReplicaSet ${pinning.map((w) => w.name).join(', ')}` : 'the ReplicaSet'} pins its pods with spec.nodeName: a replacement goes to the same node`);
  const forever = sets.filter((w) => {
    const tol = tolerationOf(config, w.name);
    return tol.unreachable === null && tol.notReady === null;
  });
  if (forever.length > 0) within.push(`${sets.length > 1 ? `the ReplicaSet ${forever.map((w) => w.name).join(', ')}'s` : 'the ReplicaSet'} pods tolerate unreachable and not-ready forever`);
  return { afterToleration, within };
}

/**
 * The properties `kubecheck check --scenario <scenario>` checks by default, and those it leaves
 * out with the reason. Every safety property is always checked, above all when a fault or
 * operator action that can break it is allowed; the recovery properties are checked wherever
 * Kubernetes promises recovery for the config; witnesses show the scenario is not vacuous.
 * Whether a fault or operator action can happen is read from `possibleEvents` (a budget, the
 * sequence, an extension's declaration), never from a budget alone.
 */
export function defaultProperties(scenario: string, config: ClusterConfig, extensions: readonly ExtensionCauses[] = []): DefaultSelection {
  const possible = possibleEvents(config, extensions);
  // With graceful node shutdown off a shutdown is a crash; with it on, pods are replaced without eviction.
  const nodeFails = canHappen(possible, 'node-crash', 'node-partition', 'kubelet-crash') || (canHappen(possible, 'node-shutdown') && config.kubelet.shutdownGracePeriod === 0);
  const gracefulShutdowns = canHappen(possible, 'node-shutdown') && config.kubelet.shutdownGracePeriod > 0;
  const web = replicaSets(config).some((w) => w.replicas > 0);
  const ids = [...SAFETY];
  const leftOut: LeftOut[] = [];
  const exclusions = recoveryExclusions(config, possible);
  for (const [id, reasons] of [['replacement-after-toleration', exclusions.afterToleration], ['replacement-within', exclusions.within]] as const) {
    if (reasons.length === 0) ids.push(id);
    else leftOut.push({ id, reason: reasons.join('; ') });
  }
  if (canHappen(possible, 'etcd-restore')) ids.push('no-phantom-pods');
  else leftOut.push({ id: 'no-phantom-pods', reason: 'no etcd restore is allowed (operator.etcdRestore): without one, every container whose kubelet is in touch has its pod object' });
  switch (scenario) {
    case 'leader-failover':
      if (canHappen(possible, 'component-crash', 'control-plane-partition') && config.cluster.controllerManagerCandidates + config.cluster.schedulerCandidates > 2) ids.push('leader-failover');
      break;
    case 'component-outage':
      if (config.cluster.outage === 'kube-scheduler') {
        ids.push('replacements-stay-pending');
        if (nodeFails && web) ids.push('node-marked-unknown', 'pod-evicted', 'replacement-pending');
      } else if (config.cluster.outage !== 'none') ids.push('no-node-unknown', 'no-pod-evicted', 'no-replacement-created');
      break;
    default: {
      const quorumLost = config.cluster.etcdMembersDownAtStart > (config.cluster.etcdMembers - 1) / 2;
      if (quorumLost) {
        ids.push('no-node-unknown', 'no-pod-evicted', 'no-replacement-created');
        break;
      }
      if (nodeFails || gracefulShutdowns) ids.push('node-marked-unknown');
      if (nodeFails && web) ids.push('pod-evicted', 'replacement-running');
      else if (gracefulShutdowns && web) ids.push('replacement-running');
      if (scenario === 'node-partition' && canHappen(possible, 'node-partition') && web) ids.push('replicaset-extra-copy');
      if (scenario === 'zone-disruption') ids.push('node-marked-unknown', 'zone-partial-disruption');
      if (scenario === 'expectations-timeout') ids.push('replicaset-over-creation');
    }
  }
  return { ids, leftOut };
}

/** The ids {@link defaultProperties} selects. */
export function defaultPropertyIds(scenario: string, config: ClusterConfig, extensions: readonly ExtensionCauses[] = []): readonly string[] {
  return defaultProperties(scenario, config, extensions).ids;
}
