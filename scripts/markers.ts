/**
 * Generated parts of the docs live between `<!-- name:start -->` and `<!-- name:end -->`
 * markers: the examples (scripts/readme-examples.ts) and the settings table
 * (scripts/settings-table.ts). A test compares what is committed with what would be generated.
 */
import { readFile, writeFile } from 'node:fs/promises';
import { PACKAGE_ROOT } from '../src/package-root.js';

/**
 * What lies between a file's markers, without the newlines that frame it.
 *
 * @throws Error when the file lacks the markers.
 */
export function between(text: string, name: string, path: string): string {
  const start = text.indexOf(`<!-- ${name}:start -->`);
  const end = text.indexOf(`<!-- ${name}:end -->`);
  if (start === -1 || end === -1 || end < start) throw new Error(`${path} has no ${name} markers`);
  return text.slice(start + `<!-- ${name}:start -->`.length, end).replace(/^\n/, '').replace(/\n$/, '');
}

/** Replaces what lies between `<!-- name:start -->` and `<!-- name:end -->` in a file of the package. */
export async function writeBetween(path: string, name: string, markdown: string): Promise<void> {
  const file = `${PACKAGE_ROOT}${path}`;
  const text = await readFile(file, 'utf8');
  between(text, name, path);
  const start = text.indexOf(`<!-- ${name}:start -->`);
  const end = text.indexOf(`<!-- ${name}:end -->`);
  await writeFile(file, `${text.slice(0, start)}<!-- ${name}:start -->\n${markdown}\n${text.slice(end)}`);
}
