/**
 * Reading the API key from a request (service spec, "Authentication"; docs/api.md §1): either
 * `Authorization: Bearer <key>` (scheme case-insensitive, RFC 9110 §11.1) or `X-API-Key: <key>`,
 * never the query string. Every failure is 401 `invalid_api_key`.
 */
import type { IncomingHttpHeaders } from 'node:http';
import { errorAnswer, type ErrorAnswer } from '../errors.js';

// Every refusal here is 401 invalid_api_key; each text is made once.
const refuse = (detail: string): ErrorAnswer => Object.freeze(errorAnswer('invalid_api_key', detail));
const IN_QUERY = refuse('API keys are accepted in headers only (Authorization: Bearer or X-API-Key), never in the query string.');
const NOT_BEARER = refuse('The Authorization header must use the Bearer scheme.');
const MISSING = refuse('No API key. Send it as Authorization: Bearer <key> or X-API-Key: <key>.');
const TWO_KEYS = refuse('Authorization and X-API-Key carry different keys; send one.');

/**
 * The key presented in the headers, or the refusal when there is none to look up. Refusals are
 * returned, not thrown: a client sending no key or a malformed one is answered without an
 * exception or a stack trace.
 *
 * @param headers - the request headers as Node parsed them (names lower-case).
 * @param keyInQuery - whether the query string carried a key-like parameter.
 * @returns the key, or a 401 invalid_api_key answer when the key is in the query string,
 *   missing, sent with another scheme than Bearer, empty, or sent twice with different values.
 */
export function presentedKey(headers: IncomingHttpHeaders, keyInQuery: boolean): string | ErrorAnswer {
  if (keyInQuery) return IN_QUERY;
  const authorization = headers.authorization;
  const xApiKey = headers['x-api-key'];
  let bearer: string | undefined;
  if (authorization !== undefined) {
    const space = authorization.indexOf(' ');
    const scheme = space === -1 ? authorization : authorization.slice(0, space);
    if (scheme.toLowerCase() !== 'bearer') return NOT_BEARER;
    bearer = authorization.slice(space + 1).trim();
    if (space === -1 || bearer.length === 0) return MISSING;
  }
  const header = typeof xApiKey === 'string' ? xApiKey.trim() : undefined;
  if (header !== undefined && header.length === 0 && bearer === undefined) return MISSING;
  if (bearer !== undefined && header !== undefined && header.length > 0 && header !== bearer) return TWO_KEYS;
  const key = bearer ?? header;
  if (key === undefined || key.length === 0) return MISSING;
  return key;
}
