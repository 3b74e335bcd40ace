/**
 * The HTML report: one self-contained file (no server, no network, no script from elsewhere)
 * that a person opens in a browser. Per counterexample: the steps that matter (`stepsThatMatter`:
 * faults, the user's own operator's steps, the violating step), a trace stepper (the steps on the
 * left; the state at the chosen step and what that step changed beside it; arrow keys, buttons or
 * a slider move through it), the sequence diagram drawn as inline SVG at its own size (it scrolls
 * sideways; see `sequenceSvg.ts`), and the projected state graph with the counterexample's path
 * in bold, in a frame that opens scrolled to the path. `#cx=1&step=12` in the address opens a given
 * counterexample at a given step. A quiet stretch of steps (time passing, routine work: see
 * `foldQuiet`) is one row that opens on a click, and opens by itself when a step in it is shown.
 */
import type { ActionLabel, CheckResult, JsonValue, Model, PropertyOutcome } from '../checker/index.js';
import { faultTest } from '../checker/index.js';
import { formatChange, jsonOf } from './diff.js';
import { formatDuration, formatTime } from '../checker/duration.js';
import { lassoTrace, livenessOutcomes, reportKind, searchOutcomes } from './liveness.js';
import { formatStats, runNotes, runVerdict, violationWhy, type RunInfo } from './outcome.js';
import { foldQuiet, lineTime, loopMark, presented, stateParts, stepsThatMatter, timelineSteps, traceDuration, unfolded, type TimelineLine, type TimelineStep } from './timeline.js';
import { DIAGRAM_FONT_PX, sequenceLanes, sequenceSvgOf } from './sequenceSvg.js';

/** Escapes text for HTML content and attributes. */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] as string);
}

/** One step as the page's script reads it. */
interface StepData {
  readonly step: number;
  readonly time: string;
  readonly actor: string;
  readonly summary: string;
  readonly fault: boolean;
  /** A step of the user's code under test (an operator): one of the steps that matter. */
  readonly underTest: boolean;
  readonly changes: readonly string[];
  /** The state after the step, as people read it (JSON, indented). */
  readonly state: string;
  readonly description: string;
}

interface CounterexampleData {
  readonly property: string;
  readonly description: string;
  readonly initial: { readonly state: string; readonly description: string };
  readonly steps: readonly StepData[];
}

const pretty = (v: JsonValue): string => JSON.stringify(v, null, 1).replace(/\n\s*/g, (m) => `\n${' '.repeat(Math.max(0, m.length - 2))}`);

function counterexampleData<S>(model: Model<S>, outcome: PropertyOutcome<S>): CounterexampleData {
  const trace = outcome.trace!;
  const steps = timelineSteps(model, trace);
  const isFault = faultTest(model);
  const describeState = (s: S): string => (model.describeState ? stateParts(model.describeState(s)).join('\n') : '');
  return {
    property: outcome.id,
    description: outcome.description,
    initial: { state: pretty(jsonOf(presented(model, trace.states[0]))), description: describeState(trace.states[0]) },
    steps: steps.map((s: TimelineStep) => {
      const after = trace.states[s.index];
      return {
        step: s.index,
        time: formatTime(s.seconds),
        actor: s.actor,
        summary: s.summary,
        fault: isFault?.(trace.states[s.index - 1], s.action, after) === true,
        underTest: s.underTest && !s.routine,
        changes: s.changes.map(formatChange),
        state: pretty(jsonOf(presented(model, after))),
        description: describeState(after),
      };
    }),
  };
}

/** The classes of a step's row: `fault` (red), else `ours` for the user's code under test (purple). */
const kinds = (s: StepData): string[] => (s.fault ? ['fault'] : s.underTest ? ['ours'] : []);
const stepClass = (s: StepData): string => (kinds(s).length > 0 ? ` class="${kinds(s).join(' ')}"` : '');

/**
 * A sequence diagram as inline SVG (see `sequenceSvg.ts`): one lane per component, one arrow per
 * message, drawn at its own size so that it scrolls sideways rather than shrink its text.
 */
export function sequenceSvg<S>(model: Model<S>, outcome: PropertyOutcome<S>, order: readonly string[] = [], fold = true): string {
  const steps = timelineSteps(model, outcome.trace!);
  return sequenceSvgOf(fold ? foldQuiet(steps) : unfolded(steps), order, `sequence diagram of ${outcome.id}`);
}

