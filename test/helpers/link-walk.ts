/**
 * Following `Link: <…>; rel="next"` (RFC 8288; docs/api.md §9) through a served list, as a
 * client does, with the checks every walk makes of each page.
 */
import assert from 'node:assert/strict';
import { withKey, type Harness } from './harness.js';

/**
 * The path and query of a `Link` header's next page.
 *
 * @param link - the header's value, or undefined on the last page.
 * @param baseUrl - the server's `baseUrl` option, which every link must start with.
 * @returns undefined when there is no next page.
 */
export function nextOf(link: unknown, baseUrl: string): string | undefined {
  if (link === undefined) return undefined;
  const match = /^<([^>]+)>; rel="next"$/.exec(String(link));
  assert.ok(match, `Link is one RFC 8288 link with rel="next": ${String(link)}`);
  assert.ok(match[1]!.startsWith(baseUrl), `Link starts with the base URL: ${match[1]}`);
  return match[1]!.slice(baseUrl.length);
}

/**
 * Follows Link from `path` to the end with `key`, each page answered 200.
 *
 * @param maxPages - a walk longer than this fails (a Link that loops).
 * @returns every row, in order, and each page's `count`.
 */
export async function walkLinks(h: Harness, path: string, key: string, baseUrl: string, maxPages = 100): Promise<{ rows: any[]; pages: number[] }> {
  const rows: any[] = [];
  const pages: number[] = [];
  let next: string | undefined = path;
  while (next !== undefined) {
    const reply = await h.get(next, withKey(key));
    assert.equal(reply.status, 200, `${next}: ${reply.text}`);
    rows.push(...reply.json.data);
    pages.push(reply.json.count);
    next = nextOf(reply.headers.link, baseUrl);
    assert.ok(pages.length <= maxPages, 'the walk ends');
  }
  return { rows, pages };
}
