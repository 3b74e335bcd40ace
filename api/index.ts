/**
 * `kubecheck`: the generic checker. A model is a set of pure transitions over immutable states
 * (`Model`, `action`); `check` explores it breadth-first (shortest counterexamples), depth-first,
 * on worker threads or as a state vector, `simulate` at random, and `checkLiveness` (or
 * `check`'s `liveness`) decides eventually / leads-to under fairness. It knows nothing of
 * Kubernetes: `kubecheck/model` is the cluster, `kubecheck/operator` your operators in it,
 * `kubecheck/testing` assertions for your test runner.
 */
export * from '../checker/index.js';
