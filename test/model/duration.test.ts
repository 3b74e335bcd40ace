/** One duration format for config, model time and reports, and it parses back. */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { formatDuration, formatTime } from '../../checker/duration.js';
import { parseDuration } from '../../model/duration.js';

describe('durations', () => {
  it('should print as Kubernetes does, without zero parts', () => {
    expect([0, 0.5, 1.5, 50, 300, 350, 3661, 7200.25].map(formatDuration)).toEqual(['0s', '500ms', '1.5s', '50s', '5m', '5m50s', '1h1m1s', '2h0.25s']);
    expect([formatTime(-9), formatTime(65)]).toEqual(['T-9s', 'T+1m5s']);
  });

  it('should parse back to the same seconds, to the millisecond', () => {
    fc.assert(fc.property(fc.integer({ min: 0, max: 10_000_000_000 }), (ms) => {
      expect(parseDuration('d', formatDuration(ms / 1000))).toBe(ms / 1000);
    }));
  });
});
