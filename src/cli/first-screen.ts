/**
 * What `serve` says right after "serving on", so that its first screen is enough to start: where
 * the docs page is, and, while the embedded demo keys are served, one curl to paste that answers
 * 200. The key in that curl is a demo key whose plaintext the README publishes; it is printed only
 * when the keys file being served accepts it, so a real key is never printed.
 */
import { API_PREFIX } from '../routes.js';
import { DEFAULT_KEYS_FILE, isDemoKeysFile } from '../options.js';
import { DOCS_PATH, docsInstalled } from '../http/docs-page.js';
import { readKeysFile } from '../keys/keys-file.js';
import type { LogSink } from '../ops/logger.js';

/** The Signal plan's demo key (README, "Try it"; keys.demo.json holds its SHA-256 as `k_demo_signal`). */
export const DEMO_SIGNAL_KEY = 'eqf_TGMBlooxG3NRmHZxrwbVrQdZddQ55rhT0BewZu';

/** The request of the curl: a list the embedded snapshot answers with one row. */
export const TRY_IT_PATH = `${API_PREFIX}/finance/filings?ticker=NVDA&limit=1`;

/**
 * Logs the docs page's address (when its viewer is installed) and, with the demo keys, a curl.
 *
 * @param log - the operational logger; one `info` entry per line.
 * @param url - where the server listens, `http://host:port`.
 * @param keysFile - the keys file served; the embedded demo file when undefined.
 */
export async function logFirstScreen(log: LogSink, url: string, keysFile: string | undefined): Promise<void> {
  const docs = docsInstalled() ? `${url}${DOCS_PATH}` : undefined;
  const file = keysFile ?? DEFAULT_KEYS_FILE;
  const demo = isDemoKeysFile(file) && await readKeysFile(file).then(
    (table) => table.find(DEMO_SIGNAL_KEY)?.status === 'active',
    () => false, // the server has read it already; a file changed since then is no reason to print
  );
  if (docs !== undefined) log(`docs page: ${docs} (Authorize takes a key once; try every endpoint from the page)`);
  if (demo) log(`try it with the public Signal demo key: curl -s -H "X-API-Key: ${DEMO_SIGNAL_KEY}" "${url}${TRY_IT_PATH}"`);
}
