/**
 * Reads every input file: batches of files go to the extract pool, several at once, and their
 * extracts are merged into the inputs in walk order as they arrive. Bulk products (large files,
 * zip archives, data-set tables) are streamed by the main thread after the rest and merged in
 * walk order among themselves.
 */
import { BulkInputs, LARGE_FILE_BYTES } from './bulk-inputs.js';
import type { ExtractPool } from './extract-pool.js';
import type { FileExtract } from './file-extract.js';
import { addExtract, emptyInputs, type Inputs } from './inputs.js';
import type { WalkedFile } from './walk.js';

/** Files per batch sent to the pool: enough to make a message worth its cost. */
export const BATCH_FILES = 32;

/** Options of {@link readInputs}. */
export interface ReadInputsOptions {
  pool: ExtractPool;
  /** Batches in flight at once. @default 8 */
  inFlight?: number;
  /** Called after each merged batch with the files read so far. */
  progress?: (read: number, total: number) => void;
}

/**
 * Reads the files.
 *
 * @param files - the files, in walk order.
 * @throws Error when the pool fails (a worker stopped).
 */
export async function readInputs(files: readonly WalkedFile[], options: ReadInputsOptions): Promise<Inputs> {
  const inputs = emptyInputs();
  const inFlight = options.inFlight ?? 8;
  const bulk: string[] = [];
  const small: string[] = [];
  for (const file of files) (file.size > LARGE_FILE_BYTES ? bulk : small).push(file.path);
  const results: { paths: string[]; extracts: Promise<FileExtract[]> }[] = [];
  let next = 0;
  let read = 0;
  const dispatch = (): void => {
    while (results.length < inFlight && next < small.length) {
      const paths = small.slice(next, next + BATCH_FILES);
      const extracts = options.pool.extract(paths);
      // Awaited in order below; a failure of a later batch must not be an unhandled rejection meanwhile.
      extracts.catch(() => {});
      results.push({ paths, extracts });
      next += BATCH_FILES;
    }
  };
  dispatch();
  const deferred: string[] = [];
  while (results.length > 0) {
    const { paths, extracts } = results.shift()!;
    (await extracts).forEach((extract, i) => {
      if (extract.deferred) deferred.push(paths[i]!);
      else addExtract(inputs, extract);
    });
    read += paths.length;
    options.progress?.(read, files.length);
    dispatch();
  }
  const reader = new BulkInputs((extract, count) => addExtract(inputs, extract, count));
  const byPath = new Set(deferred);
  for (const file of files) {
    if (!byPath.has(file.path) && file.size <= LARGE_FILE_BYTES) continue;
    await reader.readFile(file.path);
    options.progress?.(++read, files.length);
  }
  reader.finish();
  return inputs;
}
