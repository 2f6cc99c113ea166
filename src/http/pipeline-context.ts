/**
 * What every step of the pipeline reads besides its request: the parts {@link createHandler}
 * built, and what the address served decides (the responder, whose `attribution` names it, the
 * OpenAPI document, the next page's Link). One per handler; the steps read it and never build a part.
 */
import { ApiError } from '../errors.js';
import type { Breaker } from '../guard/breaker.js';
import type { LimiterStore } from '../guard/limiter-store.js';
import type { SnapshotIndex } from '../data/snapshot-index.js';
import type { KeyTable } from '../keys/keys-file.js';
import { DEFAULT_BASE_URL, defaultAttribution, type ResolvedOptions } from '../options.js';
import { createResponder, type HeaderFields, type Responder, type SentHook } from './respond.js';
import { firstFields, type RequestState } from './request-state.js';
import { prepareOpenApi, type PreparedDocument } from './targets.js';

/** The parts {@link createHandler} built for the pipeline. */
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

/** The parts, and what follows from the address served. */
export class PipelineContext {
  readonly opts: ResolvedOptions;
  readonly breaker: Breaker;
  readonly limits: LimiterStore;
  readonly snapshots: { readonly current: SnapshotIndex | undefined };
  readonly keys: { readonly current: KeyTable | undefined };
  readonly stopping: { readonly current: boolean };
  readonly #onSent: SentHook | undefined;
  // The base address names the service in the OpenAPI servers, the default attribution and
  // the Link of a next page; without one set, listen() gives the address it serves at (servedAt).
  #baseUrl: string;
  #responder: Responder;
  #openApi: PreparedDocument | undefined = undefined;
  // as_of is the clock at the response (docs/api.md §5); responses in the same millisecond share
  // its text, which Date#toISOString would otherwise build each time.
  #asOfMs = Number.NaN;
  #asOfText = '';

  /** @param parts - see {@link PipelineParts}. */
  constructor(parts: PipelineParts) {
    this.opts = parts.opts;
    this.breaker = parts.breaker;
    this.limits = parts.limits;
    this.snapshots = parts.snapshots;
    this.keys = parts.keys;
    this.stopping = parts.stopping;
    this.#onSent = parts.onSent;
    this.#baseUrl = parts.opts.baseUrl ?? DEFAULT_BASE_URL;
    this.#responder = this.#newResponder();
  }

  /** The responder of the moment (it names the base address in `attribution`). */
  get responder(): Responder {
    return this.#responder;
  }

  /** The base address: the one set, else the one served at, else the default. */
  get baseUrl(): string {
    return this.#baseUrl;
  }

  /** Whether a token of client input is one of the keys served, so that no detail quotes it. */
  readonly isKnownKey = (token: string): boolean => this.keys.current?.find(token) !== undefined;

  /** The OpenAPI document, serialised on first request and again only when the base address changes. */
  openApiDocument(): PreparedDocument {
    return this.#openApi ??= prepareOpenApi(this.#baseUrl, this.opts.license, this.#attribution());
  }

  /** `as_of` of a response sent now: the clock, RFC 3339 (docs/api.md §5). */
  asOf(): string {
    const ms = this.opts.now();
    if (ms !== this.#asOfMs) {
      this.#asOfMs = ms;
      this.#asOfText = new Date(ms).toISOString();
    }
    return this.#asOfText;
  }

  /**
   * Takes the address actually served as the base address when no public one was set: the
   * OpenAPI servers, the default attribution and the next page's Link name it from then on.
   *
   * @returns whether it was taken (false when a base address was set).
   */
  servedAt(url: string): boolean {
    if (this.opts.baseUrl !== undefined) return false;
    this.#baseUrl = url;
    this.#responder = this.#newResponder();
    this.#openApi = undefined;
    return true;
  }

  /**
   * Answers a request whose pipeline threw or whose store refused: an ApiError becomes its
   * envelope, anything else is a bug, logged with its stack and answered 500 with the request
   * id (never the stack).
   *
   * @param fields - the response's fields so far (a store's late refusal); without them, the
   *   first fields only (a throw).
   */
  failed({ req, res, requestId }: RequestState, error: unknown, fields?: HeaderFields): void {
    if (error instanceof ApiError) {
      if (!res.headersSent) this.#responder.sendError(req, res, error, fields ?? firstFields(requestId));
      return;
    }
    // The path only: the query string may hold a key and is never logged.
    this.opts.log(`internal error ${requestId} on ${req.method} ${(req.url ?? '').split('?')[0]}: ${(error as Error).message}`, 'error',
      { request_id: requestId, stack: (error as Error).stack ?? String(error) });
    if (!res.headersSent) {
      this.#responder.sendError(req, res, new ApiError('internal_error', `Internal error; request id ${requestId}.`), firstFields(requestId));
    } else {
      res.destroy();
    }
  }

  #attribution(): string {
    return this.opts.attribution ?? defaultAttribution(this.#baseUrl);
  }

  #newResponder(): Responder {
    return createResponder(this.opts.license, this.#attribution(), this.opts.compressMinBytes, this.#onSent);
  }
}
