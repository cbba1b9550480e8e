import { DefaultHttpStack, DetailedError, type HttpRequest, type HttpStack, Upload } from 'tus-js-client';
import { PHOTO_UPLOADS_PATH } from '#shared/features/photos/photo-uploads';
import type { PhotoKind } from '#shared/platform/constants';
import { IDEMPOTENCY_KEY_HEADER } from '#shared/platform/idempotency';
import { messages } from '#shared/platform/messages';
import { ApiError } from '#web/platform/lib/api-client';
import type { SentRequest } from '#web/platform/lib/send-request';
import { realTimers, type Timers } from '#web/platform/lib/timers';
import { UPLOAD_IDLE_TIMEOUT_MS } from '#web/platform/lib/upload-with-progress';

export interface SendResumablePhotoInput {
  slug: string;
  recordId: number;
  kind: PhotoKind;
  /** The photo's bytes: a Blob in the browser (a Buffer in Node, for the field benchmark). */
  file: Blob | Uint8Array;
  /** Its type (image/jpeg, image/heic). */
  fileType: string;
  fileName: string;
  /** The SHA-256 of the bytes, made on the phone: the server refuses them if they arrive otherwise. */
  sha256?: string;
  /** The Idempotency-Key made when the photo was taken: every request of every try carries it. */
  key: string;
  /** The day's era when the photo was taken (decision 094): a drill's photo is never taken as real. */
  era?: string | null;
  /** Where an earlier try left this photo on the server (null: nowhere yet). */
  uploadUrl: string | null;
  /** The server gave the upload an address (kept on the phone to continue after a restart), or it is gone. */
  onUploadUrl?: (url: string | null) => void | Promise<void>;
  /** 0-100 of the whole photo, counting what the server already had. */
  onProgress?: (percent: number) => void;
  signal?: AbortSignal;
  timers?: Timers;
  /** Where the app is (tests in Node give the server's address). */
  origin?: string;
  /** More headers for every request (in Node: the session cookie and the app's Origin). */
  headers?: Record<string, string>;
}

/**
 * tus-js-client's HTTP requests, given up when nothing moves for `idleMs` (tus-js-client has no
 * timeout of its own): a stalled connection ends in an error and the upload continues on the next try.
 */
export function idleTimeoutStack(inner: HttpStack, idleMs: number, timers: Timers = realTimers): HttpStack {
  return {
    getName: () => `IdleTimeout(${inner.getName()})`,
    createRequest(method: string, url: string): HttpRequest {
      const request = inner.createRequest(method, url);
      let onProgress: ((bytesSent: number) => void) | undefined;
      return {
        getMethod: () => request.getMethod(),
        getURL: () => request.getURL(),
        setHeader: (name, value) => request.setHeader(name, value),
        getHeader: (name) => request.getHeader(name),
        setProgressHandler: (handler) => {
          onProgress = handler;
        },
        abort: () => request.abort(),
        getUnderlyingObject: () => request.getUnderlyingObject(),
        send(body: unknown) {
          return new Promise((resolve, reject) => {
            let timer: unknown;
            const arm = () => {
              timers.clearTimeout(timer);
              timer = timers.setTimeout(() => {
                void request.abort();
                reject(new Error(messages.api.timeout));
              }, idleMs);
            };
            request.setProgressHandler((bytesSent) => {
              arm();
              onProgress?.(bytesSent);
            });
            arm();
            request.send(body).then(
              (response) => {
                timers.clearTimeout(timer);
                resolve(response);
              },
              (error: unknown) => {
                timers.clearTimeout(timer);
                reject(error);
              },
            );
          });
        },
      };
    },
  };
}

const parseJson = (text: string | undefined): unknown => {
  try {
    return text ? JSON.parse(text) : undefined;
  } catch {
    return undefined;
  }
};

/** POST …/complete with fetch (in the browser and in Node), given up after the idle timeout. */
async function askForAnswer(
  url: string,
  headers: Record<string, string>,
  timers: Timers,
  signal: AbortSignal | undefined,
): Promise<SentRequest> {
  const controller = new AbortController();
  const timer = timers.setTimeout(() => controller.abort(), UPLOAD_IDLE_TIMEOUT_MS);
  const abort = () => controller.abort();
  signal?.addEventListener('abort', abort);
  try {
    const response = await fetch(url, {
      method: 'POST',
      headers: { accept: 'application/json', ...headers },
      credentials: 'same-origin',
      signal: controller.signal,
    });
    return { status: response.status, body: parseJson(await response.text()) };
  } catch {
    throw new ApiError(0, messages.api.network);
  } finally {
    timers.clearTimeout(timer);
    signal?.removeEventListener('abort', abort);
  }
}

