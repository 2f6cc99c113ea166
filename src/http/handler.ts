/**
 * The embeddable API: `createHandler(options)` returns a `(req, res)` handler that an existing
 * `node:http` server can mount. A request runs one fixed pipeline (decisions §1, order of
 * checks): breaker → route → key → account → plan → limits → params → rows → respond.
 */
import { randomBytes } from 'node:crypto';
import { EventEmitter } from 'node:events';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import { ApiError, errorAnswer, type ErrorAnswer } from '../errors.js';
import { findPlan } from '../plans.js';
import { API_PREFIX, ALLOWED_METHODS, findRoute } from '../routes.js';
import { Breaker } from '../guard/breaker.js';
import { Limiter } from '../guard/limiter.js';
import { createLoadSampler } from '../guard/load-sampler.js';
import { appendRateLimitFields } from '../guard/rate-limit-headers.js';
import { Reloader } from '../data/reloader.js';
import { loadSnapshot, type SnapshotIndex } from '../data/snapshot-index.js';
import { pageBytes } from '../data/page.js';
import { CURRENT_FILE } from '../data/snapshot-format.js';
import { readCurrentVersion } from '../data/snapshot-reader.js';
import { readKeysFile, type KeyTable } from '../keys/keys-file.js';
import { buildOpenApiDocument } from '../openapi/document.js';
import { DEFAULT_BASE_URL, defaultAttribution, isDemoKeysFile, resolveOptions, type HandlerOptions } from '../options.js';
import { PACKAGE_VERSION } from '../version.js';
import { presentedKey } from './auth.js';
import { hasKeyInQuery, parseListQuery, quickListQuery, splitQuery } from './params.js';
import { PreparedBody, createResponder, type HeaderFields } from './respond.js';
import { metaRow } from './meta-row.js';
import { createSocketRefusals } from './client-error.js';
import { readFraming } from './protocol.js';
import { quoteInput } from './quote.js';
import { InFlight } from './in-flight.js';

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
   * on the connection (never inside one), then the connection closes (decisions §12).
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
  /** Reloads snapshot and keys file (SIGHUP); each keeps its old value when the new one fails. */
  reload(): Promise<{ snapshot: boolean; keys: boolean }>;
  /** Stops timers and file watches. Does not close any server. */
  close(): Promise<void>;
  /** The breaker, for SIGUSR2 (`toggleForced`) and inspection. */
  readonly breaker: Breaker;
  /** The limiter, for inspection. */
  readonly limiter: Limiter;
  /** The snapshot being served, if any. */
  snapshot(): SnapshotIndex | undefined;
  /** Responses the process holds now (what the breaker compares with `maxInFlight`); see in-flight.ts. */
  inFlight(): number;
  /**
   * Emits `reloaded` (name: 'snapshot' | 'keys') after a swap and `refused` (name, error) when a
   * reload failed and the old value stayed; for tests and operators' metrics.
   */
  readonly events: EventEmitter;
}

/** Start of every path under the API prefix. */
const API_PATH_START = `${API_PREFIX}/`;

// Refusals whose text never changes, made once.
const METHOD_NOT_ALLOWED: ErrorAnswer = Object.freeze(errorAnswer('method_not_allowed'));
const NOT_LOADED: ErrorAnswer = Object.freeze(errorAnswer('service_busy', 'No snapshot is loaded yet.', 1));
const UNKNOWN_KEY: ErrorAnswer = Object.freeze(errorAnswer('invalid_api_key', 'The API key is not known.'));
const ACCOUNT_UNAVAILABLE: ErrorAnswer = Object.freeze(errorAnswer('account_unavailable'));
const SUBSCRIPTION_SUSPENDED: ErrorAnswer = Object.freeze(errorAnswer('subscription_suspended'));
const NOT_ON_PLAN: ErrorAnswer = Object.freeze(errorAnswer('api_not_available_on_plan'));

/**
 * Creates the API handler. Loading starts at once; until it finishes, API requests get 503
 * `service_busy` (decisions §2: no snapshot loaded). Await `ready` before serving traffic.
 *
 * @param options - see {@link HandlerOptions}; validated here.
 * @throws TypeError when an option is invalid (the message names it).
 */
