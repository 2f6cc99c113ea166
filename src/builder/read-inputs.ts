/**
 * Reads every input file: batches of files go to the extract pool, several at once, and their
 * extracts are merged into the inputs in walk order as they arrive. Bulk products (large files,
 * zip archives, data-set tables) are streamed by the main thread after the rest and merged in
 * walk order among themselves.
 */
import { BulkInputs, LARGE_FILE_BYTES } from './bulk-inputs.js';
import { runExtract, type CachedRun, type DecodedBlock } from './cache-block.js';
import type { ExtractCache } from './extract-cache.js';
import { createExtractPool, type ExtractPool } from './extract-pool.js';
import type { FileExtract } from './file-extract.js';
import { addExtract, emptyInputs, type Inputs } from './inputs.js';
import { walkOrder, type WalkedFile } from './walk.js';

/** Files per batch sent to the pool: enough to make a message worth its cost. */
export const BATCH_FILES = 32;

/**
 * Batches read ahead of the merge at most, counting those the cache answered whole: they cost
 * no parse (their extracts are in memory already), so the walk runs ahead through them to the
 * files the pool must parse, which are then parsed while the cached batches are merged.
 */
export const READ_AHEAD_BATCHES = 8_192;

/**
 * Batches the pool has parsed and the merge has not reached yet, at most: the pool goes on
 * parsing while the merge works through batches before them (in a rebuild, the cached ones),
 * holding this many batches' extracts.
 */
export const PARSED_AHEAD_BATCHES = 256;

/** Batches in the workers' hands at most while the main thread parses too (see `help` in {@link readInputs}). */
const HELPING_IN_FLIGHT = 2;

/** Parses in the main thread, where the merge helps the workers (see `help` in {@link readInputs}). */
const MAIN_THREAD = createExtractPool(0);

/** Merged batches between two turns of the event loop while the pool is parsing. */
const YIELD_EVERY_BATCHES = 16;

/** Options of {@link readInputs}. */
export interface ReadInputsOptions {
  pool: ExtractPool;
  /** Batches being parsed by the pool at once (see also {@link READ_AHEAD_BATCHES} and {@link PARSED_AHEAD_BATCHES}). @default 8 */
  inFlight?: number;
  /** The incremental build cache, when `--cache` is given. */
  cache?: ExtractCache;
  /**
   * Files sent to the pool after which it starts all its workers ({@link ExtractPool.grow}): a
   * rebuild starts one worker fewer, for as long as the parse is the shorter job.
   * @default 0 (at once)
   */
  growAt?: number;
  /** Called after each merged batch with the files read so far. */
  progress?: (read: number) => void;
}

/**
 * Reads the files.
 *
 * @param chunks - the files, in walk order, in chunks of any length (as walk.ts gives them: a
 *   lazy walk is read as it goes).
 * @throws Error when the pool fails (a worker stopped).
 */
