/**
 * The explorer's session: a model, what its last check found, and the answers to the page's
 * requests. A state is named by its path from an initial state (`0.4.1`: initial state 0, then
 * the successors of candidate ordinal 4 and 1, as traces store them), so the server keeps nothing
 * per visitor: every address is a state anyone can open again, and the browser's history is the
 * way back. `answer` is the whole HTTP surface as a function of (method, address) and the time
 * a request may take; {@link refuseForeign} turns away what no page of the explorer's own sends
 * (another Host, another Origin: DNS rebinding); the command (`commands/explore.ts`) only binds
 * them to a loopback socket.
 *
 * Everything shown comes from the reports' own functions (step descriptions, the presented
 * state, the diff, quiet-stretch folding, ITF), so the explorer and the HTML report cannot tell a
 * state or a step differently.
 */
import {
  describeStepOf, faultTest, successorAt, successors, type ActionLabel, type CheckResult, type JsonValue, type Model, type Path, type Property, type Trace,
} from '../checker/index.js';
import { formatChange, jsonOf } from '../reports/diff.js';
import { formatTime } from '../checker/duration.js';
import { explorerPage } from '../reports/explorerPage.js';
import { toItf } from '../reports/itf.js';
import { foldQuiet, lineTime, presented, stateParts, timelineSteps, traceDuration } from '../reports/timeline.js';
import { ToolErrorCode } from '../reports/errors.js';

/** A counterexample or witness of the last check, to open in the explorer. */
export interface ExplorerTrace {
  readonly property: string;
  readonly status: 'violated' | 'witnessed';
  readonly description: string;
  readonly path: string;
  readonly steps: number;
}

export interface ExplorerSession<S> {
  readonly model: Model<S>;
  /** Page title: the scenario (or model) name. */
  readonly title: string;
  /** The checked properties: their violations are shown at each state and step. */
  readonly properties: readonly Property<S>[];
  /** One line on the last check (`ok: 5,088 states`, `violation: ...`), or why there was none. */
  readonly checkSummary: string;
  readonly traces: readonly ExplorerTrace[];
  /** The projected state graph as SVG, and the group of a state in it (undefined: no graph). */
  readonly graphSvg?: string;
  readonly groupOf?: (state: S) => number | undefined;
  /** `#meta` of the ITF traces written for a path (scenario, config), so `kubecheck replay` rebuilds the model. */
  readonly itfMeta: { readonly scenario?: string; readonly config?: JsonValue; readonly allowUnsafeConfig?: boolean; readonly configInput?: JsonValue; readonly extensionModules?: JsonValue };
  /** The command that reopens a path: `kubecheck explore ... --path` (the path is appended). */
  readonly reopenCommand: string;
}

/** An HTTP answer. */
export interface Answer {
  readonly status: number;
  readonly type: string;
  readonly body: string;
  readonly headers?: Readonly<Record<string, string>>;
}

const json = (status: number, value: unknown): Answer => ({ status, type: 'application/json; charset=utf-8', body: `${JSON.stringify(value)}\n` });
const refuse = (status: number, error: string): Answer => json(status, { error });

/** Most steps a path may have (a longer address is refused, not replayed). */
export const MAX_PATH_STEPS = 100_000;

/** Reads `0.4.1` as a path; a message saying what is wrong otherwise. */
export function parsePath(text: string | null): Path | string {
  if (text === null || text === '') return { initial: 0, steps: [] };
  if (!/^\d{1,9}(\.\d{1,9})*$/.test(text)) return `malformed path "${text.slice(0, 80)}": expected the initial state's index and candidate ordinals separated by dots, e.g. 0.4.1`;
  const parts = text.split('.').map(Number);
  if (parts.length - 1 > MAX_PATH_STEPS) return `path of ${parts.length - 1} steps: at most ${MAX_PATH_STEPS} are replayed`;
  return { initial: parts[0], steps: parts.slice(1) };
}

export const formatPath = (p: Path): string => [p.initial, ...p.steps].join('.');

/** Seconds of work one request may take by default (a path of 100,000 steps of the Kubernetes model replays in a few). */
export const REQUEST_SECONDS = 20;

/** A request's work past its time: see {@link answer}. */
const OVER_TIME = Symbol('over time');

