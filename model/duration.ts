/**
 * Durations as users write them (`10s`, `5m`, `1m30s`, `500ms`, Go's `time.ParseDuration` units
 * h, m, s, ms) and back. Internally every duration is a number of seconds.
 */
import { ModelErrorCode, modelError } from './errors.js';

const UNIT_SECONDS: Record<string, number> = { h: 3600, m: 60, s: 1, ms: 0.001 };
const PART = /(\d+(?:\.\d+)?)(ms|h|m|s)/y;

/** The longest duration Go's `time.Duration` (int64 nanoseconds) holds, which Kubernetes parses into: about 292 years. */
export const MAX_DURATION_SECONDS = 9_223_372_036.854775807;

/**
 * The seconds of a duration written as parts with units (`1h30m`, `90s`, `500ms`, `1.5m`), or
 * undefined when the text is not made of such parts; "" is 0. Signs and bare numbers are the
 * callers' to refuse, each with its own message (a parameter, a command-line bound).
 */
export function durationSeconds(text: string): number | undefined {
  let total = 0;
  let pos = 0;
  while (pos < text.length) {
    PART.lastIndex = pos;
    const m = PART.exec(text);
    if (m === null) return undefined;
    total += Number(m[1]) * UNIT_SECONDS[m[2]];
    pos = PART.lastIndex;
  }
  return total;
}

/**
 * Parses a duration string into seconds. Throws KC103 naming `field` for a negative, unit-less
 * or malformed value. `0s` is accepted (the caller checks positivity where Kubernetes does).
 */
export function parseDuration(field: string, raw: unknown): number {
  if (typeof raw === 'number') {
    modelError(ModelErrorCode.invalidDuration, `${field}: duration ${raw} has no unit; write e.g. "${raw}s"`);
  }
  if (typeof raw !== 'string') modelError(ModelErrorCode.invalidDuration, `${field}: expected a duration like "10s", got ${JSON.stringify(raw)}`);
  const text = raw.trim();
  if (text.startsWith('-')) modelError(ModelErrorCode.invalidDuration, `${field}: duration "${text}" is negative; durations must be ≥ 0`);
  if (/^\d+(\.\d+)?$/.test(text)) modelError(ModelErrorCode.invalidDuration, `${field}: duration "${text}" has no unit; write e.g. "${text}s"`);
  if (text === '0') return 0;
  const total = durationSeconds(text);
  if (total === undefined) modelError(ModelErrorCode.invalidDuration, `${field}: "${text}" is not a duration; write e.g. "10s", "5m", "1m30s" or "500ms"`);
  if (text.length === 0) modelError(ModelErrorCode.invalidDuration, `${field}: empty duration; write e.g. "10s"`);
  if (!(total <= MAX_DURATION_SECONDS)) {
    modelError(ModelErrorCode.invalidDuration, `${field}: duration "${text.length > 24 ? `${text.slice(0, 20)}...` : text}" is out of range; Kubernetes durations hold at most 2562047h47m16s (about 292 years)`);
  }
  return Math.round(total * 1000) / 1000;
}

export { formatDuration } from '../checker/duration.js';