/**
 * Sends one ballot photo with the tus protocol (docs/decisions/046): continuing from what the server
 * already has when an earlier try left an upload there, reporting progress over the whole photo.
 * Resolves with the server's answer (201 and the record, or a refusal with its Spanish message, as
 * for a photo sent in one request); rejects with ApiError status 0 when there was no answer.
 */
export function sendResumablePhoto(input: SendResumablePhotoInput): Promise<SentRequest> {
  const timers = input.timers ?? realTimers;
  const origin = input.origin ?? window.location.origin;
  const headers = { ...input.headers, [IDEMPOTENCY_KEY_HEADER]: input.key };
  return new Promise<SentRequest>((resolve, reject) => {
    let done = false;
    const finish = (outcome: () => void) => {
      if (done) return;
      done = true;
      input.signal?.removeEventListener('abort', onAbort);
      outcome();
    };
    const noAnswer = (message: string) => finish(() => reject(new ApiError(0, message)));
    const onAbort = () => {
      void upload.abort();
      noAnswer(messages.api.network);
    };

    // tus-js-client takes a Blob in the browser and a Buffer in Node (a Uint8Array of Node is one).
    const upload = new Upload(input.file as Blob | Buffer, {
      endpoint: new URL(PHOTO_UPLOADS_PATH, origin).href,
      uploadUrl: input.uploadUrl,
      metadata: {
        slug: input.slug,
        recordId: String(input.recordId),
        kind: input.kind,
        filename: input.fileName,
        filetype: input.fileType,
        ...(input.sha256 ? { sha256: input.sha256 } : {}),
        ...(input.era ? { era: input.era } : {}),
      },
      headers,
      // The phone's outbox keeps the address and decides when to try again; tus-js-client only retries
      // at once what means "ask again where it stands": an offset that did not match, a locked upload.
      storeFingerprintForResuming: false,
      retryDelays: [0, 1_000, 3_000],
      onShouldRetry: (error) => {
        const status = error.originalResponse?.getStatus() ?? 0;
        const method = error.originalRequest?.getMethod();
        return status === 423 || (status === 409 && method === 'PATCH');
      },
      httpStack: idleTimeoutStack(new DefaultHttpStack({}), UPLOAD_IDLE_TIMEOUT_MS, timers),
      onUploadUrlAvailable: () => {
        void input.onUploadUrl?.(upload.url);
      },
      onProgress: (sent, total) => {
        if (total > 0) input.onProgress?.((sent / total) * 100);
      },
      onSuccess: ({ lastResponse }) => {
        const status = lastResponse.getStatus();
        const body = parseJson(lastResponse.getBody());
        if (status === 201 && body !== undefined) {
          finish(() => resolve({ status, body }));
          return;
        }
        // The server already had every byte (an earlier try's answer was lost): ask for that answer.
        askForAnswer(`${upload.url}/complete`, headers, timers, input.signal).then(
          async (answer) => {
            // Gone from the server: the next try starts a new upload (the key still finds a stored photo).
            if (answer.status === 404 || answer.status === 410) {
              await input.onUploadUrl?.(null);
              noAnswer(messages.api.network);
              return;
            }
            finish(() => resolve(answer));
          },
          (error: unknown) => noAnswer(error instanceof Error ? error.message : messages.api.network),
        );
      },
      onError: (error) => {
        const response = error instanceof DetailedError ? error.originalResponse : null;
        if (!response) {
          noAnswer(messages.api.network);
          return;
        }
        const status = response.getStatus();
        if (status === 404 || status === 410) {
          // The upload expired or was removed while it travelled: the next try starts a new one.
          void Promise.resolve(input.onUploadUrl?.(null)).finally(() => noAnswer(messages.api.network));
          return;
        }
        finish(() => resolve({ status, body: parseJson(response.getBody()) }));
      },
    });

    if (input.signal?.aborted) {
      noAnswer(messages.api.network);
      return;
    }
    input.signal?.addEventListener('abort', onAbort);
    upload.start();
  });
}
