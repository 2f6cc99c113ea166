/**
 * A small vocabulary for writing JSON Schema (draft 2020-12, the dialect of OpenAPI 3.1) as
 * code, and a validator for exactly that vocabulary. The row schemas are written once with it;
 * the snapshot reader checks every row against them and the OpenAPI document publishes them,
 * so the two cannot drift. The server has no runtime dependencies, hence a validator of our own
 * for this closed subset (tests check it against ajv on the same schemas).
 */
import { CIK_PATTERN } from '../identifiers.js';
import { dayNumber } from '../calendar-date.js';

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

declare const STATIC: unique symbol;

/**
 * A schema that also carries, for the type checker only, the type of the JSON values it
 * accepts (as TypeBox's `TSchema`): `Static<typeof S>` names that type, so a row's TypeScript
 * type is derived from its schema and never written twice. The marker exists in types only; at
 * run time a `TypedSchema` is a plain {@link Schema} object.
 */
export interface TypedSchema<T> extends Schema {
  readonly [STATIC]?: T;
}

/** The type of the values that a schema built with these helpers accepts (TypeBox's `Static`). */
export type Static<S extends Schema> = S extends TypedSchema<infer T> ? T : unknown;

/** Required properties as they are, optional ones (those named in `O`) with `?:`. */
type ObjectStatic<P extends Record<string, Schema>, O extends PropertyKey> = Flatten<
  { -readonly [K in Exclude<keyof P, O>]: Static<P[K]> } & { -readonly [K in Extract<keyof P, O>]?: Static<P[K]> }
>;
/** One object type instead of an intersection, so that editors and messages show its fields. */
type Flatten<T> = { [K in keyof T]: T[K] } & {};

/** A string; `extra` adds keywords such as `pattern`. */
export const str = (description?: string, extra: Schema = {}): TypedSchema<string> => ({ type: 'string', ...withDescription(description), ...extra });
/** A calendar date `YYYY-MM-DD` (RFC 3339 full-date). */
export const date = (description?: string): TypedSchema<string> => ({ type: 'string', format: 'date', pattern: DATE_PATTERN, ...withDescription(description) });
/** An instant, RFC 3339 date-time in UTC. */
export const dateTime = (description?: string): TypedSchema<string> => ({ type: 'string', format: 'date-time', ...withDescription(description) });
/** A whole number, at least 0 unless `minimum` says otherwise. */
export const int = (description?: string, minimum = 0): TypedSchema<number> => ({ type: 'integer', minimum, ...withDescription(description) });
/** Any finite number. */
export const num = (description?: string, extra: Schema = {}): TypedSchema<number> => ({ type: 'number', ...withDescription(description), ...extra });
/** A boolean. */
export const bool = (description?: string): TypedSchema<boolean> => ({ type: 'boolean', ...withDescription(description) });
/** A CIK as EDGAR writes it in URLs of data.sec.gov: exactly 10 digits, zero-padded ({@link CIK_PATTERN}). */
export const cik = (description = 'SEC Central Index Key, zero-padded to 10 digits'): TypedSchema<string> => ({ type: 'string', pattern: CIK_PATTERN, description });
/** An accession number, `##########-##-######` (EDGAR Filer Manual, Vol. II §3.1). */
export const accessionNo = (description = 'EDGAR accession number'): TypedSchema<string> => ({ type: 'string', pattern: '^[0-9]{10}-[0-9]{2}-[0-9]{6}$', description });
/** Exactly this value (JSON Schema `const`), such as a row's `type`. */
export const literal = <const V extends string>(value: V): TypedSchema<V> => ({ const: value });
/** One of the listed values; the type is the union of them. */
export const oneOf = <const V extends readonly (string | null)[]>(values: V, description?: string): TypedSchema<V[number]> =>
  ({ enum: values, ...withDescription(description) });
