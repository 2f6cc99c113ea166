/**
 * An extract worker (extract-pool.ts): receives batches of paths, answers with their extracts
 * in the same order. A batch's files are read concurrently; parsing is synchronous.
 */
import { parentPort } from 'node:worker_threads';
import { extractFile } from './extract-file.js';

/** A batch to extract. */
export interface ExtractRequest {
  id: number;
  paths: string[];
}

parentPort?.on('message', (request: ExtractRequest) => {
  void Promise.all(request.paths.map(extractFile)).then((extracts) => parentPort!.postMessage({ id: request.id, extracts }));
});
