/**
 * SEC's bulk products among the inputs, streamed by the main thread rather than read whole:
 * zip archives (`submissions.zip`, `companyfacts.zip`, the quarterly data sets, or any zip of
 * EDGAR files) one entry at a time, and data-set tables (TSV) row by row, zipped or unpacked.
 * Each is recognised by its content: a zip by its signature, a table by its header row, an
 * archive's other entries as the files they are (file-extract.ts). The tables of one data set
 * (one folder, or one archive) are assembled together (data-sets.ts).
 */
import { createReadStream } from 'node:fs';
import { open, readFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import { Readable } from 'node:stream';
import { recogniseTable, type DataSetTable } from '../edgar/datasets/data-set-tables.js';
import { TsvColumns, looksLikeTsv } from '../edgar/datasets/tsv.js';
import { isZip, readZip, type ZipEntry } from '../edgar/datasets/zip.js';
import { DataSetAssembly } from './data-sets.js';
import { emptyExtract, extractText, type FileExtract } from './file-extract.js';

/** Files larger than this go straight to the main thread, which looks at their first bytes before reading them whole. */
export const LARGE_FILE_BYTES = 64 * 1024 * 1024;
/** The largest document read whole (an archive entry or a file that is neither a zip nor a table): V8's strings stop near 512 MiB. */
export const MAX_TEXT_BYTES = 256 * 1024 * 1024;

/** Receives what bulk inputs gave, and how many input files it stands for. */
export type ExtractSink = (extract: FileExtract, files: number) => void;

const skippedExtract = (path: string, reason: string): FileExtract => {
  const extract = emptyExtract();
  extract.skipped.push({ path, reason });
  return extract;
};

/** Reads bulk inputs; call {@link BulkInputs.finish} after the last one. */
export class BulkInputs {
  readonly #sink: ExtractSink;
  readonly #assemblies = new Map<string, { assembly: DataSetAssembly; failed: string | null; source: string }>();

  constructor(sink: ExtractSink) {
    this.#sink = sink;
  }

  /**
   * Reads a file that is large, or that a worker found to be a zip or a table.
   *
   * @param path - the file.
   */
  async readFile(path: string): Promise<void> {
    let head: Buffer;
    let size: number;
    try {
      const handle = await open(path, 'r');
      try {
        size = (await handle.stat()).size;
        head = Buffer.alloc(Math.min(size, 64 * 1024));
        await handle.read(head, 0, head.length, 0);
      } finally {
        await handle.close();
      }
    } catch (error) {
      this.#sink(skippedExtract(path, `cannot read: ${(error as NodeJS.ErrnoException).code ?? String(error)}`), 1);
      return;
    }
    if (isZip(head)) {
      this.#sink(emptyExtract(), 1);
      try {
        await readZip(path, (entry) => this.#readEntry(path, entry));
      } catch (error) {
        this.#sink(skippedExtract(path, `malformed: ${(error as Error).message}`), 0);
        // A data set in an archive that breaks off is refused whole, as one with a table that cannot be read.
        for (const entry of this.#assemblies.values()) if (entry.source === path) entry.failed ??= `malformed data set archive ${path}: ${(error as Error).message}`;
      }
      return;
    }
    if (looksLikeTsv(head.toString('utf8', 0, 4096))) {
      this.#sink(emptyExtract(), 1);
      await this.#readTable(path, dirname(path), createReadStream(path));
      return;
    }
    if (size > MAX_TEXT_BYTES) {
      this.#sink(skippedExtract(path, `larger than ${MAX_TEXT_BYTES / 1024 / 1024} MiB and neither a zip archive nor a data-set table`), 1);
      return;
    }
    this.#sink(extractText(path, await readFile(path, 'utf8')), 1);
  }

  async #readEntry(archive: string, entry: ZipEntry): Promise<void> {
    const name = `${archive}/${entry.name}`;
    const stream = await entry.open();
    const chunks = stream[Symbol.asyncIterator]();
    const first = await chunks.next();
    const head = first.done ? Buffer.alloc(0) : (first.value as Buffer);
    const rest = Readable.from((async function* () {
      if (head.length > 0) yield head;
      for (let next = await chunks.next(); !next.done; next = await chunks.next()) yield next.value as Buffer;
    })());
    if (looksLikeTsv(head.toString('utf8', 0, 4096))) {
      await this.#readTable(name, archive, rest);
      return;
    }
    if (entry.size > MAX_TEXT_BYTES) {
      rest.destroy();
      this.#sink(skippedExtract(name, `archive entry larger than ${MAX_TEXT_BYTES / 1024 / 1024} MiB`), 0);
      return;
    }
    const parts: Buffer[] = [];
    for await (const chunk of rest) parts.push(chunk as Buffer);
    const extract = extractText(name, Buffer.concat(parts).toString('utf8'));
    this.#sink(extract.deferred ? skippedExtract(name, 'an archive or table inside an archive is not read') : extract, 0);
  }

  /** Reads one table into the data set of its folder or archive. */
  async #readTable(path: string, source: string, input: Readable): Promise<void> {
    const { table, stream } = await recogniseStream(input);
    if (!table) {
      stream.destroy();
      this.#sink(skippedExtract(path, 'tab-separated table that is none of the Insider Transactions or Form 13F Data Sets tables'), 0);
      return;
    }
    const key = `${table.kind}\u0000${source}`;
    let entry = this.#assemblies.get(key);
    if (!entry) this.#assemblies.set(key, (entry = { assembly: new DataSetAssembly(source, table.kind), failed: null, source }));
    try {
      await entry.assembly.addTable(table, stream);
    } catch (error) {
      // A data set with a table that cannot be read is refused whole: half its rows would be wrong rows.
      entry.failed ??= `malformed data set table ${path}: ${(error as Error).message}`;
    }
  }

  /** Hands over every data set read. */
  finish(): void {
    for (const { assembly, failed, source } of this.#assemblies.values()) {
      this.#sink(failed ? skippedExtract(source, failed) : assembly.finish(), 0);
    }
    this.#assemblies.clear();
  }
}

/** Reads a table's header row and gives the stream back whole. */
async function recogniseStream(input: Readable): Promise<{ table: DataSetTable | null; stream: Readable }> {
  const chunks: Buffer[] = [];
  const iterator = input[Symbol.asyncIterator]();
  let text = '';
  for (let next = await iterator.next(); !next.done; next = await iterator.next()) {
    chunks.push(next.value as Buffer);
    text += (next.value as Buffer).toString('latin1');
    if (text.includes('\n') || text.length > 1_000_000) break;
  }
  const header = text.replace(/^\uFEFF|^\u00EF\u00BB\u00BF/, '').split('\n', 1)[0]!.replace(/\r$/, '').split('\t');
  const stream = Readable.from((async function* () {
    yield* chunks;
    for (let next = await iterator.next(); !next.done; next = await iterator.next()) yield next.value as Buffer;
  })());
  return { table: recogniseTable(new TsvColumns(header)), stream };
}
