/**
 * The server runs air-gapped with no dependency (README): the modules that `serve`, `portal`, the
 * library entry and the CLI load statically reach only Node's built-ins and the project's own files. The
 * builder's dependencies (saxes, yauzl, csv-parse) are loaded only through `build`'s dynamic import.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';

const SRC = resolve(import.meta.dirname, '../../src');

/**
 * Static import and export-from specifiers of a module that load at run time: `import type`
 * is erased by the compiler, and dynamic `import()` calls are not followed.
 */
function staticImports(path: string): string[] {
  const text = readFileSync(path, 'utf8');
  return [...text.matchAll(/^\s*(?:import|export)\s(?!type\s)[^;]*?\sfrom\s+['"]([^'"]+)['"]/gm), ...text.matchAll(/^\s*import\s+['"]([^'"]+)['"]/gm)].map((m) => m[1]!);
}

function reachable(entry: string): { files: Set<string>; packages: Set<string> } {
  const files = new Set<string>();
  const packages = new Set<string>();
  const visit = (path: string): void => {
    if (files.has(path)) return;
    files.add(path);
    for (const specifier of staticImports(path)) {
      if (specifier.startsWith('.')) visit(join(dirname(path), specifier.replace(/\.js$/, '.ts')));
      else if (!specifier.startsWith('node:')) packages.add(specifier);
    }
  };
  visit(join(SRC, entry));
  return { files, packages };
}

test('serve, the portal, the library entry and the CLI statically load no package, and no builder or reader module', () => {
  for (const entry of ['cli/main.ts', 'index.ts', 'server.ts', 'cli/portal-command.ts', 'portal/listen-portal.ts']) {
    const { files, packages } = reachable(entry);
    assert.deepEqual([...packages], [], `${entry} loads packages`);
    const builderFiles = [...files].filter((f) => /[/\\](builder|edgar|facts|fetch)[/\\]/.test(f));
    assert.deepEqual(builderFiles, [], `${entry} loads build-time modules`);
    assert.ok(files.size > 10, `${entry}: the walk followed its imports`);
  }
  // The check can fail: the builder itself loads its parsers.
  assert.ok(reachable('builder/command.ts').packages.has('saxes'));
});
