/**
 * An extract worker (extract-pool.ts): receives batches of paths, answers with their extracts
 * in the same order. A batch's files are read concurrently; parsing is synchronous. It also
 * stats batches of files for the walk (walk.ts), so that the main thread does not.
 */
import { parentPort } from 'node:worker_threads';
import { extractFile } from './extract-file.js';
import type { FileExtract } from './file-extract.js';
import { statFilesNow } from './walk.js';

/** A batch to extract, or to stat: `stat` holds the paths joined by NUL (one string crosses to the worker faster than many). */
export interface ExtractRequest {
  id: number;
  paths?: string[];
  stat?: string;
}

/** The answer: the extracts in the order of the paths, or their `[size, mtimeMs]` pairs (NaN where a file cannot be stat'ed). */
export interface ExtractReply {
  id: number;
  extracts?: FileExtract[];
  stats?: Float64Array;
}

parentPort?.on('message', (request: ExtractRequest) => {
  if (request.stat !== undefined) {
    const stats = statFilesNow(request.stat.split('\0'));
    parentPort!.postMessage({ id: request.id, stats } satisfies ExtractReply, [stats.buffer]);
    return;
  }
  void Promise.all((request.paths ?? []).map(extractFile)).then((extracts) => parentPort!.postMessage({ id: request.id, extracts } satisfies ExtractReply));
});
