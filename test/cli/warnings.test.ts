/** Config warnings wherever a verdict is shown on the command line: timing and diff (check: cli.test.ts, reports: reports/runNotes.test.ts). */
import { describe, expect, it } from 'vitest';
import { kubecheckAsync } from './run.js';

describe('config warnings in timing and diff', () => {
  it('should print the config warnings in timing (stderr, --json, --markdown) and in diff (each side named)', async () => {
    const grace = ['--set', 'kubeControllerManager.nodeMonitorGracePeriod=4s'];
    const [timing, timingJson, timingMd, diffJson] = await Promise.all([
      kubecheckAsync(['timing', ...grace]),
      kubecheckAsync(['timing', ...grace, '--json']),
      kubecheckAsync(['timing', ...grace, '--markdown']),
      kubecheckAsync(['diff', '--head-set', 'kubeControllerManager.nodeMonitorGracePeriod=4s', '--property', 'single-leader', '--json']),
    ]);
    expect(timing.stderr).toMatch(/^kubecheck: warning: kubeControllerManager\.nodeMonitorGracePeriod \(4s\) is not longer than/m);
    expect(JSON.parse(timingJson.stdout).warnings).toEqual([expect.stringMatching(/nodeMonitorGracePeriod \(4s\)/)]);
    expect(timingMd.stdout).toMatch(/> ⚠️ \*\*Config warning:\*\* kubeControllerManager\.nodeMonitorGracePeriod \(4s\)/);
    const diff = JSON.parse(diffJson.stdout) as { base: { warnings?: string[] }; head: { warnings?: string[] } };
    expect(diff.base.warnings).toBeUndefined();
    expect(diff.head.warnings).toEqual([expect.stringMatching(/nodeMonitorGracePeriod \(4s\)/)]);
  }, 120_000);
});
