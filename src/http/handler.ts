/**
 * The embeddable API: `createHandler(options)` returns a `(req, res)` handler that an existing
 * `node:http` server can mount. This file is the wiring: it builds the parts (reloaders, limiter
 * store, breaker, the operators' eyes, the in-flight count) from the options and hands them to
 * the request pipeline (`pipeline.ts`), which runs the checks of docs/api.md §1 in order.
 */
import { randomBytes } from 'node:crypto';
import { EventEmitter } from 'node:events';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import { Breaker } from '../guard/breaker.js';
import { Limiter } from '../guard/limiter.js';
import type { LimiterStore } from '../guard/limiter-store.js';
import { openLimits } from '../guard/open-limits.js';
import { createLoadSampler } from '../guard/load-sampler.js';
import { Reloader } from '../data/reloader.js';
import { loadSnapshot, type SnapshotIndex } from '../data/snapshot-index.js';
import { MIB } from '../data/row-file.js';
import { CURRENT_FILE } from '../data/snapshot-format.js';
import { readCurrentVersion } from '../data/snapshot-reader.js';
import { describeSnapshot } from '../data/snapshot-source.js';
import { readKeysFile, type KeyTable } from '../keys/keys-file.js';
import { isDemoKeysFile, resolveOptions, type HandlerOptions } from '../options.js';
import { createSocketRefusals, type RefusalHook } from './client-error.js';
import { ERRORS } from '../errors.js';
import { InFlight } from './in-flight.js';
import { Pipeline } from './pipeline.js';
import { PipelineContext } from './pipeline-context.js';
import { RequestState } from './request-state.js';
import { createEyes } from '../ops/eyes.js';
import { newNote, NOTE, type NotedResponse, type RequestNote } from '../ops/observer.js';
import type { Metrics } from '../ops/metrics.js';

/** What {@link createHandler} returns. */
export interface Handler {
  /**
   * Answers one request; never throws. Mount it as a `node:http` request listener, and on the
   * server's `checkExpectation` and `checkContinue` events so that an unsupported `Expect` gets
   * the envelope and no 100 Continue invites a body that is never read. Create the server with
   * `requireHostHeader: false`, or Node answers a missing Host itself with an empty 400.
   */
  handle(req: IncomingMessage, res: ServerResponse): void;
  /**
   * Answers a request Node's parser refused (mount on the server's `clientError` event): 400,
   * 408 or 431 in the envelope, written after the complete responses to the requests before it
   * on the connection (never inside one), then the connection closes (docs/api.md §12).
   */
  clientError(error: Error & { code?: string }, socket: Socket): void;
  /**
   * Answers a CONNECT (mount on the server's `connect` event): no route is a tunnel, so 405
   * `method_not_allowed` with `Allow: GET, HEAD` in the envelope, then the connection closes.
   * Without a listener Node closes such a connection with no answer at all.
   */
  connect(req: IncomingMessage, socket: Socket): void;
  /**
   * Settles when the first snapshot and keys file are loaded. Rejects when either is broken: with
   * that load's error, or, when both are, with one error whose message names both (snapshot first),
   * so the outcome does not depend on which read finished first.
   */
  readonly ready: Promise<void>;
  /**
   * Tells the handler the address it is served at (`listen()` calls it once bound, port 0
   * included). When no `baseUrl` option was given, the OpenAPI `servers` and the default
   * attribution name this address from now on, and a warning says that no public base URL is
   * set; with a `baseUrl`, it does nothing.
   *
   * @param url - `http://host:port`.
   */
  servedAt(url: string): void;
  /**
   * Takes the process out of rotation before it stops: from now on `/readyz` answers 503
   * `service_busy` saying the server is stopping, so that a load balancer checking it sends no
   * new traffic, while every other request is answered as before. `listen()`'s `close()` calls
   * it; `serve` calls it at the first SIGTERM or SIGINT, before its `--shutdown-delay-ms`. It
   * cannot be undone.
   */
  drain(): void;
  /** Reloads snapshot and keys file (SIGHUP); each keeps its old value when the new one fails. */
  reload(): Promise<{ snapshot: boolean; keys: boolean }>;
  /** Stops timers and file watches. Does not close any server. */
  close(): Promise<void>;
  /** The breaker, for SIGUSR2 (`toggleForced`) and inspection. */
  readonly breaker: Breaker;
  /** This process's own buckets (the store without Redis, and Redis's `local` fallback), for inspection. */
  readonly limiter: Limiter;
  /** The store the pipeline asks: this process's buckets, the cluster primary's, or Redis (docs/api.md §11). */
  readonly limits: LimiterStore;
  /**
   * The Prometheus metrics (docs/api.md §12), when the `metrics` option is on and `ready` has
   * settled; else undefined.
   */
  metrics(): Metrics | undefined;
  /** The snapshot being served, if any. */
  snapshot(): SnapshotIndex | undefined;
  /** Connections whose responses the process holds now (what the breaker compares with `maxInFlight`); see in-flight.ts. */
  inFlight(): number;
  /**
   * Emits `reloaded` (name: 'snapshot' | 'keys') after a swap and `refused` (name, error) when a
   * reload failed and the old value stayed; for tests and operators' metrics.
   */
  readonly events: EventEmitter;
}

/**
 * Creates the API handler. Loading starts at once; until it finishes, API requests get 503
 * `service_busy` (docs/api.md §2: no snapshot loaded). Await `ready` before serving traffic.
 *
 * @param options - see {@link HandlerOptions}; validated here.
 * @throws TypeError when an option is invalid (the message names it).
 */
