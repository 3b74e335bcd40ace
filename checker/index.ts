/**
 * kubecheck's generic explicit-state model checker. It knows nothing of Kubernetes: any system
 * written as a {@link Model} can be checked.
 */
export { KubecheckError, CheckerErrorCode, fail } from './errors.js';
export { action, describeStepOf, describesSteps, faultTest, formatAction, isFaultActor } from './model.js';
export { faultSteps, fewestFaults } from './fewerFaults.js';
export type { ActionDef, ActionLabel, AnyActionDef, JsonValue, Model, ModelOrigin, StateFunction, StepDescription } from './model.js';
export { always, alwaysStep, boundedResponse, explainViolation, observer, sometimes, isKebabCase } from './properties.js';
export type { ActionProperty, BoundedResponse, History, Invariant, InvariantMeta, Observer, Property, PropertyKind, Reachability, StepMeta } from './properties.js';
export { check } from './search.js';
export type { LivenessSelection } from './search.js';
export { defaultMaxMemoryBytes } from './options.js';
export type { CheckOptions, ModelFactory, FoundViolation, Progress, SearchVisitor } from './options.js';
export type { BoundReached, CheckResult, Lasso, Path, PropertyOutcome, PropertyStatus, SearchStats, Trace, Verdict } from './result.js';
export { failures, isLiveness, violations, witnesses } from './result.js';
export { forEachSuccessor, labelOf, successors, successorAt, ordinalOf } from './successors.js';
export type { Successor } from './successors.js';
export { replayPath, replayLabels } from './trace.js';
export type { LabelReplay } from './trace.js';
export { encode, exactEncoding, fingerprint, hashBytes, hashString } from './fingerprint.js';
export { KeyBuffer } from './keyBuffer.js';
export type { Fingerprint } from './fingerprint.js';
export { FingerprintPairTable, FingerprintTable } from './fingerprintTable.js';
export { VectorErrorCode, vectorAction, vectorModel, vectorProduct } from './vectorModel.js';
export type { AnyVectorActionDef, VectorActionDef, VectorInitial, VectorSlot, VectorSpec, VectorState, VectorView, VectorWriter } from './vectorModel.js';
export { fastCheckSeed, MAX_SIMULATE_STEPS, minimizeTrace, simulate, swarmOf, traceArbitrary, traceOfChoices } from './simulate.js';
export type { SimulateOptions, SimulationCoverage, SimulationResult, Swarm } from './simulate.js';
export { forEachTransition } from './transitions.js';
export { alwaysEventually, checkLiveness, eventually, eventuallyAlways, leadsTo, LIVENESS_MAX_STATES } from './liveness.js';
export type { LivenessKind, LivenessOptions, LivenessProperty } from './liveness.js';
export type { TransitionOptions, TransitionStats, TransitionVisitor } from './transitions.js';
export { boundsUnder, estimateStates, measureFamily } from './family.js';
export type { Assignment, FamilyParameter, FamilySize, MeasureFamilyOptions, Measurement, ParameterGrowth, SizeEstimate } from './family.js';
