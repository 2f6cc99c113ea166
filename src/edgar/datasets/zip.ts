/**
 * Zip archives as SEC publishes its bulk products (`submissions.zip`, `companyfacts.zip`, the
 * quarterly data sets), read with yauzl one entry at a time from the central directory, each
 * entry streamed: an archive of several GB is never held in memory.
 */
import type { Readable } from 'node:stream';
import yauzl from 'yauzl';

/** The first bytes of a zip file (local file header signature, APPNOTE.TXT 4.3.7). */
export const isZip = (head: Uint8Array): boolean => head.length >= 4 && head[0] === 0x50 && head[1] === 0x4b && head[2] === 0x03 && head[3] === 0x04;

/** One file in an archive. */
export interface ZipEntry {
  /** Its path inside the archive. */
  name: string;
  /** Uncompressed size in bytes, as the central directory gives it. */
  size: number;
  /** Opens its content, decompressed (yauzl checks the size and the CRC as it reads). */
  open(): Promise<Readable>;
}

/**
 * Visits every file of an archive in the order of its central directory; folders are passed over.
 *
 * @param path - the archive.
 * @param onEntry - called for each file, one at a time; the next entry is read when it resolves.
 * @throws Error when the file is not a readable zip archive.
 */
export function readZip(path: string, onEntry: (entry: ZipEntry) => Promise<void>): Promise<void> {
  return new Promise((resolve, reject) => {
    yauzl.open(path, { lazyEntries: true, autoClose: true }, (error, zip) => {
      if (error || !zip) {
        reject(new Error(`not a readable zip archive: ${error?.message ?? 'unknown error'}`));
        return;
      }
      let failed = false;
      const fail = (cause: unknown): void => {
        if (failed) return;
        failed = true;
        zip.close();
        reject(cause instanceof Error ? cause : new Error(String(cause)));
      };
      zip.on('error', fail);
      zip.on('end', () => { if (!failed) resolve(); });
      zip.on('entry', (entry: yauzl.Entry) => {
        if (entry.fileName.endsWith('/')) {
          zip.readEntry();
          return;
        }
        const open = (): Promise<Readable> => new Promise((done, refuse) => {
          zip.openReadStream(entry, (streamError, stream) => (streamError || !stream ? refuse(streamError ?? new Error('no stream')) : done(stream)));
        });
        onEntry({ name: entry.fileName, size: entry.uncompressedSize, open }).then(() => zip.readEntry(), fail);
      });
      zip.readEntry();
    });
  });
}

/** Reads a whole stream as UTF-8 text. */
export async function streamText(stream: Readable): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}
