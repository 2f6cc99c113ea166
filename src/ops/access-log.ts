/**
 * The access log's writer: `--access-log stdout|FILE`. Lines come from `access-log-line.ts`;
 * this file queues them and writes them in batches, each line whole or not at all, and holds a
 * bounded number of bytes whatever its reader does. Lines it cannot write are dropped and
 * counted (`eqf_access_log_dropped_total`), and the operational log says so once.
 */
import { closeSync, fstatSync, ftruncateSync, openSync, writeSync } from 'node:fs';
import { createLogger, type LogSink } from './logger.js';

/** Where the access log's lines go: the handler's `accessLog` option takes one. */
export interface AccessLogSink {
  /** Takes one line, without its newline. */
  write(line: string): void;
  /**
   * Takes whole lines as UTF-8 bytes, each ending with its newline (`\n`), and copies them: the
   * bytes are the caller's again when it returns. Optional; when present, the handler hands over
   * each batch of lines this way, made as bytes with no string per line.
   */
  writeLines?(bytes: Uint8Array): void;
  /** Lines dropped so far (not written: a stalled reader, a full disk, a reader gone). */
  dropped(): number;
}

/** An open access log: a sink for lines, written in batches. */
export interface AccessLogFile extends AccessLogSink {
  /** Queues one line (newline added); written within {@link FLUSH_DELAY_MS} ms. */
  write(line: string): void;
  /** Queues whole lines, UTF-8 bytes each ending with `\n` (copied); written within {@link FLUSH_DELAY_MS} ms. */
  writeLines(bytes: Uint8Array): void;
  /** Writes what is queued now. */
  flush(): void;
  /** Reopens the file (after logrotate moved it; SIGHUP). Does nothing for stdout. */
  reopen(): void;
  /** Writes what is queued and closes the file. */
  close(): Promise<void>;
}

/**
 * Largest write of queued lines to stdout when it is a pipe or a socket: POSIX makes writes of up
 * to PIPE_BUF (4096) bytes to a pipe atomic, so with `--workers` the lines of several processes
 * sharing one stdout pipe never mix. A file (FILE, or stdout redirected to one) and a device
 * (`/dev/null`) get each batch in one write: 8 writes of 4 KiB to `/dev/null` instead of one cost
 * about 1 % of filings req/s.
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
export const FLUSH_DELAY_MS = 100;

/**
 * Most bytes stdout's stream may hold for a reader that does not keep up (4 MiB, about 10,000
 * lines; the pipe holds another 64 KiB): past it, lines are dropped. Node keeps what a pipe
 * cannot take yet in buffers outside the JavaScript heap, where the breaker does not look, so a
 * reader that stopped reading grew a server by 230 MB over 840,000 requests.
 */
export const MAX_HELD_BYTES = 4 * 1024 * 1024;

/** Whether a descriptor is a pipe (FIFO) or a socket; true when it cannot be examined. */
function isPipeOrSocket(fd: number): boolean {
  try {
    const stat = fstatSync(fd);
    return stat.isFIFO() || stat.isSocket();
  } catch {
    return true;
  }
}

/**
 * Lines in a run of whole lines: its newline bytes (`\n`, 0x0a).
 *
 * @param bytes - UTF-8 lines, each ending with its newline.
 */
