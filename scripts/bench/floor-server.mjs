// The floor: the least work a correct answer needs, done the most direct way, as a reference
// between the bare server (no work) and the API. Per request it does only what no correct
// implementation can skip:
//   - the key: SHA-256 of the X-API-Key header, looked up among the keys file's digests (one Map);
//   - the limit: one token taken from the key's minute and day buckets (one object per key);
//   - the rows: for a `ticker=` query, that ticker's own copy of the rows, laid out in one slab
//     like the API's pages, so the bytes sent are as cold as the API's rows (one Map);
//   - the envelope: `as_of` is the clock at the response (docs/api.md §5), so the body is sent as
//     the envelope's front (with this millisecond's `as_of`), the rows and `]}`, in one corked
//     write, as the API sends it (the cheapest way measured; see docs/performance-notes.md);
//   - the headers: the captured header names, with this request's id and rate-limit figures, and
//     for a `ticker=` query that ticker's own ETag and Link strings (made at start).
// It skips everything else the API does: the breaker, the route table, parameter checks, the
// key's status and plan, and error envelopes. So it is not correct, only cheaper than anything
// correct: about the best ratio to the bare server that a correct server can reach on the same
// machine. Its answers carry the same bytes as the bare server's, but for `as_of` and the ids.
// With `--as-api DIST` (a build's dist/ folder), the floor also does what that build does for every
// answer without checking anything: it is served through the build's connection layer (the
// connection cap, the backlog, the send timeout, the server's options) and writes the build's
// access log line per response to stdout, with the route, key id, plan and query the API would
// log. That is the floor of an API that must log each response (docs/performance-notes.md).
// Usage: node scripts/bench/floor-server.mjs RESPONSES.json KEYS.json TICKERS.txt [NAME,...] [--as-api DIST]
//   RESPONSES.json: as for bare-server.mjs ({"/bare/NAME": {"headers": {...}, "body": "..."}},
//     each body a success envelope); served at /floor/NAME.
//   KEYS.json: the keys file the API serves with; TICKERS.txt: the rotation, one ticker a line.
//   NAME,...: the endpoints whose requests name a ticker; each ticker gets its own copy of
//     their rows (the others send one copy).
// Prints "floor listening on http://127.0.0.1:PORT (pid N)" on stderr.
import { createServer } from 'node:http';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { hash } from 'node:crypto';

const args = process.argv.slice(2);
const asApiAt = args.indexOf('--as-api');
const asApi = asApiAt === -1 ? undefined : args.splice(asApiAt, 2)[1];
const [responsesFile, keysFile, tickersFile, byTickerNames = ''] = args;
const perTicker = new Set(byTickerNames.split(',').filter(Boolean).map((name) => `/bare/${name}`));
const tickers = readFileSync(tickersFile, 'utf8').split('\n').map((line) => line.split(' ')[0]).filter(Boolean);

// Header values made per request; every other captured header is sent as captured.
const DYNAMIC = new Set(['x-request-id', 'x-ratelimit-remaining-minute', 'x-ratelimit-remaining-day', 'ratelimit']);

const AS_OF = '"as_of":"';
const DATA_OPEN = '"data":[';
const responses = new Map();
for (const [path, { headers, body }] of Object.entries(JSON.parse(readFileSync(responsesFile, 'utf8')))) {
  const asOfAt = body.indexOf(AS_OF) + AS_OF.length;
  const rowsAt = body.indexOf(DATA_OPEN) + DATA_OPEN.length;
  if (asOfAt < AS_OF.length || rowsAt < DATA_OPEN.length || !body.endsWith(']}')) throw new Error(`${path}: not a success envelope`);
  const rows = Buffer.from(body.slice(rowsAt, -2), 'utf8');
  // Each ticker's copy sits in one slab with a gap of one copy after it (a page holds more
  // rows than a response sends), so that consecutive requests touch different memory.
  const copies = perTicker.has(path) ? tickers : [];
  const slab = Buffer.allocUnsafeSlow(rows.length * 2 * copies.length);
  const fixed = Object.entries(headers).filter(([name]) => !DYNAMIC.has(name)).flat();
  // Each ticker's answer also names its own page: its own ETag and Link strings (the captured
  // ones with the ticker put in), made here, as cold per request as the API's kept per list.
  const captured = /[?&]ticker=([^&>]+)/.exec(headers.link ?? '')?.[1];
  const byTicker = new Map(copies.map((ticker, i) => {
    const copy = slab.subarray(i * 2 * rows.length, (i * 2 + 1) * rows.length);
    rows.copy(copy);
    const own = captured === undefined ? fixed : fixed.map((value, at) => (at % 2 === 1 && (fixed[at - 1] === 'etag' || fixed[at - 1] === 'link')
      ? String(value).split(captured).join(ticker) : value));
    return [ticker, { rows: copy, fixed: own }];
  }));
  responses.set(path.replace('/bare/', '/floor/'), {
    // The envelope's front before and after `as_of` (an RFC 3339 time of fixed length, so the
    // body's length is the captured one).
    head: body.slice(0, asOfAt), middle: body.slice(body.indexOf('"', asOfAt), rowsAt), bytes: Buffer.byteLength(body),
    rows, byTicker, fixed,
    minuteLimit: Number(headers['x-ratelimit-limit-minute']), dayLimit: Number(headers['x-ratelimit-limit-day']),
  });
}

