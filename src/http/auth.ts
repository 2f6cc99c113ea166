/**
 * Reading the API key from a request (service spec, "Authentication"; decisions §1): either
 * `Authorization: Bearer <key>` (scheme case-insensitive, RFC 9110 §11.1) or `X-API-Key: <key>`,
 * never the query string. Every failure is 401 `invalid_api_key`.
 */
import type { IncomingHttpHeaders } from 'node:http';
import { ApiError } from '../errors.js';

const MISSING = 'No API key. Send it as Authorization: Bearer <key> or X-API-Key: <key>.';

/**
 * The key presented in the headers.
 *
 * @param headers - the request headers as Node parsed them (names lower-case).
 * @param keyInQuery - whether the query string carried a key-like parameter.
 * @throws ApiError invalid_api_key when the key is in the query string, missing, sent with another
 *   scheme than Bearer, empty, or sent twice with different values.
 */
export function presentedKey(headers: IncomingHttpHeaders, keyInQuery: boolean): string {
  if (keyInQuery) {
    throw new ApiError('invalid_api_key', 'API keys are accepted in headers only (Authorization: Bearer or X-API-Key), never in the query string.');
  }
  const authorization = headers.authorization;
  const xApiKey = headers['x-api-key'];
  let bearer: string | undefined;
  if (authorization !== undefined) {
    const space = authorization.indexOf(' ');
    const scheme = space === -1 ? authorization : authorization.slice(0, space);
    if (scheme.toLowerCase() !== 'bearer') throw new ApiError('invalid_api_key', 'The Authorization header must use the Bearer scheme.');
    bearer = authorization.slice(space + 1).trim();
    if (space === -1 || bearer.length === 0) throw new ApiError('invalid_api_key', MISSING);
  }
  const header = typeof xApiKey === 'string' ? xApiKey.trim() : undefined;
  if (header !== undefined && header.length === 0 && bearer === undefined) throw new ApiError('invalid_api_key', MISSING);
  if (bearer !== undefined && header !== undefined && header.length > 0 && header !== bearer) {
    throw new ApiError('invalid_api_key', 'Authorization and X-API-Key carry different keys; send one.');
  }
  const key = bearer ?? header;
  if (key === undefined || key.length === 0) throw new ApiError('invalid_api_key', MISSING);
  return key;
}
