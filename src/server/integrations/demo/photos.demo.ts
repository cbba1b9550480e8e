import { createHash } from 'node:crypto';
import type { Kysely } from 'kysely';
import { createPhotoPlaceholders } from '#server/features/photos/photos.service';
import type { Database } from '#server/platform/db/schema';
import { THUMB_MAX_PX } from '#server/platform/images/image-pipeline';
import type { PhotoStorage } from '#server/platform/storage/photo-storage';
import type { PhotoKind } from '#shared/platform/constants';
import { PHOTO_KIND_LABELS } from '#shared/platform/records';

/**
 * Demo photo rows are written with placeholder keys (`demo:<kind>:<n>`) because the demo data step
 * knows the database but not the storage. The photos feature turns each placeholder into real,
 * generated image files in the configured storage at start-up, once.
 */
export const DEMO_PHOTO_PREFIX = 'demo:';
export const demoPhotoPlaceholder = (kind: PhotoKind, variant: number) => `${DEMO_PHOTO_PREFIX}${kind}:${variant}`;
export const DEMO_PHOTO_VARIANTS = 3;
export const DEMO_PHOTO_SIZE = { width: 480, height: 360 };

const COLOURS = ['#1D4ED8', '#B45309', '#047857'];

function demoBallotSvg(kind: PhotoKind, variant: number): Buffer {
  const { width, height } = DEMO_PHOTO_SIZE;
  const colour = COLOURS[variant % COLOURS.length];
  return Buffer.from(`<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}">
    <rect width="100%" height="100%" fill="#f4f1ea"/>
    <rect x="18" y="18" width="${width - 36}" height="${height - 36}" fill="#fffdf7" stroke="${colour}" stroke-width="5"/>
    <text x="50%" y="30%" font-family="sans-serif" font-size="30" font-weight="bold" text-anchor="middle" fill="${colour}">BOLETA ${PHOTO_KIND_LABELS[kind]}</text>
    <text x="50%" y="50%" font-family="sans-serif" font-size="20" text-anchor="middle" fill="#444">Foto de demostración ${variant + 1}</text>
    <rect x="90" y="${height - 120}" width="${width - 180}" height="10" fill="#ccc"/>
    <rect x="90" y="${height - 95}" width="${width - 240}" height="10" fill="#ccc"/>
    <rect x="90" y="${height - 70}" width="${width - 300}" height="10" fill="#ccc"/>
  </svg>`);
}

/** Writes the generated demo images to storage and points the demo photo rows at them. */
export async function materializeDemoPhotos(db: Kysely<Database>, storage: PhotoStorage): Promise<number> {
  const repo = createPhotoPlaceholders(db);
  const placeholders = await repo.list(DEMO_PHOTO_PREFIX);
  if (placeholders.length === 0) return 0;
  // Loaded only here: the server itself never decodes images (see image-converter.ts).
  const { default: sharp } = await import('sharp');
  for (const placeholder of placeholders) {
    const [, kind, variant] = placeholder.split(':');
    if (!kind || !(kind in PHOTO_KIND_LABELS)) continue;
    const display = await sharp(demoBallotSvg(kind as PhotoKind, Number(variant) || 0))
      .jpeg({ quality: 75 })
      .toBuffer();
    const thumb = await sharp(display)
      .resize(THUMB_MAX_PX, THUMB_MAX_PX, { fit: 'inside' })
      .jpeg({ quality: 70 })
      .toBuffer();
    const meta = { suffix: 'jpg', contentType: 'image/jpeg' };
    const original = await storage.put(display, meta);
    const shown = await storage.put(display, meta);
    const small = await storage.put(thumb, meta);
    await repo.replace(placeholder, {
      original_key: original.key,
      display_key: shown.key,
      thumb_key: small.key,
      sha256: createHash('sha256').update(display).digest('hex'),
      size_bytes: display.length,
    });
  }
  return placeholders.length;
}