/** The sequence diagram in its scrolling frame, and the lanes it leaves out named beneath it. */
function sequenceFigure<S>(model: Model<S>, outcome: PropertyOutcome<S>, order: readonly string[], fold: boolean): string {
  const steps = timelineSteps(model, outcome.trace!);
  const lines = fold ? foldQuiet(steps) : unfolded(steps);
  const { collapsed } = sequenceLanes(lines, order);
  const note = collapsed.length === 0 ? '' : `<p class="collapsed">Lanes left out, since no step drawn acts on them (they only pass a message on): ${collapsed.map((c) => `<code>${escapeHtml(c)}</code>`).join(', ')}.</p>`;
  return `<div class="figure sequence-figure">${sequenceSvgOf(lines, order, `sequence diagram of ${outcome.id}`)}</div>${note}`;
}

/** A state graph drawn for the page: its SVG (made with Graphviz) and the trace's path in it. */
export interface GraphFigure {
  readonly svg: string;
  /** The ids, in the SVG, of the nodes the counterexample visits, in order (`s3`: see `graphToDot`). */
  readonly path: readonly string[];
}

export interface HtmlOptions {
  /** Participants placed first in sequence diagrams. */
  readonly participants?: readonly string[];
  /** The projected state graph per property id. */
  readonly graphs?: Readonly<Record<string, GraphFigure>>;
  /** Fold quiet stretches into one row each (default true); false lists every step (`--unfold`). */
  readonly fold?: boolean;
}

const STYLE = `
body{font:14px/1.4 system-ui,sans-serif;margin:0 auto;max-width:1400px;padding:16px;color:#222}
h1{font-size:20px}h2{font-size:17px;margin-top:32px;border-top:1px solid #ccc;padding-top:12px}
table{border-collapse:collapse}td,th{border:1px solid #ddd;padding:3px 8px;text-align:left}
.violated,.unwitnessed{color:#b00}.why{font-size:15px;margin:4px 0 8px}.holds,.witnessed{color:#070}.unknown{color:#a60}.warning{color:#a60}
.stepper{display:grid;grid-template-columns:minmax(300px,2fr) 3fr;gap:12px;align-items:start}
.steps{max-height:560px;overflow:auto;border:1px solid #ddd;margin:0;padding:0;list-style:none;font:12px ui-monospace,monospace}
.steps li{padding:2px 6px;cursor:pointer;overflow-wrap:anywhere}.steps li.fault{color:#b00}.steps li.ours{color:#62a}
.steps li.active{background:#dbe8ff;font-weight:bold}.steps li.cycle{border-left:3px solid #a60}
.steps li.fold{padding:0;cursor:default}.steps li.fold summary{padding:2px 6px;cursor:pointer;color:#666}
.steps li.fold ol{list-style:none;margin:0;padding:0 0 0 14px;border-left:1px dotted #bbb}.steps li.loop{color:#a60;cursor:default}
.pane{border:1px solid #ddd;padding:8px}.pane pre{font:12px ui-monospace,monospace;white-space:pre-wrap;margin:4px 0;max-height:420px;overflow:auto}
.diff{color:#05a}.controls{margin:8px 0}.controls button{margin-right:6px}
svg.sequence text{font:${DIAGRAM_FONT_PX}px system-ui,sans-serif}.collapsed{color:#666;font-size:13px;margin:2px 0 8px}svg .head{fill:#eef;stroke:#88a}svg .life{stroke:#bbb;stroke-dasharray:4 3}
svg .msg{stroke:#333}svg .note{fill:#555;font-style:italic}svg .time{fill:#888}
.graph svg text{font-family:"Liberation Sans",Arimo,Helvetica,Arial,sans-serif}
.figure{overflow:auto;border:1px solid #eee;margin:8px 0}.figure.graph{max-height:85vh}
.key-steps{font:12px ui-monospace,monospace;margin:4px 0 8px;padding-left:0;list-style:none}.key-steps li{overflow-wrap:anywhere}.key-steps li.fault a{color:#b00}.key-steps li.ours a{color:#62a}
`;

/**
 * Script that keeps SVG text inside what it was laid out for, whatever font the browser has:
 * Graphviz measures labels with Helvetica's metrics (the page asks for metric-compatible fonts
 * first, Liberation Sans or Arimo), and a wider fallback (DejaVu Sans) would spill out of the
 * boxes. Each node label is narrowed to its box, the title to the drawing, and each text with a
 * \`data-fit\` width (the sequence diagram's) to that width.
 */
