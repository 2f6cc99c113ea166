/**
 * Memory that threads can share (docs/api.md §17: the threads that serve one version share its
 * bytes). A loaded version's large arrays (row bytes, row offsets and lengths, order keys, list
 * members, filter postings) are allocated here, over a `SharedArrayBuffer`: posting such a view
 * to a worker thread hands over the same memory, where an ordinary one would be copied. A
 * shared buffer behaves as any other to the code that reads it (sockets, hashes, compression),
 * and the memory goes back when no thread refers to it any more. Node has no mmap, so processes
 * cannot share it; threads of one process do.
 */

/** A typed array constructor this module allocates. */
export type SharedArrayCtor<T> = new (buffer: SharedArrayBuffer, byteOffset: number, length: number) => T;

/**
 * Views at least this large that are not yet shared are copied to shared memory by
 * {@link toShared}; smaller ones are left for `postMessage` to copy (a shared buffer per small
 * view would cost more than the copy).
 */
export const SHARE_MIN_BYTES = 64 * 1024;

/**
 * `n` bytes of shared memory, as a Buffer. Zero-filled (the operating system's fresh pages).
 *
 * @param n - bytes, 0 or more.
 */
export function sharedBytes(n: number): Buffer {
  return Buffer.from(new SharedArrayBuffer(n), 0, n);
}

/**
 * A typed array of `n` elements over shared memory, zero-filled.
 *
 * @param Ctor - e.g. `Int32Array`.
 * @param n - elements, 0 or more.
 */
export function sharedArray<T extends { readonly BYTES_PER_ELEMENT: number }>(Ctor: SharedArrayCtor<T> & { readonly BYTES_PER_ELEMENT: number }, n: number): T {
  return new Ctor(new SharedArrayBuffer(n * Ctor.BYTES_PER_ELEMENT), 0, n);
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
  const bytes = sharedBytes(view.byteLength);
  bytes.set(new Uint8Array(view.buffer, view.byteOffset, view.byteLength));
  const Ctor = view.constructor as unknown as new (buffer: ArrayBufferLike, byteOffset: number, length: number) => T;
  const element = (view as unknown as { BYTES_PER_ELEMENT?: number }).BYTES_PER_ELEMENT ?? 1;
  return Buffer.isBuffer(view) ? (bytes as unknown as T) : new Ctor(bytes.buffer, 0, view.byteLength / element);
}
