import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { AdminCandidate } from '#shared/features/candidates/candidates';
import { adminKeys } from '#web/platform/lib/query-keys';
import { uploadWithProgress } from '#web/platform/lib/upload-with-progress';

export interface UploadCandidatePhotoInput {
  id: number;
  file: File;
  /** 0-100 while the bytes travel. */
  onProgress?: (percent: number) => void;
}

/** Sends a candidate's photo, reporting progress. */
export function uploadCandidatePhoto(input: UploadCandidatePhotoInput): Promise<AdminCandidate> {
  return uploadWithProgress<AdminCandidate>(`/api/admin/candidates/${input.id}/photo`, input.file, input.onProgress);
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
