/**
 * Whether Redis answers, decided from Redis's side only (docs/api.md §11: Redis is unreachable
 * when there is "no reply at all for `--redis-timeout-ms` while commands wait"; a busy API
 * process, its own event loop late, is not an unreachable Redis).
 *
 * A plain timer per command measures the wrong thing. It starts when the request is decided,
 * but `@redis/client` writes the commands of one turn of the event loop together, in its next
 * check phase (`setImmediate`); a turn that answers a burst of requests (or a process the
 * scheduler leaves waiting) writes them hundreds of ms later. The timer also fires in the timers
 * phase, before the poll phase reads what Redis sent meanwhile. Over three processes on two
 * cores, a burst of 1,000 requests tripped a 250 ms timer in about one burst in eight while
 * Redis spent 13 µs per script, and every process that tripped admitted a second plan from its
 * own buckets.
 *
 * So a wait is measured here from when the command was written, or from Redis's last reply if
 * that is later (replies come in order: while earlier commands are answered, Redis works), with
 * `performance.now()` rather than the event loop's cached time. When the timer finds (in the
 * timers phase) that the timeout has passed, the verdict waits for the check phase
 * (`setImmediate`): the poll phase between them began after the timeout had passed, so it read
 * whatever Redis had sent by then. (Judging in the check phase after any timer is not enough: a
 * timer counts from the loop's cached time, so it fires early by as long as the loop was late
 * when it was set, and the poll phase after it may have begun before the timeout passed, then
 * answered requests for 100 ms while the reply came in.) A command counts as unanswered only
 * when Redis has had it, and said nothing at all, for the whole timeout.
 */

/** The commands sent in one turn of the event loop: the client writes them together. */
interface Turn {
  /** When the client had written them, `performance.now()` ms; NaN until then. */
  writtenAt: number;
  /** Whether the stamp that sets {@link writtenAt} is scheduled. */
  stamping: boolean;
}

/** The rejection of {@link RedisReplyWatch.send} when Redis left a command unanswered for the timeout. */
export class RedisSilentError extends Error {
  /** @param timeoutMs - the timeout that passed, ms. */
  constructor(timeoutMs: number) {
    super(`did not answer within ${timeoutMs} ms`);
  }
}

/**
 * Watches the replies of one Redis connection; see the module comment.
 *
 * It relies on how `@redis/client` writes (6.x, `RedisClient#scheduleWrite`):
 * a command is queued when it is sent and written, with every other command queued by then,
 * by one `setImmediate` scheduled when the first of them is sent. Immediates run in the order
 * they were scheduled, so one scheduled just after a send runs just after that write. The
 * client stops a write at the socket's high-water mark and writes the rest a turn later, on
 * 'drain'; the caller raises the mark above any burst (`redis-store.ts`), else those would be
 * timed from the first write.
 */
export class RedisReplyWatch {
  readonly #timeoutMs: number;
  readonly #now: () => number;
  /** The turn that commands sent now join, until its close runs. */
  #turn: Turn | undefined;
  /** When Redis last answered a command sent through {@link send}, ms on {@link #now}'s clock. */
  #lastReplyAt = Number.NEGATIVE_INFINITY;

  /**
   * @param timeoutMs - how long Redis may leave a written command without any reply, ms
   *   (`--redis-timeout-ms`, a whole number, 1 or more).
   * @param now - monotonic clock in ms. @default performance.now
   */
  constructor(timeoutMs: number, now: () => number = () => performance.now()) {
    this.#timeoutMs = timeoutMs;
    this.#now = now;
  }

  /**
   * Sends one command through `send` and settles with its outcome, or rejects with a
   * {@link RedisSilentError} once Redis has had the command for `timeoutMs` without a reply.
   *
   * @param send - sends the command through the client (synchronously, before it returns) and
   *   resolves with the reply. A send that itself sends again (the script reloaded after
   *   NOSCRIPT) is measured from the first write, or from the NOSCRIPT reply if later when it
   *   calls {@link replied}.
   * @returns the reply; rejects with `send`'s own error, or with {@link RedisSilentError}.
   */
  send<T>(send: () => Promise<T>): Promise<T> {
    const turn = this.#join();
    const reply = send();
    if (!turn.stamping) {
      turn.stamping = true;
      setImmediate(stamp, turn, this.#now);
    }
    return new Promise<T>((resolve, reject) => {
      let settled = false;
      let timer: NodeJS.Timeout;
      /** Waits until Redis could have had the command for the whole timeout, then looks. */
      const wait = (waited: number): void => {
        timer = setTimeout(look, waited >= 0 ? this.#timeoutMs - waited : this.#timeoutMs); // NaN: not yet written
      };
      // In the timers phase: has the timeout passed, on the real clock, since Redis had the command?
      const look = (): void => {
        if (settled) return;
        const waited = this.#waited(turn);
        if (waited >= this.#timeoutMs) setImmediate(confirm);
        else wait(waited);
      };
      // In the check phase, after a poll phase that began once the timeout had passed: whatever
      // Redis sent before then has been read, so a command still unanswered was not answered in time.
      const confirm = (): void => {
        if (settled) return;
        const waited = this.#waited(turn);
        if (waited < this.#timeoutMs) return wait(waited); // Redis answered another command meanwhile
        settled = true;
        reject(new RedisSilentError(this.#timeoutMs));
      };
      wait(0);
      reply.then((value) => {
        clearTimeout(timer);
        if (settled) return;
        settled = true;
        this.#lastReplyAt = this.#now();
        resolve(value);
      }, (error: unknown) => {
        clearTimeout(timer);
        if (settled) return;
        settled = true;
        reject(error);
      });
    });
  }

  /** ms since Redis had a turn's commands: since they were written, or since its last reply if later; NaN until written. */
  #waited(turn: Turn): number {
    return this.#now() - Math.max(turn.writtenAt, this.#lastReplyAt);
  }

  /** Notes a reply that {@link send} does not see (the NOSCRIPT error before a reload). */
  replied(): void {
    this.#lastReplyAt = this.#now();
  }

  /** The turn that a command sent now belongs to; a new one closes in the next check phase. */
  #join(): Turn {
    let turn = this.#turn;
    if (turn === undefined) {
      turn = { writtenAt: Number.NaN, stamping: false };
      this.#turn = turn;
      // Scheduled before the send (so before the client's write, when this turn schedules it):
      // what is sent after the close is written by a later write and joins a later turn.
      setImmediate(() => { if (this.#turn === turn) this.#turn = undefined; });
    }
    return turn;
  }
}

/** Marks a turn's commands as written (runs just after the client's write). */
function stamp(turn: Turn, now: () => number): void {
  turn.writtenAt = now();
}
