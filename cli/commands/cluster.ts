/**
 * `kubecheck check ... --cluster redis://HOST:PORT/RUN` (the coordinator) and `kubecheck worker
 * redis://HOST:PORT/RUN`: one breadth-first search over worker processes, through Redis
 * (`checker/distributed/`). The run manifest carries this build's id, the scenario and its
 * resolved config; a worker rebuilds the model from them and is refused (KC014) when its build
 * differs or the model it builds is not the one checked.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { CheckerErrorCode, fail, hashString, KubecheckError, type CheckOptions, type CheckResult, type JsonValue, type Model } from '../../checker/index.js';
import { checkDistributed, serveWorker, type DistributedProfile, type InitHeader } from '../../checker/distributed/index.js';
import { describeAddress, parseRunAddress, RedisEndpoint } from '../../checker/distributed/redis.js';
import { encode } from '../../checker/fingerprint.js';
import { ToolErrorCode } from '../../reports/errors.js';
import { modelOfConfig } from '../modelFactory.js';
import { loadExtensionModules } from '../extensions.js';
import { KUBECHECK_VERSION } from '../version.js';

/** Errors that leave a distributed search incomplete (exit 3): a worker lost, records lost, Redis gone. */
export const INCOMPLETE_CODES: readonly string[] = [CheckerErrorCode.recordsLost, CheckerErrorCode.workerLost, CheckerErrorCode.coordinationLost];

let build: string | undefined;

/**
 * This build's id: the hash of kubecheck's version and of the code of its checker, model,
 * properties and command line as they run here (compiled or source). Two processes agree on it
 * only when they run the same code.
 */
export function buildId(): string {
  if (build !== undefined) return build;
  const root = fileURLToPath(new URL('../../', import.meta.url));
  let text = KUBECHECK_VERSION;
  for (const dir of ['checker', 'model', 'properties', 'cli']) {
    const files = (readdirSync(`${root}${dir}`, { recursive: true }) as string[]).filter((f) => /\.(js|ts)$/.test(f) && !/\.test\.|\.d\.ts$/.test(f)).sort();
    for (const f of files) text += `\u0000${dir}/${f}\u0000${readFileSync(`${root}${dir}/${f}`, 'utf8')}`;
  }
  build = hashString(text).toString(16);
  return build;
}

/** The fingerprint of a model's initial states: a worker's model must start where the coordinator's does. */
function initialFingerprint(model: Model<unknown>): string {
  return hashString(model.initialStates().map((s) => encode(s)).join('\u0001')).toString(16);
}

/** Progress on stderr while the coordinator waits for its workers (not with --quiet). */
function waiting(expect: number, quiet: boolean, where: string): (joined: number) => void {
  let said = -1;
  return (joined) => {
    if (quiet || joined === said) return;
    said = joined;
    process.stderr.write(`kubecheck: waiting for workers at ${where}: ${joined} of ${expect} joined (start them with: kubecheck worker ${where})\n`);
  };
}

export interface ClusterRun {
  readonly cluster: string;
  readonly expect?: number;
  readonly quiet?: boolean;
}

/** A user's extension module as the run's manifest names it: where it is and what it holds. */
export interface ManifestModule {
  readonly absolutePath: string;
  readonly sha256: string;
}

/**
 * The extension modules a manifest names, checked on this machine: each must be at the same path
 * with the same content (the hash over it and its relative imports), else the worker would check
 * another operator than the coordinator's (KC014).
 */
async function modulesOf(given: unknown): Promise<readonly string[]> {
  if (given === undefined) return [];
  const wanted = given as readonly ManifestModule[];
  const { modules } = await loadExtensionModules(wanted.map((w) => w.absolutePath));
  wanted.forEach((w, i) => {
    if (modules[i]?.digest.sha256 !== w.sha256) fail(CheckerErrorCode.manifestMismatch, `extension module ${w.absolutePath} on this worker is not the coordinator's (${modules[i]?.digest.sha256 ?? 'absent'}, the run's ${w.sha256}): put the same files at the same path on every machine`);
  });
  return wanted.map((w) => w.absolutePath);
}

/**
 * The coordinator: writes the manifest, waits for `expect` workers, runs the search and writes
 * its result to Redis. Ctrl-C (or SIGTERM) stops every worker. The exit code is the caller's.
 */
