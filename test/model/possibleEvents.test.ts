/**
 * One derivation of what can happen (`model/possible.ts`): every fault and operator kind, allowed
 * by its budget, by a timed step of `faults.sequence`, or by a free step, gives the same
 * shortcuts (leader election and pod GC left out or not), the same default properties, the same
 * warnings, and the same verdict of the property that kind is about. Before, the shortcuts read
 * the budgets only: a pause or a crash given in the sequence never disturbed leader election,
 * and pod GC never ran for a Node deletion or an out-of-service taint given there.
 */
import { describe, expect, it } from 'vitest';
import { check, sometimes, type Property } from '../../checker/index.js';
import { configWarnings, makeCtx, resolveConfig, type ClusterConfig, type ClusterState } from '../../model/index.js';
import { BUDGET_OF, EVENT_KINDS, possibleEvents, type AllowedBy, type EventKind } from '../../model/possible.js';
import { defaultProperties, kubernetesModel } from '../../properties/index.js';
import { SMALL_TIMERS } from './helpers.js';

/** One kind's walk: the config, its target, what must come first, and the property it is about. */
interface Case {
  readonly kind: EventKind;
  readonly scenario: 'leader-failover' | 'node-failure';
  readonly set?: Readonly<Record<string, string>>;
  readonly target: string | null;
  /** A step that must come first (a restart needs a crash), given as a free step of the sequence in every way. */
  readonly first?: string;
  /** The delay of the timed step (after the previous step, or the start). */
  readonly after: string;
  /** The property (a catalog id, or a witness of the kind's own effect below). */
  readonly property: string;
  /** Its verdict in every way of allowing the kind. */
  readonly verdict: string;
  /** Its verdict when the kind is not allowed at all (`first` still is), where it differs. */
  readonly without?: string;
}

/** The control plane alone: one node, no workloads, one kube-scheduler (budgets of the scenario at 0). */
const CONTROL_PLANE = { 'faults.componentCrash': '0', 'faults.controlPlanePartition': '0', 'cluster.schedulerCandidates': '1' };
/** Three nodes (web-0 on node-1, web-1 on node-2, db-0 on node-3), short timers, no budget. */
const NODES = { ...SMALL_TIMERS, 'faults.nodeCrash': '0' };
const SHORT_GC = { 'kubeControllerManager.podGcPeriod': '2s', 'kubeControllerManager.podGcQuarantine': '4s' };

