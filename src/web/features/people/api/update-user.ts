import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { AdminUser, UpdateUserBody } from '#shared/features/people/people';
import { apiFetch } from '#web/platform/lib/api-client';
import { adminKeys } from '#web/platform/lib/query-keys';

export const updateUser = (id: number, body: UpdateUserBody) =>
  apiFetch<AdminUser>(`/api/admin/users/${id}`, { method: 'PATCH', body: JSON.stringify(body) });

/** Role or enabled state of an account. */
export function useUpdateUser() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, ...body }: UpdateUserBody & { id: number }) => updateUser(id, body),
    onSuccess: () => {
      void queryClient.invalidateQueries({ queryKey: adminKeys.users() });
      void queryClient.invalidateQueries({ queryKey: adminKeys.departments() });
    },
  });
}
