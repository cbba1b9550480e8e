import { captureTimeFromDate, exifSegment, readCaptureTime, withExif } from './capture-time';
import { sha256Hex } from './photo-hash';

/** The longest side of a photo sent right-sized, and its JPEG quality (docs/decisions/047). */
export const RIGHT_SIZE = { maxSide: 2560, quality: 0.85 } as const;

export interface RightSizeRequest {
  data: ArrayBuffer;
  type: string;
  /** The file's date (ms), the capture time when its EXIF has none we can read. */
  lastModified: number;
}

export type RightSizeAnswer = (
  | { resized: true; data: ArrayBuffer; width: number; height: number }
  /** Sent as it is (the bytes come back): the browser cannot decode it (HEIC), or it is small already. */
  | { resized: false; data: ArrayBuffer; reason: string }
) & {
  /** The SHA-256 of `data`, the bytes that will be sent, made here off the page (absent: not made). */
  sha256?: string;
};

/** The answer with the SHA-256 of the bytes it carries (docs/decisions/082). */
export async function withSha256(answer: RightSizeAnswer): Promise<RightSizeAnswer> {
  const sha256 = await sha256Hex(answer.data);
  return sha256 ? { ...answer, sha256 } : answer;
}

/**
 * Decodes a photo upright (EXIF orientation applied), scales it to at most `maxSide` on its long side
 * and encodes a JPEG at `quality`, with the original's capture time. Runs in a Web Worker (OffscreenCanvas),
 * so the page never waits on it. A file the browser cannot decode, or one the JPEG would not make
 * smaller, goes as it is.
 */
export async function rightSize(request: RightSizeRequest, options = RIGHT_SIZE): Promise<RightSizeAnswer> {
  const { data, type } = request;
  let bitmap: ImageBitmap;
  try {
    bitmap = await createImageBitmap(new Blob([data], { type }), { imageOrientation: 'from-image' });
  } catch (error) {
    return { resized: false, data, reason: `no se pudo decodificar: ${String(error)}` };
  }
  const scale = Math.min(1, options.maxSide / Math.max(bitmap.width, bitmap.height));
  const width = Math.max(1, Math.round(bitmap.width * scale));
  const height = Math.max(1, Math.round(bitmap.height * scale));
  const canvas = new OffscreenCanvas(width, height);
  const context = canvas.getContext('2d');
  if (!context) {
    bitmap.close();
    return { resized: false, data, reason: 'sin contexto 2d' };
  }
  context.imageSmoothingQuality = 'high';
  context.drawImage(bitmap, 0, 0, width, height);
  bitmap.close();
  const blob = await canvas.convertToBlob({ type: 'image/jpeg', quality: options.quality });
  let jpeg: Uint8Array = new Uint8Array(await blob.arrayBuffer());
  const time =
    readCaptureTime(new Uint8Array(data)) ??
    (request.lastModified ? captureTimeFromDate(request.lastModified) : undefined);
  if (time) jpeg = withExif(jpeg, exifSegment(time));
  if (jpeg.byteLength >= data.byteLength) return { resized: false, data, reason: 'ya es liviana' };
  // A buffer of its own, exactly the JPEG's bytes (transferable to the page).
  const out = jpeg.byteOffset === 0 && jpeg.byteLength === jpeg.buffer.byteLength ? jpeg : jpeg.slice();
  return { resized: true, data: out.buffer as ArrayBuffer, width, height };
}
