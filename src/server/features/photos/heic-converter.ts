import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';

/** A HEIC file that cannot be decoded (damaged, cut off, not really HEVC) or is too large. */
export class HeicConvertError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'HeicConvertError';
  }
}

export interface HeicConvertOptions {
  maxPixels: number;
  displayMaxPx: number;
  thumbMaxPx: number;
}

export interface ConvertedHeic {
  width: number;
  height: number;
  display: Buffer;
  thumb: Buffer;
}

// heic-decode is WebAssembly and synchronous: a 12-megapixel photo holds its thread for over a second
// and grows a WebAssembly heap of ~130 MB that never shrinks. So each HEIC is decoded and turned into
// JPEGs in a worker thread of its own, ended right after: the event loop keeps answering votes, only
// small JPEGs cross back, and all of that memory is returned at once. Plain JavaScript, so the worker
// needs no TypeScript loader (tsx, Vitest or a bundle alike).
const WORKER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const decode = require(workerData.heicDecodePath);
const sharp = require(workerData.sharpPath);
sharp.cache(false);
parentPort.once('message', async ({ buffer }) => {
  const o = workerData.options;
  let images;
  try {
    images = await decode.all({ buffer: new Uint8Array(buffer) });
    const image = images[0];
    if (!image) throw new Error('HEIF image not found');
    if (image.width * image.height > o.maxPixels) throw new Error('too large: ' + image.width + 'x' + image.height);
    // libheif applies the file's rotation and mirroring: these pixels are upright.
    const { width, height, data } = await image.decode();
    images.dispose();
    images = undefined;
    const display = await sharp(data, { raw: { width, height, channels: 4 }, limitInputPixels: o.maxPixels })
      .removeAlpha()
      .resize(o.displayMaxPx, o.displayMaxPx, { fit: 'inside', withoutEnlargement: true })
      .jpeg({ quality: 82 })
      .toBuffer();
    const thumb = await sharp(display)
      .resize(o.thumbMaxPx, o.thumbMaxPx, { fit: 'inside', withoutEnlargement: true })
      .jpeg({ quality: 70 })
      .toBuffer();
    parentPort.postMessage({ ok: true, width, height, display, thumb });
  } catch (error) {
    if (images && images.dispose) images.dispose();
    parentPort.postMessage({ ok: false, message: String((error && error.message) || error) });
  }
});
`;

const localRequire = createRequire(import.meta.url);

/** Converts one HEIC file (its bytes) into an upright browser JPEG and a thumbnail, in a fresh thread. */
export function convertHeic(file: Buffer, options: HeicConvertOptions): Promise<ConvertedHeic> {
  const worker = new Worker(WORKER_SOURCE, {
    eval: true,
    workerData: {
      heicDecodePath: localRequire.resolve('heic-decode'),
      sharpPath: localRequire.resolve('sharp'),
      options,
    },
  });
  return new Promise<ConvertedHeic>((resolve, reject) => {
    let settled = false;
    const finish = (error: Error | undefined, value?: ConvertedHeic) => {
      if (settled) return;
      settled = true;
      void worker.terminate();
      if (error) reject(error);
      else resolve(value as ConvertedHeic);
    };
    worker.once(
      'message',
      (
        m:
          | { ok: true; width: number; height: number; display: Uint8Array; thumb: Uint8Array }
          | { ok: false; message: string },
      ) => {
        if (m.ok) {
          finish(undefined, {
            width: m.width,
            height: m.height,
            display: Buffer.from(m.display.buffer, m.display.byteOffset, m.display.byteLength),
            thumb: Buffer.from(m.thumb.buffer, m.thumb.byteOffset, m.thumb.byteLength),
          });
        } else {
          finish(new HeicConvertError(m.message));
        }
      },
    );
    worker.once('error', (error) => finish(new HeicConvertError(error.message)));
    worker.once('exit', () => finish(new HeicConvertError('el decodificador se detuvo')));
    const copy = new Uint8Array(file.byteLength);
    copy.set(file);
    worker.postMessage({ buffer: copy }, [copy.buffer]);
  });
}
