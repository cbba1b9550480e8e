import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import fsp from 'node:fs/promises';
import path from 'node:path';
import { type Readable, Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { HttpError } from '#server/platform/http/errors';
import { beforePiping, fileStreamClosed } from './file-stream';

/** An upload's file stream; the multipart parser marks one it cut at its size limit as `truncated`. */
export type UploadStream = Readable & { truncated?: boolean };

/** Where an upload waits while it is checked, how large it may be, how long it may stay silent. */
export interface UploadLimits {
  tempDir: string;
  maxBytes: number;
  idleMs?: number;
}

export interface ReceiveFileOptions {
  tempDir: string;
  /** The temporary file's name ends so (`.part`, `.csv.part`): what a clean-up of stale files looks for. */
  suffix: string;
  /** How long the upload may go without a byte before it counts as cut off. */
  idleMs: number;
  /** Sees every chunk on its way to the file: it counts, checks, and may refuse with an error. */
  inspect: Transform;
  /** After the last byte, still before the answer: throws when the whole file is refused. */
  check?: () => void;
  /** The caller's errors for a file over its limit and for an upload cut off. */
  tooLarge: () => HttpError;
  aborted: () => HttpError;
}

/**
 * Streams an upload to a new temporary file through `inspect`; only a chunk is ever in memory. Too
 * large, cut off, silent for too long or refused: the file is removed and the caller's error thrown.
 * A failing disk is our problem and its error goes on as it is (500). Answers the file.
 */
export async function receiveToFile(source: UploadStream, options: ReceiveFileOptions): Promise<string> {
  // The multipart parser destroys the file stream when the body ended before the file did (a body cut
  // short arrives all at once on a fast network): nothing to wait for.
  if (source.destroyed) throw options.aborted();
  await beforePiping(source, () => fsp.mkdir(options.tempDir, { recursive: true }));
  const file = path.join(options.tempDir, `${randomUUID()}${options.suffix}`);
  // A phone that loses its network mid-upload may leave the connection open and silent: give up on it.
  let idleTimer: NodeJS.Timeout | undefined;
  const armIdleTimer = () => {
    clearTimeout(idleTimer);
    idleTimer = setTimeout(() => watch.destroy(options.aborted()), options.idleMs);
  };
  const watch = new Transform({
    transform(chunk: Buffer, _encoding, done) {
      armIdleTimer();
      done(null, chunk);
    },
  });
  const out = fs.createWriteStream(file, { flags: 'wx' });
  try {
    armIdleTimer();
    await pipeline(source, watch, options.inspect, out);
    if (source.truncated) throw options.tooLarge();
    options.check?.();
  } catch (error) {
    clearTimeout(idleTimer);
    await fileStreamClosed(out);
    await fsp.rm(file, { force: true });
    if (error instanceof HttpError) throw error;
    const { code, syscall } = error as { code?: string; syscall?: string };
    if (code === 'FST_REQ_FILE_TOO_LARGE') throw options.tooLarge();
    if (syscall) throw error;
    // Anything else is the upload breaking off on the way.
    throw options.aborted();
  }
  clearTimeout(idleTimer);
  return file;
}
