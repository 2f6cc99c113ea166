/**
 * What `npm pack` puts in the package, read from npm itself (`npm pack --dry-run --json`): the
 * licence package.json names, and source maps that a reader of the package can follow.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { dirname, posix } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

const root = dirname(fileURLToPath(new URL('../package.json', import.meta.url)));

/** The paths npm would pack, from the built tree (`pretest` builds; scripts are not run again). */
async function packedFiles(): Promise<Set<string>> {
  const { stdout } = await promisify(execFile)('npm', ['pack', '--dry-run', '--json', '--ignore-scripts'], { cwd: root, maxBuffer: 64 << 20 });
  const [pack] = JSON.parse(stdout) as { files: { path: string }[] }[];
  return new Set(pack!.files.map((file) => file.path));
}

test('the package ships the MIT licence that package.json names', async () => {
  const files = await packedFiles();
  assert.ok(files.has('LICENSE'));
  const pkg = JSON.parse(await readFile(`${root}/package.json`, 'utf8')) as { license: string };
  assert.equal(pkg.license, 'MIT');
  assert.match(await readFile(`${root}/LICENSE`, 'utf8'), /^MIT License\n\nCopyright \(c\) 2026 the equity-facts authors\n/);
});

test('every source map in the package carries its sources or points at a file the package has', async () => {
  const files = await packedFiles();
  const maps = [...files].filter((path) => path.endsWith('.js.map'));
  assert.ok(maps.length > 10, 'the package has source maps to check');
  const unreachable: string[] = [];
  for (const path of maps) {
    const map = JSON.parse(await readFile(`${root}/${path}`, 'utf8')) as { sources: string[]; sourcesContent?: (string | null)[] };
    map.sources.forEach((source, i) => {
      if (typeof map.sourcesContent?.[i] === 'string' && map.sourcesContent[i]!.length > 0) return;
      const target = posix.normalize(posix.join(posix.dirname(path), source));
      if (!files.has(target)) unreachable.push(`${path} → ${source}`);
    });
  }
  assert.deepEqual(unreachable.slice(0, 5), [], `${unreachable.length} map sources are neither inlined nor packed`);
});