/** A path replayed: its trace, the first step that does not exist, or {@link OVER_TIME} past `deadline` (`performance.now()`). */
function replay<S>(model: Model<S>, path: Path, cache: { last?: Trace<S> }, deadline: number): Trace<S> | string | typeof OVER_TIME {
  const init = model.initialStates();
  if (path.initial >= init.length) return `initial state ${path.initial} does not exist (the model has ${init.length})`;
  // Reuse the longest common prefix of the last path replayed (a click extends it by one step).
  const last = cache.last !== undefined && cache.last.path.initial === path.initial ? cache.last : undefined;
  let k = 0;
  if (last !== undefined) while (k < path.steps.length && k < last.path.steps.length && last.path.steps[k] === path.steps[k]) k++;
  const states: S[] = last !== undefined ? last.states.slice(0, k + 1) : [init[path.initial]];
  const actions: ActionLabel[] = last !== undefined ? last.actions.slice(0, k) : [];
  for (let i = k; i < path.steps.length; i++) {
    if (performance.now() > deadline) {
      // What was replayed is kept: the same path asked again goes on from there.
      if (i > k) cache.last = { states, actions, path: { initial: path.initial, steps: path.steps.slice(0, i) } };
      return OVER_TIME;
    }
    const next = successorAt(model, states[i], path.steps[i]);
    if (next === undefined) return `step ${i + 1}: candidate ${path.steps[i]} is not enabled in that state`;
    actions.push(next.action);
    states.push(next.state);
  }
  const trace = { states, actions, path };
  cache.last = trace;
  return trace;
}

const pretty = (v: JsonValue): string => JSON.stringify(v, null, 1).replace(/\n\s*/g, (m) => `\n${' '.repeat(Math.max(0, m.length - 2))}`);

/** What the page shows at the end of a path: the steps taken, the state, its violations, the steps enabled. */
export function stateView<S>(session: ExplorerSession<S>, trace: Trace<S>): Record<string, unknown> {
  const { model } = session;
  const steps = timelineSteps(model, trace);
  const state = trace.states[trace.states.length - 1];
  const isFault = faultTest(model);
  const before = trace.states.length > 1 ? trace.states[trace.states.length - 2] : undefined;
  const lastAction = trace.actions[trace.actions.length - 1];
  const violations: string[] = [];
  for (const p of session.properties) {
    if (p.kind === 'invariant' && !p.holds(state)) violations.push(p.id);
    else if (p.kind === 'action' && before !== undefined && !p.holds(before, lastAction, state)) violations.push(p.id);
  }
  const path = formatPath(trace.path);
  const actions = successors(model, state).map((x) => {
    const d = describeStepOf(model, state, x.action, x.state);
    return {
      ordinal: x.ordinal,
      actor: d?.actor ?? x.action.name,
      summary: d?.summary ?? (x.action.param === undefined ? x.action.name : `${x.action.name} ${JSON.stringify(x.action.param)}`),
      fault: isFault?.(state, x.action, x.state) === true,
      path: `${path}.${x.ordinal}`,
    };
  });
  const last = steps[steps.length - 1];
  return {
    path,
    depth: steps.length,
    time: formatTime(traceDuration(steps)),
    steps: steps.map((s) => ({ step: s.index, time: formatTime(s.seconds), actor: s.actor, summary: s.summary, fault: s.fault })),
    lines: foldQuiet(steps).map((l) => ({ from: l.steps[0], to: l.steps[1], time: lineTime(l), actor: l.actor, summary: l.summary })),
    description: model.describeState ? stateParts(model.describeState(state)) : [],
    state: pretty(jsonOf(presented(model, state))),
    changes: last === undefined ? [] : last.changes.map(formatChange),
    violations,
    actions,
    group: session.groupOf?.(state) ?? null,
    reopen: `${session.reopenCommand} --path ${path}`,
  };
}

/** The ITF trace of a path, with the `#meta` replay needs. */
function itfText<S>(session: ExplorerSession<S>, trace: Trace<S>): string {
  const itf = toItf(trace, {
    description: `a path taken in kubecheck explore (${trace.actions.length} steps)`,
    model: session.model.name,
    ...(session.itfMeta.scenario === undefined ? {} : { scenario: session.itfMeta.scenario }),
    ...(session.itfMeta.config === undefined ? {} : { config: session.itfMeta.config }),
    ...(session.itfMeta.allowUnsafeConfig ? { allowUnsafeConfig: true } : {}),
    ...(session.itfMeta.configInput === undefined ? {} : { configInput: session.itfMeta.configInput }),
    ...(session.itfMeta.extensionModules === undefined ? {} : { extensionModules: session.itfMeta.extensionModules }),
  });
  return `${JSON.stringify(itf, null, 2)}\n`;
}

/** Per-session memory of the last path replayed (a speed-up only: answers never depend on it). */
const caches = new WeakMap<object, { last?: Trace<unknown> }>();

/** The Host names the explorer answers to: the loopback interface, by address or by name. */
const LOOPBACK_NAMES = ['127.0.0.1', 'localhost', '[::1]'] as const;

