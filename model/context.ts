/**
 * Constants derived once from the configuration and shared by every component: periods in
 * seconds, saturation caps, the zone of each node. Also the shape of one model action.
 */
import type { JsonValue, StepDescription } from '../checker/model.js';
import { leaseRenewInterval, tolerationOf, type ClusterConfig, type LeaderElectionConfig } from './config.js';
import type { ClusterState } from './state.js';

export interface Ctx {
  readonly config: ClusterConfig;
  readonly tick: number;
  readonly renewInterval: number;
  readonly grace: number;
  readonly monitorPeriod: number;
  /**
   * The value a monitor pass gives `NodeHealth.sinceProbe` of a node it has just marked
   * Ready=Unknown: "marked by my last pass, not yet observed Unknown", so not yet in the zone's
   * NoExecute taint queue (see `nodeLifecycle.ts`). Above the tick's saturation cap (grace +
   * tick), so time leaves it alone; the controller's next pass replaces it. Once a node is
   * Unknown its `sinceProbe` is not read until a renewal resets it, so the value is free for this.
   */
  readonly markedUnknown: number;
  readonly leaderElection: readonly [LeaderElectionConfig, LeaderElectionConfig];
  readonly toleration: { readonly web: number; readonly db: number };
  /** `sinceHeartbeat` saturates here: one past grace + the largest tolerationSeconds. */
  readonly heartbeatCap: number;
  /** `sinceNoExecute` saturates here: one past the largest tolerationSeconds. */
  readonly noExecuteCap: number;
  readonly zoneOfNode: readonly number[];
  readonly nodesOfZone: readonly (readonly number[])[];
  /**
   * No fault or outage can ever make a Lease renewal fail (no process crash, pause, drift or
   * partition, etcd keeps quorum, some kube-apiserver stays up). The leaders then renew forever
   * and no follower ever acquires, so leader election only adds stuttering steps: its actions
   * and timers are left out. Exact for every property, which all ignore those timers.
   */
  readonly leaderElectionInert: boolean;
  /**
   * No Node object can be deleted and no out-of-service taint put: pod GC never has work, so
   * its passes (which change only their own timer) are left out. Exact.
   */
  readonly podGcInert: boolean;
}

export function makeCtx(config: ClusterConfig): Ctx {
  const toleration = { web: tolerationOf(config, 'web'), db: tolerationOf(config, 'db') };
  // Pods carry only these (defaultNotReadyTolerationSeconds has no effect in this model).
  const maxTol = Math.max(toleration.web, toleration.db);
  const grace = config.kubeControllerManager.nodeMonitorGracePeriod;
  const zoneOfNode = Array.from({ length: config.cluster.nodes }, (_, n) => n % config.cluster.zones);
  return {
    config,
    tick: config.model.tick,
    renewInterval: leaseRenewInterval(config),
    grace,
    monitorPeriod: config.kubeControllerManager.nodeMonitorPeriod,
    markedUnknown: grace + 2 * config.model.tick,
    leaderElection: [config.kubeControllerManager.leaderElection, config.kubeScheduler.leaderElection],
    toleration,
    heartbeatCap: grace + maxTol + config.kubeControllerManager.nodeMonitorPeriod * 2 + config.model.tick,
    noExecuteCap: maxTol + config.model.tick,
    zoneOfNode,
    leaderElectionInert: leaderElectionInert(config),
    podGcInert: config.operator.deleteNode === 0 && config.operator.outOfServiceTaint === 0,
    nodesOfZone: Array.from({ length: config.cluster.zones }, (_, z) => zoneOfNode.flatMap((zz, n) => (zz === z ? [n] : []))),
  };
}

function leaderElectionInert(c: ClusterConfig): boolean {
  const f = c.faults;
  const etcdTolerance = c.cluster.etcdMembers - (Math.floor(c.cluster.etcdMembers / 2) + 1);
  return (
    f.componentCrash === 0 && f.controlPlanePartition === 0 && f.processPause === 0 && f.clockDrift === 0 &&
    c.cluster.etcdMembersDownAtStart + f.etcdMemberLoss <= etcdTolerance &&
    f.apiserverLoss < c.cluster.apiservers && c.cluster.outage !== 'kube-apiserver'
  );
}

/**
 * One action of the cluster model. Urgent actions are the periodic and reactive work of live
 * components: while any is enabled, time does not pass and no fault happens, and only the first
 * enabled urgent action in model order may fire (see `clusterModel.ts`). Non-urgent actions
 * (tick, faults, operator) run only between instants.
 */
export interface ClusterAction<P extends JsonValue | undefined = JsonValue | undefined> {
  readonly name: string;
  readonly urgent: boolean;
  readonly params?: readonly P[] | ((s: ClusterState) => readonly P[]);
  enabled(s: ClusterState, p: P): boolean;
  apply(s: ClusterState, p: P): ClusterState;
  describe(before: ClusterState, p: P, after: ClusterState): StepDescription;
}

/** Declares one action with its parameter type checked. */
export function clusterAction<P extends JsonValue | undefined = undefined>(def: ClusterAction<P>): ClusterAction {
  return def as unknown as ClusterAction;
}

export const API = ['kube-apiserver', 'etcd'] as const;