export function createHandler(options: HandlerOptions = {}): Handler {
  const opts = resolveOptions(options);
  const { now, log } = opts;
  const limiter = new Limiter({ now, sweepIntervalMs: opts.limiterSweepIntervalMs });
  const { limits, opening: storeOpening } = openLimits(opts, limiter, log);
  const eyes = createEyes(opts.accessLog, opts.metrics, opts.trustProxy, log);
  const { observing } = eyes;
  const inFlight = new InFlight();
  const sampler = opts.breaker.sample ? undefined : createLoadSampler({ inFlight: () => inFlight.count });
  const breaker = new Breaker({ now, ...opts.breaker, sample: opts.breaker.sample ?? sampler!.sample });

  const source = opts.snapshotSource;
  const snapshots = new Reloader<SnapshotIndex>({
    name: 'snapshot', load: source ? () => source.load() : () => loadSnapshot(opts.snapshotsDir, undefined, { rowsIn: opts.rowsIn, keptPageBytes: opts.keptPagesMib * MIB }), watchPath: `${opts.snapshotsDir}/${CURRENT_FILE}`,
    watchIntervalMs: opts.watchIntervalMs, log,
    describe: (s) => describeSnapshot(s, opts.snapshotsDir),
    unchanged: source ? (s) => source.unchanged(s) : async (s) => (await readCurrentVersion(opts.snapshotsDir).catch(() => undefined)) === s.version,
  });
  source?.onChange(() => void snapshots.reload());
  const keys = new Reloader<KeyTable>({
    name: 'keys', load: () => readKeysFile(opts.keysFile), watchPath: opts.keysFile, watchIntervalMs: opts.watchIntervalMs, log,
    describe: (table) => `${table.records.length} keys from ${opts.keysFile}`,
  });

  const events = new EventEmitter();
  for (const [name, reloader] of [['snapshot', snapshots], ['keys', keys]] as const) {
    reloader.on('reloaded', () => events.emit('reloaded', name));
    reloader.on('refused', (error: Error) => events.emit('refused', name, error));
  }

  const metricsOpening = eyes.openMetrics({ breaker, limiter, limits, events, snapshot: () => snapshots.current, inFlight: () => inFlight.count });
  const ready = Promise.allSettled([snapshots.start(), keys.start(), storeOpening, metricsOpening]).then((loads) => {
    const failures = loads.flatMap((load) => (load.status === 'rejected' ? [load.reason as Error] : []));
    if (failures.length === 1) throw failures[0]!;
    if (failures.length > 1) throw new Error(failures.map((error) => String(error.message)).join('; '), { cause: failures });
    if (isDemoKeysFile(opts.keysFile)) log('WARNING: serving with the demo keys (keys.demo.json); their keys are public. Use --keys for real ones.', 'warn');
    if (opts.watchIntervalMs > 0) {
      if (!source) snapshots.watch();
      keys.watch();
    }
    breaker.start();
  });
  ready.catch(() => {}); // the caller awaits `ready`; this keeps an early failure from being unhandled

  const idPrefix = randomBytes(4).toString('hex');
  let requestCounter = 0;
  /** `X-Request-Id` of the next answer: this handler's random prefix and a counter in base 36. */
  const nextRequestId = (): string => `${idPrefix}-${(requestCounter++).toString(36)}`;

  const stopping = { current: false };
  const context = new PipelineContext({ opts, breaker, limits, snapshots, keys, stopping, onSent: eyes.onSent });
  const pipeline = new Pipeline(context);
  // A refusal has no request: the access log and metrics get one that names no method or path.
  const refused: RefusalHook | undefined = eyes.onSent === undefined ? undefined : (socket, requestId, code, bytes) => {
    const res = { [NOTE]: newNote(requestId, now()) } as unknown as ServerResponse;
    eyes.onSent!({ method: undefined, url: '-', socket } as IncomingMessage, res, ERRORS[code].status, bytes, code);
  };
  const refusals = createSocketRefusals(() => context.responder, nextRequestId, refused);

  return {
    handle(req, res) {
      const requestId = nextRequestId();
      let note: RequestNote | undefined;
      if (observing) (res as NotedResponse)[NOTE] = note = newNote(requestId, now());
      const request = new RequestState(req, res, requestId, note);
      try {
        pipeline.dispatch(request);
      } catch (error) {
        context.failed(request, error);
      } finally {
        // Every answer above is written before this line, so a response is in flight only while
        // the process still holds some of its bytes (a slow reader's) or, after a bug, was never
        // ended. Only those get a 'close' listener: one per response cost about 2 % of filings
        // req/s, for a count that is 0 whenever the socket took the whole response at once.
        if (!res.writableEnded || res.writableLength > 0) inFlight.hold(req, res);
      }
    },
    clientError: refusals.clientError,
    connect: refusals.connect,
    ready,
    servedAt(url) {
      if (!context.servedAt(url)) return;
      log(`WARNING: no public base URL is set (EQF_BASE_URL, or the baseUrl option); the OpenAPI servers and the attribution name ${url}, ` +
        'the address served. Set the address clients use.', 'warn');
    },
    drain() {
      stopping.current = true;
    },
    async reload() {
      const [snapshot, keysOk] = await Promise.all([snapshots.reload(), keys.reload()]);
      return { snapshot, keys: keysOk };
    },
    async close() {
      breaker.stop();
      sampler?.stop();
      await limiter.close();
      if (limits !== limiter) await limits.close();
      eyes.close();
      snapshots.close();
      keys.close();
      await ready.catch(() => {});
    },
    breaker,
    limiter,
    limits,
    metrics: eyes.metrics,
    snapshot: () => snapshots.current,
    inFlight: () => inFlight.count,
    events,
  };
}
