/**
 * The portal's request handling (docs/api.md §18): a fixed table of paths, each with the methods
 * it takes, then for a POST the checks in a fixed order (the request comes from the portal's own
 * pages, carries its form's token, then the admin token or the holder's key), the body, and the
 * action. Paths are matched exactly as sent (no decoding, no trailing-slash or case folding), so
 * no spelling of a path reaches another one. Every refusal is the error envelope.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { faviconIco, FAVICON_TYPE } from '../http/favicon.js';
import { clientAddress } from '../ops/client-address.js';
import type { LogSink } from '../ops/logger.js';
import type { PortalSettings } from './portal-settings.js';
import { PortalError } from './portal-errors.js';
import { createPortalResponder, contentSecurityPolicy } from './portal-respond.js';
import { createFormTokens, type FormName } from './form-tokens.js';
import { adminTokenCheck, checkFormToken, checkOrigin, presentedCredential } from './request-checks.js';
import { readJsonBody } from './request-body.js';
import { createSignupLimits } from './signup-limits.js';
import { createKeysQueue, type KeysQueue } from './keys-queue.js';
import { accountPage, adminPage, homePage, signupPage, type PageContext } from './pages.js';
import { PORTAL_CSS } from './portal-style.js';
import { PORTAL_JS } from './portal-script.js';
import { KEY_ACTIONS, changeKey, listKeys, mintForOperator, rotateOwnKey, signup, type ActionContext, type Answer, type KeyAction } from './portal-actions.js';
import { DEFAULT_LICENSE } from '../settings/table.js';

/** The embeddable portal: `handle` for a node:http server, and the queue (tests wait on it). */
export interface PortalHandler {
  handle(req: IncomingMessage, res: ServerResponse): void;
  readonly queue: KeysQueue;
}

/** A route: a GET page, a POST action, or both at one path. */
interface Route {
  readonly get?: (req: IncomingMessage) => { type: string; body: string | Buffer } | Promise<Answer>;
  readonly post?: (req: IncomingMessage) => Promise<Answer>;
  /** HTTP status of a successful POST (201 for a new key). */
  readonly created?: boolean;
}

const HTML = 'text/html; charset=utf-8';

/**
 * @param settings - the checked settings.
 * @param adminToken - the operator's token; undefined: no admin paths (404).
 * @param log - the operational log.
 */
export function createPortalHandler(settings: PortalSettings, adminToken: string | undefined, log: LogSink): PortalHandler {
  const { now } = settings;
  const queue = createKeysQueue(settings.keysFile);
  const tokens = createFormTokens(settings.formTokenTtlMs, now);
  const limits = createSignupLimits(settings.signupPerAddress, settings.signupPerDay, now);
  const respond = createPortalResponder(contentSecurityPolicy(new URL(settings.apiUrl).origin), DEFAULT_LICENSE);
  const ctx: ActionContext = { queue, file: settings.keysFile, now, log };
  const page: PageContext = { apiUrl: settings.apiUrl, signupOpen: settings.signup === 'free', adminOpen: adminToken !== undefined };
  const checkAdmin = adminToken === undefined ? undefined : adminTokenCheck(adminToken);

  /** A POST from the portal's own page of `form`, with its token; then its JSON body. */
  const formPost = async (req: IncomingMessage, form: FormName): Promise<Record<string, unknown>> => {
    checkOrigin(req);
    checkFormToken(req, tokens, form);
    if (form === 'admin') checkAdmin!(req);
    return readJsonBody(req, settings.maxBodyBytes);
  };
  const html = (body: string) => ({ type: HTML, body });

  const routes = new Map<string, Route>([
    ['/', { get: () => html(homePage(page)) }],
    ['/account', { get: () => html(accountPage(page, tokens.issue('rotate'))) }],
    ['/account/rotate', {
      post: async (req) => {
        await formPost(req, 'rotate');
        return rotateOwnKey(ctx, presentedCredential(req, true));
      },
    }],
    ['/healthz', { get: () => ({ type: 'application/json; charset=utf-8', body: '{"ok":true,"status":"ok"}' }) }],
    ['/assets/portal.css', { get: () => ({ type: 'text/css; charset=utf-8', body: PORTAL_CSS }) }],
    ['/assets/portal.js', { get: () => ({ type: 'text/javascript; charset=utf-8', body: PORTAL_JS }) }],
    ['/favicon.ico', { get: () => ({ type: FAVICON_TYPE, body: faviconIco() }) }],
  ]);
  if (page.signupOpen) {
    routes.set('/signup', {
      get: () => html(signupPage(page, tokens.issue('signup'))),
      post: async (req) => signup(ctx, await formPost(req, 'signup'), () => limits.take(clientAddress(req.socket.remoteAddress, headerText(req, 'x-forwarded-for'), settings.trustProxy))),
      created: true,
    });
  }
  if (checkAdmin !== undefined) {
    routes.set('/admin', { get: () => html(adminPage(page, tokens.issue('admin'))) });
    routes.set('/admin/keys', {
      get: (req) => {
        checkAdmin(req);
        return listKeys(ctx);
      },
      post: async (req) => mintForOperator(ctx, await formPost(req, 'admin')),
      created: true,
    });
  }

  /** `/admin/keys/{id}/{action}`, matched by shape (the id is checked by the action). */
  const keyRoute = (path: string): Route | undefined => {
    if (checkAdmin === undefined) return undefined;
    const match = /^\/admin\/keys\/([^/]{1,64})\/([a-z]+)$/.exec(path);
    if (match === null || !(KEY_ACTIONS as readonly string[]).includes(match[2]!)) return undefined;
    return { post: async (req) => changeKey(ctx, match[1]!, match[2] as KeyAction, await formPost(req, 'admin')) };
  };

  const serve = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const target = req.url ?? '';
    if (!target.startsWith('/')) throw new PortalError('bad_request', 'The request target must be a path.');
    const path = target.split('?', 1)[0]!;
    const route = routes.get(path) ?? keyRoute(path);
    if (route === undefined) throw new PortalError('not_found');
    if ((req.method === 'GET' || req.method === 'HEAD') && route.get !== undefined) {
      const got = await route.get(req);
      if ('type' in got && typeof got.type === 'string' && (typeof got.body === 'string' || Buffer.isBuffer(got.body))) respond.send(req, res, 200, got.type, got.body);
      else respond.json(req, res, 200, got);
      return;
    }
    if (req.method === 'POST' && route.post !== undefined) {
      respond.json(req, res, route.created ? 201 : 200, await route.post(req));
      return;
    }
    res.setHeader('Allow', [...(route.get ? ['GET', 'HEAD'] : []), ...(route.post ? ['POST'] : [])].join(', '));
    throw new PortalError('method_not_allowed');
  };

  return {
    queue,
    handle(req, res) {
      serve(req, res).catch((error: unknown) => {
        if (!(error instanceof PortalError)) {
          log(`portal: internal error: ${(error as Error).message}`, 'error', { stack: (error as Error).stack });
          error = new PortalError('internal_error');
        }
        respond.error(req, res, error as PortalError);
      });
    },
  };
}

function headerText(req: IncomingMessage, name: string): string | undefined {
  const value = req.headers[name];
  return Array.isArray(value) ? value.join(', ') : value;
}
