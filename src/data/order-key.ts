/**
 * Order keys as bytes: each row's position in its kind's order (docs/api.md §6, "Orders";
 * `ROW_ORDER` in `src/rows/order.ts`) written so that comparing two keys byte by byte gives the
 * order of their rows. A pagination cursor carries the key of the last row sent (keyset,
 * docs/api.md §9), and the next page is found by binary search over the keys of its list, in this
 * snapshot or a later one. Keys are prepared at load time; a request compares bytes and
 * allocates nothing.
 *
 * The encoding of each part:
 * - a flag byte, 0 when the field holds a value and 1 when it is null or absent, so that nulls
 *   sort last in either direction (as the row comparators put them);
 * - a string (ASCII by its schema: dates, date-times, accession numbers, tickers, CIKs): its
 *   bytes then 0x00 when ascending; each byte complemented then 0xFF when descending, so a
 *   longer string with the same start comes after it ascending and before it descending, as
 *   JavaScript's `<` on strings does;
 * - a number: IEEE 754 big-endian with the sign bit flipped (all bits for negatives), so that
 *   unsigned byte order is numeric order; complemented when descending.
 */
import type { RowKind } from '../rows/schemas.js';
import { sharedArray, sharedBytes } from './shared-memory.js';

/** How one field of a row enters its order key. */
export interface OrderPart {
  /** Row field. */
  readonly field: string;
  /** `string` compares as JavaScript compares strings; `number` numerically; `abs` by absolute value. */
  readonly as: 'string' | 'number' | 'abs';
  /** Direction of the order on this field. */
  readonly descending: boolean;
}

const desc = (field: string, as: OrderPart['as'] = 'string'): OrderPart => ({ field, as, descending: true });
const asc = (field: string): OrderPart => ({ field, as: 'string', descending: false });

/**
 * The order of each kind as key parts: the same order as `ROW_ORDER` (a property test checks
 * that the byte order of these keys agrees with it on every pair of rows).
 */
export const ORDER_KEY_PARTS: Readonly<Record<RowKind, readonly OrderPart[]>> = Object.freeze({
  insiders: [desc('net_usd', 'abs'), asc('ticker')],
  filings: [desc('filed_at'), desc('accepted_at'), desc('accession_no'), asc('ticker')],
  earnings: [desc('filed_at'), desc('accession_no'), asc('ticker')],
  whales: [desc('total_value_usd', 'number'), desc('filed_at'), desc('accession_no'), asc('cik')],
  reports: [desc('latest_filing_at'), asc('ticker')],
  // The line's position within its table is no field: equal keys keep file order (rows/order.ts).
  'insider-transactions': [desc('transaction_date'), desc('filed_at'), desc('accession_no'), desc('table')],
  financials: [desc('period_end'), asc('ticker'), asc('cik')],
  holders: [desc('value_usd', 'number'), asc('filer_cik'), asc('cusip'), asc('put_call')],
});

/**
 * Longest order key accepted, in bytes: it must fit a cursor of at most 512 characters
 * (docs/api.md §9). The fields of every kind are short (a date-time is about 26 bytes here); only a
 * date-time with hundreds of fraction digits could pass it, and such a row is refused at load.
 */
export const MAX_ORDER_KEY_BYTES = 300;

/** Appends order keys of rows to one growing buffer, with each key's end offset. */
export class OrderKeyWriter {
  // Shared memory (shared-memory.ts): the threads serving a version share its keys.
  #bytes = sharedBytes(1 << 16);
  #used = 0;
  #ends = sharedArray(Uint32Array, 1024);
  #count = 0;
  readonly #scratch = new DataView(new ArrayBuffer(8));

