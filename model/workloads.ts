/**
 * The workload controllers of the kube-controller-manager leader:
 *
 * - ReplicaSet `web` (pkg/controller/replicaset): counts active pods, which excludes pods with a
 *   deletionTimestamp (`IsPodActive`), so a Terminating pod is replaced at once; creates the
 *   missing pods (admission fixes their tolerations), deletes extras (unbound ones first).
 * - StatefulSet `db` (pkg/controller/statefulset): pod names are fixed (`db-<ordinal>`) and the
 *   API refuses a name that still exists, so an identity is recreated only once the old pod object
 *   is gone. All missing ordinals are created together (podManagementPolicy Parallel; with one
 *   replica OrderedReady is the same).
 *
 * Informers are up to date within the instant, so expectations are not modelled.
 */
import { produce } from 'immer';
import { API, clusterAction, type ClusterAction, type Ctx } from './context.js';
import { acting, canWrite, KCM, type ClusterState, type PodObject } from './state.js';

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

/** StatefulSet ordinals whose pod object does not exist. */
export function statefulSetMissing(ctx: Ctx, s: ClusterState): string[] {
  const out: string[] = [];
  for (let i = 0; i < ctx.config.cluster.statefulSetReplicas; i++) {
    const name = `db-${i}`;
    if (!s.api.pods.some((p) => p.name === name)) out.push(name);
  }
  return out;
}

function newPod(ctx: Ctx, name: string, workload: 'web' | 'db'): PodObject {
  return { name, workload, nodeName: -1, deletion: null, tolerationSeconds: ctx.toleration[workload], replacement: true };
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
        if (w.create.length) parts.push(`creates ${w.create.join(', ')} (tolerations admitted: ${ctx.toleration.web}s)`);
        if (w.remove.length) parts.push(`deletes ${w.remove.join(', ')}`);
        return { actor: 'kube-controller-manager/replicaset', summary: parts.join('; '), to: [...API] };
      },
    }),
    clusterAction<string>({
      name: 'statefulset-sync',
      urgent: true,
      params: refs,
      enabled: (s, p) => kcmCanWrite(s, idx(p)) && statefulSetMissing(ctx, s).length > 0,
      apply: (s) => {
        const missing = statefulSetMissing(ctx, s);
        return produce(s, (d) => {
          d.api.pods = [...d.api.pods, ...missing.map((n) => newPod(ctx, n, 'db'))].sort(byName);
        });
      },
      describe: (b) => ({ actor: 'kube-controller-manager/statefulset', summary: `creates ${statefulSetMissing(ctx, b).join(', ')}`, to: [...API] }),
    }),
  ];
}
