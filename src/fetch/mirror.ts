/**
 * The output folder as a mirror of EDGAR: a document is fetched unless the folder already holds
 * it. Filing documents never change once accepted (an amendment is a new accession number), so
 * a held one is kept for good; files EDGAR rewrites in place (ticker files, submissions, company
 * facts, the nightly bulk zips) are fetched again once older than the refresh age. This is what
 * makes a run resumable: the second run after an interruption fetches only what is missing.
 */
import { stat } from 'node:fs/promises';
import type { EdgarClient, Validate } from './edgar-client.js';
import { fileOf, type EdgarLocation } from './edgar-paths.js';
import type { FetchTally } from './fetch-summary.js';

/** Whether EDGAR rewrites a file in place (`updated`) or never (`fixed`). */
export type Permanence = 'fixed' | 'updated';

/** Fetches into the output folder, skipping what it holds, and counts every outcome. */
export class Mirror {
  readonly #root: string;
  readonly #client: EdgarClient;
  readonly #tally: FetchTally;
  readonly #now: () => number;
  readonly #refreshAfterMs: number;

  /**
   * @param root - the output folder.
   * @param refreshAfterMs - age at which an `updated` file is fetched again; 0 always.
   */
  constructor(root: string, client: EdgarClient, tally: FetchTally, now: () => number, refreshAfterMs: number) {
    this.#root = root;
    this.#client = client;
    this.#tally = tally;
    this.#now = now;
    this.#refreshAfterMs = refreshAfterMs;
  }

  /** The URL of a location, for messages. */
  url(location: EdgarLocation): string {
    return this.#client.url(location);
  }

  /**
   * Makes sure the folder holds a document.
   *
   * @param validate - checks a fresh download before it replaces anything.
   * @returns its file when the folder holds it afterwards (an `updated` file whose refresh failed
   *   keeps its older copy), else undefined (404 or failure, counted).
   * @throws the abort reason; {@link UserAgentRefusedError}.
   */
  async ensure(location: EdgarLocation, permanence: Permanence, validate?: Validate): Promise<string | undefined> {
    const file = fileOf(this.#root, location);
    const held = await stat(file).catch(() => undefined);
    const fresh = held?.isFile() === true
      && (permanence === 'fixed' || (this.#refreshAfterMs > 0 && this.#now() - held.mtimeMs < this.#refreshAfterMs));
    if (fresh) {
      this.#tally.count({ status: 'held' });
      return file;
    }
    const result = await this.#client.download(location, file, validate);
    this.#tally.count(result);
    return result.status === 'fetched' || (result.status === 'failed' && held?.isFile()) ? file : undefined;
  }
}
