import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { VoteResult } from '#shared/features/records/records';
import { ApiError, apiFetch } from '#web/platform/lib/api-client';
import { recordsKeys, replaceRecordInLists } from './get-records';

export const voteRecord = (slug: string, recordId: number, candidates: string[]) =>
  apiFetch<VoteResult>(`/api/validation/${encodeURIComponent(slug)}/records/${recordId}/vote`, {
    method: 'POST',
    body: JSON.stringify({ candidates }),
  });

export function useVoteRecord(slug: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ recordId, candidates }: { recordId: number; candidates: string[] }) =>
      voteRecord(slug, recordId, candidates),
    onSuccess: (result) => {
      replaceRecordInLists(queryClient, slug, result.record);
      void queryClient.invalidateQueries({ queryKey: recordsKeys.summary(slug) });
    },
    onError: (error) => {
      // Someone else voted first, or the record is gone: show what the server has now.
      if (error instanceof ApiError && (error.status === 409 || error.status === 404)) {
        void queryClient.invalidateQueries({ queryKey: recordsKeys.all(slug) });
      }
    },
  });
}
