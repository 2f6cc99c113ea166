/**
 * An extract worker (extract-pool.ts): receives batches of paths, answers with their extracts
 * in the same order. A batch's files are read concurrently; parsing is synchronous. It also
 * stats batches of files for the walk (walk.ts), so that the main thread does not.
 */
import { statSync } from 'node:fs';
import { parentPort } from 'node:worker_threads';
import { extractFile } from './extract-file.js';
import type { FileExtract } from './file-extract.js';

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
    const paths = request.stat.split('\0');
    const stats = new Float64Array(2 * paths.length).fill(NaN);
    paths.forEach((path, i) => {
      // A file that cannot be stat'ed (gone, no permission) stays NaN: the walk passes it on, and its read fails and is reported.
      try {
        const s = statSync(path, { throwIfNoEntry: false });
        if (s) stats.set([s.size, s.mtimeMs], 2 * i);
      } catch { /* NaN */ }
    });
    parentPort!.postMessage({ id: request.id, stats } satisfies ExtractReply, [stats.buffer]);
    return;
  }
  void Promise.all((request.paths ?? []).map(extractFile)).then((extracts) => parentPort!.postMessage({ id: request.id, extracts } satisfies ExtractReply));
});
