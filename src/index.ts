/**
 * equity-facts as a library: mount the API in an existing `node:http` server with
 * {@link createHandler}, or run it alone with {@link listen}.
 *
 * @example
 * ```ts
 * import { createServer } from 'node:http';
 * import { createHandler } from 'equity-facts';
 * const api = createHandler({ snapshotsDir: '/srv/snapshots', keysFile: '/srv/keys.json' });
 * await api.ready;
 * createServer((req, res) => req.url?.startsWith('/api/v1/') || req.url === '/healthz' ? api.handle(req, res) : other(req, res)).listen(8080);
 * ```
 */
export { createHandler, type Handler } from './http/handler.js';
export { listen, type ListenOptions, type RunningServer } from './server.js';
export type { HandlerOptions } from './options.js';
export { openAccessLog, type AccessLogFile, type AccessLogSink } from './ops/access-log.js';
export { createLogger, type LoggerOptions, type LogSink, type LogLevel, type LogFields, type LogFormat } from './ops/logger.js';
export { PLANS, findPlan, type Plan, type PlanId } from './plans.js';
export { ERRORS, ApiError, type ErrorCode } from './errors.js';
export { ROUTES, type Route } from './routes.js';
export type * from './rows/types.js';
export { SnapshotError, type SnapshotManifest } from './data/snapshot-format.js';
export { KeysFileError, type KeyRecord } from './keys/keys-file.js';
export { listenPortal, type RunningPortal } from './portal/listen-portal.js';
export type { PortalOptions } from './portal/portal-settings.js';
