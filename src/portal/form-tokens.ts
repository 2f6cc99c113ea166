/**
 * Per-form tokens against cross-site requests (docs/api.md §18): a page carries a token for each
 * of its forms, and a POST is taken only with a token for its form that is still fresh. A token is
 * `ISSUED.MAC`: the issue time (ms, base 36) and the base64url HMAC-SHA256 of the form's name and
 * that time under a secret drawn once per process, so tokens need no storage, die with the process
 * and cannot be forged or moved from one form to another (OWASP CSRF Prevention Cheat Sheet,
 * "Signed Double-Submit Cookie" without the cookie: the portal uses no cookies).
 */
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

/** The forms of the portal, each with its own tokens. */
export type FormName = 'signup' | 'rotate' | 'admin';

/** Issues and checks form tokens. */
export interface FormTokens {
  /** A token for `form`, issued now. */
  issue(form: FormName): string;
  /**
   * Whether `token` was issued by this process for `form` no longer than the tokens' life ago
   * (and not in the future: a minute of clock slack at most).
   */
  check(form: FormName, token: string | undefined): boolean;
}

/** Most characters a token has (a base-36 time and a 43-character MAC, with room). */
const MAX_TOKEN_LENGTH = 80;

/**
 * @param ttlMs - how long a token is accepted, ms.
 * @param now - the clock, ms since the Unix epoch.
 * @param secret - the HMAC key; default 32 random bytes.
 */
export function createFormTokens(ttlMs: number, now: () => number, secret: Buffer = randomBytes(32)): FormTokens {
  const mac = (form: FormName, issued: string): Buffer => createHmac('sha256', secret).update(`${form}\n${issued}`).digest();
  return {
    issue(form) {
      const issued = now().toString(36);
      return `${issued}.${mac(form, issued).toString('base64url')}`;
    },
    check(form, token) {
      if (typeof token !== 'string' || token.length > MAX_TOKEN_LENGTH) return false;
      const match = /^([0-9a-z]{1,12})\.([A-Za-z0-9_-]{43})$/.exec(token);
      if (match === null) return false;
      const age = now() - Number.parseInt(match[1]!, 36);
      if (!(age <= ttlMs && age >= -60_000)) return false;
      // The texts are compared, not the decoded bytes: the last of 43 base64url characters has two
      // unused bits, and a token with them changed must not pass as well.
      return timingSafeEqual(Buffer.from(match[2]!), Buffer.from(mac(form, match[1]!).toString('base64url')));
    },
  };
}
