import { Readable } from 'node:stream';
import type { ReadableStream as WebReadableStream } from 'node:stream/web';
import { HttpError, isRefusal } from '#server/platform/http/errors';
import { type ReceivedUpload, receiveUpload } from '#server/platform/images/receive-upload';

/** A photo link that did not give a photo we accept; the message says why, in Spanish. */
export class PhotoDownloadError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'PhotoDownloadError';
  }
}

export interface PhotoDownloadOptions {
  maxBytes: number;
  tempDir: string;
  /** For the whole download; also the longest silence allowed mid-file. */
  timeoutMs?: number;
  fetch?: typeof fetch;
}

const megabytes = (bytes: number) => `${Math.floor(bytes / (1024 * 1024))} MB`;

/**
 * Downloads a photo link into a temporary file through the same checks as an upload (receiveUpload):
 * at most `maxBytes`, a JPEG or HEIC by its first bytes whatever the link or the server say, hashed
 * on the way. The caller stores it (storePhoto) and discards the temporary file.
 */
export async function downloadPhoto(url: string, options: PhotoDownloadOptions): Promise<ReceivedUpload> {
  const timeoutMs = options.timeoutMs ?? 60_000;
  const doFetch = options.fetch ?? fetch;
  let res: Response;
  try {
    res = await doFetch(url, { redirect: 'follow', signal: AbortSignal.timeout(timeoutMs) });
  } catch (error) {
    const reason = (error as Error).name === 'TimeoutError' ? `sin respuesta en ${timeoutMs / 1000} s` : 'sin conexión';
    throw new PhotoDownloadError(`no se pudo descargar (${reason})`);
  }
  if (!res.ok || !res.body) {
    await res.body?.cancel().catch(() => {});
    throw new PhotoDownloadError(`el enlace respondió ${res.status}`);
  }
  const declared = Number(res.headers.get('content-length'));
  if (Number.isFinite(declared) && declared > options.maxBytes) {
    await res.body.cancel().catch(() => {});
    throw new PhotoDownloadError(`pesa más de ${megabytes(options.maxBytes)}`);
  }
  const body = Readable.fromWeb(res.body as unknown as WebReadableStream<Uint8Array>);
  try {
    return await receiveUpload(body, { maxBytes: options.maxBytes, tempDir: options.tempDir, idleMs: timeoutMs });
  } catch (error) {
    body.destroy();
    if (!(error instanceof HttpError)) throw error;
    if (isRefusal(error, 'too_large')) throw new PhotoDownloadError(`pesa más de ${megabytes(options.maxBytes)}`);
    if (isRefusal(error, 'not_an_image')) throw new PhotoDownloadError('no es una foto JPG, JPEG o HEIC');
    throw new PhotoDownloadError('la descarga se interrumpió');
  }
}
