/**
 * `kubecheck/operator`: your operator as controller-runtime runs it, checked inside the cluster
 * model (see `model/operator/index.ts` and docs/operators.md).
 */
export * from '../model/operator/index.js';