export function countLines(bytes: Uint8Array): number {
  let lines = 0;
  for (let at = bytes.indexOf(0x0a); at !== -1; at = bytes.indexOf(0x0a, at + 1)) lines++;
  return lines;
}

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
 * Nothing is held without bound and no line is cut: to stdout, a chunk that would take what the
 * stream holds past {@link MAX_HELD_BYTES} is dropped (logged once until the stream has drained);
 * to FILE, a write the disk takes only part of (full) is cut back to its last whole line, when
 * the file grew by that write alone (another process's line appended meanwhile is never cut),
 * and the rest of the batch dropped (logged once until a write succeeds again).
 *
 * @param target - `stdout` or a file path.
 * @param log - the operational log: told once when stdout fails (its reader went away; the
 *   server goes on without the access log), falls behind, or FILE cannot be written.
 * @throws the open error of FILE (e.g. EACCES, ENOENT), at once.
 */
export function openAccessLog(target: string, log: LogSink = createLogger()): AccessLogFile {
  const toStdout = target === 'stdout';
  // Whether stdout's writes must be cut to PIPE_BUF (see MAX_PIPE_WRITE_BYTES); when fd 1 cannot
  // be examined, they are.
  const stdoutInPieces = toStdout && isPipeOrSocket(1);
  // Opened now, so that a path that cannot be written stops the start, not a request.
  let fd: number | undefined = toStdout ? undefined : openSync(target, 'a');
  let dropped = 0;
  /** Whether the last write to FILE failed (logged once until one succeeds again). */
  let failing = false;
  /** Whether stdout holds too much (logged once until it has drained). */
  let stalled = false;
  // A reader that went away (\`serve | head\`, EPIPE) must not end the server: the log stops.
  let broken = false;
  if (toStdout) {
    process.stdout.on('error', (error) => {
      if (!broken) log(`access log: stdout failed (${error.message}); no more access log lines`, 'error', { error: (error as NodeJS.ErrnoException).code });
      broken = true;
    });
    process.stdout.on('drain', () => { stalled = false; });
  }
  // Lines in UTF-8, each with its newline; the file's queue is reused after each write, stdout
  // gets the bytes and the queue is replaced (a stream may hold them after write() returns).
  let queue = Buffer.allocUnsafe(QUEUE_BYTES);
  let queued = 0;
  let timer: NodeJS.Timeout | undefined;

  const writeFile = (bytes: Buffer): void => {
    let problem: string;
    let code: string | undefined;
    try {
      fd ??= openSync(target, 'a');
      const before = fstatSync(fd).size;
      const written = writeSync(fd, bytes);
      if (written === bytes.length) {
        failing = false;
        // A queue grown for one long line is not kept.
        if (queue.length > QUEUE_BYTES) queue = Buffer.allocUnsafe(QUEUE_BYTES);
        return;
      }
      // A short write (the disk is full, or the file at its size limit): the line it cut is
      // taken back off, so that the file holds whole lines only.
      const whole = bytes.lastIndexOf(0x0a, written - 1) + 1;
      if (whole < written && fstatSync(fd).size === before + written) ftruncateSync(fd, before + whole);
      dropped += countLines(bytes.subarray(whole));
      problem = `the disk took ${written} of ${bytes.length} bytes`;
    } catch (error) {
      dropped += countLines(bytes);
      problem = (error as Error).message;
      code = (error as NodeJS.ErrnoException).code;
    }
    if (!failing) log(`access log: cannot write ${target} (${problem}); lines are dropped until it can (eqf_access_log_dropped_total)`, 'error', { error: code });
    failing = true;
  };

  const writeStdout = (chunk: Buffer): void => {
    if (broken) {
      dropped += countLines(chunk);
      return;
    }
    if (process.stdout.writableLength + chunk.length > MAX_HELD_BYTES) {
      dropped += countLines(chunk);
      if (!stalled) {
        log(`access log: stdout is not being read fast enough; lines past ${MAX_HELD_BYTES} bytes held are dropped until it catches up (eqf_access_log_dropped_total)`, 'warn',
          { held_bytes: process.stdout.writableLength });
      }
      stalled = true;
      return;
    }
    process.stdout.write(chunk);
  };

  const flush = (): void => {
    clearTimeout(timer);
    timer = undefined;
    if (queued === 0) return;
    const bytes = queue.subarray(0, queued);
    queued = 0;
    if (!toStdout) {
      writeFile(bytes);
      return;
    }
    queue = Buffer.allocUnsafe(QUEUE_BYTES);
    // Chunks of whole lines, each at most PIPE_BUF bytes unless one line is longer.
    let start = 0;
    while (stdoutInPieces && bytes.length - start > MAX_PIPE_WRITE_BYTES) {
      const end = bytes.lastIndexOf(0x0a, start + MAX_PIPE_WRITE_BYTES - 1);
      const cut = end >= start ? end + 1 : bytes.indexOf(0x0a, start) + 1;
      writeStdout(bytes.subarray(start, cut));
      start = cut;
    }
    if (start < bytes.length) writeStdout(bytes.subarray(start));
  };
  /** Makes room for `most` more bytes in the queue: writes what is queued when they would not fit. */
  const room = (most: number): void => {
    if (queued + most <= queue.length) return;
    flush();
    if (most > queue.length) queue = Buffer.allocUnsafe(most);
  };
  /** After bytes were queued: writes at a batch's worth, else within the delay. */
  const queuedMore = (): void => {
    if (queued >= FLUSH_BYTES) flush();
    else if (timer === undefined) {
      timer = setTimeout(flush, FLUSH_DELAY_MS);
      timer.unref();
    }
  };
  return {
    write(line) {
      room(3 * line.length + 1);
      queued += queue.write(line, queued, 'utf8');
      queue[queued++] = 0x0a;
      queuedMore();
    },
    writeLines(bytes) {
      if (bytes.length === 0) return;
      room(bytes.length);
      queue.set(bytes, queued);
      queued += bytes.length;
      queuedMore();
    },
    dropped: () => dropped,
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
