/**
 * The Markdown report, fit for a CI job summary (`$GITHUB_STEP_SUMMARY`): the verdict, a table of
 * properties, the statistics, and each counterexample as a Mermaid sequence diagram (GitHub
 * renders it) followed by its timeline with the state changes.
 */
import { stringify } from 'yaml';
import { inputText } from '../checker/escape.js';
import { isLiveness, type CheckResult, type Model } from '../checker/index.js';
import { formatDuration } from '../checker/duration.js';
import { cycleLength, lassoTrace, livenessOutcomes, reportKind, searchOutcomes } from './liveness.js';
import { mermaidSequence, type MermaidOptions } from './mermaid.js';
import { formatStats, formatStop, runNotes, runVerdict, violationWhy, type RunInfo } from './outcome.js';
import { foldQuiet, formatTimeline, timelineSteps, traceDuration } from './timeline.js';

export interface MarkdownOptions {
  /** Participants placed first in sequence diagrams (see {@link MermaidOptions.order}). */
  readonly participants?: readonly string[];
  /** File names of the ITF traces, by property id, to link and to show the replay command. */
  readonly traceFiles?: Readonly<Record<string, string>>;
  /** Wall-clock figures (seconds, rate, memory) in the statistics; off for golden files. */
  readonly timings?: boolean;
  /**
   * Fold quiet stretches (time passing, routine work) of the diagram and the timeline into one
   * line each (default true); false shows every step (`--unfold`).
   */
  readonly fold?: boolean;
}

const ICON = { ok: '✅', violation: '❌', incomplete: '⚠️' } as const;
const STATUS = { holds: '✅ holds', witnessed: '✅ witnessed', violated: '❌ violated', unwitnessed: '❌ unwitnessed', unknown: '⚠️ unknown' } as const;

/** Escapes a table cell. */
function cell(text: string): string {
  return inputText(text).replace(/\|/g, '\\|').replace(/\n/g, ' ');
}

