/**
 * Reads every input file: batches of files go to the extract pool, several at once, and their
 * extracts are merged into the inputs in walk order as they arrive. Bulk products (large files,
 * zip archives, data-set tables) are streamed by the main thread after the rest and merged in
 * walk order among themselves.
 */
import { BulkInputs, LARGE_FILE_BYTES } from './bulk-inputs.js';
import type { ExtractCache } from './extract-cache.js';
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
  /** The incremental build cache, when `--cache` is given. */
  cache?: ExtractCache;
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
  const small = files.filter((file) => file.size <= LARGE_FILE_BYTES);
  const results: { batch: WalkedFile[]; extracts: Promise<Partial<FileExtract>[]> }[] = [];
  let next = 0;
  let read = 0;
  const dispatch = (): void => {
    while (results.length < inFlight && next < small.length) {
      const batch = small.slice(next, next + BATCH_FILES);
      next += BATCH_FILES;
      const extracts = extractBatch(batch, options.pool, options.cache);
      // Awaited in order below; a failure of a later batch must not be an unhandled rejection meanwhile.
      extracts.catch(() => {});
      results.push({ batch, extracts });
    }
  };
  dispatch();
  const deferred = new Set<string>();
  while (results.length > 0) {
    const { batch, extracts } = results.shift()!;
    (await extracts).forEach((extract, i) => {
      if (extract.deferred) deferred.add(batch[i]!.path);
      else addExtract(inputs, extract);
    });
    read += batch.length;
    options.progress?.(read, files.length);
    dispatch();
  }
  const reader = new BulkInputs((extract, count) => addExtract(inputs, extract, count));
  for (const file of files) {
    if (!deferred.has(file.path) && file.size <= LARGE_FILE_BYTES) continue;
    await reader.readFile(file.path);
    options.progress?.(++read, files.length);
  }
  reader.finish();
  return inputs;
}

/** A batch's extracts, in its order: from the cache where it holds them, else from the pool (and then cached). */
async function extractBatch(batch: readonly WalkedFile[], pool: ExtractPool, cache: ExtractCache | undefined): Promise<Partial<FileExtract>[]> {
  if (!cache) return pool.extract(batch.map((file) => file.path));
  const extracts = batch.map((file) => cache.get(file));
  const missing = batch.filter((_, i) => extracts[i] === undefined);
  if (missing.length === 0) return extracts as Partial<FileExtract>[];
  const parsed = await pool.extract(missing.map((file) => file.path));
  let j = 0;
  return extracts.map((known, i) => {
    if (known) return known;
    const extract = parsed[j++]!;
    cache.put(batch[i]!, extract);
    return extract;
  });
}
