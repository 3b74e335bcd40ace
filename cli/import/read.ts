/**
 * Reads the files and folders given to `--config` (and `kubecheck import`) and tells what each
 * holds: kubecheck's own config, Kubernetes objects (one or more YAML documents, JSON, Lists;
 * kubeadm, kind and nodeadm configurations are objects too), a k3s `config.yaml`, a component's
 * flags, a systemd unit or drop-in that starts a component, or an environment file of flags.
 * A file is known by what it holds, not by its name: a kops state store's `config` and
 * `instancegroup/nodes` have no extension. Each bad file fails at once with one line naming it
 * (KC201, KC202).
 */
import { readdirSync, statSync } from 'node:fs';
import { extname, join } from 'node:path';
import { LineCounter, parseAllDocuments } from 'yaml';
import { fail, ToolErrorCode } from '../../reports/errors.js';
import { MAX_NESTING, nestingDepth } from '../../model/resolve.js';
import { duplicateJsonKey, MAX_CONFIG_BYTES, readConfigFile, readText, refuseForbiddenKeys } from '../input.js';
import { looksLikeFlags, parseFlags, wordsWithLines } from './flags.js';
import { environmentFileFlags, isEnvironmentFile, isSystemdUnit, unitFlags, type CommandFlags } from './systemd.js';
import type { ImportSource } from './importer.js';

/** Kubernetes objects nest a few dozen levels at most. */
const MAX_FLOW_DEPTH = MAX_NESTING;

/**
 * Extensions of files that are read whatever they hold (a file that is not what its name says is
 * refused); a file of a folder with another name (or none) is read when its content is one of
 * the kinds above, else listed as skipped.
 */
const NAMED = /\.(ya?ml|json|flags|args|conf|service|env)$/i;

/**
 * A kops state store (`aws s3 sync s3://<bucket>/<cluster> .`): `config` (the Cluster as
 * written), `cluster.spec` or `cluster-completed.spec` (as completed by kops) and one file per
 * InstanceGroup in `instancegroup/`. Its other folders (pki, secrets, addons, manifests) hold
 * keys and generated files, which are not read.
 */
const KOPS_CLUSTER_FILES = ['config', 'cluster.spec', 'cluster-completed.spec'];

/** What a folder entry is: a regular file, a folder, or something else. */
function entryKind(path: string): 'file' | 'folder' | 'other' {
  try {
    const st = statSync(path);
    return st.isFile() ? 'file' : st.isDirectory() ? 'folder' : 'other';
  } catch {
    return 'other';
  }
}

function listFolder(dir: string): string[] {
  try {
    return readdirSync(dir).filter((n) => !n.startsWith('.')).sort();
  } catch (e) {
    return fail(ToolErrorCode.unreadableFile, `cannot read folder ${dir}: ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}`);
  }
}

