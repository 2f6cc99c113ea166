/**
 * `paths` of the OpenAPI document: per row of the route table a GET and a HEAD operation (HEAD
 * answers like GET without a body, docs/api.md §1), and under /api/v1 an OPTIONS operation (the
 * CORS preflight, docs/api.md §12), with their parameters and every status they can answer (error
 * statuses refer to `components.responses`).
 */
import { PARAMS, ROUTES, type ParamName, type Route } from '../routes.js';
import { filterSchema } from '../filters.js';
import { ROW_ORDER_TEXT } from '../rows/order.js';
import { WRITTEN_FIELD } from '../rows/schemas.js';
import { DOCS_ASSET_NAMES } from '../http/docs-page.js';
import { FAVICON_TYPE } from '../http/favicon.js';
import { LIST_SCHEMA_NAMES, SCHEMA_NAMES, schemaRef, type Json } from './components.js';
import { commonHeaders, corsHeaders, headerRef, preflightHeaders, rateLimitHeaders } from './headers.js';
import { errorResponseRef, errorUse, PARSER_STATUSES, type ErrorUse } from './responses.js';

/** Tag of each route target, for grouping in documentation viewers. */
export const TAGS: readonly Json[] = Object.freeze([
  { name: 'finance', description: 'Facts from the snapshot: reports, insider activity, 13F holdings, earnings, filings, financials.' },
  { name: 'account', description: "The calling key's plan, limits and usage." },
  { name: 'service', description: 'The API description, the docs page and the process probes; no key needed.' },
]);

function tagOf(route: Route): string {
  if (route.target.kind === 'rows') return 'finance';
  return route.target.kind === 'meta' ? 'account' : 'service';
}

/**
 * The error statuses of a route (docs/api.md §1, §2, §8, §12): every route can get a parser
 * refusal; authenticated routes pass every check of the pipeline (429 only where a request
 * takes a token); the OpenAPI document is behind the breaker and checks its (empty) parameter
 * list; `/readyz` answers 503 when not ready; a file of the docs page that does not exist is 404.
 */
export function errorStatuses(route: Route): number[] {
  let own: number[];
  if (route.auth) own = [400, 401, 402, 403, ...(route.countsAgainstLimits ? [429] : []), 500, 503];
  else if (route.underApi) own = [400, 500, 503];
  else own = route.target.kind === 'readyz' ? [503] : route.target.kind === 'docsAsset' ? [404] : [];
  return [...new Set([...own, ...PARSER_STATUSES])].sort((a, b) => a - b);
}

/** Every error response of a route, with whether it passed the limiter. */
export function errorUses(route: Route): ErrorUse[] {
  return errorStatuses(route).map((status) => errorUse(status, route.auth));
}

/** The error statuses of a route's OPTIONS operation: the breaker, a plain OPTIONS, and parser refusals. */
function optionsErrorUses(): ErrorUse[] {
  return [...new Set([405, 503, ...PARSER_STATUSES])].sort((a, b) => a - b).map((status) => errorUse(status, false));
}

/** Every error use in the document, for `components.responses`. */
export function allErrorUses(): ErrorUse[] {
  return [...ROUTES.flatMap(errorUses), ...(ROUTES.some((route) => route.underApi) ? optionsErrorUses() : [])];
}

/** Whether a route's 200 carries an ETag and answers If-None-Match with 304 (docs/api.md §10, §13). */
const conditional = (route: Route): boolean => ['rows', 'openapi', 'docs', 'docsAsset', 'favicon'].includes(route.target.kind);

/**
 * Headers of a 200 (docs/api.md §3, §5, §9, §10, §12): authenticated routes passed the limiter
 * (meta reads the buckets without spending a token), so they carry the rate-limit headers.
 */
