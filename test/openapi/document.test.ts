/**
 * The OpenAPI document is derived from the plan, route, error and row tables, and passes
 * Redocly's recommended ruleset offline.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { ERROR_CODES, ERRORS, type ErrorCode } from '../../src/errors.js';
import { PLANS } from '../../src/plans.js';
import { filterSchema } from '../../src/filters.js';
import { PARAMS, ROUTES, type Route } from '../../src/routes.js';
import { ROW_ORDER_TEXT } from '../../src/rows/order.js';
import { ADVICE_WORDS, META_ROW, ROW_KINDS, ROW_SCHEMAS } from '../../src/rows/schemas.js';
import { LIST_SCHEMA_NAMES, ROW_SCHEMA_NAMES } from '../../src/openapi/components.js';
import { PARSER_ERROR_CODES } from '../../src/openapi/description.js';
import { buildOpenApiDocument } from '../../src/openapi/document.js';
import { lintDocument, SAMPLE_OPTIONS } from '../../scripts/lint-openapi.js';
import { createResponseValidator } from '../helpers/openapi-validator.js';

type Json = Record<string, any>;
const doc = JSON.parse(JSON.stringify(buildOpenApiDocument(SAMPLE_OPTIONS))) as Json;
const get = (route: Route): Json => doc.paths[route.path].get;
/** Follows a `$ref` into `components` of the document. */
const deref = (node: Json): Json => (typeof node?.$ref === 'string'
  ? node.$ref.slice(2).split('/').reduce((at: Json, part: string) => at[part], doc) : node);
const errorEnum = (response: Json): string[] => deref(response).content['application/json'].schema.allOf[1].properties.error.enum;
/** A response's header object, following a `$ref` into `components.headers`. */
function headerOf(response: Json, name: string): Json | undefined {
  const header = deref(response).headers?.[name];
  return header === undefined ? undefined : deref(header);
}
const authenticated = ROUTES.filter((route) => route.auth);
const RATE_LIMIT_HEADERS = ['X-RateLimit-Limit-Minute', 'X-RateLimit-Remaining-Minute', 'X-RateLimit-Limit-Day', 'X-RateLimit-Remaining-Day', 'RateLimit-Policy', 'RateLimit'];

describe('document shape', () => {
  test('is OpenAPI 3.1.0 with the options in info and servers', () => {
    assert.equal(doc.openapi, '3.1.0');
    assert.equal(doc.info.title, 'equity-facts');
    assert.equal(doc.info.version, SAMPLE_OPTIONS.packageVersion);
    assert.deepEqual(doc.servers, [{ url: SAMPLE_OPTIONS.baseUrl }]);
    assert.ok(doc.info.description.includes(SAMPLE_OPTIONS.license));
    assert.ok(doc.info.description.includes(SAMPLE_OPTIONS.attribution));
  });

  test('survives a JSON round trip unchanged (no undefined, no shared state)', () => {
    assert.deepEqual(JSON.parse(JSON.stringify(buildOpenApiDocument(SAMPLE_OPTIONS))), doc);
    const fresh = buildOpenApiDocument(SAMPLE_OPTIONS) as Json;
    fresh.components.schemas.InsiderRow.properties.ticker.pattern = 'changed';
    assert.notEqual((ROW_SCHEMAS.insiders.properties!.ticker as Json).pattern, 'changed');
  });
});

describe('derived from the plan table', () => {
  test('x-plans is the plan table in snake_case', () => {
    assert.deepEqual(doc['x-plans'], PLANS.map((p) => ({
      id: p.id, label: p.label, per_minute: p.perMinute, per_day: p.perDay, max_page_size: p.maxPageSize, summaries: p.summaries,
    })));
  });

  test('the description has a Markdown table row per plan', () => {
    for (const p of PLANS) {
      const row = `| \`${p.id}\` | ${p.label} | ${p.perMinute} | ${p.perDay} | ${p.maxPageSize} | ${p.summaries ? 'yes' : 'no'} |`;
      assert.ok(doc.info.description.includes(row), `missing plan row ${row}`);
    }
  });
});

