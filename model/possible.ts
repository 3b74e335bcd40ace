/**
 * What can happen in a configuration: the one derivation every shortcut of the model, every
 * default property choice and every warning reads. A fault or operator action can happen when its
 * budget allows it (`faults.*`, `operator.*`), when the scenario's sequence names it
 * (`faults.sequence`, timed or free), or when a user's controller says it causes it (an
 * extension's `causes`). Reading a budget alone to decide that something cannot happen is the bug
 * this file removes: a fault given only in the sequence was invisible to the shortcuts
 * (leader election left out under a sequenced pause, pod GC never running for a sequenced Node
 * deletion).
 */
import type { ClusterConfig } from './config.js';

/** Every fault and operator action a budget or the sequence may allow, named as in traces. */
export const EVENT_KINDS = [
  'node-crash', 'node-shutdown', 'node-restart', 'kubelet-crash', 'kubelet-restart', 'container-runtime-failure', 'container-runtime-recovery', 'node-status-update-failure',
  'node-partition', 'node-partition-heal', 'component-crash', 'component-restart', 'control-plane-partition', 'control-plane-partition-heal',
  'etcd-member-loss', 'apiserver-loss', 'etcd-member-restore', 'apiserver-restore', 'apiserver-etcd-outage', 'process-pause', 'clock-drift',
  'force-delete-pod', 'delete-node', 'out-of-service-taint', 'cordon', 'etcd-restore', 'component-stop',
] as const;

export type EventKind = (typeof EVENT_KINDS)[number];

type FaultBudget = { [K in keyof ClusterConfig['faults']]: ClusterConfig['faults'][K] extends number ? K : never }[keyof ClusterConfig['faults']];
type OperatorBudget = keyof ClusterConfig['operator'];

/** The budget that allows each kind (`faults.<key>` or `operator.<key>`). */
export const BUDGET_OF: Readonly<Record<EventKind, { readonly section: 'faults'; readonly key: FaultBudget } | { readonly section: 'operator'; readonly key: OperatorBudget }>> = {
  'node-crash': { section: 'faults', key: 'nodeCrash' },
  'node-shutdown': { section: 'faults', key: 'nodeShutdown' },
  'node-restart': { section: 'faults', key: 'nodeRestart' },
  'kubelet-crash': { section: 'faults', key: 'kubeletCrash' },
  'kubelet-restart': { section: 'faults', key: 'kubeletRestart' },
  'container-runtime-failure': { section: 'faults', key: 'containerRuntimeFailure' },
  'container-runtime-recovery': { section: 'faults', key: 'containerRuntimeRecovery' },
  'node-status-update-failure': { section: 'faults', key: 'nodeStatusUpdateFailure' },
  'node-partition': { section: 'faults', key: 'nodePartition' },
  'node-partition-heal': { section: 'faults', key: 'nodePartitionHeal' },
  'component-crash': { section: 'faults', key: 'componentCrash' },
  'component-restart': { section: 'faults', key: 'componentRestart' },
  'control-plane-partition': { section: 'faults', key: 'controlPlanePartition' },
  'control-plane-partition-heal': { section: 'faults', key: 'controlPlanePartitionHeal' },
  'etcd-member-loss': { section: 'faults', key: 'etcdMemberLoss' },
  'apiserver-loss': { section: 'faults', key: 'apiserverLoss' },
  'etcd-member-restore': { section: 'faults', key: 'etcdMemberRestore' },
  'apiserver-restore': { section: 'faults', key: 'apiserverRestore' },
  'apiserver-etcd-outage': { section: 'faults', key: 'apiserverEtcdOutage' },
  'process-pause': { section: 'faults', key: 'processPause' },
  'clock-drift': { section: 'faults', key: 'clockDrift' },
  'force-delete-pod': { section: 'operator', key: 'forceDeletePod' },
  'delete-node': { section: 'operator', key: 'deleteNode' },
  'out-of-service-taint': { section: 'operator', key: 'outOfServiceTaint' },
  cordon: { section: 'operator', key: 'cordon' },
  'etcd-restore': { section: 'operator', key: 'etcdRestore' },
  'component-stop': { section: 'operator', key: 'componentStop' },
};

/** How a kind is allowed: by its budget, by a step of the sequence (with a delay or without), by an extension. */
export type AllowedBy = 'budget' | 'sequence-timed' | 'sequence-free' | 'extension';

/**
 * What a user's controller says it can cause beside its own writes of pods: e.g. a remediation
 * controller that deletes Node objects declares `causes: ['delete-node']`. Without a declaration
 * an extension is taken to cause none of the kinds.
 */
