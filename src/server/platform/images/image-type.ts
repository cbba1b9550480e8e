export type ImageType = 'jpeg' | 'heic';

/** Bytes needed to decide: the JPEG marker, or an ISO-BMFF `ftyp` box with its first brands. */
export const SNIFF_BYTES = 64;

/** HEVC-coded HEIF brands: what phones write. */
const HEIC_BRANDS = new Set(['heic', 'heix', 'hevc', 'hevx', 'heim', 'heis']);
/** Generic HEIF brands: accepted when a compatible brand says the pictures are HEVC (not AVIF). */
const HEIF_BRANDS = new Set(['mif1', 'msf1']);

/**
 * The type of an image judged by its first bytes, never by its name: JPEG starts with FF D8 FF; HEIC is
 * an ISO-BMFF file whose `ftyp` box names a HEIC brand. Anything else is undefined.
 */
export function sniffImageType(head: Buffer): ImageType | undefined {
  if (head.length >= 3 && head[0] === 0xff && head[1] === 0xd8 && head[2] === 0xff) return 'jpeg';
  if (head.length < 16 || head.toString('latin1', 4, 8) !== 'ftyp') return undefined;
  const boxSize = head.readUInt32BE(0);
  if (boxSize < 16) return undefined;
  const major = head.toString('latin1', 8, 12);
  if (HEIC_BRANDS.has(major)) return 'heic';
  if (!HEIF_BRANDS.has(major)) return undefined;
  // Compatible brands follow the minor version, four bytes each, to the end of the box.
  const end = Math.min(boxSize, head.length);
  for (let offset = 16; offset + 4 <= end; offset += 4) {
    if (HEIC_BRANDS.has(head.toString('latin1', offset, offset + 4))) return 'heic';
  }
  return undefined;
}

export const IMAGE_CONTENT_TYPES = { jpeg: 'image/jpeg', heic: 'image/heic' } as const;
export const IMAGE_EXTENSIONS = { jpeg: 'jpg', heic: 'heic' } as const;
