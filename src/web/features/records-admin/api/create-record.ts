import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { RecordBody, RecordResult } from '#shared/features/records-admin/records-admin';
import { apiFetch } from '#web/platform/lib/api-client';
import type { MutationSettings } from '#web/platform/lib/mutation-errors';
import { recordsAdminKeys } from './records-admin-keys';

export const createRecord = (body: RecordBody) =>
  apiFetch<RecordResult>('/api/admin/records', { method: 'POST', body: JSON.stringify(body) });

export function useCreateRecord(settings: MutationSettings = {}) {
  const queryClient = useQueryClient();
  return useMutation({
    ...settings,
    mutationFn: createRecord,
    onSuccess: () => {
      void queryClient.invalidateQueries({ queryKey: recordsAdminKeys.all });
      void queryClient.invalidateQueries({ queryKey: recordsAdminKeys.validation });
    },
  });
}
