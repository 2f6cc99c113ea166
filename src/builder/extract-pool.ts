/**
 * Where files are extracted: in worker threads (one per core by default, so that parsing runs
 * on every core while the main thread merges), or in the main thread. Both read many files at
 * once, so that no parse waits on a disk read.
 */
import { availableParallelism } from 'node:os';
import { Worker } from 'node:worker_threads';
import { extractFile } from './extract-file.js';
import type { FileExtract } from './file-extract.js';
import type { ExtractReply, ExtractRequest } from './extract-worker.js';

/** Extracts batches of files. */
export interface ExtractPool {
  /** Extracts the files of a batch; the extracts come in the order of `paths`. */
  extract(paths: readonly string[]): Promise<FileExtract[]>;
  /**
   * The size and modification time of each file, in a worker thread (see walk.ts): per path
   * `[size in bytes, mtimeMs]`, NaN for a file that cannot be stat'ed. Absent in a pool
   * without workers.
   */
  stat?: (paths: readonly string[]) => Promise<Float64Array>;
  /**
   * Starts the workers now rather than at the first batch: a build with the cache does so while
   * it reads the cache, so that the workers are ready when the walk reaches the new files.
   */
  warm(): void;
  /**
   * Starts the workers held back at creation (see {@link ExtractPoolOptions.initial}): the
   * read calls it once the files sent to parse are many against the cache (read-inputs.ts
   * `growAt`). Does nothing once they run, or after a worker failed.
   */
  grow(): void;
  /** Worker threads started so far. */
  readonly started: number;
  /** Stops the workers. */
  close(): Promise<void>;
}

/** The default number of extract workers: one per core the process may use. */
export const defaultWorkers = (): number => availableParallelism();

/** Options of {@link createExtractPool}. */
export interface ExtractPoolOptions {
  /**
   * Workers to start first, the others at {@link ExtractPool.grow}. A rebuild from the cache
   * starts one fewer than the cores: its main thread is busy decoding the cache, and the one
   * worker stats the walk and parses the new files (a day's 2,000 files of the build benchmark
   * took 1.31-1.38 s with one worker against 1.40-1.49 s with two on 2 cores: two workers and
   * the main thread share two cores, and each worker warms up its own parser).
   * @default workers
   */
  initial?: number;
}

/**
 * Creates a pool.
 *
 * @param workers - worker threads at most; 0 extracts in the main thread.
 * @param options - see {@link ExtractPoolOptions}.
 */
export function createExtractPool(workers: number, options: ExtractPoolOptions = {}): ExtractPool {
  if (workers === 0) {
    return { extract: (paths) => Promise.all(paths.map(extractFile)), warm: () => {}, grow: () => {}, started: 0, close: async () => {} };
  }
  const initial = Math.min(workers, Math.max(1, options.initial ?? workers));
  const start = workerStarter();
  const pending = new Map<number, { resolve: (reply: ExtractReply) => void; reject: (error: Error) => void; worker: number }>();
  /** The workers started, and the requests each has not answered. */
  const running: Worker[] = [];
  const load: number[] = [];
  let failure: Error | null = null;
  const startWorker = (): void => {
    const index = running.length;
    const worker = start();
    worker.on('message', (reply: ExtractReply) => {
      const request = pending.get(reply.id);
      if (!request) return;
      pending.delete(reply.id);
      load[index]!--;
      request.resolve(reply);
    });
    const fail = (error: Error): void => {
      failure ??= new Error(`extract worker stopped: ${error.message}`);
      for (const [id, request] of pending) {
        if (request.worker !== index) continue;
        pending.delete(id);
        request.reject(failure);
      }
    };
    worker.on('error', fail);
    worker.on('exit', (code) => { if (code !== 0) fail(new Error(`exit code ${code}`)); });
    running.push(worker);
    load.push(0);
  };
  // Started at the first batch: a build whose files all come from the cache starts none.
  const startUpTo = (count: number): void => {
    while (running.length < count) startWorker();
  };
  let nextId = 0;
  const ask = (request: Omit<ExtractRequest, 'id'>): Promise<ExtractReply> => {
    if (failure) return Promise.reject(failure);
    startUpTo(initial);
    // The least loaded worker takes the batch.
    const index = load.indexOf(Math.min(...load));
    const id = nextId++;
    load[index]!++;
    return new Promise((resolve, reject) => {
      pending.set(id, { resolve, reject, worker: index });
      running[index]!.postMessage({ id, ...request } satisfies ExtractRequest);
    });
  };
  return {
    extract: async (paths) => (await ask({ paths: [...paths] })).extracts ?? [],
    // A path holds no NUL (POSIX and Windows both refuse one).
    stat: async (paths) => (await ask({ stat: paths.join('\0') })).stats ?? new Float64Array(0),
    warm: () => startUpTo(initial),
    grow: () => {
      if (!failure) startUpTo(workers);
    },
    get started() {
      return running.length;
    },
    async close() {
      await Promise.all(running.map((worker) => worker.terminate()));
    },
  };
}

/**
 * How to start a worker: the sibling module `extract-worker.js` when compiled; when run from
 * source under tsx (tests, `npx tsx`), `extract-worker.ts` behind tsx's loader, which Node 20
 * does not pass on to worker threads by itself.
 */
function workerStarter(): () => Worker {
  if (!import.meta.url.endsWith('.ts')) {
    const url = new URL('./extract-worker.js', import.meta.url);
    return () => new Worker(url);
  }
  const tsx = import.meta.resolve('tsx/esm/api');
  const source = new URL('./extract-worker.ts', import.meta.url).href;
  const code = `import(${JSON.stringify(tsx)}).then((api) => { api.register(); return import(${JSON.stringify(source)}); });`;
  return () => new Worker(code, { eval: true });
}
