/**
 * The keys file (docs/api.md §4): accounts and the SHA-256 of their API keys. Plaintext keys are
 * never stored; a request's key is hashed and looked up. A file that fails any check is refused
 * whole, with a message naming the file and the entry.
 */
import { hash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { locateJsonError } from '../json-error.js';
import { parseDateTime } from './lifecycle.js';

/** Value of `format` in every keys file. */
export const KEYS_FORMAT = 'equity-facts-keys/1';

/** Account status of a key (docs/api.md §4). */
export type KeyStatus = 'active' | 'suspended' | 'inactive';
/** Every status, in the order documented. */
export const KEY_STATUSES: readonly KeyStatus[] = ['active', 'suspended', 'inactive'];

/** One entry of the keys file. */
export interface KeyRecord {
  /** Public id of the key, shown in meta and logs (e.g. `k_7f3a9c`). */
  readonly id: string;
  /** Lower-case hex SHA-256 of the whole key. */
  readonly sha256: string;
  /** Account the key belongs to. */
  readonly account: string;
  /** Plan id; a value that is not one of the four API plans means no API access. */
  readonly plan: string;
  readonly status: KeyStatus;
  readonly label?: string;
  /** RFC 3339 time the key was minted. */
  readonly created_at: string;
  /**
   * RFC 3339 date-time from which the key answers 401 `invalid_api_key` saying it expired
   * (`keys rotate` sets it on the old key); absent means the key never expires.
   */
  readonly expires_at?: string;
}

/** The parsed file: entries in file order and the index by key. */
export interface KeyTable {
  readonly records: readonly KeyRecord[];
  /**
   * Finds the entry for a presented key (the request path's lookup). Hashes the key (SHA-256 of
   * its UTF-8 bytes) and looks the digest's bytes up in a table of numbers built at load, so a
   * request builds no hex string, computes no string hash and reads one or two cache lines of
   * the table instead of a Map's bucket, entry and stored key.
   *
   * @param key - the key as sent in a header.
   * @returns its entry, or `undefined` for an unknown key.
   */
  readonly find: (key: string) => KeyRecord | undefined;
}

/** Matches key ids: letters, digits, `_` and `-`, 1–64 characters. */
export const KEY_ID_PATTERN = /^[A-Za-z0-9_-]{1,64}$/;

/** A keys file that failed its checks. */
export class KeysFileError extends Error {
  constructor(file: string, reason: string) {
    super(`${file}: ${reason}`);
    this.name = 'KeysFileError';
  }
}

/**
 * Hashes a presented key the way the file stores it.
 *
 * @param key - the key as sent in a header.
 * @returns lower-case hex SHA-256 of its UTF-8 bytes.
 */
export function hashKey(key: string): string {
  // One-shot crypto.hash (Node 20.12+) skips the Hash object of createHash: this runs per request.
  return hash('sha256', key, 'hex');
}

/**
 * Parses and checks keys-file text.
 *
 * @param text - the file's content.
 * @param file - its path, for messages.
 * @throws KeysFileError naming the entry and field at fault, or the line and column where the
 *   text stops being JSON; duplicate ids or hashes are refused.
 */
export function parseKeysFile(text: string, file: string): KeyTable {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (error) {
    // V8's message has no position for most errors, and echoes the text; say where instead.
    const place = locateJsonError(text);
    throw new KeysFileError(file, place === undefined ? `not JSON: ${(error as Error).message}` : `not JSON: line ${place.line}, column ${place.column}: ${place.problem}`);
  }
  if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) throw new KeysFileError(file, 'not a JSON object');
  const root = parsed as Record<string, unknown>;
  if (root.format !== KEYS_FORMAT) throw new KeysFileError(file, `format is ${JSON.stringify(root.format)}, expected "${KEYS_FORMAT}"`);
  if (!Array.isArray(root.keys)) throw new KeysFileError(file, 'keys is not an array');
  const records: KeyRecord[] = [];
  const byHash = new Map<string, KeyRecord>();
  const ids = new Set<string>();
  root.keys.forEach((entry: unknown, index: number) => {
    const record = checkEntry(entry, file, index);
    if (ids.has(record.id)) throw new KeysFileError(file, `keys[${index}]: duplicate id ${record.id}`);
    if (byHash.has(record.sha256)) throw new KeysFileError(file, `keys[${index}]: duplicate sha256 (same key as ${byHash.get(record.sha256)!.id})`);
    ids.add(record.id);
    byHash.set(record.sha256, record);
    records.push(record);
  });
  return Object.freeze({ records: Object.freeze(records), find: digestIndex(records) });
}

/** 32-bit words in a SHA-256 digest. */
const DIGEST_WORDS = 8;

