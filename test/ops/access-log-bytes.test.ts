/**
 * The access log's line is made as bytes (line-bytes.ts), not as a string: for any request the
 * line is exactly the JSON text of its fields, numbers written as JavaScript writes them, and a
 * sink that takes bytes gets the same lines as one that takes strings.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { accessLogLine, accessLogObserver, MAX_USER_AGENT, unroutedPath } from '../../src/ops/access-log-line.js';
import { LineBytes } from '../../src/ops/line-bytes.js';
import { newNote, type RequestNote } from '../../src/ops/observer.js';
import { ROUTES } from '../../src/routes.js';
import { FILTER_FIELD } from '../../src/data/snapshot-index.js';
import { ERRORS, type ErrorCode } from '../../src/errors.js';
import type { ListQuery } from '../../src/http/params.js';

/** One response as the observer is told of it. */
interface Told {
  method: string | undefined; url: string; remote: string | undefined; userAgent: string | undefined;
  note: RequestNote; status: number; bytes: number; error: ErrorCode | undefined; durationMs: number;
}

const text = fc.string({ unit: 'binary', maxLength: 300 });
const told: fc.Arbitrary<Told> = fc.record({
  method: fc.option(fc.oneof(fc.constantFrom('GET', 'HEAD', 'POST'), text), { nil: undefined }),
  url: fc.oneof(fc.constant('/api/v1/finance/filings?ticker=AAPL'), text.map((t) => `/${t}`)),
  remote: fc.option(fc.oneof(fc.ipV4(), fc.ipV6(), text), { nil: undefined }),
  userAgent: fc.option(fc.oneof(fc.constant('curl/8.5.0'), text, fc.string({ unit: 'grapheme', minLength: 190, maxLength: 400 })), { nil: undefined }),
  requestId: fc.stringMatching(/^[0-9a-f]{8}-[0-9a-z]{1,8}$/),
  time: fc.integer({ min: 0, max: 4_102_444_800_000 }),
  route: fc.option(fc.constantFrom(...ROUTES), { nil: undefined }),
  keyId: fc.option(text, { nil: undefined }),
  plan: fc.option(fc.oneof(fc.constantFrom('free', 'pro'), text), { nil: undefined }),
  query: fc.option(fc.record({
    limit: fc.nat(),
    key: fc.option(fc.oneof(fc.stringMatching(/^[A-Z0-9-]{1,12}$/), fc.stringMatching(/^[0-9]{10}$/)), { nil: null }),
    filters: fc.option(text.map((t) => ({ text: t })), { nil: null }),
  }), { nil: undefined }),
  status: fc.integer({ min: 100, max: 599 }),
  bytes: fc.oneof(fc.nat(), fc.maxSafeInteger(), fc.constant(-1)),
  error: fc.option(fc.constantFrom(...(Object.keys(ERRORS) as ErrorCode[])), { nil: undefined }),
  durationMs: fc.oneof(fc.double({ min: 0, max: 1e7, noNaN: true }), fc.integer({ min: 0, max: 100_000 }).map((n) => n / 1000), fc.constantFrom(0, 0.0005, 0.0004999, 1e15)),
}).map((r) => {
  const note = newNote(r.requestId, r.time);
  note.route = r.route;
  note.keyId = r.keyId;
  note.plan = r.plan;
  note.query = r.query === undefined ? undefined : { ...r.query, cursor: null } as unknown as ListQuery;
  return { method: r.method, url: r.url, remote: r.remote, userAgent: r.userAgent, note, status: r.status, bytes: r.bytes, error: r.error, durationMs: r.durationMs };
});

/** The line as the access log documents it: its fields in order, as JSON.stringify writes them. */
function expectedLine(t: Told): string {
  const { route, query } = t.note;
  let params: object | null = null;
  if (query !== undefined && route !== undefined && route.params.length > 0) {
    const keyName = route.target.kind === 'rows' ? FILTER_FIELD[route.target.rows] : 'ticker';
    params = query.filters !== null ? { limit: query.limit, filters: query.filters.text } : query.key === null ? { limit: query.limit } : { limit: query.limit, [keyName]: query.key };
  }
  const cut = t.userAgent === undefined ? null : t.userAgent.length <= MAX_USER_AGENT ? t.userAgent
    : t.userAgent.slice(0, /[\uD800-\uDBFF]/.test(t.userAgent[MAX_USER_AGENT - 1]!) ? MAX_USER_AGENT - 1 : MAX_USER_AGENT);
  return JSON.stringify({
    time: new Date(t.note.time).toISOString(), request_id: t.note.requestId, method: t.method ?? null,
    path: route !== undefined ? route.path : unroutedPath(t.url), params, status: t.status, error: t.error ?? null, bytes: t.bytes,
    duration_ms: Math.round(t.durationMs * 1000) / 1000, key_id: t.note.keyId ?? null, plan: t.note.plan ?? null, remote: t.remote ?? null, user_agent: cut,
  });
}

