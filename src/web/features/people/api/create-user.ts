import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { CreateUserBody, CreateUserResult } from '#shared/features/people/people';
import { apiFetch } from '#web/platform/lib/api-client';
import type { MutationSettings } from '#web/platform/lib/mutation-errors';
import { adminKeys } from '#web/platform/lib/query-keys';

export const createUser = (body: CreateUserBody) =>
  apiFetch<CreateUserResult>('/api/admin/users', { method: 'POST', body: JSON.stringify(body) });

export function useCreateUser(settings: MutationSettings = {}) {
  const queryClient = useQueryClient();
  return useMutation({
    ...settings,
    mutationFn: createUser,
    onSuccess: () => {
      void queryClient.invalidateQueries({ queryKey: adminKeys.users() });
      void queryClient.invalidateQueries({ queryKey: adminKeys.departments() });
    },
  });
}
