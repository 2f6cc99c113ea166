/**
 * The load's SHA-256 beside the copies (docs/api.md §17): the pieces handed to a hasher, file
 * after file, give each file's SHA-256 whether hashed on a worker thread or inline, however the
 * files are cut into pieces and however often the worker's ring of pieces turns; and a version
 * whose rows differ from their manifest's SHA-256 is refused on either path.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import fc from 'fast-check';
import { freeCoreLikely, startHasher, RING_PIECES } from '../../src/data/piece-hasher.js';
import { loadSnapshot } from '../../src/data/snapshot-index.js';
import { SnapshotError } from '../../src/data/snapshot-format.js';
import { editFile, tempVersion } from '../helpers/snapshot-files.js';

/** Hands `files` to a hasher piece by piece, each piece `cut` bytes or less (the last of a file shorter), and returns each file's digest. */
async function digests(onWorker: boolean, pieceBytes: number, files: Uint8Array[], cuts: number[]): Promise<string[]> {
  const hasher = startHasher({ onWorker, pieceBytes });
  try {
    const out: string[] = [];
    let turn = 0;
    for (const file of files) {
      for (let at = 0; at < file.length;) {
        const piece = await hasher.next();
        assert.equal(piece.length, pieceBytes);
        const length = Math.min(cuts[turn++ % cuts.length]!, pieceBytes, file.length - at);
        piece.set(file.subarray(at, at + length));
        hasher.hash(length);
        at += length;
      }
      out.push(await hasher.digest());
    }
    return out;
  } finally {
    await hasher.close();
  }
}

test('pieces of several files give each file\'s SHA-256, on a worker and inline, whatever the cuts', async () => {
  await fc.assert(fc.asyncProperty(
    fc.array(fc.uint8Array({ maxLength: 300 }), { minLength: 1, maxLength: 6 }),
    fc.integer({ min: 1, max: 40 }),
    fc.array(fc.integer({ min: 0, max: 40 }), { minLength: 1, maxLength: 8 }).filter((cuts) => cuts.some((cut) => cut > 0)),
    async (files, pieceBytes, cuts) => {
      const expected = files.map((file) => createHash('sha256').update(file).digest('hex'));
      assert.deepEqual(await digests(true, pieceBytes, files, cuts), expected);
      assert.deepEqual(await digests(false, pieceBytes, files, cuts), expected);
    },
  ), { numRuns: 40 });
});

test('the worker\'s ring turns many times without a piece being reused before it is hashed', async () => {
  const file = Buffer.alloc(RING_PIECES * 64 * 50);
  for (let i = 0; i < file.length; i++) file[i] = (i * 7919) & 0xff;
  const [digest] = await digests(true, 64, [file], [64]);
  assert.equal(digest, createHash('sha256').update(file).digest('hex'));
});

test('a file with no pieces, and a hasher closed twice', async () => {
  const hasher = startHasher({ onWorker: true });
  assert.equal(await hasher.digest(), createHash('sha256').digest('hex'));
  await hasher.close();
  await hasher.close();
  assert.throws(() => startHasher({ pieceBytes: 0 }), /pieceBytes must be a whole number from 1/);
});

test('the hashing worker is used when a core is likely free: two or more cores, one left idle by the load average', () => {
  assert.equal(freeCoreLikely(1, 0), false);
  assert.equal(freeCoreLikely(2, 0.3), true);
  assert.equal(freeCoreLikely(2, 1), true);
  assert.equal(freeCoreLikely(2, 1.4), false);
  assert.equal(freeCoreLikely(8, 6.5), true);
  assert.equal(freeCoreLikely(8, 7.5), false);
});

for (const hashOnWorker of [true, false]) {
  test(`rows changed on disk are refused by their SHA-256, hashed ${hashOnWorker ? 'on a worker' : 'inline'}`, async (t) => {
    const { root, dir } = await tempVersion(t);
    const loaded = await loadSnapshot(root, undefined, { hashOnWorker });
    assert.ok(loaded.rowCounts.filings > 0);
    await editFile(dir, 'filings.ndjson', (bytes) => { bytes[bytes.length - 5]! ^= 1; return bytes; }, false);
    const error = await loadSnapshot(root, undefined, { hashOnWorker }).then(() => undefined, (e: unknown) => e);
    assert.ok(error instanceof SnapshotError, String(error));
    assert.match(error.message, /v1\/filings\.ndjson: sha256 is [0-9a-f]{64}, manifest says/);
  });
}