/**
 * Refuses a request that no page of the explorer's own sends, before anything of the session is
 * read: a `Host` other than `127.0.0.1:PORT`, `localhost:PORT` or `[::1]:PORT` (421: a web page
 * whose name was pointed at 127.0.0.1, DNS rebinding, names its own host), and an `Origin` other
 * than one of those (403: another site's script). A request without `Origin` (a browser's own
 * navigation, curl) is served. The body says why and holds nothing of the session.
 */
export function refuseForeign(headers: { readonly host?: string | undefined; readonly origin?: string | undefined }, port: number): Answer | undefined {
  const hosts = new Set(LOOPBACK_NAMES.flatMap((name) => (port === 80 ? [name, `${name}:80`] : [`${name}:${port}`])));
  const host = headers.host?.trim().toLowerCase();
  if (host === undefined || !hosts.has(host)) {
    return refuse(421, `the explorer answers only requests addressed to it on the loopback interface (Host 127.0.0.1:${port}, localhost:${port} or [::1]:${port})`);
  }
  const origin = headers.origin?.trim().toLowerCase();
  if (origin !== undefined && !(origin.startsWith('http://') && hosts.has(origin.slice('http://'.length)))) {
    return refuse(403, 'the explorer answers only its own page: requests from another origin are refused');
  }
  return undefined;
}

/**
 * The answer to one request: the page, the projected graph, the session's summary, a state by
 * path, or a path's ITF trace. A request that names no state or asks for nothing known gets a
 * 4xx with a message; one whose replay takes more than `seconds` gets a 503 with code KC216 (the
 * part replayed is kept: asking again goes on from there); nothing a request holds can stop the
 * server.
 */
export function answer<S>(session: ExplorerSession<S>, method: string, address: string, seconds: number = REQUEST_SECONDS): Answer {
  if (method !== 'GET' && method !== 'HEAD') return { ...refuse(405, `method ${method.slice(0, 20)} not allowed: the explorer only answers GET`), headers: { allow: 'GET, HEAD' } };
  let url: URL;
  try {
    url = new URL(address, 'http://explorer.invalid');
  } catch {
    return refuse(400, 'malformed address');
  }
  switch (url.pathname) {
    case '/':
      return { status: 200, type: 'text/html; charset=utf-8', body: explorerPage(session.title) };
    case '/graph.svg':
      return session.graphSvg === undefined ? refuse(404, 'no state graph: the explorer was started with --no-graph') : { status: 200, type: 'image/svg+xml', body: session.graphSvg };
    case '/api/session':
      return json(200, { title: session.title, model: session.model.name, initialStates: session.model.initialStates().length, check: session.checkSummary, traces: session.traces, graph: session.graphSvg !== undefined });
    case '/api/state':
    case '/api/itf': {
      const path = parsePath(url.searchParams.get('path'));
      if (typeof path === 'string') return refuse(400, path);
      let cache = caches.get(session);
      if (cache === undefined) caches.set(session, (cache = {}));
      const trace = replay(session.model, path, cache as { last?: Trace<S> }, performance.now() + seconds * 1000);
      if (trace === OVER_TIME) {
        const code = ToolErrorCode.explorerRequestTooLong;
        return { ...json(503, { error: `${code}: replaying the path took more than ${seconds}s, the most one request may take; ask again to go on from where it stopped, or open a shorter path`, code }), headers: { 'retry-after': '1' } };
      }
      if (typeof trace === 'string') return refuse(404, `no such state: ${trace}`);
      if (url.pathname === '/api/state') return json(200, stateView(session, trace));
      return { status: 200, type: 'application/json; charset=utf-8', body: itfText(session, trace), headers: { 'content-disposition': `attachment; filename="explore-${trace.actions.length}-steps.itf.json"` } };
    }
    default:
      return refuse(404, `nothing at ${url.pathname.slice(0, 80)}: the explorer serves /, /graph.svg, /api/session, /api/state?path=… and /api/itf?path=…`);
  }
}

/** The counterexamples and witnesses of a check, as the explorer lists them. */
export function tracesOf<S>(result: CheckResult<S>): ExplorerTrace[] {
  const out: ExplorerTrace[] = [];
  for (const p of result.properties) {
    if (p.trace === undefined || (p.status !== 'violated' && p.status !== 'witnessed')) continue;
    out.push({ property: p.id, status: p.status, description: p.description, path: formatPath(p.trace.path), steps: p.trace.actions.length });
  }
  // Counterexamples first, then witnesses; shortest first within each.
  return out.sort((a, b) => (a.status === b.status ? a.steps - b.steps : a.status === 'violated' ? -1 : 1));
}
