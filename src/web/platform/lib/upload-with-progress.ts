import { photosMessages } from '#shared/features/photos/photos';
import { ApiError } from './api-client';
import { sendRequest } from './send-request';

/** An upload that moved nothing for this long is given up (the connection is gone, not slow). */
export const UPLOAD_IDLE_TIMEOUT_MS = 45_000;

/**
 * POSTs one file as multipart/form-data (field `file`) and reports upload progress (0-100).
 * XMLHttpRequest rather than fetch: it reports progress, which someone on a slow phone network
 * needs to see. Errors are ApiErrors with the server's Spanish message.
 */
export async function uploadWithProgress<T>(
  url: string,
  file: File,
  onProgress?: (percent: number) => void,
): Promise<T> {
  const form = new FormData();
  form.append('file', file, file.name);
  const answer = await sendRequest({
    method: 'POST',
    url,
    body: form,
    onProgress,
    idleTimeoutMs: UPLOAD_IDLE_TIMEOUT_MS,
  });
  if (answer.status >= 200 && answer.status < 300) return answer.body as T;
  const message = (answer.body as { message?: string } | undefined)?.message ?? photosMessages.uploadFailed;
  throw new ApiError(answer.status, message);
}
