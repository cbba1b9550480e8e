import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { PurgeBody, PurgeResult } from '#shared/features/records-admin/records-admin';
import { apiFetch } from '#web/platform/lib/api-client';
import type { MutationSettings } from '#web/platform/lib/mutation-errors';
import { recordsAdminKeys } from './records-admin-keys';

export const purgePersonalData = (body: PurgeBody) =>
  apiFetch<PurgeResult>('/api/admin/records/purge', { method: 'POST', body: JSON.stringify(body) });

/** 'Borrar datos personales': names to initials, phones removed, photos kept or removed (decision 081). */
export function usePurgePersonalData(settings: MutationSettings = {}) {
  const queryClient = useQueryClient();
  return useMutation({
    ...settings,
    mutationFn: purgePersonalData,
    onSuccess: () => {
      void queryClient.invalidateQueries({ queryKey: recordsAdminKeys.all });
      void queryClient.invalidateQueries({ queryKey: recordsAdminKeys.validation });
    },
  });
}
