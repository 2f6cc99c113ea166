/**
 * Memory that threads can share (docs/api.md §17: the threads that serve one version share its
 * bytes). A loaded version's large arrays (row bytes, row offsets and lengths, order keys, list
 * members, filter postings) are allocated here. Once {@link shareLoadedVersions} was called (by
 * the main thread of `serve --workers N` in threads), over a `SharedArrayBuffer`: posting such a
 * view to a worker thread hands over the same memory, where an ordinary one would be copied. A
 * shared buffer behaves as any other to the code that reads it (sockets, hashes, compression),
 * and the memory goes back when no thread refers to it any more. Otherwise (one process, or
 * node:cluster workers) the memory is ordinary, as before threads shared it: a process serving
 * alone has nothing to share it with. Node has no mmap, so processes cannot share memory; threads
 * of one process do.
 */

/** A typed array constructor this module allocates. */
export type SharedArrayCtor<T> = new (buffer: ArrayBufferLike, byteOffset: number, length: number) => T;

/**
 * Views at least this large that are not yet shared are copied to shared memory by
 * {@link toShared}; smaller ones are left for `postMessage` to copy (a shared buffer per small
 * view would cost more than the copy).
 */
export const SHARE_MIN_BYTES = 64 * 1024;

let sharing = false;

/** From now on, {@link sharedBytes} and {@link sharedArray} allocate shared memory (for this thread's loads). */
export function shareLoadedVersions(): void {
  sharing = true;
}

/**
 * `n` bytes for a loaded version, as a Buffer: shared memory, zero-filled, once
 * {@link shareLoadedVersions} was called; else ordinary memory, not filled.
 *
 * @param n - bytes, 0 or more.
 */
export function sharedBytes(n: number): Buffer {
  return sharing ? Buffer.from(new SharedArrayBuffer(n), 0, n) : Buffer.allocUnsafeSlow(n);
}

/**
 * A typed array of `n` elements for a loaded version, zero-filled: over shared memory once
 * {@link shareLoadedVersions} was called, else ordinary.
 *
 * @param Ctor - e.g. `Int32Array`.
 * @param n - elements, 0 or more.
 */
export function sharedArray<T extends { readonly BYTES_PER_ELEMENT: number }>(Ctor: SharedArrayCtor<T> & { readonly BYTES_PER_ELEMENT: number }, n: number): T {
  const bytes = n * Ctor.BYTES_PER_ELEMENT;
  return new Ctor(sharing ? new SharedArrayBuffer(bytes) : new ArrayBuffer(bytes), 0, n);
}

/** Whether the view's memory is shared (posting it to a thread hands over the same bytes). */
export function isShared(view: ArrayBufferView): boolean {
  return view.buffer instanceof SharedArrayBuffer;
}

/**
 * The view itself when it is shared or smaller than {@link SHARE_MIN_BYTES}; else a copy of
 * it in shared memory, of the same type.
 */
export function toShared<T extends ArrayBufferView>(view: T): T {
  if (isShared(view) || view.byteLength < SHARE_MIN_BYTES) return view;
  const bytes = Buffer.from(new SharedArrayBuffer(view.byteLength), 0, view.byteLength);
  bytes.set(new Uint8Array(view.buffer, view.byteOffset, view.byteLength));
  const Ctor = view.constructor as unknown as new (buffer: ArrayBufferLike, byteOffset: number, length: number) => T;
  const element = (view as unknown as { BYTES_PER_ELEMENT?: number }).BYTES_PER_ELEMENT ?? 1;
  return Buffer.isBuffer(view) ? (bytes as unknown as T) : new Ctor(bytes.buffer, 0, view.byteLength / element);
}
