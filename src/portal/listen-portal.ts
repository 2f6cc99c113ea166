/**
 * `listenPortal(options)`: the developer portal (docs/api.md §18) on its own node:http server, a
 * process apart from the API (which stays read-only). `equity-facts portal` and the tests start it
 * this way. Requests Node's parser refuses get the error envelope, as the API's do (§12).
 */
import { randomBytes } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createSocketRefusals } from '../http/client-error.js';
import { createResponder } from '../http/respond.js';
import { createLogger } from '../ops/logger.js';
import { checkOptionNames, checkSettings } from '../settings/setting.js';
import { DEFAULT_LICENSE } from '../settings/table.js';
import { PORTAL_SETTINGS, type PortalOptions, type PortalSettings } from './portal-settings.js';
import { createPortalHandler, type PortalHandler } from './portal-handler.js';
import { readKeysFile } from '../keys/keys-file.js';

/** Fewest characters an admin token may have: a shorter one could be guessed. */
export const MIN_ADMIN_TOKEN_LENGTH = 16;

/** A running portal. */
export interface RunningPortal {
  /** `http://host:port`, as listened on. */
  readonly url: string;
  readonly server: Server;
  readonly handler: PortalHandler;
  readonly settings: PortalSettings;
  /** Stops accepting, waits for the changes queued to be written, closes the connections. */
  close(): Promise<void>;
}

/**
 * Reads the operator's token from its file: the text without surrounding white space.
 *
 * @throws Error naming the file when it cannot be read or holds fewer than {@link MIN_ADMIN_TOKEN_LENGTH} characters.
 */
export async function readAdminToken(file: string): Promise<string> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    throw new Error(`admin token file ${file}: cannot read: ${(error as NodeJS.ErrnoException).code ?? String(error)}`);
  }
  const token = text.trim();
  if (token.length < MIN_ADMIN_TOKEN_LENGTH || /\s/.test(token)) {
    throw new Error(`admin token file ${file}: the token must be at least ${MIN_ADMIN_TOKEN_LENGTH} characters without white space (e.g. openssl rand -hex 32)`);
  }
  return token;
}

/**
 * Starts the portal.
 *
 * @param options - see {@link PORTAL_SETTINGS}; `keysFile` is required.
 * @throws TypeError for an unknown or invalid option; Error when the keys file or the admin
 *   token file cannot be read or is invalid, or the port cannot be listened on.
 */
export async function listenPortal(options: PortalOptions): Promise<RunningPortal> {
  if (options === null || typeof options !== 'object') throw new TypeError('listenPortal options must be an object');
  checkOptionNames(options, Object.keys(PORTAL_SETTINGS), 'listenPortal option');
  const checked = checkSettings(PORTAL_SETTINGS, options);
  const log = checked.log ?? createLogger();
  const settings: PortalSettings = { ...checked, keysFile: checked.keysFile!, log };
  // A keys file that is broken now would refuse every change: say so at start instead.
  await readKeysFile(settings.keysFile);
  const adminToken = settings.adminTokenFile === undefined ? undefined : await readAdminToken(settings.adminTokenFile);
  const handler = createPortalHandler(settings, adminToken, log);
  const idPrefix = randomBytes(4).toString('hex');
  let counter = 0;
  const refusals = createSocketRefusals(() => apiResponder, () => `${idPrefix}-${(counter++).toString(36)}`);
  const apiResponder = createResponder(DEFAULT_LICENSE, '', Number.MAX_SAFE_INTEGER);
  const server = createServer({ headersTimeout: 10_000, requestTimeout: 30_000, keepAliveTimeout: 5_000 }, handler.handle);
  server.on('clientError', refusals.clientError);
  server.on('connect', refusals.connect);
  server.maxHeadersCount = 100;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(settings.port, settings.host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const address = server.address() as AddressInfo;
  const host = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  return {
    url: `http://${host}:${address.port}`,
    server,
    handler,
    settings,
    async close() {
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      server.closeIdleConnections();
      await handler.queue.idle();
      server.closeAllConnections();
      await closed;
    },
  };
}
