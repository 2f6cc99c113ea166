/**
 * The last check before a build points `CURRENT` at a new version: a version that has no rows
 * of a kind the current version has is not published, and neither is a first version with no
 * rows at all. An empty or wrong `--from` once published a 0-row snapshot that every running
 * server reloaded at once, answering `count: 0` everywhere; a real loss of a kind of data is
 * rare enough that the operator says so (`--allow-empty`).
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { ROW_KINDS, type RowKind } from '../rows/schemas.js';
import { MANIFEST_FILE, fileOfKind, type SnapshotManifest } from './snapshot-format.js';
import { readCurrentVersion } from './snapshot-reader.js';

/** What a build found, for the gate and its message. */
export interface BuildFindings {
  /** Rows of each kind in the new version. */
  rows: Readonly<Record<RowKind, number>>;
  /** The input folder (`--from`). */
  from: string;
  /** Files read under it, and how many of them were skipped (not recognised, or unreadable), when known. */
  filesRead?: number;
  filesSkipped?: number;
}

/** The current version's label and row counts, or `undefined` when there is none to read. */
async function currentRows(root: string): Promise<{ version: string; rows: Partial<Record<RowKind, number>> } | undefined> {
  let version: string;
  try {
    version = await readCurrentVersion(root);
  } catch {
    return undefined;
  }
  try {
    const manifest = JSON.parse(await readFile(join(root, version, MANIFEST_FILE), 'utf8')) as SnapshotManifest;
    const rows: Partial<Record<RowKind, number>> = {};
    for (const kind of ROW_KINDS) {
      const count = (manifest.files?.[fileOfKind(kind)] as { rows?: unknown } | undefined)?.rows;
      if (typeof count === 'number') rows[kind] = count;
    }
    return { version, rows };
  } catch {
    return { version, rows: {} };
  }
}

/**
 * Why the new version must not be published, or `undefined` when it may be.
 *
 * @param root - the snapshots folder (`--out`), whose `CURRENT` names the version serving now.
 * @param findings - what the build produced.
 * @returns a sentence saying what was found and what the current version has, e.g. `the new
 *   version has no rows of insiders (the current version v1 has 7) ...`.
 */
export async function publishRefusal(root: string, findings: BuildFindings): Promise<string | undefined> {
  const found = `read ${findings.filesRead ?? 'no'} files under ${findings.from}` +
    (findings.filesSkipped ? ` (${findings.filesSkipped} of them skipped)` : '') +
    `, making ${ROW_KINDS.map((kind) => `${findings.rows[kind]} ${kind}`).join(', ')}`;
  const current = await currentRows(root);
  if (current === undefined) {
    if (ROW_KINDS.some((kind) => findings.rows[kind] > 0)) return undefined;
    return `the new version has no rows at all: ${found}`;
  }
  const lost = ROW_KINDS.filter((kind) => (current.rows[kind] ?? 0) > 0 && findings.rows[kind] === 0);
  if (lost.length === 0) return undefined;
  return `the new version has no ${lost.join(', ')} rows, which the current version ${current.version} has ` +
    `(${lost.map((kind) => `${current.rows[kind]} ${kind}`).join(', ')}): ${found}`;
}