describe('derived from the route table', () => {
  test('every route is a GET and a HEAD operation (and an OPTIONS preflight under /api/v1), and nothing else is', () => {
    assert.deepEqual(Object.keys(doc.paths).sort(), ROUTES.map((route) => route.path).sort());
    const ids = new Set<string>();
    for (const route of ROUTES) {
      assert.deepEqual(Object.keys(doc.paths[route.path]), route.underApi ? ['get', 'head', 'options'] : ['get', 'head'], route.path);
      assert.equal(get(route).operationId, route.operationId);
      assert.equal(get(route).summary, route.summary);
      assert.ok(get(route).description.startsWith(route.description));
      const head = doc.paths[route.path].head;
      assert.deepEqual(Object.keys(head.responses), Object.keys(get(route).responses), `${route.path}: HEAD answers what GET answers`);
      for (const [status, response] of Object.entries(head.responses as Record<string, Json>)) {
        assert.equal(response.$ref, undefined, `${route.path} HEAD ${status} is inline`);
        assert.equal(response.content, undefined, `${route.path} HEAD ${status} has no body`);
        assert.deepEqual(response.headers, deref(get(route).responses[status]).headers, `${route.path} HEAD ${status} headers`);
      }
      for (const method of Object.keys(doc.paths[route.path])) ids.add(doc.paths[route.path][method].operationId);
    }
    assert.equal(ids.size, ROUTES.reduce((n, route) => n + (route.underApi ? 3 : 2), 0), 'operationIds are unique');
  });

  test('every parameter of the parameter table is in the query; conditional operations take If-None-Match; docs files a path name', () => {
    for (const route of ROUTES) {
      const parameters: Json[] = get(route).parameters ?? [];
      assert.deepEqual(parameters.filter((p) => p.in === 'query').map((p) => p.name), [...route.params], route.path);
      for (const p of parameters.filter((p) => p.in === 'query')) {
        assert.equal(p.required, false);
        const filter = route.filters.find((spec) => spec.name === p.name);
        assert.deepEqual(p.schema, filter !== undefined ? filterSchema(filter) : PARAMS[p.name as keyof typeof PARAMS].schema, `${route.path} ${p.name}`);
      }
      const conditional = ['rows', 'openapi', 'docs', 'docsAsset', 'favicon'].includes(route.target.kind);
      assert.equal(parameters.some((p) => p.in === 'header' && p.name === 'If-None-Match'), conditional, route.path);
    }
    const whales = doc.paths['/api/v1/finance/whales'].get.parameters as Json[];
    assert.deepEqual(whales.find((p) => p.name === 'cik')!.schema.maxLength, 20);
    const limit = doc.paths['/api/v1/finance/reports'].get.parameters.find((p: Json) => p.name === 'limit');
    assert.equal(limit.schema.minimum, 1);
    const cursor = doc.paths['/api/v1/finance/filings'].get.parameters.find((p: Json) => p.name === 'cursor');
    assert.equal(cursor.schema.maxLength, 512);
    assert.match(cursor.description, /Link/);
    assert.deepEqual(doc.paths['/docs/{asset}'].get.parameters[0], { ...doc.paths['/docs/{asset}'].get.parameters[0], name: 'asset', in: 'path', required: true });
  });

  test('list pages document Link and ETag on 200 and a 304 that carries the rate-limit fields; the document a strong ETag', () => {
    for (const route of ROUTES.filter((r) => r.target.kind === 'rows')) {
      const responses = get(route).responses;
      assert.ok(headerOf(responses['200'], 'Link'), route.path);
      assert.ok(headerOf(responses['200'], 'ETag'));
      assert.equal(headerOf(responses['304'], 'ETag')?.required, true);
      assert.equal(headerOf(responses['304'], 'X-RateLimit-Remaining-Minute')?.required, true);
      assert.equal(responses['304'].content, undefined);
    }
    assert.ok(headerOf(doc.paths['/api/v1/openapi.json'].get.responses['200'], 'ETag'));
    assert.ok(doc.paths['/api/v1/openapi.json'].get.responses['304']);
  });

  test('CORS: responses under /api/v1 allow any origin; each path there has a preflight 204 and a 405 with Allow', () => {
    for (const route of ROUTES.filter((r) => r.underApi)) {
      assert.equal(headerOf(get(route).responses['200'], 'Access-Control-Allow-Origin')?.schema.const, '*');
      const options = doc.paths[route.path].options;
      assert.deepEqual(options.security, []);
      assert.ok(headerOf(options.responses['204'], 'Access-Control-Allow-Methods'));
      assert.deepEqual(errorEnum(options.responses['405']), ['method_not_allowed']);
      assert.equal(headerOf(options.responses['405'], 'Allow')?.schema.const, 'GET, HEAD');
    }
    assert.deepEqual(errorEnum(doc.paths['/docs/{asset}'].get.responses['404']), ['not_found']);
  });

  test('security: either scheme authenticates; the document itself and the probes need none', () => {
    assert.deepEqual(doc.security, [{ bearerAuth: [] }, { apiKeyHeader: [] }]);
    assert.deepEqual(doc.components.securitySchemes.bearerAuth, { ...doc.components.securitySchemes.bearerAuth, type: 'http', scheme: 'bearer' });
    assert.deepEqual(doc.components.securitySchemes.apiKeyHeader, { ...doc.components.securitySchemes.apiKeyHeader, type: 'apiKey', in: 'header', name: 'X-API-Key' });
    for (const route of ROUTES) assert.deepEqual(get(route).security, route.auth ? undefined : [], route.path);
    assert.deepEqual(doc.paths['/api/v1/openapi.json'].get.security, []);
  });
});

