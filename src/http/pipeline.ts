/**
 * The request pipeline (docs/api.md §1, order of checks): framing → breaker → route → key →
 * account → subscription → plan → parameters (a matching `If-None-Match` answers 304 here,
 * docs/api.md §10) → limits → rows → respond, read top to bottom in {@link Pipeline.dispatch}.
 * Each step is a method taking the request's one {@link RequestState}; a step that refuses
 * returns its error answer and `dispatch` sends it. Targets other than the API's rows answer by
 * their entry in {@link TARGETS}. The pipeline receives its parts already built
 * ({@link createHandler} wires them) and reads them; it never builds one.
 */
import { ApiError, errorAnswer, type ErrorAnswer } from '../errors.js';
import { findPlan } from '../plans.js';
import { API_PREFIX, ALLOWED_METHODS, findRoute } from '../routes.js';
import type { LimitDecision, MaybePromise } from '../guard/limiter-store.js';
import { appendRateLimitFields } from '../guard/rate-limit-headers.js';
import { pageBytes, pageLength } from '../data/page.js';
import { hasExpired } from '../keys/lifecycle.js';
import { presentedKey } from './auth.js';
import { hasKeyInQuery, parseListQuery, quickListQuery, splitQuery } from './params.js';
import { CORS_FIELDS, isPreflight } from './cors.js';
import { ifNoneMatchMatches } from './etag.js';
import { findPage, nextPageLink } from './list-page.js';
import { metaRow } from './meta-row.js';
import type { PipelineContext } from './pipeline-context.js';
import { originForm, readFraming } from './protocol.js';
import { quoteInput } from './quote.js';
import type { RequestState } from './request-state.js';
import { TARGETS } from './targets.js';

/** Start of every path under the API prefix. */
const API_PATH_START = `${API_PREFIX}/`;

// Refusals whose text never changes, made once.
const METHOD_NOT_ALLOWED: ErrorAnswer = Object.freeze(errorAnswer('method_not_allowed'));
const NOT_LOADED: ErrorAnswer = Object.freeze(errorAnswer('service_busy', 'No snapshot is loaded yet.', 1));
const UNKNOWN_KEY: ErrorAnswer = Object.freeze(errorAnswer('invalid_api_key', 'The API key is not known.'));
const ACCOUNT_UNAVAILABLE: ErrorAnswer = Object.freeze(errorAnswer('account_unavailable'));
const SUBSCRIPTION_SUSPENDED: ErrorAnswer = Object.freeze(errorAnswer('subscription_suspended'));
const NOT_ON_PLAN: ErrorAnswer = Object.freeze(errorAnswer('api_not_available_on_plan'));

/** The pipeline of one handler: {@link dispatch} answers each request. */
export class Pipeline {
  readonly #at: PipelineContext;

  /** @param at - what the steps read: the parts, the responder, the base address. */
  constructor(at: PipelineContext) {
    this.#at = at;
  }

  /**
   * Answers one request, in the order of docs/api.md §1; may answer later when the limiter
   * store does. Throws only on a bug (the caller answers it with `PipelineContext.failed`).
   */
  dispatch(s: RequestState): void {
    // Framing: HTTP/1.1's own refusals, answered with the first fields only.
    let refusal = this.#framing(s);
    if (refusal !== undefined) return this.#refuse(s, refusal);
    this.#nameSnapshot(s);
    // Breaker (everything under /api/v1), then route: 503, 404, 405.
    refusal = this.#breaker(s) ?? this.#route(s);
    if (refusal !== undefined) return this.#refuse(s, refusal);
    // The document, the docs page, health and a preflight answer by their entry in the targets table.
    const own = TARGETS[s.kind!];
    if (own !== undefined) return own(s, this.#at);
    // Key, account, subscription, plan: 401, 403, 402, 403. None of these reach the limiter.
    refusal = this.#loaded(s) ?? this.#key(s) ?? this.#account(s) ?? this.#plan(s);
    if (refusal !== undefined) return this.#refuse(s, refusal);
    // Parameters, read before the limits so that a conditional request whose parameters are
    // valid is answered 304 with no token (docs/api.md §10); a 400 waits for the limits.
    this.#parameters(s);
    if (this.#notModified(s)) return;
    // Limits: a store in another process answers later, and the request goes on from there.
    const decision = this.#limit(s);
    if (decision instanceof Promise) return this.#later(s, decision, this.#respond);
    // 429, then 400, then the rows.
    this.#respond(s, decision);
  }

  /** Framing (docs/api.md §12): a refusal of HTTP/1.1's own; a body is never read, the connection closes after the answer. */
  #framing(s: RequestState): ErrorAnswer | undefined {
    const framing = readFraming(s.req);
    // An absolute-form target is answered by its path (RFC 9112 §3.2.2); every later step reads the origin-form.
    const origin = originForm(s.req.url ?? '/');
    if (origin !== undefined) s.req.url = origin;
    if (framing.body || framing.refusal !== undefined) s.res.shouldKeepAlive = false;
    const url = s.url = s.req.url ?? '/';
    s.queryAt = url.indexOf('?');
    s.pathEnd = s.queryAt === -1 ? url.length : s.queryAt;
    return framing.refusal;
  }

  /** Every later answer names the snapshot served, once one is loaded (docs/api.md §5). */
  #nameSnapshot(s: RequestState): void {
    const snapshot = s.snapshot = this.#at.snapshots.current;
    if (snapshot !== undefined) s.fields.push('X-Snapshot-Version', snapshot.version);
  }

