/**
 * The on-disk snapshot format (docs/api.md §7):
 *
 * ```
 * <root>/CURRENT                 the active version, one line
 * <root>/<version>/manifest.json {"format","version","created_at","data_through","build","files"}
 * <root>/<version>/<kind>.ndjson one row per line, UTF-8, in the kind's order (rows/order.ts)
 * <root>/<version>/<kind>.index  what serving needs of the rows, so they load unparsed (index-file.ts)
 * ```
 *
 * Index files came later (docs/api.md §17): a version may have none, and is then loaded by
 * reading its rows.
 */
import { ROW_KINDS, type RowKind } from '../rows/schemas.js';

/** Value of `format` in every manifest this code reads and writes. */
export const SNAPSHOT_FORMAT = 'equity-facts-snapshot/1';

/** Name of the file that holds the active version. */
export const CURRENT_FILE = 'CURRENT';

/** Name of the manifest inside a version folder. */
export const MANIFEST_FILE = 'manifest.json';

/** A version label: also a folder name, so no path separators. */
export const VERSION_PATTERN = /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/;

/** File name of a kind's rows. */
export const fileOfKind = (kind: RowKind): string => `${kind}.ndjson`;

/**
 * Row kinds added after the first versions of this format (docs/api.md §7): a manifest written
 * before a kind existed has no entry for its file, and the kind then loads with 0 rows. A
 * manifest that names the file is checked like any other. The kinds of the first versions
 * (reports, insiders, whales, earnings, filings) must always be there. Every kind added later goes here.
 */
export const ADDED_KINDS: ReadonlySet<RowKind> = new Set<RowKind>(['insider-transactions', 'financials', 'holders']);

/** File name of a kind's index file. */
export const indexFileOfKind = (kind: RowKind): string => `${kind}.index`;

/** Checksum and row count of one NDJSON file. */
export interface FileEntry {
  /** Lower-case hex SHA-256 of the file's bytes. */
  sha256: string;
  /** Number of rows, one per line. */
  rows: number;
  /** The file's size in bytes (written since index files were: docs/api.md §17; checked when present). */
  bytes?: number;
}

/** Checksum and size of one index file. */
export interface IndexEntry {
  /** Lower-case hex SHA-256 of the file's bytes. */
  sha256: string;
  /** The file's size in bytes. */
  bytes: number;
}

/** The manifest of one snapshot version. */
export interface SnapshotManifest {
  format: typeof SNAPSHOT_FORMAT;
  /** The version label; equals the folder name. */
  version: string;
  /** When the snapshot was built, RFC 3339 UTC. */
  created_at: string;
  /** Latest date that the data covers, `YYYY-MM-DD`, or null for an empty snapshot. */
  data_through: string | null;
  /** Options the builder used and its counts (free-form). */
  build: Record<string, unknown>;
  /**
   * Every file of the version, keyed by file name: a {@link FileEntry} per kind's rows, and an
   * {@link IndexEntry} per index file the version has (see {@link rowsEntry}, {@link indexEntry}).
   */
  files: Record<string, FileEntry | IndexEntry>;
}

/**
 * The manifest's entry for a kind's rows: present in every checked manifest, except for a kind of
 * {@link ADDED_KINDS} that the version was built before (undefined: the kind has no rows).
 */
export function rowsEntry(manifest: SnapshotManifest, kind: RowKind): FileEntry | undefined {
  return manifest.files[fileOfKind(kind)] as FileEntry | undefined;
}

/** The manifest's entry for a kind's index file, when the version has one. */
export function indexEntry(manifest: SnapshotManifest, kind: RowKind): IndexEntry | undefined {
  return manifest.files[indexFileOfKind(kind)] as IndexEntry | undefined;
}

/**
 * A snapshot that failed its checks. The message names the file and, for a bad row, its line
 * (counted from 1), e.g. `snapshots/v1/insiders.ndjson:12: $.net_usd: expected number, got string`.
 */
export class SnapshotError extends Error {
  /** Path of the failing file. */
  readonly file: string;
  /** Line of the failing row, from 1; absent for file-level failures. */
  readonly line: number | undefined;

  constructor(file: string, reason: string, line?: number) {
    super(`${line === undefined ? file : `${file}:${line}`}: ${reason}`);
    this.name = 'SnapshotError';
    this.file = file;
    this.line = line;
  }
}

/**
 * Checks a parsed manifest.
 *
 * @param value - the parsed `manifest.json`.
 * @param file - its path, for messages.
 * @param folderVersion - name of the folder it was found in; must equal `version`.
 * @returns the manifest, typed.
 * @throws SnapshotError naming the field at fault.
 */
export function checkManifest(value: unknown, file: string, folderVersion: string): SnapshotManifest {
  const fail = (reason: string): never => { throw new SnapshotError(file, reason); };
  if (value === null || typeof value !== 'object' || Array.isArray(value)) fail('manifest is not a JSON object');
  const m = value as Record<string, unknown>;
  if (m.format !== SNAPSHOT_FORMAT) fail(`format is ${JSON.stringify(m.format)}, expected "${SNAPSHOT_FORMAT}"`);
  if (typeof m.version !== 'string' || !VERSION_PATTERN.test(m.version)) fail('version is missing or not a valid label');
  if (m.version !== folderVersion) fail(`version "${String(m.version)}" does not match its folder "${folderVersion}"`);
  if (typeof m.created_at !== 'string' || Number.isNaN(Date.parse(m.created_at))) fail('created_at is not a date-time');
  if (m.data_through !== null && (typeof m.data_through !== 'string' || !/^\d{4}-\d{2}-\d{2}$/.test(m.data_through))) {
    fail('data_through is neither null nor YYYY-MM-DD');
  }
  if (m.build === null || typeof m.build !== 'object' || Array.isArray(m.build)) fail('build is not an object');
  if (m.files === null || typeof m.files !== 'object' || Array.isArray(m.files)) fail('files is not an object');
  const files = m.files as Record<string, unknown>;
  /** An entry's SHA-256 and its whole-number fields, `required` ones and, when present, `optional` ones. */
  const checkEntry = (name: string, required: string, optional?: string): void => {
    const entry = files[name];
    if (entry === null || typeof entry !== 'object' || Array.isArray(entry)) fail(`files["${name}"] is not an object`);
    const fields = entry as Record<string, unknown>;
    if (typeof fields.sha256 !== 'string' || !/^[0-9a-f]{64}$/.test(fields.sha256)) fail(`files["${name}"].sha256 is not 64 hex digits`);
    for (const field of [required, optional]) {
      if (field === undefined || (field === optional && fields[field] === undefined)) continue;
      const n = fields[field];
      if (typeof n !== 'number' || !Number.isSafeInteger(n) || n < 0) fail(`files["${name}"].${field} is not a whole number`);
    }
  };
  for (const kind of ROW_KINDS) {
    if (!Object.hasOwn(files, fileOfKind(kind))) {
      if (ADDED_KINDS.has(kind)) continue;
      fail(`files has no entry for ${fileOfKind(kind)}`);
    }
    checkEntry(fileOfKind(kind), 'rows', 'bytes');
    if (Object.hasOwn(files, indexFileOfKind(kind))) checkEntry(indexFileOfKind(kind), 'bytes');
  }
  for (const name of Object.keys(files)) {
    if (!ROW_KINDS.some((kind) => fileOfKind(kind) === name || indexFileOfKind(kind) === name)) fail(`files names an unknown file ${name}`);
  }
  return m as unknown as SnapshotManifest;
}
