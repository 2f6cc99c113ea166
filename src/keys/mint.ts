/**
 * Minting API keys in the documented format (docs/api.md §4): `eqf_` + 32 base62 characters of
 * randomness + 6 base62 characters holding the CRC32 of everything before them, left-padded
 * with `0`. The checksum lets secret scanners recognise a key offline (the scheme GitHub uses
 * for its tokens). Requests never check the shape: a key is valid exactly when its hash is in
 * the keys file.
 */
import { randomBytes } from 'node:crypto';
import { crc32 } from 'node:zlib';

/** Prefix of every minted key. */
export const KEY_PREFIX = 'eqf_';
/** Base62 alphabet, in the documented order `0-9A-Za-z`. */
export const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
const RANDOM_LENGTH = 32;
const CHECKSUM_LENGTH = 6;

/** The shape of a minted key, for scanners and for `isWellFormedKey`. */
export const MINTED_KEY_PATTERN = /^eqf_[0-9A-Za-z]{38}$/;

/**
 * Encodes a non-negative integer in base62, left-padded with `0` to `width`.
 *
 * @param value - an integer from 0 to 2^53.
 * @param width - minimum number of characters.
 */
export function toBase62(value: number, width: number): string {
  let out = '';
  let rest = value;
  do {
    out = BASE62[rest % 62] + out;
    rest = Math.floor(rest / 62);
  } while (rest > 0);
  return out.padStart(width, '0');
}

/** The 6-character checksum of a key body (`eqf_` + the random part). */
export function keyChecksum(body: string): string {
  return toBase62(crc32(Buffer.from(body, 'utf8')), CHECKSUM_LENGTH);
}

/**
 * Mints a new key.
 *
 * @param random - source of random bytes (injectable for tests); default crypto.randomBytes.
 * @returns the plaintext key; show it once and store only its hash.
 */
export function mintKey(random: (size: number) => Buffer = randomBytes): string {
  let body = KEY_PREFIX;
  while (body.length < KEY_PREFIX.length + RANDOM_LENGTH) {
    for (const byte of random(48)) {
      // 248 = 4 × 62: rejecting the rest keeps every character equally likely.
      if (byte < 248 && body.length < KEY_PREFIX.length + RANDOM_LENGTH) body += BASE62[byte % 62];
    }
  }
  return body + keyChecksum(body);
}

/**
 * Whether a string has the minted shape and a correct checksum. Used by tooling only; the
 * server never checks the shape of a presented key.
 */
export function isWellFormedKey(key: string): boolean {
  if (!MINTED_KEY_PATTERN.test(key)) return false;
  const body = key.slice(0, key.length - CHECKSUM_LENGTH);
  return keyChecksum(body) === key.slice(key.length - CHECKSUM_LENGTH);
}