  /** Breaker: everything under /api/v1, the document included (docs/api.md §8), readable from any origin (§12), refusals included. */
  #breaker(s: RequestState): ErrorAnswer | undefined {
    const { url, pathEnd } = s;
    if (!url.startsWith(API_PREFIX) || (pathEnd !== API_PREFIX.length && !url.startsWith(API_PATH_START))) return undefined;
    s.underApi = true;
    s.fields.push(CORS_FIELDS[0]!, CORS_FIELDS[1]!, CORS_FIELDS[2]!, CORS_FIELDS[3]!);
    const { breaker } = this.#at;
    if (!breaker.admit()) return errorAnswer('service_busy', undefined, breaker.retryAfterSeconds);
    // admit() itself may move open → half_open; read the state after it to know a trial.
    if (breaker.state === 'half_open') s.res.once('close', () => breaker.trialDone());
    return undefined;
  }

  /** Route: 404, 405 (a CORS preflight under /api/v1 is no 405, docs/api.md §12), then the query split for the key check. */
  #route(s: RequestState): ErrorAnswer | undefined {
    const { req, url, pathEnd } = s;
    const match = findRoute(req.method ?? 'GET', url, pathEnd);
    if (match.status === 'not_found') return errorAnswer('not_found', `No such path: ${quoteInput(url.slice(0, pathEnd), this.#at.isKnownKey)}`);
    const route = s.route = match.route;
    if (match.status === 'method_not_allowed') {
      if (s.underApi && isPreflight(req.method, req.headers)) {
        s.kind = 'preflight';
        return undefined;
      }
      s.fields.push('Allow', ALLOWED_METHODS);
      return METHOD_NOT_ALLOWED;
    }
    s.kind = route.target.kind;
    if (s.note !== undefined) s.note.route = route;
    // A list request's usual query is read in one pass; any other query is split into pairs.
    if (s.queryAt !== -1) {
      if (s.kind === 'rows') s.quick = quickListQuery(url, s.queryAt + 1, route);
      if (s.quick === undefined) s.split = splitQuery(url.slice(s.queryAt + 1));
    }
    return undefined;
  }

  /** The API's rows need a snapshot and a keys table (503 until the first load, docs/api.md §7). */
  #loaded(s: RequestState): ErrorAnswer | undefined {
    if (!s.snapshot || !this.#at.keys.current) return NOT_LOADED;
    s.fields.push('Cache-Control', 'private, no-cache', 'Vary', 'Authorization, X-API-Key');
    return undefined;
  }

  /** Key (docs/api.md §4): presented in one header, known, not expired (read against the clock now, not at load). */
  #key(s: RequestState): ErrorAnswer | undefined {
    const presented = presentedKey(s.req.headers, hasKeyInQuery(s.split.pairs));
    if (typeof presented !== 'string') return presented;
    const key = s.key = this.#at.keys.current!.find(presented);
    if (!key) return UNKNOWN_KEY;
    if (s.note !== undefined) {
      s.note.keyId = key.id;
      s.note.plan = key.plan;
    }
    if (hasExpired(key.expires_at, this.#at.opts.now())) return errorAnswer('invalid_api_key', `The API key expired at ${key.expires_at}.`);
    return undefined;
  }

  /** Account and subscription (docs/api.md §4): 403 when inactive, 402 when suspended. */
  #account(s: RequestState): ErrorAnswer | undefined {
    const { status } = s.key!;
    if (status === 'inactive') return ACCOUNT_UNAVAILABLE;
    if (status === 'suspended') return SUBSCRIPTION_SUSPENDED;
    return undefined;
  }

  /** Plan (docs/api.md §3): one of the API plans. */
  #plan(s: RequestState): ErrorAnswer | undefined {
    s.plan = findPlan(s.key!.plan);
    return s.plan === undefined ? NOT_ON_PLAN : undefined;
  }

  /** Parameters and the page they name; a 400 is kept for after the limits, where it has consumed its token (docs/api.md §1). */
  #parameters(s: RequestState): void {
    let query;
    try {
      query = s.query = s.quick ?? parseListQuery(s.split.pairs, s.split.malformed, s.route!, this.#at.isKnownKey);
    } catch (error) {
      if (!(error instanceof ApiError)) throw error;
      s.problem = error;
      return;
    }
    if (s.note !== undefined) s.note.query = query;
    const { target } = s.route!;
    if (target.kind !== 'rows') return;
    const found = findPage(s.snapshot!, target.rows, query, s.plan!);
    if ('list' in found) s.page = found;
    else s.problem = found;
  }

  /** A page whose tag `If-None-Match` names: 304 with the limits peeked, no token (docs/api.md §10). Whether it answered. */
  #notModified(s: RequestState): boolean {
    const { page } = s;
    if (page === undefined) return false;
    const condition = s.req.headers['if-none-match'];
    if (condition === undefined || !ifNoneMatchMatches(condition, page.tag)) return false;
    const peeked = this.#at.limits.peek(s.key!.id, s.plan!);
    if (peeked instanceof Promise) this.#later(s, peeked, this.#sendNotModified);
    else this.#sendNotModified(s, peeked);
    return true;
  }

  #sendNotModified(s: RequestState, peeked: LimitDecision): void {
    const page = s.page!;
    appendRateLimitFields(s.fields, peeked);
    s.fields.push('ETag', page.tag);
    const { responder } = this.#at;
    responder.sendNotModified(s.res, s.fields, responder.successLength(pageLength(page.list, page.variant, page.position, page.count), page.count));
  }

  /** Limits: meta reads usage without spending it (docs/api.md §3); this process's store answers now. */
  #limit(s: RequestState): MaybePromise<LimitDecision> {
    const { limits } = this.#at;
    return s.route!.countsAgainstLimits ? limits.take(s.key!.id, s.plan!) : limits.peek(s.key!.id, s.plan!);
  }

  /** Goes on with `step` when a store in another process answers; one that cannot decide refuses with 503 (docs/api.md §11). */
  #later(s: RequestState, decision: Promise<LimitDecision>, step: (s: RequestState, decision: LimitDecision) => void): void {
    decision.then((later) => {
      try {
        step.call(this, s, later);
      } catch (error) {
        this.#at.failed(s, error, s.fields);
      }
    }, (error: unknown) => this.#at.failed(s, error, s.fields));
  }

  /** The limiter's answer (429), then a parameter's (400), then the rows. */
  #respond(s: RequestState, decision: LimitDecision): void {
    s.decision = decision;
    appendRateLimitFields(s.fields, decision);
    if (s.route!.countsAgainstLimits && !decision.allowed) return this.#refuse(s, errorAnswer(decision.code!, undefined, decision.retryAfterSeconds));
    if (s.problem !== undefined) return this.#refuse(s, s.problem);
    this.#rows(s);
  }

  /** Rows: the meta row, or the page with its tag and the next page's link (docs/api.md §9). */
  #rows(s: RequestState): void {
    const { req, res, fields, route, page } = s;
    if (route!.target.kind === 'meta') {
      return this.#at.responder.sendSuccess(req, res, fields, JSON.stringify(metaRow(s.key!, s.plan!, s.decision!, s.snapshot!.manifest)), 1, this.#at.asOf());
    }
    if (page === undefined) throw new Error(`route ${route!.path} has no answer`);
    fields.push('ETag', page.tag);
    const link = nextPageLink(page, this.#at.baseUrl, route!.path, s.queryString);
    if (link !== undefined) fields.push('Link', link);
    this.#at.responder.sendSuccess(req, res, fields, pageBytes(page.list, page.variant, page.position, page.count), page.count, this.#at.asOf());
  }

  #refuse(s: RequestState, refusal: ErrorAnswer): void {
    this.#at.responder.sendError(s.req, s.res, refusal, s.fields);
  }
}
