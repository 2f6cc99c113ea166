/**
 * Holds the current value of a file-backed resource (the snapshot, the keys file) and replaces
 * it on request or when a watched file changes. A new value is loaded and checked whole before
 * the one reference is swapped; a failed load leaves the old value serving (docs/api.md §4, §7).
 */
import { EventEmitter } from 'node:events';
import { unwatchFile, watchFile, type Stats } from 'node:fs';
import type { LogSink } from '../ops/logger.js';

/** How to load the resource and what to watch. */
export interface ReloaderOptions<T> {
  /** Name for log lines, e.g. "snapshot". */
  name: string;
  /** Loads and checks a complete new value; rejects when the source is broken. */
  load: () => Promise<T>;
  /** File whose change triggers a reload (CURRENT, or the keys file). */
  watchPath: string;
  /** Poll interval of the watch in ms (fs.watchFile; survives rename-replace). */
  watchIntervalMs: number;
  /** One-line description of a loaded value for the log, e.g. "version 2026-11-21". */
  describe: (value: T) => string;
  /** The operational log. */
  log: LogSink;
  /**
   * Optional cheap check before a reload: resolves true when the source still names the value
   * in use, so the load is skipped (a snapshot version is immutable; re-reading it is waste).
   */
  unchanged?: (current: T) => Promise<boolean>;
}

/**
 * A hot-reloadable value. Emits `reloaded` (value) after a swap, `unchanged` (value) when the
 * source still names the value in use, and `refused` (error) when a reload failed and the old
 * value stayed.
 */
export class Reloader<T> extends EventEmitter {
  private value: T | undefined;
  private running: Promise<boolean> | undefined;
  private again = false;
  private watching = false;

  constructor(private readonly options: ReloaderOptions<T>) {
    super();
  }

  /** The value in use; undefined before the first successful load. */
  get current(): T | undefined {
    return this.value;
  }

  /**
   * First load. Unlike {@link reload}, a failure is thrown: at start-up a broken source stops
   * the process.
   */
  async start(): Promise<T> {
    const value = await this.options.load();
    this.value = value;
    this.options.log(`${this.options.name}: loaded ${this.options.describe(value)}`);
    return value;
  }

  /**
   * Loads a new value and swaps it in. Concurrent calls are coalesced: at most one load runs,
   * and a call during a load schedules one more after it.
   *
   * @returns true when the new value is in use, false when it was refused.
   */
  reload(): Promise<boolean> {
    if (this.running) {
      this.again = true;
      return this.running;
    }
    this.running = this.loadOnce().finally(() => {
      this.running = undefined;
      if (this.again) {
        this.again = false;
        void this.reload();
      }
    });
    return this.running;
  }

  /** Starts watching `watchPath`; a change of its mtime, size or inode triggers {@link reload}. */
  watch(): void {
    if (this.watching) return;
    this.watching = true;
    watchFile(this.options.watchPath, { interval: this.options.watchIntervalMs, persistent: false }, this.onChange);
  }

  /** Stops watching. */
  close(): void {
    if (!this.watching) return;
    this.watching = false;
    unwatchFile(this.options.watchPath, this.onChange);
  }

  private readonly onChange = (now: Stats, before: Stats): void => {
    if (now.mtimeMs === before.mtimeMs && now.ino === before.ino && now.size === before.size) return;
    void this.reload();
  };

  private async loadOnce(): Promise<boolean> {
    try {
      const current = this.value;
      if (current !== undefined && this.options.unchanged && await this.options.unchanged(current)) {
        this.options.log(`${this.options.name}: still ${this.options.describe(current)}; nothing to reload`);
        this.emit('unchanged', current);
        return true;
      }
      const value = await this.options.load();
      this.value = value;
      this.options.log(`${this.options.name}: reloaded ${this.options.describe(value)}`);
      this.emit('reloaded', value);
      return true;
    } catch (error) {
      this.options.log(`${this.options.name}: reload refused, still serving the previous one: ${(error as Error).message}`, 'warn');
      this.emit('refused', error);
      return false;
    }
  }
}
