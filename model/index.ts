/**
 * The Kubernetes control-plane model: configuration, scenarios, the cluster as a checker Model,
 * and the building blocks a user needs to add a controller of their own.
 */
export type { ChallengerLeaderElection, ClusterConfig, LeaderElectionConfig, Outage, TolerationSetting, WorkloadConfig, WorkloadKind, PodManagementPolicy } from './config.js';
export { daemonPodName, defaultGracePeriod, failingNodeCount, leaseRenewInterval, MAX_WAIT_FOR_CONTAINER_RUNTIME, podOfWorkload, tolerationOf, workloadOfPod, WORKLOAD_KINDS } from './config.js';
export type { ClusterState, ApiState, NodeObject, PodObject, NodeReal, Candidate, ControllerManagerLocal, LeaseRecord, Taint, Ready, Tolerations, Workload } from './state.js';
export { canWrite, isTerminating, replicasOf, terminatingOf, quorum, apiReachable, acting, nodeName, candidateName, nodeLive, kubeletCanWrite, KCM, SCHED, ELECTION_NAMES } from './state.js';
export type { ScenarioInfo } from './scenarios.js';
export { scenarios } from './scenarios.js';
export type { ParameterInfo } from './parameters.js';
export { parameters } from './parameters.js';
export { resolveConfig, configToObject } from './resolve.js';
export type { ResolveInput } from './resolve.js';
export { ModelErrorCode } from './errors.js';
export { clusterModel, extensionProperties, quiescent, urgentActions, backgroundActions } from './clusterModel.js';
export type { ClusterModelOptions, ClusterExtension } from './clusterModel.js';
export { clusterAction, makeCtx, quorumCanBeLost } from './context.js';
export type { ClusterAction, Ctx, WorkloadCtx } from './context.js';
export { heartbeatsOf, syncWork } from './kubelet.js';
export { parseDuration, formatDuration } from './duration.js';
export { configWarnings, leaderElectionProblem } from './validate.js';
export { nodeIndex, zoneOf, podIndex, hasTaint, conditionNoExecute, kubeletReachesApi, kubeletAlive, running, onlyReadinessDiffers } from './state.js';
export type { Deletion, NodeHealth, ZoneState, Budgets, Terminating, WorkloadScale } from './state.js';
export { viewOf, deletePod, relistSources, apiserverCacheName } from './informers.js';
export type { DeleteOptions, DeleteOutcome } from './informers.js';
export type { Informer, Expectation } from './state.js';
export type { EventKind, ExtensionCauses } from './possible.js';
export * from './operator/index.js';