const CASES: readonly Case[] = [
  // Control plane: the leader-election shortcut.
  { kind: 'process-pause', scenario: 'leader-failover', target: 'kube-controller-manager-1', after: '4s', property: 'single-leader', verdict: 'violated', without: 'holds' },
  { kind: 'component-crash', scenario: 'leader-failover', target: 'kube-controller-manager-1', after: '4s', property: 'leader-failover', verdict: 'witnessed', without: 'unwitnessed' },
  { kind: 'component-restart', scenario: 'leader-failover', set: { 'cluster.controllerManagerCandidates': '1' }, first: 'component-crash:kube-controller-manager-1', target: 'kube-controller-manager-1', after: '4s', property: 'kcm-leads-again', verdict: 'witnessed', without: 'unwitnessed' },
  { kind: 'control-plane-partition', scenario: 'leader-failover', target: 'kube-controller-manager-1', after: '4s', property: 'leader-failover', verdict: 'witnessed', without: 'unwitnessed' },
  { kind: 'component-stop', scenario: 'leader-failover', target: 'kube-controller-manager-1', after: '4s', property: 'leader-failover', verdict: 'witnessed', without: 'unwitnessed' },
  { kind: 'control-plane-partition-heal', scenario: 'leader-failover', set: { 'cluster.controllerManagerCandidates': '1' }, first: 'control-plane-partition:kube-controller-manager-1', target: 'kube-controller-manager-1', after: '20s', property: 'kcm-leads-again', verdict: 'witnessed', without: 'unwitnessed' },
  // A slow leader's clock keeps it acting past a cut-off (renewDeadline + retryPeriod at half speed is 24 s > 15 s).
  { kind: 'clock-drift', scenario: 'leader-failover', set: { 'faults.clockDriftRate': '0.5' }, first: 'control-plane-partition:kube-controller-manager-1', target: 'kube-controller-manager-1', after: '1s', property: 'single-leader', verdict: 'violated', without: 'holds' },
  { kind: 'etcd-member-loss', scenario: 'leader-failover', set: { 'cluster.etcdMembersDownAtStart': '1' }, target: 'etcd-2', after: '4s', property: 'kcm-leader-lost', verdict: 'witnessed', without: 'unwitnessed' },
  { kind: 'etcd-member-restore', scenario: 'leader-failover', set: { 'cluster.etcdMembersDownAtStart': '1', 'cluster.controllerManagerCandidates': '1' }, first: 'etcd-member-loss:etcd-2', target: 'etcd-2', after: '20s', property: 'kcm-leads-again', verdict: 'witnessed', without: 'unwitnessed' },
  { kind: 'apiserver-loss', scenario: 'leader-failover', set: { 'cluster.apiservers': '1' }, target: 'kube-apiserver-1', after: '4s', property: 'kcm-leader-lost', verdict: 'witnessed', without: 'unwitnessed' },
  { kind: 'apiserver-restore', scenario: 'leader-failover', set: { 'cluster.apiservers': '1', 'cluster.controllerManagerCandidates': '1' }, first: 'apiserver-loss:kube-apiserver-1', target: 'kube-apiserver-1', after: '20s', property: 'kcm-leads-again', verdict: 'witnessed', without: 'unwitnessed' },
  // Nodes.
  { kind: 'node-crash', scenario: 'node-failure', target: 'node-1', after: '3s', property: 'node-marked-unknown', verdict: 'witnessed', without: 'unwitnessed' },
  // A graceful shutdown reports db-0 Failed: the StatefulSet recreates it without any eviction.
  { kind: 'node-shutdown', scenario: 'node-failure', set: { 'kubelet.shutdownGracePeriod': '4s' }, target: 'node-3', after: '3s', property: 'statefulset-recreated', verdict: 'witnessed', without: 'unwitnessed' },
  { kind: 'node-restart', scenario: 'node-failure', first: 'node-crash:node-3', target: 'node-3', after: '10s', property: 'statefulset-recreated', verdict: 'witnessed', without: 'unwitnessed' },
  { kind: 'kubelet-crash', scenario: 'node-failure', target: 'node-1', after: '3s', property: 'node-marked-unknown', verdict: 'witnessed', without: 'unwitnessed' },
  { kind: 'kubelet-restart', scenario: 'node-failure', first: 'kubelet-crash:node-3', target: 'node-3', after: '10s', property: 'statefulset-recreated', verdict: 'witnessed', without: 'unwitnessed' },
  { kind: 'node-partition', scenario: 'node-failure', target: 'node-1', after: '3s', property: 'node-marked-unknown', verdict: 'witnessed', without: 'unwitnessed' },
  { kind: 'node-partition-heal', scenario: 'node-failure', first: 'node-partition:node-3', target: 'node-3', after: '10s', property: 'statefulset-recreated', verdict: 'witnessed', without: 'unwitnessed' },
  { kind: 'container-runtime-failure', scenario: 'node-failure', target: 'node-1', after: '3s', property: 'pod-evicted', verdict: 'witnessed', without: 'unwitnessed' },
  { kind: 'container-runtime-recovery', scenario: 'node-failure', first: 'container-runtime-failure:node-3', target: 'node-3', after: '1s', property: 'node-3-runs-again', verdict: 'witnessed', without: 'unwitnessed' },
  // Its Lease still renews: the node is never marked Unknown, whichever way the fault comes.
  { kind: 'node-status-update-failure', scenario: 'node-failure', target: 'node-3', after: '3s', property: 'node-marked-unknown', verdict: 'unwitnessed' },
  { kind: 'apiserver-etcd-outage', scenario: 'node-failure', set: { 'faults.apiserverEtcdOutageDuration': '4s' }, target: null, after: '3s', property: 'node-marked-unknown', verdict: 'witnessed', without: 'unwitnessed' },
  // Operator actions: the pod GC shortcut (db-0 runs on node-3).
  { kind: 'delete-node', scenario: 'node-failure', set: SHORT_GC, target: 'node-3', after: '3s', property: 'statefulset-recreated', verdict: 'witnessed', without: 'unwitnessed' },
  { kind: 'out-of-service-taint', scenario: 'node-failure', set: SHORT_GC, first: 'node-crash:node-3', target: 'node-3', after: '10s', property: 'statefulset-recreated', verdict: 'witnessed', without: 'unwitnessed' },
  { kind: 'force-delete-pod', scenario: 'node-failure', target: 'db-0', after: '3s', property: 'statefulset-recreated', verdict: 'witnessed', without: 'unwitnessed' },
  { kind: 'cordon', scenario: 'node-failure', set: { 'cluster.nodes': '2', 'cluster.statefulSetReplicas': '0' }, first: 'node-crash:node-1', target: 'node-2', after: '1s', property: 'replacement-unschedulable', verdict: 'witnessed', without: 'unwitnessed' },
  { kind: 'etcd-restore', scenario: 'node-failure', first: 'node-crash:node-1', target: null, after: '10s', property: 'no-phantom-pods', verdict: 'violated', without: 'holds' },
];

