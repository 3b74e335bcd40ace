/**
 * Limits of the command line's own options (`--max-memory`, `--workers`). The caps on what a
 * Kubernetes model is built for are shared with the library: `model/limits.ts`.
 */
import { fail, ToolErrorCode } from '../reports/errors.js';
import type { ConfigInput } from './subjects.js';
import { refuseOversizedInput as refuseOversizedKubernetesInput } from '../model/limits.js';

export { countBounds, MAX_CLUSTER_SIZE, refuseOversizedConfig } from '../model/limits.js';

/** Refuses a Kubernetes config above the caps (KC213) before anything else reads it: see model/limits.ts. */
export function refuseOversizedInput(subject: string, input: ConfigInput): void {
  if (subject === 'kubernetes') refuseOversizedKubernetesInput(input);
}

const SIZE_UNITS: Record<string, number> = {
  b: 1,
  kb: 1e3, mb: 1e6, gb: 1e9, tb: 1e12,
  k: 2 ** 10, m: 2 ** 20, g: 2 ** 30, t: 2 ** 40,
  kib: 2 ** 10, mib: 2 ** 20, gib: 2 ** 30, tib: 2 ** 40,
};

/** Parses a memory size with its unit (`2GiB`, `500MB`, `4g`) to bytes; refuses a bare number (KC200). */
export function parseSize(name: string): (text: string) => number {
  return (text: string) => {
    const m = /^\s*(\d+(?:\.\d+)?)\s*([a-zA-Z]+)\s*$/.exec(text);
    const unit = m ? SIZE_UNITS[m[2].toLowerCase()] : undefined;
    if (!m || unit === undefined) {
      fail(ToolErrorCode.badOption, `${name}: ${JSON.stringify(text)} is not a size with a unit; write e.g. 2GiB, 500MB, 4g`);
    }
    const bytes = Math.floor(Number(m[1]) * unit);
    if (!(bytes >= 1)) fail(ToolErrorCode.badOption, `${name}: ${JSON.stringify(text)} must be more than 0 bytes`);
    return bytes;
  };
}

/** The most worker threads `--workers` accepts. */
export const MAX_WORKERS = 64;

/** Parses `--workers`: an integer from 1 to {@link MAX_WORKERS} (KC200). */
export function parseWorkers(text: string): number {
  const t = text.trim();
  const n = /^\d+$/.test(t) ? Number(t) : NaN;
  if (!(n >= 1 && n <= MAX_WORKERS)) fail(ToolErrorCode.badOption, `--workers: ${JSON.stringify(text)} must be an integer from 1 to ${MAX_WORKERS}`);
  return n;
}