const requestOf = (t: Told): never => ({ method: t.method, url: t.url, socket: { remoteAddress: t.remote }, headers: t.userAgent === undefined ? {} : { 'user-agent': t.userAgent } }) as never;

test('the line made as bytes is exactly the JSON text of its fields, for any request', () => {
  fc.assert(fc.property(told, (t) => {
    assert.equal(accessLogLine(requestOf(t), t.note, t.status, t.bytes, t.error, t.durationMs), expectedLine(t));
  }), { numRuns: 3000 });
});

test('a sink that takes bytes gets the same lines, each ending with a newline, as one that takes strings', () => {
  fc.assert(fc.property(fc.array(told, { maxLength: 40 }), (batch) => {
    const strings: string[] = [];
    const chunks: Buffer[] = [];
    const byString = accessLogObserver((line) => strings.push(line));
    // The observer reuses its bytes after the call: the sink copies them, as openAccessLog's does.
    const byBytes = accessLogObserver({ writeLines: (bytes) => chunks.push(Buffer.from(bytes)) });
    for (const t of batch) {
      for (const observer of [byString, byBytes]) observer.responded(requestOf(t), t.note, t.status, t.bytes, t.error, t.durationMs);
    }
    byString.flush!();
    byBytes.flush!();
    assert.deepEqual(strings, batch.map(expectedLine));
    assert.equal(Buffer.concat(chunks).toString('utf8'), strings.map((line) => `${line}\n`).join(''));
    assert.equal(chunks.length, batch.length === 0 ? 0 : 1, 'one batch, one call');
  }), { numRuns: 300 });
});

test('numbers and milliseconds are written as String() writes them', () => {
  const out = new LineBytes();
  fc.assert(fc.property(fc.oneof(fc.nat(), fc.maxSafeInteger(), fc.double({ noNaN: true }), fc.constantFrom(-0, 2 ** 53, 1e21, -1)), (n) => {
    out.at = 0;
    out.room(64);
    out.number(n);
    assert.equal(out.bytes.toString('latin1', 0, out.at), String(n));
    out.at = 0;
    out.millis(Math.abs(n));
    assert.equal(out.bytes.toString('latin1', 0, out.at), String(Math.round(Math.abs(n) * 1000) / 1000));
  }), { numRuns: 20_000 });
});

test('a line buffer grows and keeps what it holds', () => {
  const out = new LineBytes();
  const long = 'é€😀x'.repeat(40_000);
  out.room(3);
  out.text('ab,');
  out.room(3 * long.length);
  out.text(long);
  assert.equal(out.bytes.toString('utf8', 0, out.at), `ab,${long}`);
});

test('a line that fails to be made is left out whole: the batch\'s other lines are written and the error is told once', () => {
  const chunks: string[] = [];
  const errors: unknown[] = [];
  const observer = accessLogObserver({ writeLines: (bytes) => chunks.push(Buffer.from(bytes).toString('utf8')) }, undefined, (error) => errors.push(error));
  const req = { method: 'GET', url: '/x', socket: { remoteAddress: '192.0.2.1' }, headers: {} } as never;
  // It fails halfway, after its first fields were written.
  const broken = newNote('r1', 0);
  broken.route = ROUTES.find((route) => route.path === '/api/v1/finance/filings');
  broken.query = { filters: null, key: 'AAPL', cursor: null, get limit(): number { throw new Error('a bug'); } } as unknown as ListQuery;
  observer.responded(req, newNote('r0', 0), 404, 1, 'not_found', 0);
  observer.responded(req, broken, 404, 2, 'not_found', 0);
  observer.responded(req, newNote('r2', 0), 404, 3, 'not_found', 0);
  observer.flush!();
  assert.equal(chunks.length, 1);
  assert.deepEqual(chunks[0]!.split('\n').slice(0, -1).map((line) => (JSON.parse(line) as { request_id: string }).request_id), ['r0', 'r2']);
  assert.deepEqual(errors.map((error) => (error as Error).message), ['a bug']);
});

test('a line buffer grown past its bound is dropped at shrink, a usual one kept', () => {
  const out = new LineBytes();
  const usual = out.bytes;
  out.room(10);
  out.text('x'.repeat(10));
  out.shrink();
  assert.equal(out.bytes, usual, 'kept');
  assert.equal(out.at, 0);
  out.room(3 * 1024 * 1024);
  out.text('y'.repeat(3 * 1024 * 1024));
  out.shrink();
  assert.equal(out.bytes.length, usual.length, 'a new buffer of the starting size');
  assert.equal(out.at, 0);
});
