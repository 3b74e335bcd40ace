/**
 * Redis as the coordination and data plane of a distributed search (`kubecheck check --cluster
 * redis://HOST:PORT/RUN` and `kubecheck worker redis://HOST:PORT/RUN`). Keys of a run live under
 * `kubecheck:RUN:`:
 *  - `manifest`: what the coordinator checks (its build, the model, config and options), written
 *    first; a worker with another build or model is refused (KC014) and says why in `refused`;
 *  - `next` (a counter: a joining worker's index) and `members` (index → host and pid);
 *  - `hb:INDEX` and `hb:coordinator`: heartbeats, keys that expire unless renewed every second. A
 *    worker whose key expires ends the run (KC013, exit 3, naming it); a coordinator whose key
 *    expires, or that sets `stop` (Ctrl-C), ends every worker;
 *  - `in:ENDPOINT`: one inbox stream per endpoint (workers 0..n-1, the coordinator n): frames are
 *    added by their senders (`XADD`, in order on one connection) and read in order (`XREAD`), so a
 *    sender's frames arrive in the order sent; read entries are trimmed;
 *  - `result`: the verdict and counts, when the coordinator is done.
 * ioredis is the client: maintained, binary-safe replies (`xreadBuffer`), and automatic
 * pipelining of the many small `XADD`s a level sends.
 */
import { hostname } from 'node:os';
import { Redis } from 'ioredis';
import { CheckerErrorCode, fail, KubecheckError } from '../errors.js';
import type { Transport } from './transport.js';

/** Where a run lives: a Redis server and the run's name. */
export interface RunAddress {
  readonly host: string;
  readonly port: number;
  readonly password?: string;
  readonly run: string;
  /** Whether the host is this machine (127.0.0.0/8, ::1, localhost). */
  readonly loopback: boolean;
}

const HEARTBEAT_MS = 1000;
/** A heartbeat key lives this long unless renewed: a worker silent for this long is taken for lost. */
const HEARTBEAT_TTL_MS = 6000;

/**
 * Reads `redis://[:PASSWORD@]HOST[:PORT]/RUN` (HOST defaults to 127.0.0.1, PORT to 6379). A bad
 * address fails with `code` (the command line's bad-option code) and one line.
 */
