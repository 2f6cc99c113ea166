import { sharedArray } from './shared-memory.js';

/**
 * A growing column of 32-bit integers, one per row of a load: typed-array storage that doubles
 * as it fills, so a million rows cost a few MiB outside the V8 heap instead of a million
 * JavaScript numbers on it. The storage is shared memory (shared-memory.ts), so that the threads
 * serving a version share its columns.
 */
export class IntColumn {
  #values = sharedArray(Int32Array, 1024);
  #length = 0;

  /** Appends a value (an integer from -2^31 to 2^32 - 1; read back by the matching accessor). */
  push(value: number): void {
    if (this.#length === this.#values.length) {
      const grown = sharedArray(Int32Array, this.#values.length * 2);
      grown.set(this.#values);
      this.#values = grown;
    }
    this.#values[this.#length++] = value;
  }

  /** Number of values. */
  get length(): number {
    return this.#length;
  }

  /** The values as signed integers (a view; the column must not grow after). */
  toInt32(): Int32Array {
    return this.#values.subarray(0, this.#length);
  }

  /** The values as unsigned integers (a view of the same memory). */
  toUint32(): Uint32Array {
    return new Uint32Array(this.#values.buffer, 0, this.#length);
  }
}