export const FIT_SVG_TEXT = `
function fitSvgText(root) {
  const fit = (t, w) => { if (w > 0 && t.getComputedTextLength && t.getComputedTextLength() > w) { t.setAttribute('textLength', String(w)); t.setAttribute('lengthAdjust', 'spacingAndGlyphs'); } };
  root.querySelectorAll('svg text[data-fit]').forEach((t) => fit(t, Number(t.dataset.fit)));
  root.querySelectorAll('svg g.node').forEach((g) => {
    const shape = g.querySelector('polygon, path, ellipse');
    if (!shape || !shape.getBBox) return;
    const w = shape.getBBox().width - 8;
    g.querySelectorAll('text').forEach((t) => fit(t, w));
  });
  root.querySelectorAll('svg g.graph > text').forEach((t) => { const svg = t.ownerSVGElement; if (svg && svg.viewBox && svg.viewBox.baseVal) fit(t, svg.viewBox.baseVal.width - 16); });
}
`;

/**
 * Script that scrolls a graph's frame to the counterexample's path (the nodes its \`data-path\`
 * names): the whole path centred when it fits in the frame, else its first node at the frame's
 * top left, so a graph wider or taller than the page opens on the path, not on its middle.
 */
export const SCROLL_TO_PATH = `
function scrollToPath(frame) {
  const nodes = (frame.dataset.path || '').split(' ').map((id) => document.getElementById(id)).filter((n) => n);
  if (nodes.length === 0) return;
  const at = frame.getBoundingClientRect();
  const left = at.left + frame.clientLeft;
  const top = at.top + frame.clientTop;
  const r = nodes.map((n) => n.getBoundingClientRect());
  const x0 = Math.min(...r.map((b) => b.left)), x1 = Math.max(...r.map((b) => b.right));
  const y0 = Math.min(...r.map((b) => b.top)), y1 = Math.max(...r.map((b) => b.bottom));
  const x = x1 - x0 <= frame.clientWidth ? (x0 + x1 - frame.clientWidth) / 2 : r[0].left - 24;
  const y = y1 - y0 <= frame.clientHeight ? (y0 + y1 - frame.clientHeight) / 2 : r[0].top - 24;
  frame.scrollLeft += x - left;
  frame.scrollTop += y - top;
}
`;

const SCRIPT = `${FIT_SVG_TEXT}${SCROLL_TO_PATH}
fitSvgText(document);
document.querySelectorAll('.graph[data-path]').forEach(scrollToPath);
// A fallback font may be resolved after the script first measured: measure again once fonts are in.
if (document.fonts) document.fonts.ready.then(() => fitSvgText(document));
window.addEventListener('load', () => fitSvgText(document));
const data = JSON.parse(document.getElementById('kubecheck-data').textContent);
function show(c, i) {
  const cx = data[c]; if (!cx) return;
  const n = cx.steps.length; i = Math.max(0, Math.min(n, i));
  const root = document.getElementById('cx-' + c);
  root.dataset.step = String(i);
  const s = i === 0 ? null : cx.steps[i - 1];
  root.querySelector('.where').textContent = s ? 'step ' + i + ' of ' + n + ' (' + s.time + ')  ' + s.actor + ': ' + s.summary : 'initial state (step 0 of ' + n + ')';
  root.querySelector('.diff').textContent = s ? (s.changes.join('\\n') || '(no change)') : '';
  root.querySelector('.summary').textContent = s ? s.description : cx.initial.description;
  root.querySelector('.state').textContent = s ? s.state : cx.initial.state;
  root.querySelector('input[type=range]').value = String(i);
  root.querySelectorAll('.steps li[data-step]').forEach((li) => li.classList.toggle('active', Number(li.dataset.step) === i));
  const active = root.querySelector('.steps li.active');
  const fold = active && active.closest('details'); if (fold && !fold.open) fold.open = true;
  if (active && active.scrollIntoView) active.scrollIntoView({ block: 'nearest' });
}
data.forEach((cx, c) => {
  const root = document.getElementById('cx-' + c);
  root.querySelector('.prev').onclick = () => show(c, Number(root.dataset.step) - 1);
  root.querySelector('.next').onclick = () => show(c, Number(root.dataset.step) + 1);
  root.querySelector('input[type=range]').oninput = (e) => show(c, Number(e.target.value));
  root.querySelectorAll('.steps li[data-step]').forEach((li) => (li.onclick = () => show(c, Number(li.dataset.step))));
  root.tabIndex = 0;
  root.onkeydown = (e) => { if (e.key === 'ArrowRight' || e.key === 'ArrowDown') show(c, Number(root.dataset.step) + 1); if (e.key === 'ArrowLeft' || e.key === 'ArrowUp') show(c, Number(root.dataset.step) - 1); };
  show(c, cx.steps.length);
});
function fromAddress() {
  const want = new URLSearchParams(location.hash.slice(1));
  if (want.has('step')) show(Number(want.get('cx') || 0), Number(want.get('step')));
}
fromAddress();
window.addEventListener('hashchange', fromAddress);
`;

