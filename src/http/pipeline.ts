/**
 * The request pipeline (docs/api.md §1, order of checks): breaker → route → key → account →
 * subscription → plan → parameters (a matching `If-None-Match` answers 304 here, docs/api.md §10)
 * → limits → rows → respond. It receives its parts already built ({@link createHandler} wires
 * them) and reads them; it never builds one.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { ApiError, errorAnswer, type ErrorAnswer } from '../errors.js';
import { findPlan, type Plan } from '../plans.js';
import { API_PREFIX, ALLOWED_METHODS, findRoute, type Route } from '../routes.js';
import type { Breaker } from '../guard/breaker.js';
import type { LimitDecision, LimiterStore } from '../guard/limiter-store.js';
import { limitsDetail } from '../guard/open-limits.js';
import { appendRateLimitFields } from '../guard/rate-limit-headers.js';
import type { SnapshotIndex } from '../data/snapshot-index.js';
import { pageBytes, pageLength } from '../data/page.js';
import type { KeyRecord, KeyTable } from '../keys/keys-file.js';
import { hasExpired } from '../keys/lifecycle.js';
import { buildOpenApiDocument } from '../openapi/document.js';
import { DEFAULT_BASE_URL, defaultAttribution, type ResolvedOptions } from '../options.js';
import { PACKAGE_VERSION } from '../version.js';
import type { RequestNote } from '../ops/observer.js';
import { presentedKey } from './auth.js';
import { hasKeyInQuery, parseListQuery, quickListQuery, splitQuery, type ListQuery } from './params.js';
import { PreparedBody, chooseEncoding, createResponder, type HeaderFields, type Responder, type SentHook } from './respond.js';
import { CORS_FIELDS, isPreflight, PREFLIGHT_FIELDS } from './cors.js';
import { answerDocs, DOCS_PATH, FAVICON_NAME } from './docs-page.js';
import { ifNoneMatchMatches, strongTag } from './etag.js';
import { findPage, nextPageLink, type ListPage } from './list-page.js';
import { metaRow } from './meta-row.js';
import { quoteInput } from './quote.js';

/** Start of every path under the API prefix. */
const API_PATH_START = `${API_PREFIX}/`;

// Refusals whose text never changes, made once.
const METHOD_NOT_ALLOWED: ErrorAnswer = Object.freeze(errorAnswer('method_not_allowed'));
const NOT_LOADED: ErrorAnswer = Object.freeze(errorAnswer('service_busy', 'No snapshot is loaded yet.', 1));
const UNKNOWN_KEY: ErrorAnswer = Object.freeze(errorAnswer('invalid_api_key', 'The API key is not known.'));
const ACCOUNT_UNAVAILABLE: ErrorAnswer = Object.freeze(errorAnswer('account_unavailable'));
const SUBSCRIPTION_SUSPENDED: ErrorAnswer = Object.freeze(errorAnswer('subscription_suspended'));
const NOT_ON_PLAN: ErrorAnswer = Object.freeze(errorAnswer('api_not_available_on_plan'));
const STOPPING: ErrorAnswer = Object.freeze(errorAnswer('service_busy', 'The server is stopping; send new requests to another host.', 1));

/** What the pipeline reads: the parts {@link createHandler} built. */
export interface PipelineParts {
  readonly opts: ResolvedOptions;
  readonly breaker: Breaker;
  /** The store the limits step asks (local, the cluster primary, or Redis). */
  readonly limits: LimiterStore;
  /** The snapshot being served (a reloader's current value). */
  readonly snapshots: { readonly current: SnapshotIndex | undefined };
  /** The keys table being served (a reloader's current value). */
  readonly keys: { readonly current: KeyTable | undefined };
  /** Whether the process is stopping (set by `Handler.drain`): `/readyz` then answers 503. */
  readonly stopping: { readonly current: boolean };
  /** The access log's and metrics' hook on every response, if either is on. */
  readonly onSent: SentHook | undefined;
}

/** The pipeline of one handler. */
export interface Pipeline {
  /** Answers one request whose framing was accepted; may answer later when the limiter store does. */
  dispatch(req: IncomingMessage, res: ServerResponse, requestId: string, note: RequestNote | undefined): void;
  /**
   * Answers a request whose pipeline threw or whose store refused: an ApiError becomes its
   * envelope (with the response's fields so far, when given), anything else is a bug, logged
   * with its stack and answered 500 with the request id (never the stack).
   */
  failed(req: IncomingMessage, res: ServerResponse, requestId: string, error: unknown, fields?: HeaderFields): void;
  /** The responder of the moment (it names the base address in `attribution`). */
  responder(): Responder;
  /**
   * Takes the address actually served as the base address when no public one was set: the
   * OpenAPI servers, the default attribution and the next page's Link name it from then on.
   *
   * @returns whether it was taken (false when a base address was set).
   */
  servedAt(url: string): boolean;
}

/** The header fields every response starts with (docs/api.md §5 and §12). */
export function firstFields(requestId: string): HeaderFields {
  return ['X-Request-Id', requestId, 'X-Content-Type-Options', 'nosniff'];
}

/**
 * Builds the pipeline.
 *
 * @param parts - what it reads; see {@link PipelineParts}.
 */
