/**
 * Reading a POST's body (docs/api.md §18): `application/json` only (415 otherwise), at most
 * `maxBytes` (413, and the connection is closed rather than read further), one JSON object
 * (400 otherwise). A declared `Content-Length` over the bound is refused before a byte is read.
 */
import type { IncomingMessage } from 'node:http';
import { PortalError } from './portal-errors.js';

/**
 * @returns the body's object; an empty body is `{}`.
 * @throws PortalError `unsupported_media_type`, `payload_too_large` or `invalid_body`.
 */
export async function readJsonBody(req: IncomingMessage, maxBytes: number): Promise<Record<string, unknown>> {
  const type = req.headers['content-type'];
  const length = req.headers['content-length'];
  const declared = length === undefined ? 0 : Number(length);
  if (declared > maxBytes) throw new PortalError('payload_too_large', `The request body is over ${maxBytes} bytes.`);
  const chunks = await readBounded(req, maxBytes);
  const size = chunks.reduce((sum, chunk) => sum + chunk.length, 0);
  if (size === 0 && type === undefined) return {};
  if (type === undefined || !/^application\/json\s*(;\s*charset\s*=\s*"?utf-8"?\s*)?$/i.test(type)) throw new PortalError('unsupported_media_type');
  if (size === 0) return {};
  let parsed: unknown;
  try {
    parsed = JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(Buffer.concat(chunks)));
  } catch {
    throw new PortalError('invalid_body', 'The request body is not JSON (UTF-8).');
  }
  if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) throw new PortalError('invalid_body');
  return parsed as Record<string, unknown>;
}

/**
 * A string field of a body: present, a string, trimmed length from 1 to `max`, no control characters.
 *
 * @param name - the field's name, for the detail.
 * @throws PortalError `invalid_parameter` naming the field (never quoting its value).
 */
export function stringField(body: Record<string, unknown>, name: string, max: number): string {
  const value = Object.hasOwn(body, name) ? body[name] : undefined;
  // eslint-disable-next-line no-control-regex
  if (typeof value !== 'string' || value.trim().length === 0 || value.trim().length > max || /[\u0000-\u001f\u007f\u2028\u2029]/.test(value)) {
    throw new PortalError('invalid_parameter', `${name} must be text of 1 to ${max} characters without control characters.`);
  }
  return value.trim();
}

/**
 * The body's chunks, or a 413 as soon as they pass `maxBytes`: reading stops there (the rest is
 * never buffered) and the answer closes the connection.
 */
function readBounded(req: IncomingMessage, maxBytes: number): Promise<Buffer[]> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const onData = (chunk: Buffer): void => {
      size += chunk.length;
      if (size <= maxBytes) {
        chunks.push(chunk);
        return;
      }
      req.off('data', onData);
      req.pause();
      reject(new PortalError('payload_too_large', `The request body is over ${maxBytes} bytes.`));
    };
    req.on('data', onData);
    req.once('end', () => resolve(chunks));
    req.once('error', reject);
  });
}
