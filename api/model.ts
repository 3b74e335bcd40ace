/**
 * `kubecheck/model`: everything a user needs to check a Kubernetes cluster of their own and to
 * add controllers of their own, with no deep import.
 *
 * ```ts
 * import { action, canWrite, kubernetesScenario, type ClusterExtension, type ClusterState } from 'kubecheck/model';
 * const myOperator: ClusterExtension = { name: 'my-operator', initial: () => 0, actions: [...] };
 * const { model, properties } = kubernetesScenario('node-partition', { extensions: [myOperator] });
 * ```
 */
export * from '../model/index.js';
export { action, check, forEachTransition } from '../checker/index.js';
export type { ActionDef, ActionLabel, AnyActionDef, CheckOptions, CheckResult, JsonValue, Model, Property, StepDescription, Trace } from '../checker/index.js';
export { defaultProperties, kubernetesModel, kubernetesProperties, propertyCatalog } from '../properties/index.js';
export type { DefaultSelection, LeftOut, PropertyInfo } from '../properties/index.js';
export { measureTiming, TIMING_EVENTS } from '../properties/timing.js';
export type { TimingEventId, TimingRow, TimingTable } from '../properties/timing.js';
export { kubernetesScenario } from '../properties/scenario.js';
export type { KubernetesScenario, KubernetesScenarioInput } from '../properties/scenario.js';
