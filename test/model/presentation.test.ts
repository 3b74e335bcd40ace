/**
 * Kubernetes traces as people read them: names instead of positions, and a participant for what
 * a fault changes.
 */
import { describe, expect, it } from 'vitest';
import { mermaidSequence } from '../../reports/mermaid.js';
import { foldQuiet, formatTimeline, timelineSteps } from '../../reports/timeline.js';
import { check } from '../../checker/index.js';
import type { ClusterState } from '../../model/index.js';
import { abstractCluster } from '../../model/presentation.js';
import { kubernetesSubject } from '../../cli/kubernetesSubject.js';

import { partitioned as r, partitionedCopyResult } from '../fixtures/partitionedCopy.js';

const trace = partitionedCopyResult().properties[0].trace!;

describe('Kubernetes presentation', () => {
  it('should name nodes, pods and processes in diffs, never by position', () => {
    const text = formatTimeline(r.model, trace);
    const bind = timelineSteps(r.model, trace).find((s) => s.action.name === 'bind')!;
    const node = /binds db-0 to (node-\d)/.exec(bind.summary)![1];
    expect(text).toContain(`api.pods[db-0].nodeName: null → ${node}`);
    expect(text).toMatch(/nodes\[node-\d\]\.partitioned: false → true/);
    expect(text).not.toMatch(/nodes\[\d\]|nodeName: -?\d/);
    expect(text).toMatch(/api\.pods\[db-0\]: \+ \{workload: db, nodeName: null, /);
    expect(text).not.toContain('…');
  });

  it('should give the node a fault cuts off a participant in the sequence diagram', () => {
    const partition = timelineSteps(r.model, trace).find((s) => s.actor === 'fault')!;
    const node = /^(node-\d) is cut off/.exec(partition.summary)![1];
    expect(partition.affects).toEqual([`kubelet/${node}`]);
    const diagram = mermaidSequence(r.model, trace, { order: kubernetesSubject.participants });
    const id = new RegExp(`participant (P\\d+) as kubelet/${node}`).exec(diagram)?.[1];
    expect(id).toBeDefined();
    expect(diagram).toMatch(new RegExp(`P\\d+-\\)${id}: T\\+0s ${node} is cut off`));
  });

  it('should group a state by node condition and running copies', () => {
    const last = trace.states[trace.states.length - 1];
    const view = abstractCluster(last as ClusterState).split('\n');
    expect(view).toHaveLength(4);
    expect(view.some((l) => /^node-\d Ready \(cut off\)$/.test(l))).toBe(true);
    expect(view[3]).toMatch(/db: 2 running/);
  });

  it('should fold a long node-failure run into a few lines, never a step that changes what people watch', () => {
    const nf = kubernetesSubject.resolve('node-failure', {});
    const run = check(nf.model, { properties: ['replacement-running'] }).properties[0].trace!;
    const steps = timelineSteps(nf.model, run);
    expect(steps.length).toBeGreaterThan(400);
    const text = formatTimeline(nf.model, run, { changes: false, finalState: false });
    const lines = text.split('\n');
    expect(lines.length).toBeLessThan(steps.length / 20);
    expect(text).toMatch(/^T\+9s\.\.T\+50s\s+clock\s+41s pass, heartbeats and node-monitor passes as usual \(54 steps: 12–65\)$/m);
    // The fault, the controller's decisions and the last step stand on their own lines, verbatim.
    for (const s of steps.filter((x) => x.fault || !x.routine && x.elapsed === 0)) expect(text).toContain(`${s.actor.padEnd(38)}  ${s.summary}`);
    // What is folded changes timers only: no pod, binding, running container, leader, taint or condition.
    const folded = foldQuiet(steps).filter((l) => l.steps[0] < l.steps[1]);
    expect(folded.reduce((n, l) => n + l.steps[1] - l.steps[0] + 1, 0)).toBeGreaterThan(steps.length - 20);
    for (const l of folded) {
      for (let i = l.steps[0]; i <= l.steps[1]; i++) {
        for (const c of steps[i - 1].changes) expect(c.path).not.toMatch(/^api\.(pods|leases)|\.running\b|\.ready\b|\.taints\b|\.leader\b|\.holder\b|\.conditions\b/);
      }
    }
    expect(formatTimeline(nf.model, run, { changes: false, finalState: false, fold: false }).split('\n')).toHaveLength(steps.length + 1);
  });
});
