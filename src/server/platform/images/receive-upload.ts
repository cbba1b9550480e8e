import { createHash, randomUUID } from 'node:crypto';
import fs from 'node:fs';
import fsp from 'node:fs/promises';
import path from 'node:path';
import { type Readable, Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { HttpError } from '#server/platform/http/errors';
import { photosMessages } from '#shared/features/records/photos';
import { type ImageType, SNIFF_BYTES, sniffImageType } from './image-type';

export interface ReceivedUpload {
  /** The temporary file holding the upload; removed by `discard()`. */
  file: string;
  size: number;
  sha256: string;
  type: ImageType;
  discard(): Promise<void>;
}

/** How long an upload may go without a byte before it counts as cut off. */
export const DEFAULT_IDLE_MS = 60_000;

export const PayloadTooLarge = (maxBytes: number) => new HttpError(413, photosMessages.tooLarge(maxBytes));
export const UnsupportedImage = () => new HttpError(415, photosMessages.badFormat);
export const UploadAborted = () => new HttpError(400, photosMessages.uploadAborted);

/**
 * Streams an uploaded file to a temporary file while hashing it (sha256), counting its bytes and
 * checking its first bytes. Nothing is held in memory beyond a chunk. Too large (413), not a JPEG or
 * HEIC by content (415), or cut off: the temporary file is removed and nothing is left behind.
 */
export async function receiveUpload(
  source: Readable & { truncated?: boolean },
  options: { maxBytes: number; tempDir: string; idleMs?: number },
): Promise<ReceivedUpload> {
  // The multipart parser destroys the file stream when the body ended before the file did (a body cut
  // short arrives all at once on a fast network): nothing to wait for.
  if (source.destroyed) throw UploadAborted();
  await fsp.mkdir(options.tempDir, { recursive: true });
  const file = path.join(options.tempDir, `${randomUUID()}.part`);
  const hash = createHash('sha256');
  let size = 0;
  let head = Buffer.alloc(0);
  let type: ImageType | undefined;
  // A file that is not an image is not written further, but still read to its end, so the client gets
  // its answer on a connection in a clean state.
  let refused = false;

  // A phone that loses its network mid-upload may leave the connection open and silent: give up on it.
  const idleMs = options.idleMs ?? DEFAULT_IDLE_MS;
  let idleTimer: NodeJS.Timeout | undefined;
  const armIdleTimer = () => {
    clearTimeout(idleTimer);
    idleTimer = setTimeout(() => inspect.destroy(UploadAborted()), idleMs);
  };

  const inspect = new Transform({
    transform(chunk: Buffer, _encoding, done) {
      armIdleTimer();
      size += chunk.length;
      if (size > options.maxBytes) return done(PayloadTooLarge(options.maxBytes));
      if (refused) return done();
      if (type === undefined) {
        head = Buffer.concat([head, chunk.subarray(0, SNIFF_BYTES - head.length)]);
        if (head.length >= SNIFF_BYTES) {
          type = sniffImageType(head);
          if (!type) {
            refused = true;
            return done();
          }
        }
      }
      hash.update(chunk);
      done(null, chunk);
    },
    flush(done) {
      if (!refused && type === undefined) {
        type = sniffImageType(head);
        if (!type) refused = true;
      }
      done();
    },
  });

  try {
    armIdleTimer();
    await pipeline(source, inspect, fs.createWriteStream(file, { flags: 'wx' }));
    if (source.truncated) throw PayloadTooLarge(options.maxBytes);
    if (refused || !type || size === 0) throw UnsupportedImage();
  } catch (error) {
    clearTimeout(idleTimer);
    await fsp.rm(file, { force: true });
    if (error instanceof HttpError) throw error;
    const { code, syscall } = error as { code?: string; syscall?: string };
    if (code === 'FST_REQ_FILE_TOO_LARGE') throw PayloadTooLarge(options.maxBytes);
    // The disk failing is our problem (500); anything else is the upload breaking off on the way.
    if (syscall) throw error;
    throw UploadAborted();
  }
  clearTimeout(idleTimer);
  return {
    file,
    size,
    sha256: hash.digest('hex'),
    type,
    discard: () => fsp.rm(file, { force: true }),
  };
}
