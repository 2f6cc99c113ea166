/**
 * The docs page (docs/api.md §13): `GET /docs` renders the served OpenAPI document with Swagger UI,
 * shipped in the package under `dist/docs/` (copied from the `swagger-ui-dist` dev dependency by
 * `npm run build`, with its Apache-2.0 licence), so nothing is loaded from another host: no CDN,
 * no web fonts, and the validator badge is off (`validatorUrl: null`). Swagger UI was chosen over
 * Redoc (no try-it console) and Scalar (larger, and loads fonts from its CDN unless told not to):
 * its Authorize dialog takes a key once and sends it in a header with every try-it call.
 *
 * The page's Content-Security-Policy lets it reach its own origin only, so even a viewer that
 * tried to call out could not. Assets are read once on first use, kept in memory, and
 * compressed once per encoding, off the event loop.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { brotliCompress, constants as zlib, gzip } from 'node:zlib';
import { PACKAGE_ROOT } from '../options.js';
import { API_PREFIX } from '../routes.js';
import { errorAnswer, type ErrorAnswer } from '../errors.js';
import { ifNoneMatchMatches, strongTag } from './etag.js';
import { chooseEncoding } from './respond.js';
import { quoteInput } from './quote.js';
import type { PipelineContext } from './pipeline-context.js';
import type { RequestState } from './request-state.js';
import { faviconIco, FAVICON_TYPE } from './favicon.js';

/** Folder of the viewer's files in the package. */
export const DOCS_ASSETS_DIR = join(PACKAGE_ROOT, 'dist', 'docs');

/** Path of the page; its assets are under `${DOCS_PATH}/`. */
export const DOCS_PATH = '/docs';

/** The page's Content-Security-Policy: its own origin only (Swagger UI sets inline styles). */
export const DOCS_CSP = "default-src 'none'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; " +
  "connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'";

/** Name of the site icon among the page's files; `/favicon.ico` answers it too. */
export const FAVICON_NAME = 'favicon.ico';

/**
 * The page, its start-up script, its icon and the viewer's files, by the name under `/docs/`.
 * Names are a fixed list: a request never names a file path. A file with `body` is made here;
 * the others are read from {@link DOCS_ASSETS_DIR}.
 */
const FILES: Readonly<Record<string, { readonly type: string; readonly body?: () => Buffer }>> = Object.freeze({
  '': { type: 'text/html; charset=utf-8', body: () => Buffer.from(page()) },
  'init.js': { type: 'text/javascript; charset=utf-8', body: () => Buffer.from(initScript()) },
  [FAVICON_NAME]: { type: FAVICON_TYPE, body: faviconIco },
  'swagger-ui-bundle.js': { type: 'text/javascript; charset=utf-8' },
  'swagger-ui.css': { type: 'text/css; charset=utf-8' },
  'LICENSE.swagger-ui.txt': { type: 'text/plain; charset=utf-8' },
  'NOTICE.swagger-ui.txt': { type: 'text/plain; charset=utf-8' },
  'swagger-ui-bundle.js.LICENSE.txt': { type: 'text/plain; charset=utf-8' },
});

/** Names of the assets under `/docs/`, for the OpenAPI document. */
export const DOCS_ASSET_NAMES: readonly string[] = Object.freeze(Object.keys(FILES).filter((name) => name !== ''));

/** One file ready to send. */
export interface DocsFile {
  readonly type: string;
  readonly body: Buffer;
  /** Strong ETag of the identity body. */
  readonly tag: string;
  /** Compressed bodies, made on first use. */
  encoded: { br?: Buffer; gzip?: Buffer };
  /** Encodings being compressed. */
  readonly pending: Set<'br' | 'gzip'>;
}

const loaded = new Map<string, DocsFile | null>();

/**
 * The file served at `/docs` (name `''`) or `/docs/<name>`.
 *
 * @returns the file; null when the name is not one of the page's files, or the viewer is not
 *   installed (dist/docs missing: run `npm run build`).
 */
