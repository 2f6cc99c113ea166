/**
 * The builder's fingerprint, which the incremental build cache (extract-cache.ts) writes into
 * every segment and checks on reading one.
 */
import { createHash } from 'node:crypto';
import { readFile, readdir } from 'node:fs/promises';

/**
 * A fingerprint of the builder's code: the SHA-256 of the readers' (every file under edgar/ and
 * its subfolders), the builder's and the computations' own files (source or compiled, whichever
 * runs), so that a cache written by another version of the builder is never used.
 */
export async function builderFingerprint(): Promise<string> {
  // Read together, hashed in order; the readers are grouped in subfolders by form (edgar/filing/, …).
  const files = await Promise.all(['../edgar/', './', '../facts/'].map(async (folder) => {
    const dir = new URL(folder, import.meta.url);
    const names = (await readdir(dir, { recursive: true })).filter((n) => /\.(ts|js)$/.test(n) && !n.endsWith('.d.ts')).sort();
    return Promise.all(names.map(async (name) => ({ name, bytes: await readFile(new URL(name, dir)) })));
  }));
  const hash = createHash('sha256');
  for (const { name, bytes } of files.flat()) hash.update(name).update(bytes);
  return hash.digest('hex').slice(0, 32);
}
