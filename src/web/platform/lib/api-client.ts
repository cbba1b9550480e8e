import type { ApiErrorBody } from '#shared/platform/errors';
import { messages } from '#shared/platform/messages';

/** An API failure with a Spanish message that can be shown as is. Status 0: no answer (network, timeout). */
export class ApiError extends Error {
  constructor(
    public readonly status: number,
    message: string,
    public readonly body?: ApiErrorBody,
  ) {
    super(message);
    this.name = 'ApiError';
  }
}

/** True when the server could not be reached or did not answer in time (not when it said no). */
export const isNetworkError = (error: unknown): boolean => error instanceof ApiError && error.status === 0;

/**
 * How long a JSON request may take before it is given up: a page of 100 records is a few seconds on a
 * slow 2G link; a request held for longer is treated as lost (the network is gone, not slow).
 */
export const API_TIMEOUT_MS = 30_000;

export interface ApiFetchInit extends RequestInit {
  /** Gives up after this long (ApiError with status 0); API_TIMEOUT_MS unless said. */
  timeoutMs?: number;
}

/**
 * Fetches JSON from our own API. The server validates every answer against its schema, so the
 * browser trusts the shape and keeps zod out of the public pages' bundle. Every request has a
 * timeout: a held connection ends as a network error instead of a screen that waits forever.
 */
export async function apiFetch<T>(path: string, init: ApiFetchInit = {}): Promise<T> {
  const { timeoutMs = API_TIMEOUT_MS, signal, ...rest } = init;
  const controller = new AbortController();
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    controller.abort();
  }, timeoutMs);
  const abort = () => controller.abort();
  signal?.addEventListener('abort', abort);
  try {
    let response: Response;
    try {
      response = await fetch(new URL(path, window.location.href), {
        credentials: 'same-origin',
        ...rest,
        signal: controller.signal,
        headers: {
          accept: 'application/json',
          ...(rest.body ? { 'content-type': 'application/json' } : {}),
          ...rest.headers,
        },
      });
    } catch {
      throw new ApiError(0, timedOut ? messages.api.timeout : messages.api.network);
    }
    let text: string;
    try {
      text = await response.text();
    } catch {
      throw new ApiError(0, timedOut ? messages.api.timeout : messages.api.network);
    }
    let data: unknown;
    try {
      data = text ? JSON.parse(text) : undefined;
    } catch {
      data = undefined;
    }
    if (!response.ok) {
      const body = data as ApiErrorBody | undefined;
      throw new ApiError(response.status, body?.message ?? messages.api.internal, body);
    }
    return data as T;
  } finally {
    clearTimeout(timer);
    signal?.removeEventListener('abort', abort);
  }
}
