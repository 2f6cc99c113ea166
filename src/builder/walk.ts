/**
 * Lists every regular file under a folder, recursively, in a stable (sorted) order, so that
 * builds from the same input are identical. Hidden entries (`.git`, `.DS_Store`) are passed over.
 */
import { readdir } from 'node:fs/promises';
import { join } from 'node:path';

/**
 * Walks `root`.
 *
 * @param root - the folder given to `--from`.
 * @returns paths of regular files, sorted.
 * @throws Error when `root` cannot be read.
 */
export async function walkFiles(root: string): Promise<string[]> {
  const out: string[] = [];
  const visit = async (dir: string): Promise<void> => {
    const entries = await readdir(dir, { withFileTypes: true });
    entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    for (const entry of entries) {
      if (entry.name.startsWith('.')) continue;
      const path = join(dir, entry.name);
      if (entry.isDirectory()) await visit(path);
      else if (entry.isFile()) out.push(path);
    }
  };
  await visit(root);
  return out;
}
