/**
 * Validates response bodies against an OpenAPI 3.1 document with ajv's JSON Schema 2020-12
 * validator (the dialect of OpenAPI 3.1). The tests use it on the document the server serves,
 * so a body that drifts from the published contract fails a test.
 */
import { Ajv2020 } from 'ajv/dist/2020.js';
import type { ErrorObject, ValidateFunction } from 'ajv';

/** Identifier under which the document is registered; `$ref`s into it start with this. */
const DOCUMENT_ID = 'https://equity-facts.invalid/openapi.json';

/** Keywords of OpenAPI's Schema Object that are not JSON Schema (OpenAPI 3.1 §4.8.24). */
const OPENAPI_KEYWORDS = ['example', 'discriminator', 'xml', 'externalDocs'];

type JsonObject = Record<string, unknown>;
const isObject = (value: unknown): value is JsonObject => typeof value === 'object' && value !== null && !Array.isArray(value);

/** A response validator built from one document. */
export interface ResponseValidator {
  /**
   * Validates a parsed JSON body against the response schema of (path, status) for GET.
   *
   * @param path - a path of the document, such as `/api/v1/meta`; a query string is ignored.
   * @param status - the HTTP status; `4XX`-style ranges and `default` are used when no exact entry exists.
   * @returns null when valid, else a readable error string.
   * @throws Error when the document has no such path, operation, response or JSON schema.
   */
  validate(path: string, status: number, body: unknown): string | null;
  /**
   * Validates a value against a schema of `components.schemas`, for bodies of responses that
   * no operation lists (404 and 405 use `ErrorEnvelope`).
   *
   * @throws Error when the document has no such schema.
   */
  validateComponent(name: string, value: unknown): string | null;
}

/**
 * Compiles response schemas of an OpenAPI 3.1 document with ajv's Ajv2020 in strict mode.
 * The document is registered whole under an `$id`, so its `#/components/schemas/...` refs
 * resolve. OpenAPI keywords (`example`, `discriminator`, `xml`, `externalDocs`), every `x-*`
 * extension and the OpenAPI Object's own fields are registered as annotation keywords; the `date` and `date-time` formats
 * (RFC 3339 §5.6) are registered here because ajv-formats is not installed.
 *
 * @param document - a parsed OpenAPI 3.1 document; it is copied, not changed.
 * @throws TypeError when `document` has no `paths` object.
 */
export function createResponseValidator(document: unknown): ResponseValidator {
  if (!isObject(document) || !isObject(document.paths)) throw new TypeError('not an OpenAPI document: no paths object');
  const copy: JsonObject = { ...structuredClone(document), $id: DOCUMENT_ID };
  const ajv = new Ajv2020({ strict: true, allErrors: true, allowUnionTypes: true });
  // ajv compiles the document's root on the way to a fragment, so the OpenAPI Object's own
  // fields (openapi, info, paths, components, ...) must be accepted as annotations too.
  const keywords = new Set([...OPENAPI_KEYWORDS, ...extensionKeys(copy), ...Object.keys(copy).filter((key) => key !== '$id')]);
  for (const keyword of keywords) if (!ajv.getKeyword(keyword)) ajv.addKeyword({ keyword });
  ajv.addFormat('date', { type: 'string', validate: isDate });
  ajv.addFormat('date-time', { type: 'string', validate: isDateTime });
  ajv.addSchema(copy);

  const compiled = new Map<string, ValidateFunction>();
  const check = (pointer: string, value: unknown): string | null => {
    let validateFunction = compiled.get(pointer);
    if (!validateFunction) {
      validateFunction = ajv.compile({ $ref: `${DOCUMENT_ID}#${pointer}` });
      compiled.set(pointer, validateFunction);
    }
    return validateFunction(value) ? null : describe(validateFunction.errors ?? []);
  };

  return {
    validate(path, status, body) {
      return check(responseSchemaPointer(copy, path.split('?')[0] ?? path, status), body);
    },
    validateComponent(name, value) {
      const schemas = isObject(copy.components) ? copy.components.schemas : undefined;
      if (!isObject(schemas) || !(name in schemas)) throw new Error(`the document has no schema components.schemas.${name}`);
      return check(`/components/schemas/${token(name)}`, value);
    },
  };
}

