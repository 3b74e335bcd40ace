/**
 * The named Kubernetes properties over the cluster model, the catalog the command line lists,
 * and which properties each scenario checks by default.
 */
import type { Model, Property } from '../checker/index.js';
import { clusterModel, resolveConfig, type ClusterConfig, type ClusterModelOptions, type ClusterState } from '../model/index.js';
import { noEarlyEviction, replacementAfterToleration, replacementWithin, unknownAfterGrace } from './observers.js';
import {
  noDoubleBinding, noNodeUnknown, noPodEvicted, noReplacementCreated, noScheduleOnUnready, replacementsStayPending,
  runningPodsKeepRunning, singleLeader, statefulSetAtMostOne, writesNeedQuorum,
} from './safety.js';
import { leaderFailover, nodeMarkedUnknown, podEvicted, replacementPending, replacementRunning, replicaSetExtraCopy, statefulSetRecreated } from './witnesses.js';

export { replacementBound, runningReplicas } from './helpers.js';

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
    statefulSetAtMostOne,
    noScheduleOnUnready,
    noEarlyEviction(),
    writesNeedQuorum,
    replacementWithin(config),
    unknownAfterGrace(config),
    replacementAfterToleration(config),
    runningPodsKeepRunning,
    noNodeUnknown,
    noPodEvicted,
    noReplacementCreated,
    replacementsStayPending,
    nodeMarkedUnknown,
    podEvicted,
    replacementRunning,
    leaderFailover,
    replicaSetExtraCopy(config),
    replacementPending,
    statefulSetRecreated,
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

const SAFETY = ['single-leader', 'no-double-binding', 'statefulset-at-most-one', 'no-schedule-on-unready', 'no-early-eviction', 'writes-need-quorum', 'running-pods-keep-running'];
const TIMING = ['unknown-after-grace', 'replacement-after-toleration', 'replacement-within'];

/**
 * The ids `kubecheck check --scenario <scenario>` checks by default: the properties expected to
 * hold and the witnesses expected to be reached for that scenario and config, so that the stock
 * scenarios with their defaults pass. Other ids can be asked for explicitly.
 */
export function defaultPropertyIds(scenario: string, config: ClusterConfig): readonly string[] {
  const f = config.faults;
  const o = config.operator;
  const operatorActs = o.forceDeletePod + o.deleteNode + o.outOfServiceTaint > 0;
  const nodeFails = f.nodeCrash + f.nodePartition + f.kubeletCrash > 0;
  const web = config.cluster.replicaSetReplicas > 0;
  // statefulset-at-most-one stays even when operator actions are allowed: a force delete or an
  // out-of-service taint on a running node is exactly what breaks it, and a user who allows one
  // should see that by default.
  const ids = [...SAFETY];
  switch (scenario) {
    case 'leader-failover':
      if (f.componentCrash + f.controlPlanePartition > 0 && config.cluster.controllerManagerCandidates + config.cluster.schedulerCandidates > 2) ids.push('leader-failover');
      if (f.processPause > 0 || f.clockDrift > 0) ids.splice(ids.indexOf('single-leader'), 1);
      return ids;
    case 'component-outage':
      if (config.cluster.outage === 'kube-scheduler') {
        ids.push('replacements-stay-pending');
        if (nodeFails && web) ids.push('node-marked-unknown', 'pod-evicted', 'replacement-pending');
      } else if (config.cluster.outage !== 'none') ids.push('no-node-unknown', 'no-pod-evicted', 'no-replacement-created');
      return ids;
    default: {
      const quorumLost = config.cluster.etcdMembersDownAtStart > (config.cluster.etcdMembers - 1) / 2;
      if (quorumLost) return [...ids, 'no-node-unknown', 'no-pod-evicted', 'no-replacement-created'];
      if (!operatorActs) ids.push(...TIMING.filter((t) => web || t === 'unknown-after-grace'));
      if (nodeFails) ids.push('node-marked-unknown');
      if (nodeFails && web) ids.push('pod-evicted', 'replacement-running');
      if (scenario === 'node-partition' && f.nodePartition > 0 && web) ids.push('replicaset-extra-copy');
      return ids;
    }
  }
}
