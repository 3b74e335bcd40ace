/**
 * State graphs rendered: DOT with ts-graphviz (always), SVG with Graphviz compiled to WebAssembly
 * (@viz-js/viz: nothing to install), PNG through the `dot` program only when it is on PATH.
 *
 * Legend: the initial state has a double border; states violating a property are filled red;
 * a goal's witness is filled green; the trace's states and steps are bold; states whose own
 * successors are not drawn are dashed.
 */
import { spawnSync } from 'node:child_process';
import { Digraph, toDot, type NodeAttributesObject, type EdgeAttributesObject } from 'ts-graphviz';
import { fail, ToolErrorCode } from './errors.js';
import type { StateGraph } from './graph.js';

/** The graph as DOT source. */
export function graphToDot(graph: StateGraph): string {
  const g = new Digraph('kubecheck', {
    label: graph.note ? `${graph.title}\n(${graph.note})` : graph.title,
    labelloc: 't',
    fontname: 'Helvetica',
    rankdir: 'TB',
  });
  g.attributes.node.apply({ shape: 'box', style: 'rounded', fontname: 'Helvetica', fontsize: 10 });
  g.attributes.edge.apply({ fontname: 'Helvetica', fontsize: 9 });
  for (const n of graph.nodes) {
    const styles = ['rounded'];
    const attrs: NodeAttributesObject = {};
    let label = n.label;
    if (n.violates.length > 0) {
      styles.push('filled');
      attrs.fillcolor = '#f8c0c0';
      attrs.color = '#c00000';
      label += `\nviolates ${n.violates.join(', ')}`;
    } else if (n.witness) {
      styles.push('filled');
      attrs.fillcolor = '#c0f0c0';
    }
    if (n.initial) attrs.peripheries = 2;
    if (n.onTrace) styles.push('bold');
    if (n.unexpanded) styles.push('dashed');
    attrs.style = styles.join(',') as NodeAttributesObject['style'];
    attrs.label = label;
    // Its id in SVG too (Graphviz numbers them otherwise): a page finds a trace's nodes by it.
    attrs.id = `s${n.id}`;
    g.createNode(`s${n.id}`, attrs);
  }
  for (const e of graph.edges) {
    const attrs: EdgeAttributesObject = { label: e.label };
    if (e.onTrace) attrs.style = 'bold';
    if (e.violates.length > 0) {
      attrs.color = '#c00000';
      attrs.fontcolor = '#c00000';
      attrs.label = `${e.label}\nviolates ${e.violates.join(', ')}`;
    }
    g.createEdge([`s${e.from}`, `s${e.to}`], attrs);
  }
  return toDot(g);
}

/** SVG from DOT, laid out by Graphviz compiled to WebAssembly (no system install). */
export async function dotToSvg(dot: string): Promise<string> {
  const { instance } = await import('@viz-js/viz');
  const viz = await instance();
  return viz.renderString(dot, { format: 'svg' });
}

/** Whether the Graphviz `dot` program is on PATH. */
export function hasDotProgram(): boolean {
  const r = spawnSync('dot', ['-V'], { stdio: 'ignore' });
  return r.error === undefined && r.status === 0;
}

/** What KC211 says when PNG is asked for without Graphviz. */
export const PNG_NEEDS_DOT = 'PNG needs the Graphviz "dot" program (Debian/Ubuntu: apt-get install graphviz; macOS: brew install graphviz); DOT and SVG need nothing';

/** Writes a PNG through the `dot` program; KC211 with how to install it when it is missing. */
export async function dotToPngFile(dot: string, path: string): Promise<void> {
  if (!hasDotProgram()) fail(ToolErrorCode.formatUnavailable, PNG_NEEDS_DOT);
  const { toFile } = await import('ts-graphviz/adapter');
  await toFile(dot, path, { format: 'png' });
}
