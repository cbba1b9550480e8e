import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { BulkAccessBody, BulkAccessResult } from '#shared/features/people/people';
import { apiFetch } from '#web/platform/lib/api-client';
import { adminKeys } from '#web/platform/lib/query-keys';

export const bulkAccess = (body: BulkAccessBody) =>
  apiFetch<BulkAccessResult>('/api/admin/access/bulk', { method: 'POST', body: JSON.stringify(body) });

/** Grants or revokes one department for a pasted list; a dry run only reports. */
export function useBulkAccess() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: bulkAccess,
    onSuccess: (result) => {
      if (result.dryRun) return;
      void queryClient.invalidateQueries({ queryKey: adminKeys.users() });
      void queryClient.invalidateQueries({ queryKey: adminKeys.departments() });
    },
  });
}
