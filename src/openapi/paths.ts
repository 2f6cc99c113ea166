/**
 * `paths` of the OpenAPI document: one GET operation per row of the route table, with its
 * parameters and every status it can answer, each error status narrowed to the codes of the
 * error table that carry it.
 */
import { ERROR_CODES, ERRORS, type ErrorCode } from '../errors.js';
import { PARAMS, ROUTES, type Route } from '../routes.js';
import { ROW_ORDER_TEXT } from '../rows/order.js';
import { WRITTEN_FIELD } from '../rows/schemas.js';
import { LIST_SCHEMA_NAMES, SCHEMA_NAMES, schemaRef, type Json } from './components.js';
import { PARSER_ERROR_CODES, ROUTER_ERROR_CODES } from './description.js';
import { commonHeaders, rateLimitHeaders, retryAfterHeader } from './headers.js';

/** What each status means in a response description. */
const STATUS_TEXT: Readonly<Record<number, string>> = Object.freeze({
  400: 'Invalid query: a bad value, a parameter this operation does not list, or one given twice',
  401: 'Missing, unknown or malformed API key, or a key in the query string',
  402: 'Subscription suspended',
  403: 'Account inactive, or a plan without API access',
  429: 'Rate limit exceeded',
  500: 'Internal error',
  503: 'Service busy: breaker open or no snapshot loaded',
});

/** Tag of each route target, for grouping in documentation viewers. */
export const TAGS: readonly Json[] = Object.freeze([
  { name: 'finance', description: 'Facts from the snapshot: reports, insider activity, 13F holdings, earnings, filings.' },
  { name: 'account', description: "The calling key's plan, limits and usage." },
  { name: 'service', description: 'The API description and the process probes; no key needed.' },
]);

function tagOf(route: Route): string {
  if (route.target.kind === 'rows') return 'finance';
  return route.target.kind === 'meta' ? 'account' : 'service';
}

/**
 * The codes an operation can answer with under this status: every code of the error table
 * with that status, except those that only the router or the parser hook send.
 */
export function codesForStatus(status: number): ErrorCode[] {
  const outside = new Set<ErrorCode>([...PARSER_ERROR_CODES, ...ROUTER_ERROR_CODES]);
  return ERROR_CODES.filter((errorCode) => ERRORS[errorCode].status === status && !outside.has(errorCode));
}

/**
 * The error statuses of a route (decisions §1, §2, §8): authenticated routes pass every check
 * of the pipeline (429 only where a request takes a token); the OpenAPI document is behind the
 * breaker only; `/readyz` answers 503 when not ready; `/healthz` always answers 200.
 */
export function errorStatuses(route: Route): number[] {
  if (route.auth) return [400, 401, 402, 403, ...(route.countsAgainstLimits ? [429] : []), 500, 503];
  if (route.underApi) return [500, 503];
  return route.target.kind === 'readyz' ? [503] : [];
}

/** Whether a response with this status passed the limiter, and so carries the rate-limit headers. */
function reachedLimiter(route: Route, status: number): 'always' | 'maybe' | 'never' {
  if (!route.auth) return 'never';
  if (route.countsAgainstLimits) return status === 200 || status === 400 || status === 429 ? 'always' : 'never';
  // meta: the limiter is read, not spent (decisions §3), so a 200 always shows it.
  if (status === 200) return 'always';
  return status === 400 ? 'maybe' : 'never';
}

function headersFor(route: Route, status: number, retryAfter: boolean): Json {
  const limiter = reachedLimiter(route, status);
  const snapshotAlways = status === 200 && route.target.kind !== 'healthz' && route.target.kind !== 'openapi';
  return {
    ...(limiter === 'never' ? {} : rateLimitHeaders(limiter === 'always')),
    ...(retryAfter ? retryAfterHeader() : {}),
    ...commonHeaders(snapshotAlways),
  };
}

function errorResponse(route: Route, status: number, license: string): Json {
  const codes = codesForStatus(status);
  const retryAfter = codes.every((errorCode) => ERRORS[errorCode].retryAfter);
  const examples: Json = {};
  for (const errorCode of codes) {
    examples[errorCode] = { summary: ERRORS[errorCode].detail, value: { ok: false, error: errorCode, detail: ERRORS[errorCode].detail, license } };
  }
  return {
    description: `${STATUS_TEXT[status] ?? 'Error'}: ${codes.map((c) => `\`${c}\``).join(' or ')}.`,
    headers: headersFor(route, status, retryAfter),
    content: {
      'application/json': {
        schema: { allOf: [schemaRef(SCHEMA_NAMES.error), { type: 'object', properties: { error: { enum: codes } } }] },
        examples,
      },
    },
  };
}

function successSchema(route: Route): { schema: Json; description: string } {
  switch (route.target.kind) {
    case 'rows': {
      const kind = route.target.rows;
      return { schema: schemaRef(LIST_SCHEMA_NAMES[kind]), description: `Rows ordered by ${ROW_ORDER_TEXT[kind]}.` };
    }
    case 'meta': return { schema: schemaRef(SCHEMA_NAMES.meta), description: 'The meta row of the calling key.' };
    case 'openapi': return { schema: schemaRef(SCHEMA_NAMES.document), description: 'This document.' };
    case 'healthz': return { schema: schemaRef(SCHEMA_NAMES.health), description: 'The process runs.' };
    case 'readyz': return { schema: schemaRef(SCHEMA_NAMES.health), description: 'A snapshot is loaded and the breaker is closed.' };
  }
}

function operationDescription(route: Route): string {
  const parts = [route.description];
  if (route.target.kind === 'rows') {
    const kind = route.target.rows;
    parts.push(`Order: ${ROW_ORDER_TEXT[kind]}. The written field \`${WRITTEN_FIELD[kind]}\` is absent on plans without written summaries.`);
  }
  parts.push(route.countsAgainstLimits ? 'Each request, HEAD included, takes one token from both buckets of the key.'
    : route.auth ? 'Takes no token.' : 'No key needed; takes no token.');
  parts.push('HEAD answers with the same status and headers and no body.');
  return parts.join(' ');
}

function operation(route: Route, license: string): Json {
  const success = successSchema(route);
  const responses: Json = {
    200: { description: success.description, headers: headersFor(route, 200, false), content: { 'application/json': { schema: success.schema } } },
  };
  for (const status of errorStatuses(route)) responses[status] = errorResponse(route, status, license);
  return {
    operationId: route.operationId,
    summary: route.summary,
    description: operationDescription(route),
    tags: [tagOf(route)],
    ...(route.auth ? {} : { security: [] }),
    ...(route.params.length === 0 ? {} : {
      parameters: route.params.map((name) => ({
        name, in: 'query', required: false, description: PARAMS[name].description, schema: structuredClone(PARAMS[name].schema),
      })),
    }),
    responses,
  };
}

/**
 * Builds `paths`: a GET operation for every route of {@link ROUTES}.
 *
 * @param license - licence string, shown in the error examples.
 */
export function buildPaths(license: string): Json {
  const paths: Json = {};
  for (const route of ROUTES) paths[route.path] = { get: operation(route, license) };
  return paths;
}
