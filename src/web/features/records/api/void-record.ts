import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { RecordResult } from '#shared/features/records/records.admin';
import { apiFetch } from '#web/platform/lib/api-client';
import { recordsAdminKeys } from './records-admin-keys';

export const voidRecord = (id: number, reason?: string) =>
  apiFetch<RecordResult>(`/api/admin/records/${id}/void`, {
    method: 'POST',
    body: JSON.stringify(reason ? { reason } : {}),
  });

/** Voids a record: it leaves the lists and the progress; it stays in the database and the audit log. */
export function useVoidRecord() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, reason }: { id: number; reason?: string }) => voidRecord(id, reason),
    onSuccess: () => {
      void queryClient.invalidateQueries({ queryKey: recordsAdminKeys.all });
      void queryClient.invalidateQueries({ queryKey: recordsAdminKeys.validation });
    },
  });
}
