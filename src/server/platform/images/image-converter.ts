import { type ChildProcess, spawn } from 'node:child_process';
import { createRequire } from 'node:module';
import type { ImageType } from './image-type';

/** The picture cannot be read: damaged, cut off, not really what its first bytes say, or too large. */
export class ImageConvertError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ImageConvertError';
  }
}

export interface ConvertOptions {
  maxPixels: number;
  displayMaxPx: number;
  thumbMaxPx: number;
  /** The conversion is stopped after this long: a hostile file must not hold the queue. */
  timeoutMs?: number;
}

export interface ConvertedImage {
  /** Size of the upright picture as uploaded. */
  width: number;
  height: number;
  /** Browser-ready JPEG, orientation applied. */
  display: Buffer;
  thumb: Buffer;
}

// Why a short-lived process for each photo:
// - libheif (WebAssembly) is synchronous: a 12-megapixel HEIC holds its thread for over a second and
//   grows a WebAssembly heap that never shrinks;
// - glibc's allocator keeps much of what libvips frees after large images, so a long-running server
//   that decodes photos itself only ever grows;
// - a malformed file that crashes a decoder takes down only its own process.
// In a child, ended after each photo and told to hand large blocks straight back to the system, the
// event loop keeps answering votes and the server's own memory stays flat. Starting one costs ~0.1 s.
// HEIC goes through libheif-js, the decoder heic-decode wraps, called as heic-decode calls it but for
// RGB instead of RGBA, and sharp reads the pixels where libheif left them instead of from a copy:
// 167 MB at most for 12 megapixels instead of 276 (decision 017).
// Plain JavaScript: the child needs no TypeScript loader (tsx, Vitest or a bundle alike).
const CHILD_SOURCE = `
const [libheifPath, sharpPath, type, file, optionsJson] = process.argv.slice(1);
const o = JSON.parse(optionsJson);
const sharp = require(sharpPath);
sharp.cache(false);
const fit = { fit: 'inside', withoutEnlargement: true };
async function upright(failOn) {
  if (type === 'jpeg') {
    const meta = await sharp(file, { limitInputPixels: o.maxPixels }).metadata();
    const turned = (meta.orientation || 1) >= 5;
    // failOn 'truncated' at least: a photo cut off in transit is refused, not stored half grey.
    const image = sharp(file, { limitInputPixels: o.maxPixels, failOn }).rotate();
    return { image, width: turned ? meta.height : meta.width, height: turned ? meta.width : meta.height };
  }
  const libheif = require(libheifPath);
  await libheif.ready;
  const decoder = new libheif.HeifDecoder();
  const images = decoder.decode(require('node:fs').readFileSync(file));
  const first = images[0];
  if (!first) throw new Error('HEIF image not found');
  const width = first.get_width();
  const height = first.get_height();
  if (width * height > o.maxPixels) throw new Error('too large: ' + width + 'x' + height);
  // libheif applies the file's rotation and mirroring: these pixels are upright. The process ends
  // after this photo, so nothing of the decoder is freed by hand.
  const decoded = libheif.heif_js_decode_image2(
    first.handle,
    libheif.heif_colorspace.heif_colorspace_RGB,
    libheif.heif_chroma.heif_chroma_interleaved_RGB,
  );
  const plane = decoded && !decoded.code && decoded.channels.find((c) => c.id === libheif.heif_channel.heif_channel_interleaved);
  if (!plane) throw new Error('HEIF processing error');
  const row = width * 3;
  let pixels = Buffer.from(plane.data.buffer, plane.data.byteOffset, plane.data.byteLength);
  if (plane.stride !== row) {
    const packed = Buffer.allocUnsafe(row * height);
    for (let y = 0; y < height; y++) pixels.copy(packed, y * row, y * plane.stride, y * plane.stride + row);
    pixels = packed;
  }
  const image = sharp(pixels, { raw: { width, height, channels: 3 }, limitInputPixels: o.maxPixels });
  return { image, width, height };
}
async function convert(failOn) {
  const { image, width, height } = await upright(failOn);
  const display = await image.resize(o.displayMaxPx, o.displayMaxPx, fit).jpeg({ quality: 82 }).toBuffer();
  return { width, height, display };
}
// A JPEG whose data ends before its declared size is covered (a 269-byte file claiming 8900x8900)
// decodes without error: libjpeg only warns "premature end of data segment" and paints the rest grey.
// So JPEGs are decoded strictly first; a warning about missing data refuses the photo, any other
// warning (extraneous bytes, common in phone photos) gets a second, lenient decode.
const MISSING_DATA = /premature end/i;
async function convertStrictly() {
  if (type !== 'jpeg') return convert('truncated');
  try {
    return await convert('warning');
  } catch (error) {
    if (MISSING_DATA.test(String((error && error.message) || error))) throw error;
    return convert('truncated');
  }
}
(async () => {
  try {
    const { width, height, display } = await convertStrictly();
    const thumb = await sharp(display).resize(o.thumbMaxPx, o.thumbMaxPx, fit).jpeg({ quality: 70 }).toBuffer();
    process.send({ ok: true, width, height, display, thumb }, () => process.exit(0));
  } catch (error) {
    process.send({ ok: false, message: String((error && error.message) || error) }, () => process.exit(0));
  }
})();
`;

