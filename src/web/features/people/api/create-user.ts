import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { CreateUserBody, CreateUserResult } from '#shared/features/people/people';
import { apiFetch } from '#web/platform/lib/api-client';
import { adminKeys } from '#web/platform/lib/query-keys';

export const createUser = (body: CreateUserBody) =>
  apiFetch<CreateUserResult>('/api/admin/users', { method: 'POST', body: JSON.stringify(body) });

export function useCreateUser() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: createUser,
    onSuccess: () => {
      void queryClient.invalidateQueries({ queryKey: adminKeys.users() });
      void queryClient.invalidateQueries({ queryKey: adminKeys.departments() });
    },
  });
}
