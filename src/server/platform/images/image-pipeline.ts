import { createLimiter } from '#server/platform/lib/limiter';
import { convertImage, ImageConvertError } from './image-converter';
import type { ImageType } from './image-type';

/**
 * Longest side of the browser copy. 2000 rather than 2048: a 12-megapixel phone JPEG (4000 or 4032 px
 * wide) then decodes at half size straight from the file, which halves time and memory.
 */
export const DISPLAY_MAX_PX = 2000;
export const THUMB_MAX_PX = 240;
/** Anything bigger is refused before decoding (a small file can claim an enormous picture). */
export const MAX_INPUT_PIXELS = 80_000_000;

export interface ProcessedImage {
  /** Browser-ready JPEG, orientation applied, at most DISPLAY_MAX_PX on its longest side. */
  display: Buffer;
  thumb: Buffer;
  /** Size of the upright picture as uploaded. */
  width: number;
  height: number;
}

/** The file is not a picture we can read (cut off, damaged, or absurdly large). */
export class ImageProcessingError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ImageProcessingError';
  }
}

/**
 * Turns an accepted upload into its browser copy and thumbnail. All conversions go through one
 * bounded queue (default: two at a time) and HEIC, the memory-hungry kind (~180 MB for 12 megapixels),
 * through a narrower one (one at a time): a burst of large photos waits its turn instead of
 * exhausting memory. Each conversion runs in a process of its own (see image-converter.ts).
 */
export function createImagePipeline(options: { concurrency?: number; heicConcurrency?: number } = {}) {
  const limiter = createLimiter(options.concurrency ?? 2);
  const heicLimiter = createLimiter(options.heicConcurrency ?? 1);

  async function convert(file: string, type: ImageType): Promise<ProcessedImage> {
    try {
      return await convertImage(file, type, {
        maxPixels: MAX_INPUT_PIXELS,
        displayMaxPx: DISPLAY_MAX_PX,
        thumbMaxPx: THUMB_MAX_PX,
      });
    } catch (error) {
      if (error instanceof ImageConvertError) throw new ImageProcessingError(error.message);
      throw error;
    }
  }

  return {
    process(file: string, type: ImageType): Promise<ProcessedImage> {
      return type === 'heic'
        ? heicLimiter.run(() => limiter.run(() => convert(file, type)))
        : limiter.run(() => convert(file, type));
    },
    /** Queue state (diagnostics and tests). */
    get queue() {
      return { active: limiter.active, waiting: limiter.waiting + heicLimiter.waiting };
    },
  };
}
export type ImagePipeline = ReturnType<typeof createImagePipeline>;
