/**
 * One serving unit of `equity-facts serve`: a single process, a node:cluster worker, or a
 * `--workers` thread. It opens the access log, listens, and answers the operator's signals
 * (docs/api.md §12): SIGHUP reloads snapshot and keys and reopens the access log file, SIGUSR2
 * toggles the forced-open breaker, SIGTERM/SIGINT fail `/readyz`, keep serving for the shutdown
 * delay, then stop gracefully. A process takes the signals from the operating system; a thread
 * takes them from the main thread, which relays them.
 */
import { listen, type ListenOptions, type RunningServer } from '../server.js';
import { CONNECTION_DEFAULTS } from '../http/connection-options.js';
import { countLines, openAccessLog, type AccessLogFile } from '../ops/access-log.js';
import type { LogSink } from '../ops/logger.js';

/** Where the signals come from: `process`, or the emitter of a thread's relayed signals. */
export interface SignalSource {
  on(signal: 'SIGHUP' | 'SIGUSR2' | 'SIGTERM' | 'SIGINT', listener: () => void): unknown;
}

/** What the unit does around {@link listen}. */
export interface ServeOneSettings {
  /** `stdout`, `off` or a file path. */
  readonly accessLogTarget: string;
  /** ms the first SIGTERM/SIGINT keeps serving with `/readyz` at 503. */
  readonly shutdownDelayMs: number;
  /** A listening socket's descriptor to accept on instead of the port (a thread's). */
  readonly bound?: { readonly fd: number };
  /** Under `--workers`, the worker's id: its access log lines end with a `worker` field. */
  readonly worker?: number;
}

/** A unit that serves. */
export interface ServingUnit {
  readonly running: RunningServer;
  /** Resolves with the exit code (0) once a graceful stop has ended. */
  readonly stopped: Promise<number>;
}

/**
 * Opens the access log, listens, and installs the signal handlers.
 *
 * @param options - the listen options (its `accessLog` and `log` are set here).
 * @returns the serving unit, or the exit code when it cannot start: 1 (access log, snapshot,
 *   keys, listen), 2 for a setting `listen()` refused.
 */
export async function serveOne(options: ListenOptions, settings: ServeOneSettings, log: LogSink, signals: SignalSource): Promise<ServingUnit | number> {
  const { accessLogTarget, shutdownDelayMs } = settings;
  let accessLog;
  try {
    accessLog = accessLogTarget === 'off' ? undefined : openAccessLog(accessLogTarget, log);
    if (accessLog !== undefined && settings.worker !== undefined) accessLog = withWorker(accessLog, settings.worker);
  } catch (error) {
    log(`equity-facts serve: cannot open the access log: ${(error as Error).message}`, 'error');
    return 1;
  }
  options.accessLog = accessLog;
  options.log = log;
  let running: RunningServer;
  try {
    running = await listen(options, settings.bound);
  } catch (error) {
    await accessLog?.close();
    // A TypeError is a setting listen() refused (e.g. a headers timeout above the request timeout).
    const usage = error instanceof TypeError;
    log(`equity-facts serve: ${usage ? '' : 'cannot start: '}${(error as Error).message}`, 'error');
    return usage ? 2 : 1;
  }
  const { handler } = running;
  const shutdownTimeoutMs = options.shutdownTimeoutMs ?? CONNECTION_DEFAULTS.shutdownTimeoutMs;
  // Handlers first, then the message: whoever waits for "serving on" may signal at once.
  signals.on('SIGHUP', () => {
    accessLog?.reopen();
    void handler.reload();
  });
  signals.on('SIGUSR2', () => {
    const state = handler.breaker.toggleForced();
    log(`breaker: ${state === 'forced_open' ? 'forced open by SIGUSR2' : 'forced-open state cleared by SIGUSR2'}`, state === 'forced_open' ? 'warn' : 'info');
  });
  const stopped = new Promise<number>((resolve) => {
    // The first signal fails /readyz and, with a shutdown delay, keeps serving until the delay
    // ends or a second signal comes; then the graceful stop; a signal during it closes what is left.
    let stage: 'serving' | 'delay' | 'stopping' = 'serving';
    let delay: NodeJS.Timeout | undefined;
    const gracefulStop = (why: string, signal: string): void => {
      stage = 'stopping';
      clearTimeout(delay);
      log(`${why}: stopping; answering the requests received on ${running.connections()} connections ` +
        `(at most ${shutdownTimeoutMs} ms; ${signal} again closes them at once)`);
      void running.close().then(async (report) => {
        await accessLog?.close();
        if (report.cut === 0) log('stopped: every request received was answered');
        else log(`stopped at the shutdown timeout: closed ${report.cut} connections with answers unfinished`, 'warn');
        resolve(0);
      });
    };
    const stop = (signal: string): void => {
      if (stage === 'stopping') {
        log(`${signal} again: closing the ${running.connections()} connections left now`, 'warn');
        running.server.closeAllConnections();
        return;
      }
      if (stage === 'delay') {
        log(`${signal} again: ending the shutdown delay now`);
        return gracefulStop(signal, signal);
      }
      handler.drain();
      if (shutdownDelayMs === 0) return gracefulStop(signal, signal);
      stage = 'delay';
      log(`${signal}: /readyz answers 503; still serving for ${shutdownDelayMs} ms (--shutdown-delay-ms) so that a load balancer ` +
        `takes this host out, then stopping (${signal} again stops now)`);
      delay = setTimeout(() => gracefulStop('shutdown delay over', signal), shutdownDelayMs);
    };
    signals.on('SIGTERM', () => stop('SIGTERM'));
    signals.on('SIGINT', () => stop('SIGINT'));
  });
  return { running, stopped };
}

/** The access log with `"worker":id` as each line's last field (a line is one JSON object). */
function withWorker(file: AccessLogFile, id: number): AccessLogFile {
  const field = `,"worker":${id}}`;
  const fieldBytes = Buffer.from(field);
  return {
    ...file,
    write: (line) => file.write(`${line.slice(0, -1)}${field}`),
    // Each line's closing `}` (the byte before its newline) becomes the field and `}`.
    writeLines: (bytes) => {
      const out = Buffer.allocUnsafe(bytes.length + countLines(bytes) * (fieldBytes.length - 1));
      let from = 0;
      let to = 0;
      for (let end = bytes.indexOf(0x0a); end !== -1; end = bytes.indexOf(0x0a, from)) {
        out.set(bytes.subarray(from, end - 1), to);
        to += end - 1 - from;
        out.set(fieldBytes, to);
        to += fieldBytes.length;
        out[to++] = 0x0a;
        from = end + 1;
      }
      file.writeLines(out.subarray(0, to));
    },
    dropped: () => file.dropped(),
  };
}
