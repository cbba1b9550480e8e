import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { AdminUser } from '#shared/features/people/people';
import { apiFetch } from '#web/platform/lib/api-client';
import { adminKeys } from '#web/platform/lib/query-keys';

export const setUserDepartments = (id: number, departments: string[]) =>
  apiFetch<AdminUser>(`/api/admin/users/${id}/departments`, {
    method: 'PUT',
    body: JSON.stringify({ departments }),
  });

export function useSetUserDepartments() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, departments }: { id: number; departments: string[] }) => setUserDepartments(id, departments),
    onSuccess: () => {
      void queryClient.invalidateQueries({ queryKey: adminKeys.users() });
      void queryClient.invalidateQueries({ queryKey: adminKeys.departments() });
    },
  });
}
