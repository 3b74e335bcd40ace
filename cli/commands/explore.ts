/**
 * `kubecheck explore`: the state space in a browser. Binds its port on the loopback interface
 * (the port given or an ephemeral one), checks the scenario (bounded, so a large one still opens),
 * draws its projected state graph, then serves the explorer's page and API (`cli/explorer.ts`)
 * to requests addressed to the loopback interface only, printing the address. Each request's work
 * is bounded in time; Ctrl-C or SIGTERM stops it (exit 0), at once even in the middle of a request.
 */
import { createServer, type Server } from 'node:http';
import { check, type CheckResult, type Model, type Trace } from '../../checker/index.js';
import { dotToSvg, graphToDot } from '../../reports/dot.js';
import { fail, ToolErrorCode } from '../../reports/errors.js';
import { formatStats } from '../../reports/outcome.js';
import { groupOf, projectedGraph, projectionVisitor } from '../../reports/projected.js';
import { exploredSpace } from '../../reports/artifacts.js';
import { answer, formatPath, parsePath, refuseForeign, REQUEST_SECONDS, tracesOf, type Answer, type ExplorerSession } from '../explorer.js';
import { configPaths, checkPropertyIds, resolveFromOptions, type ConfigOptions } from '../subjects.js';
import { extensionRecords } from '../extensions.js';
import { recordedInput } from '../../reports/recorded.js';

export interface ExploreOptions extends ConfigOptions {
  readonly port?: number;
  readonly path?: string;
  readonly check?: boolean;
  readonly graph?: boolean;
  readonly timeLimit?: number;
  readonly maxStates?: number;
  readonly property?: string[];
}

const DEFAULT_CHECK_SECONDS = 60;
const DEFAULT_GRAPH_STATES = 200_000;