/** The schema, or JSON null. */
export function nullable<T>(schema: TypedSchema<T>): TypedSchema<T | null> {
  if (schema.enum) return { ...schema, enum: schema.enum.includes(null) ? schema.enum : [...schema.enum, null] };
  if (schema.type === undefined) throw new Error('nullable() needs a schema with a type or an enum');
  const types = Array.isArray(schema.type) ? schema.type : [schema.type];
  return { ...schema, type: [...types, 'null'] };
}
/** An array of `items`, at most `maxItems` long when given. */
export const arr = <T>(items: TypedSchema<T>, description?: string, maxItems?: number): TypedSchema<T[]> => ({
  type: 'array', items, ...(maxItems === undefined ? {} : { maxItems }), ...withDescription(description),
});
/**
 * An object. Every property is required unless listed in `optional`; other properties are
 * allowed (service spec: "each row is an object with additional properties allowed"). Its type
 * has each property of `properties`, those listed in `optional` with `?:`.
 */
export function obj<P extends Record<string, Schema>, const O extends readonly (keyof P & string)[] = []>(
  properties: P, optional?: O, description?: string,
): TypedSchema<ObjectStatic<P, O[number]>> {
  const optionalNames: readonly string[] = optional ?? [];
  return {
    type: 'object',
    properties,
    required: Object.keys(properties).filter((name) => !optionalNames.includes(name)),
    ...withDescription(description),
  };
}

/** RFC 3339 full-date with a real month and day range. */
const DATE_PATTERN = '^[0-9]{4}-(0[1-9]|1[0-2])-(0[1-9]|[12][0-9]|3[01])$';
const DATE_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/;

function withDescription(description: string | undefined): Schema {
  return description === undefined ? {} : { description };
}

/** A compiled check: null when the value conforms, else `<relative path>: <reason>`. */
type Check = (value: unknown) => string | null;

const compiledSchemas = new WeakMap<Schema, Check>();

/**
 * Checks a JSON value against a schema written with this vocabulary.
 *
 * @param value - a value parsed from JSON.
 * @param schema - a schema built from the helpers above (compiled on first use, then cached).
 * @param path - where `value` sits, for the message; `$` by default.
 * @returns `null` when the value conforms, else a message naming the first failing path,
 *   such as `$.notable[2].value_usd: expected number, got string`.
 */
export function validate(value: unknown, schema: Schema, path = '$'): string | null {
  const problem = compileSchema(schema)(value);
  return problem === null ? null : `${path}${problem}`;
}

/**
 * Compiles a schema into a check function, once: property lists, type sets and patterns are
 * worked out here, and paths are only built when a check fails, so checking a row allocates
 * nothing (the snapshot reader checks millions of rows).
 *
 * @returns a function giving null, or `<relative path>: <reason>` (prefix `$` for the root).
 */
export function compileSchema(schema: Schema): Check {
  let check = compiledSchemas.get(schema);
  if (!check) {
    check = compile(schema);
    compiledSchemas.set(schema, check);
  }
  return check;
}

function compile(schema: Schema): Check {
  const checks: Check[] = [];
  if (schema.const !== undefined) {
    const expected = schema.const;
    checks.push((value) => (value === expected ? null : `: expected ${JSON.stringify(expected)}`));
  }
  if (schema.enum) {
    const allowed = schema.enum;
    const list = allowed.map((v) => JSON.stringify(v)).join(', ');
    checks.push((value) => (allowed.includes(value as string) ? null : `: expected one of ${list}, got ${short(value)}`));
  }
  if (schema.type !== undefined) checks.push(typeCheck(Array.isArray(schema.type) ? schema.type : [schema.type]));
  const stringCheck = compileString(schema);
  if (stringCheck) checks.push((value) => (typeof value === 'string' ? stringCheck(value) : null));
  if (schema.minimum !== undefined || schema.maximum !== undefined) {
    const { minimum = -Infinity, maximum = Infinity } = schema;
    checks.push((value) => {
      if (typeof value !== 'number') return null;
      if (value < minimum) return `: ${value} is below ${minimum}`;
      return value > maximum ? `: ${value} is above ${maximum}` : null;
    });
  }
  if (schema.items !== undefined || schema.maxItems !== undefined) checks.push(compileArray(schema));
  if (schema.properties !== undefined || schema.required !== undefined) checks.push(compileObject(schema));
  if (checks.length === 1) return checks[0]!;
  return (value) => {
    for (let i = 0; i < checks.length; i++) {
      const problem = checks[i]!(value);
      if (problem !== null) return problem;
    }
    return null;
  };
}

