import type { ApiErrorBody } from '#shared/platform/errors';
import { messages } from '#shared/platform/messages';

/** An API failure with a Spanish message that can be shown as is. */
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

/**
 * Fetches JSON from our own API. The server validates every answer against its schema, so the
 * browser trusts the shape and keeps zod out of the public pages' bundle.
 */
export async function apiFetch<T>(path: string, init: RequestInit = {}): Promise<T> {
  let response: Response;
  try {
    response = await fetch(new URL(path, window.location.href), {
      credentials: 'same-origin',
      ...init,
      headers: {
        accept: 'application/json',
        ...(init.body ? { 'content-type': 'application/json' } : {}),
        ...init.headers,
      },
    });
  } catch {
    throw new ApiError(0, messages.api.network);
  }
  const text = await response.text();
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
}
