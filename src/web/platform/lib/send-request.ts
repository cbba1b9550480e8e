import { messages } from '#shared/platform/messages';
import { ApiError } from './api-client';
import { realTimers, type Timers } from './timers';

export interface SendRequestOptions {
  method: 'POST' | 'PUT' | 'PATCH';
  url: string;
  headers?: Record<string, string>;
  /** A JSON string (sent as application/json) or a multipart form. */
  body: string | FormData;
  /** 0-100 while the body travels. */
  onProgress?: (percent: number) => void;
  /**
   * Gives up when nothing moves for this long: no byte sent, no answer byte received. A slow upload
   * that keeps moving is never cut; a stalled connection is (ApiError with status 0).
   */
  idleTimeoutMs: number;
  signal?: AbortSignal;
  timers?: Timers;
}

export interface SentRequest {
  status: number;
  /** The answer's JSON (undefined when it had none or was not JSON). */
  body: unknown;
}

/**
 * Sends a request with XMLHttpRequest, which reports upload progress (fetch does not), and an idle
 * timeout. Resolves with any HTTP answer, 2xx or not; rejects with ApiError status 0 when there was
 * no answer (network down, timeout, aborted).
 */
export function sendRequest(options: SendRequestOptions): Promise<SentRequest> {
  const timers = options.timers ?? realTimers;
  return new Promise((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    let timer: unknown;
    let done = false;
    const finish = (outcome: () => void) => {
      if (done) return;
      done = true;
      timers.clearTimeout(timer);
      options.signal?.removeEventListener('abort', onAbort);
      outcome();
    };
    const fail = (message: string) => finish(() => reject(new ApiError(0, message)));
    const armIdleTimer = () => {
      timers.clearTimeout(timer);
      timer = timers.setTimeout(() => {
        fail(messages.api.timeout);
        xhr.abort();
      }, options.idleTimeoutMs);
    };
    const onAbort = () => {
      fail(messages.api.network);
      xhr.abort();
    };
    if (options.signal?.aborted) {
      fail(messages.api.network);
      return;
    }
    options.signal?.addEventListener('abort', onAbort);

    xhr.open(options.method, options.url);
    xhr.setRequestHeader('accept', 'application/json');
    if (typeof options.body === 'string') xhr.setRequestHeader('content-type', 'application/json');
    for (const [name, value] of Object.entries(options.headers ?? {})) xhr.setRequestHeader(name, value);
    xhr.withCredentials = true;
    xhr.upload.onprogress = (event) => {
      armIdleTimer();
      if (event.lengthComputable && event.total > 0) options.onProgress?.((event.loaded / event.total) * 100);
    };
    xhr.upload.onload = () => {
      armIdleTimer();
      options.onProgress?.(100);
    };
    xhr.onprogress = armIdleTimer;
    xhr.onload = () => {
      let body: unknown;
      try {
        body = xhr.responseText ? JSON.parse(xhr.responseText) : undefined;
      } catch {
        body = undefined;
      }
      finish(() => resolve({ status: xhr.status, body }));
    };
    xhr.onerror = () => fail(messages.api.network);
    xhr.onabort = () => fail(messages.api.network);
    xhr.ontimeout = () => fail(messages.api.timeout);
    armIdleTimer();
    xhr.send(options.body);
  });
}
