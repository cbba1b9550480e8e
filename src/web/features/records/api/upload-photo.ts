import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { PhotoKind } from '../../../../shared/constants';
import { messages } from '../../../../shared/messages';
import { type PhotoUploadResult, photosMessages } from '../../../../shared/photos';
import { ApiError } from '../../../lib/api-client';
import { recordsKeys, replaceRecordInLists } from './get-records';

export interface UploadPhotoInput {
  recordId: number;
  kind: PhotoKind;
  file: File;
  /** 0-100 while the bytes travel. */
  onProgress?: (percent: number) => void;
}

/**
 * Sends one ballot photo as multipart/form-data. XMLHttpRequest rather than fetch: it reports upload
 * progress, which a validator on a slow phone network needs to see.
 */
export function uploadPhoto(slug: string, input: UploadPhotoInput): Promise<PhotoUploadResult> {
  return new Promise((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open('POST', `/api/validation/${encodeURIComponent(slug)}/records/${input.recordId}/photos/${input.kind}`);
    xhr.setRequestHeader('accept', 'application/json');
    xhr.withCredentials = true;
    xhr.upload.onprogress = (event) => {
      if (event.lengthComputable && event.total > 0) input.onProgress?.((event.loaded / event.total) * 100);
    };
    xhr.onload = () => {
      let body: unknown;
      try {
        body = xhr.responseText ? JSON.parse(xhr.responseText) : undefined;
      } catch {
        body = undefined;
      }
      if (xhr.status >= 200 && xhr.status < 300) {
        resolve(body as PhotoUploadResult);
        return;
      }
      const message = (body as { message?: string } | undefined)?.message ?? photosMessages.uploadFailed;
      reject(new ApiError(xhr.status, message));
    };
    xhr.onerror = () => reject(new ApiError(0, messages.api.network));
    xhr.onabort = () => reject(new ApiError(0, photosMessages.uploadAborted));
    xhr.ontimeout = () => reject(new ApiError(0, photosMessages.uploadFailed));
    const form = new FormData();
    form.append('file', input.file, input.file.name);
    xhr.send(form);
  });
}

export function useUploadPhoto(slug: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: UploadPhotoInput) => uploadPhoto(slug, input),
    onSuccess: (result) => {
      replaceRecordInLists(queryClient, slug, result.record);
      void queryClient.invalidateQueries({ queryKey: recordsKeys.summary(slug) });
    },
    onError: (error) => {
      if (error instanceof ApiError && (error.status === 409 || error.status === 404)) {
        void queryClient.invalidateQueries({ queryKey: recordsKeys.all(slug) });
      }
    },
  });
}