export async function checkOnCluster<S>(model: Model<S>, scenario: string, config: JsonValue, options: CheckOptions, run: ClusterRun, extensions: readonly ManifestModule[] = []): Promise<CheckResult<S>> {
  const address = parseRunAddress(run.cluster, ToolErrorCode.badOption);
  const expect = run.expect ?? 1;
  if (!address.loopback && address.password === undefined && run.quiet !== true) {
    process.stderr.write(`kubecheck: warning: ${describeAddress(address)} is not on this machine and has no password; the run's config travels through it\n`);
  }
  const manifest = { kubecheck: KUBECHECK_VERSION, build: buildId(), scenario, config, ...(extensions.length === 0 ? {} : { extensions: extensions.map((e) => ({ ...e })) }), initial: initialFingerprint(model as Model<unknown>) };
  const endpoint = await RedisEndpoint.coordinate(address, manifest, expect, waiting(expect, run.quiet === true, describeAddress(address)));
  const interrupted = (signal: NodeJS.Signals): void => {
    process.stderr.write(`kubecheck: interrupted; every worker of ${describeAddress(address)} is told to stop\n`);
    void endpoint.stopRun(`interrupted (${signal})`).finally(() => process.exit(signal === 'SIGTERM' ? 143 : 130));
  };
  process.once('SIGINT', interrupted);
  process.once('SIGTERM', interrupted);
  try {
    let profile: DistributedProfile | undefined;
    const result = await checkDistributed(model, options, { transport: endpoint, workers: expect, manifest }, (p) => (profile = p));
    // The run's result and profile stay in Redis for a day (the bench reads the profile).
    await endpoint.writeResult({ verdict: result.verdict, stats: result.stats, properties: result.properties.map((p) => ({ id: p.id, status: p.status })), profile });
    return result;
  } catch (e) {
    await endpoint.stopRun(e instanceof Error ? e.message : String(e));
    throw e;
  } finally {
    process.removeListener('SIGINT', interrupted);
    process.removeListener('SIGTERM', interrupted);
    await endpoint.close();
  }
}

/**
 * `kubecheck worker redis://HOST:PORT/RUN`: joins the run, rebuilds the model from the manifest
 * and serves the search until the coordinator says stop. Exit 0 when the search ended; errors
 * are thrown (exit 3 for a lost coordinator or Redis, 2 for a refused manifest).
 */
export async function runWorker(url: string, opts: { readonly quiet?: boolean }): Promise<number> {
  const address = parseRunAddress(url, ToolErrorCode.badOption);
  let model: Model<unknown> | undefined;
  const { endpoint, manifest } = await RedisEndpoint.join(
    address,
    async (m) => {
      if (m.build !== buildId()) fail(CheckerErrorCode.manifestMismatch, `the coordinator runs kubecheck ${String(m.kubecheck)} build ${String(m.build)}, this worker ${KUBECHECK_VERSION} build ${buildId()}: run the same build on every machine`);
      const modules = await modulesOf(m.extensions);
      const built = await modelOfConfig({ scenario: m.scenario as string, config: m.config as JsonValue, ...(modules.length === 0 ? {} : { extensions: modules }) });
      if (initialFingerprint(built) !== m.initial) fail(CheckerErrorCode.manifestMismatch, `the model this worker builds from scenario ${String(m.scenario)} and the run's config does not start in the coordinator's initial states`);
      model = built;
    },
    () => {
      if (opts.quiet !== true) process.stderr.write(`kubecheck: waiting for a coordinator at ${describeAddress(address)} (kubecheck check ... --cluster ${describeAddress(address)})\n`);
    },
  );
  if (opts.quiet !== true) process.stderr.write(`kubecheck: worker ${endpoint.self} of ${String(manifest.workers)} joined ${describeAddress(address)} (scenario ${String(manifest.scenario)})\n`);
  const stop = (): void => {
    void endpoint.close().finally(() => process.exit(130));
  };
  process.once('SIGINT', stop);
  try {
    await serveWorker(endpoint, { build: async (init: InitHeader) => (model as Model<unknown>) ?? fail(CheckerErrorCode.manifestMismatch, `no model for ${init.modelName}`) });
    return 0;
  } catch (e) {
    throw e instanceof KubecheckError ? e : new KubecheckError(CheckerErrorCode.workerFailed, String((e as Error).message));
  } finally {
    process.removeListener('SIGINT', stop);
    await endpoint.close();
  }
}
