/**
 * Config warnings, properties left out and what the cluster's files hold that the model does not
 * read appear wherever a verdict is shown: the Markdown report, the HTML report and result.json
 * (timing and diff: test/cli/warnings.test.ts).
 */
import { describe, expect, it } from 'vitest';
import { check } from '../../checker/index.js';
import { twoPhasePlain } from '../../examples/two-phase-commit/index.js';
import { htmlReport } from '../../reports/html.js';
import { outcomeJson } from '../../reports/json.js';
import { markdownReport } from '../../reports/markdown.js';
import type { RunInfo } from '../../reports/outcome.js';

const model = twoPhasePlain({ rms: 2 });
const result = check(model);
const info: RunInfo = {
  command: 'check',
  scenario: 'two-phase',
  warnings: ['grace period 4s is not above the renew interval <10s>'],
  leftOut: [{ id: 'replacement-within', reason: 'no node can fail' }],
  notModelled: ['kubelet.yaml: cpuManagerPolicy'],
};

describe('notes beside the verdict', () => {
  it('should print warnings, left-out properties and the not-modelled list in Markdown, HTML and JSON, and nothing when there are none', () => {
    const md = markdownReport(model, result, info);
    expect(md).toContain('> ⚠️ **Config warning:** grace period 4s is not above the renew interval \\<10s\\>');
    expect(md).toMatch(/\*\*Not checked\*\* \(left out of the default selection\):\n\n- replacement-within: no node can fail/);
    expect(md).toMatch(/not modelled\*\* \(ignored\):\n\n- kubelet.yaml: cpuManagerPolicy/);
    const html = htmlReport(model, result, info);
    expect(html).toContain('<p class="warning"><b>Config warning:</b> grace period 4s is not above the renew interval &lt;10s&gt;</p>');
    expect(html).toContain('<li>replacement-within: no node can fail</li>');
    expect(html).toContain('<li>kubelet.yaml: cpuManagerPolicy</li>');
    expect(outcomeJson(model, result, info, [])).toMatchObject({ warnings: info.warnings, leftOut: info.leftOut, notModelled: info.notModelled });
    const plain: RunInfo = { command: 'check', scenario: 'two-phase' };
    expect(markdownReport(model, result, plain)).not.toMatch(/Config warning|Not checked|not modelled/);
    expect(htmlReport(model, result, plain)).not.toMatch(/Config warning|Not checked|not modelled/);
  });
});