function successHeaders(route: Route): Json {
  const snapshotAlways = !['healthz', 'openapi', 'docs', 'docsAsset', 'favicon'].includes(route.target.kind);
  return {
    ...(route.auth ? rateLimitHeaders() : {}),
    ...(conditional(route) ? { ETag: headerRef('ETag') } : {}),
    ...(route.target.kind === 'rows' ? { Link: headerRef('Link') } : {}),
    ...(route.underApi ? corsHeaders() : {}),
    ...commonHeaders(snapshotAlways),
  };
}

function successContent(route: Route): { content: Json; description: string } {
  const json = (schema: Json): Json => ({ 'application/json': { schema } });
  switch (route.target.kind) {
    case 'rows': {
      const kind = route.target.rows;
      return { content: json(schemaRef(LIST_SCHEMA_NAMES[kind])), description: `Rows ordered by ${ROW_ORDER_TEXT[kind]}.` };
    }
    case 'meta': return { content: json(schemaRef(SCHEMA_NAMES.meta)), description: 'The meta row of the calling key.' };
    case 'openapi': return { content: json(schemaRef(SCHEMA_NAMES.document)), description: 'This document.' };
    case 'healthz': return { content: json(schemaRef(SCHEMA_NAMES.liveness)), description: 'The process runs.' };
    case 'readyz': return { content: json(schemaRef(SCHEMA_NAMES.readiness)), description: 'A snapshot is loaded and the breaker is closed.' };
    case 'docs': return { content: { 'text/html': { schema: { type: 'string' } } }, description: 'The docs page.' };
    case 'docsAsset': return {
      content: Object.fromEntries(['text/javascript', 'text/css', 'text/plain', FAVICON_TYPE].map((type) => [type, { schema: { type: 'string' } }])),
      description: 'The file.',
    };
    case 'favicon': return { content: { [FAVICON_TYPE]: { schema: { type: 'string' } } }, description: 'The icon.' };
  }
}

function operationDescription(route: Route, method: 'get' | 'head'): string {
  const parts = [route.description];
  if (route.target.kind === 'rows') {
    const kind = route.target.rows;
    parts.push(`Order: ${ROW_ORDER_TEXT[kind]}. The written field \`${WRITTEN_FIELD[kind]}\` is absent on plans without written summaries.`,
      'Every row of the list is reachable: a page with rows after it carries `Link: <…>; rel="next"`; follow it (or pass its `cursor`) for the next page.',
      'The 200 carries a weak `ETag`; `If-None-Match` with it gives 304 with no body, which takes no token.');
  }
  parts.push(route.countsAgainstLimits ? 'Each request, HEAD included, takes one token from both buckets of the key.'
    : route.auth ? 'Takes no token.' : 'No key needed; takes no token.');
  parts.push(method === 'head' ? 'HEAD: the same status and headers as GET, and no body.' : 'HEAD answers with the same status and headers and no body.');
  return parts.join(' ');
}

/** The 304 of a conditional route: the 200's fields, no body (RFC 9110 §15.4.5; docs/api.md §10). */
function notModified(route: Route): Json {
  return {
    description: 'Not Modified: `If-None-Match` matched the current ETag. No body.' +
      (route.auth ? ' Takes no token; the key, account and plan checks ran first, and the rate-limit fields show the buckets now.' : ''),
    headers: {
      ...(route.auth ? rateLimitHeaders() : {}),
      ETag: headerRef('ETag'),
      ...(route.underApi ? corsHeaders() : {}),
      ...commonHeaders(route.target.kind === 'rows'),
    },
  };
}

/** A response without its body, for HEAD. */
function withoutContent(response: Json, components: Json): Json {
  const ref = response.$ref;
  const resolved = typeof ref === 'string' ? components[ref.slice('#/components/responses/'.length)] as Json : response;
  const { content: _content, ...rest } = resolved;
  return rest;
}

/**
 * A query parameter: `limit` and `cursor` from their table, a filter from its declaration in the
 * route table (docs/api.md §15), with the schema its value rule gives.
 */
