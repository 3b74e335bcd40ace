/**
 * Durations as Go's `time.Duration.String` and Kubernetes print them, without the zero parts Go
 * keeps (`5m`, not `5m0s`): `0s`, `500ms`, `50s`, `1.5s`, `5m10s`, `1h2m`. Model time, config
 * values and report text all use this one form, and it parses back (model/duration.ts) to the
 * same number of seconds, to the millisecond.
 */

/** Formats seconds: `0s`, under a second in ms, else hours, minutes and (fractional) seconds. */
export function formatDuration(seconds: number): string {
  if (!Number.isFinite(seconds)) return String(seconds);
  if (seconds < 0) return `-${formatDuration(-seconds)}`;
  const ms = Math.round(seconds * 1000);
  if (ms === 0) return '0s';
  if (ms < 1000) return `${ms}ms`;
  const h = Math.floor(ms / 3_600_000);
  const m = Math.floor((ms % 3_600_000) / 60_000);
  const s = (ms % 60_000) / 1000;
  return `${h ? `${h}h` : ''}${m ? `${m}m` : ''}${s ? `${s}s` : ''}`;
}

/** `T+50s`: model time along a trace; `T-9s` before the origin a timeline counts from. */
export function formatTime(seconds: number): string {
  return seconds < 0 ? `T-${formatDuration(-seconds)}` : `T+${formatDuration(seconds)}`;
}
