/**
 * A page list: the first rows of one list (a kind's overview, or one ticker's or CIK's rows),
 * serialised once at load time in both plan variants. A response of `n` rows is one slice of a
 * prepared string, so the request path does no JSON work and no per-row joins.
 */

/** The two serialisations of a row (decisions §6: written fields are absent on the free plan). */
export type Variant = 'full' | 'facts';

/** Prepared rows of one list. */
export interface Page {
  /** Number of rows held (at most the largest page size of any plan). */
  readonly length: number;
  /** Rows as JSON, joined by commas, with written fields. */
  readonly full: string;
  /** Same rows without written fields. */
  readonly facts: string;
  /** `fullEnds[i]`: end of row `i` in `full`, so `full.slice(0, fullEnds[n - 1])` holds n rows. */
  readonly fullEnds: Uint32Array;
  /** Likewise for `facts`. */
  readonly factsEnds: Uint32Array;
}

/** A list with no rows. */
export const EMPTY_PAGE: Page = Object.freeze({
  length: 0, full: '', facts: '', fullEnds: new Uint32Array(0), factsEnds: new Uint32Array(0),
});

/**
 * The JSON text of the first `n` rows of a page, comma-separated (no brackets).
 *
 * @param page - the list.
 * @param variant - which serialisation.
 * @param n - rows wanted; more than the page holds gives all of them.
 */
export function pageSlice(page: Page, variant: Variant, n: number): { text: string; count: number } {
  const count = Math.min(n, page.length);
  if (count === 0) return { text: '', count: 0 };
  return variant === 'full'
    ? { text: page.full.slice(0, page.fullEnds[count - 1]), count }
    : { text: page.facts.slice(0, page.factsEnds[count - 1]), count };
}

/** Collects up to `capacity` rows, then freezes them into a {@link Page}. */
export class PageBuilder {
  private readonly full: string[] = [];
  private readonly facts: string[] = [];

  /** @param capacity - most rows kept; later rows are ignored (rows arrive in order). */
  constructor(private readonly capacity: number) {}

  /** Whether another row would still be kept. */
  get hasRoom(): boolean {
    return this.full.length < this.capacity;
  }

  /**
   * Adds a row in both serialisations.
   *
   * @param fullJson - the row with written fields.
   * @param factsJson - the row without them.
   */
  add(fullJson: string, factsJson: string): void {
    if (!this.hasRoom) return;
    this.full.push(fullJson);
    this.facts.push(factsJson);
  }

  /** The finished page. */
  build(): Page {
    if (this.full.length === 0) return EMPTY_PAGE;
    return {
      length: this.full.length,
      full: this.full.join(','),
      facts: this.facts.join(','),
      fullEnds: ends(this.full),
      factsEnds: ends(this.facts),
    };
  }
}

function ends(parts: readonly string[]): Uint32Array {
  const out = new Uint32Array(parts.length);
  let offset = 0;
  for (let i = 0; i < parts.length; i++) {
    offset += parts[i]!.length + (i === 0 ? 0 : 1);
    out[i] = offset;
  }
  return out;
}
