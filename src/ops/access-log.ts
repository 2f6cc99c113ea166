/**
 * The access log's writer (decisions §12): `--access-log stdout|FILE`. Lines come from
 * `access-log-line.ts`; this file queues them and writes them in batches.
 */
import { closeSync, openSync, writeSync } from 'node:fs';

/** An open access log: a sink for lines, written in batches. */
export interface AccessLogFile {
  /** Queues one line (newline added); written at the end of the event loop's turn. */
  write(line: string): void;
  /** Writes what is queued now. */
  flush(): void;
  /** Reopens the file (after logrotate moved it; SIGHUP). Does nothing for stdout. */
  reopen(): void;
  /** Writes what is queued and closes the file. */
  close(): Promise<void>;
}

/**
 * Largest write of queued lines to stdout: POSIX makes writes of up to PIPE_BUF (4096) bytes to a
 * pipe atomic, so with `--workers` the lines of several processes sharing one stdout pipe never
 * mix. A file is opened for appending and gets each batch in one write.
 */
const MAX_PIPE_WRITE_BYTES = 4096;

/** Queued bytes that make a batch worth writing at once (about 100 lines). */
const FLUSH_BYTES = 32 * 1024;

/**
 * Bytes of the queue: a batch plus room for the line that fills it (a line of `n` UTF-16 code
 * units takes at most `3n` bytes of UTF-8); a longer line gets a queue of its own size.
 */
const QUEUE_BYTES = 64 * 1024;

/** Longest a line waits in the queue, ms. */
const FLUSH_DELAY_MS = 100;

/**
 * Opens `--access-log stdout|FILE` (`off` opens nothing). Lines are queued and written in
 * batches, when 32 KiB are queued or 100 ms after the first line of a batch, with one
 * synchronous write (a few µs, no thread-pool round trip): a write per response, or per turn of
 * the event loop, cost over 10 % of filings req/s. Each line is encoded into the queue's bytes
 * as it comes: queued strings joined at the flush cost about 1.4 µs a response more in a CPU
 * profile of the server (the join flattened each line's pieces). A line thus reaches the file up to 100 ms
 * after its response; {@link AccessLogFile.close} (SIGTERM) writes what is queued, a crash loses
 * at most those 100 ms. A FILE is opened for appending, so several processes may share it, and
 * reopened by {@link AccessLogFile.reopen} (after logrotate moved it).
 *
 * @param target - `stdout` or a file path.
 * @param log - told once when stdout fails (its reader went away); the server goes on without the log.
 * @throws the open error of FILE (e.g. EACCES, ENOENT), at once. A later write that fails (a
 *   full disk) drops its lines and is logged once until a write succeeds again.
 */
export function openAccessLog(target: string, log: (line: string) => void = (line) => { process.stderr.write(`${line}\n`); }): AccessLogFile {
  const toStdout = target === 'stdout';
  // Opened now, so that a path that cannot be written stops the start, not a request.
  let fd: number | undefined = toStdout ? undefined : openSync(target, 'a');
  /** Whether the last write to FILE failed (logged once until one succeeds again). */
  let failing = false;
  // A reader that went away (\`serve | head\`, EPIPE) must not end the server: the log stops.
  let broken = false;
  if (toStdout) {
    process.stdout.on('error', (error) => {
      if (!broken) log(`access log: stdout failed (${error.message}); no more access log lines`);
      broken = true;
    });
  }
  // Lines in UTF-8, each with its newline; the file's queue is reused after each write, stdout
  // gets the bytes and the queue is replaced (a stream may hold them after write() returns).
  let queue = Buffer.allocUnsafe(QUEUE_BYTES);
  let queued = 0;
  let timer: NodeJS.Timeout | undefined;
  const flush = (): void => {
    clearTimeout(timer);
    timer = undefined;
    if (queued === 0) return;
    const bytes = queue.subarray(0, queued);
    queued = 0;
    if (broken) return;
    if (!toStdout) {
      try {
        fd ??= openSync(target, 'a');
        writeSync(fd, bytes);
        failing = false;
        // A queue grown for one long line is not kept.
        if (queue.length > QUEUE_BYTES) queue = Buffer.allocUnsafe(QUEUE_BYTES);
      } catch (error) {
        if (!failing) log(`access log: cannot write ${target} (${(error as Error).message}); its lines are dropped until it can`);
        failing = true;
      }
      return;
    }
    queue = Buffer.allocUnsafe(QUEUE_BYTES);
    // Chunks of whole lines, each at most PIPE_BUF bytes unless one line is longer.
    let start = 0;
    while (bytes.length - start > MAX_PIPE_WRITE_BYTES) {
      const end = bytes.lastIndexOf(0x0a, start + MAX_PIPE_WRITE_BYTES - 1);
      const cut = end >= start ? end + 1 : bytes.indexOf(0x0a, start) + 1;
      process.stdout.write(bytes.subarray(start, cut));
      start = cut;
    }
    if (start < bytes.length) process.stdout.write(bytes.subarray(start));
  };
  return {
    write(line) {
      const most = 3 * line.length + 1;
      if (queued + most > queue.length) {
        flush();
        if (most > queue.length) queue = Buffer.allocUnsafe(most);
      }
      queued += queue.write(line, queued, 'utf8');
      queue[queued++] = 0x0a;
      if (queued >= FLUSH_BYTES) flush();
      else if (timer === undefined) {
        timer = setTimeout(flush, FLUSH_DELAY_MS);
        timer.unref();
      }
    },
    flush,
    reopen() {
      flush();
      if (fd !== undefined) closeSync(fd);
      fd = undefined;
    },
    close() {
      flush();
      if (fd !== undefined) closeSync(fd);
      fd = undefined;
      return Promise.resolve();
    },
  };
}
