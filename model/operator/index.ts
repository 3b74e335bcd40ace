/**
 * `kubecheck/operator`: your operator, checked inside the cluster model. Declare your kinds'
 * objects, watches and `reconcile` with {@link operator}; pass the result where an extension
 * goes (`kubecheck check --extension`, `kubernetesScenario(..., { extensions })`).
 */
export { applyWrite, callCount, callsOf, garbageCollectable, mergePatch, objectName, objectOf, objectsOf, SCALABLE_KINDS, STOCK_KINDS } from './api.js';
export type { ApiObject, CustomStore, MetaPatch, ObjectInit, ObjectMeta, OwnerReference, WatchEvent, WorkloadSpec, Write, WriteOutcome } from './api.js';
export { backoffOf, idle, operator } from './operator.js';
export type { ClientAction, OperatorDefinition, OperatorMemory, Reconciling, ReconcileResult, ReconcileView, Watch } from './operator.js';
