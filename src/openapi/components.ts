/**
 * `components` of the OpenAPI document: the envelopes, one schema per row kind (published
 * from the same row schemas the snapshot reader enforces), one list schema per row route, and
 * the two security schemes.
 */
import { VERSION_PATTERN } from '../data/snapshot-format.js';
import { ERROR_CODES } from '../errors.js';
import { PLANS } from '../plans.js';
import { ROW_ORDER_TEXT } from '../rows/order.js';
import { META_ROW, ROW_KINDS, ROW_SCHEMAS, WRITTEN_FIELD, type RowKind } from '../rows/schemas.js';

/** A JSON Schema or other OpenAPI object, as plain JSON. */
export type Json = Record<string, unknown>;

/** Name of the component schema of each stored row kind. */
export const ROW_SCHEMA_NAMES: Readonly<Record<RowKind, string>> = Object.freeze({
  reports: 'ReportRow',
  insiders: 'InsiderRow',
  whales: 'WhaleRow',
  earnings: 'EarningsRow',
  filings: 'FilingRow',
  'insider-transactions': 'InsiderTransactionRow',
  financials: 'FinancialsRow',
  holders: 'HolderRow',
});

/** Name of the component schema of each row route's 200 body. */
export const LIST_SCHEMA_NAMES: Readonly<Record<RowKind, string>> = Object.freeze({
  reports: 'ReportList',
  insiders: 'InsiderList',
  whales: 'WhaleList',
  earnings: 'EarningsList',
  filings: 'FilingList',
  'insider-transactions': 'InsiderTransactionList',
  financials: 'FinancialsList',
  holders: 'HolderList',
});

/** Names of the other component schemas. */
export const SCHEMA_NAMES = Object.freeze({
  success: 'SuccessEnvelope',
  error: 'ErrorEnvelope',
  metaRow: 'MetaRow',
  meta: 'MetaResponse',
  document: 'OpenApiDocument',
  liveness: 'Liveness',
  readiness: 'Readiness',
});

/** Value of `api_version` in every success envelope (service spec, "Versioning"). */
export const API_VERSION = 'v1';

/** The `$ref` to a component schema. */
export const schemaRef = (name: string): Json => ({ $ref: `#/components/schemas/${name}` });

/** Names of the security schemes; any one of them authenticates (service spec, "Authentication"). */
export const SECURITY_SCHEME_NAMES = Object.freeze({ bearer: 'bearerAuth', apiKey: 'apiKeyHeader' });

function successEnvelope(): Json {
  return {
    type: 'object',
    description: 'Body of every 200 from the API. `count` is always present.',
    required: ['ok', 'api_version', 'as_of', 'license', 'attribution', 'count', 'data'],
    properties: {
      ok: { const: true, description: 'always true' },
      api_version: { const: API_VERSION, description: 'version label of the API' },
      as_of: { type: 'string', format: 'date-time', description: 'when the response was assembled (UTC)' },
      license: { type: 'string', description: 'data licence plus information-only disclaimer' },
      attribution: { type: 'string', description: 'credit to display, visible and linked, when the written analysis is reused' },
      count: { type: 'integer', minimum: 0, description: 'number of rows in data' },
      data: { type: 'array', items: { type: 'object', additionalProperties: true }, description: 'the rows; each an object whose other properties are allowed' },
    },
  };
}

function errorEnvelope(): Json {
  return {
    type: 'object',
    description: 'Body of every error response.',
    required: ['ok', 'error', 'detail', 'license'],
    properties: {
      ok: { const: false, description: 'always false' },
      error: { enum: [...ERROR_CODES], description: 'stable machine-readable code' },
      detail: { type: 'string', description: 'human-readable text; never contains a key or a stack trace' },
      license: { type: 'string', description: 'data licence plus information-only disclaimer' },
    },
  };
}

/** A 200 body: the success envelope with `data` narrowed to one row schema. */
function listOf(rowSchemaName: string, description: string, extra: Json = {}): Json {
  return {
    description,
    allOf: [
      schemaRef(SCHEMA_NAMES.success),
      { type: 'object', properties: { data: { type: 'array', items: schemaRef(rowSchemaName), ...extra } } },
    ],
  };
}

