/**
 * `kubecheck diff --base A --head B`: the verdicts and the failure timing of two configs side by
 * side, for a pull request that changes timeouts or manifests. Each side is resolved as `check`
 * resolves `--config` (files, folders, Kubernetes' own files), checked with its own default
 * properties (or `--property`) and timed as `kubecheck timing` times it. Text, `--markdown` for a
 * job summary, or `--json`. Exit by the head: 0 every property holds, 1 a violation, 3 a bound
 * stopped a search.
 */
import { inputText, jsonText } from '../../checker/escape.js';
import { printOut } from '../terminal.js';
import { check, type CheckResult, type PropertyOutcome } from '../../checker/index.js';
import { exitCodeOf } from '../../reports/outcome.js';
import type { TimingTable } from '../../properties/timing.js';
import { checkPropertyIds, resolveFromOptions, type ResolvedFromOptions } from '../subjects.js';
import { formatRange, timingOf } from './timing.js';

export interface DiffOptions {
  readonly scenario?: string;
  readonly base?: readonly string[];
  readonly head?: readonly string[];
  readonly set?: Record<string, string>;
  readonly baseSet?: Record<string, string>;
  readonly headSet?: Record<string, string>;
  readonly extension?: readonly string[];
  readonly allowUnsafeConfig?: boolean;
  readonly property?: string[];
  readonly maxStates?: number;
  readonly timeLimit?: number;
  readonly markdown?: boolean;
  readonly json?: boolean;
}

/** One side: its config, verdicts and timing. */
interface Side {
  readonly label: string;
  readonly resolved: ResolvedFromOptions;
  readonly result: CheckResult<unknown>;
  readonly checked: readonly string[];
  readonly timing: TimingTable;
}

function label(files: readonly string[] | undefined, set: Record<string, string>): string {
  const parts = [...(files ?? []), ...Object.entries(set).map(([k, v]) => `${k}=${v}`)];
  return parts.length === 0 ? 'defaults' : parts.join(' ');
}

async function side(opts: DiffOptions, files: readonly string[] | undefined, own: Record<string, string> | undefined): Promise<Side> {
  const set = { ...(opts.set ?? {}), ...(own ?? {}) };
  const resolved = await resolveFromOptions({
    ...(opts.scenario ? { scenario: opts.scenario } : {}),
    ...(files && files.length > 0 ? { config: files } : {}),
    ...(Object.keys(set).length > 0 ? { set } : {}),
    ...(opts.extension ? { extension: opts.extension } : {}),
    ...(opts.allowUnsafeConfig ? { allowUnsafeConfig: true } : {}),
    ...(opts.json ? { json: true } : {}),
  });
  checkPropertyIds(resolved.subject, opts.property, resolved.config);
  const checked = opts.property && opts.property.length > 0 ? opts.property : resolved.defaultProperties;
  const bounds = { ...(opts.maxStates === undefined ? {} : { maxStates: opts.maxStates }), ...(opts.timeLimit === undefined ? {} : { timeLimitSeconds: opts.timeLimit }) };
  const result = check(resolved.model, { properties: checked, ...bounds });
  const timing = timingOf(resolved, { ...(opts.maxStates === undefined ? {} : { maxStates: opts.maxStates }), ...(opts.timeLimit === undefined ? {} : { timeLimit: opts.timeLimit }), ...(opts.allowUnsafeConfig ? { allowUnsafeConfig: true } : {}) });
  return { label: label(files, set), resolved, result, checked, timing };
}

function status(p: PropertyOutcome<unknown> | undefined): string {
  if (p === undefined) return 'not checked';
  return p.trace && p.status === 'violated' ? `violated (${p.trace.actions.length} steps)` : p.status;
}

const MARK: Record<string, string> = { holds: '✓', witnessed: '✓', violated: '✗', unwitnessed: '✗', unknown: '?' };
const marked = (s: string): string => `${MARK[s.split(' ')[0]] ?? '–'} ${s}`;

/** The rows compared: property id, base status, head status, and the descriptions when they differ. */
function propertyRows(base: Side, head: Side): { id: string; base: string; head: string; before: string; after: string }[] {
  const ids = [...new Set([...base.checked, ...head.checked])];
  return ids.map((id) => {
    const b = base.result.properties.find((p) => p.id === id);
    const h = head.result.properties.find((p) => p.id === id);
    return { id, base: status(b), head: status(h), before: b?.description ?? '', after: h?.description ?? '' };
  });
}

/**
 * Timing rows side by side: a workload of the same name on both sides, else the one in the same
 * place of the list (`web / frontend`); a row only one side has shows — on the other.
 */
function timingRows(base: Side, head: Side): { what: string; base: string; head: string }[] {
  const hs = head.timing.rows;
  const used = new Set<number>();
  const out = base.timing.rows.map((b, i) => {
    let j = hs.findIndex((h) => h.workload === b.workload && h.event === b.event);
    if (j < 0 && i < hs.length && hs[i].event === b.event && !base.timing.rows.some((x) => x.workload === hs[i].workload)) j = i;
    const h = j < 0 ? undefined : hs[j];
    if (j >= 0) used.add(j);
    const who = h === undefined || h.workload === b.workload ? b.workload : `${b.workload} / ${h.workload}`;
    return { what: `${who} ${b.description}`, base: formatRange(b), head: h === undefined ? '—' : formatRange(h) };
  });
  hs.forEach((h, j) => {
    if (!used.has(j)) out.push({ what: `${h.workload} ${h.description}`, base: '—', head: formatRange(h) });
  });
  return out;
}

