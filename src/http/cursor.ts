/**
 * Pagination cursors (docs/api.md §9): an opaque token that names a position in one list (endpoint
 * and filter) by the order key of the last row sent. It carries no snapshot: the next page is
 * found in whatever snapshot is served, so a cursor survives a reload.
 *
 * Layout, before base64url (RFC 4648 §5, no padding):
 *
 * | bytes | what |
 * |---|---|
 * | 1 | format, 1 |
 * | 1 | row kind, its index in `ROW_KINDS` |
 * | 1 + n | the filter value (normalised ticker or 10-digit CIK) in ASCII, n = 0 for the overview |
 * | varint | ties: rows with the last row's key sent so far, 1 unless keys repeat |
 * | varint | hint: the position of the next page in the snapshot that made the cursor |
 * | rest - 4 | the last row's order key (`src/data/order-key.ts`) |
 * | 4 | CRC-32 of everything before it, so that a mangled token is refused, not misread |
 *
 * Base64url that is not canonical (other bits in the last character) decodes to the same bytes
 * and is accepted: it names the same position.
 *
 * A client that edits a cursor can only move to another position of the same list, which any
 * client may reach anyway; the CRC only catches damage.
 */
import { crc32 } from 'node:zlib';
import { ROW_KINDS, type RowKind } from '../rows/schemas.js';
import { MAX_ORDER_KEY_BYTES } from '../data/order-key.js';

/** Longest cursor accepted, in characters (docs/api.md §9). */
export const CURSOR_MAX_LENGTH = 512;

/** Characters of a cursor: base64url (docs/api.md §9: `A-Z a-z 0-9 - _`). */
export const CURSOR_PATTERN = /^[A-Za-z0-9_-]{1,512}$/;

const FORMAT = 1;

/** A decoded cursor. */
export interface Cursor {
  readonly kind: RowKind;
  /** Filter value of its list; null for the overview. */
  readonly listKey: string | null;
  readonly ties: number;
  readonly hint: number;
  /** The bytes the key is in, and where. */
  readonly bytes: Buffer;
  readonly keyStart: number;
  readonly keyEnd: number;
}

/**
 * Writes a cursor.
 *
 * @param kind - the list's row kind.
 * @param listKey - the list's filter value, or null for the overview.
 * @param key - order key of the last row sent (at most {@link MAX_ORDER_KEY_BYTES} bytes).
 * @param ties - rows with that key sent so far, from 1.
 * @param hint - the position of the next page.
 */
export function encodeCursor(kind: RowKind, listKey: string | null, key: Uint8Array, ties: number, hint: number): string {
  const filter = listKey ?? '';
  const out = Buffer.allocUnsafe(3 + filter.length + 10 + 10 + key.length + 4);
  let at = 0;
  out[at++] = FORMAT;
  out[at++] = ROW_KINDS.indexOf(kind);
  out[at++] = filter.length;
  at += out.write(filter, at, 'latin1');
  at = writeVarint(out, at, ties);
  at = writeVarint(out, at, hint);
  out.set(key, at);
  at += key.length;
  out.writeUInt32BE(crc32(out.subarray(0, at)), at);
  return out.subarray(0, at + 4).toString('base64url');
}

/**
 * Where tokens are decoded: one buffer reused by every request. A decoded cursor is used within
 * the request that decoded it (its position is found before the handler returns), so no two
 * decodings are in use at once; this saves an allocation per page request.
 */
const scratch = Buffer.allocUnsafe(Math.ceil((CURSOR_MAX_LENGTH * 3) / 4));

/**
 * Reads a cursor's token. The cursor's `bytes` are shared with the next decoding: use the
 * cursor before decoding another.
 *
 * @returns the cursor, or a reason it does not decode (for a 400 detail).
 */
export function decodeCursor(token: string): Cursor | string {
  if (!CURSOR_PATTERN.test(token)) return `must be 1-${CURSOR_MAX_LENGTH} characters of A-Z a-z 0-9 - _`;
  // A length of 1 mod 4 cannot be base64; the CRC refuses any other damage.
  if (token.length % 4 === 1) return 'does not decode';
  const length = scratch.write(token, 0, 'base64url');
  const bytes = scratch;
  if (length < 9) return 'does not decode';
  const end = length - 4;
  if (crc32(bytes.subarray(0, end)) !== bytes.readUInt32BE(end)) return 'does not decode';
  if (bytes[0] !== FORMAT) return 'does not decode';
  const kind = ROW_KINDS[bytes[1]!];
  const filterLength = bytes[2]!;
  let at = 3 + filterLength;
  if (kind === undefined || at > end) return 'does not decode';
  const listKey = filterLength === 0 ? null : bytes.toString('latin1', 3, at);
  const ties = readVarint(bytes, at, end);
  at = varintEnd;
  if (ties < 1) return 'does not decode';
  const hint = readVarint(bytes, at, end);
  at = varintEnd;
  if (hint < 0 || end - at < 1 || end - at > MAX_ORDER_KEY_BYTES) return 'does not decode';
  return { kind, listKey, ties, hint, bytes, keyStart: at, keyEnd: end };
}

/** LEB128 of a whole number below 2^35. */
function writeVarint(out: Buffer, at: number, value: number): number {
  let rest = value;
  while (rest >= 0x80) {
    out[at++] = (rest % 0x80) | 0x80;
    rest = Math.floor(rest / 0x80);
  }
  out[at++] = rest;
  return at;
}

/** Where the last {@link readVarint} stopped (a module variable, so that reading allocates nothing). */
let varintEnd = 0;

/** Reads a LEB128 number of at most 5 bytes at `at`; -1 when it does not end before `end`. Sets {@link varintEnd}. */
function readVarint(bytes: Buffer, at: number, end: number): number {
  let value = 0;
  let scale = 1;
  for (let i = 0; i < 5 && at < end; i++) {
    const byte = bytes[at++]!;
    value += (byte & 0x7f) * scale;
    if ((byte & 0x80) === 0) {
      varintEnd = at;
      return value;
    }
    scale *= 0x80;
  }
  varintEnd = at;
  return -1;
}
