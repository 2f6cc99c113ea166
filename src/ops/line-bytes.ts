/**
 * A log line made as UTF-8 bytes, piece by piece, with no string built for it. Made as one
 * template string, the access log's line spent about four fifths of its cost after it was made:
 * V8 flattened the string's thirty-odd pieces into one and encoded it to UTF-8 in a call to C++
 * (docs/performance-notes.md). Here ASCII text is copied in by a loop, and only text with other
 * characters (in a JSON string value: a user agent, a key id) goes through `Buffer#write`.
 */

/** Bytes a buffer starts with: a batch of lines of the usual size. */
const START_BYTES = 64 * 1024;

/**
 * Largest buffer kept from one batch to the next: a batch of 256 lines whose filters' text runs
 * to Node's header limit (16 KiB) takes about 12 MiB, a usual one under 100 KiB.
 */
const MAX_KEPT_BYTES = 1024 * 1024;

/** Code unit of `0`. */
const ZERO = 0x30;

/** A buffer that lines are written into, and the position to write at. */
export class LineBytes {
  /** The bytes written so far are `bytes[0, at)`; the buffer is replaced when it grows. */
  bytes: Buffer = Buffer.allocUnsafe(START_BYTES);
  /** Bytes written. */
  at = 0;

  /**
   * Makes room for `n` more bytes, growing the buffer (what was written is kept). Every write
   * below assumes its room was made: a UTF-16 code unit takes at most 3 bytes of UTF-8.
   */
  room(n: number): void {
    if (this.at + n <= this.bytes.length) return;
    const grown = Buffer.allocUnsafe(Math.max(2 * this.bytes.length, this.at + n));
    this.bytes.copy(grown, 0, 0, this.at);
    this.bytes = grown;
  }

  /** Drops a buffer grown past {@link MAX_KEPT_BYTES} for a new one of the starting size (what was written is lost). */
  shrink(): void {
    if (this.bytes.length > MAX_KEPT_BYTES) this.bytes = Buffer.allocUnsafe(START_BYTES);
    this.at = 0;
  }

  /** One byte (an ASCII character's code). */
  byte(code: number): void {
    this.bytes[this.at++] = code;
  }

  /**
   * Text as UTF-8. Lone surrogates become U+FFFD (as `Buffer#write` makes them); JSON text
   * (`JSON.stringify`'s) has none.
   */
  text(text: string): void {
    const bytes = this.bytes;
    let at = this.at;
    for (let i = 0; i < text.length; i++) {
      const code = text.charCodeAt(i);
      if (code >= 0x80) {
        this.at = at + bytes.write(i === 0 ? text : text.slice(i), at, 'utf8');
        return;
      }
      bytes[at++] = code;
    }
    this.at = at;
  }

  /** A number as JavaScript writes it (`String(n)`): whole numbers from 0 below 2^53 digit by digit, others through `String`. */
  number(n: number): void {
    if (!(n >= 0 && n <= Number.MAX_SAFE_INTEGER && Math.floor(n) === n)) {
      this.text(String(n));
      return;
    }
    let digits = 1;
    for (let power = 10; power <= n; power *= 10) digits++;
    const bytes = this.bytes;
    let at = this.at + digits;
    this.at = at;
    do {
      bytes[--at] = ZERO + (n % 10);
      n = Math.floor(n / 10);
    } while (n > 0);
  }

  /**
   * Milliseconds rounded to 0.001 as JavaScript writes `Math.round(ms * 1000) / 1000`: the whole
   * part, and a point and up to three digits without trailing zeros when there is a fraction.
   */
  millis(ms: number): void {
    const micros = Math.round(ms * 1000);
    if (!(micros >= 0 && micros <= Number.MAX_SAFE_INTEGER)) {
      this.text(String(micros / 1000));
      return;
    }
    const fraction = micros % 1000;
    this.number((micros - fraction) / 1000);
    if (fraction === 0) return;
    const bytes = this.bytes;
    bytes[this.at++] = 0x2e; // '.'
    bytes[this.at++] = ZERO + Math.floor(fraction / 100);
    const rest = fraction % 100;
    if (rest === 0) return;
    bytes[this.at++] = ZERO + Math.floor(rest / 10);
    if (rest % 10 !== 0) bytes[this.at++] = ZERO + (rest % 10);
  }
}