export function createHandler(options: HandlerOptions = {}): Handler {
  const opts = resolveOptions(options);
  const { now, log } = opts;
  // The base address names the service in the OpenAPI servers and the default attribution;
  // without one set, listen() gives the address it serves at (see servedAt).
  let baseUrl = opts.baseUrl ?? DEFAULT_BASE_URL;
  const attribution = (): string => opts.attribution ?? defaultAttribution(baseUrl);
  const openApiDocument = (): PreparedBody => new PreparedBody(JSON.stringify(buildOpenApiDocument({
    baseUrl, license: opts.license, attribution: attribution(), packageVersion: PACKAGE_VERSION,
  })));
  let responder = createResponder(opts.license, attribution(), opts.compressMinBytes);
  // Built on first request, then again only if the base address changes.
  let openApiBody: PreparedBody | undefined;
  const limiter = new Limiter({ now, sweepIntervalMs: opts.limiterSweepIntervalMs });
  const inFlight = new InFlight();
  const sampler = opts.breaker.sample ? undefined : createLoadSampler({ inFlight: () => inFlight.count });
  const breaker = new Breaker({ now, ...opts.breaker, sample: opts.breaker.sample ?? sampler!.sample });

  const snapshots = new Reloader<SnapshotIndex>({
    name: 'snapshot', load: () => loadSnapshot(opts.snapshotsDir), watchPath: `${opts.snapshotsDir}/${CURRENT_FILE}`,
    watchIntervalMs: opts.watchIntervalMs, log,
    describe: (s) => `version ${s.version} from ${opts.snapshotsDir} (${Object.entries(s.rowCounts).map(([k, n]) => `${k} ${n}`).join(', ')})`,
    unchanged: async (s) => (await readCurrentVersion(opts.snapshotsDir).catch(() => undefined)) === s.version,
  });
  const keys = new Reloader<KeyTable>({
    name: 'keys', load: () => readKeysFile(opts.keysFile), watchPath: opts.keysFile, watchIntervalMs: opts.watchIntervalMs, log,
    describe: (table) => `${table.records.length} keys from ${opts.keysFile}`,
  });

  const events = new EventEmitter();
  for (const [name, reloader] of [['snapshot', snapshots], ['keys', keys]] as const) {
    reloader.on('reloaded', () => events.emit('reloaded', name));
    reloader.on('refused', (error: Error) => events.emit('refused', name, error));
  }

  const ready = Promise.allSettled([snapshots.start(), keys.start()]).then((loads) => {
    const failures = loads.flatMap((load) => (load.status === 'rejected' ? [load.reason as Error] : []));
    if (failures.length === 1) throw failures[0]!;
    if (failures.length > 1) throw new Error(failures.map((error) => String(error.message)).join('; '), { cause: failures });
    if (isDemoKeysFile(opts.keysFile)) log('WARNING: serving with the demo keys (keys.demo.json); their keys are public. Use --keys for real ones.');
    if (opts.watchIntervalMs > 0) {
      snapshots.watch();
      keys.watch();
    }
    breaker.start();
  });
  ready.catch(() => {}); // the caller awaits `ready`; this keeps an early failure from being unhandled

  const idPrefix = randomBytes(4).toString('hex');
  let requestCounter = 0;
  /** `X-Request-Id` of the next answer: this handler's random prefix and a counter in base 36. */
  const nextRequestId = (): string => `${idPrefix}-${(requestCounter++).toString(36)}`;

  // as_of is the clock at the response (decisions §5); responses in the same millisecond share
  // its text, which Date#toISOString would otherwise build each time.
  let asOfMs = Number.NaN;
  let asOfText = '';
  const asOf = (): string => {
    const ms = now();
    if (ms !== asOfMs) {
      asOfMs = ms;
      asOfText = new Date(ms).toISOString();
    }
    return asOfText;
  };

  const refusals = createSocketRefusals(() => responder, nextRequestId);

  /** Whether a token of client input is one of the keys served, so that no detail quotes it. */
  const isKnownKey = (token: string): boolean => keys.current?.find(token) !== undefined;

  function dispatch(req: IncomingMessage, res: ServerResponse, requestId: string): void {
    const url = req.url ?? '/';
    const q = url.indexOf('?');
    const pathEnd = q === -1 ? url.length : q;
    const snapshot = snapshots.current;
    // The response's header fields, grown step by step; whichever step answers sends them.
    const fields: HeaderFields = snapshot === undefined
      ? ['X-Request-Id', requestId]
      : ['X-Request-Id', requestId, 'X-Snapshot-Version', snapshot.version];

    // 1. Breaker: everything under /api/v1, the document included (decisions §8).
    if (url.startsWith(API_PREFIX) && (pathEnd === API_PREFIX.length || url.startsWith(API_PATH_START))) {
      if (!breaker.admit()) return responder.sendError(req, res, errorAnswer('service_busy', undefined, breaker.retryAfterSeconds), fields);
      // admit() itself may move open → half_open; read the state after it to know a trial.
      if (breaker.state === 'half_open') res.once('close', () => breaker.trialDone());
    }
    // 2. Route.
    const match = findRoute(req.method ?? 'GET', url, pathEnd);
    if (match.status === 'not_found') return responder.sendError(req, res, errorAnswer('not_found', `No such path: ${quoteInput(url.slice(0, pathEnd), isKnownKey)}`), fields);
    if (match.status === 'method_not_allowed') {
      fields.push('Allow', ALLOWED_METHODS);
      return responder.sendError(req, res, METHOD_NOT_ALLOWED, fields);
    }
    const route = match.route;
    const target = route.target;
    // A list request's usual query is read in one pass; any other query is split into pairs.
    const quick = target.kind === 'rows' && q !== -1 ? quickListQuery(url, q + 1, route) : undefined;
    const { pairs, malformed } = splitQuery(q === -1 || quick !== undefined ? '' : url.slice(q + 1));
    if (target.kind === 'healthz') {
      fields.push('Cache-Control', 'no-store');
      return responder.send(req, res, 200, fields, '{"ok":true,"status":"live"}');
    }
    if (target.kind === 'readyz') {
      if (!snapshot || !keys.current || breaker.state !== 'closed') {
        return responder.sendError(req, res, errorAnswer('service_busy', snapshot ? 'The breaker is open.' : 'No snapshot is loaded yet.', breaker.retryAfterSeconds), fields);
      }
      fields.push('Cache-Control', 'no-store');
      return responder.send(req, res, 200, fields, `{"ok":true,"status":"ready","snapshot_version":${JSON.stringify(snapshot.version)}}`);
    }
    if (target.kind === 'openapi') {
      try {
        parseListQuery(pairs, malformed, route, isKnownKey);
      } catch (error) {
        return responder.sendError(req, res, error as ApiError, fields);
      }
      fields.push('Cache-Control', 'public, max-age=300');
      return responder.send(req, res, 200, fields, openApiBody ??= openApiDocument());
    }
    const keyTable = keys.current;
    if (!snapshot || !keyTable) return responder.sendError(req, res, NOT_LOADED, fields);

    // 3-6. Key, account, subscription, plan. None of these reach the limiter.
    fields.push('Cache-Control', 'private, no-cache', 'Vary', 'Authorization, X-API-Key');
    const presented = presentedKey(req.headers, hasKeyInQuery(pairs));
    if (typeof presented !== 'string') return responder.sendError(req, res, presented, fields);
    const key = keyTable.find(presented);
    if (!key) return responder.sendError(req, res, UNKNOWN_KEY, fields);
    if (key.status === 'inactive') return responder.sendError(req, res, ACCOUNT_UNAVAILABLE, fields);
    if (key.status === 'suspended') return responder.sendError(req, res, SUBSCRIPTION_SUSPENDED, fields);
    const plan = findPlan(key.plan);
    if (!plan) return responder.sendError(req, res, NOT_ON_PLAN, fields);

    // 7. Limits: meta reads usage without spending it (decisions §3).
    const decision = route.countsAgainstLimits ? limiter.take(key.id, plan) : limiter.peek(key.id, plan);
    appendRateLimitFields(fields, decision);
    if (route.countsAgainstLimits && !decision.allowed) {
      return responder.sendError(req, res, errorAnswer(decision.code!, undefined, decision.retryAfterSeconds), fields);
    }
    // 8. Parameters (a 400 has consumed its token).
    let query;
    try {
      query = quick ?? parseListQuery(pairs, malformed, route, isKnownKey);
    } catch (error) {
      return responder.sendError(req, res, error as ApiError, fields);
    }
    // 9. Rows.
    if (target.kind === 'meta') {
      return responder.sendSuccess(req, res, fields, JSON.stringify(metaRow(key, plan, decision, snapshot.manifest)), 1, asOf());
    }
    if (target.kind === 'rows') {
      const page = snapshot.list(target.rows, query.key);
      const count = Math.min(query.limit, plan.maxPageSize, page.length);
      return responder.sendSuccess(req, res, fields, pageBytes(page, plan.summaries ? 'full' : 'facts', count), count, asOf());
    }
    throw new Error(`route ${route.path} has no answer`);
  }

  return {
    handle(req, res) {
      const requestId = nextRequestId();
      try {
        // HTTP/1.1's own refusals and a body (decisions §12): answered, then the connection
        // closes, so a body is never read and a refusal is never followed by another answer.
        const framing = readFraming(req);
        if (framing.body) res.shouldKeepAlive = false;
        if (framing.refusal !== undefined) {
          res.shouldKeepAlive = false;
          responder.sendError(req, res, framing.refusal, ['X-Request-Id', requestId]);
        } else {
          dispatch(req, res, requestId);
        }
      } catch (error) {
        if (error instanceof ApiError) {
          responder.sendError(req, res, error, ['X-Request-Id', requestId]);
          return;
        }
        // The path only: the query string may hold a key and is never logged.
        log(`internal error ${requestId} on ${req.method} ${(req.url ?? '').split('?')[0]}: ${(error as Error).stack ?? String(error)}`);
        if (!res.headersSent) {
          responder.sendError(req, res, new ApiError('internal_error', `Internal error; request id ${requestId}.`), ['X-Request-Id', requestId]);
        } else {
          res.destroy();
        }
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
      if (opts.baseUrl !== undefined) return;
      baseUrl = url;
      responder = createResponder(opts.license, attribution(), opts.compressMinBytes);
      openApiBody = undefined;
      log(`WARNING: no public base URL is set (EQF_BASE_URL, or the baseUrl option); the OpenAPI servers and the attribution name ${url}, ` +
        'the address served. Set the address clients use.');
    },
    async reload() {
      const [snapshot, keysOk] = await Promise.all([snapshots.reload(), keys.reload()]);
      return { snapshot, keys: keysOk };
    },
    async close() {
      breaker.stop();
      sampler?.stop();
      limiter.close();
      snapshots.close();
      keys.close();
      await ready.catch(() => {});
    },
    breaker,
    limiter,
    snapshot: () => snapshots.current,
    inFlight: () => inFlight.count,
    events,
  };
}