export function parseRunAddress(text: string, code: string): RunAddress {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return fail(code, `--cluster must be redis://HOST:PORT/RUN, got ${JSON.stringify(text)}`);
  }
  if (url.protocol !== 'redis:') fail(code, `the cluster address must start with redis://, got ${JSON.stringify(text)}`);
  const run = decodeURIComponent(url.pathname.replace(/^\//, ''));
  if (!/^[A-Za-z0-9][A-Za-z0-9._-]{0,99}$/.test(run)) fail(code, `the run name (the path of ${JSON.stringify(text)}) must be letters, digits, '.', '_' or '-', e.g. redis://127.0.0.1:6379/run-1`);
  const host = (url.hostname || '127.0.0.1').replace(/^\[|\]$/g, '');
  const port = url.port === '' ? 6379 : Number(url.port);
  const password = url.password === '' ? undefined : decodeURIComponent(url.password);
  const loopback = host === 'localhost' || host === '::1' || /^127\.\d+\.\d+\.\d+$/.test(host);
  return { host, port, run, loopback, ...(password === undefined ? {} : { password }) };
}

/** The address as printed (the password left out). */
export function describeAddress(a: RunAddress): string {
  return `redis://${a.host.includes(':') ? `[${a.host}]` : a.host}:${a.port}/${a.run}`;
}

/** A connection to the run's Redis; a connection that cannot be made or is lost is KC015. */
async function connect(a: RunAddress, onLost: (e: KubecheckError) => void): Promise<Redis> {
  const redis = new Redis({
    host: a.host,
    port: a.port,
    ...(a.password === undefined ? {} : { password: a.password }),
    lazyConnect: true,
    enableAutoPipelining: true,
    maxRetriesPerRequest: 2,
    retryStrategy: (times: number) => (times > 5 ? null : 200),
  });
  let last = '';
  redis.on('error', (e: Error) => {
    last = e.message;
  });
  redis.on('end', () => onLost(new KubecheckError(CheckerErrorCode.coordinationLost, `the Redis server at ${describeAddress(a)} went away${last ? ` (${last})` : ''}`)));
  try {
    await redis.connect();
  } catch (e) {
    redis.disconnect();
    fail(CheckerErrorCode.coordinationLost, `cannot reach the Redis server at ${describeAddress(a)}: ${(e as Error).message}`);
  }
  return redis;
}

/** The keys of a run. */
function keysOf(run: string) {
  const p = `kubecheck:${run}:`;
  return {
    prefix: p,
    manifest: `${p}manifest`,
    next: `${p}next`,
    members: `${p}members`,
    refused: `${p}refused`,
    stop: `${p}stop`,
    result: `${p}result`,
    heartbeat: (who: number | 'coordinator') => `${p}hb:${who}`,
    inbox: (endpoint: number) => `${p}in:${endpoint}`,
  };
}

/**
 * The Redis side of one endpoint: its transport (inbox stream in, other inboxes out), its
 * heartbeat, and the watch on the others' (the coordinator watches the workers, a worker the
 * coordinator). Faults (a worker lost, Redis gone, the run stopped) go to the transport's listener.
 */
export class RedisEndpoint implements Transport {
  readonly ordered = true;
  private readonly keys: ReturnType<typeof keysOf>;
  private reader: Redis | undefined;
  private take: ((from: number, frame: Uint8Array) => void) | undefined;
  private fault: ((error: KubecheckError) => void) | undefined;
  private timers: NodeJS.Timeout[] = [];
  private closed = false;
  private pendingFault: KubecheckError | undefined;

  private constructor(
    private readonly address: RunAddress,
    private readonly redis: Redis,
    readonly self: number,
    private readonly workers: number,
    /** Members by index, for naming a lost worker (coordinator only). */
    private readonly members: readonly string[],
  ) {
    this.keys = keysOf(address.run);
  }

  /** Sends a frame: one `XADD` to the receiver's inbox, pipelined in order. */
  send(to: number, frame: Uint8Array): void {
    if (this.closed) return;
    this.redis.xadd(this.keys.inbox(to), '*', 'f', String(this.self), 'd', Buffer.from(frame.buffer, frame.byteOffset, frame.byteLength)).catch((e: Error) => this.raise(new KubecheckError(CheckerErrorCode.coordinationLost, `Redis refused a frame: ${e.message}`)));
  }

  listen(take: (from: number, frame: Uint8Array) => void, fault: (error: KubecheckError) => void): void {
    this.take = take;
    this.fault = fault;
    if (this.pendingFault) fault(this.pendingFault);
    void this.read();
    this.beat();
  }

  private raise(e: KubecheckError): void {
    if (this.closed) return;
    if (this.fault) this.fault(e);
    else this.pendingFault ??= e;
  }

  /** Reads the inbox in order, from its start, until closed. */
  private async read(): Promise<void> {
    const reader = await connect(this.address, (e) => this.raise(e)).catch((e: KubecheckError) => {
      this.raise(e);
      return undefined;
    });
    if (reader === undefined) return;
    this.reader = reader;
    const inbox = this.keys.inbox(this.self);
    let last = '0-0';
    while (!this.closed) {
      let got: [Buffer, [Buffer, Buffer[]][]][] | null;
      try {
        got = (await reader.xreadBuffer('COUNT', 512, 'BLOCK', 500, 'STREAMS', inbox, last)) as [Buffer, [Buffer, Buffer[]][]][] | null;
      } catch (e) {
        if (!this.closed) this.raise(new KubecheckError(CheckerErrorCode.coordinationLost, `reading this endpoint's inbox from Redis failed: ${(e as Error).message}`));
        return;
      }
      if (got === null) continue;
      for (const [id, fields] of got[0][1]) {
        last = id.toString();
        if (this.closed) return;
        const from = Number(fields[1].toString());
        const data = fields[3];
        const frame = new Uint8Array(data.byteLength);
        frame.set(data);
        this.take?.(from, frame);
      }
      this.redis.xtrim(inbox, 'MINID', last).catch(() => {});
    }
  }

  /** Heartbeats, and the watch: the coordinator on the workers', a worker on the coordinator's and on `stop`. */
  private beat(): void {
    const me = this.self === this.workers ? 'coordinator' : this.self;
    const renew = (): void => {
      this.redis.set(this.keys.heartbeat(me), String(Date.now()), 'PX', HEARTBEAT_TTL_MS).catch(() => {});
    };
    renew();
    this.timers.push(setInterval(renew, HEARTBEAT_MS));
    this.timers.push(setInterval(() => void this.watch(), HEARTBEAT_MS));
  }

  private async watch(): Promise<void> {
    if (this.closed) return;
    try {
      if (this.self === this.workers) {
        const beats = await this.redis.mget(...Array.from({ length: this.workers }, (_, i) => this.keys.heartbeat(i)));
        const lost = beats.findIndex((b) => b === null);
        if (lost >= 0) {
          this.raise(new KubecheckError(CheckerErrorCode.workerLost, `worker ${lost} (${this.members[lost] ?? 'unknown'}) stopped heartbeating for ${HEARTBEAT_TTL_MS / 1000}s: it died or cannot reach Redis; the search is incomplete (no count is given)`));
        }
      } else {
        const [beat, stop] = await this.redis.mget(this.keys.heartbeat('coordinator'), this.keys.stop);
        if (stop !== null) this.raise(new KubecheckError(CheckerErrorCode.workerLost, `the coordinator stopped the run (${stop})`));
        else if (beat === null) this.raise(new KubecheckError(CheckerErrorCode.workerLost, 'the coordinator stopped heartbeating: it died or cannot reach Redis'));
      }
    } catch (e) {
      this.raise(new KubecheckError(CheckerErrorCode.coordinationLost, `Redis did not answer: ${(e as Error).message}`));
    }
  }

  /** Asks every worker to stop (Ctrl-C on the coordinator, or an error). */
  async stopRun(reason: string): Promise<void> {
    await this.redis.set(this.keys.stop, reason, 'EX', 3600).catch(() => {});
  }

  async writeResult(result: unknown): Promise<void> {
    await this.redis.set(this.keys.result, JSON.stringify(result), 'EX', 86400).catch(() => {});
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    for (const t of this.timers) clearInterval(t);
    // What was sent is flushed before the connection closes.
    await this.redis.quit().catch(() => this.redis.disconnect());
    this.reader?.disconnect();
  }

  /**
   * The coordinator's endpoint: clears what an earlier run of this name left, writes the manifest,
   * and waits for `workers` workers to join (`onWait` is told how many have). A worker's refusal
   * (another build or model) ends the wait with KC014.
   */
  static async coordinate(address: RunAddress, manifest: Record<string, unknown>, workers: number, onWait: (joined: number) => void = () => {}): Promise<RedisEndpoint> {
    let lost: KubecheckError | undefined;
    const redis = await connect(address, (e) => (lost = e));
    const keys = keysOf(address.run);
    const old = await redis.keys(`${keys.prefix}*`);
    if (old.length > 0) await redis.del(...old);
    await redis.set(keys.manifest, JSON.stringify({ ...manifest, workers }));
    await redis.set(keys.heartbeat('coordinator'), String(Date.now()), 'PX', HEARTBEAT_TTL_MS);
    const beat = setInterval(() => void redis.set(keys.heartbeat('coordinator'), String(Date.now()), 'PX', HEARTBEAT_TTL_MS).catch(() => {}), HEARTBEAT_MS);
    try {
      for (;;) {
        if (lost) throw lost;
        const refused = await redis.lrange(keys.refused, 0, 0);
        if (refused.length > 0) fail(CheckerErrorCode.manifestMismatch, refused[0]);
        const joined = await redis.hlen(keys.members);
        onWait(joined);
        if (joined >= workers) break;
        await new Promise((r) => setTimeout(r, 100));
      }
    } catch (e) {
      clearInterval(beat);
      redis.disconnect();
      throw e;
    }
    clearInterval(beat);
    const members = await redis.hgetall(keys.members);
    const endpoint = new RedisEndpoint(address, redis, workers, workers, Array.from({ length: workers }, (_, i) => members[String(i)] ?? 'unknown'));
    return endpoint;
  }

  /**
   * A worker's endpoint: waits for the run's manifest, has `accept` check it (it throws KC014 on
   * another build or model: the refusal is written for the coordinator), takes the next index.
   */
  static async join(address: RunAddress, accept: (manifest: Record<string, unknown>) => Promise<void>, onWait: () => void = () => {}): Promise<{ endpoint: RedisEndpoint; manifest: Record<string, unknown> }> {
    let lost: KubecheckError | undefined;
    const redis = await connect(address, (e) => (lost = e));
    const keys = keysOf(address.run);
    try {
      let text: string | null = null;
      for (let waited = 0; (text = await redis.get(keys.manifest)) === null; waited++) {
        if (lost) throw lost;
        if (waited === 20) onWait();
        await new Promise((r) => setTimeout(r, 100));
      }
      const manifest = JSON.parse(text) as Record<string, unknown>;
      try {
        await accept(manifest);
      } catch (e) {
        const message = e instanceof KubecheckError ? e.message.replace(/^KC\d+: /, '') : String((e as Error).message);
        await redis.rpush(keys.refused, `a worker on ${hostname()} (pid ${process.pid}) refused the run: ${message}`);
        throw e;
      }
      const index = (await redis.incr(keys.next)) - 1;
      const workers = manifest.workers as number;
      if (index >= workers) fail(CheckerErrorCode.manifestMismatch, `run ${address.run} already has its ${workers} workers`);
      const endpoint = new RedisEndpoint(address, redis, index, workers, []);
      // The first heartbeat before joining: the coordinator starts watching once all have joined.
      await redis.set(keys.heartbeat(index), String(Date.now()), 'PX', HEARTBEAT_TTL_MS);
      await redis.hset(keys.members, String(index), `${hostname()} pid ${process.pid}`);
      return { endpoint, manifest };
    } catch (e) {
      redis.disconnect();
      throw e;
    }
  }
}
