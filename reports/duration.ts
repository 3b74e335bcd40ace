/** Durations as Kubernetes and Go print them: `50s`, `5m`, `5m10s`, `1h2m`. */

/** Formats whole or fractional seconds in Go's style (`0s`, `50s`, `5m0s` is written `5m`). */
export function formatDuration(seconds: number): string {
  if (!Number.isFinite(seconds)) return String(seconds);
  if (seconds < 0) return `-${formatDuration(-seconds)}`;
  if (seconds < 60) return `${round(seconds)}s`;
  const h = Math.floor(seconds / 3600);
  const m = Math.floor((seconds % 3600) / 60);
  const s = seconds - h * 3600 - m * 60;
  return `${h ? `${h}h` : ''}${m ? `${m}m` : ''}${s ? `${round(s)}s` : ''}`;
}

/** `T+50s`: model time along a trace; `T-9s` before the origin a timeline counts from. */
export function formatTime(seconds: number): string {
  return seconds < 0 ? `T-${formatDuration(-seconds)}` : `T+${formatDuration(seconds)}`;
}

function round(x: number): string {
  return Number.isInteger(x) ? String(x) : String(Math.round(x * 1000) / 1000);
}
