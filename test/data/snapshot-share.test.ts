/**
 * A loaded version handed to a thread (docs/api.md §17: the threads serving one version share its
 * bytes): packed, posted through a real message port and rebuilt, it serves the same pages and
 * filter indexes as the original, and the row bytes, offsets, keys, members and postings arrive
 * as the same memory, not copies.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { MessageChannel, type MessagePort } from 'node:worker_threads';
import { once } from 'node:events';
import { loadSnapshot, type SnapshotIndex } from '../../src/data/snapshot-index.js';
import { packSnapshot, unpackSnapshot, type PackedSnapshot } from '../../src/data/snapshot-share.js';
import { pageBytes, type Variant } from '../../src/data/page.js';
import { isShared, SHARE_MIN_BYTES, shareLoadedVersions } from '../../src/data/shared-memory.js';
import { ROW_KINDS } from '../../src/rows/schemas.js';
import { tempVersion } from '../helpers/snapshot-files.js';

// As the main thread of `serve --workers N` does before it loads a version.
shareLoadedVersions();

/** Posts `packed` through a message port, as the main thread posts it to a thread. */
async function posted(packed: PackedSnapshot): Promise<PackedSnapshot> {
  const { port1, port2 } = new MessageChannel();
  try {
    const arrived = once(port2 as MessagePort, 'message');
    port1.postMessage(packed);
    return (await arrived)[0] as PackedSnapshot;
  } finally {
    port1.close();
  }
}

/** Every page of every list (all keys), in both variants, at a few sizes; and every filter index. */
function everything(snapshot: SnapshotIndex, keys: ReadonlyMap<string, readonly (string | null)[]>): string[] {
  const out: string[] = [];
  for (const kind of ROW_KINDS) {
    for (const key of [null, ...keys.get(kind)!, 'NO-SUCH-KEY']) {
      const list = snapshot.list(kind, key);
      for (const size of [1, 3, 100]) {
        for (const variant of ['full', 'facts'] as Variant[]) {
          for (let at = 0; at < list.length; at += size) out.push(`${kind} ${key} ${variant} ${at}: ${pageBytes(list, variant, at, Math.min(size, list.length - at)).toString()}`);
        }
      }
    }
    const { postings, dates } = snapshot.filters[kind];
    for (const [name, p] of postings) for (const value of p.values) out.push(`${kind} ${name} ${value}: ${p.get(value)!.join(',')}`);
    for (const [field, days] of dates) out.push(`${kind} ${field}: ${days.join(',')}`);
  }
  return out;
}

/** The typed arrays of a posted snapshot that are not shared memory, with their sizes. */
function unshared(value: unknown, path = 'packed', out: string[] = []): string[] {
  if (ArrayBuffer.isView(value)) {
    if (!isShared(value) && value.byteLength >= SHARE_MIN_BYTES) out.push(`${path} (${value.byteLength} bytes)`);
  } else if (value instanceof Map) {
    for (const [key, entry] of value) unshared(entry, `${path}.${String(key)}`, out);
  } else if (value !== null && typeof value === 'object') {
    for (const [key, entry] of Object.entries(value)) unshared(entry, `${path}.${key}`, out);
  }
  return out;
}

for (const indexes of [true, false]) {
  test(`a version ${indexes ? 'with' : 'without'} index files, posted to a thread and rebuilt, serves the same pages and filters over the same memory`, async (t) => {
    // A small split: the rows of a kind span several chunks, as past 1 GiB.
    const original = await loadSnapshot((await tempVersion(t, indexes)).root, undefined, { splitBytes: 2048, rowsIn: 'memory' });
    const packed = packSnapshot(original);
    const arrived = await posted(packed);
    const rebuilt = unpackSnapshot(arrived);
    const keys = new Map(ROW_KINDS.map((kind) => [kind, packed.kinds[kind].byKey.keys]));
    assert.ok(packed.kinds.filings.table.chunks.length > 1, 'several chunks');
    assert.deepEqual(everything(rebuilt, keys), everything(original, keys));
    assert.equal(rebuilt.tag, original.tag);
    assert.deepEqual(rebuilt.rowCounts, original.rowCounts);

    // The same memory: a byte written through the thread's view is read through the original's.
    const sent = packed.kinds.filings.table.chunks[0]!;
    const received = arrived.kinds.filings.table.chunks[0]!;
    assert.ok(isShared(received));
    const before = sent[0]!;
    received[0] = before ^ 0xff;
    assert.equal(sent[0], before ^ 0xff);
    received[0] = before;
  });
}

test('a version whose rows are read from their files, posted to a thread and rebuilt, serves the same pages through a descriptor of its own', async (t) => {
  const { root } = await tempVersion(t, true);
  const original = await loadSnapshot(root);
  const packed = packSnapshot(original);
  const arrived = await posted(packed);
  const rebuilt = unpackSnapshot(arrived);
  const keys = new Map(ROW_KINDS.map((kind) => [kind, packed.kinds[kind].byKey.keys]));
  assert.deepEqual(everything(rebuilt, keys), everything(original, keys));
  const mine = original.list('filings', null).table.file!;
  const theirs = rebuilt.list('filings', null).table.file!;
  assert.equal(theirs.path, mine.path);
  assert.notEqual(theirs.fd, mine.fd, 'each thread opens the file again');
  assert.ok(isShared(arrived.kinds.filings.table.file!.positions), 'the positions are shared');
});

test('every array of a loaded version that a thread receives is shared memory, or smaller than the copy threshold', async (t) => {
  const packed = packSnapshot(await loadSnapshot((await tempVersion(t, true)).root, undefined, { rowsIn: 'memory' }));
  assert.deepEqual(unshared(await posted(packed)), []);
  // The row bytes are shared whatever their size.
  for (const kind of ROW_KINDS) for (const chunk of packed.kinds[kind].table.chunks) assert.ok(isShared(chunk), kind);
});
