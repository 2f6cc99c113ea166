/**
 * The settings of the developer portal (docs/api.md §18), one table in the pattern of
 * src/settings/: each entry's flag of `equity-facts portal`, its `EQF_PORTAL_` variable, its
 * check, default and help. `portal --help`, the option checks of {@link listenPortal} and the
 * portal table of docs/operating.md are derived from it.
 */
import { DEFAULT_BASE_URL, LOOPBACK } from '../settings/table.js';
import { cidrList, func, httpUrl, oneOf, port, text, whole } from '../settings/kinds.js';
import { setting, shownDefault, type CheckedOf, type OptionsOf } from '../settings/setting.js';
import type { FlagRow } from '../settings/read-flags.js';
import type { LogSink } from '../ops/logger.js';

/** The portal's port when none is given: beside the API's 8080. */
export const DEFAULT_PORTAL_PORT = 8081;

/** Sign-up modes: `off` (no sign-up page: 404) or `free` (a form that mints a free-plan key). */
export type SignupMode = 'off' | 'free';

/** Every setting of the portal, by option name. */
export const PORTAL_SETTINGS = Object.freeze({
  /** The keys file the portal rewrites and the API processes read (docs/api.md §4). Required. */
  keysFile: setting({
    kind: text, required: true, shown: 'required', flag: 'keys', env: 'EQF_PORTAL_KEYS', placeholder: 'FILE',
    help: 'the keys file to change (the one the API reads, or its source)', doc: 'the keys file the portal rewrites (atomic rewrites); the API processes must read this file or a copy of it',
  }),
  /** TCP port; 0 picks a free one. Default 8081. */
  port: setting({
    kind: port, default: DEFAULT_PORTAL_PORT, flag: 'port', env: 'EQF_PORTAL_PORT',
    help: 'TCP port (0 picks a free one)', doc: 'TCP port (0 picks a free one)',
  }),
  /** Interface address. Default `127.0.0.1` (loopback only). */
  host: setting({
    kind: text, default: LOOPBACK, flag: 'host', env: 'EQF_PORTAL_HOST', placeholder: 'ADDRESS',
    help: 'address to listen on', doc: 'address to listen on (the default: loopback only)',
  }),
  /** The API's address as a browser reaches it: the pages link its `/docs` and call its `/api/v1/meta`. */
  apiUrl: setting({
    kind: httpUrl, default: DEFAULT_BASE_URL, flag: 'api-url', env: 'EQF_PORTAL_API_URL', placeholder: 'URL',
    help: "the API's address as browsers reach it (its /docs is linked, its /api/v1/meta called)",
    doc: "the API's address as a browser reaches it: the pages link its `/docs` and the holder's page calls its `/api/v1/meta` (the page's CSP allows this origin)",
  }),
  /** `free`: `/signup` mints free-plan keys; `off`: `/signup` answers 404. Default `off`. */
  signup: setting({
    kind: oneOf<SignupMode>(['off', 'free']), default: 'off' as SignupMode, flag: 'signup', env: 'EQF_PORTAL_SIGNUP', placeholder: 'off|free',
    help: 'free: /signup mints a free-plan key for a name and e-mail; off: no sign-up', doc: '`free`: `/signup` mints a free-plan key for a name and e-mail address; `off`: `/signup` answers 404',
  }),
  /** A file holding the operator's token (at least 16 characters; surrounding white space dropped). Default: none, and no admin pages. */
  adminTokenFile: setting({
    kind: text, shown: 'none (no admin pages)', flag: 'admin-token-file', env: 'EQF_PORTAL_ADMIN_TOKEN_FILE', placeholder: 'FILE',
    help: 'file holding the admin token (16+ characters); without it /admin answers 404',
    doc: 'a file holding the operator\'s token (at least 16 characters, white space around it dropped), sent as `Authorization: Bearer`; without it every `/admin` path answers 404',
  }),
  /** Sign-ups one client address may make in an hour. Default 3. */
  signupPerAddress: setting({
    kind: whole(1, 1_000_000), default: 3, flag: 'signup-per-address', env: 'EQF_PORTAL_SIGNUP_PER_ADDRESS',
    help: 'sign-ups one client address may make in an hour, then 429', doc: 'sign-ups one client address (an IPv6 client: its /64) may make in a rolling hour; then 429 with `Retry-After`',
  }),
  /** Sign-ups from all addresses in a day. Default 500. */
  signupPerDay: setting({
    kind: whole(1, 1_000_000), default: 500, flag: 'signup-per-day', env: 'EQF_PORTAL_SIGNUP_PER_DAY',
    help: 'sign-ups from all addresses in 24 hours, then 429', doc: 'sign-ups from all addresses in a rolling 24 hours; then 429 with `Retry-After`',
  }),
  /** Proxies whose `X-Forwarded-For` names the client (for the per-address limit). Default: none. */
  trustProxy: setting({
    kind: cidrList, shown: 'none', flag: 'trust-proxy', env: 'EQF_PORTAL_TRUST_PROXY', placeholder: 'CIDR,…',
    help: "proxies whose X-Forwarded-For gives the client's address (the per-address sign-up limit)",
    doc: "proxies (IPv4 or IPv6 CIDRs or addresses) whose `X-Forwarded-For` gives the client's address for the per-address sign-up limit",
  }),
  /** Largest request body, bytes; a longer one gets 413. Default 16384. */
  maxBodyBytes: setting({ kind: whole(64, 1_048_576), default: 16_384, doc: 'largest request body, bytes; a longer one gets 413 `payload_too_large`' }), // bytes: a form of two fields is a few hundred
  /** How long a page's form token stays valid, ms. Default 2 hours. */
  formTokenTtlMs: setting({ kind: whole(1000), default: 7_200_000, doc: 'how long a page\'s form token is accepted, ms; then 403 `invalid_form_token` (reload the page)' }), // ms: a person filling a form
  /** Clock in ms since the epoch: sign-up limits, form tokens, `created_at`, `expires_at`. Default `Date.now`. */
  now: setting({ kind: func<() => number>(' returning ms'), default: Date.now, shown: '`Date.now`', doc: 'clock, ms since the epoch, for sign-up limits, form tokens and key times' }),
  /** The operational log: start, changes made, refusals of the keys file. Default: JSON lines on stderr. */
  log: setting({ kind: func<LogSink>(), shown: 'JSON lines on stderr', doc: 'the operational log (`createLogger`): start, each change to the keys file (ids and accounts, never a key), refused files' }),
});

/** Options of {@link listenPortal}: every setting, each optional but `keysFile`. */
export type PortalOptions = OptionsOf<typeof PORTAL_SETTINGS> & { keysFile: string };

/** The portal's settings after their checks and defaults. */
export type PortalSettings = Omit<CheckedOf<typeof PORTAL_SETTINGS>, 'keysFile'> & { readonly keysFile: string };

/** The settings `portal` reads from flags and variables, in `--help` order. */
export const PORTAL_ROWS: readonly FlagRow[] = Object.freeze(Object.entries(PORTAL_SETTINGS)
  .filter(([, s]) => s.env !== undefined)
  .map(([option, s]) => ({ option, setting: s as FlagRow['setting'] })));

/** The portal's configuration table of docs/operating.md, Markdown. */
export function portalSettingsMarkdown(): string {
  const code = (name: string | undefined): string => (name === undefined ? '' : `\`${name}\``);
  return ['| flag | environment | option | default | what |', '|---|---|---|---|---|',
    ...Object.entries(PORTAL_SETTINGS).map(([option, s]) =>
      `| ${code(s.flag && `--${s.flag}`)} | ${code(s.env)} | ${code(option)} | ${shownDefault(s as never)} | ${s.doc} |`)].join('\n');
}