function listDescription(kind: RowKind): string {
  const field = WRITTEN_FIELD[kind];
  return `Rows ordered by ${ROW_ORDER_TEXT[kind]}. At most the plan's max_page_size rows. ` +
    `The written field \`${field}\` is absent (not null) on plans without written summaries and where none exists.`;
}

/**
 * Builds `components.schemas`. Row schemas are deep copies of the row table, so the document
 * shares no objects with it.
 */
export function buildSchemas(): Json {
  const schemas: Json = {
    [SCHEMA_NAMES.success]: successEnvelope(),
    [SCHEMA_NAMES.error]: errorEnvelope(),
  };
  for (const kind of ROW_KINDS) schemas[ROW_SCHEMA_NAMES[kind]] = structuredClone(ROW_SCHEMAS[kind]);
  schemas[SCHEMA_NAMES.metaRow] = metaRow();
  for (const kind of ROW_KINDS) schemas[LIST_SCHEMA_NAMES[kind]] = listOf(ROW_SCHEMA_NAMES[kind], listDescription(kind));
  schemas[SCHEMA_NAMES.meta] = listOf(SCHEMA_NAMES.metaRow, 'Exactly one meta row.', { minItems: 1, maxItems: 1 });
  schemas[SCHEMA_NAMES.document] = {
    type: 'object',
    description: 'An OpenAPI 3.1 document: this one.',
    required: ['openapi', 'info', 'paths'],
    properties: { openapi: { type: 'string', pattern: '^3\\.1\\.[0-9]+$' }, info: { type: 'object' }, paths: { type: 'object' } },
  };
  schemas[SCHEMA_NAMES.liveness] = probe('live', 'The process runs.', {});
  schemas[SCHEMA_NAMES.readiness] = probe('ready', 'A snapshot is loaded and the breaker is closed.', {
    snapshot_version: { type: 'string', pattern: VERSION_PATTERN.source, description: 'version of the snapshot served' },
    limits: {
      type: 'object',
      description: "Where the keys' token buckets are: in this process (local), in the cluster primary (primary), or in a Redis shared by every process (redis). " +
        'mode: shared while that store answers; with Redis unreachable, fallback_local (this process answers from its own buckets) or unavailable (503 until it is back).',
      required: ['store', 'mode'],
      properties: { store: { enum: ['local', 'primary', 'redis'] }, mode: { enum: ['shared', 'fallback_local', 'unavailable'] } },
      additionalProperties: false,
    },
  });
  return schemas;
}

/** Body of a probe's 200: not the success envelope, since a probe serves no rows. */
function probe(status: string, description: string, extra: Record<string, Json>): Json {
  return {
    type: 'object',
    description,
    required: ['ok', 'status', ...Object.keys(extra)],
    properties: { ok: { const: true }, status: { const: status }, ...extra },
  };
}

/** The meta row, with `plan` narrowed to the plan ids: a key on any other plan never gets past 403. */
function metaRow(): Json {
  const schema = structuredClone(META_ROW) as Json & { properties: Record<string, Json> };
  schema.properties.plan = { ...schema.properties.plan, enum: PLANS.map((plan) => plan.id) };
  schema.properties.plan_label = { ...schema.properties.plan_label, enum: PLANS.map((plan) => plan.label) };
  return schema;
}

/** Builds `components.securitySchemes`: either header authenticates; the query string never does. */
export function buildSecuritySchemes(): Json {
  return {
    [SECURITY_SCHEME_NAMES.bearer]: {
      type: 'http',
      scheme: 'bearer',
      description: '`Authorization: Bearer <API key>`. The scheme name is case-insensitive (RFC 9110 §11.1); keys in the query string are refused with 401.',
    },
    [SECURITY_SCHEME_NAMES.apiKey]: {
      type: 'apiKey',
      in: 'header',
      name: 'X-API-Key',
      description: '`X-API-Key: <API key>`. When both headers are sent they must carry the same key.',
    },
  };
}
