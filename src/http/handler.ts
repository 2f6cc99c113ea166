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
import { findPlan, type Plan } from '../plans.js';
import { API_PREFIX, ALLOWED_METHODS, findRoute, type Route } from '../routes.js';
import { Breaker } from '../guard/breaker.js';
import { Limiter, type LimitDecision } from '../guard/limiter.js';
import { limitsDetail, openLimits, type LimiterStore } from '../guard/limiter-store.js';
import { createLoadSampler } from '../guard/load-sampler.js';
import { appendRateLimitFields } from '../guard/rate-limit-headers.js';
import { Reloader } from '../data/reloader.js';
import { loadSnapshot, type SnapshotIndex } from '../data/snapshot-index.js';
import { pageBytes, pageLength } from '../data/page.js';
import { CURRENT_FILE } from '../data/snapshot-format.js';
import { readCurrentVersion } from '../data/snapshot-reader.js';
import { readKeysFile, type KeyRecord, type KeyTable } from '../keys/keys-file.js';
import { buildOpenApiDocument } from '../openapi/document.js';
import { DEFAULT_BASE_URL, defaultAttribution, isDemoKeysFile, resolveOptions, type HandlerOptions } from '../options.js';
import { PACKAGE_VERSION } from '../version.js';
import { presentedKey } from './auth.js';
import { hasKeyInQuery, parseListQuery, quickListQuery, splitQuery, type ListQuery } from './params.js';
import { PreparedBody, chooseEncoding, createResponder, type HeaderFields } from './respond.js';
import { CORS_FIELDS, isPreflight, PREFLIGHT_FIELDS } from './cors.js';
import { answerDocs, DOCS_PATH } from './docs-page.js';
import { ifNoneMatchMatches, strongTag } from './etag.js';
import { findPage, nextPageLink, type ListPage } from './list-page.js';
import { metaRow } from './meta-row.js';
import { createSocketRefusals } from './client-error.js';
import { readFraming } from './protocol.js';
import { quoteInput } from './quote.js';
import { InFlight } from './in-flight.js';
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
  /** This process's own buckets (the store without Redis, and Redis's `local` fallback), for inspection. */
  readonly limiter: Limiter;
  /** The store the pipeline asks: this process's buckets, the cluster primary's, or Redis (decisions §11). */
  readonly limits: LimiterStore;
  /**
   * The Prometheus metrics (decisions §12), when the `metrics` option is on and `ready` has
   * settled; else undefined.
   */
  metrics(): Metrics | undefined;
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
  const limiter = new Limiter({ now, sweepIntervalMs: opts.limiterSweepIntervalMs });
  const { limits, opening: storeOpening } = openLimits(opts, limiter, log);
  const eyes = createEyes(opts.accessLog, opts.metrics);
  const { observing } = eyes;
  // The base address names the service in the OpenAPI servers, the default attribution and
  // the Link of a next page; without one set, listen() gives the address it serves at (servedAt).
  let baseUrl = opts.baseUrl ?? DEFAULT_BASE_URL;
  const attribution = (): string => opts.attribution ?? defaultAttribution(baseUrl);
  let responder = createResponder(opts.license, attribution(), opts.compressMinBytes, eyes.onSent);
  // The OpenAPI document, built on first request (then again only if the base address changes),
  // compressed at most once per coding, with a strong tag per coding (decisions §10).
  let openApi: { body: PreparedBody; bytes: number; tags: Readonly<Record<'identity' | 'br' | 'gzip', string>> } | undefined;
  const openApiDocument = (): NonNullable<typeof openApi> => {
    const json = JSON.stringify(buildOpenApiDocument({ baseUrl, license: opts.license, attribution: attribution(), packageVersion: PACKAGE_VERSION }));
    const body = new PreparedBody(json);
    return { body, bytes: body.identity.length, tags: { identity: strongTag(json), br: strongTag(json, 'br'), gzip: strongTag(json, 'gzip') } };
  };
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

  const metricsOpening = eyes.openMetrics({ breaker, limiter, limits, events, snapshot: () => snapshots.current, inFlight: () => inFlight.count });
  const ready = Promise.allSettled([snapshots.start(), keys.start(), storeOpening, metricsOpening]).then((loads) => {
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

  function dispatch(req: IncomingMessage, res: ServerResponse, requestId: string, note: RequestNote | undefined): void {
    const url = req.url ?? '/';
    const q = url.indexOf('?');
    const pathEnd = q === -1 ? url.length : q;
    const snapshot = snapshots.current;
    // The response's header fields, grown step by step; whichever step answers sends them.
    const fields: HeaderFields = snapshot === undefined
      ? ['X-Request-Id', requestId]
      : ['X-Request-Id', requestId, 'X-Snapshot-Version', snapshot.version];

    // 1. Breaker: everything under /api/v1, the document included (decisions §8). Every answer
    // there is readable from any origin (decisions §12), refusals included.
    const underApi = url.startsWith(API_PREFIX) && (pathEnd === API_PREFIX.length || url.startsWith(API_PATH_START));
    if (underApi) {
      fields.push(CORS_FIELDS[0]!, CORS_FIELDS[1]!, CORS_FIELDS[2]!, CORS_FIELDS[3]!);
      if (!breaker.admit()) return responder.sendError(req, res, errorAnswer('service_busy', undefined, breaker.retryAfterSeconds), fields);
      // admit() itself may move open → half_open; read the state after it to know a trial.
      if (breaker.state === 'half_open') res.once('close', () => breaker.trialDone());
    }
    // 2. Route.
    const match = findRoute(req.method ?? 'GET', url, pathEnd);
    if (match.status === 'not_found') return responder.sendError(req, res, errorAnswer('not_found', `No such path: ${quoteInput(url.slice(0, pathEnd), isKnownKey)}`), fields);
    if (match.status === 'method_not_allowed') {
      // A CORS preflight needs no key and takes no token (decisions §12); any other OPTIONS is a 405.
      if (underApi && isPreflight(req.method, req.headers)) {
        fields.push(...PREFLIGHT_FIELDS);
        res.writeHead(204, fields);
        res.end();
        return;
      }
      fields.push('Allow', ALLOWED_METHODS);
      return responder.sendError(req, res, METHOD_NOT_ALLOWED, fields);
    }
    const route = match.route;
    const target = route.target;
    if (note !== undefined) note.route = route;
    // A list request's usual query is read in one pass; any other query is split into pairs.
    const quick = target.kind === 'rows' && q !== -1 ? quickListQuery(url, q + 1, route) : undefined;
    const { pairs, malformed } = splitQuery(q === -1 || quick !== undefined ? '' : url.slice(q + 1));
    if (target.kind === 'docs' || target.kind === 'docsAsset') {
      const refused = answerDocs(req, res, target.kind === 'docs' ? '' : url.slice(DOCS_PATH.length + 1, pathEnd), fields);
      return refused === undefined ? undefined : responder.sendError(req, res, refused, fields);
    }
    if (target.kind === 'healthz') {
      fields.push('Cache-Control', 'no-store');
      return responder.send(req, res, 200, fields, '{"ok":true,"status":"live"}');
    }
    if (target.kind === 'readyz') {
      if (!snapshot || !keys.current || breaker.state !== 'closed') {
        return responder.sendError(req, res, errorAnswer('service_busy', snapshot ? 'The breaker is open.' : 'No snapshot is loaded yet.', breaker.retryAfterSeconds), fields);
      }
      fields.push('Cache-Control', 'no-store');
      return responder.send(req, res, 200, fields, `{"ok":true,"status":"ready","snapshot_version":${JSON.stringify(snapshot.version)},"limits":${limitsDetail(limits.state())}}`);
    }
    if (target.kind === 'openapi') {
      try {
        parseListQuery(pairs, malformed, route, isKnownKey);
      } catch (error) {
        return responder.sendError(req, res, error as ApiError, fields);
      }
      fields.push('Cache-Control', 'public, max-age=300');
      // A strong tag per content coding (decisions §10): each coding is another representation.
      const document = openApi ??= openApiDocument();
      const coding = document.bytes > opts.compressMinBytes ? chooseEncoding(req.headers['accept-encoding']) : null;
      const tag = document.tags[coding ?? 'identity'];
      fields.push('ETag', tag);
      const condition = req.headers['if-none-match'];
      if (condition !== undefined && ifNoneMatchMatches(condition, tag)) return responder.sendNotModified(res, fields, document.bytes);
      return responder.send(req, res, 200, fields, document.body);
    }
    const keyTable = keys.current;
    if (!snapshot || !keyTable) return responder.sendError(req, res, NOT_LOADED, fields);

    // 3-6. Key, account, subscription, plan. None of these reach the limiter.
    fields.push('Cache-Control', 'private, no-cache', 'Vary', 'Authorization, X-API-Key');
    const presented = presentedKey(req.headers, hasKeyInQuery(pairs));
    if (typeof presented !== 'string') return responder.sendError(req, res, presented, fields);
    const key = keyTable.find(presented);
    if (!key) return responder.sendError(req, res, UNKNOWN_KEY, fields);
    if (note !== undefined) {
      note.keyId = key.id;
      note.plan = key.plan;
    }
    if (key.status === 'inactive') return responder.sendError(req, res, ACCOUNT_UNAVAILABLE, fields);
    if (key.status === 'suspended') return responder.sendError(req, res, SUBSCRIPTION_SUSPENDED, fields);
    const plan = findPlan(key.plan);
    if (!plan) return responder.sendError(req, res, NOT_ON_PLAN, fields);

    // 7. Parameters, read before the limits so that a conditional request whose parameters are
    // valid is answered 304 with no token (decisions §10). A 400 is sent after the limits: it has
    // consumed its token (decisions §1).
    let query: ListQuery | undefined;
    let problem: ErrorAnswer | undefined;
    try {
      query = quick ?? parseListQuery(pairs, malformed, route, isKnownKey);
    } catch (error) {
      if (!(error instanceof ApiError)) throw error;
      problem = error;
    }
    if (note !== undefined && query !== undefined) note.query = query;
    let page: ListPage | undefined;
    if (query !== undefined && target.kind === 'rows') {
      const found = findPage(snapshot, target.rows, query, plan);
      if ('list' in found) page = found;
      else problem = found;
    }
    const queryString = q === -1 ? '' : url.slice(q + 1);
    if (page !== undefined) {
      const condition = req.headers['if-none-match'];
      if (condition !== undefined && ifNoneMatchMatches(condition, page.tag)) {
        const notModified = (peeked: LimitDecision): void => {
          appendRateLimitFields(fields, peeked);
          fields.push('ETag', page.tag);
          responder.sendNotModified(res, fields, responder.successLength(pageLength(page.list, page.variant, page.position, page.count), page.count));
        };
        const peeked = limits.peek(key.id, plan);
        if (peeked instanceof Promise) peeked.then(notModified, (error: unknown) => failed(req, res, requestId, error, fields));
        else notModified(peeked);
        return;
      }
    }

    // 8. Limits: meta reads usage without spending it (decisions §3). A store in another process
    // answers later, and the pipeline goes on from here then; this process's store answers now.
    const decision = route.countsAgainstLimits ? limits.take(key.id, plan) : limits.peek(key.id, plan);
    if (decision instanceof Promise) {
      decision.then(
        (later) => {
          try {
            afterLimits(req, res, fields, route, key, plan, snapshot, page, problem, queryString, later);
          } catch (error) {
            failed(req, res, requestId, error, fields);
          }
        },
        // A store that cannot decide refuses with 503 service_busy (decisions §11, closed).
        (error: unknown) => failed(req, res, requestId, error, fields),
      );
      return;
    }
    afterLimits(req, res, fields, route, key, plan, snapshot, page, problem, queryString, decision);
  }

  /** Steps 8 (the limiter's answer) to 10 of {@link dispatch}. */
  function afterLimits(
    req: IncomingMessage, res: ServerResponse, fields: HeaderFields, route: Route, key: KeyRecord, plan: Plan, snapshot: SnapshotIndex,
    page: ListPage | undefined, problem: ErrorAnswer | undefined, queryString: string, decision: LimitDecision,
  ): void {
    appendRateLimitFields(fields, decision);
    if (route.countsAgainstLimits && !decision.allowed) {
      return responder.sendError(req, res, errorAnswer(decision.code!, undefined, decision.retryAfterSeconds), fields);
    }
    // 9. Parameters (a 400 has consumed its token).
    if (problem !== undefined) return responder.sendError(req, res, problem, fields);
    // 10. Rows.
    if (route.target.kind === 'meta') {
      return responder.sendSuccess(req, res, fields, JSON.stringify(metaRow(key, plan, decision, snapshot.manifest)), 1, asOf());
    }
    if (page !== undefined) {
      fields.push('ETag', page.tag);
      const link = nextPageLink(page, baseUrl, route.path, queryString);
      if (link !== undefined) fields.push('Link', link);
      return responder.sendSuccess(req, res, fields, pageBytes(page.list, page.variant, page.position, page.count), page.count, asOf());
    }
    throw new Error(`route ${route.path} has no answer`);
  }

  /**
   * Answers a request whose pipeline threw or whose store refused: an ApiError becomes its
   * envelope (with the response's fields so far, when given), anything else is a bug, logged
   * with its stack and answered 500 with the request id (never the stack).
   */
  function failed(req: IncomingMessage, res: ServerResponse, requestId: string, error: unknown, fields?: HeaderFields): void {
    if (error instanceof ApiError) {
      if (!res.headersSent) responder.sendError(req, res, error, fields ?? ['X-Request-Id', requestId]);
      return;
    }
    // The path only: the query string may hold a key and is never logged.
    log(`internal error ${requestId} on ${req.method} ${(req.url ?? '').split('?')[0]}: ${(error as Error).stack ?? String(error)}`);
    if (!res.headersSent) {
      responder.sendError(req, res, new ApiError('internal_error', `Internal error; request id ${requestId}.`), ['X-Request-Id', requestId]);
    } else {
      res.destroy();
    }
  }

  return {
    handle(req, res) {
      const requestId = nextRequestId();
      let note: RequestNote | undefined;
      if (observing) (res as NotedResponse)[NOTE] = note = newNote(requestId, now());
      try {
        // HTTP/1.1's own refusals and a body (decisions §12): answered, then the connection
        // closes, so a body is never read and a refusal is never followed by another answer.
        const framing = readFraming(req);
        if (framing.body) res.shouldKeepAlive = false;
        if (framing.refusal !== undefined) {
          res.shouldKeepAlive = false;
          responder.sendError(req, res, framing.refusal, ['X-Request-Id', requestId]);
        } else {
          dispatch(req, res, requestId, note);
        }
      } catch (error) {
        failed(req, res, requestId, error);
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
      responder = createResponder(opts.license, attribution(), opts.compressMinBytes, eyes.onSent);
      openApi = undefined;
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
