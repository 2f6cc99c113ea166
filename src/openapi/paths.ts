/**
 * `paths` of the OpenAPI document: one GET operation per row of the route table, with its
 * parameters and every status it can answer (error statuses refer to `components.responses`).
 */
import { PARAMS, ROUTES, type Route } from '../routes.js';
import { ROW_ORDER_TEXT } from '../rows/order.js';
import { WRITTEN_FIELD } from '../rows/schemas.js';
import { LIST_SCHEMA_NAMES, SCHEMA_NAMES, schemaRef, type Json } from './components.js';
import { commonHeaders, rateLimitHeaders } from './headers.js';
import { errorResponseRef, errorUse, type ErrorUse } from './responses.js';

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
 * The error statuses of a route (decisions §1, §2, §8): authenticated routes pass every check
 * of the pipeline (429 only where a request takes a token); the OpenAPI document is behind the
 * breaker and checks its (empty) parameter list; `/readyz` answers 503 when not ready;
 * `/healthz` always answers 200.
 */
export function errorStatuses(route: Route): number[] {
  if (route.auth) return [400, 401, 402, 403, ...(route.countsAgainstLimits ? [429] : []), 500, 503];
  if (route.underApi) return [400, 500, 503];
  return route.target.kind === 'readyz' ? [503] : [];
}

/** Every error response of a route, with whether it passed the limiter. */
export function errorUses(route: Route): ErrorUse[] {
  return errorStatuses(route).map((status) => errorUse(status, route.auth));
}

/**
 * Headers of a 200 (decisions §3, §5): authenticated routes passed the limiter (meta reads the
 * buckets without spending a token), so they carry the rate-limit headers.
 */
function successHeaders(route: Route): Json {
  const snapshotAlways = route.target.kind !== 'healthz' && route.target.kind !== 'openapi';
  return { ...(route.auth ? rateLimitHeaders() : {}), ...commonHeaders(snapshotAlways) };
}

function successSchema(route: Route): { schema: Json; description: string } {
  switch (route.target.kind) {
    case 'rows': {
      const kind = route.target.rows;
      return { schema: schemaRef(LIST_SCHEMA_NAMES[kind]), description: `Rows ordered by ${ROW_ORDER_TEXT[kind]}.` };
    }
    case 'meta': return { schema: schemaRef(SCHEMA_NAMES.meta), description: 'The meta row of the calling key.' };
    case 'openapi': return { schema: schemaRef(SCHEMA_NAMES.document), description: 'This document.' };
    case 'healthz': return { schema: schemaRef(SCHEMA_NAMES.liveness), description: 'The process runs.' };
    case 'readyz': return { schema: schemaRef(SCHEMA_NAMES.readiness), description: 'A snapshot is loaded and the breaker is closed.' };
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

function operation(route: Route): Json {
  const success = successSchema(route);
  const responses: Json = {
    200: { description: success.description, headers: successHeaders(route), content: { 'application/json': { schema: success.schema } } },
  };
  for (const use of errorUses(route)) responses[use.status] = errorResponseRef(use);
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
 */
export function buildPaths(): Json {
  const paths: Json = {};
  for (const route of ROUTES) paths[route.path] = { get: operation(route) };
  return paths;
}
