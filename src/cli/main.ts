#!/usr/bin/env node
/**
 * The `equity-facts` command: `serve`, `keys`, `portal`, `build`, `fetch`. The builder (and its XML
 * parser) is loaded only by `build`, the EDGAR client only by `fetch`, so the server never loads
 * a dependency.
 */
import cluster from 'node:cluster';
import { listen } from '../server.js';
import { PACKAGE_VERSION } from '../version.js';
import { runKeysCommand } from '../keys/keys-command.js';
import { CONNECTION_DEFAULTS } from '../http/connection-options.js';
import { didYouMean } from '../suggest.js';
import { SERVE_USAGE, ServeUsageError, readServeConfig } from './serve-config.js';
import { LISTEN_SETTINGS, SERVE_ROWS, SERVE_SETTINGS, plainDefault } from '../settings/table.js';
import { WORKER_READY, answerMetricsRequests, runPrimary } from './cluster.js';
import { IpcStore } from '../guard/ipc-store.js';
import { openAccessLog } from '../ops/access-log.js';
import { createLogger } from '../ops/logger.js';
import { logFirstScreen } from './first-screen.js';
import { PORTAL_SETTINGS } from '../portal/portal-settings.js';

/** The commands, for a suggestion when one is mistyped. */
const COMMANDS = ['serve', 'keys', 'portal', 'build', 'fetch', 'help', 'version'];

const HELP = `equity-facts ${PACKAGE_VERSION}: factual U.S. equity data from SEC EDGAR over HTTP/JSON

usage:
  equity-facts serve [--port ${LISTEN_SETTINGS.port.default}] [--host ${LISTEN_SETTINGS.host.default}] [--snapshots DIR] [--keys FILE] [--workers N]
                    [--redis-url URL] [--access-log stdout|off|FILE] [--metrics-port P] [...]
  equity-facts keys add --file F --plan P --account A [--label L] [--no-api-plan]
  equity-facts keys list --file F
  equity-facts keys set-status --file F ID STATUS
  equity-facts keys revoke --file F ID
  equity-facts keys rotate --file F ID [--grace 24h]
  equity-facts portal --keys FILE [--port ${PORTAL_SETTINGS.port.default}] [--host ${PORTAL_SETTINGS.host.default}] [--api-url URL] [--signup off|free]
                    [--admin-token-file F] [--signup-per-address ${PORTAL_SETTINGS.signupPerAddress.default}] [--signup-per-day ${PORTAL_SETTINGS.signupPerDay.default}] [--trust-proxy CIDR,…]
  equity-facts build --from DIR --out SNAPSHOTS_DIR [--as-of YYYY-MM-DD] [--window-days 90] [--filings-days N] [--version V] [--allow-empty] [--allow-future-as-of] [--cache DIR] [--workers N]
  equity-facts fetch --user-agent "Name email" --out DIR (--tickers T,… | --ciks C,… | --all) [--since YYYY-MM-DD] [--bulk] [--base-url URL]
  equity-facts --version

Every command and subcommand takes --help.

serve settings (flag, environment variable, default):
${SERVE_ROWS.map(({ setting: s }) => `  ${(s.flag ? `--${s.flag}` : '').padEnd(26)} ${s.env.padEnd(28)} ${plainDefault(s)}`).join('\n')}

signals while serving: SIGHUP reloads snapshot and keys (and reopens the access log file); SIGUSR2
toggles a forced-open breaker; SIGTERM/SIGINT fail /readyz (503) and keep serving for
--shutdown-delay-ms (${SERVE_SETTINGS.shutdownDelayMs.default}; a second signal ends it), then stop accepting, answer every request received,
exit 0. With --workers, signal the primary (the pid it prints): it relays them to every worker.
`;

/**
 * `equity-facts serve`: reads the settings, then serves until SIGTERM or SIGINT. Everything it
 * says while serving goes through one operational logger (`--log-format`); a usage error is
 * answered with the usage text, as plain text, since the format may be what is wrong.
 *
 * @returns the exit code: 0 after a graceful stop, 1 when it cannot start, 2 for a usage error.
 */
