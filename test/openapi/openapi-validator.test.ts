/**
 * The ajv-based response validator that the HTTP tests run against the served document.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { buildOpenApiDocument } from '../../src/openapi/document.js';
import { SAMPLE_OPTIONS } from '../../scripts/lint-openapi.js';
import { createResponseValidator } from '../helpers/openapi-validator.js';
import { fixtureRows } from '../fixtures/rows.js';
import { SAMPLE_META_ROW, SAMPLE_ROWS } from './sample-rows.js';

const served = JSON.parse(JSON.stringify(buildOpenApiDocument(SAMPLE_OPTIONS)));
const validator = createResponseValidator(served);

const envelope = (data: unknown[]) => ({
  ok: true, api_version: 'v1', as_of: '2026-11-02T06:00:00.123Z', license: SAMPLE_OPTIONS.license,
  attribution: SAMPLE_OPTIONS.attribution, count: data.length, data,
});
const error = (code: string) => ({ ok: false, error: code, detail: 'text', license: SAMPLE_OPTIONS.license });

describe('createResponseValidator on the built document', () => {
  test('accepts the success envelope of every row route, with and without written fields', () => {
    const rows = fixtureRows();
    for (const kind of ['reports', 'insiders', 'whales', 'earnings', 'filings'] as const) {
      const path = `/api/v1/finance/${kind}`;
      assert.equal(validator.validate(path, 200, envelope([...rows[kind], SAMPLE_ROWS[kind]])), null, path);
      const written = kind === 'earnings' ? 'recap' : 'summary';
      const facts = rows[kind].map((row) => Object.fromEntries(Object.entries(row).filter(([name]) => name !== written)));
      assert.equal(validator.validate(path, 200, envelope(facts)), null, `${path} without ${written}`);
      assert.equal(validator.validate(path, 200, envelope([])), null, `${path} empty`);
    }
    assert.equal(validator.validate('/api/v1/meta', 200, envelope([SAMPLE_META_ROW])), null);
  });

  test('refuses a row of another kind, a null written field, a missing count, a wrong api_version', () => {
    const path = '/api/v1/finance/insiders';
    assert.match(validator.validate(path, 200, envelope([SAMPLE_ROWS.whales])) ?? '', /\/data\/0/);
    assert.match(validator.validate(path, 200, envelope([{ ...SAMPLE_ROWS.insiders, summary: null }])) ?? '', /\/data\/0\/summary must be string/);
    const { count: _count, ...withoutCount } = envelope([]);
    assert.match(validator.validate(path, 200, withoutCount) ?? '', /required property 'count'/);
    assert.match(validator.validate(path, 200, { ...envelope([]), api_version: 'v2' }) ?? '', /api_version must be equal to constant "v1"/);
  });

  test('meta holds exactly one row', () => {
    assert.notEqual(validator.validate('/api/v1/meta', 200, envelope([])), null);
    assert.notEqual(validator.validate('/api/v1/meta', 200, envelope([SAMPLE_META_ROW, SAMPLE_META_ROW])), null);
  });

  test('narrows error codes to the status and names the allowed ones', () => {
    assert.equal(validator.validate('/api/v1/finance/filings', 403, error('api_not_available_on_plan')), null);
    assert.equal(validator.validate('/api/v1/finance/filings', 429, error('rate_limited_day')), null);
    assert.equal(validator.validate('/readyz', 503, error('service_busy')), null);
    const message = validator.validate('/api/v1/finance/filings', 403, error('rate_limited_day'));
    assert.match(message ?? '', /\/error must be equal to one of the allowed values \["account_unavailable","api_not_available_on_plan"\]/);
    assert.match(validator.validate('/api/v1/meta', 401, { ok: false, error: 'invalid_api_key', detail: 'x' }) ?? '', /license/);
  });

  test('checks date-time for real: as_of on 30 February is refused', () => {
    assert.match(validator.validate('/api/v1/finance/filings', 200, { ...envelope([]), as_of: '2026-02-30T00:00:00Z' }) ?? '', /as_of must match format "date-time"/);
  });

  test('probes: /healthz and /readyz bodies are their own small objects', () => {
    assert.equal(validator.validate('/healthz', 200, { ok: true, status: 'live' }), null);
    assert.equal(validator.validate('/readyz', 200, { ok: true, status: 'ready', snapshot_version: '2026-11-02', limits: { store: 'redis', mode: 'fallback_local' } }), null);
    assert.notEqual(validator.validate('/readyz', 200, { ok: true, status: 'ready', snapshot_version: '2026-11-02', limits: { store: 'redis', mode: 'down' } }), null);
    assert.notEqual(validator.validate('/readyz', 200, { ok: true, status: 'ready' }), null);
  });

  test('ignores a query string in the path', () => {
    assert.equal(validator.validate('/api/v1/finance/filings?limit=5', 200, envelope([])), null);
  });

  test('throws for a path, status or body the document does not describe', () => {
    assert.throws(() => validator.validate('/api/v1/finance/filings/', 200, {}), /no path/);
    assert.throws(() => validator.validate('/healthz', 503, {}), /no response 503/);
    assert.throws(() => validator.validateComponent('Nope', {}), /no schema/);
    assert.throws(() => createResponseValidator({ openapi: '3.1.0' }), TypeError);
  });

  test('404 and 405 bodies validate against ErrorEnvelope', () => {
    assert.equal(validator.validateComponent('ErrorEnvelope', error('not_found')), null);
    assert.equal(validator.validateComponent('ErrorEnvelope', error('method_not_allowed')), null);
    assert.notEqual(validator.validateComponent('ErrorEnvelope', error('teapot')), null);
  });
});

test('strict mode accepts OpenAPI keywords and x- extensions inside schemas, and follows response $refs', () => {
  const document = {
    openapi: '3.1.0', info: { title: 't', version: '1' }, 'x-top': 1,
    paths: { '/thing': { get: { responses: { 200: { $ref: '#/components/responses/Thing' }, '4XX': { description: 'client', content: {
      'application/problem+json': { schema: { type: 'object', required: ['title'], properties: { title: { type: 'string' } } } } } } } } } },
    components: {
      responses: { Thing: { description: 'a thing', content: { 'application/json': { schema: { $ref: '#/components/schemas/Thing' } } } } },
      schemas: { Thing: { type: 'object', required: ['day'], properties: { day: { type: 'string', format: 'date', example: '2025-01-01', 'x-unit': 'day' } },
        xml: { name: 'thing' }, externalDocs: { url: 'https://www.sec.gov/' }, example: { day: '2025-01-01' } } },
    },
  };
  const checker = createResponseValidator(document);
  assert.equal(checker.validate('/thing', 200, { day: '2024-02-29' }), null);
  assert.match(checker.validate('/thing', 200, { day: '2025-02-29' }) ?? '', /format "date"/);
  assert.match(checker.validate('/thing', 404, {}) ?? '', /title/);
});
