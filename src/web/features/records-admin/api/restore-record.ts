import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { RecordResult, RestoreRecordBody } from '#shared/features/records-admin/records-admin';
import { apiFetch } from '#web/platform/lib/api-client';
import type { MutationSettings } from '#web/platform/lib/mutation-errors';
import { recordsAdminKeys } from './records-admin-keys';

export const restoreRecord = (id: number, body: RestoreRecordBody) =>
  apiFetch<RecordResult>(`/api/admin/records/${id}/restore`, { method: 'POST', body: JSON.stringify(body) });

/** Brings a voided record back to the validators' list; a vote that had stopped counting counts again. */
export function useRestoreRecord(settings: MutationSettings = {}) {
  const queryClient = useQueryClient();
  return useMutation({
    ...settings,
    mutationFn: ({ id, ...body }: RestoreRecordBody & { id: number }) => restoreRecord(id, body),
    onSuccess: () => {
      void queryClient.invalidateQueries({ queryKey: recordsAdminKeys.all });
      void queryClient.invalidateQueries({ queryKey: recordsAdminKeys.validation });
    },
  });
}
