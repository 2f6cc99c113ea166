/**
 * Every 200 and every error body the server sends is valid against the OpenAPI document that the
 * same server serves (ajv, JSON Schema 2020-12), on every plan and route.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { startHarness, withKey, KEYS } from '../helpers/harness.js';
import { createResponseValidator } from '../helpers/openapi-validator.js';
import { PLANS } from '../../src/plans.js';
import { ROUTES } from '../../src/routes.js';

test('every 200 and error body validates against the served OpenAPI document', async (t) => {
  const h = await startHarness(t, { breaker: { coolDownMs: 1_000 } });
  const document = (await h.get('/api/v1/openapi.json')).json;
  const validator = createResponseValidator(document);
  let checked = 0;
  const check = async (path: string, headers: Record<string, string>, expected: number): Promise<void> => {
    const reply = await h.get(path, headers);
    assert.equal(reply.status, expected, `${path} ${reply.text.slice(0, 200)}`);
    const problem = validator.validate(path.split('?')[0]!, reply.status, reply.json);
    assert.equal(problem, null, `${path} → ${reply.status}: ${problem}`);
    checked++;
  };

  for (const plan of PLANS) {
    for (const route of ROUTES.filter((r) => r.auth)) {
      const query = route.params.includes('ticker') ? '?ticker=AAPL&limit=200' : route.params.includes('cik') ? '?cik=1045810' : '';
      await check(`${route.path}${query}`, withKey(KEYS[plan.id]), 200);
      await check(route.path, withKey(KEYS[plan.id]), 200);
      // A minute later the buckets are full again: the free plan's 10 a minute do not cover every route twice.
      h.clock.advance(60_000);
    }
  }
  await check('/api/v1/openapi.json', {}, 200);
  await check('/healthz', {}, 200);
  await check('/readyz', {}, 200);
  await check('/api/v1/finance/insiders?limit=x', withKey(KEYS.signal), 400);
  await check('/api/v1/finance/insiders', {}, 401);
  await check('/api/v1/finance/insiders', withKey(KEYS.suspended), 402);
  await check('/api/v1/finance/insiders', withKey(KEYS.inactive), 403);
  await check('/api/v1/finance/insiders', withKey(KEYS.nonApi), 403);
  for (let i = 0; i < 10; i++) await h.get('/api/v1/finance/reports', withKey(KEYS.free));
  await check('/api/v1/finance/reports', withKey(KEYS.free), 429);
  for (const [path, method, status] of [['/nope', 'GET', 404], ['/api/v1/meta', 'DELETE', 405]] as const) {
    const reply = await h.get(path, {}, method);
    assert.equal(reply.status, status);
    assert.equal(validator.validateComponent('ErrorEnvelope', reply.json), null, `${status} body is an ErrorEnvelope`);
  }
  h.load = { eventLoopDelayMs: 10_000, inFlight: 0, heapUsedBytes: 0 };
  h.server.handler.breaker.sampleNow();
  await check('/api/v1/finance/whales', withKey(KEYS.signal), 503);
  await check('/api/v1/openapi.json', {}, 503);
  await check('/readyz', {}, 503);
  assert.ok(checked > 50);
});