/** A JSON Pointer token (RFC 6901 §3). */
const token = (text: string): string => text.replace(/~/g, '~0').replace(/\//g, '~1');

/** Finds the JSON Pointer of the schema of a GET response, following `$ref`s to `components.responses`. */
function responseSchemaPointer(document: JsonObject, path: string, status: number): string {
  const paths = document.paths as JsonObject;
  const pathItem = paths[path];
  if (!isObject(pathItem)) throw new Error(`the document has no path ${path}`);
  const operation = pathItem.get;
  if (!isObject(operation) || !isObject(operation.responses)) throw new Error(`the document has no GET operation for ${path}`);
  const responses = operation.responses;
  const key = [String(status), `${String(status)[0]}XX`, 'default'].find((candidate) => candidate in responses);
  if (key === undefined) throw new Error(`the document has no response ${status} for GET ${path}`);
  let pointer = `/paths/${token(path)}/get/responses/${token(key)}`;
  let response = responses[key];
  for (let hops = 0; isObject(response) && typeof response.$ref === 'string'; hops++) {
    if (hops > 10 || !response.$ref.startsWith('#/')) throw new Error(`cannot follow ${response.$ref} for ${status} of GET ${path}`);
    pointer = response.$ref.slice(1);
    response = resolvePointer(document, pointer);
  }
  if (!isObject(response) || !isObject(response.content)) throw new Error(`response ${status} of GET ${path} has no content`);
  const mediaType = Object.keys(response.content).find((name) => /^application\/(.+\+)?json\b/.test(name));
  const media = mediaType === undefined ? undefined : response.content[mediaType];
  if (mediaType === undefined || !isObject(media) || !('schema' in media)) throw new Error(`response ${status} of GET ${path} has no JSON schema`);
  return `${pointer}/content/${token(mediaType)}/schema`;
}

function resolvePointer(document: JsonObject, pointer: string): unknown {
  let node: unknown = document;
  for (const part of pointer.split('/').slice(1)) {
    if (!isObject(node)) return undefined;
    node = node[part.replace(/~1/g, '/').replace(/~0/g, '~')];
  }
  return node;
}

/** Every `x-*` key anywhere in the document, so that strict mode accepts extensions inside schemas. */
function extensionKeys(value: unknown, found = new Set<string>()): Set<string> {
  if (Array.isArray(value)) {
    for (const item of value) extensionKeys(item, found);
  } else if (isObject(value)) {
    for (const [key, child] of Object.entries(value)) {
      if (key.startsWith('x-')) found.add(key);
      extensionKeys(child, found);
    }
  }
  return found;
}

/** At most this many ajv errors are spelled out; the rest are counted. */
const MAX_ERRORS_SHOWN = 8;

function describe(errors: readonly ErrorObject[]): string {
  const shown = errors.slice(0, MAX_ERRORS_SHOWN).map((error) => {
    const where = error.instancePath === '' ? '(body)' : error.instancePath;
    const allowed = 'allowedValues' in error.params ? ` ${JSON.stringify(error.params.allowedValues)}`
      : 'allowedValue' in error.params ? ` ${JSON.stringify(error.params.allowedValue)}` : '';
    return `${where} ${error.message ?? 'is invalid'}${allowed} (schema ${error.schemaPath})`;
  });
  const more = errors.length - shown.length;
  return shown.join('; ') + (more > 0 ? `; and ${more} more` : '');
}

const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
const DATE_TIME = /^(\d{4}-\d{2}-\d{2})[Tt](\d{2}):(\d{2}):(\d{2})(\.\d+)?([Zz]|[+-](\d{2}):(\d{2}))$/;

/** RFC 3339 full-date with a day that exists in its month. */
function isDate(text: string): boolean {
  const match = DATE.exec(text);
  if (!match) return false;
  const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])];
  const leap = year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0);
  const days = [31, leap ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][month - 1];
  return days !== undefined && day >= 1 && day <= days;
}

/** RFC 3339 date-time with a time zone (leap second allowed). */
function isDateTime(text: string): boolean {
  const match = DATE_TIME.exec(text);
  if (!match || !isDate(match[1]!)) return false;
  const [hour, minute, second] = [Number(match[2]), Number(match[3]), Number(match[4])];
  const offsetOk = match[7] === undefined || (Number(match[7]) < 24 && Number(match[8]) < 60);
  return hour < 24 && minute < 60 && second <= 60 && offsetOk;
}