function queryParameter(route: Route, name: string): Json {
  const spec = route.filters.find((filter) => filter.name === name);
  if (spec !== undefined) return { name, in: 'query', required: false, description: spec.description, schema: filterSchema(spec) };
  const param = PARAMS[name as ParamName];
  return { name, in: 'query', required: false, description: param.description, schema: structuredClone(param.schema) };
}

function parameters(route: Route): Json[] {
  const query = route.params.map((name) => queryParameter(route, name));
  const path = route.target.kind === 'docsAsset' ? [{
    name: 'asset', in: 'path', required: true,
    description: `A file of the page: ${DOCS_ASSET_NAMES.map((name) => `\`${name}\``).join(', ')}. Any other name is 404.`,
    schema: { type: 'string', examples: ['swagger-ui.css'] },
  }] : [];
  const header = conditional(route) ? [{
    name: 'If-None-Match', in: 'header', required: false,
    description: 'ETags of representations the client holds (RFC 9110 §13.1.2, weak comparison; `*` matches any). When one matches, the answer is 304 with no body.',
    schema: { type: 'string' },
  }] : [];
  return [...path, ...query, ...header];
}

function operation(route: Route, method: 'get' | 'head', components: Json): Json {
  const success = successContent(route);
  const ok: Json = { description: success.description, headers: successHeaders(route), ...(method === 'get' ? { content: success.content } : {}) };
  const responses: Json = { 200: ok };
  if (conditional(route)) responses[304] = notModified(route);
  for (const use of errorUses(route)) {
    const ref = errorResponseRef(use);
    responses[use.status] = method === 'get' ? ref : withoutContent(ref, components);
  }
  const list = parameters(route);
  return {
    operationId: method === 'get' ? route.operationId : route.operationId.replace(/^(get|list)/, 'head'),
    summary: method === 'get' ? route.summary : `${route.summary} (headers only)`,
    description: operationDescription(route, method),
    tags: [tagOf(route)],
    ...(route.auth ? {} : { security: [] }),
    ...(list.length === 0 ? {} : { parameters: list }),
    responses,
  };
}

/** The CORS preflight of a path under /api/v1 (docs/api.md §12). */
function preflight(route: Route): Json {
  const responses: Json = {
    204: {
      description: 'A CORS preflight (`Origin` and `Access-Control-Request-Method: GET` or `HEAD`) is allowed. Needs no key; takes no token.',
      headers: { ...corsHeaders(), ...preflightHeaders(), ...commonHeaders(false) },
    },
  };
  for (const use of optionsErrorUses()) responses[use.status] = errorResponseRef(use);
  return {
    operationId: route.operationId.replace(/^(get|list)/, 'preflight'),
    summary: `CORS preflight of ${route.path}`,
    description: 'Answered for browsers before a cross-origin request with a key or If-None-Match. Any OPTIONS that is not such a preflight gets 405 with `Allow`.',
    tags: [tagOf(route)],
    security: [],
    parameters: [
      { name: 'Origin', in: 'header', required: false, description: 'The origin of the page making the request; a preflight names one.', schema: { type: 'string' } },
      {
        name: 'Access-Control-Request-Method', in: 'header', required: false,
        description: 'The method of the request to come; GET or HEAD for a preflight.', schema: { type: 'string', enum: ['GET', 'HEAD'] },
      },
    ],
    responses,
  };
}

/**
 * Builds `paths`: GET and HEAD for every route of {@link ROUTES}, and OPTIONS for those under
 * /api/v1.
 *
 * @param components - `components.responses`, whose error responses HEAD repeats without their bodies.
 */
export function buildPaths(components: Json): Json {
  const paths: Json = {};
  for (const route of ROUTES) {
    paths[route.path] = {
      get: operation(route, 'get', components),
      head: operation(route, 'head', components),
      ...(route.underApi ? { options: preflight(route) } : {}),
    };
  }
  return paths;
}