function typeCheck(types: readonly SchemaType[]): Check {
  const has = (t: SchemaType): boolean => types.includes(t);
  const [nullOk, stringOk, booleanOk, numberOk, integerOk, arrayOk, objectOk] =
    [has('null'), has('string'), has('boolean'), has('number'), has('integer'), has('array'), has('object')];
  const expected = `: expected ${types.join(' or ')}, got `;
  return (value) => {
    let ok: boolean;
    switch (typeof value) {
      case 'string': ok = stringOk; break;
      case 'number': ok = Number.isFinite(value) && (numberOk || (integerOk && Number.isInteger(value))); break;
      case 'boolean': ok = booleanOk; break;
      case 'object': ok = value === null ? nullOk : Array.isArray(value) ? arrayOk : objectOk; break;
      default: ok = false;
    }
    return ok ? null : expected + typeOf(value);
  };
}

function compileString(schema: Schema): ((value: string) => string | null) | null {
  const { minLength, maxLength, pattern, format } = schema;
  if (minLength === undefined && maxLength === undefined && pattern === undefined && format === undefined) return null;
  const compiled = pattern === undefined ? undefined : new RegExp(pattern, 'u');
  return (value) => {
    if (minLength !== undefined && value.length < minLength) return `: shorter than ${minLength}`;
    if (maxLength !== undefined && value.length > maxLength) return `: longer than ${maxLength}`;
    if (compiled !== undefined && !compiled.test(value)) return `: ${short(value)} does not match ${pattern}`;
    if (format === 'date-time' && !(DATE_TIME.test(value) && !Number.isNaN(Date.parse(value)))) return `: ${short(value)} is not an RFC 3339 date-time`;
    if (format === 'date' && !isCalendarDate(value)) return `: ${short(value)} is not a calendar date`;
    return null;
  };
}

function compileArray(schema: Schema): Check {
  const { maxItems } = schema;
  const item = schema.items === undefined ? undefined : compile(schema.items);
  return (value) => {
    if (!Array.isArray(value)) return null;
    if (maxItems !== undefined && value.length > maxItems) return `: more than ${maxItems} items`;
    if (item !== undefined) {
      for (let i = 0; i < value.length; i++) {
        const problem = item(value[i]);
        if (problem !== null) return `[${i}]${problem}`;
      }
    }
    return null;
  };
}

function compileObject(schema: Schema): Check {
  const required = schema.required ?? [];
  const properties = Object.entries(schema.properties ?? {}).map(([name, sub]): [string, Check] => [name, compile(sub)]);
  const known = new Set(Object.keys(schema.properties ?? {}));
  const closed = schema.additionalProperties === false;
  return (value) => {
    if (value === null || typeof value !== 'object' || Array.isArray(value)) return null;
    const record = value as Record<string, unknown>;
    for (let i = 0; i < required.length; i++) {
      if (!(required[i]! in record)) return `: missing required property ${required[i]}`;
    }
    for (let i = 0; i < properties.length; i++) {
      const [name, check] = properties[i]!;
      const property = record[name];
      if (property === undefined && !(name in record)) continue;
      const problem = check(property);
      if (problem !== null) return `.${name}${problem}`;
    }
    if (closed) {
      for (const name of Object.keys(record)) if (!known.has(name)) return `: unexpected property ${name}`;
    }
    return null;
  };
}

/** Whether `YYYY-MM-DD` names a real day (RFC 3339 §5.6–5.7: 2025-02-30 is not one). */
function isCalendarDate(value: string): boolean {
  return dayNumber(value) !== undefined;
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

function short(value: unknown): string {
  const text = JSON.stringify(value) ?? String(value);
  return text.length > 40 ? `${text.slice(0, 37)}...` : text;
}
