/**
 * Reads every input file: batches of files go to the extract pool, several at once, and their
 * extracts are merged into the inputs in walk order as they arrive.
 */
import type { ExtractPool } from './extract-pool.js';
import type { FileExtract } from './file-extract.js';
import { addExtract, emptyInputs, type Inputs } from './inputs.js';

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
 * @param paths - the files, in walk order.
 * @throws Error when the pool fails (a worker stopped).
 */
export async function readInputs(paths: readonly string[], options: ReadInputsOptions): Promise<Inputs> {
  const inputs = emptyInputs();
  const inFlight = options.inFlight ?? 8;
  const results: Promise<FileExtract[]>[] = [];
  let next = 0;
  let read = 0;
  const dispatch = (): void => {
    while (results.length < inFlight && next < paths.length) {
      const batch = options.pool.extract(paths.slice(next, next + BATCH_FILES));
      // Awaited in order below; a failure of a later batch must not be an unhandled rejection meanwhile.
      batch.catch(() => {});
      results.push(batch);
      next += BATCH_FILES;
    }
  };
  dispatch();
  while (results.length > 0) {
    const extracts = await results.shift()!;
    for (const extract of extracts) addExtract(inputs, extract);
    read += extracts.length;
    options.progress?.(read, paths.length);
    dispatch();
  }
  return inputs;
}
