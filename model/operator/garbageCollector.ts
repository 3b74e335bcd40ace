/**
 * The kube-controller-manager's garbage collector, for the objects of users' kinds: an object
 * whose owner (by `ownerReferences[].uid`) no longer exists is deleted (background propagation,
 * the default for custom resources; an owner recreated under its name has a new uid, so the old
 * dependents go too). It acts at any instant after the owner is gone, strongly fair for liveness.
 * Source: kubernetes/kubernetes:pkg/controller/garbagecollector (attemptToDeleteItem).
 */
import { clusterAction, type ClusterAction } from '../context.js';
import type { ClusterState } from '../state.js';
import { applyWrite, garbageCollectable } from './api.js';

const splitKey = (key: string): [string, string] => {
  const i = key.indexOf('/');
  return [key.slice(0, i), key.slice(i + 1)];
};

export const garbageCollector: ClusterAction = clusterAction<string>({
  name: 'garbage-collector',
  urgent: false,
  fair: 'strong',
  params: (s) => (s.custom === undefined ? [] : garbageCollectable(s.custom).map((o) => `${o.kind}/${o.name}`)),
  enabled: (s, key) => s.custom !== undefined && garbageCollectable(s.custom).some((o) => `${o.kind}/${o.name}` === key),
  apply: (s: ClusterState, key) => {
    const [kind, name] = splitKey(key);
    const o = garbageCollectable(s.custom!).find((x) => x.kind === kind && x.name === name)!;
    return { ...s, custom: applyWrite(s.custom!, { op: 'delete', kind, name, preconditions: { uid: o.uid } })[0] };
  },
  describe: (_b, key) => ({ actor: 'kube-controller-manager/garbage-collector', summary: `deletes ${key}: its owner is gone (background propagation)`, to: ['kube-apiserver'] }),
});
