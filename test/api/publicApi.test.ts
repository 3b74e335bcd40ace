/**
 * The public API as a user outside the repository sees it: everything from 'kubecheck/model' (the
 * package's own exports, no deep import), an extension that compiles with no cast, and
 * `kubernetesScenario` attaching it. `tsc --noEmit` checks the types (the @ts-expect-error lines
 * fail the typecheck if a wrong extension were accepted); vitest runs it.
 */
import { describe, expect, it } from 'vitest';
import {
  action, canWrite, check, kubernetesModel, kubernetesScenario, nodeName, resolveConfig, clusterModel,
  type ClusterExtension, type ClusterState, type JsonValue,
} from 'kubecheck/model';

const NAME = 'delete-on-unknown';

/** A user's controller: deletes the pods of a node marked Unknown, at any time after. */
const deleteOnUnknown: ClusterExtension = {
  name: NAME,
  initial: () => 0,
  onTick: (memory: JsonValue) => memory,
  actions: [
    action<ClusterState, string>({
      name: 'delete-on-unknown',
      params: (s) => s.api.pods.map((p) => p.name),
      enabled: (s, pod) => {
        const p = s.api.pods.find((q) => q.name === pod);
        return canWrite(s, false) && p !== undefined && p.nodeName >= 0 && s.api.nodes[p.nodeName]?.ready === 'Unknown';
      },
      apply: (s, pod) => ({ ...s, api: { ...s.api, pods: s.api.pods.filter((q) => q.name !== pod) } }),
    }),
  ],
  describeStep: (before, a) => ({ actor: NAME, summary: `deletes ${String(a.param)} from ${nodeName(before.api.pods.find((p) => p.name === a.param)?.nodeName ?? 0)}` }),
  symmetric: true,
};

// @ts-expect-error an extension needs its actions
const noActions: ClusterExtension = { name: 'x', initial: () => 0 };
// @ts-expect-error memory is JSON, not a function
const badMemory: ClusterExtension = { name: 'x', initial: () => () => 0, actions: [] };
void noActions;
void badMemory;

describe('kubecheck/model', () => {
  it('should resolve a scenario and attach extensions with kubernetesScenario', () => {
    const stock = kubernetesScenario('node-partition', { set: { 'cluster.statefulSetReplicas': '1' } });
    const extended = kubernetesScenario('node-partition', { extensions: [deleteOnUnknown] });
    expect(stock.clusterConfig.cluster.nodes).toBe(3);
    expect(resolveConfig('node-partition', { file: stock.config })).toEqual(stock.clusterConfig);
    expect(extended.model.actions.map((a) => a.name)).toContain('delete-on-unknown');
    expect(stock.model.actions.map((a) => a.name)).not.toContain('delete-on-unknown');
    expect(extended.model.initialStates()[0].extensions).toEqual({ [NAME]: 0 });
    expect(stock.properties).toContain('statefulset-at-most-one');
  });

  it('should let the extension break what the stock cluster keeps (StatefulSet at-most-one under a partition)', () => {
    const { model } = kubernetesScenario('node-partition', { extensions: [deleteOnUnknown] });
    const result = check(model, { properties: ['statefulset-at-most-one'] });
    expect(result.properties[0].status).toBe('violated');
    expect(result.properties[0].trace?.actions.some((a) => a.name === 'delete-on-unknown')).toBe(true);
    const stock = check(kubernetesModel(resolveConfig('node-partition')), { properties: ['statefulset-at-most-one'] });
    expect(stock.properties[0].status).toBe('holds');
  });

  it('should refuse an option it does not take rather than check without it (KC111)', () => {
    const input = { extend: (m: unknown) => m } as unknown as Parameters<typeof kubernetesScenario>[1];
    expect(() => kubernetesScenario('node-partition', input)).toThrow(/^KC111: kubernetesScenario takes no option "extend": add your controllers as extensions/);
    const options = { extraActions: [] } as unknown as Parameters<typeof clusterModel>[1];
    expect(() => clusterModel(resolveConfig('node-failure'), options)).toThrow(/^KC111: clusterModel takes no option "extraActions": give your controller as an extension/);
    expect(() => kubernetesScenario('node-partition', { config: {}, file: {} })).toThrow(/KC104: kubernetesScenario: give the config as config or as file, not both/);
    expect(kubernetesScenario('node-failure', { config: { cluster: { nodes: 2 } } }).clusterConfig.cluster.nodes).toBe(2);
  });

  it('should export the model builders the lower-level way too', () => {
    const config = resolveConfig('node-failure', { set: { 'kubeControllerManager.nodeMonitorGracePeriod': '40s' } });
    expect(config.kubeControllerManager.nodeMonitorGracePeriod).toBe(40);
    expect(clusterModel(config, { extensions: [deleteOnUnknown] }).properties).toEqual([]);
  });
});