/** The report as one HTML page. */
export function htmlReport<S>(model: Model<S>, result: CheckResult<S>, info: RunInfo, options: HtmlOptions = {}): string {
  const subject = info.scenario ?? model.name;
  // Liveness violations are drawn like counterexamples, each with its cycle marked.
  const lassos = livenessOutcomes(result).filter((l) => l.lasso !== undefined);
  const asCounterexample = (l: PropertyOutcome<S>): PropertyOutcome<S> =>
    ({ ...l, description: `${l.description} (liveness: a lasso whose cycle, marked, repeats forever)`, trace: lassoTrace(l.lasso!) });
  const violated = [...searchOutcomes(result).filter((p) => p.status === 'violated' && p.trace), ...lassos.map(asCounterexample)];
  const loopOf = (id: string): number | undefined => lassos.find((l) => l.id === id)?.lasso?.loop;
  const data = violated.map((p) => counterexampleData(model, p));
  const out: string[] = [];
  out.push('<!doctype html><html lang="en"><head><meta charset="utf-8">');
  const { verdict, exitCode } = runVerdict(result);
  out.push(`<title>kubecheck ${escapeHtml(info.command)} ${escapeHtml(subject)}: ${verdict}</title>`);
  out.push(`<style>${STYLE}</style></head><body>`);
  out.push(`<h1>kubecheck ${escapeHtml(info.command)} <code>${escapeHtml(subject)}</code>: <span class="${verdict === 'ok' ? 'holds' : verdict === 'violation' ? 'violated' : 'unknown'}" id="verdict">${verdict}</span></h1>`);
  out.push(`<p>Model <code>${escapeHtml(model.name)}</code>; exit code ${exitCode}. ${escapeHtml(formatStats(result))}.</p>`);
  out.push('<table><tr><th>property</th><th>kind</th><th>status</th><th>what must hold</th></tr>');
  for (const p of result.properties) out.push(`<tr><td><code>${escapeHtml(p.id)}</code></td><td>${reportKind(p)}</td><td class="${p.status}">${p.status}</td><td>${escapeHtml(p.description)}</td></tr>`);
  out.push('</table>');
  const notes = runNotes(info);
  for (const w of notes.warnings) out.push(`<p class="warning"><b>Config warning:</b> ${escapeHtml(w)}</p>`);
  for (const w of info.verdictWarnings ?? []) out.push(`<p class="warning"><b>Warning:</b> ${escapeHtml(w)}</p>`);
  const list = (title: string, items: readonly string[]): void => {
    if (items.length > 0) out.push(`<p class="notes"><b>${title}</b></p><ul class="notes">${items.map((i) => `<li>${escapeHtml(i)}</li>`).join('')}</ul>`);
  };
  list('Not checked (left out of the default selection):', notes.leftOut);
  list("Read from the cluster's files but not modelled (ignored):", notes.notModelled);
  violated.forEach((p, c) => {
    const d = data[c];
    const steps = timelineSteps(model, p.trace!);
    out.push(`<section class="counterexample" id="cx-${c}" data-property="${escapeHtml(p.id)}">`);
    out.push(`<h2>${loopOf(p.id) === undefined ? 'Counterexample' : 'Liveness counterexample (lasso)'} to <code>${escapeHtml(p.id)}</code></h2>`);
    const why = violationWhy(model, p);
    if (why !== undefined) out.push(`<p class="why"><b>Why:</b> ${escapeHtml(why)}</p>`);
    const ours = d.steps.filter((s) => s.underTest && !s.fault).length;
    out.push(`<p>${escapeHtml(p.description)}. Violated after ${steps.length} steps and ${formatDuration(traceDuration(steps))} of model time; ${d.steps.filter((s) => s.fault).length} of them faults or operator actions (red)${ours > 0 ? `, ${ours} steps of your own code under test (purple)` : ''}.</p>`);
    // The steps that matter first: the faults and operator actions, the steps of the user's own
    // code (its operator: often the cause), and the step that violates, however long the trace.
    const key = stepsThatMatter(steps).map((x) => d.steps[x.index - 1]);
    if (key.length > 0) {
      const link = (x: StepData): string => `<li${stepClass(x)}><a href="#cx=${c}&amp;step=${x.step}">${escapeHtml(`${x.step}. ${x.time}  ${x.actor}  ${x.summary}`)}</a>${x.step === d.steps.length ? (loopOf(p.id) === undefined ? ' <b>(violates)</b>' : ' <b>(the lasso ends)</b>') : ''}</li>`;
      out.push(`<p><b>The steps that matter</b> (${key.length} of ${d.steps.length}):</p><ol class="key-steps">${key.map(link).join('')}</ol>`);
    }
    out.push(`<div class="controls"><button class="prev" type="button">◀ previous</button><button class="next" type="button">next ▶</button><input type="range" min="0" max="${d.steps.length}" value="${d.steps.length}" aria-label="step"> <span class="where"></span></div>`);
    const loop = loopOf(p.id);
    if (loop !== undefined) out.push(`<p class="lasso">The cycle starts after step ${loop} and comes back to that state: steps ${loop + 1}–${d.steps.length} (marked) repeat forever without the goal.</p>`);
    out.push('<div class="stepper"><ol class="steps">');
    out.push(`<li data-step="0">initial state</li>`);
    const row = (s: StepData): string => {
      const classes = [...kinds(s), ...(loop !== undefined && s.step > loop ? ['cycle'] : [])];
      return `<li data-step="${s.step}"${classes.length ? ` class="${classes.join(' ')}"` : ''}>${escapeHtml(`${s.step}. ${s.time}  ${s.actor}  ${s.summary}`)}</li>`;
    };
    const lines: readonly TimelineLine[] = options.fold === false ? unfolded(steps) : foldQuiet(steps, loop === undefined ? {} : { loop });
    let marked = loop === undefined || loop >= d.steps.length;
    for (const l of lines) {
      const [from, to] = l.steps;
      if (!marked && from > loop!) {
        out.push(`<li class="loop">${escapeHtml(loopMark(loop!, d.steps.length))}</li>`);
        marked = true;
      }
      if (from === to) {
        out.push(row(d.steps[from - 1]));
        continue;
      }
      const cycle = loop !== undefined && from > loop ? ' cycle' : '';
      out.push(`<li class="fold${cycle}" data-from="${from}" data-to="${to}"><details><summary>${escapeHtml(`${from}–${to}. ${lineTime(l)}  ${l.actor}  ${l.summary}`)}</summary><ol>`);
      for (let k = from; k <= to; k++) out.push(row(d.steps[k - 1]));
      out.push('</ol></details></li>');
    }
    if (loop !== undefined && loop >= d.steps.length) out.push(`<li class="loop">${escapeHtml(loopMark(loop!, d.steps.length))}</li>`);
    out.push('</ol><div class="pane"><b>What the step changed</b><pre class="diff"></pre><b>State after it</b><pre class="summary"></pre><details><summary>the whole state</summary><pre class="state"></pre></details></div></div>');
    out.push('<h3>Sequence diagram</h3>', sequenceFigure(model, p, options.participants ?? [], options.fold !== false));
    const graph = options.graphs?.[p.id];
    if (graph) {
      // Ids made unique on the page (each graph numbers its own), the path's among them.
      const svg = graph.svg.replace(/^<\?xml[^>]*>\s*/, '').replace(/<!DOCTYPE[^>]*>\s*/, '').replace(/ id="/g, ` id="cx${c}-`);
      const path = graph.path.map((id) => `cx${c}-${id}`).filter((id) => svg.includes(` id="${id}"`));
      const hook = path.length === 0 ? '' : ` data-path="${path.join(' ')}"`;
      out.push('<h3>State graph, projected</h3>', `<div class="figure graph"${hook}>${svg}</div>`);
    }
    out.push('</section>');
  });
  if (violated.length === 0) out.push('<p>No counterexample: nothing to step through.</p>');
  out.push(`<script type="application/json" id="kubecheck-data">${JSON.stringify(data).replace(/</g, '\\u003c')}</script>`);
  out.push(`<script>${SCRIPT}</script></body></html>`);
  return `${out.join('\n')}\n`;
}
