/**
 * A small vocabulary for writing JSON Schema (draft 2020-12, the dialect of OpenAPI 3.1) as
 * code, and a validator for exactly that vocabulary. The row schemas are written once with it;
 * the snapshot reader checks every row against them and the OpenAPI document publishes them,
 * so the two cannot drift. The server has no runtime dependencies, hence a validator of our own
 * for this closed subset (tests check it against ajv on the same schemas).
 */

/** JSON Schema type names used here (RFC draft-bhutton-json-schema-validation-01 §6.1.1). */
export type SchemaType = 'string' | 'integer' | 'number' | 'boolean' | 'null' | 'array' | 'object';

/** The subset of JSON Schema 2020-12 keywords that the row schemas use. */
export interface Schema {
  type?: SchemaType | SchemaType[];
  description?: string;
  properties?: Record<string, Schema>;
  required?: string[];
  additionalProperties?: boolean;
  items?: Schema;
  maxItems?: number;
  enum?: readonly (string | number | boolean | null)[];
  const?: string | number | boolean;
  format?: 'date' | 'date-time';
  pattern?: string;
  minLength?: number;
  maxLength?: number;
  minimum?: number;
  maximum?: number;
  examples?: unknown[];
  default?: unknown;
}

/** A string; `extra` adds keywords such as `pattern`. */
export const str = (description?: string, extra: Schema = {}): Schema => ({ type: 'string', ...withDescription(description), ...extra });
/** A calendar date `YYYY-MM-DD` (RFC 3339 full-date). */
export const date = (description?: string): Schema => ({ type: 'string', format: 'date', pattern: DATE_PATTERN, ...withDescription(description) });
/** An instant, RFC 3339 date-time in UTC. */
export const dateTime = (description?: string): Schema => ({ type: 'string', format: 'date-time', ...withDescription(description) });
/** A whole number, at least 0 unless `minimum` says otherwise. */
export const int = (description?: string, minimum = 0): Schema => ({ type: 'integer', minimum, ...withDescription(description) });
/** Any finite number. */
export const num = (description?: string, extra: Schema = {}): Schema => ({ type: 'number', ...withDescription(description), ...extra });
/** A boolean. */
export const bool = (description?: string): Schema => ({ type: 'boolean', ...withDescription(description) });
/** A CIK as EDGAR writes it in URLs of data.sec.gov: exactly 10 digits, zero-padded. */
export const cik = (description = 'SEC Central Index Key, zero-padded to 10 digits'): Schema => ({ type: 'string', pattern: '^[0-9]{10}$', description });
/** An accession number, `##########-##-######` (EDGAR Filer Manual, Vol. II §3.1). */
export const accessionNo = (description = 'EDGAR accession number'): Schema => ({ type: 'string', pattern: '^[0-9]{10}-[0-9]{2}-[0-9]{6}$', description });
/** One of the listed values. */
export const oneOf = (values: readonly (string | null)[], description?: string): Schema => ({ enum: values, ...withDescription(description) });
/** The schema, or JSON null. */
export function nullable(schema: Schema): Schema {
  if (schema.enum) return { ...schema, enum: schema.enum.includes(null) ? schema.enum : [...schema.enum, null] };
  if (schema.type === undefined) throw new Error('nullable() needs a schema with a type or an enum');
  const types = Array.isArray(schema.type) ? schema.type : [schema.type];
  return { ...schema, type: [...types, 'null'] };
}
/** An array of `items`, at most `maxItems` long when given. */
export const arr = (items: Schema, description?: string, maxItems?: number): Schema => ({
  type: 'array', items, ...(maxItems === undefined ? {} : { maxItems }), ...withDescription(description),
});
/**
 * An object. Every property is required unless listed in `optional`; other properties are
 * allowed (service spec: "each row is an object with additional properties allowed").
 */
export function obj(properties: Record<string, Schema>, optional: readonly string[] = [], description?: string): Schema {
  return {
    type: 'object',
    properties,
    required: Object.keys(properties).filter((name) => !optional.includes(name)),
    ...withDescription(description),
  };
}

/** RFC 3339 full-date with a real month and day range. */
const DATE_PATTERN = '^[0-9]{4}-(0[1-9]|1[0-2])-(0[1-9]|[12][0-9]|3[01])$';
const DATE_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/;

function withDescription(description: string | undefined): Schema {
  return description === undefined ? {} : { description };
}

