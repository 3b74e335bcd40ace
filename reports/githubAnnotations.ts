/**
 * GitHub Actions workflow commands for a `check` run: one `::error title=<property id>::...` line
 * per failed property and one `::warning title=...::...` per config warning, which the runner turns
 * into annotations on the job and the pull request. The command line prints them when
 * `GITHUB_ACTIONS=true` (GitHub sets it in every job).
 *
 * Escaping follows GitHub's own toolkit (`@actions/core`, command.ts): in the message `%`, `\r`
 * and `\n` become `%25`, `%0D` and `%0A`; in a property value also `:` and `,` (`%3A`, `%2C`).
 * Other control characters (ESC, the C1 range) are escaped as in a JSON string (`\u001b`), so an
 * annotation of a value from input is one line that carries no terminal command; a `%0A` in
 * input stays the text `%0A` (its `%` is `%25`).
 */
import { isLiveness, type CheckResult, type Model } from '../checker/index.js';
import { escapeControls } from '../checker/escape.js';
import { violationWhy, type RunInfo } from './outcome.js';

/** Escapes a workflow command's message. */
export function escapeData(s: string): string {
  return escapeControls(s.replace(/%/g, '%25').replace(/\r/g, '%0D').replace(/\n/g, '%0A'));
}

/** Escapes a workflow command's property value (`title=...`). */
export function escapeProperty(s: string): string {
  return escapeData(s).replace(/:/g, '%3A').replace(/,/g, '%2C');
}

/** One workflow command line, e.g. `::error title=consistent::no resource manager ...`. */
export function workflowCommand(command: 'error' | 'warning' | 'notice', message: string, properties: Readonly<Record<string, string>> = {}): string {
  const props = Object.entries(properties).map(([k, v]) => `${k}=${escapeProperty(v)}`).join(',');
  return `::${command}${props ? ` ${props}` : ''}::${escapeData(message)}`;
}

/** The workflow command lines of a run (each without its newline): errors first, then warnings. */
export function githubAnnotations<S>(model: Model<S>, result: CheckResult<S>, info: RunInfo): string[] {
  const scenario = info.scenario ?? model.name;
  const out: string[] = [];
  // An error points at the first setting the files gave with its line (the annotation shows on that line of the pull request).
  const at = info.settings?.find((st) => st.line !== undefined);
  const where: Record<string, string> = at === undefined ? {} : { file: at.file, line: String(at.line) };
  const settings = info.settings !== undefined && info.settings.length > 0 ? `; settings read: ${info.settings.map((st) => `${st.key} (${st.file}${st.line === undefined ? '' : `:${st.line}`})`).join(', ')}` : '';
  for (const p of result.properties) {
    if (isLiveness(p)) {
      if (p.status !== 'violated') continue;
      const lasso = p.lasso ? `; a lasso of ${p.lasso.actions.length} steps whose cycle starts after step ${p.lasso.loop}` : '';
      out.push(workflowCommand('error', `kubecheck ${scenario}: ${p.id} violated: ${p.description}${lasso}${settings}`, { ...where, title: p.id }));
    } else if (p.status === 'violated') {
      const n = p.trace?.actions.length;
      const length = n === undefined ? '' : `; counterexample of ${n} ${n === 1 ? 'step' : 'steps'}`;
      const why = violationWhy(model, p);
      out.push(workflowCommand('error', `kubecheck ${scenario}: ${p.id} violated: ${p.description}${why === undefined ? '' : ` (${why})`}${length}${settings}`, { ...where, title: p.id }));
    } else if (p.status === 'unwitnessed') {
      out.push(workflowCommand('error', `kubecheck ${scenario}: ${p.id}: goal never reached on the whole state space (${p.description}); the scenario may be vacuous${settings}`, { ...where, title: p.id }));
    }
  }
  for (const w of info.warnings ?? []) out.push(workflowCommand('warning', w, { title: `kubecheck ${scenario}: config warning` }));
  return out;
}
