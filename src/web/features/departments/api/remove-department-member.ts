import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { DepartmentAccess } from '#shared/platform/access';
import { apiFetch } from '#web/platform/lib/api-client';
import { adminKeys } from '#web/platform/lib/query-keys';

export const removeDepartmentMember = (slug: string, email: string) =>
  apiFetch<DepartmentAccess>(
    `/api/access/departments/${encodeURIComponent(slug)}/members/${encodeURIComponent(email)}`,
    { method: 'DELETE' },
  );

/** Takes one e-mail off a department's allow-list. */
export function useRemoveDepartmentMember() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ slug, email }: { slug: string; email: string }) => removeDepartmentMember(slug, email),
    onSuccess: () => {
      void queryClient.invalidateQueries({ queryKey: adminKeys.departments() });
      void queryClient.invalidateQueries({ queryKey: adminKeys.users() });
    },
  });
}
