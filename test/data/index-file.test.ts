/**
 * The index file container (docs/api.md §17): named, typed, 8-byte aligned sections that read
 * back as written, from memory or from a file, and a file that is not exactly such a container
 * is refused whole.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { decodeIndex, encodeIndex, writeIndexFile, INDEX_MAGIC, type IndexSection } from '../../src/data/index-file.js';
import { readIndexFile } from '../../src/data/index-file-reader.js';
import { SnapshotError } from '../../src/data/snapshot-format.js';

const sectionArbitrary: fc.Arbitrary<IndexSection> = fc.oneof(
  fc.uint8Array({ maxLength: 40 }).map((values) => ({ name: '', type: 'u8' as const, values })),
  fc.string({ maxLength: 20 }).map((text) => ({ name: '', type: 'utf8' as const, values: new Uint8Array(Buffer.from(text)) })),
  fc.array(fc.integer({ min: -(2 ** 31), max: 2 ** 31 - 1 }), { maxLength: 20 }).map((n) => ({ name: '', type: 'i32' as const, values: Int32Array.from(n) })),
  fc.array(fc.nat({ max: 2 ** 32 - 1 }), { maxLength: 20 }).map((n) => ({ name: '', type: 'u32' as const, values: Uint32Array.from(n) })),
  fc.array(fc.double(), { maxLength: 10 }).map((n) => ({ name: '', type: 'f64' as const, values: Float64Array.from(n) })),
);
const sectionsArbitrary = fc.array(sectionArbitrary, { maxLength: 6 }).map((list) => list.map((s, i) => ({ ...s, name: `part.${i}:${s.type}` })));

function assertSameSections(actual: ReadonlyMap<string, IndexSection>, expected: readonly IndexSection[]): void {
  assert.deepEqual([...actual.keys()], expected.map((s) => s.name));
  for (const section of expected) {
    const got = actual.get(section.name)!;
    assert.equal(got.type, section.type);
    assert.equal(got.values.constructor, section.values.constructor);
    assert.deepEqual([...got.values].map(String), [...section.values].map(String), section.name);
    assert.equal(got.values.byteOffset % 8, 0, 'every section is 8-byte aligned');
  }
}

const decodeError = (bytes: Uint8Array): string => {
  try {
    decodeIndex(bytes, 'x.index');
  } catch (error) {
    assert.ok(error instanceof SnapshotError, String(error));
    return error.message;
  }
  assert.fail('decoded');
};

test('sections of every type read back as written, from memory and from a file, aligned', async (t) => {
  const dir = await mkdtemp(join(tmpdir(), 'eqf-index-file-'));
  t.after(() => rm(dir, { recursive: true, force: true }));
  let n = 0;
  await fc.assert(fc.asyncProperty(sectionsArbitrary, async (sections) => {
    const bytes = Buffer.concat(encodeIndex(sections));
    assert.equal(bytes.length % 8, 0);
    assert.equal(bytes.toString('latin1', 0, 8), INDEX_MAGIC);
    assertSameSections(decodeIndex(bytes, 'x.index').sections, sections);
    // From a buffer whose start is not 8-aligned: the sections are copied to aligned memory.
    const shifted = Buffer.alloc(bytes.length + 3).subarray(3);
    bytes.copy(shifted);
    assertSameSections(decodeIndex(shifted, 'x.index').sections, sections);
    const file = join(dir, `${n++}.index`);
    const entry = await writeIndexFile(file, sections);
    assert.deepEqual(entry, { sha256: createHash('sha256').update(bytes).digest('hex'), bytes: bytes.length });
    assertSameSections((await readIndexFile(file, entry)).sections, sections);
  }), { numRuns: 60 });
});

test('typed getters give a section by name, and refuse one that is missing or of another type', () => {
  const index = decodeIndex(Buffer.concat(encodeIndex([
    { name: 'a', type: 'u32', values: Uint32Array.of(1, 2) }, { name: 'b', type: 'utf8', values: Buffer.from('["é"]') },
  ])), 'x.index');
  assert.deepEqual([...index.u32('a')], [1, 2]);
  assert.equal(index.utf8('b'), '["é"]');
  assert.ok(index.has('a') && !index.has('c'));
  assert.throws(() => index.i32('a'), /x\.index: section a is u32, expected i32/);
  assert.throws(() => index.u8('c'), /x\.index: has no section c/);
});

test('a file cut short anywhere, or with a byte after its last section, is refused', () => {
  const bytes = Buffer.concat(encodeIndex([
    { name: 'lengths', type: 'u32', values: Uint32Array.of(5, 6, 7) }, { name: 'text', type: 'utf8', values: Buffer.from('abc') },
  ]));
  for (let cut = 0; cut < bytes.length; cut++) decodeError(bytes.subarray(0, cut));
  assert.match(decodeError(Buffer.concat([bytes, Buffer.alloc(8)])), /is \d+ bytes, its sections end at \d+/);
});

test('a header, table or padding that is not exactly the format is refused, naming what is wrong', () => {
  const valid = (): Buffer => Buffer.concat(encodeIndex([{ name: 'n', type: 'u8', values: Uint8Array.of(1, 2, 3) }]));
  const tableOf = (bytes: Buffer): string => bytes.toString('utf8', 16, 16 + bytes.readUInt32LE(12));
  const withTable = (text: string): Buffer => {
    const table = Buffer.from(text);
    const head = Buffer.alloc(Math.ceil((16 + table.length) / 8) * 8);
    head.write(INDEX_MAGIC, 'latin1');
    head.writeUInt32LE(1, 8);
    head.writeUInt32LE(table.length, 12);
    table.copy(head, 16);
    return head;
  };
  const bytes = valid();
  const magic = Buffer.from(bytes);
  magic[0] = 0x58;
  assert.match(decodeError(magic), /not an index file/);
  const version = Buffer.from(bytes);
  version.writeUInt32LE(2, 8);
  assert.match(decodeError(version), /index format version is 2, expected 1/);
  const huge = Buffer.from(bytes);
  huge.writeUInt32LE(0x7fffffff, 12);
  assert.match(decodeError(huge), /section table of \d+ bytes does not fit/);
  assert.match(decodeError(withTable('{"n":1}')), /section table is not an array/);
  assert.match(decodeError(withTable('[{')), /section table is not JSON/);
  assert.match(decodeError(withTable('[{"name":"n","type":"u16","offset":24,"count":0}]')), /type "u16" is not one of/);
  assert.match(decodeError(withTable('[{"name":"n/x","type":"u8","offset":24,"count":0}]')), /name is missing, invalid or repeated/);
  assert.match(decodeError(withTable(tableOf(bytes).replace('"offset":', '"offset":1'))), /offset \d+ is not \d+/);
  const count = Buffer.from(bytes);
  count.write(tableOf(bytes).replace('"count":3', '"count":9'), 16);
  assert.match(decodeError(count), /section n ends past the end of the file/);
  const padding = Buffer.from(bytes);
  padding[padding.length - 1] = 1;
  assert.match(decodeError(padding), /padding after section n is not zero/);
  const text = Buffer.concat(encodeIndex([{ name: 't', type: 'utf8', values: Uint8Array.of(0xff, 0xfe) }]));
  assert.match(decodeError(text), /section t is not valid UTF-8/);
});

test('reading a file checks its size and SHA-256 against the manifest before anything is used', async (t) => {
  const dir = await mkdtemp(join(tmpdir(), 'eqf-index-file-'));
  t.after(() => rm(dir, { recursive: true, force: true }));
  const file = join(dir, 'k.index');
  const entry = await writeIndexFile(file, [{ name: 'n', type: 'i32', values: Int32Array.of(-1, 7) }]);
  await assert.rejects(readIndexFile(file, { ...entry, bytes: entry.bytes + 8 }), /k\.index: is \d+ bytes, manifest says \d+/);
  await assert.rejects(readIndexFile(file, { ...entry, sha256: '0'.repeat(64) }), /k\.index: sha256 is [0-9a-f]{64}, manifest says 0{64}/);
  // A file whose table no longer parses: refused by its SHA-256 while the manifest names other
  // bytes, by the check that fails once the manifest names these.
  const bytes = await readFile(file);
  bytes[16] = 0x7b; // the table's opening [ made a {
  await writeFile(file, bytes);
  await assert.rejects(readIndexFile(file, entry), /k\.index: sha256 is [0-9a-f]{64}, manifest says/);
  await assert.rejects(readIndexFile(file, { ...entry, sha256: createHash('sha256').update(bytes).digest('hex') }), /k\.index: section table is not JSON/);
  await writeFile(file, 'short');
  await assert.rejects(readIndexFile(file, { sha256: createHash('sha256').update('short').digest('hex'), bytes: 5 }), /k\.index: is not an index file/);
  await assert.rejects(readIndexFile(join(dir, 'none.index'), entry), /none\.index: cannot read: ENOENT/);
});

test('the writer refuses a repeated or invalid name, and values of another type', () => {
  assert.throws(() => encodeIndex([{ name: 'a', type: 'u8', values: Uint8Array.of() }, { name: 'a', type: 'u8', values: Uint8Array.of() }]), /invalid or repeated/);
  assert.throws(() => encodeIndex([{ name: 'a b', type: 'u8', values: Uint8Array.of() }]), /invalid or repeated/);
  assert.throws(() => encodeIndex([{ name: 'a', type: 'i32', values: Uint32Array.of(1) }]), /values are not i32/);
});
