import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { CorrectVoteBody, RecordResult } from '#shared/features/records/records.admin';
import { apiFetch } from '#web/platform/lib/api-client';
import { recordsAdminKeys } from './records-admin-keys';

export const correctVote = (id: number, body: CorrectVoteBody) =>
  apiFetch<RecordResult>(`/api/admin/records/${id}/vote`, { method: 'PUT', body: JSON.stringify(body) });

/** Changes or clears a record's vote (admins); results and progress move with it on the server. */
export function useCorrectVote() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, ...body }: CorrectVoteBody & { id: number }) => correctVote(id, body),
    onSuccess: () => {
      void queryClient.invalidateQueries({ queryKey: recordsAdminKeys.all });
      void queryClient.invalidateQueries({ queryKey: recordsAdminKeys.validation });
    },
  });
}
