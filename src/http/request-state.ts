/**
 * The state of one request on its way through the pipeline (docs/api.md §1, order of checks):
 * one object that each step reads and fills, so that a step takes the request and nothing else.
 * Its fields are set in the order of the steps; a field a step has not reached yet holds its
 * initial value (`undefined`, or the empty query).
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { ErrorAnswer } from '../errors.js';
import type { Plan } from '../plans.js';
import type { Route, RouteTarget } from '../routes.js';
import type { LimitDecision } from '../guard/limiter-store.js';
import type { SnapshotIndex } from '../data/snapshot-index.js';
import type { KeyRecord } from '../keys/keys-file.js';
import type { RequestNote } from '../ops/observer.js';
import type { ListPage } from './list-page.js';
import { splitQuery, type ListQuery, type SplitQuery } from './params.js';
import type { HeaderFields } from './respond.js';

/**
 * What answers a request once it is routed: a route's target kind, or `preflight` for a CORS
 * preflight on a path under /api/v1 (docs/api.md §12), which no route lists as a method.
 */
export type TargetKind = RouteTarget['kind'] | 'preflight';

/** The header fields every response starts with (docs/api.md §5 and §12). */
export function firstFields(requestId: string): HeaderFields {
  return ['X-Request-Id', requestId, 'X-Content-Type-Options', 'nosniff'];
}

/** No query: what a request holds until the route step splits one (the empty split is shared). */
const NO_QUERY: SplitQuery = splitQuery('');

/** One request and what the pipeline has learnt of it so far. */
export class RequestState {
  /** The request as Node parsed it (its method and header fields). */
  readonly req: IncomingMessage;
  readonly res: ServerResponse;
  /** The response's `X-Request-Id`. */
  readonly requestId: string;
  /** What the access log and the metrics learn, when either is on. */
  readonly note: RequestNote | undefined;
  /** The response's header fields, grown step by step; whichever step answers sends them. */
  readonly fields: HeaderFields;
  /** The request target in origin-form (`/path?query`); set by the framing step. */
  url = '/';
  /** Index of the `?` in {@link url}, or -1 when there is no query. */
  queryAt = -1;
  /** Where the path ends in {@link url}: the index of its `?`, else its length. */
  pathEnd = 1;
  /** The snapshot served when the request passed its framing (undefined before the first load). */
  snapshot: SnapshotIndex | undefined = undefined;
  /** Whether the path is under /api/v1: behind the breaker and readable from any origin. */
  underApi = false;
  /** What answers the request; set by the route step. */
  kind: TargetKind | undefined = undefined;
  /** The matched route; set by the route step. */
  route: Route | undefined = undefined;
  /** A list request's usual query, read in one pass (`quickListQuery`), when it is one. */
  quick: ListQuery | undefined = undefined;
  /** Any other query, split into pairs (the key check looks for a key among them). */
  split: SplitQuery = NO_QUERY;
  /** The key presented, once known and current. */
  key: KeyRecord | undefined = undefined;
  /** That key's plan. */
  plan: Plan | undefined = undefined;
  /** The query, once it passed the parameter checks. */
  query: ListQuery | undefined = undefined;
  /** The page of rows the query names, once found. */
  page: ListPage | undefined = undefined;
  /** A 400 found by the parameter step, sent after the limits: it consumes a token (docs/api.md §1). */
  problem: ErrorAnswer | undefined = undefined;
  /** The limiter's answer. */
  decision: LimitDecision | undefined = undefined;

  /**
   * @param req - the request.
   * @param res - its response.
   * @param requestId - the response's `X-Request-Id`.
   * @param note - the note to fill, when the access log or the metrics are on.
   */
  constructor(req: IncomingMessage, res: ServerResponse, requestId: string, note: RequestNote | undefined) {
    this.req = req;
    this.res = res;
    this.requestId = requestId;
    this.note = note;
    this.fields = firstFields(requestId);
  }

  /** The raw query string (after `?`), empty when there is none. */
  get queryString(): string {
    return this.queryAt === -1 ? '' : this.url.slice(this.queryAt + 1);
  }
}