// Buckets per key, found by the digest's bytes (a latin1 string of 32 characters).
const buckets = new Map();
for (const key of JSON.parse(readFileSync(keysFile, 'utf8')).keys) {
  buckets.set(Buffer.from(key.sha256, 'hex').toString('latin1'), { minute: Number.NaN, day: Number.NaN, atMs: 0, id: key.id, plan: key.plan });
}

const MINUTE_MS = 60_000;
const DAY_MS = 86_400_000;
const idPrefix = `${process.pid.toString(16)}-`;
let counter = 0;
// as_of, shared by the responses of one millisecond.
let asOfMs = Number.NaN;
let asOf = '';

// The API's parts for --as-api: its connection layer, and its access log with a note per response.
const api = asApi === undefined ? undefined : await (async () => {
  const load = (file) => import(new URL(file, `file://${resolve(asApi)}/`).href);
  const [{ Connections }, { resolveConnectionOptions }, { createEyes }, { openAccessLog }, { newNote, NOTE }, { ROUTES }] = await Promise.all([
    load('http/connections.js'), load('http/connection-options.js'), load('ops/eyes.js'), load('ops/access-log.js'), load('ops/observer.js'), load('routes.js')]);
  const routes = new Map([['/floor/filings', '/api/v1/finance/filings'], ['/floor/insiders', '/api/v1/finance/insiders'], ['/floor/meta', '/api/v1/meta']]
    .map(([path, route]) => [path, ROUTES.find((r) => r.path === route)]));
  return { Connections, limits: resolveConnectionOptions({}), eyes: createEyes(openAccessLog('stdout'), false), newNote, NOTE, routes };
})();

const handle = (req, res) => {
  const note = api === undefined ? undefined : (res[api.NOTE] = api.newNote(idPrefix + counter, Date.now()));
  const url = req.url ?? '/';
  const q = url.indexOf('?');
  const response = responses.get(q === -1 ? url : url.slice(0, q));
  const presented = req.headers['x-api-key'];
  const bucket = typeof presented === 'string' ? buckets.get(hash('sha256', presented, 'latin1')) : undefined;
  if (response === undefined || bucket === undefined) {
    res.writeHead(response === undefined ? 404 : 401, ['Content-Length', 0]);
    res.end();
    return;
  }
  const { minuteLimit, dayLimit } = response;
  const nowMs = Date.now();
  const elapsed = nowMs - bucket.atMs;
  const minute = Math.min(minuteLimit, (Number.isNaN(bucket.minute) ? minuteLimit : bucket.minute) + (elapsed * minuteLimit) / MINUTE_MS);
  const day = Math.min(dayLimit, (Number.isNaN(bucket.day) ? dayLimit : bucket.day) + (elapsed * dayLimit) / DAY_MS);
  if (minute < 1 || day < 1) {
    res.writeHead(429, ['Content-Length', 0]);
    res.end();
    return;
  }
  bucket.minute = minute - 1;
  bucket.day = day - 1;
  bucket.atMs = nowMs;
  const t = url.indexOf('ticker=');
  const end = url.indexOf('&', t);
  const own = t === -1 ? undefined : response.byTicker.get(url.slice(t + 7, end === -1 ? url.length : end));
  const rows = own === undefined ? response.rows : own.rows;
  if (nowMs !== asOfMs) {
    asOfMs = nowMs;
    asOf = new Date(nowMs).toISOString();
  }
  const left = Math.floor(bucket.minute);
  const leftToday = Math.floor(bucket.day);
  const fields = (own === undefined ? response.fixed : own.fixed).slice();
  fields.push(
    'x-request-id', idPrefix + (counter++).toString(36),
    'x-ratelimit-remaining-minute', left, 'x-ratelimit-remaining-day', leftToday,
    'ratelimit', `"minute";r=${left};t=1, "day";r=${leftToday};t=1`,
    'Content-Length', response.bytes,
  );
  res.writeHead(200, fields);
  res.cork();
  res.write(`${response.head}${asOf}${response.middle}`);
  res.write(rows);
  res.end(']}');
  if (note !== undefined) {
    note.route = api.routes.get(q === -1 ? url : url.slice(0, q));
    note.keyId = bucket.id;
    note.plan = bucket.plan;
    note.query = { limit: limitOf(url), key: t === -1 ? null : url.slice(t + 7, end === -1 ? url.length : end), filters: null, cursor: null };
    api.eyes.onSent(req, res, 200, response.bytes, undefined);
  }
};

/** The `limit` a request's URL names (20, the default, when none). */
function limitOf(url) {
  const at = url.indexOf('limit=');
  return at === -1 ? 20 : Number.parseInt(url.slice(at + 6), 10);
}

let server;
if (api === undefined) {
  server = createServer(handle);
} else {
  const { limits } = api;
  const connections = new api.Connections(handle, {
    log: () => {}, now: Date.now, idleGraceMs: Math.min(1000, limits.keepAliveTimeoutMs), unsentHighWaterBytes: limits.unsentHighWaterBytes,
    sendTimeoutMs: limits.sendTimeoutMs, sendCheckIntervalMs: limits.sendCheckIntervalMs,
  });
  server = createServer({
    requireHostHeader: false, headersTimeout: limits.headersTimeoutMs, requestTimeout: limits.requestTimeoutMs,
    keepAliveTimeout: limits.keepAliveTimeoutMs, connectionsCheckingInterval: limits.checkIntervalMs,
  }, connections.onRequest);
  connections.attach(server, limits.maxConnections);
}
server.listen(0, '127.0.0.1', () => {
  process.stderr.write(`floor listening on http://127.0.0.1:${server.address().port} (pid ${process.pid})\n`);
});
process.on('SIGTERM', () => server.close(() => process.exit(0)));
