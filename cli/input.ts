/**
 * Reading what the user typed: config files (YAML or JSON), `--set key=value` pairs, counts and
 * durations for bounds. Each bad input fails at once with a code and one line naming it.
 */
import { readFileSync } from 'node:fs';
import { parse as parseYaml } from 'yaml';
import { fail, ToolErrorCode } from '../reports/errors.js';

/** Reads a file as text; KC201 when it cannot be read. */
export function readText(path: string, what: string): string {
  try {
    return readFileSync(path, 'utf8');
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    fail(ToolErrorCode.unreadableFile, `cannot read ${what} ${path}: ${code === 'ENOENT' ? 'no such file' : code === 'EISDIR' ? 'it is a directory' : (e as Error).message}`);
  }
}

/** Parses a config file: JSON when it ends in `.json`, else YAML (a superset of JSON). KC202 names the line. */
export function readConfigFile(path: string): unknown {
  const text = readText(path, 'config file');
  let value: unknown;
  if (path.endsWith('.json')) {
    try {
      value = JSON.parse(text);
    } catch (e) {
      fail(ToolErrorCode.malformedConfig, `${path} is not valid JSON: ${(e as Error).message}`);
    }
  } else {
    try {
      value = parseYaml(text, { prettyErrors: true, uniqueKeys: true });
    } catch (e) {
      fail(ToolErrorCode.malformedConfig, `${path} is not valid YAML: ${(e as Error).message.split('\n')[0].replace(/:$/, '')}`);
    }
  }
  if (value === null || value === undefined) return {};
  if (typeof value !== 'object' || Array.isArray(value)) fail(ToolErrorCode.malformedConfig, `${path} must be a mapping of parameters (key: value), not a ${Array.isArray(value) ? 'list' : typeof value}`);
  return value;
}

/** Collects repeated `--set key=value` options into a record. */
export function collectSet(pair: string, previous: Record<string, string> = {}): Record<string, string> {
  const eq = pair.indexOf('=');
  if (eq <= 0) fail(ToolErrorCode.badOption, `--set expects key=value (e.g. kubeControllerManager.nodeMonitorGracePeriod=40s), got "${pair}"`);
  return { ...previous, [pair.slice(0, eq).trim()]: pair.slice(eq + 1).trim() };
}

/** Collects a repeatable option into a list. */
export function collectList(value: string, previous: string[] = []): string[] {
  return [...previous, ...value.split(',').map((v) => v.trim()).filter(Boolean)];
}

/** A positive integer option (`--max-states 1e6` and `1_000_000` accepted). */
export function positiveInt(name: string): (value: string) => number {
  return (value: string) => {
    const n = Number(value.replace(/_/g, ''));
    if (!Number.isInteger(n) || n <= 0) fail(ToolErrorCode.badOption, `${name} must be a positive integer, got "${value}"`);
    return n;
  };
}

/** A non-negative integer option (seeds). */
export function nonNegativeInt(name: string): (value: string) => number {
  return (value: string) => {
    const n = Number(value);
    if (!Number.isInteger(n) || n < 0) fail(ToolErrorCode.badOption, `${name} must be a non-negative integer, got "${value}"`);
    return n;
  };
}

const UNITS: Record<string, number> = { ms: 0.001, s: 1, m: 60, h: 3600 };

/** Parses a duration with units, Go style (`90s`, `5m`, `1h30m`), to seconds; refuses a bare number or a negative one. */
export function parseDuration(name: string, text: string): number {
  const t = text.trim();
  if (t.startsWith('-')) fail(ToolErrorCode.badOption, `${name} must not be negative, got "${text}"`);
  if (/^\d+(\.\d+)?$/.test(t)) fail(ToolErrorCode.badOption, `${name} needs a unit (e.g. ${t}s or ${t}m), got "${text}"`);
  const re = /(\d+(?:\.\d+)?)(ms|s|m|h)/y;
  let total = 0;
  let pos = 0;
  while (pos < t.length) {
    re.lastIndex = pos;
    const m = re.exec(t);
    if (!m) fail(ToolErrorCode.badOption, `${name} must be a duration such as 30s, 5m or 1h30m, got "${text}"`);
    total += Number(m[1]) * UNITS[m[2]];
    pos = re.lastIndex;
  }
  if (t.length === 0 || total <= 0) fail(ToolErrorCode.badOption, `${name} must be a positive duration such as 30s or 5m, got "${text}"`);
  return total;
}
