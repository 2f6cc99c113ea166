/**
 * The builder's fingerprint, which the incremental build cache (extract-cache.ts) writes into
 * every segment and checks on reading one.
 */
import { createHash } from 'node:crypto';
import { readFile, readdir } from 'node:fs/promises';

/** The folders whose code decides what a build reads and computes: the readers, the builder, the computations. */
const FOLDERS = ['../edgar/', './', '../facts/'] as const;

/**
 * The builder's own files (source or compiled, whichever runs), every one under each of
 * {@link FOLDERS} with its subfolders (the readers are grouped by form, `edgar/filing/`, …).
 *
 * @returns per file its folder as in {@link FOLDERS}, its path inside it and its bytes, in order.
 */
export async function builderSources(): Promise<{ folder: string; name: string; bytes: Buffer }[]> {
  // Read together, kept in order.
  const files = await Promise.all(FOLDERS.map(async (folder) => {
    const dir = new URL(folder, import.meta.url);
    const names = (await readdir(dir, { recursive: true })).filter((n) => /\.(ts|js)$/.test(n) && !n.endsWith('.d.ts')).sort();
    return Promise.all(names.map(async (name) => ({ folder, name, bytes: await readFile(new URL(name, dir)) })));
  }));
  return files.flat();
}

/**
 * A fingerprint of the builder's code: the SHA-256 of {@link builderSources}, so that a cache
 * written by another version of the builder is never used.
 */
export async function builderFingerprint(): Promise<string> {
  const hash = createHash('sha256');
  for (const { name, bytes } of await builderSources()) hash.update(name).update(bytes);
  return hash.digest('hex').slice(0, 32);
}
