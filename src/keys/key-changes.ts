/**
 * The changes a keys file can undergo (docs/api.md §4), as pure functions from the entries to the
 * new entries and what the change produced: mint, set status, set plan, revoke, rotate. Both the
 * `keys` commands and the developer portal (docs/api.md §18) call them; neither reads or writes a
 * file here, so a caller decides how the file is read and written (the portal serialises its
 * changes in one queue).
 */
import { randomBytes } from 'node:crypto';
import { didYouMean } from '../suggest.js';
import { KeysFileError, hashKey, type KeyRecord, type KeyStatus } from './keys-file.js';
import { formatDateTime, parseDateTime } from './lifecycle.js';
import { mintKey } from './mint.js';

/** What a change leaves: the new entries, in file order, and what it produced. */
export interface KeyChange<T> {
  readonly records: readonly KeyRecord[];
  readonly result: T;
}

/** A freshly minted key: the plaintext (shown once, never stored) and its entry. */
export interface MintedKey {
  /** The plaintext key; show it once, the file keeps only its SHA-256. */
  readonly key: string;
  readonly record: KeyRecord;
}

/** No entry has the id asked for. */
export class UnknownKeyIdError extends KeysFileError {
  /** The id asked for. */
  readonly id: string;
  constructor(file: string, id: string, known: readonly string[]) {
    super(file, `no key with id ${JSON.stringify(id)}${didYouMean(id, known)}; keys list --file shows the ids`);
    this.name = 'UnknownKeyIdError';
    this.id = id;
  }
}

/** A fresh key id, `k_` and 8 hex digits, that no entry has. */
export function newKeyId(records: readonly KeyRecord[]): string {
  let id: string;
  do id = `k_${randomBytes(4).toString('hex')}`; while (records.some((record) => record.id === id));
  return id;
}

/**
 * The entry with this id.
 *
 * @param file - the file's path, for the message.
 * @throws UnknownKeyIdError naming the id (and the nearest one, for a typo).
 */
export function findRecord(records: readonly KeyRecord[], id: string, file: string): KeyRecord {
  const record = records.find((r) => r.id === id);
  if (record === undefined) throw new UnknownKeyIdError(file, id, records.map((r) => r.id));
  return record;
}

/** An instant as `created_at` keeps it: whole seconds. */
const createdAt = (nowMs: number): string => formatDateTime(Math.floor(nowMs / 1000) * 1000);

/** What {@link addKey} mints. */
export interface NewKey {
  readonly account: string;
  /** A plan id; the caller checks that it is an API plan when it must be. */
  readonly plan: string;
  readonly label?: string | undefined;
  /** The clock, ms since the Unix epoch: the entry's `created_at`. */
  readonly nowMs: number;
}

/**
 * Mints a key and appends its entry, `active`, with a fresh id.
 *
 * @returns the entries with the new one last, and the key (shown once) with its entry.
 */
export function addKey(records: readonly KeyRecord[], spec: NewKey): KeyChange<MintedKey> {
  const key = mintKey();
  const record: KeyRecord = {
    id: newKeyId(records), sha256: hashKey(key), account: spec.account, plan: spec.plan, status: 'active',
    ...(spec.label === undefined ? {} : { label: spec.label }), created_at: createdAt(spec.nowMs),
  };
  return { records: [...records, record], result: { key, record } };
}

/**
 * Changes fields of one entry (its status or plan).
 *
 * @throws UnknownKeyIdError when no entry has the id.
 * @returns the entries, and the changed entry.
 */
export function updateKey(records: readonly KeyRecord[], id: string, fields: { readonly status?: KeyStatus; readonly plan?: string }, file: string): KeyChange<KeyRecord> {
  const old = findRecord(records, id, file);
  const changed: KeyRecord = { ...old, ...fields };
  return { records: records.map((record) => (record === old ? changed : record)), result: changed };
}

/**
 * Removes one entry: from the API's next read of the file on, the key answers 401.
 *
 * @throws UnknownKeyIdError when no entry has the id.
 * @returns the entries left, and the removed entry.
 */
export function revokeKey(records: readonly KeyRecord[], id: string, file: string): KeyChange<KeyRecord> {
  const record = findRecord(records, id, file);
  return { records: records.filter((r) => r !== record), result: record };
}

/** What {@link rotateKey} produced: the new key and the old entry with its `expires_at`. */
export interface RotatedKey extends MintedKey {
  /** The old entry, now carrying `expires_at`. */
  readonly old: KeyRecord;
}

/**
 * Mints a new key for the account, plan, status and label of key `id`, and gives the old key an
 * `expires_at` `graceMs` from now; a key that was to expire sooner keeps its own (a rotation
 * never lengthens a key's life).
 *
 * @param graceMs - how long the old key keeps working, ms (0: from now on it answers 401).
 * @param nowMs - the clock, ms since the Unix epoch.
 * @throws UnknownKeyIdError when no entry has the id.
 */
export function rotateKey(records: readonly KeyRecord[], id: string, graceMs: number, nowMs: number, file: string): KeyChange<RotatedKey> {
  const old = findRecord(records, id, file);
  const expiresAt = old.expires_at !== undefined && parseDateTime(old.expires_at)! <= nowMs + graceMs ? old.expires_at : formatDateTime(nowMs + graceMs);
  const key = mintKey();
  const fresh: KeyRecord = {
    id: newKeyId(records), sha256: hashKey(key), account: old.account, plan: old.plan, status: old.status,
    ...(old.label === undefined ? {} : { label: old.label }), created_at: createdAt(nowMs),
  };
  const expiring: KeyRecord = { ...old, expires_at: expiresAt };
  return { records: [...records.map((r) => (r === old ? expiring : r)), fresh], result: { key, record: fresh, old: expiring } };
}