export function docsFile(name: string): DocsFile | null {
  const cached = loaded.get(name);
  if (cached !== undefined) return cached;
  const spec = Object.hasOwn(FILES, name) ? FILES[name]! : undefined;
  let file: DocsFile | null = null;
  if (spec !== undefined) {
    try {
      const body = spec.body !== undefined ? spec.body() : readFileSync(join(DOCS_ASSETS_DIR, name));
      file = { type: spec.type, body, tag: strongTag(body), encoded: {}, pending: new Set() };
    } catch {
      file = null;
    }
  }
  // Only the fixed names are cached, so the map stays bounded whatever clients ask for.
  if (spec !== undefined) loaded.set(name, file);
  return file;
}

/** Whether the viewer is installed (its bundle is in dist/docs). */
export function docsInstalled(): boolean {
  return docsFile('swagger-ui-bundle.js') !== null;
}

/**
 * The body in an encoding when it is ready, else undefined. Compression starts on first need on
 * Node's thread pool (brotli of the 1.7 MB bundle takes 0.1-0.4 s, too long to hold the event
 * loop); until it is done the identity body is sent. Kept once made.
 */
export function encodedBody(file: DocsFile, encoding: 'br' | 'gzip'): Buffer | undefined {
  const ready = file.encoded[encoding];
  if (ready !== undefined) return ready;
  if (!file.pending.has(encoding)) {
    file.pending.add(encoding);
    const done = (error: Error | null, body: Buffer): void => {
      if (error === null) file.encoded[encoding] = body;
      else file.pending.delete(encoding); // try again on a later request
    };
    if (encoding === 'br') brotliCompress(file.body, { params: { [zlib.BROTLI_PARAM_QUALITY]: 9, [zlib.BROTLI_PARAM_SIZE_HINT]: file.body.length } }, done);
    else gzip(file.body, { level: 9 }, done);
  }
  return undefined;
}