/** What changed, one line each: verdicts, the bounds properties state, timing. */
function changes(base: Side, head: Side): string[] {
  const out: string[] = [];
  for (const r of propertyRows(base, head)) {
    if (r.base !== r.head) out.push(`${r.id}: ${r.base} → ${r.head}`);
    if (r.before !== '' && r.after !== '' && r.before !== r.after) out.push(`${r.id}: "${r.before}" → "${r.after}"`);
  }
  for (const r of timingRows(base, head)) if (r.base !== r.head) out.push(`${r.what}: ${r.base} → ${r.head}`);
  return out;
}

function verdictOf(s: Side): string {
  const incomplete = !s.timing.complete ? ' (timing incomplete)' : '';
  return `${s.result.verdict}${incomplete}`;
}

function text(base: Side, head: Side): string {
  const props = propertyRows(base, head);
  const times = timingRows(base, head);
  const w0 = Math.max(...props.map((r) => r.id.length), ...times.map((r) => r.what.length));
  const w1 = Math.max(4, ...props.map((r) => marked(r.base).length), ...times.map((r) => r.base.length));
  const line = (a: string, b: string, c: string): string => `  ${a.padEnd(w0)}  ${b.padEnd(w1)}  ${c}`;
  const diff = changes(base, head);
  return [
    `diff ${head.resolved.scenario}`,
    `  base: ${inputText(base.label)}`,
    `  head: ${inputText(head.label)}`,
    ...sideWarnings(base, head).map((w) => `  warning (${w.side}): ${inputText(w.text)}`),
    '',
    line('property', 'base', 'head'),
    ...props.map((r) => line(r.id, marked(r.base), marked(r.head))),
    '',
    line('timing (s after the last heartbeat)', 'base', 'head'),
    ...times.map((r) => line(r.what, r.base, r.head)),
    '',
    diff.length === 0 ? 'no change in verdicts or timing' : `changes:\n${diff.map((d) => `  ${d}`).join('\n')}`,
    '',
    `base: ${verdictOf(base)}, head: ${verdictOf(head)}`,
  ].join('\n');
}

const cell = (s: string): string => inputText(s).replace(/\|/g, '\\|');

/** The config warnings of both sides, each named by its side. */
function sideWarnings(base: Side, head: Side): { side: 'base' | 'head'; text: string }[] {
  return [
    ...(base.resolved.warnings ?? []).map((text) => ({ side: 'base' as const, text })),
    ...(head.resolved.warnings ?? []).map((text) => ({ side: 'head' as const, text })),
  ];
}

function markdown(base: Side, head: Side): string {
  const diff = changes(base, head);
  return [
    `## kubecheck diff: ${head.resolved.scenario}`,
    '',
    `base: \`${cell(base.label)}\` → head: \`${cell(head.label)}\``,
    '',
    diff.length === 0 ? 'No change in verdicts or timing.' : diff.map((d) => `- ${cell(d)}`).join('\n'),
    '',
    ...sideWarnings(base, head).map((w) => `> ⚠️ **Config warning (${w.side}):** ${cell(w.text)}\n`),
    '| property | base | head |',
    '| --- | --- | --- |',
    ...propertyRows(base, head).map((r) => `| \`${r.id}\` | ${marked(r.base)} | ${r.base === r.head ? marked(r.head) : `**${marked(r.head)}**`} |`),
    '',
    '| timing (seconds after the failed node\'s last heartbeat) | base | head |',
    '| --- | ---: | ---: |',
    ...timingRows(base, head).map((r) => `| ${r.what} | ${r.base} | ${r.base === r.head ? r.head : `**${r.head}**`} |`),
    '',
    `base: ${verdictOf(base)}, head: ${verdictOf(head)}; ${head.result.stats.distinctStates.toLocaleString('en-US')} distinct states on the head, every path explored${head.result.verdict === 'incomplete' || !head.timing.complete ? ' up to the bounds given' : ''}.`,
  ].join('\n');
}

export async function runDiff(opts: DiffOptions): Promise<number> {
  const base = await side(opts, opts.base, opts.baseSet);
  const head = await side(opts, opts.head, opts.headSet);
  const code = !head.timing.complete && head.result.verdict === 'ok' ? 3 : exitCodeOf(head.result.verdict);
  if (opts.json) {
    const json = (s: Side) => ({
      label: s.label,
      config: s.resolved.config,
      verdict: s.result.verdict,
      properties: s.result.properties.map((p) => ({ id: p.id, status: p.status, description: p.description, ...(p.trace ? { steps: p.trace.actions.length } : {}) })),
      timing: s.timing.rows,
      timingComplete: s.timing.complete,
      ...(s.resolved.notModelled.length > 0 ? { notModelled: s.resolved.notModelled } : {}),
      ...(s.resolved.warnings && s.resolved.warnings.length > 0 ? { warnings: s.resolved.warnings } : {}),
    });
    process.stdout.write(`${jsonText({ scenario: head.resolved.scenario, base: json(base), head: json(head), changes: changes(base, head), exitCode: code })}\n`);
  } else printOut(`${opts.markdown ? markdown(base, head) : text(base, head)}\n`);
  return code;
}
