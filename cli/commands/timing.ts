/**
 * `kubecheck timing`: for each workload, the earliest and latest moment over every path at which
 * a failed node is marked Unknown, tainted, its pod evicted, replaced and the replacement running,
 * in seconds after the node's last heartbeat, from an exhaustive search. Exit 0 when the search
 * covered the whole space, 3 when a bound stopped it (the figures are then of the part explored).
 */
import { inputText, jsonText } from '../../checker/escape.js';
import { printErr, printOut } from '../terminal.js';
import type { JsonValue, Model } from '../../checker/index.js';
import type { ClusterState } from '../../model/index.js';
import { fail, ToolErrorCode } from '../../reports/errors.js';
import { measureTiming, type TimingRow, type TimingTable } from '../../properties/timing.js';
import { kubernetesSubject } from '../kubernetesSubject.js';
import { resolveFromOptions, type ConfigOptions, type ResolvedFromOptions } from '../subjects.js';

export interface TimingOptions extends ConfigOptions {
  readonly json?: boolean;
  readonly markdown?: boolean;
  readonly maxStates?: number;
  readonly timeLimit?: number;
  readonly symmetry?: boolean;
}

/** `50–54s`, `355s`, `never`, `≥ 361s`. */
export function formatRange(row: Pick<TimingRow, 'earliest' | 'latest' | 'latestAtLeast'>): string {
  if (row.earliest === null || row.latest === null) return 'never';
  const hi = `${row.latestAtLeast ? '≥ ' : ''}${row.latest}s`;
  return row.earliest === row.latest && !row.latestAtLeast ? `${row.earliest}s` : `${row.earliest}–${hi}`;
}

/** The timing of a resolved Kubernetes config (the same search `kubecheck timing` runs). */
export function timingOf(r: ResolvedFromOptions, opts: Pick<TimingOptions, 'maxStates' | 'timeLimit' | 'symmetry'>): TimingTable {
  if (r.subject.name !== kubernetesSubject.name) fail(ToolErrorCode.badOption, `timing measures Kubernetes node failure handling; scenario ${r.scenario} is not a Kubernetes scenario`);
  return measureTiming(r.model as Model<ClusterState>, r.clusterConfig!, {
    ...(opts.maxStates === undefined ? {} : { maxStates: opts.maxStates }),
    ...(opts.timeLimit === undefined ? {} : { timeLimitSeconds: opts.timeLimit }),
    ...(opts.symmetry === undefined ? {} : { symmetry: opts.symmetry }),
  });
}

/** A workload's name with its kind: `web (ReplicaSet)`. */
function workloadLabel(r: Pick<TimingRow, 'workload' | 'kind'>): string {
  return `${inputText(r.workload)} (${r.kind})`;
}

export function formatTimingTable(t: TimingTable, markdown: boolean): string {
  const rows = t.rows.map((r) => [workloadLabel(r), r.description, formatRange(r)]);
  if (markdown) {
    return ['| workload | step | seconds after the last heartbeat |', '| --- | --- | ---: |', ...rows.map((r) => `| ${r.join(' | ')} |`)].join('\n');
  }
  const width = [0, 1].map((i) => Math.max(...rows.map((r) => r[i].length)));
  return rows.map((r) => `  ${r[0].padEnd(width[0])}  ${r[1].padEnd(width[1])}  ${r[2]}`).join('\n');
}

function summary(t: TimingTable): string {
  const what = `${t.distinctStates.toLocaleString('en-US')} distinct states, ${t.transitions.toLocaleString('en-US')} steps, ${t.seconds.toFixed(2)}s`;
  const never = t.rows.some((r) => r.earliest === null) ? '\nnever: on no path of this scenario (a StatefulSet pod on a node that never returns stays Terminating, so its identity is not recreated; or the scheduler finds no node its scheduling constraints allow, so the replacement stays Pending)' : '';
  return t.complete ? `${what}; every path explored${never}` : `${what}; stopped by the ${t.stoppedBy?.bound} bound (${t.stoppedBy?.limit}): the figures are of the part explored (exit 3)`;
}

export async function runTiming(opts: TimingOptions): Promise<number> {
  const r = await resolveFromOptions(opts);
  const t = timingOf(r, opts);
  const code = t.complete ? 0 : 3;
  if (opts.json) {
    const json: Record<string, JsonValue> = {
      scenario: r.scenario,
      config: r.config,
      complete: t.complete,
      stoppedBy: t.stoppedBy ? { bound: t.stoppedBy.bound, limit: t.stoppedBy.limit } : null,
      unit: 'seconds after the failed node\'s last heartbeat',
      rows: t.rows.map((x) => ({ workload: x.workload, kind: x.kind, event: x.event, description: x.description, earliest: x.earliest, latest: x.latest, latestAtLeast: x.latestAtLeast })),
      stats: { distinctStates: t.distinctStates, transitions: t.transitions, seconds: t.seconds },
      ...(r.notModelled.length > 0 ? { notModelled: [...r.notModelled] } : {}),
      ...(r.warnings && r.warnings.length > 0 ? { warnings: [...r.warnings] } : {}),
      exitCode: code,
    };
    process.stdout.write(`${jsonText(json)}\n`);
    return code;
  }
  const head = `timing ${r.scenario}  (${r.model.name}): seconds after the failed node's last heartbeat, earliest–latest over every path`;
  const warnings = r.warnings ?? [];
  if (opts.markdown) printOut(`### ${head}\n\n${warnings.map((w) => `> ⚠️ **Config warning:** ${inputText(w)}\n\n`).join('')}${formatTimingTable(t, true)}\n\n${summary(t)}\n`);
  else {
    for (const w of warnings) printErr(`kubecheck: warning: ${inputText(w)}\n`);
    printOut(`${head}\n${formatTimingTable(t, false)}\n\n${summary(t)}\n`);
  }
  return code;
}
