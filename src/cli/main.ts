#!/usr/bin/env node
/**
 * The `equity-facts` command: `serve`, `keys`, `build`, `fetch`. The builder (and its XML
 * parser) is loaded only by `build`, the EDGAR client only by `fetch`, so the server never loads
 * a dependency.
 */
import { listen } from '../server.js';
import { PACKAGE_VERSION } from '../version.js';
import { runKeysCommand } from '../keys/keys-command.js';
import { SERVE_SETTINGS, ServeUsageError, readServeConfig } from './serve-config.js';

const HELP = `equity-facts ${PACKAGE_VERSION}: factual U.S. equity data from SEC EDGAR over HTTP/JSON

usage:
  equity-facts serve [--port 8080] [--host 127.0.0.1] [--snapshots DIR] [--keys FILE]
  equity-facts keys add --file F --plan P --account A [--label L]
  equity-facts keys list --file F
  equity-facts keys set-status --file F ID STATUS
  equity-facts build --from DIR --out SNAPSHOTS_DIR [--as-of YYYY-MM-DD] [--window-days 90] [--filings-days N] [--version V] [--cache DIR] [--workers N]
  equity-facts fetch --user-agent "Name email" --out DIR (--tickers T,… | --ciks C,… | --all) [--since YYYY-MM-DD] [--bulk] [--base-url URL]

serve settings (flag, environment variable, default):
${SERVE_SETTINGS.map((s) => `  ${(s.flag ? `--${s.flag}` : '').padEnd(12)} ${s.env.padEnd(18)} ${s.fallback}`).join('\n')}

signals while serving: SIGHUP reloads snapshot and keys; SIGUSR2 toggles a forced-open breaker;
SIGTERM/SIGINT stop accepting, finish requests in flight, exit 0.
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
  let running;
  try {
    running = await listen(config);
  } catch (error) {
    process.stderr.write(`equity-facts serve: cannot start: ${(error as Error).message}\n`);
    return 1;
  }
  const { handler } = running;
  // Handlers first, then the message: whoever waits for "serving on" may signal at once.
  process.on('SIGHUP', () => {
    void handler.reload();
  });
  process.on('SIGUSR2', () => {
    const state = handler.breaker.toggleForced();
    process.stderr.write(`breaker: ${state === 'forced_open' ? 'forced open by SIGUSR2' : 'forced-open state cleared by SIGUSR2'}\n`);
  });
  const stopped = new Promise<number>((resolve) => {
    const stop = (signal: string): void => {
      process.stderr.write(`${signal}: stopping; finishing requests in flight\n`);
      void running.close().then(() => resolve(0));
    };
    process.once('SIGTERM', () => stop('SIGTERM'));
    process.once('SIGINT', () => stop('SIGINT'));
  });
  process.stderr.write(`equity-facts ${PACKAGE_VERSION} serving on ${running.url} (pid ${process.pid})\n`);
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
      io.err(`equity-facts: unknown command "${command}"\n\n${HELP}`);
      return 2;
  }
}

main(process.argv.slice(2)).then(
  (code) => { process.exitCode = code; },
  (error: unknown) => {
    process.stderr.write(`equity-facts: ${(error as Error).stack ?? String(error)}\n`);
    process.exitCode = 1;
  },
);
