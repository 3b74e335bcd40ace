/**
 * `check --format sarif`: the outcome as a SARIF 2.1.0 log, the format code scanning reads
 * (GitHub's `upload-sarif`, GitLab, Azure DevOps, the VS Code SARIF viewer).
 *
 * One run. `tool.driver` is kubecheck with one rule per checked property (id, its description,
 * its source; a URL in the source becomes `helpUri`). One result per failed property (violated,
 * a goal never reached, a liveness lasso), level `error`, its message the property's description,
 * the why-line of a property that explains its violations (`db-0 runs on node-1 and on node-3`)
 * and the length of its counterexample; located at the settings the `--config` files gave, each
 * at its file and line (`region.startLine`) with the parameter it set as message, else at the
 * files given (none without). A counterexample is a code flow with one thread flow whose locations are the steps
 * of its timeline, each with its time, actor and summary as message; a quiet stretch (time
 * passing and the model's routine work) is one location, as the text timeline folds it, and each
 * location gives the steps it covers, so a Kubernetes trace of hundreds of ticks stays readable.
 *
 * What is not a result: config warnings, properties left out of the check and a search a bound
 * stopped are `invocations[0].toolExecutionNotifications`; the statistics are the run's
 * `properties`.
 */
import { pathToFileURL } from 'node:url';
import { isAbsolute, sep } from 'node:path';
import { isLiveness, type CheckResult, type Model, type Trace } from '../checker/index.js';
import { formatTime } from '../checker/duration.js';
import { kindOf } from './junit.js';
import { lassoTrace, reportKind, searchOutcomes } from './liveness.js';
import { formatStop, runVerdict, violationWhy, type RunInfo } from './outcome.js';
import { foldQuiet, timelineSteps } from './timeline.js';

/** The `$schema` written: the OASIS standard's schema of SARIF 2.1.0 (errata 01). */
export const SARIF_SCHEMA_URI = 'https://docs.oasis-open.org/sarif/sarif/v2.1.0/errata01/os/schemas/sarif-schema-2.1.0.json';

export interface SarifOptions {
  /** The version of kubecheck, as `tool.driver.version`. */
  readonly toolVersion?: string;
  /** The `--config` files and folders: where each result is located. */
  readonly configFiles?: readonly string[];
}

/** A SARIF message. */
export interface SarifMessage {
  readonly text: string;
}

/** The parts of a SARIF 2.1.0 log this report writes. */
export interface SarifLog {
  readonly $schema: string;
  readonly version: '2.1.0';
  readonly runs: readonly SarifRun[];
}

export interface SarifRule {
  readonly id: string;
  readonly shortDescription: SarifMessage;
  readonly fullDescription: SarifMessage;
  readonly helpUri?: string;
  readonly defaultConfiguration: { readonly level: 'error' };
  readonly properties: { readonly kind: string; readonly source?: string };
}

export interface SarifLocation {
  readonly physicalLocation?: { readonly artifactLocation: { readonly uri: string }; readonly region?: { readonly startLine: number } };
  readonly message?: SarifMessage;
}

export interface SarifThreadFlowLocation {
  readonly location: SarifLocation;
  readonly executionOrder: number;
  readonly properties: { readonly steps: readonly [number, number]; readonly time: string; readonly actor: string; readonly timeOnly: boolean };
}

export interface SarifResult {
  readonly ruleId: string;
  readonly ruleIndex: number;
  readonly kind: 'fail';
  readonly level: 'error';
  readonly message: SarifMessage;
  readonly locations?: readonly SarifLocation[];
  readonly codeFlows?: readonly { readonly message: SarifMessage; readonly threadFlows: readonly { readonly locations: readonly SarifThreadFlowLocation[] }[] }[];
  readonly properties?: { readonly steps?: number; readonly loop?: number };
}

export interface SarifNotification {
  readonly level: 'warning' | 'note';
  readonly message: SarifMessage;
}

export interface SarifRun {
  readonly tool: { readonly driver: { readonly name: 'kubecheck'; readonly version?: string; readonly rules: readonly SarifRule[] } };
  readonly automationDetails: { readonly id: string };
  readonly invocations: readonly { readonly executionSuccessful: true; readonly exitCode: number; readonly toolExecutionNotifications: readonly SarifNotification[] }[];
  readonly results: readonly SarifResult[];
  readonly properties: Readonly<Record<string, unknown>>;
}

/** A path given on the command line as a URI reference: relative ones stay relative (to the working folder), with `/`. */
export function pathUri(path: string): string {
  if (isAbsolute(path)) return pathToFileURL(path).href;
  return path.split(sep).join('/').split('/').map(encodeURIComponent).join('/');
}

/** The thread flow of a trace: one location per timeline line. */
function threadFlow<S>(model: Model<S>, trace: Trace<S>): SarifThreadFlowLocation[] {
  return foldQuiet(timelineSteps(model, trace)).map((l) => ({
    location: { message: { text: `${formatTime(l.seconds)}  ${l.actor}: ${l.summary}` } },
    executionOrder: l.steps[0],
    properties: { steps: l.steps, time: formatTime(l.seconds), actor: l.actor, timeOnly: l.timeOnly },
  }));
}

