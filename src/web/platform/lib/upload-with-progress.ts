import { photosMessages } from '#shared/features/records/photos';
import { messages } from '#shared/platform/messages';
import { ApiError } from './api-client';

/**
 * POSTs one file as multipart/form-data (field `file`) and reports upload progress (0-100).
 * XMLHttpRequest rather than fetch: it reports progress, which someone on a slow phone network
 * needs to see. Errors are ApiErrors with the server's Spanish message.
 */
export function uploadWithProgress<T>(url: string, file: File, onProgress?: (percent: number) => void): Promise<T> {
  return new Promise((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open('POST', url);
    xhr.setRequestHeader('accept', 'application/json');
    xhr.withCredentials = true;
    xhr.upload.onprogress = (event) => {
      if (event.lengthComputable && event.total > 0) onProgress?.((event.loaded / event.total) * 100);
    };
    xhr.onload = () => {
      let body: unknown;
      try {
        body = xhr.responseText ? JSON.parse(xhr.responseText) : undefined;
      } catch {
        body = undefined;
      }
      if (xhr.status >= 200 && xhr.status < 300) {
        resolve(body as T);
        return;
      }
      const message = (body as { message?: string } | undefined)?.message ?? photosMessages.uploadFailed;
      reject(new ApiError(xhr.status, message));
    };
    xhr.onerror = () => reject(new ApiError(0, messages.api.network));
    xhr.onabort = () => reject(new ApiError(0, photosMessages.uploadAborted));
    xhr.ontimeout = () => reject(new ApiError(0, photosMessages.uploadFailed));
    const form = new FormData();
    form.append('file', file, file.name);
    xhr.send(form);
  });
}
