/**
 * The connection layer's options of `listen()` (docs/api.md §12), from
 * {@link CONNECTION_SETTINGS}: each field checked once with a message naming it, the two
 * timeouts checked against each other, the check intervals derived; then frozen.
 */
import { checkSettings, type CheckedOf, type OptionsOf } from '../settings/setting.js';
import { CONNECTION_SETTINGS } from '../settings/table.js';

/** Connection options of {@link listen}. Every field is optional; each is described in {@link CONNECTION_SETTINGS}. */
export type ConnectionOptions = OptionsOf<typeof CONNECTION_SETTINGS>;

/** Every field of {@link ConnectionOptions}, set and checked. */
export type ResolvedConnectionOptions = CheckedOf<typeof CONNECTION_SETTINGS> & {
  /** How often Node checks the headers and request timeouts, ms: derived, a tenth of the shorter, 10 to 1000. */
  readonly checkIntervalMs: number;
  /** How often connections are checked for clients taking nothing, ms: derived, a tenth of the send timeout, 10 to 1000. */
  readonly sendCheckIntervalMs: number;
};

/** Defaults of {@link ConnectionOptions}, as {@link CONNECTION_SETTINGS} states them. */
export const CONNECTION_DEFAULTS: Readonly<Required<ConnectionOptions>> = Object.freeze(
  Object.fromEntries(Object.entries(CONNECTION_SETTINGS).map(([name, entry]) => [name, entry.default])) as Required<ConnectionOptions>,
);

/** Names of the connection options, in documentation order. */
export const CONNECTION_OPTION_NAMES = Object.freeze(Object.keys(CONNECTION_SETTINGS) as (keyof ConnectionOptions)[]);

/**
 * Applies the defaults and checks each field.
 *
 * @throws TypeError naming the option, e.g. "maxConnections must be a whole number from 1 to 2147483647, got 0".
 */
export function resolveConnectionOptions(options: ConnectionOptions): ResolvedConnectionOptions {
  const out = checkSettings(CONNECTION_SETTINGS, options);
  // Node refuses the same (lib/_http_server.js storeHTTPOptions).
  if (out.headersTimeoutMs > out.requestTimeoutMs) {
    throw new TypeError(`headersTimeoutMs (${out.headersTimeoutMs}) must not be above requestTimeoutMs (${out.requestTimeoutMs})`);
  }
  const checkIntervalMs = Math.min(1000, Math.max(10, Math.floor(out.headersTimeoutMs / 10)));
  const sendCheckIntervalMs = Math.min(1000, Math.max(10, Math.floor(out.sendTimeoutMs / 10)));
  return Object.freeze({ ...out, checkIntervalMs, sendCheckIntervalMs });
}
