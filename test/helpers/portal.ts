/**
 * The developer portal in tests: `listenPortal` on port 0 beside a keys file (with an admin token
 * file), its log kept, stopped after the test; a page's form token read as the browser reads it
 * (`<body data-form-token>`); and a POST sent as the portal's own page sends it (same Origin, the
 * token in `X-Form-Token`, a JSON body), each part overridable to play a cross-site attacker.
 */
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { TestContext } from 'node:test';
import { request } from 'undici';
import { listenPortal, type RunningPortal } from '../../src/portal/listen-portal.js';
import type { PortalOptions } from '../../src/portal/portal-settings.js';
import type { ServeProcess } from './serve-process.js';

/** The admin token the helper writes into its token file. */
export const ADMIN_TOKEN = 'test-admin-token-0123456789abcdef';

/** A running portal with its log lines. */
export interface TestPortal extends RunningPortal {
  /** Every log entry so far: message and fields as one JSON line. */
  readonly logs: string[];
}

/**
 * Starts a portal on port 0 over `keysFile`; with `admin` (default true) an admin token file
 * holding {@link ADMIN_TOKEN} is written beside it.
 */
export async function startPortal(t: TestContext, keysFile: string, options: Partial<PortalOptions> & { admin?: boolean } = {}): Promise<TestPortal> {
  const { admin = true, ...rest } = options;
  const logs: string[] = [];
  let adminTokenFile: string | undefined;
  if (admin) {
    adminTokenFile = join(keysFile, '..', 'admin-token.txt');
    await writeFile(adminTokenFile, `${ADMIN_TOKEN}\n`, { mode: 0o600 });
  }
  const running = await listenPortal({
    keysFile, port: 0, signup: 'free', ...(adminTokenFile === undefined ? {} : { adminTokenFile }),
    log: (msg, level, fields) => { logs.push(JSON.stringify({ msg, level, ...fields })); },
    ...rest,
  });
  t.after(() => running.close());
  return Object.assign(running, { logs });
}

/** The form token of a page (`/signup`, `/account`, `/admin`), as its script reads it. */
export async function formToken(url: string, page: string): Promise<string> {
  const response = await request(`${url}${page}`);
  const html = await response.body.text();
  const token = /data-form-token="([^"]+)"/.exec(html)?.[1];
  if (token === undefined) throw new Error(`${page} has no form token (status ${response.statusCode})`);
  return token;
}

/** An answer: status, fields, and the parsed JSON body. */
export interface PortalReply {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: Record<string, unknown> & { ok?: boolean; error?: string; detail?: string };
  text: string;
}

/** How {@link postJson} sends: each part defaults to what the portal's own page sends. */
export interface PostOptions {
  /** `Origin`; default the portal's own; `null` sends none. */
  origin?: string | null;
  /** `X-Form-Token`; `null` sends none. Required unless null. */
  token?: string | null;
  /** Further fields (`Authorization`, `X-API-Key`, `Content-Type`). */
  headers?: Record<string, string>;
  /** The body as text; default the JSON of `body`. */
  raw?: string;
}

/** POSTs `body` as JSON to the portal at `url`. */
export async function postJson(url: string, path: string, body: unknown, options: PostOptions = {}): Promise<PortalReply> {
  const headers: Record<string, string> = { 'content-type': 'application/json', ...options.headers };
  if (options.origin !== null) headers.origin = options.origin ?? url;
  if (options.token !== null && options.token !== undefined) headers['x-form-token'] = options.token;
  const response = await request(`${url}${path}`, { method: 'POST', headers, body: options.raw ?? JSON.stringify(body) });
  const text = await response.body.text();
  return { status: response.statusCode, headers: response.headers, body: text === '' ? {} : JSON.parse(text) as PortalReply['body'], text };
}

/** GETs a portal path with fields; the body parsed when it is JSON. */
export async function getPortal(url: string, path: string, headers: Record<string, string> = {}, method: 'GET' | 'HEAD' | 'OPTIONS' | 'PUT' = 'GET'): Promise<PortalReply> {
  const response = await request(`${url}${path}`, { method, headers });
  const text = await response.body.text();
  const json = String(response.headers['content-type']).startsWith('application/json') && text !== '';
  return { status: response.statusCode, headers: response.headers, body: json ? JSON.parse(text) as PortalReply['body'] : {}, text };
}

/** The admin's Authorization field. */
export const adminAuth = (token = ADMIN_TOKEN): Record<string, string> => ({ authorization: `Bearer ${token}` });

/**
 * Resolves when a `serve` process's log says it reloaded the keys, after offset `from` of its
 * stderr (take `api.stderr.text.length` before the change): an event, not a wait of a set time.
 */
export function keysReloaded(api: ServeProcess, from: number): Promise<void> {
  const seen = (): boolean => /keys: reloaded/.test(api.stderr.text.slice(from));
  if (seen()) return Promise.resolve();
  return new Promise((resolve) => {
    const check = (): void => {
      if (!seen()) return;
      api.child.stderr!.off('data', onData);
      resolve();
    };
    // After the serve helper's own listener, which appends to stderr.text.
    const onData = (): void => { setImmediate(check); };
    api.child.stderr!.on('data', onData);
  });
}
