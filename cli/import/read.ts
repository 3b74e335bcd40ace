/**
 * Reads the files and folders given to `--config` (and `kubecheck import`) and tells what each
 * holds: kubecheck's own config, Kubernetes objects (one or more YAML documents, JSON, Lists;
 * kubeadm, kind and nodeadm configurations are objects too), a k3s `config.yaml`, or a
 * component's flags. Each bad file fails at once with one line naming it (KC201, KC202).
 */
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { LineCounter, parseAllDocuments } from 'yaml';
import { fail, ToolErrorCode } from '../../reports/errors.js';
import { MAX_NESTING, nestingDepth } from '../../model/resolve.js';
import { duplicateJsonKey, MAX_CONFIG_BYTES, readConfigFile, readText, refuseForbiddenKeys } from '../input.js';
import { looksLikeFlags, parseFlags, words } from './flags.js';
import type { ImportSource } from './importer.js';

/** Kubernetes objects nest a few dozen levels at most. */
const MAX_FLOW_DEPTH = MAX_NESTING;

/** File names read from a folder; other files there are listed as skipped. */
const READABLE = /\.(ya?ml|json|flags|args|conf|txt)$/i;

/** The files of a folder that kubecheck reads, sorted, and those it skips. */
function folderFiles(dir: string): { files: string[]; skipped: string[] } {
  let names: string[];
  try {
    names = readdirSync(dir).filter((n) => !n.startsWith('.')).sort();
  } catch (e) {
    return fail(ToolErrorCode.unreadableFile, `cannot read folder ${dir}: ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}`);
  }
  const files: string[] = [];
  const skipped: string[] = [];
  for (const n of names) {
    const path = join(dir, n);
    let file = false;
    try {
      file = statSync(path).isFile();
    } catch {
      file = false;
    }
    if (file && READABLE.test(n)) files.push(path);
    else skipped.push(path);
  }
  if (files.length === 0) fail(ToolErrorCode.unreadableFile, `folder ${dir} holds no .yaml, .yml, .json or .flags file`);
  return { files, skipped };
}

const isKubernetesObject = (v: unknown): boolean => v !== null && typeof v === 'object' && !Array.isArray(v) && ('kind' in v || 'apiVersion' in v);

/**
 * Whether a YAML text holds Kubernetes objects rather than kubecheck's own config: a top-level
 * `kind:` or `apiVersion:` key, or several documents. Decided on the text, in linear time, so
 * that kubecheck's own configs (however malformed) go to the config reader, which names their
 * problem.
 */
