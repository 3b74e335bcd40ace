/**
 * A trace's sequence diagram as inline SVG, for the HTML report: one lane per component, one
 * arrow per message (to the first component a step sends to, and to each it changes without a
 * message), a note over its lane for a step that sends nothing, one line across the diagram for
 * a quiet stretch.
 *
 * It stays legible at any lane count: it is drawn at its own size, every text at
 * {@link DIAGRAM_FONT_PX} (the page scrolls it sideways rather than shrink it to the window, where
 * 11 lanes made 7 px text), a text longer than its room wraps onto more lines (at most
 * {@link MAX_TEXT_LINES}, the rest in a tooltip), and a lane nothing drawn acts on is left out:
 * a component that only passes a message on (etcd behind the kube-apiserver; Mermaid draws
 * those relays, this diagram does not) is named under the diagram instead.
 */
import { sequenceParticipants } from './mermaid.js';
import { lineTime, type TimelineLine } from './timeline.js';

/** Size of every text of the diagram, in CSS pixels (the page sets it; the diagram is never scaled). */
export const DIAGRAM_FONT_PX = 12;
/** Width given to a character when text is wrapped: wide enough for most fonts at that size. */
export const CHAR_PX = 7;
/** Most lines a text wraps onto; the rest is cut with `…` and shown whole in its tooltip. */
export const MAX_TEXT_LINES = 3;
const LANE = 190;
const LINE = 15;
const PAD = 10;

/** Escapes text for SVG (XML) content and attributes. */
const esc = (text: string): string => text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] as string);

/**
 * `text` in lines of at most `width` pixels ({@link CHAR_PX} a character), broken after spaces
 * and slashes (a word longer than a line is cut), at most `maxLines` lines, the last ending in
 * `…` when text was left out.
 */
export function wrapText(text: string, width: number, maxLines = MAX_TEXT_LINES): string[] {
  const per = Math.max(4, Math.floor(width / CHAR_PX));
  const lines: string[] = [];
  let line = '';
  for (const word of text.split(/(?<=[ /])/)) {
    if (line !== '' && (line + word).trimEnd().length > per) {
      lines.push(line.trimEnd());
      line = '';
    }
    let rest = word;
    while (rest.trimEnd().length > per) {
      lines.push(rest.slice(0, per));
      rest = rest.slice(per);
    }
    line += rest;
  }
  if (line.trim() !== '' || lines.length === 0) lines.push(line.trimEnd());
  if (lines.length <= maxLines) return lines;
  const last = lines[maxLines - 1];
  return [...lines.slice(0, maxLines - 1), `${last.length < per ? last : last.slice(0, per - 1)}…`];
}

/** The components a line draws an arrow to (its first recipient, and those it changes without a message). */
const targetsOf = (l: TimelineLine): string[] =>
  l.timeOnly ? [] : [...new Set([...(l.step?.to ?? []).slice(0, 1), ...(l.step?.affects ?? [])])].filter((t) => t !== l.actor);

/**
 * The lanes of a diagram of `lines`: those it draws something in (an actor, an arrow's end), in
 * the order of `sequenceParticipants`, and those it leaves out (`collapsed`): components only
 * named as a later recipient of a message, which the diagram does not draw.
 */
export function sequenceLanes(lines: readonly TimelineLine[], order: readonly string[]): { readonly lanes: string[]; readonly collapsed: string[] } {
  const active = new Set(lines.flatMap((l) => (l.timeOnly ? [] : [l.actor, ...targetsOf(l)])));
  const all = sequenceParticipants(lines, order);
  return { lanes: all.filter((p) => active.has(p)), collapsed: all.filter((p) => !active.has(p)) };
}

/** Lines of text centred on `cx` (kept inside the drawing), the first baseline at `y`. */
function textLines(words: readonly string[], cx: number, y: number, fit: number, width: number, cls: string, full: string): string {
  const x = Math.min(Math.max(cx, fit / 2 + PAD / 2), width - fit / 2 - PAD / 2);
  const title = words.length > 0 && words[words.length - 1].endsWith('…') ? `<title>${esc(full)}</title>` : '';
  const texts = words.map((w, k) => `<text x="${x}" y="${y + k * LINE}" text-anchor="middle" data-fit="${fit}"${cls ? ` class="${cls}"` : ''}>${esc(w)}</text>`);
  return `<g>${title}${texts.join('')}</g>`;
}

/** The diagram of `lines` as one `<svg class="sequence">`, drawn at its own size; `label` names it. */
export function sequenceSvgOf(lines: readonly TimelineLine[], order: readonly string[], label: string): string {
  const { lanes } = sequenceLanes(lines, order);
  const width = Math.max(400, 2 * PAD + LANE * lanes.length);
  const x = (p: string): number => PAD + LANE / 2 + LANE * lanes.indexOf(p);
  const headWords = lanes.map((p) => wrapText(p, LANE - 16, 2));
  const headHeight = LINE * Math.max(1, ...headWords.map((w) => w.length)) + 11;
  const out: string[] = [];
  let y = 10 + headHeight + 14;
  for (const l of lines) {
    const full = `${lineTime(l)} ${l.summary}`;
    const targets = targetsOf(l);
    if (targets.length === 0) {
      const fit = l.timeOnly ? width - 2 * PAD : Math.min(width - PAD, 2 * LANE - 10);
      const words = wrapText(full, fit);
      out.push(textLines(words, l.timeOnly ? width / 2 : x(l.actor), y + LINE - 3, fit, width, l.timeOnly ? 'time' : 'note', full));
      y += LINE * words.length + 12;
      continue;
    }
    // One text over the span from the actor to its farthest target, an arrow to each target.
    const ends = [x(l.actor), ...targets.map(x)];
    const lo = Math.min(...ends);
    const hi = Math.max(...ends);
    const fit = Math.min(width - PAD, Math.max(2 * LANE - 10, hi - lo - 10));
    const words = wrapText(full, fit);
    out.push(textLines(words, (lo + hi) / 2, y + LINE - 3, fit, width, '', full));
    const arrow = y + LINE * words.length + 4;
    for (const t of targets) out.push(`<line x1="${x(l.actor)}" y1="${arrow}" x2="${x(t)}" y2="${arrow}" class="msg" marker-end="url(#arrow)"/>`);
    y = arrow + 14;
  }
  const height = y + 10;
  const heads = lanes.map((p, i) => {
    const words = headWords[i];
    const texts = words.map((w, k) => `<text x="${x(p)}" y="${10 + (headHeight - LINE * words.length) / 2 + LINE * (k + 1) - 3}" text-anchor="middle" data-fit="${LANE - 16}">${esc(w)}</text>`);
    return `<g><rect x="${x(p) - (LANE - 10) / 2}" y="10" width="${LANE - 10}" height="${headHeight}" rx="4" class="head"/>${texts.join('')}<line x1="${x(p)}" y1="${10 + headHeight}" x2="${x(p)}" y2="${height}" class="life"/></g>`;
  });
  // Drawn at its own size (one unit a CSS pixel): a wide diagram scrolls, its text never shrinks.
  return `<svg class="sequence" xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}" role="img" aria-label="${esc(label)}"><defs><marker id="arrow" viewBox="0 0 10 10" refX="10" refY="5" markerWidth="7" markerHeight="7" orient="auto-start-reverse"><path d="M0,0 L10,5 L0,10 z"/></marker></defs>${heads.join('')}${out.join('')}</svg>`;
}