  /**
   * Appends the key of `row`.
   *
   * @returns the key's length in bytes.
   * @throws Error naming the field when a string part holds a character outside ASCII 0x01-0x7F,
   *   or the key is longer than {@link MAX_ORDER_KEY_BYTES}.
   */
  add(parts: readonly OrderPart[], row: Record<string, unknown>): number {
    const start = this.#used;
    for (const part of parts) {
      const value = row[part.field];
      if (value === null || value === undefined) {
        this.#byte(1);
        continue;
      }
      this.#byte(0);
      if (part.as === 'string') this.#string(part, String(value));
      else this.#number(part, value as number);
    }
    const length = this.#used - start;
    if (length > MAX_ORDER_KEY_BYTES) throw new Error(`its order key is ${length} bytes, more than ${MAX_ORDER_KEY_BYTES}`);
    if (this.#count === this.#ends.length) {
      const grown = sharedArray(Uint32Array, this.#ends.length * 2);
      grown.set(this.#ends);
      this.#ends = grown;
    }
    this.#ends[this.#count++] = this.#used;
    return length;
  }

  /** The keys written, in order: `bytes` and the end offset of key i at `ends[i]`. */
  finish(): OrderKeys {
    return new OrderKeys(this.#bytes.subarray(0, this.#used), this.#ends.subarray(0, this.#count));
  }

  #string(part: OrderPart, text: string): void {
    this.#room(text.length + 1);
    const bytes = this.#bytes;
    for (let i = 0; i < text.length; i++) {
      const code = text.charCodeAt(i);
      if (code === 0 || code > 0x7f) throw new Error(`its order field ${part.field} holds a character outside ASCII`);
      bytes[this.#used++] = part.descending ? 0xff - code : code;
    }
    bytes[this.#used++] = part.descending ? 0xff : 0x00;
  }

  #number(part: OrderPart, value: number): void {
    let number = part.as === 'abs' ? Math.abs(value) : value;
    if (number === 0) number = 0; // -0 sorts as 0, as the comparators' subtraction does
    this.#scratch.setFloat64(0, number);
    const negative = (this.#scratch.getUint8(0) & 0x80) !== 0;
    this.#room(8);
    for (let i = 0; i < 8; i++) {
      let byte = this.#scratch.getUint8(i);
      byte = negative ? ~byte & 0xff : i === 0 ? byte ^ 0x80 : byte;
      this.#bytes[this.#used++] = part.descending ? ~byte & 0xff : byte;
    }
  }

  #byte(value: number): void {
    this.#room(1);
    this.#bytes[this.#used++] = value;
  }

  #room(extra: number): void {
    if (this.#used + extra <= this.#bytes.length) return;
    const grown = sharedBytes(Math.max(this.#bytes.length * 2, this.#used + extra));
    this.#bytes.copy(grown, 0, 0, this.#used);
    this.#bytes = grown;
  }
}

/** The order keys of one kind's rows, by row number (the row's line in its file, from 0). */
export class OrderKeys {
  /**
   * @param bytes - every key, concatenated in row order.
   * @param ends - `ends[i]`: offset in `bytes` where the key of row i ends.
   */
  constructor(readonly bytes: Buffer, readonly ends: Uint32Array) {}

  /** Offset where the key of `row` starts. */
  start(row: number): number {
    return row === 0 ? 0 : this.ends[row - 1]!;
  }

  /**
   * Compares the key of `row` with `key[from, to)`: negative when the row comes first in the
   * order, 0 when the keys are equal, positive when it comes after.
   */
  compare(row: number, key: Uint8Array, from: number, to: number): number {
    // A loop over a few dozen bytes: cheaper than Buffer#compare's argument checks and native call.
    const bytes = this.bytes;
    let at = row === 0 ? 0 : this.ends[row - 1]!;
    const end = this.ends[row]!;
    let other = from;
    while (at < end && other < to) {
      const difference = bytes[at++]! - key[other++]!;
      if (difference !== 0) return difference;
    }
    return (end - at) - (to - other);
  }

  /** A copy of the key of `row`. */
  copyOf(row: number): Buffer {
    return Buffer.from(this.bytes.subarray(this.start(row), this.ends[row]!));
  }
}
