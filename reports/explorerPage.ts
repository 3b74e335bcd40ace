/**
 * The explorer's page: one HTML document with its style and script inline (no asset from
 * anywhere else), which asks its own server for the session (`/api/session`), a state by path
 * (`/api/state?path=`) and the projected graph (`/graph.svg`). The address holds the path
 * (`#path=0.4.1`), so the browser's back button steps back and any state can be bookmarked.
 * It shows what the HTML report shows at a step (the steps taken, folded where quiet; what the
 * last one changed; the state; the whole state as JSON), the checked properties the state or the
 * last step violates, and every enabled step as a button (faults and operator actions in red).
 */
import { escapeHtml, FIT_SVG_TEXT } from './html.js';

const STYLE = `
body{font:14px/1.4 system-ui,sans-serif;margin:0 auto;max-width:1600px;padding:12px 16px;color:#222}
h1{font-size:20px;margin:4px 0}h2{font-size:16px;margin:8px 0}h3{font-size:14px;margin:12px 0 4px}
.explorer{display:grid;grid-template-columns:minmax(260px,2fr) minmax(340px,3fr);gap:12px;align-items:start}
@media (max-width:900px){.explorer{grid-template-columns:1fr}}
.pane{border:1px solid #ddd;padding:8px;min-width:0}
ol{margin:0;padding:0;list-style:none}
#steps{max-height:70vh;overflow:auto;font:12px ui-monospace,monospace}
#steps li{padding:2px 6px;cursor:pointer;overflow-wrap:anywhere}#steps li.fault{color:#b00}#steps li.here{background:#dbe8ff;font-weight:bold}
#steps li.fold{padding:0;cursor:default}#steps li.fold summary{padding:2px 6px;cursor:pointer;color:#666}
#steps li.fold ol{padding-left:14px;border-left:1px dotted #bbb}
pre{font:12px ui-monospace,monospace;white-space:pre-wrap;overflow-wrap:anywhere;margin:4px 0;max-height:40vh;overflow:auto}
#changes{color:#05a}.violated{color:#b00;font-weight:bold}.witnessed{color:#070}.error{color:#b00}
#actions li{margin:2px 0}#actions button{font:12px ui-monospace,monospace;text-align:left;width:100%;white-space:normal;overflow-wrap:anywhere;cursor:pointer;background:#f6f8fa;border:1px solid #ccd;border-radius:3px;padding:3px 6px}
#actions button.fault{color:#b00;border-color:#e0b0b0;background:#fff6f6}
#traces button{margin:2px 6px 2px 0;cursor:pointer}#traces button.violated{color:#b00}#traces button.witnessed{color:#070}
.controls button{margin-right:6px}code{overflow-wrap:anywhere}
.figure{overflow:auto;border:1px solid #eee;margin:8px 0;max-height:80vh}
.figure svg text{font-family:"Liberation Sans",Arimo,Helvetica,Arial,sans-serif}
.figure svg .node.here polygon,.figure svg .node.here path,.figure svg .node.here ellipse{stroke:#0650d0;stroke-width:4px}
`;

