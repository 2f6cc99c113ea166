/**
 * Damages the files of a written snapshot version the way a disk, a copy or a hand could: bytes
 * changed with the manifest left as it was, or with the manifest's SHA-256 and size made to
 * match, so that only the checks behind the hash can refuse them.
 */
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestContext } from 'node:test';
import { decodeIndex, encodeIndex, type IndexSection } from '../../src/data/index-file.js';
import { MANIFEST_FILE, SnapshotError } from '../../src/data/snapshot-format.js';
import { loadSnapshot, type LoadOptions } from '../../src/data/snapshot-index.js';
import { writeFixtureSnapshot } from './harness.js';
import { richFixtureRows } from '../fixtures/rows.js';

/**
 * Writes `rows` as version `v1` of a temporary snapshot folder (removed after the test), with
 * index files unless `indexes` is false, and publishes it.
 *
 * @returns the folder (`root`) and the version's own (`dir`).
 */
export async function tempVersion(t: TestContext, indexes = true, rows: Parameters<typeof writeFixtureSnapshot>[2] = richFixtureRows()): Promise<{ root: string; dir: string }> {
  const root = await mkdtemp(join(tmpdir(), 'eqf-index-load-'));
  t.after(() => rm(root, { recursive: true, force: true }));
  await writeFixtureSnapshot(root, 'v1', rows, true, indexes);
  return { root, dir: join(root, 'v1') };
}

/** The message of the SnapshotError that loading the published version of `root` (with `options`) fails with (an assertion fails if it loads). */
export async function refusal(root: string, options?: LoadOptions): Promise<string> {
  const error = await loadSnapshot(root, undefined, options).then(() => undefined, (e: unknown) => e);
  assert.ok(error instanceof SnapshotError, `expected a SnapshotError, got ${String(error)}`);
  return error.message;
}

/**
 * Replaces a file of a version with `edit(bytes)`; with `rehash`, its manifest entry's `sha256`
 * (and `bytes`, where it has one) then match the new bytes.
 */
export async function editFile(dir: string, name: string, edit: (bytes: Buffer) => Buffer, rehash: boolean): Promise<void> {
  const bytes = edit(await readFile(join(dir, name)));
  await writeFile(join(dir, name), bytes);
  if (!rehash) return;
  const manifestFile = join(dir, MANIFEST_FILE);
  const manifest = JSON.parse(await readFile(manifestFile, 'utf8'));
  manifest.files[name].sha256 = createHash('sha256').update(bytes).digest('hex');
  if (manifest.files[name].bytes !== undefined) manifest.files[name].bytes = bytes.length;
  await writeFile(manifestFile, JSON.stringify(manifest));
}

/**
 * Rewrites an index file as a valid container whose sections `edit` changed (values changed in
 * place, or sections replaced), and makes the manifest match it: only the checks of what the
 * sections say can refuse it.
 */
export async function editIndexSections(dir: string, name: string, edit: (sections: Map<string, IndexSection>) => void): Promise<void> {
  await editFile(dir, name, (bytes) => {
    const sections = new Map(decodeIndex(bytes, name).sections);
    for (const [key, section] of sections) sections.set(key, { ...section, values: section.values.slice() });
    edit(sections);
    return Buffer.concat(encodeIndex([...sections.values()]));
  }, true);
}

/** The manifest of a version, parsed. */
export async function readManifestJson(dir: string): Promise<{ files: Record<string, { sha256: string; rows?: number; bytes?: number }> }> {
  return JSON.parse(await readFile(join(dir, MANIFEST_FILE), 'utf8'));
}
