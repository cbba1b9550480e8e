import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { RecordResult, VoidRecordBody } from '#shared/features/records-admin/records-admin';
import { apiFetch } from '#web/platform/lib/api-client';
import type { MutationSettings } from '#web/platform/lib/mutation-errors';
import { recordsAdminKeys } from './records-admin-keys';

export const voidRecord = (id: number, body: VoidRecordBody) =>
  apiFetch<RecordResult>(`/api/admin/records/${id}/void`, { method: 'POST', body: JSON.stringify(body) });

/**
 * Voids a record: it leaves the lists and the progress (its vote leaves the results unless it still
 * counts); it stays in the database and the audit log.
 */
export function useVoidRecord(settings: MutationSettings = {}) {
  const queryClient = useQueryClient();
  return useMutation({
    ...settings,
    mutationFn: ({ id, ...body }: VoidRecordBody & { id: number }) => voidRecord(id, body),
    onSuccess: () => {
      void queryClient.invalidateQueries({ queryKey: recordsAdminKeys.all });
      void queryClient.invalidateQueries({ queryKey: recordsAdminKeys.validation });
    },
  });
}