/** Witnesses of a kind's own effect, for kinds no catalog property speaks of alone. */
function witnesses(config: ClusterConfig): Property<ClusterState>[] {
  /** Every budget spent and every step of the sequence done: the kind walked has happened. */
  const stepsDone = (s: ClusterState): boolean => Object.values(s.budget).every((b) => b === 0) && s.sequenceDone === config.faults.sequence.length;
  return [
  sometimes<ClusterState>('kcm-leader-lost', 'no kube-controller-manager acts as leader', (s) => s.candidates[0].every((k) => !k.leader)),
  sometimes<ClusterState>('kcm-leads-again', 'kube-controller-manager-1 leads again after the disturbance ended', (s) => {
    const k = s.candidates[0][0];
    return stepsDone(s) && k.up && !k.partitioned && k.leader && s.etcd.filter((m) => m).length * 2 > s.etcd.length && s.apiservers.some((a) => a);
  }),
  sometimes<ClusterState>('node-3-runs-again', 'node-3 runs a container again after its runtime recovered', (s) => stepsDone(s) && s.nodes[2].runtimeUp && s.nodes[2].running.length > 0),
  sometimes<ClusterState>('replacement-unschedulable', 'a replacement is Pending while every live node is cordoned', (s) =>
    s.api.pods.some((p) => p.replacement && p.nodeName < 0 && p.deletion === null) && s.api.nodes.every((n, i) => n === null || n.unschedulable || !s.nodes[i].up),
  ),
  ];
}

type Way = Exclude<AllowedBy, 'extension'>;
const WAYS: readonly Way[] = ['budget', 'sequence-timed', 'sequence-free'];

function configOf(c: Case, way: Way | 'none'): ClusterConfig {
  const b = BUDGET_OF[c.kind];
  const step = `${c.kind}${c.target === null ? '' : `:${c.target}`}`;
  const sequence = [...(c.first === undefined ? [] : [c.first]), ...(way === 'sequence-free' ? [step] : way === 'sequence-timed' ? [`${step}+${c.after}`] : [])];
  const set: Record<string, string> = {
    ...(c.scenario === 'leader-failover' ? CONTROL_PLANE : NODES),
    ...c.set,
    ...(sequence.length > 0 ? { 'faults.sequence': sequence.join(',') } : {}),
    ...(way === 'budget' ? { [`${b.section}.${b.key}`]: '1' } : {}),
  };
  return resolveConfig(c.scenario, { set, allowUnsafe: true });
}

function verdict(config: ClusterConfig, property: string): string {
  const base = kubernetesModel(config);
  const result = check({ ...base, properties: [...base.properties, ...witnesses(config)] }, { properties: [property] });
  expect(result.stoppedBy).toBeUndefined();
  return result.properties[0].status;
}

describe('possible events: one derivation for every way of allowing a kind', () => {
  it('walks every kind', () => {
    expect(CASES.map((c) => c.kind).sort()).toEqual([...EVENT_KINDS].sort());
  });

  it('counts a kind by its budget, its sequence steps and the extensions that cause it', () => {
    const config = resolveConfig('node-failure', { set: { 'faults.nodeCrash': '2', 'faults.sequence': 'node-crash:node-1,process-pause:kube-controller-manager-1+5s' } });
    const p = possibleEvents(config, [{ name: 'remediation', causes: ['delete-node'] }, { name: 'quiet' }]);
    expect(p.count['node-crash']).toBe(3);
    expect(p.allowedBy['node-crash']).toEqual(['budget', 'sequence-free']);
    expect(p.allowedBy['process-pause']).toEqual(['sequence-timed']);
    expect(p.count['delete-node']).toBe(Infinity);
    expect(p.allowedBy['delete-node']).toEqual(['extension']);
    expect(p.count['out-of-service-taint']).toBe(0);
    expect(makeCtx(config, [{ name: 'remediation', causes: ['delete-node'] }]).podGcInert).toBe(false);
    expect(makeCtx(config).podGcInert).toBe(true);
  });

  for (const c of CASES) {
    describe(c.kind, () => {
      const configs = Object.fromEntries(WAYS.map((w) => [w, configOf(c, w)])) as Record<Way, ClusterConfig>;

      it('is allowed by each way and gives the same shortcuts, default properties and warnings', () => {
        const seen = WAYS.map((w) => {
          const config = configs[w];
          expect(possibleEvents(config).allowedBy[c.kind]).toContain(w);
          const ctx = makeCtx(config);
          return { leaderElectionInert: ctx.leaderElectionInert, podGcInert: ctx.podGcInert, defaults: defaultProperties(c.scenario, config), warnings: configWarnings(config) };
        });
        for (const s of seen.slice(1)) expect(s).toEqual(seen[0]);
      });

      it(`gives ${c.property} ${c.verdict} in every way${c.without === undefined ? '' : ` (${c.without} without it)`}`, () => {
        const verdicts = Object.fromEntries(WAYS.map((w) => [w, verdict(configs[w], c.property)]));
        expect(verdicts).toEqual(Object.fromEntries(WAYS.map((w) => [w, c.verdict])));
        if (c.without !== undefined) expect(verdict(configOf(c, 'none'), c.property)).toBe(c.without);
      });
    });
  }
});