const SCRIPT = `${FIT_SVG_TEXT}
const $ = (id) => document.getElementById(id);
const params = () => new URLSearchParams(location.hash.slice(1));
const prefix = (path, k) => path.split('.').slice(0, k + 1).join('.');
const go = (path) => { location.hash = 'path=' + path; };
let session = null;
let view = null;
async function getJson(url) {
  const r = await fetch(url);
  const body = await r.json();
  if (!r.ok) throw new Error(body.error || ('HTTP ' + r.status));
  return body;
}
function item(text, cls, onclick) {
  const li = document.createElement('li');
  li.textContent = text;
  if (cls) li.className = cls;
  if (onclick) li.onclick = onclick;
  return li;
}
function stepItem(v, s) {
  const li = item(s.step + '. ' + s.time + '  ' + s.actor + '  ' + s.summary, s.fault ? 'fault' : '', () => go(prefix(v.path, s.step)));
  li.dataset.step = String(s.step);
  if (s.step === v.depth) li.classList.add('here');
  return li;
}
function markGroup(group) {
  let here = null;
  document.querySelectorAll('#graph g.node').forEach((g) => {
    const t = g.querySelector('title');
    const on = group !== null && t !== null && t.textContent === 's' + group;
    g.classList.toggle('here', on);
    if (on) here = g;
  });
  // Bring the current group into the graph's own box (the page itself does not move).
  if (here && here.getBoundingClientRect) {
    const box = $('graph');
    const r = here.getBoundingClientRect();
    const b = box.getBoundingClientRect();
    box.scrollLeft += r.left + r.width / 2 - (b.left + b.width / 2);
    box.scrollTop += r.top + r.height / 2 - (b.top + b.height / 2);
  }
}
async function render() {
  const path = params().get('path') || '0';
  try {
    view = await getJson('/api/state?path=' + encodeURIComponent(path));
    $('error').textContent = '';
  } catch (e) {
    $('error').textContent = String(e.message);
    return;
  }
  const v = view;
  document.body.dataset.path = v.path;
  document.body.dataset.depth = String(v.depth);
  // At the end of one of the last check's traces: say which.
  const t = session ? session.traces.find((x) => x.path === v.path) : undefined;
  const onTrace = t && t.path === v.path ? ' — the ' + (t.status === 'violated' ? 'violating step of a counterexample to ' : 'last step of a witness of ') + t.property : '';
  $('where').textContent = (v.depth === 0 ? 'Initial state' : 'After step ' + v.depth + ' (' + v.time + ' of model time)') + onTrace;
  const steps = $('steps');
  steps.replaceChildren();
  const first = item('0. initial state', v.depth === 0 ? 'here' : '', () => go(prefix(v.path, 0)));
  first.dataset.step = '0';
  steps.append(first);
  for (const l of v.lines) {
    if (l.from === l.to) { steps.append(stepItem(v, v.steps[l.from - 1])); continue; }
    const li = document.createElement('li');
    li.className = 'fold';
    const d = document.createElement('details');
    const sum = document.createElement('summary');
    sum.textContent = l.from + '–' + l.to + '. ' + l.time + '  ' + l.actor + '  ' + l.summary;
    d.append(sum);
    const inner = document.createElement('ol');
    for (let k = l.from; k <= l.to; k++) inner.append(stepItem(v, v.steps[k - 1]));
    d.append(inner);
    if (v.depth >= l.from && v.depth <= l.to) d.open = true;
    li.append(d);
    steps.append(li);
  }
  const here = steps.querySelector('li.here');
  if (here && here.scrollIntoView) here.scrollIntoView({ block: 'nearest' });
  $('violations').textContent = v.violations.length === 0 ? 'No checked property is violated here.' : 'Violates ' + v.violations.join(', ');
  $('violations').className = v.violations.length === 0 ? '' : 'violated';
  $('changes').textContent = v.depth === 0 ? '(the initial state)' : (v.changes.join('\\n') || '(no change)');
  $('summary').textContent = v.description.join('\\n');
  $('json').textContent = v.state;
  const actions = $('actions');
  actions.replaceChildren();
  for (const a of v.actions) {
    const li = document.createElement('li');
    const b = document.createElement('button');
    b.type = 'button';
    b.className = 'action' + (a.fault ? ' fault' : '');
    b.dataset.ordinal = String(a.ordinal);
    b.textContent = a.actor + ': ' + a.summary;
    b.onclick = () => go(a.path);
    li.append(b);
    actions.append(li);
  }
  if (v.actions.length === 0) actions.append(item('No step is enabled here (a deadlock).', 'violated'));
  $('back').disabled = v.depth === 0;
  $('itf').href = '/api/itf?path=' + encodeURIComponent(v.path);
  $('reopen').textContent = v.reopen;
  markGroup(v.group);
}
async function start() {
  try {
    session = await getJson('/api/session');
  } catch (e) {
    $('error').textContent = String(e.message);
    return;
  }
  $('check').textContent = session.check;
  const traces = $('traces');
  session.traces.forEach((t) => {
    const b = document.createElement('button');
    b.type = 'button';
    b.className = t.status;
    b.textContent = (t.status === 'violated' ? 'counterexample to ' : 'witness of ') + t.property + ' (' + t.steps + ' steps)';
    b.title = t.description;
    b.onclick = () => go(t.path);
    traces.append(b);
  });
  if (session.graph) {
    const r = await fetch('/graph.svg');
    if (r.ok) {
      $('graph').innerHTML = (await r.text()).replace(/^<\\?xml[^>]*>\\s*/, '').replace(/<!DOCTYPE[^>]*>\\s*/, '');
      fitSvgText($('graph'));
    }
    else $('graph-box').hidden = true;
  } else $('graph-box').hidden = true;
  $('back').onclick = () => { if (view && view.depth > 0) go(prefix(view.path, view.depth - 1)); };
  $('restart').onclick = () => go(view ? prefix(view.path, 0) : '0');
  $('copy').onclick = async () => {
    try { await navigator.clipboard.writeText($('reopen').textContent); $('copied').textContent = 'copied'; } catch { $('copied').textContent = 'select the command and copy it'; }
  };
  document.addEventListener('keydown', (e) => { if (e.key === 'ArrowLeft' && e.target === document.body) $('back').click(); });
  window.addEventListener('hashchange', render);
  await render();
  document.body.dataset.ready = 'true';
}
start();
`;

/** The explorer's page for a session titled `title`. */
export function explorerPage(title: string): string {
  const t = escapeHtml(title);
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<title>kubecheck explore ${t}</title><style>${STYLE}</style></head><body>
<h1>kubecheck explore <code>${t}</code></h1>
<p id="check"></p><div id="traces"></div><p id="error" class="error"></p>
<div class="explorer">
<section class="pane"><h2>Path</h2><div class="controls"><button id="back" type="button">◀ step back</button><button id="restart" type="button">initial state</button></div><ol id="steps"></ol></section>
<section class="pane"><h2 id="where"></h2><p id="violations"></p>
<b>What the last step changed</b><pre id="changes"></pre><b>State</b><pre id="summary"></pre><details><summary>the whole state</summary><pre id="json"></pre></details>
<h3>Take a step (faults and operator actions in red)</h3><ol id="actions"></ol>
<h3>Keep this path</h3><p><a id="itf" download>ITF trace of this path</a> (for <code>kubecheck replay</code>) · <button id="copy" type="button">copy the command that reopens it</button> <span id="copied"></span><br><code id="reopen"></code></p>
</section></div>
<section id="graph-box"><h2>State graph, projected (the current state's group outlined)</h2><div id="graph" class="figure"></div></section>
<script>${SCRIPT}</script></body></html>
`;
}