const localRequire = createRequire(import.meta.url);
const modules = { libheif: localRequire.resolve('libheif-js/wasm-bundle'), sharp: localRequire.resolve('sharp') };

/** Converts one accepted upload (by path) into an upright browser JPEG and a thumbnail. */
export function convertImage(file: string, type: ImageType, options: ConvertOptions): Promise<ConvertedImage> {
  const { timeoutMs = 60_000, ...rest } = options;
  const child = spawn(
    process.execPath,
    ['-e', CHILD_SOURCE, modules.libheif, modules.sharp, type, file, JSON.stringify(rest)],
    {
      stdio: ['ignore', 'ignore', 'pipe', 'ipc'],
      serialization: 'advanced',
      env: {
        PATH: process.env.PATH ?? '',
        // Large blocks straight from and back to the system: nothing is kept between photos.
        MALLOC_ARENA_MAX: '2',
        MALLOC_MMAP_THRESHOLD_: '131072',
        MALLOC_TRIM_THRESHOLD_: '131072',
      },
    },
  );
  return childAnswer(child, timeoutMs).then((m) => {
    if (!m.ok) throw new ImageConvertError(m.message);
    return {
      width: m.width,
      height: m.height,
      display: Buffer.from(m.display.buffer, m.display.byteOffset, m.display.byteLength),
      thumb: Buffer.from(m.thumb.buffer, m.thumb.byteOffset, m.thumb.byteLength),
    };
  });
}

/** What the conversion's process answers: the two JPEGs, or why the picture cannot be read. */
type ChildMessage =
  | { ok: true; width: number; height: number; display: Uint8Array; thumb: Uint8Array }
  | { ok: false; message: string };

/**
 * The first message of a conversion's process. The process sends it and exits at once; Node may tell
 * the exit before it has read the message from the channel (a message of a few hundred kB, a busy event
 * loop: about one photo in a hundred on a loaded server), so only 'close' — the process gone and its
 * channel and stderr read to their end — without a message means it ended without answering.
 */
export function childAnswer<T = ChildMessage>(child: ChildProcess, timeoutMs: number): Promise<T> {
  let stderr = '';
  child.stderr?.on('data', (chunk: Buffer) => {
    if (stderr.length < 2000) stderr += chunk.toString();
  });
  return new Promise<T>((resolve, reject) => {
    let settled = false;
    const finish = (error: Error | undefined, value?: T) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
      if (error) reject(error);
      else resolve(value as T);
    };
    const timer = setTimeout(() => finish(new ImageConvertError('la conversión tardó demasiado')), timeoutMs);
    child.once('message', (m: T) => finish(undefined, m));
    child.once('error', (error) => finish(new ImageConvertError(error.message)));
    child.once('close', (code, signal) =>
      finish(new ImageConvertError(`el conversor terminó (${signal ?? code}) ${stderr.trim().slice(0, 300)}`)),
    );
  });
}