const quote = (a: string): string => (/^[\w@%+=:,./-]+$/.test(a) ? a : `'${a.replace(/'/g, `'\\''`)}'`);

/** `kubecheck explore` with the options that name the model, so a path can be reopened. */
export function reopenCommand(opts: ExploreOptions): string {
  const args = ['kubecheck', 'explore'];
  if (opts.model !== undefined) args.push('--model', opts.model);
  if (opts.scenario !== undefined) args.push('--scenario', opts.scenario);
  for (const c of configPaths(opts)) args.push('--config', c);
  for (const [k, v] of Object.entries(opts.set ?? {})) args.push('--set', `${k}=${v}`);
  for (const e of opts.extension ?? []) args.push('--extension', e);
  if (opts.allowUnsafeConfig) args.push('--allow-unsafe-config');
  for (const p of opts.property ?? []) args.push('--property', p);
  return args.map(quote).join(' ');
}

/** Builds the session: resolves the model, runs the bounded check and draws the projected graph. */
export async function exploreSession(opts: ExploreOptions, log: (line: string) => void = () => {}): Promise<ExplorerSession<unknown>> {
  const r = await resolveFromOptions(opts);
  checkPropertyIds(r.subject, opts.property, r.config);
  const model = r.model as Model<unknown>;
  const ids = opts.property && opts.property.length > 0 ? opts.property : r.defaultProperties;
  const properties = model.properties.filter((p) => ids.includes(p.id));
  let checkSummary = 'not checked (--no-check): no counterexample or witness to open';
  let traces: ExplorerSession<unknown>['traces'] = [];
  let first: { trace: Trace<unknown>; property: string; status: 'violated' | 'witnessed' } | undefined;
  let recorder: ReturnType<typeof projectionVisitor<unknown>> | undefined;
  let explored: CheckResult<unknown> | undefined;
  if (opts.check !== false) {
    const limit = opts.timeLimit ?? DEFAULT_CHECK_SECONDS;
    log(`checking ${r.scenario} (at most ${limit}s)...`);
    recorder = opts.graph === false || model.stateVector !== undefined ? undefined : projectionVisitor(model, properties);
    const result = check(model, { properties: ids, timeLimitSeconds: limit, ...(opts.maxStates ? { maxStates: opts.maxStates } : {}), ...(recorder ? { visitor: recorder.visitor } : {}) });
    explored = result;
    checkSummary = `Last check: ${result.verdict}; ${formatStats(result)}.`;
    traces = tracesOf(result);
    const bad = result.properties.find((p) => p.status === 'violated' && p.trace);
    const good = result.properties.find((p) => p.status === 'witnessed' && p.trace);
    const shown = bad ?? good;
    if (shown?.trace) first = { trace: shown.trace, property: shown.id, status: shown.status === 'violated' ? 'violated' : 'witnessed' };
  }
  let graphSvg: string | undefined;
  let groupIndex: ((s: unknown) => number | undefined) | undefined;
  if (opts.graph !== false) {
    log('drawing the projected state graph...');
    const drawn = first ? { trace: first.trace, mark: { property: first.property, status: first.status } } : {};
    // The states the check explored, else (no check, a state-vector model) an exploration of its own.
    const g = recorder !== undefined && explored !== undefined
      ? recorder.projection.graph(...exploredSpace(explored, drawn))
      : projectedGraph(model, { properties, maxStates: opts.maxStates ?? DEFAULT_GRAPH_STATES, ...drawn });
    graphSvg = await dotToSvg(graphToDot(g));
    const index = new Map(g.groups.map((name, i) => [name, i]));
    groupIndex = (s) => index.get(groupOf(model, s));
  }
  return {
    model,
    title: r.scenario,
    properties,
    checkSummary,
    traces,
    ...(graphSvg === undefined ? {} : { graphSvg, groupOf: groupIndex! }),
    itfMeta: {
      scenario: r.scenario,
      config: r.config,
      ...(opts.allowUnsafeConfig ? { allowUnsafeConfig: true } : {}),
      // A path's trace is saved wherever the browser puts it: its modules are found by their absolute paths.
      ...recordedInput({
        ...(configPaths(opts).length > 0 || Object.keys(opts.set ?? {}).length > 0 ? { configInput: { files: [...configPaths(opts)], set: { ...opts.set } } } : {}),
        ...((r.extensionModules ?? []).length > 0 ? { extensionModules: extensionRecords(r.extensionModules ?? [], undefined) } : {}),
      }),
    },
    reopenCommand: reopenCommand(opts),
  };
}

/** How the server runs a request's work. */
export interface ServeOptions {
  /** Seconds of work one request may take (default {@link REQUEST_SECONDS}). */
  readonly requestSeconds?: number;
  /** Runs a request's work (the command lets signals end the process at once meanwhile). */
  readonly around?: <T>(work: () => T) => T;
}

/** A server listening on the loopback interface, answering once it is given its session. */
export interface ExplorerServer {
  readonly url: string;
  readonly server: Server;
  /** Starts answering with `session` (until then every request gets a 503: the explorer is still starting). */
  serve(session: ExplorerSession<unknown>): void;
}

const jsonAnswer = (status: number, value: unknown): Answer => ({ status, type: 'application/json; charset=utf-8', body: `${JSON.stringify(value)}\n` });

/**
 * Binds 127.0.0.1 (port 0: an ephemeral one) before any work, so a port in use is said at once
 * (KC200). A request is first checked for its Host and Origin ({@link refuseForeign}), then
 * answered from the session once there is one.
 */
export function listenExplorer(port = 0, options: ServeOptions = {}): Promise<ExplorerServer> {
  let session: ExplorerSession<unknown> | undefined;
  let bound = port;
  const around = options.around ?? (<T>(work: () => T): T => work());
  const server = createServer((req, res) => {
    let a = refuseForeign({ host: req.headers.host, origin: req.headers.origin }, bound);
    if (a === undefined && session === undefined) a = { ...jsonAnswer(503, { error: 'the explorer is still starting (checking the scenario, drawing its graph); ask again in a moment' }), headers: { 'retry-after': '5' } };
    if (a === undefined) {
      const s = session as ExplorerSession<unknown>;
      try {
        a = around(() => answer(s, req.method ?? 'GET', req.url ?? '/', options.requestSeconds ?? REQUEST_SECONDS));
      } catch (e) {
        // A model that throws on some state: the request fails, the server goes on.
        a = jsonAnswer(500, { error: `the model failed on this request: ${String((e as Error)?.message ?? e).split('\n')[0]}` });
      }
    }
    res.writeHead(a.status, { 'content-type': a.type, 'content-length': Buffer.byteLength(a.body), 'cache-control': 'no-store', 'x-content-type-options': 'nosniff', ...(a.headers ?? {}) });
    res.end(req.method === 'HEAD' ? undefined : a.body);
  });
  return new Promise((resolve, reject) => {
    server.once('error', (e: NodeJS.ErrnoException) => reject(e.code === 'EADDRINUSE' ? new Error(`--port ${port} is in use; give another --port or 0 for any free one`) : e));
    server.listen(port, '127.0.0.1', () => {
      const address = server.address();
      bound = typeof address === 'object' && address !== null ? address.port : port;
      resolve({
        url: `http://127.0.0.1:${bound}/`,
        server,
        serve: (s) => {
          session = s;
        },
      });
    });
  });
}