/** Escapes text for a Markdown paragraph: characters that would start markup are backslashed. */
function markdownText(text: string): string {
  return inputText(text).replace(/[\\`*_[\]<>|#]/g, (c) => `\\${c}`);
}

/** The report as Markdown. */
export function markdownReport<S>(model: Model<S>, result: CheckResult<S>, info: RunInfo, options: MarkdownOptions = {}): string {
  const out: string[] = [];
  const subject = info.scenario ?? model.name;
  const { verdict, exitCode } = runVerdict(result);
  out.push(`## ${ICON[verdict]} kubecheck ${info.command} \`${subject}\`: ${verdict}`, '');
  out.push(`Model \`${model.name}\`; exit code ${exitCode}.`, '');
  out.push('| property | kind | status | what must hold | source |', '| --- | --- | --- | --- | --- |');
  for (const p of result.properties) {
    // A liveness property names no source: its row's source cell is bare.
    const source = isLiveness(p) ? ' ' : ` ${cell(p.source ?? '')} `;
    out.push(`| \`${p.id}\` | ${reportKind(p)} | ${STATUS[p.status]} | ${cell(p.description)} |${source}|`);
  }
  out.push('');
  const s = result.stats;
  out.push(options.timings === false
    ? `${s.distinctStates.toLocaleString('en-US')} distinct states, ${s.generatedStates.toLocaleString('en-US')} generated, depth ${s.depth}.`
    : `${formatStats(result)}.`);
  const stop = formatStop(result);
  if (stop) out.push('', `⚠️ Incomplete: ${stop}.`);
  const notes = runNotes(info);
  for (const w of notes.warnings) out.push('', `> ⚠️ **Config warning:** ${markdownText(w)}`);
  for (const w of info.verdictWarnings ?? []) out.push('', `> ⚠️ **Warning:** ${markdownText(w)}`);
  if (notes.leftOut.length > 0) out.push('', '**Not checked** (left out of the default selection):', '', ...notes.leftOut.map((l) => `- ${markdownText(l)}`));
  if (notes.notModelled.length > 0) out.push('', "**Read from the cluster's files but not modelled** (ignored):", '', ...notes.notModelled.map((l) => `- ${markdownText(l)}`));
  if (info.simulation) {
    const sim = info.simulation;
    out.push('', `Random exploration: seed \`${sim.seed}\`, ${sim.runs} runs, ${sim.steps} steps${sim.replay ? `; replay path \`${sim.replay}\`` : ''}.`);
  }
  for (const p of searchOutcomes(result).filter((q) => q.status === 'violated' && q.trace)) {
    const trace = p.trace!;
    const steps = timelineSteps(model, trace);
    out.push('', `### Counterexample to \`${p.id}\``, '');
    const why = violationWhy(model, p);
    if (why !== undefined) out.push(`**Why:** ${markdownText(why)}`, '');
    out.push(`${p.description}${p.source ? ` (${p.source})` : ''}. Violated after ${trace.actions.length} steps and ${formatDuration(traceDuration(steps))} of model time.`, '');
    const fold = options.fold !== false;
    out.push('```mermaid', mermaidSequence(model, trace, { order: options.participants ?? [], conclusion: `✗ ${p.id} violated`, fold }), '```', '');
    const text = formatTimeline(model, trace, { fold });
    const folded = fold && foldQuiet(steps).some((l) => l.steps[0] !== l.steps[1]);
    out.push(`<details><summary>Timeline with state changes${folded ? ' (quiet stretches folded: time passing and routine work, with the steps each covers)' : ''}</summary>`, '', '```text', text, '```', '', '</details>');
    const file = options.traceFiles?.[p.id];
    if (file) out.push('', `ITF trace: [\`${file}\`](${file}); re-execute it with \`npx kubecheck replay ${file}\`.`);
  }
  for (const l of livenessOutcomes(result)) {
    if (l.lasso === undefined) continue;
    const lasso = lassoTrace(l.lasso);
    const cycle = cycleLength(l.lasso);
    out.push('', `### Liveness counterexample to \`${l.id}\` (a lasso)`, '');
    out.push(`${l.description}: a behaviour that never gets there, ${l.lasso.loop} steps and then a cycle of ${cycle === 0 ? 'stuttering' : `${cycle} steps`} back to the state after step ${l.lasso.loop}, forever.`, '');
    out.push('<details><summary>Timeline, the cycle marked</summary>', '', '```text', formatTimeline(model, lasso, { fold: options.fold !== false, loop: l.lasso.loop }), '```', '', '</details>');
    const file = options.traceFiles?.[l.id];
    if (file) out.push('', `ITF trace: [\`${file}\`](${file}); re-execute it with \`npx kubecheck replay ${file}\`.`);
  }
  const modules = info.extensionModules ?? [];
  if (modules.length > 0) {
    out.push('', '**Extension modules checked** (`kubecheck replay` loads them from the trace\'s folder by the relative path, else by the absolute one, and refuses one whose content changed):', '');
    out.push('| module | extensions | path from this folder | absolute path | sha256 (entry and its relative imports) |', '| --- | --- | --- | --- | --- |');
    for (const m of modules) {
      const files = m.files.length > 1 ? ` (${m.files.length} files)` : '';
      out.push(`| \`${cell(m.path)}\` | ${cell(m.extensions.join(', '))} | ${m.relativePath === undefined ? '' : `\`${cell(m.relativePath)}\``} | \`${cell(m.absolutePath)}\` | \`${cell(m.sha256)}\`${files} |`);
    }
    const settings = modules.filter((m) => m.settings !== undefined && Object.keys(m.settings).length > 0);
    if (settings.length > 0) out.push('', `Settings the modules declare (the base of the config): ${settings.flatMap((m) => Object.entries(m.settings!).map(([k, v]) => `\`${cell(k)}=${cell(typeof v === 'string' ? v : JSON.stringify(v))}\``)).join(', ')}.`);
  }
  if (info.configInput !== undefined) {
    const given = [...info.configInput.files.map((f) => `\`--config ${cell(f)}\``), ...Object.entries(info.configInput.set).map(([k, v]) => `\`--set ${cell(k)}=${cell(v)}\``)];
    if (given.length > 0) out.push('', `Config given: ${given.join(' ')} (the config below is what it resolved to; replay reads that).`);
  }
  if (info.config !== undefined) {
    out.push('', '<details><summary>Config</summary>', '', '```yaml', stringify(info.config).trimEnd(), '```', '', '</details>');
  }
  return `${out.join('\n')}\n`;
}