describe('derived from the error table', () => {
  const codesOf = (status: number): ErrorCode[] => ERROR_CODES.filter((c) => ERRORS[c].status === status);
  const parserStatuses = [...new Set(PARSER_ERROR_CODES.map((c) => ERRORS[c].status))];
  const statuses = (...own: number[]): string[] => [...new Set([...own, ...parserStatuses])].sort((a, b) => a - b).map(String);

  test('authenticated routes answer 400, 401, 402, 403, 500, 503, 429 where a request takes a token, and the parser refusals', () => {
    for (const route of authenticated) {
      const expected = ['200', ...(route.target.kind === 'rows' ? ['304'] : []),
        ...statuses(400, 401, 402, 403, ...(route.countsAgainstLimits ? [429] : []), 500, 503)];
      assert.deepEqual(Object.keys(get(route).responses), expected, route.path);
    }
  });

  test('the document answers 200, 304, 400, 500, 503; /healthz 200; /readyz 200 and 503; a docs file 404; all the parser refusals', () => {
    assert.deepEqual(Object.keys(doc.paths['/api/v1/openapi.json'].get.responses), ['200', '304', ...statuses(400, 500, 503)]);
    for (const name of RATE_LIMIT_HEADERS) assert.equal(headerOf(doc.paths['/api/v1/openapi.json'].get.responses['400'], name), undefined, name);
    assert.deepEqual(Object.keys(doc.paths['/healthz'].get.responses), ['200', ...statuses()]);
    assert.deepEqual(Object.keys(doc.paths['/readyz'].get.responses), ['200', ...statuses(503)]);
    assert.deepEqual(Object.keys(doc.paths['/docs/{asset}'].get.responses), ['200', '304', ...statuses(404)]);
  });

  test('each error status lists exactly the codes of the error table with that status, and every code is in some response', () => {
    const listed = new Set<string>();
    for (const path of Object.values(doc.paths as Record<string, Record<string, Json>>)) {
      for (const op of Object.values(path)) {
        for (const [status, response] of Object.entries(op.responses as Record<string, Json>)) {
          if (Number(status) < 400 || op.operationId.startsWith('head')) continue;
          assert.deepEqual(errorEnum(response), codesOf(Number(status)), `${op.operationId} ${status}`);
          for (const c of errorEnum(response)) listed.add(c);
        }
      }
    }
    assert.deepEqual([...listed].sort(), [...ERROR_CODES].sort());
    const insiders = doc.paths['/api/v1/finance/insiders'].get.responses;
    assert.deepEqual(errorEnum(insiders['403']), ['account_unavailable', 'api_not_available_on_plan']);
    assert.deepEqual(errorEnum(insiders['429']), ['rate_limited_minute', 'rate_limited_day']);
    assert.deepEqual(errorEnum(insiders['400']), codesOf(400));
  });

  test('SuccessEnvelope rows are objects with additional properties, so generators do not type them as empty records', () => {
    assert.deepEqual(doc.components.schemas.SuccessEnvelope.properties.data.items, { type: 'object', additionalProperties: true });
  });

  test('ErrorEnvelope lists every code, and every code is documented in the error table of the description', () => {
    assert.deepEqual(doc.components.schemas.ErrorEnvelope.properties.error.enum, [...ERROR_CODES]);
    assert.deepEqual(doc.components.schemas.ErrorEnvelope.required, ['ok', 'error', 'detail', 'license']);
    for (const c of ERROR_CODES) assert.ok(doc.info.description.includes(`| ${ERRORS[c].status} | \`${c}\` |`), c);
    assert.ok(doc.info.description.includes('clientError'));
    assert.ok(doc.info.description.includes('Allow: GET, HEAD'));
  });

  test('rate-limit headers on 200 and 429 of counted routes and on meta 200; on 400 too, not required (a parser 400 has none); none on 401, 402, 403', () => {
    for (const route of authenticated) {
      for (const status of ['200', '429'].filter((s) => s !== '429' || route.countsAgainstLimits)) {
        for (const name of RATE_LIMIT_HEADERS) assert.equal(headerOf(get(route).responses[status], name)?.required, true, `${route.path} ${status} ${name}`);
      }
      for (const name of RATE_LIMIT_HEADERS) assert.equal(headerOf(get(route).responses['400'], name)?.required, false, `${route.path} 400 ${name}`);
    }
    for (const route of authenticated) {
      for (const status of ['401', '402', '403', '500', '503']) {
        for (const name of RATE_LIMIT_HEADERS) assert.equal(headerOf(get(route).responses[status], name), undefined, `${route.path} ${status}`);
      }
    }
  });

  test('Retry-After on 429 and 503 only; X-Request-Id on every response', () => {
    for (const route of ROUTES) {
      for (const [status, response] of Object.entries(get(route).responses as Record<string, Json>)) {
        if (status === '304') continue;
        const retryAfter = status === '429' || status === '503';
        assert.equal(headerOf(response, 'Retry-After')?.required, retryAfter ? true : undefined, `${route.path} ${status}`);
        assert.equal(headerOf(response, 'X-Request-Id')?.required, true);
        assert.ok(headerOf(response, 'X-Snapshot-Version'));
      }
    }
  });
});

