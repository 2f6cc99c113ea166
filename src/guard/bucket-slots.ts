/**
 * Compact storage for the limiter's per-key state: one Map from key id to a slot number, and
 * the slot's four numbers (minute tokens, day tokens, last update, instant at which both
 * buckets are full) side by side in one Float64Array. No object per key, so a key with state
 * costs a Map entry plus 32 bytes of array (64 at worst just after the array doubled). The
 * four numbers of a slot share one 32-byte stretch, so a request reads one cache line of the
 * array, not four: with thousands of keys, a key's state is cold when its request comes, and
 * the four parallel arrays this replaced cost a miss each (1.6-5 % more filings req/s in
 * head-to-head wrk runs of two servers on one core). Freed slots go on a free list and are
 * reused before the array grows; it never shrinks, so its size follows the peak number of
 * keys with state.
 */

/** Slots allocated up front; the array doubles from here. */
const INITIAL_SLOTS = 1024;

/** Numbers per slot in {@link BucketSlots.state}. */
export const SLOT_FIELDS = 4;
/** Offset in a slot: tokens in the minute bucket at the slot's last update. */
export const MINUTE_TOKENS = 0;
/** Offset in a slot: tokens in the day bucket at the slot's last update. */
export const DAY_TOKENS = 1;
/** Offset in a slot: instant of the last update, ms on the limiter's clock. */
export const UPDATED_AT_MS = 2;
/** Offset in a slot: instant at which both buckets are full again (with the plan of the last update), ms. */
export const FULL_AT_MS = 3;

/** Per-key token-bucket state in one typed array, addressed by slot number. */
export class BucketSlots {
  /**
   * Every slot's numbers: slot `s` holds its field `f` (one of the offsets above) at
   * `state[s * SLOT_FIELDS + f]`. Replaced by a larger array when it grows: read it again
   * after {@link allocate}.
   */
  state = new Float64Array(INITIAL_SLOTS * SLOT_FIELDS);

  readonly #slotByKey = new Map<string, number>();
  #freeSlots = new Int32Array(INITIAL_SLOTS);
  #freeCount = 0;
  /** Slots below this index have been handed out at least once. */
  #highWater = 0;

  /** Number of keys with a slot. */
  get size(): number {
    return this.#slotByKey.size;
  }

  /** Number of slots the array has room for. */
  get capacity(): number {
    return this.#freeSlots.length;
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
   * slot when there is one, else doubles the array when it is full.
   *
   * @param keyId - id of a key that has no slot yet.
   * @returns the new slot number.
   */
  allocate(keyId: string): number {
    let slot: number;
    if (this.#freeCount > 0) {
      slot = this.#freeSlots[--this.#freeCount]!;
    } else {
      if (this.#highWater === this.#freeSlots.length) this.#grow();
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
    const state = this.state;
    for (const [keyId, slot] of this.#slotByKey) {
      if (state[slot * SLOT_FIELDS + FULL_AT_MS]! <= nowMs) {
        // Deleting the current entry while iterating a Map is well defined (ECMA-262 Map.prototype.forEach).
        this.#slotByKey.delete(keyId);
        this.#freeSlots[this.#freeCount++] = slot;
      }
    }
  }

  #grow(): void {
    const slots = this.#freeSlots.length * 2;
    const state = new Float64Array(slots * SLOT_FIELDS);
    state.set(this.state);
    this.state = state;
    const freeSlots = new Int32Array(slots);
    freeSlots.set(this.#freeSlots);
    this.#freeSlots = freeSlots;
  }
}