function holdsKubernetesObjects(text: string): boolean {
  if (/^(kind|apiVersion)[ \t]*:/m.test(text)) return true;
  if (/^[ \t]*\{[ \t]*["']?(kind|apiVersion)["']?[ \t]*:/.test(text)) return true;
  const separators = text.match(/^---[ \t]*$/gm)?.length ?? 0;
  return separators > 1 || (separators === 1 && !/^\s*(#[^\n]*\n\s*)*---/.test(text));
}

/** Parses a (multi-document) YAML text strictly: its documents, or KC202 naming the line. */
export function yamlDocuments(path: string, text: string): unknown[] {
  // Flow collections nested thousands deep exhaust the parser's stack (not a manifest anyway).
  let depth = 0;
  for (let i = 0; i < text.length; i++) {
    const ch = text.charCodeAt(i);
    if (ch === 123 || ch === 91) {
      if (++depth > MAX_FLOW_DEPTH) fail(ToolErrorCode.malformedConfig, `${path} is not valid YAML: nested too deeply (more than ${MAX_FLOW_DEPTH} levels of { and [)`);
    } else if (ch === 125 || ch === 93) depth = Math.max(0, depth - 1);
  }
  const lines = new LineCounter();
  const docs = parseAllDocuments(text, { logLevel: 'silent', prettyErrors: false, lineCounter: lines });
  const list = Array.isArray(docs) ? docs : [];
  for (const d of list) {
    const problem = d.errors[0];
    if (problem) {
      const { line, col } = lines.linePos(problem.pos[0]);
      fail(ToolErrorCode.malformedConfig, `${path} is not valid YAML: ${problem.message.split('\n')[0].replace(/:$/, '')} at line ${line}, column ${col}`);
    }
  }
  let values: unknown[];
  try {
    values = list.map((d) => d.toJS({ maxAliasCount: 100 }) as unknown).filter((d) => d !== null && d !== undefined);
  } catch (e) {
    return fail(ToolErrorCode.malformedConfig, `${path} is not valid YAML: ${(e as Error).message.split('\n')[0]}`);
  }
  values.forEach((v, i) => refuseForbiddenKeys(v, values.length > 1 ? `${path}: document ${i + 1}` : path));
  return values;
}

/**
 * Whether a YAML text is a k3s `config.yaml` (`/etc/rancher/k3s/config.yaml` and its
 * `config.yaml.d/` drop-ins): the components' flags as top-level keys, `kube-controller-manager-arg`
 * and the like (a key ending in `+` appends to an earlier file's).
 */
function isK3sConfig(text: string): boolean {
  return /^["']?(kube-(controller-manager|apiserver|scheduler|proxy|cloud-controller-manager)-arg|kubelet-arg|etcd-arg)\+?["']?[ \t]*:/m.test(text) && !/^(kind|apiVersion)[ \t]*:/m.test(text);
}

/** What one file holds. */
export function readSource(path: string, inFolder = false): ImportSource {
  const text = readText(path, 'config file', MAX_CONFIG_BYTES);
  if (looksLikeFlags(text)) {
    const line = parseFlags(words(text));
    if (line.stray !== undefined) fail(ToolErrorCode.malformedConfig, `${path}: "${line.stray}" is not a flag; a flags file holds --name=value flags (and may start with the program, e.g. kube-controller-manager)`);
    return { file: path, type: 'flags', line };
  }
  if (/\.json$/i.test(path)) {
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch (e) {
      fail(ToolErrorCode.malformedConfig, `${path} is not valid JSON: ${(e as Error).message}`);
    }
    if (isKubernetesObject(value)) {
      if (nestingDepth(value) > MAX_NESTING) fail(ToolErrorCode.malformedConfig, `${path} is not valid JSON for Kubernetes objects: nested too deeply (more than ${MAX_NESTING} levels of { and [)`);
      refuseForbiddenKeys(value, path);
      const dup = duplicateJsonKey(text);
      if (dup) fail(ToolErrorCode.malformedConfig, `${path} is not valid JSON: duplicate key "${dup.key}" at line ${dup.line}`);
      return { file: path, type: 'objects', documents: [value], ...(inFolder ? { inFolder } : {}) };
    }
    return { file: path, type: 'kubecheck', value: readConfigFile(path) as Record<string, unknown> };
  }
  if (isK3sConfig(text)) {
    const docs = yamlDocuments(path, text);
    const value = docs.length === 1 ? docs[0] : undefined;
    if (value === null || typeof value !== 'object' || Array.isArray(value)) fail(ToolErrorCode.malformedConfig, `${path}: a k3s config.yaml is one mapping of flags (kube-controller-manager-arg: [...])`);
    return { file: path, type: 'k3s', value: value as Record<string, unknown> };
  }
  if (!holdsKubernetesObjects(text)) {
    // kubecheck's own config: read with all of its checks (duplicate keys, hexadecimal numbers, depth).
    return { file: path, type: 'kubecheck', value: (readConfigFile(path) ?? {}) as Record<string, unknown> };
  }
  return { file: path, type: 'objects', documents: yamlDocuments(path, text), ...(inFolder ? { inFolder } : {}) };
}

/** Every source named by `paths` (files, and the readable files of folders), and the files skipped in folders. */
export function readSources(paths: readonly string[]): { sources: ImportSource[]; skipped: string[] } {
  const sources: ImportSource[] = [];
  const skipped: string[] = [];
  for (const p of paths) {
    let dir = false;
    try {
      dir = p !== '' && statSync(p).isDirectory();
    } catch {
      dir = false;
    }
    if (dir) {
      const f = folderFiles(p);
      skipped.push(...f.skipped);
      for (const file of f.files) sources.push(readSource(file, true));
    } else sources.push(readSource(p));
  }
  return { sources, skipped };
}
