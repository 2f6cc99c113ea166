/**
 * The answers of the targets that are not the API's rows, keyed by the route table's target
 * kind: the OpenAPI document, the docs page with its files and the site icon, `/healthz`,
 * `/readyz`, and a CORS preflight. The pipeline looks its request's kind up in {@link TARGETS}
 * after the route step; `rows` and `meta` have no entry there and go on to the key checks.
 */
import { ApiError, errorAnswer, type ErrorAnswer } from '../errors.js';
import { limitsDetail } from '../guard/open-limits.js';
import { buildOpenApiDocument } from '../openapi/document.js';
import { PACKAGE_VERSION } from '../version.js';
import { answerDocs, DOCS_PATH, FAVICON_NAME } from './docs-page.js';
import { ifNoneMatchMatches, strongTag } from './etag.js';
import { parseListQuery } from './params.js';
import { PREFLIGHT_FIELDS } from './cors.js';
import { chooseEncoding, PreparedBody } from './respond.js';
import type { PipelineContext } from './pipeline-context.js';
import type { RequestState, TargetKind } from './request-state.js';

const STOPPING: ErrorAnswer = Object.freeze(errorAnswer('service_busy', 'The server is stopping; send new requests to another host.', 1));

/** The OpenAPI document ready to send: its bytes, compressed at most once per coding, and a strong tag per coding. */
export interface PreparedDocument {
  readonly body: PreparedBody;
  /** Bytes of the identity body. */
  readonly bytes: number;
  /** A strong ETag per content coding: each coding is another representation (docs/api.md §10). */
  readonly tags: Readonly<Record<'identity' | 'br' | 'gzip', string>>;
}

/**
 * Serialises the OpenAPI document once, for every request until the base address changes.
 *
 * @param baseUrl - the address the document's `servers` name.
 * @param license - the `license` of every response.
 * @param attribution - the `attribution` of every success response.
 */
export function prepareOpenApi(baseUrl: string, license: string, attribution: string): PreparedDocument {
  const json = JSON.stringify(buildOpenApiDocument({ baseUrl, license, attribution, packageVersion: PACKAGE_VERSION }));
  const body = new PreparedBody(json);
  return { body, bytes: body.identity.length, tags: { identity: strongTag(json), br: strongTag(json, 'br'), gzip: strongTag(json, 'gzip') } };
}

/** Answers one routed request whose target has its own answer. */
export type TargetAnswer = (s: RequestState, at: PipelineContext) => void;

/** `GET /api/v1/openapi.json`: no key, no token; 304 on a matching tag (docs/api.md §10). */
function openApi(s: RequestState, at: PipelineContext): void {
  const { req, res, fields } = s;
  try {
    parseListQuery(s.split.pairs, s.split.malformed, s.route!, at.isKnownKey);
  } catch (error) {
    return at.responder.sendError(req, res, error as ApiError, fields);
  }
  fields.push('Cache-Control', 'public, max-age=300');
  const document = at.openApiDocument();
  const coding = document.bytes > at.opts.compressMinBytes ? chooseEncoding(req.headers['accept-encoding']) : null;
  const tag = document.tags[coding ?? 'identity'];
  fields.push('ETag', tag);
  const condition = req.headers['if-none-match'];
  if (condition !== undefined && ifNoneMatchMatches(condition, tag)) return at.responder.sendNotModified(res, fields, document.bytes);
  at.responder.send(req, res, 200, fields, document.body);
}

/** `/healthz`: live while the process runs, breaker open or not (docs/api.md §8). */
function healthz(s: RequestState, at: PipelineContext): void {
  s.fields.push('Cache-Control', 'no-store');
  at.responder.send(s.req, s.res, 200, s.fields, '{"ok":true,"status":"live"}');
}

/** `/readyz`: ready with a snapshot, a keys file and a closed breaker, until the process stops (docs/api.md §8). */
function readyz(s: RequestState, at: PipelineContext): void {
  const { req, res, fields, snapshot } = s;
  // Stopping: out of rotation at once, though every other request is still answered.
  if (at.stopping.current) return at.responder.sendError(req, res, STOPPING, fields);
  const { breaker } = at;
  if (!snapshot || !at.keys.current || breaker.state !== 'closed') {
    return at.responder.sendError(req, res, errorAnswer('service_busy', snapshot ? 'The breaker is open.' : 'No snapshot is loaded yet.', breaker.retryAfterSeconds), fields);
  }
  fields.push('Cache-Control', 'no-store');
  at.responder.send(req, res, 200, fields, `{"ok":true,"status":"ready","snapshot_version":${JSON.stringify(snapshot.version)},"limits":${limitsDetail(at.limits.state())}}`);
}

/** A CORS preflight: 204 with no key and no token (docs/api.md §12). */
function preflight(s: RequestState, at: PipelineContext): void {
  s.fields.push(...PREFLIGHT_FIELDS);
  at.responder.sendFramed(s.req, s.res, 204, s.fields);
}

/** The answer of each target kind; `rows` and `meta` have none of their own: they pass the key checks first. */
export const TARGETS: Readonly<Record<TargetKind, TargetAnswer | undefined>> = Object.freeze({
  rows: undefined,
  meta: undefined,
  openapi: openApi,
  // The docs page and its files by their name under /docs/ (docs/api.md §13); '' is the page.
  docs: (s, at) => answerDocs(s, at, ''),
  docsAsset: (s, at) => answerDocs(s, at, s.url.slice(DOCS_PATH.length + 1, s.pathEnd)),
  favicon: (s, at) => answerDocs(s, at, FAVICON_NAME),
  healthz,
  readyz,
  preflight,
});
