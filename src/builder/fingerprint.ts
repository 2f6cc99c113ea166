/**
 * The builder's fingerprint, which the incremental build cache (extract-cache.ts) writes into
 * every segment and checks on reading one.
 */
import { createHash } from 'node:crypto';
import { readFile, readdir } from 'node:fs/promises';

/**
 * A fingerprint of the builder's code: the SHA-256 of the readers', the builder's and the
 * computations' own files (source or compiled, whichever runs), so that a cache written by
 * another version of the builder is never used.
 */
export async function builderFingerprint(): Promise<string> {
  const hash = createHash('sha256');
  for (const folder of ['../edgar/', './', '../facts/']) {
    const dir = new URL(folder, import.meta.url);
    for (const name of (await readdir(dir)).filter((n) => /\.(ts|js)$/.test(n) && !n.endsWith('.d.ts')).sort()) {
      hash.update(name).update(await readFile(new URL(name, dir)));
    }
  }
  return hash.digest('hex').slice(0, 32);
}
