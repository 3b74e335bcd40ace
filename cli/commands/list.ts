/**
 * `kubecheck list`: scenarios, properties (id, kind, one line, source; the liveness ones with the
 * fairness `check --liveness` assumes) and parameters with defaults and Kubernetes names.
 */
import { extensionProperties } from '../../model/index.js';
import { fail, ToolErrorCode } from '../../reports/errors.js';
import { loadExtensions } from '../extensions.js';
import { loadModelModule, modelParameters, modelSubject } from '../userModel.js';
import { allSubjects, extensionCatalogue } from '../subjects.js';
import type { Subject } from '../subjects.js';
import { stdoutPalette } from '../terminal.js';

export interface ListOptions {
  readonly json?: boolean;
  readonly color?: boolean;
  /** Modules of your own controllers: their properties are listed with the Kubernetes model's. */
  readonly extension?: readonly string[];
  /** A user's own model: its catalogue alone is listed. */
  readonly model?: string;
  /** With `model`: its factory's parameters. */
  readonly set?: Record<string, string>;
}

function table(rows: readonly (readonly string[])[]): string[] {
  if (rows.length === 0) return ['  (none)'];
  const widths = rows[0].map((_, i) => Math.max(...rows.map((r) => r[i].length)));
  return rows.map((r) => `  ${r.map((x, i) => (i === r.length - 1 ? x : x.padEnd(widths[i]))).join('  ')}`.trimEnd());
}

/** The Kubernetes subject with the extensions' own properties beside its own (KC107 on a clash, as check says). */
async function withExtensions(subjects: readonly Subject[], paths: readonly string[]): Promise<readonly Subject[]> {
  if (paths.length === 0) return subjects;
  const extensions = await loadExtensions(paths);
  const k8s = subjects.find((s) => s.name === 'kubernetes')!;
  extensionProperties(extensions, [...k8s.properties.map((p) => p.id), ...(k8s.liveness ?? []).map((p) => p.id)]);
  const own = extensionCatalogue(extensions, true);
  const liveness = own.liveness.map((p) => ({ ...p, fairness: k8s.liveness?.[0]?.fairness ?? '' }));
  return subjects.map((s) => (s !== k8s ? s : { ...s, properties: [...s.properties, ...own.properties], liveness: [...(s.liveness ?? []), ...liveness] }));
}

/** The subject of `--model`, alone (KC200 beside --extension, which adds to the Kubernetes model). */
async function modelOnly(opts: ListOptions): Promise<readonly Subject[]> {
  if ((opts.extension ?? []).length > 0) fail(ToolErrorCode.badOption, `--model ${opts.model} is listed in place of the Kubernetes scenarios: --extension does not apply to it`);
  const loaded = await loadModelModule(opts.model!);
  return [await modelSubject(loaded, modelParameters(loaded, opts.set))];
}

export async function runList(what: string | undefined, opts: ListOptions): Promise<number> {
  if (opts.model === undefined && opts.set !== undefined) fail(ToolErrorCode.badOption, 'list --set gives the parameters of a --model; the scenarios\' parameters and defaults are listed without it');
  const subjects = opts.model !== undefined ? await modelOnly(opts) : await withExtensions(await allSubjects(), opts.extension ?? []);
  if (opts.json) {
    process.stdout.write(`${JSON.stringify(subjects.map((s) => ({ subject: s.name, scenarios: s.scenarios, properties: s.properties, liveness: s.liveness ?? [], parameters: s.parameters() })), null, 2)}\n`);
    return 0;
  }
  const c = stdoutPalette(opts.color === false);
  const out: string[] = [];
  const show = (section: string): boolean => what === undefined || what === section;
  for (const s of subjects) {
    const title = s.name === 'kubernetes' ? '' : s.name === 'model' ? ` (model: ${s.scenarios[0].name})` : ` (example: ${s.name})`;
    if (show('scenarios')) out.push(c.bold(`Scenarios${title}`), ...table(s.scenarios.map((x) => [x.name, x.description])), '');
    if (show('properties')) {
      out.push(c.bold(`Properties${title}`), ...table(s.properties.map((p) => [p.id, p.kind, p.description, p.source ?? ''])), '');
      const liveness = s.liveness ?? [];
      if (liveness.length > 0) {
        // One fairness for all of a subject's liveness properties is said once, under the table.
        const shared = liveness.every((p) => p.fairness === liveness[0].fairness);
        out.push(c.bold(`Liveness properties${title} (check --liveness)`), ...table(liveness.map((p) => [p.id, p.kind, shared ? p.description : `${p.description} (${p.fairness})`])));
        if (shared) out.push(`  under ${liveness[0].fairness}`);
        out.push('');
      }
    }
    if (show('parameters')) {
      out.push(c.bold(`Parameters${title}`), ...table([['key', 'default', 'kubernetes name', 'description'], ...s.parameters().map((p) => [p.key, p.defaultValue, p.kubernetesName || '-', p.description])]), '');
    }
  }
  process.stdout.write(`${out.join('\n').trimEnd()}\n`);
  return 0;
}