async function serve(argv: readonly string[]): Promise<number> {
  let config;
  try {
    config = readServeConfig(argv, process.env);
  } catch (error) {
    if (error instanceof ServeUsageError) {
      process.stderr.write(`equity-facts serve: ${error.message}\n\n${SERVE_USAGE}\n`);
      return 2;
    }
    throw error;
  }
  if (config === 'help') {
    process.stdout.write(`${SERVE_USAGE}\n`);
    return 0;
  }
  const {
    workers = SERVE_SETTINGS.workers.default, accessLogTarget = SERVE_SETTINGS.accessLogTarget.default,
    shutdownDelayMs = SERVE_SETTINGS.shutdownDelayMs.default, logFormat = SERVE_SETTINGS.logFormat.default, ...options
  } = config;
  const log = createLogger({ format: logFormat, fields: cluster.isWorker ? { worker: cluster.worker!.id } : undefined });
  if (cluster.isPrimary && workers > 1) return runPrimary(config, log);
  let accessLog;
  try {
    accessLog = accessLogTarget === 'off' ? undefined : openAccessLog(accessLogTarget, log);
  } catch (error) {
    log(`equity-facts serve: cannot open the access log: ${(error as Error).message}`, 'error');
    return 1;
  }
  options.accessLog = accessLog;
  options.log = log;
  if (cluster.isWorker) {
    // A worker: the primary holds the buckets unless Redis does, and serves the metrics.
    if (options.redisUrl === undefined) options.limiterStore = new IpcStore();
    if (options.metricsPort !== undefined) options.metrics = true;
    delete options.metricsPort;
  }
  let running;
  try {
    running = await listen(options);
  } catch (error) {
    // A TypeError is a setting listen() refused (e.g. a headers timeout above the request timeout).
    const usage = error instanceof TypeError;
    log(`equity-facts serve: ${usage ? '' : 'cannot start: '}${(error as Error).message}`, 'error');
    return usage ? 2 : 1;
  }
  const { handler } = running;
  const shutdownTimeoutMs = config.shutdownTimeoutMs ?? CONNECTION_DEFAULTS.shutdownTimeoutMs;
  // Handlers first, then the message: whoever waits for "serving on" may signal at once.
  process.on('SIGHUP', () => {
    accessLog?.reopen();
    void handler.reload();
  });
  process.on('SIGUSR2', () => {
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
    process.on('SIGTERM', () => stop('SIGTERM'));
    process.on('SIGINT', () => stop('SIGINT'));
  });
  if (cluster.isWorker) {
    answerMetricsRequests(() => handler.metrics()?.registry.getMetricsAsJSON());
    process.send?.(WORKER_READY);
    return stopped;
  }
  // The metrics address first: whoever waits for "serving on" then knows both.
  if (running.metricsUrl) log(`metrics on ${running.metricsUrl}/metrics`);
  log(`equity-facts ${PACKAGE_VERSION} serving on ${running.url} (pid ${process.pid})`);
  await logFirstScreen(log, running.url, options.keysFile);
  return stopped;
}

async function main(argv: readonly string[]): Promise<number> {
  const [command, ...rest] = argv;
  const io = { out: (text: string) => process.stdout.write(text), err: (text: string) => process.stderr.write(text) };
  switch (command) {
    case 'serve':
      return serve(rest);
    case 'keys':
      return runKeysCommand(rest, io);
    case 'portal': {
      // Loaded only for this command: serve never loads the portal's modules.
      const { runPortalCommand } = await import('./portal-command.js');
      return runPortalCommand(rest);
    }
    case 'build': {
      const { runBuildCommand } = await import('../builder/command.js');
      return runBuildCommand(rest);
    }
    case 'fetch': {
      const { runFetchCommand } = await import('../fetch/command.js');
      return runFetchCommand(rest);
    }
    case '--version':
    case 'version':
      io.out(`${PACKAGE_VERSION}\n`);
      return 0;
    case undefined:
    case 'help':
    case '--help':
    case '-h':
      io.out(HELP);
      return command === undefined ? 2 : 0;
    default:
      io.err(`equity-facts: unknown command "${command}"${didYouMean(command, COMMANDS)}\n\n${HELP}`);
      return 2;
  }
}

main(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
    // A cluster worker's IPC channel would keep it alive after it stopped (or failed to start).
    if (cluster.isWorker) cluster.worker!.disconnect();
  },
  (error: unknown) => {
    process.stderr.write(`equity-facts: ${(error as Error).stack ?? String(error)}\n`);
    process.exitCode = 1;
  },
);