export function createPipeline(parts: PipelineParts): Pipeline {
  const { opts, breaker, limits, snapshots, keys, stopping, onSent } = parts;
  const { now, log } = opts;
  // The base address names the service in the OpenAPI servers, the default attribution and
  // the Link of a next page; without one set, listen() gives the address it serves at (servedAt).
  let baseUrl = opts.baseUrl ?? DEFAULT_BASE_URL;
  const attribution = (): string => opts.attribution ?? defaultAttribution(baseUrl);
  let responder = createResponder(opts.license, attribution(), opts.compressMinBytes, onSent);
  // The OpenAPI document, built on first request (then again only if the base address changes),
  // compressed at most once per coding, with a strong tag per coding (docs/api.md §10).
  let openApi: { body: PreparedBody; bytes: number; tags: Readonly<Record<'identity' | 'br' | 'gzip', string>> } | undefined;
  const openApiDocument = (): NonNullable<typeof openApi> => {
    const json = JSON.stringify(buildOpenApiDocument({ baseUrl, license: opts.license, attribution: attribution(), packageVersion: PACKAGE_VERSION }));
    const body = new PreparedBody(json);
    return { body, bytes: body.identity.length, tags: { identity: strongTag(json), br: strongTag(json, 'br'), gzip: strongTag(json, 'gzip') } };
  };

  // as_of is the clock at the response (docs/api.md §5); responses in the same millisecond share
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

  /** Whether a token of client input is one of the keys served, so that no detail quotes it. */
  const isKnownKey = (token: string): boolean => keys.current?.find(token) !== undefined;

  function dispatch(req: IncomingMessage, res: ServerResponse, requestId: string, note: RequestNote | undefined): void {
    const url = req.url ?? '/';
    const q = url.indexOf('?');
    const pathEnd = q === -1 ? url.length : q;
    const snapshot = snapshots.current;
    // The response's header fields, grown step by step; whichever step answers sends them.
    const fields = firstFields(requestId);
    if (snapshot !== undefined) fields.push('X-Snapshot-Version', snapshot.version);

    // 1. Breaker: everything under /api/v1, the document included (docs/api.md §8). Every answer
    // there is readable from any origin (docs/api.md §12), refusals included.
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
      // A CORS preflight needs no key and takes no token (docs/api.md §12); any other OPTIONS is a 405.
      if (underApi && isPreflight(req.method, req.headers)) {
        fields.push(...PREFLIGHT_FIELDS);
        return responder.sendFramed(req, res, 204, fields);
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
    if (target.kind === 'docs' || target.kind === 'docsAsset' || target.kind === 'favicon') {
      const name = target.kind === 'docs' ? '' : target.kind === 'favicon' ? FAVICON_NAME : url.slice(DOCS_PATH.length + 1, pathEnd);
      const refused = answerDocs(req, res, name, fields, responder, isKnownKey);
      return refused === undefined ? undefined : responder.sendError(req, res, refused, fields);
    }
    if (target.kind === 'healthz') {
      fields.push('Cache-Control', 'no-store');
      return responder.send(req, res, 200, fields, '{"ok":true,"status":"live"}');
    }
    if (target.kind === 'readyz') {
      // Stopping: out of rotation at once, though every other request is still answered.
      if (stopping.current) return responder.sendError(req, res, STOPPING, fields);
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
      // A strong tag per content coding (docs/api.md §10): each coding is another representation.
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
    // Expiry is read against the clock now, not when the file was loaded.
    if (hasExpired(key.expires_at, now())) {
      return responder.sendError(req, res, errorAnswer('invalid_api_key', `The API key expired at ${key.expires_at}.`), fields);
    }
    if (key.status === 'inactive') return responder.sendError(req, res, ACCOUNT_UNAVAILABLE, fields);
    if (key.status === 'suspended') return responder.sendError(req, res, SUBSCRIPTION_SUSPENDED, fields);
    const plan = findPlan(key.plan);
    if (!plan) return responder.sendError(req, res, NOT_ON_PLAN, fields);

    // 7. Parameters, read before the limits so that a conditional request whose parameters are
    // valid is answered 304 with no token (docs/api.md §10). A 400 is sent after the limits: it has
    // consumed its token (docs/api.md §1).
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

    // 8. Limits: meta reads usage without spending it (docs/api.md §3). A store in another process
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
        // A store that cannot decide refuses with 503 service_busy (docs/api.md §11, closed).
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
      if (!res.headersSent) responder.sendError(req, res, error, fields ?? firstFields(requestId));
      return;
    }
    // The path only: the query string may hold a key and is never logged.
    log(`internal error ${requestId} on ${req.method} ${(req.url ?? '').split('?')[0]}: ${(error as Error).message}`, 'error',
      { request_id: requestId, stack: (error as Error).stack ?? String(error) });
    if (!res.headersSent) {
      responder.sendError(req, res, new ApiError('internal_error', `Internal error; request id ${requestId}.`), firstFields(requestId));
    } else {
      res.destroy();
    }
  }

  return {
    dispatch,
    failed,
    responder: () => responder,
    servedAt(url) {
      if (opts.baseUrl !== undefined) return false;
      baseUrl = url;
      responder = createResponder(opts.license, attribution(), opts.compressMinBytes, onSent);
      openApi = undefined;
      return true;
    },
  };
}