export interface ExtensionCauses {
  readonly name: string;
  readonly causes?: readonly EventKind[];
}

/** What can happen in one configuration, per kind. */
export interface PossibleEvents {
  /** At most how many times each kind happens on one path (budget plus sequence steps; Infinity when an extension causes it). */
  readonly count: Readonly<Record<EventKind, number>>;
  /** Every way each kind is allowed (empty: it never happens). */
  readonly allowedBy: Readonly<Record<EventKind, readonly AllowedBy[]>>;
}

/** The derivation: which kinds can happen in `config` (with `extensions` attached), and how often. */
export function possibleEvents(config: ClusterConfig, extensions: readonly ExtensionCauses[] = []): PossibleEvents {
  const count = {} as Record<EventKind, number>;
  const allowedBy = {} as Record<EventKind, AllowedBy[]>;
  for (const kind of EVENT_KINDS) {
    const b = BUDGET_OF[kind];
    const budget = b.section === 'faults' ? config.faults[b.key] : config.operator[b.key];
    const steps = config.faults.sequence.filter((x) => x.fault === kind);
    const caused = extensions.some((e) => e.causes?.includes(kind) === true);
    const ways: AllowedBy[] = [];
    if (budget > 0) ways.push('budget');
    if (steps.some((x) => x.after !== null)) ways.push('sequence-timed');
    if (steps.some((x) => x.after === null)) ways.push('sequence-free');
    if (caused) ways.push('extension');
    count[kind] = caused ? Infinity : Math.max(0, budget) + steps.length;
    allowedBy[kind] = ways;
  }
  return { count, allowedBy };
}

/** Whether any of `kinds` can happen. */
export function canHappen(p: PossibleEvents, ...kinds: readonly EventKind[]): boolean {
  return kinds.some((k) => p.count[k] > 0);
}

/** How many times any of `kinds` can happen on one path, all together. */
export function timesAtMost(p: PossibleEvents, ...kinds: readonly EventKind[]): number {
  return kinds.reduce((sum, k) => sum + p.count[k], 0);
}

/** Faults that stop a node's heartbeats or its containers. */
export const NODE_FAILURES: readonly EventKind[] = ['node-crash', 'node-shutdown', 'node-partition', 'kubelet-crash', 'container-runtime-failure'];

/** Faults that can make a leader stop renewing (or a follower take over early) with the API reachable. */
export const LEADER_FAULTS: readonly EventKind[] = ['component-crash', 'component-stop', 'control-plane-partition', 'process-pause', 'clock-drift'];

/** How many nodes can fail on one path. */
export function failingNodes(config: ClusterConfig, p: PossibleEvents): number {
  // A new node whose kubelet never starts fails like a crashed one.
  return Math.min(config.cluster.nodes, timesAtMost(p, ...NODE_FAILURES) + config.cluster.newNodes);
}

/** Whether etcd can be without quorum on some path (from the start or after member losses). */
export function quorumLossPossible(config: ClusterConfig, p: PossibleEvents): boolean {
  const etcdTolerance = config.cluster.etcdMembers - (Math.floor(config.cluster.etcdMembers / 2) + 1);
  return config.cluster.etcdMembersDownAtStart + p.count['etcd-member-loss'] > etcdTolerance;
}

/** Whether every kube-apiserver can be lost on some path. */
export function everyApiserverLossPossible(config: ClusterConfig, p: PossibleEvents): boolean {
  return p.count['apiserver-loss'] >= config.cluster.apiservers;
}

/**
 * No fault or outage can ever make a Lease renewal fail or a leader restart (no process crash,
 * pause, drift or partition, etcd keeps quorum, some kube-apiserver stays up): the leaders then
 * renew forever and no follower ever acquires, so leader election only adds stuttering steps.
 * Not exact after an etcd restore, which restarts the control plane as followers that then never
 * acquire (see NOTES.md, "What can happen"): counting it here makes the stock etcd-restore
 * scenario intractable, so it needs a reduction in leader election of its own.
 */
export function leaderElectionInert(config: ClusterConfig, p: PossibleEvents): boolean {
  return (
    !canHappen(p, ...LEADER_FAULTS) &&
    !quorumLossPossible(config, p) && !everyApiserverLossPossible(config, p) && config.cluster.outage !== 'kube-apiserver'
  );
}

/** No Node object can be deleted and no out-of-service taint put: pod GC never has work. */
export function podGcInert(p: PossibleEvents): boolean {
  return !canHappen(p, 'delete-node', 'out-of-service-taint');
}
