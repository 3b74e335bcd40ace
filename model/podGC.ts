/**
 * Pod garbage collector (kubernetes/kubernetes:pkg/controller/podgc/gc_controller.go), every
 * gcCheckPeriod (20 s) in the kube-controller-manager leader:
 * - `gcOrphaned`: pods bound to a Node object that has been missing for quarantineTime (40 s) are
 *   force-deleted;
 * - `gcTerminating`: Terminating pods on a node that is not Ready and carries the
 *   `node.kubernetes.io/out-of-service` taint are force-deleted (non-graceful node shutdown, GA 1.28).
 * Force deletion removes the object without the kubelet's confirmation.
 */
import { produce } from './immer.js';
import { API, clusterAction, type ClusterAction, type Ctx } from './context.js';
import { managerIndex, byShape, acting, canWrite, hasTaint, KCM, type ClusterState } from './state.js';

/** Pods the pod GC of candidate c force-deletes on its pass now. */
export function podGcVictims(ctx: Ctx, s: ClusterState, c: number): string[] {
  const k = s.candidates[KCM][c];
  if (k.ctrl === null || !canWrite(s, k.partitioned)) return [];
  const quarantine = ctx.config.kubeControllerManager.podGcQuarantine;
  const out: string[] = [];
  for (const p of s.api.pods) {
    if (p.nodeName < 0) continue;
    const node = s.api.nodes[p.nodeName];
    if (node === null) {
      if (k.ctrl.gcMissing[p.nodeName] >= quarantine) out.push(p.name);
    } else if (p.deletion !== null && node.ready !== 'True' && hasTaint(node, 'out-of-service:NoExecute')) out.push(p.name);
  }
  return out;
}

const refs = byShape((s: ClusterState): string[] => s.candidates[KCM].map((_, c) => `kube-controller-manager-${c + 1}`));
const idx = managerIndex;

export function podGcActions(ctx: Ctx): ClusterAction[] {
  return [
    clusterAction<string>({
      name: 'pod-gc',
      urgent: true,
      params: refs,
      enabled: (s, p) => {
        const k = s.candidates[KCM][idx(p)];
        return !ctx.podGcInert && acting(k) && k.ctrl !== null && k.ctrl.gcIn <= 0;
      },
      apply: (s, p) => {
        const c = idx(p);
        const victims = podGcVictims(ctx, s, c);
        return produce(s, (d) => {
          const ctrl = d.candidates[KCM][c].ctrl!;
          ctrl.gcIn = ctx.config.kubeControllerManager.podGcPeriod;
          d.api.nodes.forEach((node, n) => {
            if (node !== null) ctrl.gcMissing[n] = -1;
            else if (ctrl.gcMissing[n] < 0) ctrl.gcMissing[n] = 0;
          });
          if (victims.length) d.api.pods = d.api.pods.filter((pod) => !victims.includes(pod.name));
        });
      },
      describe: (b, p) => {
        const victims = podGcVictims(ctx, b, idx(p));
        return {
          actor: 'kube-controller-manager/pod-gc',
          summary: victims.length ? `force-deletes ${victims.join(', ')}` : 'GC pass: nothing to delete',
          to: victims.length ? [...API] : ['kube-apiserver'],
          routine: victims.length === 0,
          routineKind: 'pod-GC passes',
        };
      },
    }),
  ];
}
