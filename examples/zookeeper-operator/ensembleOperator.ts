/**
 * A ZooKeeper operator, after zookeeper-operator#513: a `ZookeeperCluster` says how many members
 * the ensemble has; the operator scales the StatefulSet `zk` to it and deletes the claims of the
 * members a scale-down removed. A removed member's data (`data-zk-1`) is stale the moment it
 * leaves the ensemble: a member that starts on it later rejoins with an old view of the ensemble.
 *
 * Three bugs, one per option, each a classic pattern of controllers:
 * - `cleanup: 'with-scale-down'` (intermediate state): the claims are deleted in the reconcile
 *   that scales down, after the scale; a restart between the two writes leaves them for good,
 *   and the next scale-up starts zk-1 on its old data.
 * - `waitForRemovedPods: false` (unobserved state): a scale-up right after a scale-down, before the
 *   removed pod is gone, is written at once; the operator never sees the claim orphaned, and the
 *   StatefulSet controller recreates zk-1 on it.
 * - `checkLive: false` (stale state): the cleanup decides from the informer cache; a cache that
 *   has heard of the new claim of zk-1 but not yet of the scale-up nor of its pod deletes a
 *   member's data.
 * The fix (`ensembleOperatorFixed.ts`): every reconcile deletes the orphaned claims (level
 * triggered), a scale-up waits until no pod above the set is left (so their claims are orphaned
 * and deleted first; the StatefulSet controller creates no pod while its claim is being deleted),
 * and deletes are decided on live reads and carry the claim's uid.
 */
import { always, observer } from 'kubecheck';
import { objectOf, objectsOf, operator, type ApiObject, type Write } from 'kubecheck/operator';
import type { ClusterExtension, ClusterState } from 'kubecheck/model';

const SET = 'zk';
const ordinal = (o: ApiObject): number => Number(o.metadata.name.slice(o.metadata.name.lastIndexOf('-') + 1));
const replicas = (o: ApiObject | undefined): number => (o?.spec as { replicas?: number } | undefined)?.replicas ?? 0;
const ofSet = (list: readonly ApiObject[]): readonly ApiObject[] => list.filter((o) => o.metadata.labels?.app === SET);

export interface EnsembleOptions {
  readonly cleanup: 'with-scale-down' | 'every-reconcile';
  readonly waitForRemovedPods: boolean;
  readonly checkLive: boolean;
}

export function ensembleOperator(o: EnsembleOptions): ClusterExtension {
  const scaleTo = (n: number) => ({ name: `scale-${n}`, description: `kubectl scale zookeepercluster ${SET} --replicas=${n}`, writes: (s: ClusterState): Write[] | undefined => (replicas(objectOf(s, 'ZookeeperCluster', SET)) === 3 - n ? [{ op: 'patch', kind: 'ZookeeperCluster', name: SET, patch: { spec: { replicas: n } } }] : undefined) });
  return operator({
    name: 'zookeeper-operator',
    for: 'ZookeeperCluster',
    watches: ['StatefulSet', 'Pod', 'PersistentVolumeClaim'].map((kind) => ({ kind, map: () => [SET] })),
    objects: [{ kind: 'ZookeeperCluster', metadata: { name: SET }, spec: { replicas: 2 } }],
    reconcile(request, view) {
      const read = o.checkLive ? view.reader : view;
      const zk = view.get('ZookeeperCluster', request);
      const sts = read.get('StatefulSet', SET);
      if (zk === undefined || sts === undefined) return {};
      const [want, have] = [replicas(zk), replicas(sts)];
      const pods = ofSet(read.list('Pod')).map(ordinal);
      const claims = ofSet(read.list('PersistentVolumeClaim'));
      const del = (c: ApiObject): Write => ({ op: 'delete', kind: 'PersistentVolumeClaim', name: c.metadata.name, ...(o.checkLive ? { preconditions: { uid: c.metadata.uid } } : {}) });
      const scale: Write = { op: 'patch', kind: 'StatefulSet', name: SET, patch: { spec: { replicas: want } } };
      if (o.cleanup === 'with-scale-down') {
        if (want < have) return { writes: [scale, ...claims.filter((c) => ordinal(c) >= want).map(del)] };
      } else {
        const orphans = claims.filter((c) => ordinal(c) >= have && !pods.includes(ordinal(c)) && c.metadata.deletionTimestamp === undefined);
        if (orphans.length > 0) return { writes: orphans.map(del), ignore: ['NotFound', 'Conflict'] };
      }
      if (want > have && o.waitForRemovedPods && pods.some((i) => i >= have)) return { requeueAfter: 1 };
      return want === have ? {} : { writes: [scale] };
    },
    clients: [scaleTo(1), scaleTo(2)],
    properties: [
      // The claims of removed members (`!` once their pod is gone), kept until the claim goes.
      observer<ClusterState, readonly string[]>({
        id: 'zookeeper-no-stale-rejoin',
        description: 'no member starts on the data of a member a scale-down removed',
        initial: () => [],
        step(stale, _b, _a, s) {
          const set = replicas(objectOf(s, 'StatefulSet', SET));
          return ofSet(objectsOf(s, 'PersistentVolumeClaim')).flatMap((c) => {
            const was = stale.find((x) => x === c.metadata.name || x === `${c.metadata.name}!`);
            const gone = objectOf(s, 'Pod', `${SET}-${ordinal(c)}`) === undefined;
            if (was === undefined && ordinal(c) < set) return [];
            return [`${c.metadata.name}${was?.endsWith('!') === true || gone ? '!' : ''}`];
          });
        },
        holds: (stale, s) => !stale.some((x) => x.endsWith('!') && (objectOf(s, 'Pod', `${SET}-${x.slice(x.lastIndexOf('-') + 1, -1)}`)?.spec as { nodeName?: string } | undefined)?.nodeName),
      }),
      always<ClusterState>('zookeeper-member-data-kept', 'a member (an ordinal below the set\'s replicas) that runs keeps its claim', (s) => {
        const set = replicas(objectOf(s, 'StatefulSet', SET));
        return ofSet(objectsOf(s, 'Pod')).every((p) => ordinal(p) >= set || !(p.spec as { nodeName: string }).nodeName || objectOf(s, 'PersistentVolumeClaim', `data-${p.metadata.name}`)?.metadata.deletionTimestamp === undefined && objectOf(s, 'PersistentVolumeClaim', `data-${p.metadata.name}`) !== undefined);
      }),
    ],
  });
}

export default ensembleOperator({ cleanup: 'with-scale-down', waitForRemovedPods: false, checkLive: false });
