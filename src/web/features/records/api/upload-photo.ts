import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { PhotoUploadResult } from '#shared/features/records/photos';
import type { PhotoKind } from '#shared/platform/constants';
import { ApiError } from '#web/platform/lib/api-client';
import { uploadWithProgress } from '#web/platform/lib/upload-with-progress';
import { recordsKeys, replaceRecordInLists } from './get-records';

export interface UploadPhotoInput {
  recordId: number;
  kind: PhotoKind;
  file: File;
  /** 0-100 while the bytes travel. */
  onProgress?: (percent: number) => void;
}

/** Sends one ballot photo, reporting progress. */
export function uploadPhoto(slug: string, input: UploadPhotoInput): Promise<PhotoUploadResult> {
  return uploadWithProgress<PhotoUploadResult>(
    `/api/validation/${encodeURIComponent(slug)}/records/${input.recordId}/photos/${input.kind}`,
    input.file,
    input.onProgress,
  );
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
