import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { CorrectVoteBody, RecordResult } from '#shared/features/records-admin/records-admin';
import { ApiError, apiFetch } from '#web/platform/lib/api-client';
import type { MutationSettings } from '#web/platform/lib/mutation-errors';
import { recordsAdminKeys } from './records-admin-keys';

export const correctVote = (id: number, body: CorrectVoteBody) =>
  apiFetch<RecordResult>(`/api/admin/records/${id}/vote`, { method: 'PUT', body: JSON.stringify(body) });

/**
 * Changes or clears a record's vote (admins); results and progress move with it on the server. The body
 * names the vote corrected (`voteRevision`): a 409 means it changed meanwhile, and the lists are asked
 * again too.
 */
export function useCorrectVote(settings: MutationSettings = {}) {
  const queryClient = useQueryClient();
  const refresh = () => {
    void queryClient.invalidateQueries({ queryKey: recordsAdminKeys.all });
    void queryClient.invalidateQueries({ queryKey: recordsAdminKeys.validation });
  };
  return useMutation({
    ...settings,
    mutationFn: ({ id, ...body }: CorrectVoteBody & { id: number }) => correctVote(id, body),
    onSuccess: refresh,
    onError: (error) => {
      if (error instanceof ApiError && error.status === 409) refresh();
    },
  });
}