const patternCache = new Map<string, RegExp>();

/**
 * Checks a JSON value against a schema written with this vocabulary.
 *
 * @param value - a value parsed from JSON.
 * @param schema - a schema built from the helpers above.
 * @param path - where `value` sits, for the message; `$` by default.
 * @returns `null` when the value conforms, else a message naming the first failing path,
 *   such as `$.notable[2].value_usd: expected number, got string`.
 */
export function validate(value: unknown, schema: Schema, path = '$'): string | null {
  if (schema.const !== undefined && value !== schema.const) return `${path}: expected ${JSON.stringify(schema.const)}`;
  if (schema.enum && !schema.enum.includes(value as string)) {
    return `${path}: expected one of ${schema.enum.map((v) => JSON.stringify(v)).join(', ')}, got ${short(value)}`;
  }
  if (schema.type !== undefined) {
    const types = Array.isArray(schema.type) ? schema.type : [schema.type];
    const actual = typeOf(value);
    if (!types.some((t) => t === actual || (t === 'number' && actual === 'integer'))) {
      return `${path}: expected ${types.join(' or ')}, got ${actual}`;
    }
  }
  if (typeof value === 'string') {
    if (schema.minLength !== undefined && value.length < schema.minLength) return `${path}: shorter than ${schema.minLength}`;
    if (schema.maxLength !== undefined && value.length > schema.maxLength) return `${path}: longer than ${schema.maxLength}`;
    if (schema.pattern !== undefined && !regex(schema.pattern).test(value)) return `${path}: ${short(value)} does not match ${schema.pattern}`;
    if (schema.format === 'date-time' && !(DATE_TIME.test(value) && !Number.isNaN(Date.parse(value)))) return `${path}: ${short(value)} is not an RFC 3339 date-time`;
    if (schema.format === 'date' && !isCalendarDate(value)) return `${path}: ${short(value)} is not a calendar date`;
  }
  if (typeof value === 'number') {
    if (schema.minimum !== undefined && value < schema.minimum) return `${path}: ${value} is below ${schema.minimum}`;
    if (schema.maximum !== undefined && value > schema.maximum) return `${path}: ${value} is above ${schema.maximum}`;
  }
  if (Array.isArray(value)) {
    if (schema.maxItems !== undefined && value.length > schema.maxItems) return `${path}: more than ${schema.maxItems} items`;
    if (schema.items) {
      for (let i = 0; i < value.length; i++) {
        const problem = validate(value[i], schema.items, `${path}[${i}]`);
        if (problem) return problem;
      }
    }
  } else if (value !== null && typeof value === 'object') {
    const record = value as Record<string, unknown>;
    for (const name of schema.required ?? []) {
      if (!(name in record)) return `${path}: missing required property ${name}`;
    }
    for (const [name, propertySchema] of Object.entries(schema.properties ?? {})) {
      if (name in record) {
        const problem = validate(record[name], propertySchema, `${path}.${name}`);
        if (problem) return problem;
      }
    }
    if (schema.additionalProperties === false) {
      for (const name of Object.keys(record)) {
        if (!(name in (schema.properties ?? {}))) return `${path}: unexpected property ${name}`;
      }
    }
  }
  return null;
}

/** Whether `YYYY-MM-DD` names a real day (RFC 3339 §5.7: 2025-02-30 is not one). */
function isCalendarDate(value: string): boolean {
  const time = Date.parse(`${value}T00:00:00Z`);
  return !Number.isNaN(time) && new Date(time).toISOString().slice(0, 10) === value;
}

function typeOf(value: unknown): SchemaType | 'undefined' | 'non-finite number' {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  if (typeof value === 'number') {
    if (!Number.isFinite(value)) return 'non-finite number';
    return Number.isInteger(value) ? 'integer' : 'number';
  }
  const t = typeof value;
  return t === 'string' || t === 'boolean' || t === 'object' ? t : 'undefined';
}

function regex(pattern: string): RegExp {
  let compiled = patternCache.get(pattern);
  if (!compiled) {
    compiled = new RegExp(pattern, 'u');
    patternCache.set(pattern, compiled);
  }
  return compiled;
}

function short(value: unknown): string {
  const text = JSON.stringify(value) ?? String(value);
  return text.length > 40 ? `${text.slice(0, 37)}...` : text;
}