/** The files of a folder that kubecheck looks at, sorted (a kops state store's InstanceGroups too), and the entries it skips, each with why. */
function folderFiles(dir: string): { files: string[]; skipped: string[] } {
  const names = listFolder(dir);
  const kops = names.includes('instancegroup') && KOPS_CLUSTER_FILES.some((n) => names.includes(n)) && entryKind(join(dir, 'instancegroup')) === 'folder';
  const files: string[] = [];
  const skipped: string[] = [];
  for (const n of names) {
    const path = join(dir, n);
    const kind = entryKind(path);
    if (kind === 'file') files.push(path);
    else if (kind === 'folder' && kops && n === 'instancegroup') {
      for (const ig of listFolder(path)) {
        const igPath = join(path, ig);
        if (entryKind(igPath) === 'file') files.push(igPath);
        else skipped.push(`${igPath} (not a file)`);
      }
    } else if (kind === 'folder') skipped.push(`${path} (${kops ? 'a folder of the kops state store that holds no cluster configuration' : 'a folder: the files of a folder given are read, not its folders; give it to read it'})`);
    else skipped.push(`${path} (not a regular file)`);
  }
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

/** The flags of a unit or environment file as sources: k3s' flags as its config.yaml keys. */
function commandSources(path: string, list: readonly CommandFlags[], what: string): ImportSource[] {
  return list.map((cmd): ImportSource => {
    if (cmd.stray !== undefined) fail(ToolErrorCode.malformedConfig, `${path}: "${cmd.stray}" in ${what} is not a flag`);
    if (cmd.distribution !== undefined) {
      // `k3s server --kube-controller-manager-arg=node-monitor-grace-period=20s`: the flags are config.yaml's keys.
      const value: Record<string, unknown> = Object.create(null) as Record<string, unknown>;
      for (const f of cmd.flags) value[f.name] = [...((value[f.name] as string[] | undefined) ?? []), ...(f.value === undefined ? [] : [f.value])];
      return { file: path, type: 'k3s', value };
    }
    return { file: path, type: 'flags', line: { component: cmd.component, flags: cmd.flags }, notes: cmd.notes.map((n) => `${path}: ${n}`) };
  });
}

/** The flags a systemd unit or drop-in passes; a unit of another program is refused on its own and skipped in a folder. */
function unitSources(path: string, text: string, inFolder: boolean): ImportSource[] | string {
  const list = unitFlags(text);
  const other = list.find((c) => c.otherProgram !== undefined)?.otherProgram;
  if (other !== undefined || list.length === 0) {
    const why = other !== undefined
      ? `its ExecStart runs ${other}, which is not a Kubernetes component kubecheck reads (kube-controller-manager, kube-scheduler, kube-apiserver, kubelet, k3s, rke2)`
      : 'a systemd unit without an ExecStart nor an Environment holding flags';
    if (inFolder) return why;
    fail(ToolErrorCode.malformedConfig, `${path}: ${why}`);
  }
  return commandSources(path, list, 'ExecStart');
}

/**
 * What one file holds, as sources (an environment file may hold several components' flags).
 * `inFolder`: the file was found in a folder given; a file there whose name does not say what it
 * is and whose content is none of the kinds kubecheck reads is skipped, returned as the reason.
 */
export function readFile(path: string, inFolder = false): ImportSource[] | string {
  const named = NAMED.test(path);
  if (inFolder && !named) {
    const st = statSync(path);
    if (st.size > MAX_CONFIG_BYTES) return `more than the ${MAX_CONFIG_BYTES / 1024 / 1024} MiB a config file can be`;
  }
  const text = readText(path, 'config file', MAX_CONFIG_BYTES);
  if (inFolder && !named && text.includes('\u0000')) return 'not a text file';
  if (isSystemdUnit(text)) return unitSources(path, text, inFolder);
  if (isEnvironmentFile(text)) return commandSources(path, environmentFileFlags(text), 'an environment variable');
  if (looksLikeFlags(text)) {
    const w = wordsWithLines(text);
    const line = parseFlags(w.words, w.lines);
    if (line.stray !== undefined) fail(ToolErrorCode.malformedConfig, `${path}: "${line.stray}" is not a flag; a flags file holds --name=value flags (and may start with the program, e.g. kube-controller-manager)`);
    return [{ file: path, type: 'flags', line: { component: line.component, flags: line.flags } }];
  }
  const json = /\.json$/i.test(path) || (!named && extname(path) === '' && /^\s*\{/.test(text));
  if (json) {
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch (e) {
      if (!named && inFolder) return 'not valid JSON';
      fail(ToolErrorCode.malformedConfig, `${path} is not valid JSON: ${(e as Error).message}`);
    }
    if (isKubernetesObject(value)) {
      if (nestingDepth(value) > MAX_NESTING) fail(ToolErrorCode.malformedConfig, `${path} is not valid JSON for Kubernetes objects: nested too deeply (more than ${MAX_NESTING} levels of { and [)`);
      refuseForbiddenKeys(value, path);
      const dup = duplicateJsonKey(text);
      if (dup) fail(ToolErrorCode.malformedConfig, `${path} is not valid JSON: duplicate key "${dup.key}" at line ${dup.line}`);
      return [{ file: path, type: 'objects', documents: [value], ...(inFolder ? { inFolder } : {}) }];
    }
    if (!named && inFolder) return 'JSON that is neither Kubernetes objects nor a kubecheck config';
    return [{ file: path, type: 'kubecheck', value: readConfigFile(path) as Record<string, unknown> }];
  }
  if (isK3sConfig(text)) {
    const docs = yamlDocuments(path, text);
    const value = docs.length === 1 ? docs[0] : undefined;
    if (value === null || typeof value !== 'object' || Array.isArray(value)) fail(ToolErrorCode.malformedConfig, `${path}: a k3s config.yaml is one mapping of flags (kube-controller-manager-arg: [...])`);
    return [{ file: path, type: 'k3s', value: value as Record<string, unknown> }];
  }
  // A file of a folder whose name does not say what it is (a README, a kops state store's
  // `config`): read only when it holds Kubernetes objects (a top-level kind or apiVersion), as
  // kubecheck's own configs are named .yaml, .yml or .json.
  if (inFolder && !named && !/^(kind|apiVersion)[ \t]*:/m.test(text)) return 'not a file kubecheck reads (Kubernetes objects, flags, a systemd unit or an environment file of flags)';
  if (!holdsKubernetesObjects(text)) {
    // kubecheck's own config: read with all of its checks (duplicate keys, hexadecimal numbers, depth).
    return [{ file: path, type: 'kubecheck', value: (readConfigFile(path) ?? {}) as Record<string, unknown> }];
  }
  return [{ file: path, type: 'objects', documents: yamlDocuments(path, text), ...(inFolder ? { inFolder } : {}) }];
}

/** What one file named on its own holds (the first of its sources). */
export function readSource(path: string): ImportSource {
  const r = readFile(path);
  if (typeof r === 'string' || r.length === 0) return fail(ToolErrorCode.malformedConfig, `${path}: ${typeof r === 'string' ? r : 'holds no flags'}`);
  return r[0];
}

/** Every source named by `paths` (files, and the files of folders kubecheck recognises), and the entries skipped in folders, each with why. */
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
      const before = sources.length;
      const f = folderFiles(p);
      skipped.push(...f.skipped);
      for (const file of f.files) {
        const r = readFile(file, true);
        if (typeof r === 'string') skipped.push(`${file} (${r})`);
        else sources.push(...r);
      }
      if (sources.length === before) {
        fail(ToolErrorCode.unreadableFile, `folder ${p} holds no file kubecheck reads (Kubernetes objects, a kubecheck config, flags, a systemd unit or an environment file of flags)`);
      }
    } else {
      const r = readFile(p);
      if (typeof r === 'string') fail(ToolErrorCode.malformedConfig, `${p}: ${r}`);
      if (r.length === 0) fail(ToolErrorCode.malformedConfig, `${p}: holds no flags of a Kubernetes component`);
      sources.push(...r);
    }
  }
  return { sources, skipped };
}
