/**
 * Snapshot versions as a build made them before a row kind existed: without the kind's file and
 * without its entry in the manifest (docs/api.md §7, kinds added later).
 */
import { readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileOfKind, indexFileOfKind, MANIFEST_FILE } from '../../src/data/snapshot-format.js';
import type { RowKind } from '../../src/rows/schemas.js';

/**
 * Turns a written version into one built before `kind`: its rows' file and index file are deleted
 * and their manifest entries removed (the manifest is rewritten as the builder writes it).
 *
 * @param dir - the version's folder.
 */
export async function asBuiltBefore(dir: string, kind: RowKind): Promise<void> {
  const manifestFile = join(dir, MANIFEST_FILE);
  const manifest = JSON.parse(await readFile(manifestFile, 'utf8'));
  delete manifest.files[fileOfKind(kind)];
  delete manifest.files[indexFileOfKind(kind)];
  await writeFile(manifestFile, `${JSON.stringify(manifest, null, 2)}\n`);
  await rm(join(dir, fileOfKind(kind)));
  await rm(join(dir, indexFileOfKind(kind)), { force: true });
}
