#!/usr/bin/env node
/**
 * The `equity-facts` command: `serve`, `keys`, `build`, `fetch`. The builder (and its XML
 * parser) is loaded only by `build`, the EDGAR client only by `fetch`, so the server never loads
 * a dependency.
 */
import cluster from 'node:cluster';
import { listen } from '../server.js';
import { PACKAGE_VERSION } from '../version.js';
import { runKeysCommand } from '../keys/keys-command.js';
import { SERVE_SETTINGS, ServeUsageError, readServeConfig } from './serve-config.js';
import { WORKER_READY, answerMetricsRequests, runPrimary } from './cluster.js';
import { IpcStore } from '../guard/ipc-store.js';
import { openAccessLog } from '../ops/access-log.js';

const HELP = `equity-facts ${PACKAGE_VERSION}: factual U.S. equity data from SEC EDGAR over HTTP/JSON

usage:
  equity-facts serve [--port 8080] [--host 127.0.0.1] [--snapshots DIR] [--keys FILE] [--workers N]
                    [--redis-url URL] [--access-log stdout|off|FILE] [--metrics-port P] (all settings below)
  equity-facts keys add --file F --plan P --account A [--label L]
  equity-facts keys list --file F
  equity-facts keys set-status --file F ID STATUS
  equity-facts build --from DIR --out SNAPSHOTS_DIR [--as-of YYYY-MM-DD] [--window-days 90] [--filings-days N] [--version V]
  equity-facts fetch --user-agent "Name email" --out DIR (--tickers T,… | --ciks C,… | --all) [--since YYYY-MM-DD] [--bulk] [--base-url URL]

serve settings (flag, environment variable, default):
${SERVE_SETTINGS.map((s) => `  ${(s.flag ? `--${s.flag}` : '').padEnd(18)} ${s.env.padEnd(20)} ${s.fallback}`).join('\n')}

signals while serving: SIGHUP reloads snapshot and keys (and reopens the access log file); SIGUSR2
toggles a forced-open breaker; SIGTERM/SIGINT stop accepting, finish requests in flight, exit 0.
With --workers, signal the primary (the pid it prints): it relays them to every worker.
`;

async function serve(argv: readonly string[]): Promise<number> {
  let config;
  try {
    config = readServeConfig(argv, process.env);
  } catch (error) {
    if (error instanceof ServeUsageError) {
      process.stderr.write(`equity-facts serve: ${error.message}\n`);
      return 2;
    }
    throw error;
  }
  const { workers = 1, accessLogTarget = 'stdout', ...options } = config;
  if (cluster.isPrimary && workers > 1) return runPrimary(config);
  let accessLog;
  try {
    accessLog = accessLogTarget === 'off' ? undefined : openAccessLog(accessLogTarget);
  } catch (error) {
    process.stderr.write(`equity-facts serve: cannot open the access log: ${(error as Error).message}\n`);
    return 1;
  }
  if (accessLog) options.accessLog = (line) => accessLog.write(line);
  if (cluster.isWorker) {
    // A worker: the primary holds the buckets unless Redis does, and serves the metrics.
    if (options.redisUrl === undefined) options.limiterStore = new IpcStore();
    if (options.metricsPort !== undefined) options.metrics = true;
    delete options.metricsPort;
    options.log = (line) => { process.stderr.write(`[worker ${cluster.worker!.id}] ${line}\n`); };
  }
  let running;
  try {
    running = await listen(options);
  } catch (error) {
    process.stderr.write(`equity-facts serve: cannot start: ${(error as Error).message}\n`);
    return 1;
  }
  const { handler } = running;
  // Handlers first, then the message: whoever waits for "serving on" may signal at once.
  process.on('SIGHUP', () => {
    accessLog?.reopen();
    void handler.reload();
  });
  process.on('SIGUSR2', () => {
    const state = handler.breaker.toggleForced();
    process.stderr.write(`breaker: ${state === 'forced_open' ? 'forced open by SIGUSR2' : 'forced-open state cleared by SIGUSR2'}\n`);
  });
  const stopped = new Promise<number>((resolve) => {
    const stop = (signal: string): void => {
      process.stderr.write(`${signal}: stopping; finishing requests in flight\n`);
      void running.close().then(() => accessLog?.close()).then(() => resolve(0));
    };
    process.once('SIGTERM', () => stop('SIGTERM'));
    process.once('SIGINT', () => stop('SIGINT'));
  });
  if (cluster.isWorker) {
    answerMetricsRequests(() => handler.metrics()?.registry.getMetricsAsJSON());
    process.send?.(WORKER_READY);
    return stopped;
  }
  process.stderr.write(`equity-facts ${PACKAGE_VERSION} serving on ${running.url} (pid ${process.pid})\n`);
  if (running.metricsUrl) process.stderr.write(`metrics on ${running.metricsUrl}/metrics\n`);
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
    case 'build': {
      const { runBuildCommand } = await import('../build/command.js');
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
      io.err(`equity-facts: unknown command "${command}"\n\n${HELP}`);
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
