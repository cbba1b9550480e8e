import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { RecordBody, RecordResult } from '#shared/features/records-admin/records-admin';
import { apiFetch } from '#web/platform/lib/api-client';
import type { MutationSettings } from '#web/platform/lib/mutation-errors';
import { recordsAdminKeys } from './records-admin-keys';

export const updateRecord = (id: number, body: RecordBody) =>
  apiFetch<RecordResult>(`/api/admin/records/${id}`, { method: 'PUT', body: JSON.stringify(body) });

export function useUpdateRecord(settings: MutationSettings = {}) {
  const queryClient = useQueryClient();
  return useMutation({
    ...settings,
    mutationFn: ({ id, ...body }: RecordBody & { id: number }) => updateRecord(id, body),
    onSuccess: () => {
      void queryClient.invalidateQueries({ queryKey: recordsAdminKeys.all });
      void queryClient.invalidateQueries({ queryKey: recordsAdminKeys.validation });
    },
  });
}
