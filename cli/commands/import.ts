/**
 * `kubecheck import FILES...`: what kubecheck understood of a cluster's own files. Prints the
 * kubecheck config they amount to (YAML, each key with the file and field it came from, ready to
 * save and pass to `--config`), how names were mapped, and every field read that the model
 * leaves out. The config is resolved and validated as `check` would.
 */
import { Document, isScalar, visit, type Scalar } from 'yaml';
import { inputText, jsonText } from '../../checker/escape.js';
import { printOut } from '../terminal.js';
import { configToObject, resolveConfig } from '../../model/index.js';
import { refuseOversizedConfig, refuseOversizedInput } from '../limits.js';
import { importFromPaths } from '../subjects.js';

export interface ImportOptions {
  readonly scenario?: string;
  readonly set?: Record<string, string>;
  readonly allowUnsafeConfig?: boolean;
  readonly json?: boolean;
  /** Print every parameter of the resolved config, not only those the files set. */
  readonly all?: boolean;
}

/** The imported config as commented YAML: `key: value  # file: field`. */
export function importYaml(config: Record<string, unknown>, origins: Readonly<Record<string, string>>, header: readonly string[], footer: readonly string[]): string {
  const doc = new Document(config);
  // A key or string from the files that is not one safe token (a newline, a control character, a
  // leading `::`) is double-quoted on one line, never a block scalar whose lines could start anything.
  visit(doc, {
    Scalar(_key, node) {
      if (typeof node.value === 'string' && inputText(node.value) !== node.value) node.type = 'QUOTE_DOUBLE';
    },
  });
  for (const [key, origin] of Object.entries(origins)) {
    const node = doc.getIn(key.split('.'), true);
    if (isScalar(node)) (node as Scalar).comment = ` ${inputText(origin)}`;
  }
  doc.commentBefore = header.map((l) => ` ${l}`).join('\n');
  if (footer.length > 0) doc.comment = footer.map((l) => ` ${l}`).join('\n');
  return doc.toString({ lineWidth: 0 });
}

export async function runImport(files: readonly string[], opts: ImportOptions): Promise<number> {
  const imported = importFromPaths(files);
  const scenario = opts.scenario ?? imported.scenario ?? 'node-failure';
  const input = {
    file: imported.config,
    ...(opts.set ? { set: opts.set } : {}),
    ...(opts.allowUnsafeConfig ? { allowUnsafe: true } : {}),
  };
  // The caps check has: a config it would refuse (KC213) is not printed as one to use.
  refuseOversizedInput('kubernetes', input);
  const resolved = resolveConfig(scenario, input);
  refuseOversizedConfig(resolved);
  const notModelled = [...imported.notModelled, ...imported.skipped.map((f) => `skipped: ${f}`)];
  if (opts.json) {
    process.stdout.write(`${jsonText({
      scenario,
      config: imported.config,
      origins: imported.origins,
      notes: imported.notes,
      notModelled,
      resolved: configToObject(resolved),
    })}\n`);
    return 0;
  }
  const header = [
    `kubecheck config read from ${files.map(inputText).join(', ')}`,
    `check it with: kubecheck check --config <this file> (scenario ${scenario}); every key: kubecheck list parameters`,
  ];
  const footer = [
    ...(imported.notes.length > 0 ? ['', 'how it was read:', ...imported.notes.map((n) => `  ${inputText(n)}`)] : []),
    ...(notModelled.length > 0 ? ['', 'not modelled (read, but they do not change the model):', ...notModelled.map((n) => `  ${inputText(n)}`)] : []),
  ];
  const body = opts.all ? (configToObject(resolved) as Record<string, unknown>) : imported.config;
  printOut(importYaml(body, imported.origins, header, footer));
  return 0;
}
