import fsp from 'node:fs/promises';
import sharp, { type Sharp } from 'sharp';
import { convertHeic, HeicConvertError } from './heic-converter';
import type { ImageType } from './image-type';

/** Longest side of the browser copy: ballots stay legible, phones download little. */
export const DISPLAY_MAX_PX = 2048;
export const THUMB_MAX_PX = 240;
/** Anything bigger is refused before decoding (a small file can claim an enormous picture). */
export const MAX_INPUT_PIXELS = 80_000_000;

// libvips' operation cache only helps repeated identical work; photos never repeat.
sharp.cache(false);

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

/** At most `limit` tasks at once; the rest wait their turn in arrival order. */
export function createLimiter(limit: number) {
  let active = 0;
  const waiting: (() => void)[] = [];
  return {
    async run<T>(task: () => Promise<T>): Promise<T> {
      if (active >= limit) await new Promise<void>((resolve) => waiting.push(resolve));
      active++;
      try {
        return await task();
      } finally {
        active--;
        waiting.shift()?.();
      }
    },
    get active() {
      return active;
    },
    get waiting() {
      return waiting.length;
    },
  };
}

async function fromUprightSharp(image: Sharp, width: number, height: number): Promise<ProcessedImage> {
  const display = await image
    .resize(DISPLAY_MAX_PX, DISPLAY_MAX_PX, { fit: 'inside', withoutEnlargement: true })
    .jpeg({ quality: 82 })
    .toBuffer();
  const thumb = await sharp(display)
    .resize(THUMB_MAX_PX, THUMB_MAX_PX, { fit: 'inside', withoutEnlargement: true })
    .jpeg({ quality: 70 })
    .toBuffer();
  return { display, thumb, width, height };
}

/**
 * Turns an accepted upload into its browser copy and thumbnail. All decoding goes through one bounded
 * queue (default: two at a time) and HEIC decoding, the memory-hungry part, through a narrower one (one
 * at a time): a burst of large photos waits its turn instead of exhausting memory.
 */
export function createImagePipeline(options: { concurrency?: number; heicConcurrency?: number } = {}) {
  const limiter = createLimiter(options.concurrency ?? 2);
  const heicLimiter = createLimiter(options.heicConcurrency ?? 1);

  async function processJpeg(file: string): Promise<ProcessedImage> {
    try {
      const meta = await sharp(file, { limitInputPixels: MAX_INPUT_PIXELS }).metadata();
      const turned = (meta.orientation ?? 1) >= 5;
      const width = turned ? (meta.height ?? 0) : (meta.width ?? 0);
      const height = turned ? (meta.width ?? 0) : (meta.height ?? 0);
      // failOn 'truncated': a photo cut off in transit is refused, not stored half grey.
      const image = sharp(file, { limitInputPixels: MAX_INPUT_PIXELS, failOn: 'truncated' }).rotate();
      return await fromUprightSharp(image, width, height);
    } catch (error) {
      throw new ImageProcessingError((error as Error).message);
    }
  }

  async function processHeic(file: string): Promise<ProcessedImage> {
    const bytes = await fsp.readFile(file);
    try {
      return await convertHeic(bytes, {
        maxPixels: MAX_INPUT_PIXELS,
        displayMaxPx: DISPLAY_MAX_PX,
        thumbMaxPx: THUMB_MAX_PX,
      });
    } catch (error) {
      if (error instanceof HeicConvertError) throw new ImageProcessingError(error.message);
      throw error;
    }
  }

  return {
    process(file: string, type: ImageType): Promise<ProcessedImage> {
      return type === 'heic'
        ? heicLimiter.run(() => limiter.run(() => processHeic(file)))
        : limiter.run(() => processJpeg(file));
    },
    /** Queue state (diagnostics and tests). */
    get queue() {
      return { active: limiter.active, waiting: limiter.waiting + heicLimiter.waiting };
    },
  };
}
export type ImagePipeline = ReturnType<typeof createImagePipeline>;