/** Serves a session on 127.0.0.1 (port 0: an ephemeral one). Resolves once listening. */
export async function serveExplorer(session: ExplorerSession<unknown>, port = 0, options: ServeOptions = {}): Promise<{ readonly url: string; readonly server: Server }> {
  const listening = await listenExplorer(port, options);
  listening.serve(session);
  return listening;
}

/**
 * Runs a request's work with no listener of SIGINT or SIGTERM, so that a signal ends the process
 * at once even when the work does not return (the listeners, which stop the server cleanly, can
 * only run between requests); the listeners are back when it returns.
 */
function signalsEndAtOnce(stop: () => void): <T>(work: () => T) => T {
  return <T>(work: () => T): T => {
    process.removeListener('SIGINT', stop).removeListener('SIGTERM', stop);
    try {
      return work();
    } finally {
      process.on('SIGINT', stop).on('SIGTERM', stop);
    }
  };
}

export async function runExplore(opts: ExploreOptions): Promise<number> {
  if (opts.port !== undefined && (opts.port < 0 || opts.port > 65535)) fail(ToolErrorCode.badOption, `--port must be between 0 and 65535, got ${opts.port}`);
  const start = opts.path === undefined ? undefined : parsePath(opts.path);
  if (typeof start === 'string') fail(ToolErrorCode.badOption, `--path: ${start}`);
  // The port first: a port in use is said before the scenario is checked and its graph drawn.
  let stopped!: () => void;
  const ended = new Promise<void>((resolve) => {
    stopped = resolve;
  });
  let server: Server | undefined;
  const stop = (): void => {
    process.removeListener('SIGINT', stop).removeListener('SIGTERM', stop);
    if (server === undefined) return stopped();
    server.close(() => stopped());
    server.closeAllConnections();
  };
  let listening: ExplorerServer;
  try {
    listening = await listenExplorer(opts.port ?? 0, { around: signalsEndAtOnce(stop) });
  } catch (e) {
    return fail(ToolErrorCode.badOption, (e as Error).message);
  }
  server = listening.server;
  let session: ExplorerSession<unknown>;
  try {
    session = await exploreSession(opts, (line) => process.stderr.write(`kubecheck: ${line}\n`));
  } catch (e) {
    server.close();
    server.closeAllConnections();
    throw e;
  }
  listening.serve(session);
  process.on('SIGINT', stop).on('SIGTERM', stop);
  process.stdout.write(`kubecheck explore: ${session.title} at ${listening.url}${start === undefined ? '' : `#path=${formatPath(start)}`} (loopback only; Ctrl-C stops)\n`);
  await ended;
  return 0;
}
