/**
 * A trace as a Mermaid sequence diagram (GitHub renders it in Markdown): one participant per
 * component, one arrow per message. A step's `to` list is drawn as a chain: the actor sends to
 * `to[0]`, which passes it on to `to[1]` (kubelet → kube-apiserver → etcd). A component a step
 * changes without a message (`affects`: the node a fault cuts off) has a participant too and an
 * open arrow from the actor. A step with neither is a note over its actor; a quiet stretch (time
 * passing, routine work: see `foldQuiet`) is one note across the diagram that names its steps.
 */
import type { Model, Trace } from '../checker/index.js';
import { foldQuiet, lineTime, timelineSteps, unfolded } from './timeline.js';

export interface MermaidOptions {
  /** A last note, e.g. `consistent violated`. */
  readonly conclusion?: string;
  /** Participants to place first, in this order, when they appear (e.g. kubelets, apiserver, etcd). */
  readonly order?: readonly string[];
  /** Most lines drawn before the diagram is cut with a note (default 300). */
  readonly maxLines?: number;
  /** Fold quiet stretches into one note each (default true); false draws every step. */
  readonly fold?: boolean;
}


/** Text safe inside a Mermaid message: `;` and `#` are written as entity codes, one line. */
export function mermaidText(text: string): string {
  return text.replace(/[#;]/g, (ch) => (ch === '#' ? '#35;' : '#59;')).replace(/[\r\n]+/g, ' ').trim() || ' ';
}

/** Orders participants: those named in `order` first (prefix match: `kubelet` matches `kubelet/node-1`), then by first appearance. */
function orderParticipants(seen: readonly string[], order: readonly string[]): string[] {
  const rank = (p: string): number => {
    const i = order.findIndex((o) => p === o || p.startsWith(`${o}/`) || p.startsWith(`${o}-`));
    return i < 0 ? order.length : i;
  };
  return seen.map((p, i) => ({ p, i, r: rank(p) })).sort((a, b) => a.r - b.r || a.i - b.i).map((x) => x.p);
}

/**
 * The participants of a sequence diagram: every component that acts, is sent to, or is affected
 * by a fault, those named in `order` first, then by first appearance.
 */
export function sequenceParticipants(lines: readonly { readonly timeOnly?: boolean; readonly actor: string; readonly step?: { readonly to?: readonly string[]; readonly affects?: readonly string[] } }[], order: readonly string[]): string[] {
  const seen: string[] = [];
  const add = (p: string): void => {
    if (!seen.includes(p)) seen.push(p);
  };
  for (const l of lines) {
    if (l.timeOnly) continue;
    add(l.actor);
    for (const t of l.step?.to ?? []) add(t);
    for (const t of l.step?.affects ?? []) add(t);
  }
  return orderParticipants(seen, order);
}

/** The `sequenceDiagram` source for a trace. */
export function mermaidSequence<S>(model: Model<S>, trace: Trace<S>, options: MermaidOptions = {}): string {
  const steps = timelineSteps(model, trace);
  const lines = options.fold === false ? unfolded(steps) : foldQuiet(steps);
  const found = sequenceParticipants(lines, options.order ?? []);
  const participants = found.length > 0 ? found : [model.name];
  const ids = new Map(participants.map((p, i) => [p, `P${i}`]));
  const id = (p: string): string => ids.get(p) as string;
  const span = participants.length > 1 ? `${id(participants[0])},${id(participants[participants.length - 1])}` : id(participants[0]);

  const out = ['sequenceDiagram'];
  for (const p of participants) out.push(`  participant ${id(p)} as ${mermaidText(p)}`);
  const max = options.maxLines ?? 300;
  let drawn = 0;
  for (const l of lines) {
    if (drawn >= max) {
      out.push(`  Note over ${span}: … ${lines.length - drawn} more steps (see the timeline)`);
      break;
    }
    drawn++;
    const text = mermaidText(`${lineTime(l)} ${l.summary}`);
    if (l.timeOnly) {
      out.push(`  Note over ${span}: ${text}`);
      continue;
    }
    const to = l.step?.to ?? [];
    const affects = (l.step?.affects ?? []).filter((a) => a !== l.actor && !to.includes(a));
    for (const a of affects) out.push(`  ${id(l.actor)}-)${id(a)}: ${text}`);
    if (to.length === 0) {
      if (affects.length === 0) out.push(`  Note over ${id(l.actor)}: ${text}`);
      continue;
    }
    out.push(`  ${id(l.actor)}->>${id(to[0])}: ${text}`);
    for (let k = 1; k < to.length; k++) out.push(`  ${id(to[k - 1])}->>${id(to[k])}: ${mermaidText(`relays (step ${l.steps[0]})`)}`);
  }
  if (options.conclusion) out.push(`  Note over ${span}: ${mermaidText(options.conclusion)}`);
  return out.join('\n');
}
