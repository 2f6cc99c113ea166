/**
 * The rows of a filtered list, found lazily from a position (docs/api.md §15): each criterion (one
 * filter name) is the union of some ascending row-number lists (the postings of its values), and
 * a row is in the list when every criterion holds it and it lies in the date range. Criteria are
 * intersected by leapfrogging: each in turn seeks the first row at or after the candidate, by
 * galloping forward from where it stood, until all agree. A page of `limit` rows costs about
 * `limit × criteria × values × log n` steps when the criteria are not much more selective
 * together than apart, and never a walk over every row of the kind: where they are (two
 * criteria whose rows rarely coincide), the walk is bounded by the rows of the sparser one in
 * the range. Row numbers ascending are the kind's order, so the rows come out in list order.
 */

/** The first index `i >= from` of ascending `list` with `list[i] >= target` (`list.length` when none), by galloping. */
export function gallop(list: Int32Array, from: number, target: number): number {
  const length = list.length;
  if (from >= length || list[from]! >= target) return from;
  // list[low] < target: double the step until past it, then binary search the last step.
  let low = from;
  let step = 1;
  while (low + step < length && list[low + step]! < target) {
    low += step;
    step *= 2;
  }
  let high = Math.min(low + step, length);
  low += 1;
  while (low < high) {
    const middle = (low + high) >>> 1;
    if (list[middle]! < target) low = middle + 1;
    else high = middle;
  }
  return low;
}

/** The first index of ascending `list` with `list[i] >= target` (`list.length` when none), by binary search. */
export function lowerBound(list: Int32Array, target: number): number {
  let low = 0;
  let high = list.length;
  while (low < high) {
    const middle = (low + high) >>> 1;
    if (list[middle]! < target) low = middle + 1;
    else high = middle;
  }
  return low;
}

/** One criterion: the union of ascending lists, each read forward only. */
class Union {
  readonly #lists: readonly Int32Array[];
  /** Where each list stands. */
  readonly #at: Int32Array;
  /** Whether the lists have been placed: the first seek places each by binary search, later ones gallop on. */
  #placed = false;

  constructor(lists: readonly Int32Array[]) {
    this.#lists = lists;
    this.#at = new Int32Array(lists.length);
  }

  /** The smallest row at or after `target` in any list (Infinity when none); targets never decrease. */
  seek(target: number): number {
    let best = Infinity;
    const lists = this.#lists;
    const placed = this.#placed;
    this.#placed = true;
    for (let i = 0; i < lists.length; i++) {
      const list = lists[i]!;
      // A page after a cursor starts deep in long lists: log2(n) probes, where galloping from
      // the start would take twice as many (each a cache miss in a long list).
      const at = placed ? gallop(list, this.#at[i]!, target) : lowerBound(list, target);
      this.#at[i] = at;
      if (at < list.length && list[at]! < best) best = list[at]!;
    }
    return best;
  }
}

/**
 * Rows in `[from, end)` held by every criterion, ascending, one at a time: {@link next} until it
 * gives -1. With no criteria, every row of the range. A scan starts afresh from its first row
 * (a later page from its cursor's position): its lists are placed by binary search.
 */
export class FilterScan {
  readonly #unions: readonly Union[];
  readonly #end: number;
  #candidate: number;
  #turn = 0;

  /**
   * @param criteria - per criterion, the ascending row-number lists of its values (any of which matches).
   * @param from - the first row that may be given.
   * @param end - the row after the last that may be given.
   */
  constructor(criteria: readonly (readonly Int32Array[])[], from: number, end: number) {
    this.#unions = criteria.map((lists) => new Union(lists));
    this.#candidate = from;
    this.#end = end;
  }

  /** The next row, or -1 when there is none. */
  next(): number {
    const unions = this.#unions;
    const k = unions.length;
    const end = this.#end;
    let candidate = this.#candidate;
    if (k === 0) {
      if (candidate >= end) return -1;
      this.#candidate = candidate + 1;
      return candidate;
    }
    let agreed = 0;
    let turn = this.#turn;
    while (candidate < end) {
      const row = unions[turn]!.seek(candidate);
      turn = turn + 1 === k ? 0 : turn + 1;
      if (row === candidate) agreed++;
      else {
        candidate = row;
        agreed = 1;
      }
      if (candidate >= end) break;
      if (agreed === k) {
        this.#candidate = candidate + 1;
        this.#turn = turn;
        return candidate;
      }
    }
    this.#candidate = end;
    return -1;
  }
}

/**
 * The first row at or after `from` (and before `to`) whose date is below `day`, in a date column
 * that does not increase along the rows (a descending order's leading date): binary search.
 */
export function firstRowBelow(dates: Int32Array, day: number, from = 0, to = dates.length): number {
  let low = from;
  let high = to;
  while (low < high) {
    const middle = (low + high) >>> 1;
    if (dates[middle]! >= day) low = middle + 1;
    else high = middle;
  }
  return low;
}
