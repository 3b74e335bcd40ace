/**
 * `check --format junit`: the outcome as JUnit XML, the test report format CI systems read
 * (GitHub's test reporters, GitLab's `artifacts:reports:junit`, Jenkins, Azure Pipelines).
 *
 * One `<testsuite>` for the run (named after the scenario) inside `<testsuites>`, one
 * `<testcase>` per checked property (`classname` its kind, `name` its id):
 * - a violated property has a `<failure>` whose message is its description and, when the property
 *   explains its violations, the why-line (`...: db-0 runs on node-1 and on node-3`), and whose
 *   body is its counterexample as the text timeline (the one `check` prints); an unreached goal a `<failure>` saying so; a liveness violation its
 *   lasso;
 * - a property the search left undecided (a bound stopped it) is `<skipped>` with the reason, and
 *   so is each property the default selection left out (with its "not checked" reason);
 * - the run's statistics, verdict and config are `<properties>`, its summary lines `<system-out>`.
 *
 * A testcase's `classname` is `kubecheck.<scenario>.<kind>`, so the results of several scenarios
 * merged into one report stay apart; its `time` is the seconds of search until the property was
 * decided: when its violation was found, else the whole search (a property holds only once every
 * state is seen). The suite carries the run's `timestamp` (ISO 8601, local to no zone, as the
 * JUnit schema has it: UTC) and `hostname`; its `time` is the search's. Text is escaped for XML 1.0
 * and characters XML cannot hold are dropped.
 */
import { isLiveness, type CheckResult, type Model, type PropertyOutcome } from '../checker/index.js';
import { inputText } from '../checker/escape.js';
import { plain } from './colors.js';
import { formatDuration } from '../checker/duration.js';
import { cycleLength, lassoTrace, reportKind } from './liveness.js';
import { formatStats, formatStop, formatVerdict, runVerdict, violationWhy, type RunInfo } from './outcome.js';
import { formatTimeline, timelineSteps, traceDuration } from './timeline.js';

/** Characters XML 1.0 cannot hold (controls other than tab, newline and carriage return; lone surrogates; U+FFFE/U+FFFF). */
// eslint-disable-next-line no-control-regex
const NOT_XML = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

