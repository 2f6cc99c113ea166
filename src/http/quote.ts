/**
 * Quoting client input in an error detail (docs/api.md §12): a path, a parameter name or value
 * appears only as a JSON string literal of at most {@link QUOTE_MAX_CHARS} characters, and
 * never when it holds an API key. Details reach logs, browser consoles and support tickets; a
 * key pasted into a URL by mistake must not travel further in the answer.
 */

/** Most characters of client input a detail quotes; longer input is cut and ends in `…`. */
export const QUOTE_MAX_CHARS = 100;

/** What a detail says in place of input that holds a key. */
export const REDACTED_KEY = '(not shown: it holds an API key)';

/**
 * Tells whether a token of client input is a key the server knows (e.g. its SHA-256 is in the
 * keys table). Called for a handful of tokens per quote, never on the success path.
 */
export type KeyRecogniser = (token: string) => boolean;

/**
 * The minted key shape (docs/api.md §4): `eqf_` + 32 base62 characters + 6 base62 characters of
 * CRC32, matched anywhere, so that a key is recognised without the table and before any check.
 */
const MINTED_KEY = /eqf_[0-9A-Za-z]{38}/;

/** Shortest token looked up with a {@link KeyRecogniser}: no key worth the name is shorter. */
const MIN_KEY_LENGTH = 8;

/**
 * Whether a character can belong to a key written in a URL: RFC 3986 §2.3 unreserved
 * characters, and `%` so that a percent-encoded key stays one token.
 */
function isTokenChar(c: number): boolean {
  return (c >= 0x30 && c <= 0x39) || (c >= 0x41 && c <= 0x5a) || (c >= 0x61 && c <= 0x7a) ||
    c === 0x2d || c === 0x2e || c === 0x5f || c === 0x7e || c === 0x25;
}

/**
 * Whether text holds a key: the minted shape anywhere, or a token (a run of {@link isTokenChar}
 * characters, as written or percent-decoded) that the recogniser knows.
 */
function holdsKey(text: string, isKey: KeyRecogniser | undefined): boolean {
  const decoded = decode(text);
  if (MINTED_KEY.test(text) || (decoded !== text && MINTED_KEY.test(decoded))) return true;
  if (isKey === undefined) return false;
  let start = 0;
  for (let i = 0; i <= text.length; i++) {
    if (i < text.length && isTokenChar(text.charCodeAt(i))) continue;
    if (i - start >= MIN_KEY_LENGTH) {
      const token = text.slice(start, i);
      if (isKey(token)) return true;
      const plain = decode(token);
      if (plain !== token && isKey(plain)) return true;
    }
    start = i + 1;
  }
  return false;
}

function decode(text: string): string {
  if (text.indexOf('%') === -1) return text;
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}

/**
 * Client input as it may appear in an error detail: a JSON string literal (quotes and escapes
 * included) of at most {@link QUOTE_MAX_CHARS} characters of the input, cut with `…` when
 * longer, or {@link REDACTED_KEY} when the part that would be shown holds a key. A key cut in
 * two by the limit is still recognised: the token that straddles it is checked whole.
 *
 * @param text - client input (a path, a parameter name or value), as received.
 * @param isKey - recognises the server's own keys; the minted shape is recognised without it.
 * @returns e.g. `"/api/v1/nope"`, or `(not shown: it holds an API key)`.
 */
export function quoteInput(text: string, isKey?: KeyRecogniser): string {
  const shown = text.length > QUOTE_MAX_CHARS ? QUOTE_MAX_CHARS - 1 : text.length;
  let end = shown;
  while (end < text.length && end > 0 && isTokenChar(text.charCodeAt(end)) && isTokenChar(text.charCodeAt(end - 1))) end++;
  if (holdsKey(text.slice(0, end), isKey)) return REDACTED_KEY;
  return JSON.stringify(shown < text.length ? `${text.slice(0, shown)}…` : text);
}