describe('derived from the row tables', () => {
  test('one component schema per row kind, equal to the row table', () => {
    for (const kind of ROW_KINDS) assert.deepEqual(doc.components.schemas[ROW_SCHEMA_NAMES[kind]], ROW_SCHEMAS[kind]);
    assert.deepEqual(Object.keys(doc.components.schemas.MetaRow.properties), Object.keys(META_ROW.properties!));
    assert.deepEqual(doc.components.schemas.MetaRow.properties.plan.enum, PLANS.map((p) => p.id));
  });

  test('each list schema requires every envelope field, count included, and states its order', () => {
    assert.deepEqual(doc.components.schemas.SuccessEnvelope.required, ['ok', 'api_version', 'as_of', 'license', 'attribution', 'count', 'data']);
    for (const kind of ROW_KINDS) {
      const list = doc.components.schemas[LIST_SCHEMA_NAMES[kind]];
      assert.deepEqual(list.allOf[0], { $ref: '#/components/schemas/SuccessEnvelope' });
      assert.deepEqual(list.allOf[1].properties.data.items, { $ref: `#/components/schemas/${ROW_SCHEMA_NAMES[kind]}` });
      assert.ok(list.description.includes(ROW_ORDER_TEXT[kind]), kind);
      assert.ok(list.description.includes('absent (not null)'), kind);
    }
  });

  test('the description names every advice word and the written-field rule', () => {
    for (const word of ADVICE_WORDS) assert.ok(doc.info.description.includes(`"${word}"`), word);
    assert.ok(doc.info.description.includes('never `null`'));
    assert.ok(doc.info.description.includes('1 KiB'));
  });
});

test('every response example is valid against its schema', () => {
  const validator = createResponseValidator(doc);
  let checked = 0;
  for (const route of ROUTES) {
    for (const [status, response] of Object.entries(get(route).responses as Record<string, Json>)) {
      for (const example of Object.values((deref(response).content?.['application/json']?.examples ?? {}) as Record<string, Json>)) {
        assert.equal(validator.validate(route.path, Number(status), example.value), null, `${route.path} ${status}`);
        checked++;
      }
    }
  }
  assert.ok(checked > 0);
});

describe('Redocly lint (recommended ruleset, offline)', () => {
  test('the document passes with no errors and no warnings', () => {
    const { status, output } = lintDocument(doc);
    assert.equal(status, 0, output);
    assert.match(output, /Your API description is valid/);
    // stylish problem lines look like `  3801:9  warning  operation-4xx-response  ...`
    assert.doesNotMatch(output, /^\s*\d+:\d+\s+(error|warning)\s/m, output);
    assert.doesNotMatch(output, /You have \d+ warning|Validation failed/, output);
  });

  test('the lint is not vacuous: a broken document fails it', () => {
    const broken = structuredClone(doc);
    delete broken.info.version;
    broken.paths['/api/v1/meta'].get.responses['200'].content['application/json'].schema = { $ref: '#/components/schemas/Missing' };
    const { status, output } = lintDocument(broken);
    assert.notEqual(status, 0, output);
    assert.match(output, /no-unresolved-refs/);
  });
});
