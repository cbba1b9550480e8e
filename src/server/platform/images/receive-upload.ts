import { createHash } from 'node:crypto';
import fs from 'node:fs';
import fsp from 'node:fs/promises';
import { Transform } from 'node:stream';
import { HttpError, Refusal } from '#server/platform/http/errors';
import { receiveToFile, type UploadLimits, type UploadStream } from '#server/platform/lib/receive-file';
import { PHOTO_ARRIVED_DAMAGED, photosMessages } from '#shared/features/photos/photos';
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

export const PayloadTooLarge = (maxBytes: number) => new Refusal('too_large', photosMessages.tooLarge(maxBytes));
export const UnsupportedImage = () => new Refusal('not_an_image', photosMessages.badFormat);
export const UploadAborted = () => new HttpError(400, photosMessages.uploadAborted);
/** 422: the bytes that arrived are not those the phone hashed; the phone sends its copy again (decision 082). */
export const ArrivedDamaged = () =>
  new HttpError(422, photosMessages.arrivedDamaged, {}, { code: PHOTO_ARRIVED_DAMAGED });

/** What the sender declared of the file: the SHA-256 the phone computed of the bytes it sent, if any. */
export interface DeclaredFile {
  sha256?: string;
}

/**
 * Streams an uploaded file to a temporary file while hashing it (sha256), counting its bytes and
 * checking its first bytes. Nothing is held in memory beyond a chunk. Too large (413), other bytes than
 * the phone hashed (422, whatever else is wrong with them: the phone sends its copy again), not a JPEG or
 * HEIC by content (415), or cut off: the temporary file is removed and nothing is left behind.
 */
export async function receiveUpload(
  source: UploadStream,
  options: UploadLimits & { declared?: DeclaredFile },
): Promise<ReceivedUpload> {
  const hash = createHash('sha256');
  let sha256 = '';
  let size = 0;
  let head = Buffer.alloc(0);
  let type: ImageType | undefined;
  // A file that is not an image is not written further, but still read to its end, so the client gets
  // its answer on a connection in a clean state.
  let refused = false;

  const inspect = new Transform({
    transform(chunk: Buffer, _encoding, done) {
      size += chunk.length;
      if (size > options.maxBytes) return done(PayloadTooLarge(options.maxBytes));
      // Every byte is hashed, a refused file's too: its hash decides first whether it arrived damaged.
      hash.update(chunk);
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
      done(null, chunk);
    },
    flush(done) {
      sha256 = hash.digest('hex');
      if (!refused && type === undefined) {
        type = sniffImageType(head);
        if (!type) refused = true;
      }
      done();
    },
  });

  const file = await receiveToFile(source, {
    tempDir: options.tempDir,
    suffix: '.part',
    idleMs: options.idleMs ?? DEFAULT_IDLE_MS,
    inspect,
    check: () => {
      if (arrivedDamaged(options.declared, sha256)) throw ArrivedDamaged();
      if (refused || !type || size === 0) throw UnsupportedImage();
    },
    tooLarge: () => PayloadTooLarge(options.maxBytes),
    aborted: UploadAborted,
  });
  return {
    file,
    size,
    sha256,
    type: type as ImageType,
    discard: () => fsp.rm(file, { force: true }),
  };
}

/** Whether the phone declared a hash and the bytes that arrived do not give it. */
const arrivedDamaged = (declared: DeclaredFile | undefined, sha256: string) =>
  declared?.sha256 !== undefined && declared.sha256 !== sha256;

/**
 * The same checks for a file already on disk (a resumable upload, complete): its sha256, its size
 * within `maxBytes` (413), the hash the phone declared (422) and its type by its first bytes (415). The
 * file is not moved; `discard` is the caller's.
 */
export async function inspectReceivedFile(
  file: string,
  maxBytes: number,
  discard: () => Promise<void>,
  declared?: DeclaredFile,
): Promise<ReceivedUpload> {
  const hash = createHash('sha256');
  let size = 0;
  let head = Buffer.alloc(0);
  for await (const chunk of fs.createReadStream(file) as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > maxBytes) throw PayloadTooLarge(maxBytes);
    if (head.length < SNIFF_BYTES) head = Buffer.concat([head, chunk.subarray(0, SNIFF_BYTES - head.length)]);
    hash.update(chunk);
  }
  const sha256 = hash.digest('hex');
  if (arrivedDamaged(declared, sha256)) throw ArrivedDamaged();
  const type = size === 0 ? undefined : sniffImageType(head);
  if (!type) throw UnsupportedImage();
  return { file, size, sha256, type, discard };
}
