#!/usr/bin/env node
/**
 * The `equity-facts` command: `serve`, `keys`, `build`. The builder (and its XML parser) is
 * loaded only by `build`, so the server never loads a dependency.
 */
import { listen } from '../server.js';
import { PACKAGE_VERSION } from '../version.js';
import { runKeysCommand } from '../keys/keys-command.js';
import { CONNECTION_DEFAULTS } from '../http/connection-options.js';
import { didYouMean } from '../suggest.js';
import { SERVE_SETTINGS, SERVE_USAGE, ServeUsageError, readServeConfig } from './serve-config.js';

/** The commands, for a suggestion when one is mistyped. */
const COMMANDS = ['serve', 'keys', 'build', 'help', 'version'];

const HELP = `equity-facts ${PACKAGE_VERSION}: factual U.S. equity data from SEC EDGAR over HTTP/JSON

usage:
  equity-facts serve [--port 8080] [--host 127.0.0.1] [--snapshots DIR] [--keys FILE] [...]
  equity-facts keys add --file F --plan P --account A [--label L]
  equity-facts keys list --file F
  equity-facts keys set-status --file F ID STATUS
  equity-facts build --from DIR --out SNAPSHOTS_DIR [--as-of YYYY-MM-DD] [--window-days 90] [--filings-days N] [--version V] [--allow-empty]
  equity-facts --version

Every command and subcommand takes --help.

serve settings (flag, environment variable, default):
${SERVE_SETTINGS.map((s) => `  ${(s.flag ? `--${s.flag}` : '').padEnd(24)} ${s.env.padEnd(26)} ${s.fallback}`).join('\n')}

signals while serving: SIGHUP reloads snapshot and keys; SIGUSR2 toggles a forced-open breaker;
SIGTERM/SIGINT stop accepting, answer every request received, exit 0.
`;

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
  let running;
  try {
    running = await listen(config);
  } catch (error) {
    // A TypeError is a setting listen() refused (e.g. a headers timeout above the request timeout).
    const usage = error instanceof TypeError;
    process.stderr.write(`equity-facts serve: ${usage ? '' : 'cannot start: '}${(error as Error).message}\n`);
    return usage ? 2 : 1;
  }
  const { handler } = running;
  const shutdownTimeoutMs = config.shutdownTimeoutMs ?? CONNECTION_DEFAULTS.shutdownTimeoutMs;
  // Handlers first, then the message: whoever waits for "serving on" may signal at once.
  process.on('SIGHUP', () => {
    void handler.reload();
  });
  process.on('SIGUSR2', () => {
    const state = handler.breaker.toggleForced();
    process.stderr.write(`breaker: ${state === 'forced_open' ? 'forced open by SIGUSR2' : 'forced-open state cleared by SIGUSR2'}\n`);
  });
  const stopped = new Promise<number>((resolve) => {
    let stopping = false;
    const stop = (signal: string): void => {
      if (stopping) {
        process.stderr.write(`${signal} again: closing the ${running.connections()} connections left now\n`);
        running.server.closeAllConnections();
        return;
      }
      stopping = true;
      process.stderr.write(`${signal}: stopping; answering the requests received on ${running.connections()} connections ` +
        `(at most ${shutdownTimeoutMs} ms; ${signal} again closes them at once)\n`);
      void running.close().then((report) => {
        process.stderr.write(report.cut === 0
          ? 'stopped: every request received was answered\n'
          : `stopped at the shutdown timeout: closed ${report.cut} connections with answers unfinished\n`);
        resolve(0);
      });
    };
    process.on('SIGTERM', () => stop('SIGTERM'));
    process.on('SIGINT', () => stop('SIGINT'));
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
      const { runBuildCommand } = await import('../build/command.js');
      return runBuildCommand(rest);
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
  (code) => { process.exitCode = code; },
  (error: unknown) => {
    process.stderr.write(`equity-facts: ${(error as Error).stack ?? String(error)}\n`);
    process.exitCode = 1;
  },
);
