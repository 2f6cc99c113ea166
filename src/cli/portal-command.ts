/**
 * `equity-facts portal`: the developer portal (docs/api.md §18) as its own process, beside the
 * API. Its settings come from flags, then `EQF_PORTAL_` variables, then defaults, all from the
 * portal's table of settings; it runs until SIGTERM or SIGINT, then stops accepting, lets the
 * changes queued reach the keys file, and exits 0.
 */
import { createLogger } from '../ops/logger.js';
import { UsageError, flagUsageLines, readFlags } from '../settings/read-flags.js';
import { PORTAL_ROWS, type PortalOptions } from '../portal/portal-settings.js';
import { listenPortal } from '../portal/listen-portal.js';
import { PACKAGE_VERSION } from '../version.js';

/** Usage of `portal`, with every setting (printed by `portal --help` and with a usage error). */
export const PORTAL_USAGE = `usage: equity-facts portal --keys FILE [flags]

Serves the developer portal: the plans, sign-up (--signup free), a key holder's usage page and
key rotation, and with --admin-token-file the operator's key management. It rewrites FILE
(atomically) and the API processes pick each change up from the file they watch. A flag wins over
its environment variable, which wins over the default.

${flagUsageLines(PORTAL_ROWS)}

signals: SIGTERM/SIGINT stop accepting, finish the changes under way, and exit 0.`;

/**
 * Runs `portal`.
 *
 * @param argv - words after `portal`.
 * @returns the exit code: 0 after a stop or `--help`, 1 when it cannot start, 2 for a usage error.
 */
export async function runPortalCommand(argv: readonly string[]): Promise<number> {
  if (argv.includes('--help') || argv.includes('-h')) {
    process.stdout.write(`${PORTAL_USAGE}\n`);
    return 0;
  }
  let options: PortalOptions;
  try {
    options = readFlags(PORTAL_ROWS, argv, process.env) as PortalOptions;
    if (options.keysFile === undefined) throw new UsageError('--keys FILE is required (or EQF_PORTAL_KEYS)');
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    process.stderr.write(`equity-facts portal: ${error.message}\n\n${PORTAL_USAGE}\n`);
    return 2;
  }
  const log = createLogger();
  let running;
  try {
    running = await listenPortal({ ...options, log });
  } catch (error) {
    const usage = error instanceof TypeError;
    log(`equity-facts portal: ${usage ? '' : 'cannot start: '}${(error as Error).message}`, 'error');
    return usage ? 2 : 1;
  }
  const { settings } = running;
  const stopped = new Promise<number>((resolve) => {
    const stop = (signal: string): void => {
      log(`${signal}: stopping the portal`);
      void running.close().then(() => resolve(0));
    };
    process.once('SIGTERM', () => stop('SIGTERM'));
    process.once('SIGINT', () => stop('SIGINT'));
  });
  log(`equity-facts ${PACKAGE_VERSION} portal serving on ${running.url} (pid ${process.pid}); keys file ${settings.keysFile}, ` +
    `API ${settings.apiUrl}, sign-up ${settings.signup}, admin pages ${settings.adminTokenFile === undefined ? 'off' : 'on'}`);
  return stopped;
}