/** The SARIF 2.1.0 log of a `check` run, as an object (`JSON.stringify` it). */
export function sarifReport<S>(model: Model<S>, result: CheckResult<S>, info: RunInfo, options: SarifOptions = {}): SarifLog {
  const firstUrl = (source: string | undefined): string | undefined => source?.match(/https?:\/\/[^\s;,()"]+/)?.[0];
  const rules: SarifRule[] = result.properties.map((p) => {
    const helpUri = firstUrl(p.source);
    return {
      id: p.id,
      shortDescription: { text: p.description },
      fullDescription: { text: p.source ? `${p.description} (source: ${p.source})` : p.description },
      ...(helpUri ? { helpUri } : {}),
      defaultConfiguration: { level: 'error' as const },
      properties: { kind: reportKind(p), ...(p.source ? { source: p.source } : {}) },
    };
  });
  const index = new Map(rules.map((r, i) => [r.id, i]));
  // The settings the files gave, each at its file and line; without them, the files given.
  const locations: SarifLocation[] = info.settings !== undefined && info.settings.length > 0
    ? info.settings.map((st) => ({
      physicalLocation: { artifactLocation: { uri: pathUri(st.file) }, ...(st.line === undefined ? {} : { region: { startLine: st.line } }) },
      message: { text: `${st.key}, read from ${st.origin}` },
    }))
    : (options.configFiles ?? []).map((f) => ({ physicalLocation: { artifactLocation: { uri: pathUri(f) } } }));
  const located = locations.length > 0 ? { locations } : {};
  const results: SarifResult[] = [];
  for (const p of result.properties) {
    if (isLiveness(p)) {
      if (p.status !== 'violated' || p.lasso === undefined) continue;
      const n = p.lasso.actions.length;
      results.push({
        ruleId: p.id,
        ruleIndex: index.get(p.id)!,
        kind: 'fail',
        level: 'error',
        message: { text: `${p.description}: violated; a lasso of ${n} steps whose cycle starts after step ${p.lasso.loop}` },
        ...located,
        codeFlows: [{ message: { text: `lasso: the steps after step ${p.lasso.loop} repeat forever` }, threadFlows: [{ locations: threadFlow(model, lassoTrace(p.lasso)) }] }],
        properties: { steps: n, loop: p.lasso.loop },
      });
      continue;
    }
    const base = { ruleId: p.id, ruleIndex: index.get(p.id)!, kind: 'fail' as const, level: 'error' as const, ...located };
    if (p.status === 'violated' && p.trace) {
      const n = p.trace.actions.length;
      const why = violationWhy(model, p);
      results.push({
        ...base,
        message: { text: `${p.description}: violated${why === undefined ? '' : ` (${why})`}; counterexample of ${n} ${n === 1 ? 'step' : 'steps'}` },
        codeFlows: [{ message: { text: `counterexample to ${p.id}, ${n} steps` }, threadFlows: [{ locations: threadFlow(model, p.trace) }] }],
        properties: { steps: n },
      });
    } else if (p.status === 'violated') {
      results.push({ ...base, message: { text: `${p.description}: violated` } });
    } else if (p.status === 'unwitnessed') {
      results.push({ ...base, message: { text: `${p.description}: goal never reached on the whole state space (the scenario may be vacuous)` } });
    }
  }
  const stop = formatStop(result);
  const undecided = searchOutcomes(result).filter((p) => p.status === 'unknown').map((p) => p.id);
  const notifications: SarifNotification[] = [
    ...(info.warnings ?? []).map((w) => ({ level: 'warning' as const, message: { text: w } })),
    ...(stop ? [{ level: 'warning' as const, message: { text: `${stop}; undecided: ${undecided.join(', ') || 'none'}` } }] : []),
    ...(info.leftOut ?? []).map((l) => ({ level: 'note' as const, message: { text: `${l.id} (${kindOf(model, l.id)}) not checked: ${l.reason}` } })),
  ];
  const { verdict, exitCode } = runVerdict(result);
  const scenario = info.scenario ?? model.name;
  return {
    $schema: SARIF_SCHEMA_URI,
    version: '2.1.0',
    runs: [
      {
        tool: { driver: { name: 'kubecheck', ...(options.toolVersion ? { version: options.toolVersion } : {}), rules } },
        automationDetails: { id: `kubecheck/${scenario}/` },
        invocations: [{ executionSuccessful: true, exitCode, toolExecutionNotifications: notifications }],
        results,
        properties: {
          scenario,
          model: model.name,
          verdict,
          ...(info.config === undefined ? {} : { config: info.config }),
          stats: result.stats,
          stoppedBy: result.stoppedBy ?? null,
        },
      },
    ],
  };
}