export async function readInputs(chunks: AsyncIterable<readonly WalkedFile[]> | Iterable<readonly WalkedFile[]>, options: ReadInputsOptions): Promise<Inputs> {
  const inputs = emptyInputs();
  const inFlight = options.inFlight ?? 8;
  const iterator = (Symbol.asyncIterator in chunks ? chunks[Symbol.asyncIterator]() : (chunks as Iterable<readonly WalkedFile[]>)[Symbol.iterator]()) as AsyncIterator<readonly WalkedFile[]> | Iterator<readonly WalkedFile[]>;
  /** The chunk being read, and the next file of it. */
  let chunk: readonly WalkedFile[] = [];
  let next = 0;
  /** Batches read from the walk, in walk order; `waiting` while the pool has not answered for it. */
  const results: { batch: WalkedFile[]; extracts: () => Promise<Extracted[]>; pooled: boolean; waiting: boolean }[] = [];
  /** Batches sent to the pool and not parsed yet, and not merged yet. */
  let parsing = 0;
  let pooled = 0;
  let merged = 0;
  /** Files for the main thread to stream (large, or found to be a zip or a table), in walk order. */
  const bulk: string[] = [];
  let walked = false;
  let read = 0;
  const growAt = options.growAt ?? 0;
  /** Files sent to the pool so far. */
  let asked = 0;
  const nextBatch = async (): Promise<WalkedFile[]> => {
    const batch: WalkedFile[] = [];
    while (batch.length < BATCH_FILES && !walked) {
      if (next === chunk.length) {
        const step = await iterator.next();
        if (step.done) walked = true;
        else [chunk, next] = [step.value, 0];
        continue;
      }
      const file = chunk[next++]!;
      if (file.size > LARGE_FILE_BYTES) bulk.push(file.path);
      else batch.push(file);
    }
    return batch;
  };
  const dispatch = async (limit = inFlight): Promise<void> => {
    while (parsing < limit && pooled < PARSED_AHEAD_BATCHES && results.length < READ_AHEAD_BATCHES && !walked) {
      const batch = await nextBatch();
      if (batch.length === 0) continue;
      const { files, extracts, parsed, toParse } = extractBatch(batch, options.pool, options.cache);
      const result = { batch: files, extracts, pooled: parsed !== undefined, waiting: parsed !== undefined };
      results.push(result);
      if (parsed) {
        pooled++;
        parsing++;
        const settled = (): void => {
          parsing--;
          result.waiting = false;
        };
        void parsed.then(settled, settled);
        asked += toParse;
        if (asked >= growAt) options.pool.grow();
      }
    }
  };
  // Consecutive entries of one cache block, merged list by list when something else comes.
  let run: CachedRun | undefined;
  const flush = (): void => {
    if (run) addExtract(inputs, runExtract(run), run.end - run.start, false);
    run = undefined;
  };
  /**
   * The merge would wait for the workers: the main thread parses the walk's next batches itself
   * meanwhile (in a rebuild, the cache is merged and the workers still parse the new files),
   * keeping the workers fed with {@link HELPING_IN_FLIGHT} batches, so that little of theirs is
   * left to wait for when the walk ends.
   */
  const help = async (): Promise<void> => {
    while (results[0]!.waiting && !walked && results.length < READ_AHEAD_BATCHES) {
      await dispatch(HELPING_IN_FLIGHT);
      const batch = await nextBatch();
      if (batch.length === 0) continue;
      const { files, extracts, parsed } = extractBatch(batch, MAIN_THREAD, options.cache);
      results.push({ batch: files, extracts, pooled: false, waiting: false });
      await parsed?.catch(() => {});
    }
  };
  // What the main thread waits out while the walk runs ahead (the stats of its files), it spends decoding the cache.
  const stopDecoding = options.cache?.decodeAhead();
  try {
    await dispatch();
    while (results.length > 0) {
      if (results[0]!.waiting && options.pool.started > 0) await help();
      const { batch, extracts, pooled: used } = results.shift()!;
      if (used) pooled--;
      (await extracts()).forEach((item, i) => {
        if ('block' in item) {
          if (run?.block === item.block && run.end === item.index) run.end++;
          else {
            flush();
            run = { block: item.block, start: item.index, end: item.index + 1 };
          }
          return;
        }
        flush();
        if (item.deferred) bulk.push(batch[i]!.path);
        else addExtract(inputs, item);
      });
      read += batch.length;
      options.progress?.(read);
      // Batches from the cache are merged without a wait, and the pool's replies are events: let
      // them in now and then, so that the pool is kept busy while the cached batches are merged.
      if (parsing > 0 && ++merged % YIELD_EVERY_BATCHES === 0) await new Promise(setImmediate);
      await dispatch();
    }
    flush();
  } finally {
    stopDecoding?.();
  }
  const reader = new BulkInputs((extract, count) => addExtract(inputs, extract, count));
  // Walk order among the bulk files: the large ones were met in order, the deferred ones in order, and paths sort as the walk does.
  for (const path of bulk.sort(walkOrder)) {
    await reader.readFile(path);
    options.progress?.(++read);
  }
  reader.finish();
  return inputs;
}


/** A file's extract: parsed, or an entry of a decoded cache block. */
type Extracted = Partial<FileExtract> | { block: DecodedBlock; index: number };

/**
 * A batch's extracts, in its order: from the cache where it holds them, else from the pool (and
 * then cached); `parsed` settles when the pool has parsed what it was asked (`toParse` files), if asked. The pool
 * is asked at once; the cache's extracts are taken when `extracts` is called (in walk order, at
 * the merge), so that the walk runs ahead on the cache's index alone. `files` is the batch with
 * each file the cache holds replaced by its entry (the same path, size and mtime), so that the
 * walk's objects of those files need not live until the merge.
 */
function extractBatch(batch: WalkedFile[], pool: ExtractPool, cache: ExtractCache | undefined): { files: WalkedFile[]; extracts: () => Promise<Extracted[]>; parsed?: Promise<unknown>; toParse: number } {
  const parse = (files: readonly WalkedFile[]): Promise<FileExtract[]> => {
    const parsed = pool.extract(files.map((file) => file.path));
    // Awaited in walk order; a failure of a later batch must not be an unhandled rejection meanwhile.
    parsed.catch(() => {});
    return parsed;
  };
  if (!cache) {
    const parsed = parse(batch);
    return { files: batch, extracts: () => parsed, parsed, toParse: batch.length };
  }
  const known = batch.map((file) => cache.find(file));
  const missing = batch.filter((_, i) => !known[i]);
  const parsed = missing.length === 0 ? undefined : parse(missing);
  // A found entry stands for its file (same path, size and mtime): the walk's objects of the
  // files found, most of a rebuild's, are dropped now rather than held until the merge.
  const files = batch.map((file, i) => known[i] ?? file);
  const extracts = async (): Promise<Extracted[]> => {
    const list = parsed ? await parsed : [];
    let j = 0;
    const out: Extracted[] = [];
    for (let i = 0; i < files.length; i++) {
      const file = files[i]!;
      const found = known[i];
      const taken = found ? cache.take(found) : undefined;
      if (taken) {
        out.push(taken);
        continue;
      }
      // A block found damaged only now: its files are parsed after all.
      const extract = known[i] ? (await parse([file]))[0]! : list[j++]!;
      cache.put(file, extract);
      out.push(extract);
    }
    return out;
  };
  return { files, extracts, toParse: missing.length, ...(parsed ? { parsed } : {}) };
}
