#!/usr/bin/env node
/**
 * The `equity-facts` command: `serve`, `keys`, `portal`, `build`, `fetch`. The builder (and its XML
 * parser) is loaded only by `build`, the EDGAR client only by `fetch`, so the server never loads
 * a dependency.
 */
import cluster from 'node:cluster';
import { PACKAGE_VERSION } from '../version.js';
import { runKeysCommand } from '../keys/keys-command.js';
import { didYouMean } from '../suggest.js';
import { SERVE_USAGE, ServeUsageError, readServeConfig } from './serve-config.js';
import { LISTEN_SETTINGS, SERVE_ROWS, SERVE_SETTINGS, plainDefault } from '../settings/table.js';
import { WORKER_READY, answerMetricsRequests, runPrimary } from './cluster.js';
import { IpcStore } from '../guard/ipc-store.js';
import { serveOne } from './serve-one.js';
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
    workers = SERVE_SETTINGS.workers.default, workerMode = SERVE_SETTINGS.workerMode.default, accessLogTarget = SERVE_SETTINGS.accessLogTarget.default,
    shutdownDelayMs = SERVE_SETTINGS.shutdownDelayMs.default, logFormat = SERVE_SETTINGS.logFormat.default, ...options
  } = config;
  const log = createLogger({ format: logFormat, fields: cluster.isWorker ? { worker: cluster.worker!.id } : undefined });
  if (cluster.isPrimary && workers > 1) {
    if (workerMode === 'processes') return runPrimary(config, log);
    const { runThreads } = await import('./threads.js');
    return runThreads(config, argv, log);
  }
  if (cluster.isWorker) {
    // A worker: the primary holds the buckets unless Redis does, and serves the metrics.
    if (options.redisUrl === undefined) options.limiterStore = new IpcStore();
    if (options.metricsPort !== undefined) options.metrics = true;
    delete options.metricsPort;
  }
  const unit = await serveOne(options, { accessLogTarget, shutdownDelayMs, worker: cluster.isWorker ? cluster.worker!.id : undefined }, log, process);
  if (typeof unit === 'number') return unit;
  const { running, stopped } = unit;
  if (cluster.isWorker) {
    answerMetricsRequests(() => running.handler.metrics()?.registry.getMetricsAsJSON());
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
