/**
 * Reads one input file from disk and extracts it (file-extract.ts): asynchronously in the main
 * thread, which has other work while the read is under way, and synchronously in the extract
 * workers (extract-pool.ts), whose thread has nothing else to do.
 */
import { readFile, readFileSync } from 'node:fs';
import { emptyExtract, extractText, type FileExtract } from './file-extract.js';

/**
 * Reads and extracts one file.
 *
 * @param path - the file.
 * @returns its extract; a file that cannot be read gives one `skipped` entry with the error code.
 */
export async function extractFile(path: string): Promise<FileExtract> {
  let text: string;
  try {
    text = await readText(path);
  } catch (error) {
    return unreadable(path, error);
  }
  return extractText(path, text);
}

/**
 * Reads and extracts one file, blocking the calling thread while it reads: in an extract
 * worker. An asynchronous `readFile` takes four trips through libuv's thread pool (open, stat,
 * read, close), whose threads then compete with the parsing threads for the cores; for files in
 * the page cache (a build after a fetch) one synchronous read costs far less. Measured on 2
 * cores, 51,000 filings: a full build in 8.7-9.2 s against 10.0-10.8 s, and a rebuild after a
 * day in 1.09-1.18 s against 1.15-1.23 s; from a cold page cache (one run each) 14.2 s against
 * 13.5 s, the price of reading one file at a time per worker.
 *
 * @param path - the file.
 * @returns as {@link extractFile}.
 */
export function extractFileNow(path: string): FileExtract {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    return unreadable(path, error);
  }
  return extractText(path, text);
}

/** The extract of a file that cannot be read: one `skipped` entry with the error code. */
function unreadable(path: string, error: unknown): FileExtract {
  const extract = emptyExtract();
  extract.skipped.push({ path, reason: `cannot read: ${(error as NodeJS.ErrnoException).code ?? String(error)}` });
  return extract;
}

/** `fs.readFile` with a callback: a third of the cost of `fs/promises` for small files (one call instead of four). */
const readText = (path: string): Promise<string> => new Promise((resolve, reject) => {
  readFile(path, 'utf8', (error, text) => (error ? reject(error) : resolve(text)));
});
