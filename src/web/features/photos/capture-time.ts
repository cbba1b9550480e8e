/**
 * The capture time of a photo, kept when the phone re-encodes it (a canvas writes no EXIF): read from
 * the original's EXIF (DateTimeOriginal, OffsetTimeOriginal) and written into the new JPEG as a small
 * EXIF block of its own. Nothing else of the original's EXIF travels (no GPS, no device serial), and no
 * Orientation tag: the new pixels are already upright.
 */
export interface CaptureTime {
  /** 'YYYY:MM:DD HH:MM:SS', the camera's local time (EXIF's own format). */
  dateTimeOriginal: string;
  /** '-04:00' when known. */
  offsetTimeOriginal?: string;
}

const EXIF_HEADER = [0x45, 0x78, 0x69, 0x66, 0x00, 0x00]; // "Exif\0\0"
const TAG_EXIF_IFD = 0x8769;
const TAG_DATE_TIME = 0x0132;
const TAG_DATE_TIME_ORIGINAL = 0x9003;
const TAG_OFFSET_TIME_ORIGINAL = 0x9011;
const TYPE_ASCII = 2;
const TYPE_LONG = 4;
const EXIF_DATE = /^\d{4}:\d{2}:\d{2} \d{2}:\d{2}:\d{2}$/;
const EXIF_OFFSET = /^[+-]\d{2}:\d{2}$/;

/** The TIFF block of a JPEG's EXIF segment (APP1 "Exif\0\0"), or undefined. */
function findTiff(jpeg: Uint8Array): Uint8Array | undefined {
  if (jpeg[0] !== 0xff || jpeg[1] !== 0xd8) return undefined;
  let at = 2;
  while (at + 4 <= jpeg.length && jpeg[at] === 0xff) {
    const marker = jpeg[at + 1] ?? 0;
    // Start of scan or end of image: no more metadata segments.
    if (marker === 0xda || marker === 0xd9) return undefined;
    const length = ((jpeg[at + 2] ?? 0) << 8) | (jpeg[at + 3] ?? 0);
    if (length < 2) return undefined;
    if (marker === 0xe1 && EXIF_HEADER.every((b, i) => jpeg[at + 4 + i] === b)) {
      return jpeg.subarray(at + 10, Math.min(jpeg.length, at + 2 + length));
    }
    at += 2 + length;
  }
  return undefined;
}

/** What the EXIF says about when the photo was taken, or undefined (no EXIF, not a JPEG, damaged). */
export function readCaptureTime(jpeg: Uint8Array): CaptureTime | undefined {
  const tiff = findTiff(jpeg);
  if (!tiff || tiff.length < 8) return undefined;
  const little = tiff[0] === 0x49 && tiff[1] === 0x49;
  if (!little && !(tiff[0] === 0x4d && tiff[1] === 0x4d)) return undefined;
  const view = new DataView(tiff.buffer, tiff.byteOffset, tiff.byteLength);
  const u16 = (at: number) => (at + 2 <= tiff.length ? view.getUint16(at, little) : 0);
  const u32 = (at: number) => (at + 4 <= tiff.length ? view.getUint32(at, little) : 0);

  /** The entries of one IFD: tag -> the entry's offset in the TIFF block. */
  const entries = (ifd: number): Map<number, number> => {
    const found = new Map<number, number>();
    const count = u16(ifd);
    for (let i = 0; i < count && ifd + 2 + (i + 1) * 12 <= tiff.length; i++) {
      const entry = ifd + 2 + i * 12;
      found.set(u16(entry), entry);
    }
    return found;
  };
  const ascii = (entry: number | undefined): string | undefined => {
    if (entry === undefined || u16(entry + 2) !== TYPE_ASCII) return undefined;
    const count = u32(entry + 4);
    const start = count <= 4 ? entry + 8 : u32(entry + 8);
    if (start + count > tiff.length) return undefined;
    let text = '';
    for (let i = 0; i < count; i++) {
      const c = tiff[start + i] ?? 0;
      if (c === 0) break;
      text += String.fromCharCode(c);
    }
    return text.trim();
  };

  const ifd0 = entries(u32(4));
  const exifIfd = ifd0.has(TAG_EXIF_IFD) ? entries(u32((ifd0.get(TAG_EXIF_IFD) ?? 0) + 8)) : new Map<number, number>();
  const original = ascii(exifIfd.get(TAG_DATE_TIME_ORIGINAL)) ?? ascii(ifd0.get(TAG_DATE_TIME));
  if (!original || !EXIF_DATE.test(original)) return undefined;
  const offset = ascii(exifIfd.get(TAG_OFFSET_TIME_ORIGINAL));
  return { dateTimeOriginal: original, ...(offset && EXIF_OFFSET.test(offset) ? { offsetTimeOriginal: offset } : {}) };
}

