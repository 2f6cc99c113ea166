/**
 * Entity tags and `If-None-Match` (RFC 9110 §8.8.3, §13.1.2; docs/api.md §10). A list page's tag
 * is weak and names what identifies its rows: the snapshot, the list, the position, the count
 * and the plan variant, not `as_of` (which changes on every response while the rows do not).
 * The OpenAPI document's tag is strong: a digest of its bytes, per content coding.
 */
import { createHash } from 'node:crypto';
import type { Variant } from '../data/page.js';
import { ROW_KINDS, type RowKind } from '../rows/schemas.js';

/**
 * The weak ETag of a list page. Its parts are joined by `.`, which no part contains (tickers are
 * normalised to `A-Z 0-9 -`, CIKs are digits, the snapshot tag is base64url).
 *
 * @param snapshotTag - the snapshot's digest tag (`SnapshotIndex.tag`).
 * @param listKey - the list's filter value, or null for the overview.
 */
export function listTag(snapshotTag: string, kind: RowKind, listKey: string | null, position: number, count: number, variant: Variant): string {
  return `W/"${snapshotTag}.${ROW_KINDS.indexOf(kind)}.${listKey ?? ''}.${position}.${count}.${variant === 'full' ? 'f' : 's'}"`;
}

/**
 * A strong ETag for a body: 22 base64url characters of its SHA-256, and the content coding when
 * there is one (a coding makes another representation, RFC 9110 §8.8.3).
 */
export function strongTag(body: string | Buffer, coding?: 'br' | 'gzip'): string {
  const digest = createHash('sha256').update(body).digest('base64url').slice(0, 22);
  return coding === undefined ? `"${digest}"` : `"${digest}-${coding}"`;
}

/**
 * Whether an `If-None-Match` field value matches a tag by weak comparison (RFC 9110 §13.1.2:
 * `W/` is ignored on both sides; `*` matches any current representation). A value that does not
 * parse matches nothing, so the request is answered in full.
 *
 * @param field - the field value (several field lines joined by `, `, as Node joins them).
 * @param tag - the current tag, `"…"` or `W/"…"`.
 */
export function ifNoneMatchMatches(field: string, tag: string): boolean {
  const opaqueStart = tag.charCodeAt(0) === 0x57 ? 2 : 0; // 'W'
  const opaqueLength = tag.length - opaqueStart;
  let at = 0;
  const end = field.length;
  while (at < end) {
    const c = field.charCodeAt(at);
    if (c === 0x20 || c === 0x09 || c === 0x2c) { // OWS and list commas
      at++;
      continue;
    }
    if (c === 0x2a) return true; // '*'
    if (c === 0x57 && field.charCodeAt(at + 1) === 0x2f) at += 2; // 'W/'
    if (field.charCodeAt(at) !== 0x22) return false; // not an entity-tag: stop matching
    const close = field.indexOf('"', at + 1);
    if (close === -1) return false;
    if (close + 1 - at === opaqueLength && field.startsWith(tag.slice(opaqueStart), at)) return true;
    at = close + 1;
  }
  return false;
}
