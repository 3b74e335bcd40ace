/**
 * Where in the user's files each imported parameter was written: its file and line, for the
 * reports that point at it (SARIF results, GitHub `::error file=...,line=...` annotations).
 *
 * A flag's line is the reader's own (flags files, systemd units, environment files). For a field
 * of a YAML or JSON document the line is found in the file's text by following the field's path
 * as the origin names it (`Cluster.spec.kubeControllerManager: --node-monitor-grace-period`,
 * `kubeControllerManager.nodeMonitorGracePeriod`): each part of the path in turn, from the line
 * of the part before, the last one being the field itself. When the field is not found the
 * location is the file alone.
 */
import type { ConfigSetting } from '../../reports/outcome.js';
import { MAX_CONFIG_BYTES, readText } from '../input.js';
import type { Imported } from './importer.js';

const escapeRegExp = (s: string): string => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** The 1-based line of `path`'s last part, each part searched from the line of the one before; undefined when it is not there. */
export function fieldLine(text: string, path: readonly string[]): number | undefined {
  const lines = text.split(/\r?\n/);
  let from = 0;
  let found: number | undefined;
  for (let p = 0; p < path.length; p++) {
    const part = path[p];
    const re = new RegExp(`(^|[^A-Za-z0-9_-])${escapeRegExp(part)}($|[^A-Za-z0-9_-])`);
    let hit: number | undefined;
    for (let i = from; i < lines.length; i++) {
      if (/^\s*#/.test(lines[i])) continue;
      if (re.test(lines[i])) {
        hit = i;
        break;
      }
    }
    if (hit === undefined) {
      if (p === path.length - 1) return undefined;
      continue;
    }
    from = hit;
    found = hit + 1;
  }
  return found;
}

/** The parts of the field an origin names after its file: `(ClusterConfiguration.controllerManager.extraArgs): --node-monitor-grace-period` → ClusterConfiguration, controllerManager, extraArgs, node-monitor-grace-period. */
export function fieldPath(rest: string): string[] {
  return rest
    .replace(/\([^)]*\bunset\b[^)]*\)/g, '')
    .split(/[\s.:()[\]/]+/)
    .map((p) => p.replace(/^--/, '').replace(/=.*$/, ''))
    .filter((p) => p !== '' && !/^\d+$/.test(p));
}

/** The file and line of each parameter the files set, in file and line order. */
export function settingLocations(imported: Pick<Imported, 'origins' | 'lines' | 'config'>, files: readonly string[]): ConfigSetting[] {
  const texts = new Map<string, string>();
  const text = (file: string): string => {
    let t = texts.get(file);
    if (t === undefined) {
      try {
        t = readText(file, 'config file', MAX_CONFIG_BYTES);
      } catch {
        t = '';
      }
      texts.set(file, t);
    }
    return t;
  };
  const byLength = [...files].sort((a, b) => b.length - a.length);
  const out: ConfigSetting[] = [];
  for (const [key, origin] of Object.entries(imported.origins)) {
    if (key.startsWith('cluster.workloads.') || key === 'cluster.objects') continue;
    const file = byLength.find((f) => origin.startsWith(f));
    if (file === undefined) continue;
    const known = imported.lines?.[key];
    const line = known ?? fieldLine(text(file), fieldPath(origin.slice(file.length)));
    out.push({ key, file, origin, ...(line === undefined ? {} : { line }) });
  }
  return out.sort((a, b) => (a.file === b.file ? (a.line ?? 0) - (b.line ?? 0) : a.file < b.file ? -1 : 1));
}