const two = (n: number) => String(n).padStart(2, '0');

/** A capture time from a file's date (what a phone gives a camera photo that has no EXIF we can read). */
export function captureTimeFromDate(ms: number, timezoneOffsetMinutes = new Date(ms).getTimezoneOffset()): CaptureTime {
  const local = new Date(ms - timezoneOffsetMinutes * 60_000);
  const offset = -timezoneOffsetMinutes;
  const sign = offset < 0 ? '-' : '+';
  return {
    dateTimeOriginal: `${local.getUTCFullYear()}:${two(local.getUTCMonth() + 1)}:${two(local.getUTCDate())} ${two(
      local.getUTCHours(),
    )}:${two(local.getUTCMinutes())}:${two(local.getUTCSeconds())}`,
    offsetTimeOriginal: `${sign}${two(Math.floor(Math.abs(offset) / 60))}:${two(Math.abs(offset) % 60)}`,
  };
}

/** An APP1 EXIF segment holding only the capture time (big-endian TIFF). */
export function exifSegment(time: CaptureTime): Uint8Array {
  const values: [number, string][] = [[TAG_DATE_TIME_ORIGINAL, `${time.dateTimeOriginal}\0`]];
  if (time.offsetTimeOriginal) values.push([TAG_OFFSET_TIME_ORIGINAL, `${time.offsetTimeOriginal}\0`]);
  const exifIfdAt = 8 + 2 + 12 + 4;
  let dataAt = exifIfdAt + 2 + values.length * 12 + 4;
  const size = dataAt + values.reduce((sum, [, text]) => sum + text.length, 0);
  const tiff = new Uint8Array(size);
  const view = new DataView(tiff.buffer);
  tiff.set([0x4d, 0x4d, 0x00, 0x2a]);
  view.setUint32(4, 8);
  // IFD0: one entry, the pointer to the Exif IFD.
  view.setUint16(8, 1);
  view.setUint16(10, TAG_EXIF_IFD);
  view.setUint16(12, TYPE_LONG);
  view.setUint32(14, 1);
  view.setUint32(18, exifIfdAt);
  view.setUint32(22, 0);
  // Exif IFD: the capture time (and its offset), each an ASCII value stored after the IFD.
  view.setUint16(exifIfdAt, values.length);
  values.forEach(([tag, text], i) => {
    const entry = exifIfdAt + 2 + i * 12;
    view.setUint16(entry, tag);
    view.setUint16(entry + 2, TYPE_ASCII);
    view.setUint32(entry + 4, text.length);
    view.setUint32(entry + 8, dataAt);
    for (let c = 0; c < text.length; c++) tiff[dataAt + c] = text.charCodeAt(c);
    dataAt += text.length;
  });
  view.setUint32(exifIfdAt + 2 + values.length * 12, 0);

  const segment = new Uint8Array(4 + EXIF_HEADER.length + tiff.length);
  const length = segment.length - 2;
  segment.set([0xff, 0xe1, length >> 8, length & 0xff]);
  segment.set(EXIF_HEADER, 4);
  segment.set(tiff, 4 + EXIF_HEADER.length);
  return segment;
}

/** The JPEG with an EXIF segment put right after its start (after a JFIF segment, if there is one). */
export function withExif(jpeg: Uint8Array, segment: Uint8Array): Uint8Array {
  if (jpeg[0] !== 0xff || jpeg[1] !== 0xd8) return jpeg;
  let at = 2;
  if (jpeg[2] === 0xff && jpeg[3] === 0xe0) at += 2 + (((jpeg[4] ?? 0) << 8) | (jpeg[5] ?? 0));
  const out = new Uint8Array(jpeg.length + segment.length);
  out.set(jpeg.subarray(0, at));
  out.set(segment, at);
  out.set(jpeg.subarray(at), at + segment.length);
  return out;
}
