/**
 * kubecheck's reports: checker results turned into text, Markdown with Mermaid, ITF JSON, DOT and
 * SVG. Generic over any `Model` and `CheckResult`; nothing here knows Kubernetes.
 */
export { palette, plain, type Palette } from './colors.js';
export { diffStates, formatChange, renderValue, type Change } from './diff.js';
export { formatDuration, formatTime } from '../checker/duration.js';
export { ToolErrorCode } from './errors.js';
export { describe, foldTime, formatTimeline, timelineSteps, traceDuration, type TimelineLine, type TimelineOptions, type TimelineStep } from './timeline.js';
export { mermaidSequence, mermaidText, type MermaidOptions } from './mermaid.js';
export { canonicalItf, fromItfValue, parseItf, stateVars, toItf, toItfValue, type ItfMeta, type ItfTrace, type ParsedItf } from './itf.js';
export { configDifference, evaluateAlong, replayItf, type ReplayReport } from './replay.js';
export { DEFAULT_MAX_NODES, stateLabel, traceNeighbourhood, wholeGraph, type GraphEdge, type GraphNode, type GraphOptions, type StateGraph, type TraceMark } from './graph.js';
export { dotToPngFile, dotToSvg, graphToDot, hasDotProgram } from './dot.js';
export { exitCodeOf, formatOutcome, formatProperties, formatStats, formatStop, formatVerdict, violationWhy, type ConfigInputRecord, type ExtensionModuleRecord, type FormatOptions, type RunInfo } from './outcome.js';
export { counterexampleJson, itfOf, outcomeJson, type CounterexampleJson, type TimelineJson } from './json.js';
export { markdownReport, type MarkdownOptions } from './markdown.js';
export { formatLiveness, livenessOutcomes, livenessSummary, reportKind, searchOutcomes, type LivenessSummary } from './liveness.js';
export { counterexampleBrief, failureBrief, lassoBrief } from './brief.js';
