import { test } from 'node:test';
import assert from 'node:assert/strict';
import { RATE_THRESHOLD_PAUSE_MS, backoffMs, judgeResponse, parseRetryAfter } from '../../src/fetch/retry-policy.js';

const NOW = Date.parse('2026-10-21T07:28:00Z');

test('Retry-After is read as delay-seconds or an HTTP-date (RFC 9110 §10.2.3), else ignored', () => {
  assert.equal(parseRetryAfter('120', NOW), 120_000);
  assert.equal(parseRetryAfter(' 0 ', NOW), 0);
  assert.equal(parseRetryAfter('Wed, 21 Oct 2026 07:28:30 GMT', NOW), 30_000);
  assert.equal(parseRetryAfter('Wed, 21 Oct 2026 07:00:00 GMT', NOW), 0, 'a date in the past means now');
  for (const junk of [null, '', '-5', '1.5', 'soon', '2026-10-21T07:28:30Z', '99999999999']) assert.equal(parseRetryAfter(junk, NOW), undefined, String(junk));
});

test('each status gets its verdict: keep, count as missing, retry (with a pause for all when EDGAR says), stop, or fail', () => {
  assert.deepEqual(judgeResponse(200, null, '', NOW), { kind: 'ok' });
  assert.deepEqual(judgeResponse(404, null, '', NOW), { kind: 'missing' });
  assert.deepEqual(judgeResponse(410, null, '', NOW), { kind: 'missing' });
  assert.deepEqual(judgeResponse(429, '7', '', NOW), { kind: 'retry', pauseAllMs: 7000, reason: 'HTTP 429, Retry-After 7 s' });
  assert.deepEqual(judgeResponse(503, null, '', NOW), { kind: 'retry', pauseAllMs: null, reason: 'HTTP 503' });
  for (const status of [500, 502, 504]) assert.equal(judgeResponse(status, null, '', NOW).kind, 'retry');
  const threshold = judgeResponse(403, null, '<title>SEC.gov | Request Rate Threshold Exceeded</title>', NOW);
  assert.deepEqual(threshold, { kind: 'retry', pauseAllMs: RATE_THRESHOLD_PAUSE_MS, reason: 'HTTP 403, SEC request rate threshold exceeded' });
  assert.equal(judgeResponse(403, null, 'SEC reserves the right to limit requests originating from undeclared automated tools.', NOW).kind, 'refused');
  assert.deepEqual(judgeResponse(403, null, 'Forbidden', NOW), { kind: 'failed', reason: 'HTTP 403' });
  assert.deepEqual(judgeResponse(400, null, '', NOW), { kind: 'failed', reason: 'HTTP 400' });
});

test('back-off doubles per retry up to the cap, with half of it jittered', () => {
  assert.equal(backoffMs(1, 1000, 60_000, 0), 500);
  assert.equal(backoffMs(1, 1000, 60_000, 0.999999), 1000);
  assert.equal(backoffMs(2, 1000, 60_000, 0), 1000);
  assert.equal(backoffMs(3, 1000, 60_000, 0.5), 3000);
  assert.equal(backoffMs(20, 1000, 60_000, 0), 30_000);
  assert.equal(backoffMs(20, 1000, 60_000, 0.999999), 60_000);
});
