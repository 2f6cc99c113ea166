/**
 * A memo keyed by text a client chose (a query's filters, a cursor), for requests that are asked
 * again: a page walked by several clients, a poller's filtered list. Bounded in entries and in
 * key length, so that no client can grow it: a key longer than the bound is never kept, and a
 * full memo starts afresh (cheaper than keeping recency, and enough for what repeats).
 */
export class BoundedMemo<V> {
  readonly #entries = new Map<string, V>();

  /**
   * @param maxEntries - entries kept before the memo starts afresh.
   * @param maxKeyLength - longest key kept, in characters.
   */
  constructor(readonly maxEntries: number, readonly maxKeyLength: number) {}

  /** The value kept for `key`, or undefined. */
  get(key: string): V | undefined {
    return this.#entries.get(key);
  }

  /** Keeps `value` for `key`, unless the key is too long. */
  set(key: string, value: V): void {
    if (key.length > this.maxKeyLength) return;
    if (this.#entries.size >= this.maxEntries) this.#entries.clear();
    this.#entries.set(key, value);
  }
}