function page(): string {
  // Relative addresses, so the page also works where the API is mounted under a prefix.
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>equity-facts API</title>
<link rel="stylesheet" href="docs/swagger-ui.css">
<link rel="icon" href="favicon.ico" type="image/x-icon">
</head>
<body>
<noscript>This page renders the OpenAPI document at <a href="${API_PREFIX.slice(1)}/openapi.json">${API_PREFIX}/openapi.json</a> and needs JavaScript.</noscript>
<div id="swagger-ui"></div>
<script src="docs/swagger-ui-bundle.js"></script>
<script src="docs/init.js"></script>
</body>
</html>
`;
}

/**
 * Starts Swagger UI on the served document, made fit for a first screen at 1,280×800:
 * - HEAD and OPTIONS operations stay in the served document for client generators, but the page
 *   lists GET only (HEAD is GET without a body; OPTIONS is the browsers' CORS preflight).
 * - The description's first paragraph stays on top; its sections (authentication, plans, errors,
 *   paging ...) fold into one closed `<details>`, so Authorize and the operations come next.
 * - When none of the document's `servers` is this page's origin (a base URL set for the public
 *   address, a test on a free port), the page's origin is put first, so try-it calls go to the
 *   server that served the page and nowhere else.
 */
function initScript(): string {
  return `'use strict';
(function () {
  var specUrl = new URL('${API_PREFIX.slice(1)}/openapi.json', document.baseURI).href;
  fetch(specUrl, { headers: { Accept: 'application/json' } }).then(function (response) {
    if (!response.ok) throw new Error('GET ' + specUrl + ': ' + response.status);
    return response.json();
  }).then(function (spec) {
    var here = window.location.origin;
    var servers = Array.isArray(spec.servers) ? spec.servers : [];
    var local = servers.some(function (server) {
      try { return new URL(server.url, window.location.href).origin === here; } catch (e) { return false; }
    });
    if (!local) spec.servers = [{ url: here, description: 'this server (the origin of this page)' }].concat(servers);
    Object.keys(spec.paths || {}).forEach(function (path) {
      delete spec.paths[path].head;
      delete spec.paths[path].options;
    });
    var description = String((spec.info && spec.info.description) || '');
    var sections = description.indexOf('\\n## ');
    if (sections !== -1) {
      var titles = description.slice(sections).match(/^## .+$/gm).map(function (line) { return line.slice(3).toLowerCase(); });
      spec.info.description = description.slice(0, sections) + '\\n\\n<details><summary>How the API works: ' +
        titles.join(', ') + '</summary>\\n\\n' + description.slice(sections + 1) + '\\n\\n</details>\\n';
    }
    window.ui = SwaggerUIBundle({
      spec: spec,
      dom_id: '#swagger-ui',
      presets: [SwaggerUIBundle.presets.apis],
      layout: 'BaseLayout',
      validatorUrl: null,
      deepLinking: true,
      displayRequestDuration: true,
      persistAuthorization: false,
      supportedSubmitMethods: ['get']
    });
  }).catch(function (error) {
    document.getElementById('swagger-ui').textContent = 'Could not load the API description: ' + error.message;
  });
})();
`;
}

/**
 * Answers `GET /docs` (name `''`) or `GET /docs/<name>`: the file with a strong ETag, compressed
 * when accepted, 304 on a matching `If-None-Match`; 404 `not_found` for a name that is not one
 * of the page's files, quoted as any detail quotes client input (quote.ts), never a key.
 *
 * @param s - the request, its response's header fields so far (X-Request-Id ...).
 * @param at - its responder (which tells the access log and metrics) and the keys served.
 * @param name - the file's name under `/docs/`.
 */
export function answerDocs(s: RequestState, at: PipelineContext, name: string): void {
  const refused = docsAnswer(s, at, name);
  if (refused !== undefined) at.responder.sendError(s.req, s.res, refused, s.fields);
}

/** {@link answerDocs}, but a 404 is returned, not sent. */
function docsAnswer({ req, res, fields }: RequestState, { responder, isKnownKey }: PipelineContext, name: string): ErrorAnswer | undefined {
  const file = docsFile(name);
  if (file === null) {
    if (name === '' || Object.hasOwn(FILES, name)) {
      return errorAnswer('not_found', `The docs viewer is not installed (${DOCS_ASSETS_DIR} is missing its files; run npm run build).`);
    }
    return errorAnswer('not_found', `No such file of the docs page: ${quoteInput(name, isKnownKey)}`);
  }
  if (name === '' && !docsInstalled()) {
    return errorAnswer('not_found', `The docs viewer is not installed (${DOCS_ASSETS_DIR} is missing its files; run npm run build).`);
  }
  const accepted = file.body.length > 1024 ? chooseEncoding(req.headers['accept-encoding']) : null;
  const encoded = accepted === null ? undefined : encodedBody(file, accepted);
  const encoding = encoded === undefined ? null : accepted;
  const tag = encoding === null ? file.tag : `${file.tag.slice(0, -1)}-${encoding}"`;
  // The page is checked on every load (it names the viewer's files); the files for an hour.
  fields.push('Cache-Control', name === '' ? 'no-cache' : 'public, max-age=3600', 'ETag', tag);
  if (name === '') fields.push('Content-Security-Policy', DOCS_CSP, 'X-Frame-Options', 'DENY');
  if (file.body.length > 1024) fields.push('Vary', 'Accept-Encoding');
  const condition = req.headers['if-none-match'];
  if (condition !== undefined && ifNoneMatchMatches(condition, tag)) {
    responder.sendFramed(req, res, 304, fields);
    return undefined;
  }
  const body = encoded ?? file.body;
  fields.push('Content-Type', file.type, 'Content-Length', body.length);
  if (encoding !== null) fields.push('Content-Encoding', encoding);
  responder.sendFramed(req, res, 200, fields, body);
  return undefined;
}