/**
 * An open-addressing index of records by the bytes of their SHA-256: each record's digest as
 * eight big-endian 32-bit words in one `Int32Array`, and a power-of-two table of record numbers
 * (plus one; 0 is empty) at least twice the number of records, probed linearly from the
 * digest's first word. A digest is uniformly distributed, so its first word is already a good
 * hash.
 *
 * @returns the lookup of {@link KeyTable.find}.
 */
function digestIndex(records: readonly KeyRecord[]): (key: string) => KeyRecord | undefined {
  const digests = new Int32Array(records.length * DIGEST_WORDS);
  let size = 16;
  while (size < records.length * 2) size *= 2;
  const mask = size - 1;
  const table = new Int32Array(size);
  for (let r = 0; r < records.length; r++) {
    const hex = records[r]!.sha256;
    for (let w = 0; w < DIGEST_WORDS; w++) digests[r * DIGEST_WORDS + w] = Number.parseInt(hex.slice(w * 8, w * 8 + 8), 16) | 0;
    let i = digests[r * DIGEST_WORDS]! & mask;
    while (table[i] !== 0) i = (i + 1) & mask;
    table[i] = r + 1;
  }
  return (key) => {
    // 'binary' (latin1): the 32 digest bytes as a one-byte string, one character per byte.
    const digest = hash('sha256', key, 'binary');
    const first = digestWord(digest, 0);
    for (let i = first & mask; ; i = (i + 1) & mask) {
      const r = table[i]! - 1;
      if (r < 0) return undefined;
      const at = r * DIGEST_WORDS;
      if (digests[at] !== first) continue;
      let w = 1;
      while (w < DIGEST_WORDS && digests[at + w] === digestWord(digest, w * 4)) w++;
      if (w === DIGEST_WORDS) return records[r];
    }
  };
}

/** The big-endian 32-bit word (as an int32) of the four bytes at `at` of a binary (latin1) digest string. */
function digestWord(digest: string, at: number): number {
  return (digest.charCodeAt(at) << 24) | (digest.charCodeAt(at + 1) << 16) | (digest.charCodeAt(at + 2) << 8) | digest.charCodeAt(at + 3);
}

/**
 * The error for a keys file that cannot be read: the system's code, and for a file that does not
 * exist, how to make one (a server or portal is often started before any key was minted).
 */
export function unreadableKeysFile(file: string, error: unknown): KeysFileError {
  const code = (error as NodeJS.ErrnoException).code;
  if (code === 'ENOENT') {
    return new KeysFileError(file, `cannot read: ENOENT (no such file; \`equity-facts keys add --file ${file} --plan PLAN --account ACCOUNT\` makes one)`);
  }
  return new KeysFileError(file, `cannot read: ${code ?? String(error)}`);
}

/**
 * Reads and parses a keys file.
 *
 * @throws KeysFileError when it cannot be read or fails a check.
 */
export async function readKeysFile(file: string): Promise<KeyTable> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    throw unreadableKeysFile(file, error);
  }
  return parseKeysFile(text, file);
}

function checkEntry(entry: unknown, file: string, index: number): KeyRecord {
  const fail = (reason: string): never => { throw new KeysFileError(file, `keys[${index}]: ${reason}`); };
  if (entry === null || typeof entry !== 'object' || Array.isArray(entry)) fail('not an object');
  const e = entry as Record<string, unknown>;
  if (typeof e.id !== 'string' || !KEY_ID_PATTERN.test(e.id)) fail('id must be 1-64 characters of A-Z a-z 0-9 _ -');
  if (typeof e.sha256 !== 'string' || !/^[0-9a-f]{64}$/.test(e.sha256)) fail('sha256 must be 64 lower-case hex digits');
  if (typeof e.account !== 'string' || e.account.length === 0) fail('account must be a non-empty string');
  if (typeof e.plan !== 'string' || e.plan.length === 0) fail('plan must be a non-empty string');
  if (!KEY_STATUSES.includes(e.status as KeyStatus)) fail(`status must be one of ${KEY_STATUSES.join(', ')}`);
  if (e.label !== undefined && typeof e.label !== 'string') fail('label must be a string when present');
  if (typeof e.created_at !== 'string' || Number.isNaN(Date.parse(e.created_at))) fail('created_at must be an RFC 3339 date-time');
  if (e.expires_at !== undefined && (typeof e.expires_at !== 'string' || parseDateTime(e.expires_at) === undefined)) {
    fail(`expires_at must be an RFC 3339 date-time with a zone, e.g. 2026-11-22T12:00:00Z, got ${JSON.stringify(e.expires_at).slice(0, 100)}`);
  }
  return Object.freeze({
    id: e.id as string, sha256: e.sha256 as string, account: e.account as string, plan: e.plan as string,
    status: e.status as KeyStatus, ...(e.label === undefined ? {} : { label: e.label as string }), created_at: e.created_at as string,
    ...(e.expires_at === undefined ? {} : { expires_at: e.expires_at as string }),
  });
}
