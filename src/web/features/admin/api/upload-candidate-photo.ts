import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { AdminCandidate } from '../../../../shared/admin';
import { messages } from '../../../../shared/messages';
import { photosMessages } from '../../../../shared/photos';
import { ApiError } from '../../../lib/api-client';
import { adminKeys } from './keys';

export interface UploadCandidatePhotoInput {
  id: number;
  file: File;
  /** 0-100 while the bytes travel. */
  onProgress?: (percent: number) => void;
}

/** Sends a candidate's photo as multipart/form-data, reporting progress (XMLHttpRequest, unlike fetch). */
export function uploadCandidatePhoto(input: UploadCandidatePhotoInput): Promise<AdminCandidate> {
  return new Promise((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open('POST', `/api/admin/candidates/${input.id}/photo`);
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
        resolve(body as AdminCandidate);
        return;
      }
      const message = (body as { message?: string } | undefined)?.message ?? photosMessages.uploadFailed;
      reject(new ApiError(xhr.status, message));
    };
    xhr.onerror = () => reject(new ApiError(0, messages.api.network));
    xhr.onabort = () => reject(new ApiError(0, photosMessages.uploadAborted));
    const form = new FormData();
    form.append('file', input.file, input.file.name);
    xhr.send(form);
  });
}

export function useUploadCandidatePhoto() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: uploadCandidatePhoto,
    onSuccess: () => {
      void queryClient.invalidateQueries({ queryKey: adminKeys.candidates() });
      void queryClient.invalidateQueries({ queryKey: ['candidates'] });
    },
  });
}
