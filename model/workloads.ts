/**
 * The workload controllers of the kube-controller-manager leader:
 *
 * - ReplicaSet `web` (pkg/controller/replicaset): counts active pods, which excludes pods with a
 *   deletionTimestamp (`IsPodActive`), so a Terminating pod is replaced at once; creates the
 *   missing pods (admission fixes their tolerations), deletes extras (unbound ones first).
 * - StatefulSet `db` (pkg/controller/statefulset): pod names are fixed (`db-<ordinal>`) and the
 *   API refuses a name that still exists, so an identity is recreated only once the old pod object
 *   is gone. podManagementPolicy is the default OrderedReady (`processReplica` in
 *   stateful_set_control.go, monotonic): ordinals are visited from 0 up; the first missing one is
 *   created, one per sync, and the visit stops at the first ordinal that is Terminating ("waiting
 *   for Pod to Terminate") or not Running and Ready ("waiting for Pod to be Running and Ready"),
 *   so db-i is created only while db-0 … db-(i-1) all exist, are not Terminating and are Ready.
 *   **Ready here** (the model has no pod phases or pod conditions) means: the pod object exists,
 *   is bound, has no deletionTimestamp, its Node object exists with Ready=True (the node lifecycle
 *   controller's MarkPodsNotReady makes every pod of a node it marks Unknown NotReady), and its
 *   container is in that node's `running` list. That list is the real state, not the last status
 *   the kubelet posted: a pod on a crashed node counts as unready at once, whereas Kubernetes
 *   keeps its stale Ready status until the node is marked Unknown (this only matters for creating
 *   a missing higher ordinal within that grace period). Not modelled: readiness probes (a running
 *   container is Ready), minReadySeconds (0: Ready is Available), the Parallel policy, failed or
 *   succeeded pods being deleted and recreated, scale-down of condemned ordinals, updates.
 *
 * Informers are up to date within the instant, so expectations are not modelled.
 */
import { produce } from 'immer';
import { API, clusterAction, type ClusterAction, type Ctx } from './context.js';
import { acting, canWrite, KCM, nodeName, podIndex, type ClusterState, type PodObject } from './state.js';

const refs = (s: ClusterState): string[] => s.candidates[KCM].map((_, c) => `kube-controller-manager-${c + 1}`);
const idx = (p: string): number => Number(p.slice('kube-controller-manager-'.length)) - 1;

function kcmCanWrite(s: ClusterState, c: number): boolean {
  const k = s.candidates[KCM][c];
  return acting(k) && k.ctrl !== null && canWrite(s, k.partitioned);
}

/** The ReplicaSet's pending change: pods to create (names) and to delete. */
export function replicaSetWork(ctx: Ctx, s: ClusterState): { create: string[]; remove: string[] } | undefined {
  const want = ctx.config.cluster.replicaSetReplicas;
  const active = s.api.pods.filter((p) => p.workload === 'web' && p.deletion === null);
  if (active.length === want) return undefined;
  if (active.length > want) {
    const ranked = [...active].sort((a, b) => Number(a.nodeName >= 0) - Number(b.nodeName >= 0) || (a.name < b.name ? 1 : -1));
    return { create: [], remove: ranked.slice(0, active.length - want).map((p) => p.name) };
  }
  const used = new Set<string>(s.api.pods.map((p) => p.name));
  for (const n of s.nodes) for (const r of n.running) used.add(r);
  const create: string[] = [];
  for (let k = 0; create.length < want - active.length; k++) if (!used.has(`web-${k}`)) create.push(`web-${k}`);
  return { create, remove: [] };
}

/**
 * The StatefulSet pod is Running and Ready as far as the model can tell (see the header): bound,
 * not Terminating, on a Node object with Ready=True, its container running there.
 */
function statefulSetPodReady(s: ClusterState, p: PodObject): boolean {
  if (p.nodeName < 0 || p.deletion !== null) return false;
  const node = s.api.nodes[p.nodeName];
  return node !== null && node.ready === 'True' && s.nodes[p.nodeName].running.includes(p.name);
}

/**
 * The StatefulSet pod the OrderedReady controller creates now, or undefined: the lowest ordinal
 * whose pod object does not exist, provided every lower ordinal exists, is not Terminating and is
 * Ready (otherwise the controller waits). Once it has created db-i, db-i is unbound hence not
 * Ready, so nothing above it is due until it runs: the urgent action is then disabled.
 */
export function statefulSetNext(ctx: Ctx, s: ClusterState): string | undefined {
  const pods = s.api.pods;
  for (let i = 0; i < ctx.config.cluster.statefulSetReplicas; i++) {
    const name = `db-${i}`;
    const k = podIndex(s, name);
    if (k < 0) return name;
    if (!statefulSetPodReady(s, pods[k])) return undefined;
  }
  return undefined;
}

function newPod(ctx: Ctx, name: string, workload: 'web' | 'db'): PodObject {
  return { name, workload, nodeName: ctx.pinnedNode[workload], deletion: null, tolerations: ctx.toleration[workload], replacement: true };
}

const byName = (a: PodObject, b: PodObject): number => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0);

export function workloadActions(ctx: Ctx): ClusterAction[] {
  return [
    clusterAction<string>({
      name: 'replicaset-sync',
      urgent: true,
      params: refs,
      enabled: (s, p) => kcmCanWrite(s, idx(p)) && replicaSetWork(ctx, s) !== undefined,
      apply: (s) => {
        const w = replicaSetWork(ctx, s)!;
        return produce(s, (d) => {
          const pods = d.api.pods.filter((p) => !(w.remove.includes(p.name) && p.nodeName < 0));
          for (const p of pods) if (w.remove.includes(p.name)) p.deletion = 'replicaset';
          for (const name of w.create) pods.push(newPod(ctx, name, 'web'));
          d.api.pods = pods.sort(byName);
        });
      },
      describe: (b) => {
        const w = replicaSetWork(ctx, b)!;
        const parts = [];
        const t = ctx.toleration.web;
        const seconds = (x: number | null): string => (x === null ? 'forever' : `${x}s`);
        const bound = ctx.pinnedNode.web >= 0 ? `, spec.nodeName ${nodeName(ctx.pinnedNode.web)}` : '';
        if (w.create.length) parts.push(`creates ${w.create.join(', ')} (tolerations admitted: unreachable ${seconds(t.unreachable)}, not-ready ${seconds(t.notReady)}${bound})`);
        if (w.remove.length) parts.push(`deletes ${w.remove.join(', ')}`);
        return { actor: 'kube-controller-manager/replicaset', summary: parts.join('; '), to: [...API] };
      },
    }),
    clusterAction<string>({
      name: 'statefulset-sync',
      urgent: true,
      params: refs,
      enabled: (s, p) => kcmCanWrite(s, idx(p)) && statefulSetNext(ctx, s) !== undefined,
      apply: (s) => {
        const name = statefulSetNext(ctx, s)!;
        return produce(s, (d) => {
          d.api.pods = [...d.api.pods, newPod(ctx, name, 'db')].sort(byName);
        });
      },
      describe: (b) => ({
        actor: 'kube-controller-manager/statefulset',
        summary: `creates ${statefulSetNext(ctx, b) ?? '?'}${ctx.pinnedNode.db >= 0 ? ` (spec.nodeName ${nodeName(ctx.pinnedNode.db)})` : ''}`,
        to: [...API],
      }),
    }),
  ];
}
