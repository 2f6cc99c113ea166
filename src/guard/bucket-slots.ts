/**
 * Compact storage for the limiter's per-key state: one Map from key id to a slot number, and
 * the slot's four numbers in parallel Float64Arrays (minute tokens, day tokens, last update,
 * instant at which both buckets are full). No object per key, so a key with state costs a
 * Map entry plus 32 bytes of array (64 at worst just after the arrays doubled). Freed slots
 * go on a free list and are reused before the arrays grow; the arrays never shrink, so their
 * size follows the peak number of keys with state.
 */

/** Slots allocated up front; the arrays double from here. */
const INITIAL_SLOTS = 1024;

/** Per-key token-bucket state in typed arrays, addressed by slot number. */
export class BucketSlots {
  /** Tokens in the minute bucket at `updatedAtMs[slot]`. */
  minuteTokens = new Float64Array(INITIAL_SLOTS);
  /** Tokens in the day bucket at `updatedAtMs[slot]`. */
  dayTokens = new Float64Array(INITIAL_SLOTS);
  /** Instant of the last update, ms on the limiter's clock. */
  updatedAtMs = new Float64Array(INITIAL_SLOTS);
  /** Instant at which both buckets are full again (with the plan of the last update), ms. */
  fullAtMs = new Float64Array(INITIAL_SLOTS);

  readonly #slotByKey = new Map<string, number>();
  #freeSlots = new Int32Array(INITIAL_SLOTS);
  #freeCount = 0;
  /** Slots below this index have been handed out at least once. */
  #highWater = 0;

  /** Number of keys with a slot. */
  get size(): number {
    return this.#slotByKey.size;
  }

  /**
   * The slot of a key.
   *
   * @param keyId - id of a key.
   * @returns its slot number, or `undefined` when the key has no state.
   */
  find(keyId: string): number | undefined {
    return this.#slotByKey.get(keyId);
  }

  /**
   * Gives a key without state a slot (the caller writes its four numbers). Reuses a freed
   * slot when there is one, else doubles the arrays when they are full.
   *
   * @param keyId - id of a key that has no slot yet.
   * @returns the new slot number.
   */
  allocate(keyId: string): number {
    let slot: number;
    if (this.#freeCount > 0) {
      slot = this.#freeSlots[--this.#freeCount]!;
    } else {
      if (this.#highWater === this.minuteTokens.length) this.#grow();
      slot = this.#highWater++;
    }
    this.#slotByKey.set(keyId, slot);
    return slot;
  }

  /**
   * Forgets every key whose buckets are full at `nowMs` and puts its slot on the free list.
   * O(keys with state); meant for a periodic timer, never the request path.
   *
   * @param nowMs - the current instant, ms on the limiter's clock.
   */
  releaseFull(nowMs: number): void {
    const fullAtMs = this.fullAtMs;
    for (const [keyId, slot] of this.#slotByKey) {
      if (fullAtMs[slot]! <= nowMs) {
        // Deleting the current entry while iterating a Map is well defined (ECMA-262 Map.prototype.forEach).
        this.#slotByKey.delete(keyId);
        this.#freeSlots[this.#freeCount++] = slot;
      }
    }
  }

  #grow(): void {
    const slots = this.minuteTokens.length * 2;
    this.minuteTokens = grown(this.minuteTokens, slots);
    this.dayTokens = grown(this.dayTokens, slots);
    this.updatedAtMs = grown(this.updatedAtMs, slots);
    this.fullAtMs = grown(this.fullAtMs, slots);
    const freeSlots = new Int32Array(slots);
    freeSlots.set(this.#freeSlots);
    this.#freeSlots = freeSlots;
  }
}

function grown(array: Float64Array<ArrayBuffer>, length: number): Float64Array<ArrayBuffer> {
  const bigger = new Float64Array(length);
  bigger.set(array);
  return bigger;
}