/** Escapes text for an XML element's content. */
export function xmlText(s: string): string {
  return s.replace(NOT_XML, '').replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

/** Escapes text for a double-quoted XML attribute (newlines kept as character references). */
export function xmlAttr(s: string): string {
  return xmlText(s).replace(/"/g, '&quot;').replace(/\n/g, '&#10;').replace(/\r/g, '&#13;').replace(/\t/g, '&#9;');
}

function element(name: string, attrs: Record<string, string | number | undefined>, body?: string): string {
  const a = Object.entries(attrs)
    .filter(([, v]) => v !== undefined)
    .map(([k, v]) => ` ${k}="${xmlAttr(String(v))}"`)
    .join('');
  return body === undefined ? `<${name}${a}/>` : `<${name}${a}>${body}</${name}>`;
}

interface Case {
  readonly classname: string;
  readonly name: string;
  readonly time?: string;
  readonly failure?: { readonly message: string; readonly type: string; readonly body: string };
  readonly skipped?: string;
}

/** The testcase of one property outcome of the search. */
function caseOf<S>(model: Model<S>, p: PropertyOutcome<S>, undecided: string): Case {
  const base = { classname: reportKind(p), name: p.id };
  if (p.status === 'violated') {
    if (p.trace === undefined) return { ...base, failure: { message: `${p.description}: violated`, type: 'violated', body: '' } };
    const steps = timelineSteps(model, p.trace);
    const why = violationWhy(model, p);
    const head = `${p.id}: ${p.description}\n${why === undefined ? '' : `why: ${why}\n`}counterexample: ${p.trace.actions.length} steps, ${formatDuration(traceDuration(steps))} of model time`;
    return {
      ...base,
      failure: {
        message: `${p.description}${why === undefined ? '' : `: ${why}`} (counterexample: ${p.trace.actions.length} steps)`,
        type: 'violated',
        body: `${head}\n${formatTimeline(model, p.trace, { colors: plain })}`,
      },
    };
  }
  if (p.status === 'unwitnessed') {
    const message = `goal never reached on the whole state space: the scenario may be vacuous (${p.description})`;
    return { ...base, failure: { message, type: 'unwitnessed', body: message } };
  }
  if (p.status === 'unknown') return { ...base, skipped: undecided };
  return base;
}

/** The testcase of one liveness outcome; a violation's body is its lasso. */
function livenessCase<S>(model: Model<S>, l: PropertyOutcome<S>): Case {
  const base = { classname: reportKind(l), name: l.id };
  if (l.status !== 'violated' || l.lasso === undefined) return base;
  const cycle = cycleLength(l.lasso);
  const head = `${l.id}: ${l.description}\na behaviour that never gets there, as a lasso: ${l.lasso.loop} steps, then a cycle of ${cycle === 0 ? 'stuttering' : `${cycle} steps`} back to the state after step ${l.lasso.loop}, forever`;
  const timeline = formatTimeline(model, lassoTrace(l.lasso), { colors: plain });
  return { ...base, failure: { message: `${l.description} (lasso: ${l.lasso.loop} steps, then a cycle of ${cycle})`, type: 'violated', body: `${head}\n${timeline}` } };
}

function caseXml(c: Case): string {
  const inner = c.failure
    ? `\n      ${element('failure', { message: c.failure.message, type: c.failure.type }, xmlText(c.failure.body))}\n    `
    : c.skipped !== undefined
      ? `\n      ${element('skipped', { message: c.skipped })}\n    `
      : undefined;
  return `    ${element('testcase', { classname: c.classname, name: c.name, time: c.time }, inner)}`;
}

/** The kind of one of the model's properties (one left out of the check), `property` if it is not the model's. */
export function kindOf<S>(model: Model<S>, id: string): string {
  return model.properties.find((p) => p.id === id)?.kind ?? 'property';
}

/** The run's figures as `<property>` name/value pairs. */
function runProperties<S>(model: Model<S>, result: CheckResult<S>, info: RunInfo): [string, string][] {
  const s = result.stats;
  const { verdict, exitCode } = runVerdict(result);
  const out: [string, string][] = [
    ['verdict', verdict],
    ['exitCode', String(exitCode)],
    ['model', model.name],
    ['strategy', result.strategy],
    ['engine', s.engine],
    ['distinctStates', String(s.distinctStates)],
    ['generatedStates', String(s.generatedStates)],
    ['depth', String(s.depth)],
    ['seconds', String(Math.round(s.seconds * 1000) / 1000)],
    ['statesPerSecond', String(Math.round(s.statesPerSecond))],
    ['peakMemoryMB', String(Math.round(s.peakMemoryMB))],
  ];
  if (result.stoppedBy) out.push(['stoppedBy', `${result.stoppedBy.bound} ${result.stoppedBy.limit}`]);
  if (info.config !== undefined) out.push(['config', JSON.stringify(info.config)]);
  return out;
}

/** The JUnit XML document of a `check` run (with an XML declaration and a final newline). */
export function junitReport<S>(model: Model<S>, result: CheckResult<S>, info: RunInfo): string {
  const stop = formatStop(result);
  const undecided = `undecided: ${stop ?? 'the search stopped before deciding it'}`;
  const name = info.scenario ?? model.name;
  const classname = (kind: string): string => `kubecheck.${name}.${kind}`;
  const seconds = (id: string): string => (info.decidedAt?.[id] ?? result.stats.seconds).toFixed(3);
  const cases: Case[] = [
    ...result.properties.map((p) => {
      const c = isLiveness(p) ? livenessCase(model, p) : caseOf(model, p, undecided);
      return { ...c, classname: classname(c.classname), time: seconds(p.id) };
    }),
    ...(info.leftOut ?? []).map((l) => ({ classname: classname(kindOf(model, l.id)), name: l.id, skipped: `not checked: ${l.reason}` })),
  ];
  const failures = cases.filter((c) => c.failure).length;
  const skipped = cases.filter((c) => c.skipped !== undefined).length;
  const time = result.stats.seconds.toFixed(3);
  // JUnit's timestamp is an xs:dateTime without a zone: the run's start in UTC, to the second.
  const timestamp = info.startedAt === undefined ? undefined : info.startedAt.slice(0, 19);
  const counts = { tests: cases.length, failures, errors: 0, skipped, time };
  const systemOut = [
    ...(info.warnings ?? []).map((w) => `warning: ${inputText(w)}`),
    formatStats(result),
    ...(stop ? [stop] : []),
    formatVerdict(result, plain),
  ].join('\n');
  const props = runProperties(model, result, info).map(([n, v]) => `      ${element('property', { name: n, value: v })}`);
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    element('testsuites', { name: 'kubecheck', ...counts }, [
      '',
      `  ${element('testsuite', { name, ...counts, timestamp, hostname: info.hostname }, [
        '',
        `    <properties>\n${props.join('\n')}\n    </properties>`,
        ...cases.map(caseXml),
        `    ${element('system-out', {}, xmlText(systemOut))}`,
        '  ',
      ].join('\n'))}`,
      '',
    ].join('\n')),
    '',
  ].join('\n');
}
