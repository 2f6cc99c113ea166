/**
 * Reading and rewriting the keys file for the `keys` commands. Every change is an atomic rewrite:
 * the new text is checked by the same parser the server uses, written to a temporary file in the
 * same folder with the file's own mode, then renamed over the file, so that a running server
 * never reads half a file or an invalid one, and a failed write leaves the old file whole.
 */
import { chmod, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { KEYS_FORMAT, KeysFileError, parseKeysFile, readKeysFile, unreadableKeysFile, type KeyRecord } from './keys-file.js';
import type { KeyChange } from './key-changes.js';
import { withKeysFileLock } from './keys-file-lock.js';

/** Mode of a keys file the commands create: read and write for its owner only (it names accounts). */
const NEW_FILE_MODE = 0o600;

/**
 * The entries of a keys file, or none when the file does not exist yet (`keys add` creates it).
 *
 * @throws KeysFileError when the file exists but cannot be read or fails a check.
 */
export async function readRecordsOrNone(file: string): Promise<readonly KeyRecord[]> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw unreadableKeysFile(file, error);
  }
  return parseKeysFile(text, file).records;
}

/**
 * Writes a keys file atomically after checking that it parses: a temporary file beside it
 * (same folder, so the rename cannot cross file systems), given the mode of the file it replaces
 * (0600 for a new file), then renamed over it.
 *
 * @param file - destination path.
 * @param records - the entries, in order.
 * @throws KeysFileError when the entries fail the file's checks (nothing is written then), or
 *   when the folder cannot be written (the temporary file is removed, the old file is untouched).
 */
export async function writeKeysFile(file: string, records: readonly KeyRecord[]): Promise<void> {
  const text = `${JSON.stringify({ format: KEYS_FORMAT, keys: records }, null, 2)}\n`;
  parseKeysFile(text, file);
  const mode = await stat(file).then((stats) => stats.mode & 0o7777, () => NEW_FILE_MODE);
  const temp = join(dirname(file), `.${basename(file)}.${process.pid}.tmp`);
  try {
    await writeFile(temp, text, { mode });
    // writeFile's mode passes through the umask; the file's own mode is meant exactly.
    await chmod(temp, mode);
    await rename(temp, file);
  } catch (error) {
    await rm(temp, { force: true });
    throw new KeysFileError(file, `cannot write: ${(error as NodeJS.ErrnoException).code ?? String(error)}`);
  }
}

/**
 * Makes one change to a keys file as its only writer of the moment: takes the file's lock
 * (`keys-file-lock.ts`), reads and checks the file, applies `step`, writes the result atomically
 * ({@link writeKeysFile}), releases the lock. Two writers (a `keys` command and the developer
 * portal, or two commands) so never drop each other's change.
 *
 * @param step - the change, from the entries on disk (see `key-changes.ts`); what it throws is
 *   thrown, and nothing is written.
 * @param createIfMissing - a missing file counts as one with no entries (`keys add`); otherwise it
 *   is an error.
 * @returns the change's result, once the file holding it is in place.
 * @throws KeysFileError when the file cannot be read, fails its checks, cannot be written, or
 *   another writer holds its lock too long.
 */
export async function changeKeysFile<T>(file: string, step: (records: readonly KeyRecord[]) => KeyChange<T>, createIfMissing = false): Promise<T> {
  return withKeysFileLock(file, async () => {
    const records = createIfMissing ? await readRecordsOrNone(file) : (await readKeysFile(file)).records;
    const change = step(records);
    await writeKeysFile(file, change.records);
    return change.result;
  });
}
