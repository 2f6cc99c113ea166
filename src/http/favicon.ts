/**
 * The site icon, `/favicon.ico` (and the docs page's icon link): three rising bars on a navy
 * tile, drawn here as a 16×16 pixel map and written as an ICO with that image and its 32×32
 * double, so the package carries no binary file for it and a browser's automatic request for
 * `/favicon.ico` gets an icon rather than a 404.
 */

/** The icon, one string per row from the top: `.` transparent, `n` navy, `g` green, `w` white. */
export const FAVICON_PIXELS: readonly string[] = Object.freeze([
  '.nnnnnnnnnnnnnn.',
  'nnnnnnnnnnnnnnnn',
  'nnnnnnnnnnnnnnnn',
  'nnnnnnnnnnnggnnn',
  'nnnnnnnnnnnggnnn',
  'nnnnnnnnnnnggnnn',
  'nnnnnnnggnnggnnn',
  'nnnnnnnggnnggnnn',
  'nnnnnnnggnnggnnn',
  'nnnggnnggnnggnnn',
  'nnnggnnggnnggnnn',
  'nnnggnnggnnggnnn',
  'nnnggnnggnnggnnn',
  'nnwwwwwwwwwwwwnn',
  'nnnnnnnnnnnnnnnn',
  '.nnnnnnnnnnnnnn.',
]);

/** Colours of the map as [red, green, blue, alpha]. */
const COLOURS: Readonly<Record<string, readonly [number, number, number, number]>> = Object.freeze({
  '.': [0, 0, 0, 0],
  n: [0x1b, 0x2a, 0x41, 0xff],
  g: [0x49, 0xcc, 0x90, 0xff],
  w: [0xf4, 0xf6, 0xf8, 0xff],
});

/** The ICO's media type (IANA registers image/vnd.microsoft.icon; browsers and servers use this one). */
export const FAVICON_TYPE = 'image/x-icon';

/**
 * One image of the ICO: a BITMAPINFOHEADER, 32-bit BGRA pixels from the bottom row up, then the
 * 1-bit AND mask (rows padded to 32 bits; 1 = transparent), as the ICO format stores a bitmap.
 */
function bitmap(scale: number): Buffer {
  const size = FAVICON_PIXELS.length * scale;
  const maskRow = Math.ceil(size / 32) * 4;
  const out = Buffer.alloc(40 + size * size * 4 + maskRow * size);
  out.writeUInt32LE(40, 0); // header size
  out.writeInt32LE(size, 4);
  out.writeInt32LE(size * 2, 8); // height of pixels and mask together
  out.writeUInt16LE(1, 12); // planes
  out.writeUInt16LE(32, 14); // bits per pixel
  out.writeUInt32LE(size * size * 4 + maskRow * size, 20);
  const maskAt = 40 + size * size * 4;
  for (let y = 0; y < size; y++) {
    const row = FAVICON_PIXELS[FAVICON_PIXELS.length - 1 - Math.floor(y / scale)]!;
    for (let x = 0; x < size; x++) {
      const [r, g, b, a] = COLOURS[row[Math.floor(x / scale)]!]!;
      out.set([b, g, r, a], 40 + (y * size + x) * 4);
      if (a === 0) out[maskAt + y * maskRow + (x >> 3)]! |= 0x80 >> (x & 7);
    }
  }
  return out;
}

/**
 * The icon as an ICO file: a 16×16 and a 32×32 image, 32 bits per pixel.
 *
 * @returns the file's bytes (about 5.5 kB), the same on every call.
 */
export function faviconIco(): Buffer {
  const images = [bitmap(1), bitmap(2)];
  const header = Buffer.alloc(6 + 16 * images.length);
  header.writeUInt16LE(1, 2); // type: icon
  header.writeUInt16LE(images.length, 4);
  let offset = header.length;
  images.forEach((image, i) => {
    const size = FAVICON_PIXELS.length * (i + 1);
    const at = 6 + 16 * i;
    header.writeUInt8(size, at);
    header.writeUInt8(size, at + 1);
    header.writeUInt16LE(1, at + 4); // planes
    header.writeUInt16LE(32, at + 6); // bits per pixel
    header.writeUInt32LE(image.length, at + 8);
    header.writeUInt32LE(offset, at + 12);
    offset += image.length;
  });
  return Buffer.concat([header, ...images]);
}
