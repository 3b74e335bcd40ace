/**
 * Kubernetes traces as people read them: names instead of positions, and a participant for what
 * a fault changes.
 */
import { describe, expect, it } from 'vitest';
import { mermaidSequence } from '../../reports/mermaid.js';
import { formatTimeline, timelineSteps } from '../../reports/timeline.js';
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
});
